#include "grains/parallel/mpi_utils.hpp"

#include <Teuchos_DefaultMpiComm.hpp>

#include <stdexcept>

namespace grains {

MPI_Comm rawMpiComm(const Comm& comm) {
  const auto* mpi_comm = dynamic_cast<const Teuchos::MpiComm<int>*>(&comm);
  if (mpi_comm == nullptr) throw std::logic_error("grains needs an MPI communicator");
  return *mpi_comm->getRawMpiComm();
}

namespace {
template <typename T>
T reduce(const Comm& comm, T value, MPI_Datatype type, MPI_Op op) {
  T result{};
  MPI_Allreduce(&value, &result, 1, type, op, rawMpiComm(comm));
  return result;
}
}  // namespace

double globalSum(const Comm& comm, double value) {
  return reduce(comm, value, MPI_DOUBLE, MPI_SUM);
}
long globalSum(const Comm& comm, long value) { return reduce(comm, value, MPI_LONG, MPI_SUM); }
double globalMax(const Comm& comm, double value) {
  return reduce(comm, value, MPI_DOUBLE, MPI_MAX);
}
double globalMin(const Comm& comm, double value) {
  return reduce(comm, value, MPI_DOUBLE, MPI_MIN);
}
long globalMax(const Comm& comm, long value) { return reduce(comm, value, MPI_LONG, MPI_MAX); }
long globalMin(const Comm& comm, long value) { return reduce(comm, value, MPI_LONG, MPI_MIN); }

}  // namespace grains
