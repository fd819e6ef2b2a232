#pragma once
// Deliberate faults for the reliability tests (docs/reliability.md), read from
// the environment variable GRAINS_FAULT_INJECTION = KIND@STEP[:RANK]:
//   nan          a velocity of the first body rank RANK owns becomes NaN after STEP
//   throw        rank RANK throws std::runtime_error at the start of STEP
//   exit         rank RANK ends its process (std::_Exit(3)) at the start of STEP
//   unconverged  the first solve of STEP reports non-convergence (all ranks)
// RANK defaults to 0. Unset or empty: no fault.
#include <optional>
#include <string>

namespace grains {

enum class FaultKind { Nan, Throw, Exit, Unconverged };

struct FaultInjection {
  FaultKind kind = FaultKind::Nan;
  long step = 0;
  int rank = 0;

  /// Whether this fault strikes `rank` at `step` (unconverged: every rank).
  bool strikes(FaultKind k, long at_step, int at_rank) const {
    return kind == k && step == at_step && (k == FaultKind::Unconverged || rank == at_rank);
  }
};

/// Parses KIND@STEP[:RANK]; throws ConfigError naming the variable otherwise.
FaultInjection parseFaultInjection(const std::string& spec);
/// The fault GRAINS_FAULT_INJECTION asks for, if any.
std::optional<FaultInjection> faultInjectionFromEnvironment();

}  // namespace grains
