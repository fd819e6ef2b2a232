// GoogleTest main shared by the serial and MPI test executables: MPI and
// Kokkos are initialised once for the whole run; only rank 0 prints results.
#include "grains/parallel/mpi_startup.hpp"

#include <gtest/gtest.h>

#include <Tpetra_Core.hpp>

int main(int argc, char** argv) {
  grains::preferQuickSingletonStartup();  // before MPI_Init
  Tpetra::ScopeGuard tpetra_scope(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  auto comm = Tpetra::getDefaultComm();
  if (comm->getRank() != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  return RUN_ALL_TESTS();
}
