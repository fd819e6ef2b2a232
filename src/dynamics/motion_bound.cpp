#include "grains/dynamics/motion_bound.hpp"

#include "grains/core/text.hpp"
#include "grains/geometry/contact_geometry.hpp"
#include "grains/parallel/mpi_utils.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace grains {
namespace {

/// Diagonal of the bounding box of every body (radii included), over all ranks.
double globalExtent(const BodyDomain& domain) {
  double box[6];  // -min xyz, max xyz: one MPI_MAX
  std::fill(box, box + 6, -std::numeric_limits<double>::infinity());
  for (std::size_t i = 0; i < domain.numOwned(); ++i) {
    const Body& b = domain.bodies()[i];
    const double r = boundingRadius(b);
    for (int d = 0; d < 3; ++d) {
      box[d] = std::max(box[d], -(b.position[d] - r));
      box[3 + d] = std::max(box[3 + d], b.position[d] + r);
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, box, 6, MPI_DOUBLE, MPI_MAX, rawMpiComm(domain.comm()));
  double squared = 0.0;
  for (int d = 0; d < 3; ++d) squared += (box[3 + d] + box[d]) * (box[3 + d] + box[d]);
  return std::sqrt(squared);
}

/// "body G (rank r) moves at up to V m/s" for the fastest body, the same
/// text on every rank.
std::string fastestBody(const BodyDomain& domain, const MotionModel& motion, double dt) {
  double fastest = -1.0;
  GlobalId gid = kNoBody;
  for (std::size_t i = 0; i < domain.numOwned(); ++i) {
    const Body& b = domain.bodies()[i];
    double speed = stepSpeedBound(b, motion, dt);
    if (std::isnan(speed)) speed = std::numeric_limits<double>::infinity();
    if (speed > fastest || (speed == fastest && b.gid < gid)) {
      fastest = speed;
      gid = b.gid;
    }
  }
  const Comm& comm = domain.comm();
  const double global_fastest = globalMax(comm, fastest);
  const bool mine = gid != kNoBody && fastest == global_fastest;
  const long global_gid =
      globalMin(comm, mine ? static_cast<long>(gid) : std::numeric_limits<long>::max());
  const int rank = lowestRankWhere(comm, mine && static_cast<long>(gid) == global_gid);
  return "body " + std::to_string(global_gid) + " (rank " + std::to_string(rank) +
         ") moves at up to " + formatNumber("%.3g", global_fastest) +
         " m/s (its velocity or its free motion over the step)";
}

/// "body G has the most contacts (K)" over all ranks, the same text on
/// every rank; a contact counts for both its bodies.
std::string busiestBody(const BodyDomain& domain, const std::vector<Contact>& contacts) {
  std::vector<long> count(domain.bodies().size(), 0);
  for (const Contact& c : contacts) {
    if (c.body_a >= 0) ++count[static_cast<std::size_t>(c.body_a)];
    if (c.body_b >= 0) ++count[static_cast<std::size_t>(c.body_b)];
  }
  long most = -1;
  GlobalId gid = kNoBody;
  for (std::size_t i = 0; i < count.size(); ++i) {
    const GlobalId g = domain.bodies()[i].gid;
    if (count[i] > most || (count[i] == most && g < gid)) {
      most = count[i];
      gid = g;
    }
  }
  const Comm& comm = domain.comm();
  const long global_most = globalMax(comm, most);
  const long global_gid =
      globalMin(comm, most == global_most && gid != kNoBody ? static_cast<long>(gid)
                                                            : std::numeric_limits<long>::max());
  return "body " + std::to_string(global_gid) + " has the most (" + std::to_string(global_most) +
         (domain.comm().getSize() > 1 ? " on one rank)" : ")");
}

}  // namespace

void checkContactCount(const BodyDomain& domain, const std::vector<Contact>& contacts,
                       double envelope, int subspheres) {
  long counts[2] = {static_cast<long>(contacts.size()), static_cast<long>(domain.numOwned())};
  MPI_Allreduce(MPI_IN_PLACE, counts, 2, MPI_LONG, MPI_SUM, rawMpiComm(domain.comm()));
  const long per_body = kMaxContactsPerBody * std::max(subspheres, 1);
  if (counts[0] <= per_body * std::max(counts[1], 1L)) return;
  throw ExcessiveMotion(std::to_string(counts[0]) + " contacts among " + std::to_string(counts[1]) +
                        " bodies (more than " + std::to_string(per_body) +
                        " per body): the contact envelope (" + formatNumber("%.3g", envelope) +
                        " m) reaches far beyond the neighbours; " + busiestBody(domain, contacts) +
                        "; reduce contact.envelope or simulation.dt");
}

double stepSpeedBound(const Body& b, const MotionModel& motion, double dt) {
  const double r = boundingRadius(b);
  const Twist free = freeVelocity(b, motion, dt);
  return std::max(b.velocity.norm() + b.angular_velocity.norm() * r,
                  free.head<3>().norm() + free.tail<3>().norm() * r);
}

void checkStepReach(const BodyDomain& domain, const MotionModel& motion, double dt,
                    double max_speed, double max_radius, double reach, double configured_envelope) {
  // max_speed and reach are global: every rank takes the same branches. A
  // finite configured envelope is the user's choice; only what the speeds
  // add to it is bounded.
  const bool finite = std::isfinite(reach) && std::isfinite(max_speed);
  if (finite && (reach <= 2.0 * max_radius || reach <= configured_envelope)) return;
  if (finite) {
    if (domain.globalBodyCount() < 2) return;  // no pairs to explode
    const double extent = globalExtent(domain);
    if (!(reach > extent)) return;
    throw ExcessiveMotion("the contact envelope of a step of dt = " + formatNumber("%.3g", dt) +
                          " s (" + formatNumber("%.3g", reach) +
                          " m) exceeds the extent of all bodies (" + formatNumber("%.3g", extent) +
                          " m), so every pair of bodies would become a contact; " +
                          fastestBody(domain, motion, dt) + "; reduce simulation.dt");
  }
  throw ExcessiveMotion("the contact envelope of a step of dt = " + formatNumber("%.3g", dt) +
                        " s is not finite (" + formatNumber("%g", reach) + " m); " +
                        fastestBody(domain, motion, dt) + "; reduce simulation.dt");
}

}  // namespace grains
