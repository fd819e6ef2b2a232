#pragma once
// Growing and dividing rods (Palmer et al. (2025) section 4.3; docs/colony.md).
//
// The tip-to-tip length l of a growing spherocylinder is a prescribed degree
// of freedom: dl/dt = g l, so l(t + dt) = l(t) e^{g dt} is known before the
// step. The stepper sets every length to its end-of-step value first and
// then generates and solves the constraints at (positions of step k, lengths
// of step k+1): the linearised gap Phi(q_k, l_{k+1}) + dt D^T U >= 0 is, to
// first order, Phi(q_k, l_k) + dt (D^T U + G l') with G = dPhi/dl, i.e. growth
// enters as a prescribed velocity of the length coordinate, and the overlaps
// growth would create are removed by the contact solve of the same step.
// Cells grow symmetrically about their centre. Division happens at the end
// of a step: a cell with l >= division_length is replaced by two daughters of
// length l/2 end to end along its axis (the parent's extent is conserved),
// each turned about its centre by a uniform random angle in [-a, a].
#include "grains/core/body.hpp"

#include <cstdint>
#include <vector>

namespace grains {

struct GrowthSettings {
  double division_length = 4.0;  ///< tip-to-tip length that triggers division [m]
  double reorientation = 0.0;    ///< largest random turn of a daughter [rad]
  bool planar = false;           ///< turn daughters about z only (monolayer)
  std::uint64_t seed = 1;        ///< random turns: a function of (seed, daughter id)
  /// Number of initial bodies N of the id scheme (see daughterId).
  GlobalId roots = 1;
};

/// Tip-to-tip length of a spherocylinder [m].
double tipToTipLength(const Body& b);

/// The spherocylinder b with tip-to-tip length `length`, same radius, density,
/// centre and axis (mass and inertia follow the volume).
Body resizedSpherocylinder(const Body& b, double length);

/// Lengths of the first `count` bodies advanced by dt: l <- l e^{g dt}.
void growBodies(std::vector<Body>& bodies, std::size_t count, double dt);

/// Globally unique ids without communication: body id = root + N * c, where
/// root < N is the initial body it descends from and c its index in a binary
/// heap (initial body 0, daughters of c are 2c + 1 and 2c + 2). Throws when
/// the id space of 64 bits is exhausted.
GlobalId daughterId(GlobalId parent, int which, GlobalId roots);

/// The two daughters of a dividing cell (which = 0: the half towards -axis).
Body daughterCell(const Body& parent, int which, const GrowthSettings& settings);

/// Replaces every body whose length reached the division length by its two
/// daughters; returns the number of divisions. Order of the result: bodies in
/// their input order, each parent replaced in place by its daughters.
long divideCells(std::vector<Body>& bodies, const GrowthSettings& settings);

}  // namespace grains
