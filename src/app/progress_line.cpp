#include "grains/app/progress_line.hpp"

#include <cmath>
#include <cstdio>

namespace grains {

std::string formatDuration(double seconds) {
  char text[48];
  if (!std::isfinite(seconds) || seconds < 0.0) return "?";
  if (seconds < 60.0) {
    std::snprintf(text, sizeof text, "%.1f s", seconds);
    return text;
  }
  const long s = std::lround(seconds);
  if (s < 3600)
    std::snprintf(text, sizeof text, "%ld min %02ld s", s / 60, s % 60);
  else if (s < 86400)
    std::snprintf(text, sizeof text, "%ld h %02ld min", s / 3600, (s % 3600) / 60);
  else
    std::snprintf(text, sizeof text, "%ld d %02ld h", s / 86400, (s % 86400) / 3600);
  return text;
}

void ProgressLine::recordStep(double wall_seconds) {
  ++steps_;
  ++window_steps_;
  seconds_ += wall_seconds;
  window_seconds_ += wall_seconds;
}

double ProgressLine::meanSinceLastLine() const {
  return window_steps_ > 0 ? window_seconds_ / static_cast<double>(window_steps_) : 0.0;
}

double ProgressLine::eta(long step) const {
  if (steps_ == 0) return 0.0;
  const long remaining = total_steps_ > step ? total_steps_ - step : 0;
  return seconds_ / static_cast<double>(steps_) * static_cast<double>(remaining);
}

std::string ProgressLine::line(long step, double time, const StepReport& r, bool relcp,
                               double elapsed_seconds) {
  char recursion[64] = "";
  if (relcp)
    std::snprintf(recursion, sizeof recursion, "  relcp=%d%s", r.recursions,
                  r.relcp_resolved ? "" : " (unresolved)");
  char text[400];
  std::snprintf(text, sizeof text,
                "step %ld/%ld  t=%.4g s  bodies=%ld  contacts=%ld (active %ld)  %s it=%d "
                "res=%.2e%s%s  KE=%.4g J  overlap=%.3g m  imbalance=%.3f  %.3f s/step  "
                "elapsed %s  ETA %s\n",
                step, total_steps_, time, r.bodies, r.contacts, r.active_contacts,
                r.solve.solver.c_str(), r.solve.iterations, r.solve.residual,
                r.solve.converged ? "" : " (not converged)", recursion, r.kinetic_energy,
                r.max_overlap, r.domain.load_imbalance, meanSinceLastLine(),
                formatDuration(elapsed_seconds).c_str(), formatDuration(eta(step)).c_str());
  window_steps_ = 0;
  window_seconds_ = 0.0;
  return text;
}

}  // namespace grains
