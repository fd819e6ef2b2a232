#include "grains/app/fault_injection.hpp"

#include "grains/config/config_error.hpp"

#include <cstdlib>

namespace grains {
namespace {

constexpr const char* kVariable = "GRAINS_FAULT_INJECTION";

[[noreturn]] void reject(const std::string& spec, const std::string& why) {
  throw ConfigError(std::string(kVariable) + ": '" + spec + "': " + why +
                    "; expected KIND@STEP[:RANK] with KIND one of nan, throw, exit, unconverged, "
                    "STEP >= 1 and RANK >= 0");
}

long parseCount(const std::string& spec, const std::string& text, long minimum) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    reject(spec, "'" + text + "' is not a non-negative integer");
  if (text.size() > 12) reject(spec, "'" + text + "' is too large");
  const long value = std::stol(text);
  if (value < minimum) reject(spec, "'" + text + "' is below " + std::to_string(minimum));
  return value;
}

}  // namespace

FaultInjection parseFaultInjection(const std::string& spec) {
  const auto at = spec.find('@');
  if (at == std::string::npos) reject(spec, "no '@'");
  FaultInjection fault;
  const std::string kind = spec.substr(0, at);
  if (kind == "nan")
    fault.kind = FaultKind::Nan;
  else if (kind == "throw")
    fault.kind = FaultKind::Throw;
  else if (kind == "exit")
    fault.kind = FaultKind::Exit;
  else if (kind == "unconverged")
    fault.kind = FaultKind::Unconverged;
  else
    reject(spec, "unknown kind '" + kind + "'");
  const std::string rest = spec.substr(at + 1);
  const auto colon = rest.find(':');
  fault.step = parseCount(spec, rest.substr(0, colon), 1);
  if (colon != std::string::npos)
    fault.rank = static_cast<int>(parseCount(spec, rest.substr(colon + 1), 0));
  return fault;
}

std::optional<FaultInjection> faultInjectionFromEnvironment() {
  const char* value = std::getenv(kVariable);
  if (value == nullptr || *value == '\0') return std::nullopt;
  return parseFaultInjection(value);
}

}  // namespace grains
