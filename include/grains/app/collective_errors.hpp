#pragma once
// Bad input found on some ranks only (a file one rank reads, a check on a
// rank's share of the bodies) must still end the run on every rank with the
// same message: agreeOnConfigErrors runs `work` and, if it threw ConfigError
// anywhere, throws the lowest failing rank's ConfigError on all ranks.
#include "grains/config/config_error.hpp"
#include "grains/linalg/tpetra_types.hpp"

#include <optional>
#include <string>
#include <type_traits>
#include <utility>

namespace grains {

/// Collective: throws ConfigError(message of the lowest rank that has one)
/// on every rank if any rank passes a message.
void throwConfigErrorIfAny(const Comm& comm, const std::optional<std::string>& local_error);

template <typename Work>
auto agreeOnConfigErrors(const Comm& comm, Work&& work) -> decltype(work()) {
  using Result = decltype(work());
  std::optional<std::string> error;
  if constexpr (std::is_void_v<Result>) {
    try {
      work();
    } catch (const ConfigError& e) {
      error = e.what();
    }
    throwConfigErrorIfAny(comm, error);
  } else {
    std::optional<Result> result;
    try {
      result.emplace(work());
    } catch (const ConfigError& e) {
      error = e.what();
    }
    throwConfigErrorIfAny(comm, error);
    return std::move(*result);
  }
}

}  // namespace grains
