#pragma once
// Pouring bodies into a region over time (docs/boundaries.md#pouring).
//
// Everything is a function of the step: source q's body k has the id
// (q + 1) 2^40 + k, and its size, velocity and candidate positions are drawn
// from (simulation.seed, id) alone. Every rank draws the same candidates,
// tests them against the bodies it owns, and a logical-or reduction leaves
// the candidates no rank objects to; every rank then accepts the same ones in
// the same order, and rank 0 adds them (they move to their owners at the
// step's migration). So the inserted bodies, their ids and positions are the
// same on any rank count, and a restart needs no state beyond the step.
#include "grains/config/simulation_config.hpp"
#include "grains/parallel/body_domain.hpp"

#include <string>
#include <vector>

namespace grains {

/// Bodies source `s` has inserted up to and including the batch due at
/// `time` (the start of a step of `dt`): batches of rate * every bodies at
/// start, start + every, ... (every = dt when 0), capped by count or by
/// rate * (end - start).
long insertedBy(const InsertionSource& s, double time, double dt);

/// Largest bounding radius of a body any source pours [m] (0: none).
double maxInsertedRadius(const std::vector<InsertionSource>& sources);

/// Id of body `index` of source `source`: (source + 1) 2^40 + index.
GlobalId insertedBodyId(std::size_t source, long index);

struct InsertionResult {
  std::vector<long> inserted;  ///< per source, this step (all ranks)
  long missed = 0;             ///< bodies that found no free place (all ranks)
};

/// Collective: inserts the bodies due at the start of `step` (1-based, steps
/// of `dt`), each at the first of its candidate positions that overlaps no
/// body of any rank nor a body inserted before it (bounding spheres).
InsertionResult insertBodies(BodyDomain& domain, const std::vector<InsertionSource>& sources,
                             unsigned long seed, long step, double dt);

}  // namespace grains
