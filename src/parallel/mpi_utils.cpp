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

int lowestRankWhere(const Comm& comm, bool flag) {
  const int none = comm.getSize();
  const int lowest = reduce(comm, flag ? comm.getRank() : none, MPI_INT, MPI_MIN);
  return lowest == none ? -1 : lowest;
}

std::string broadcastString(const Comm& comm, int root, const std::string& text) {
  const MPI_Comm raw = rawMpiComm(comm);
  long size = static_cast<long>(text.size());
  MPI_Bcast(&size, 1, MPI_LONG, root, raw);
  std::string out =
      comm.getRank() == root ? text : std::string(static_cast<std::size_t>(size), ' ');
  MPI_Bcast(out.data(), static_cast<int>(size), MPI_CHAR, root, raw);
  return out;
}

}  // namespace grains
