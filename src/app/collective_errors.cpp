#include "grains/app/collective_errors.hpp"

#include "grains/parallel/mpi_utils.hpp"

namespace grains {

void throwConfigErrorIfAny(const Comm& comm, const std::optional<std::string>& local_error) {
  const int failing = lowestRankWhere(comm, local_error.has_value());
  if (failing < 0) return;
  throw ConfigError(broadcastString(comm, failing, local_error.value_or("")));
}

}  // namespace grains
