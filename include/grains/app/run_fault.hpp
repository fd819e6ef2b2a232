#pragma once
// A fault that every rank detected together (non-finite state, a policy that
// ends the run, a body leaving the domain): each rank throws the same
// RunFault, so the driver reports it once and exits without MPI_Abort.
#include <stdexcept>
#include <string>

namespace grains {

class RunFault : public std::runtime_error {
 public:
  explicit RunFault(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace grains
