// Contacts of ellipsoids: the minimum shared-normal signed separation
// ("deepest point", Palmer et al. (2025) section 2.5) against ellipsoids, spheres,
// spherocylinders and walls.
//
// An ellipsoid with centre c, rotation R and semi-axes (a, b, c) has the shape
// matrix Q = R diag(a^2, b^2, c^2) R^T, the support function
// h(n) = c.n + sqrt(n^T Q n) and the support point s(n) = c + Q n / sqrt(n^T Q n).
// Two problems recur:
//  - convex pairs: with f(n) = h_A(n) + h_B(-n) (support function of the
//    Minkowski difference A - B), gap = -min_{|n|=1} f(n). The minimiser is the
//    normal from a to b and s_A(n), s_B(-n) are the contact points; this is the
//    distance for separated pairs and the minimum translation distance for
//    overlapping ones;
//  - points: the closest point of an ellipsoid (or of an ellipse) to a point,
//    and the farthest point of an ellipse, are roots of one-dimensional
//    "secular" equations for the Lagrange multiplier (solveSecular below).
#include "grains/geometry/contact_geometry.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace grains {
namespace {

using Vec2 = Eigen::Vector2d;
using Mat2 = Eigen::Matrix2d;

double square(double x) { return x * x; }

Vec3 perpendicularTo(const Vec3& axis) {
  const Vec3 trial = std::abs(axis.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
  return (trial - trial.dot(axis) * axis).normalized();
}

struct EllipsoidShape {
  Vec3 center;
  Mat3 rotation;  // body -> world
  Vec3 axes;      // semi-axes along the body x, y, z axes
  Mat3 shape;     // Q = R diag(axes^2) R^T
};

EllipsoidShape shapeOf(const Body& b) {
  const Vec3& e = b.semi_axes;
  if (!(e.minCoeff() > 0.0) || !std::isfinite(e.maxCoeff())) {
    throw std::invalid_argument("ellipsoid body " + std::to_string(b.gid) +
                                " needs three positive finite semi-axes");
  }
  EllipsoidShape s;
  s.center = b.position;
  s.rotation = b.orientation.normalized().toRotationMatrix();
  s.axes = e;
  s.shape = s.rotation * e.cwiseAbs2().asDiagonal() * s.rotation.transpose();
  return s;
}

Vec3 supportPoint(const EllipsoidShape& e, const Vec3& n) {
  const Vec3 qn = e.shape * n;
  return e.center + qn / std::sqrt(n.dot(qn));
}

// Eigen-decomposition of a symmetric 2x2 matrix: lambda(0) >= lambda(1), the
// columns of `vectors` the matching orthonormal eigenvectors.
void symmetricEigen2(const Mat2& m, Vec2& lambda, Mat2& vectors) {
  const double half_diff = 0.5 * (m(0, 0) - m(1, 1));
  const double mean = 0.5 * (m(0, 0) + m(1, 1));
  const double r = std::sqrt(half_diff * half_diff + m(0, 1) * m(0, 1));
  lambda = Vec2(mean + r, mean - r);
  // (lambda0 - m11, m01) and (m01, lambda0 - m00) both solve the first
  // eigenvector; take the one without cancellation.
  Vec2 v = half_diff >= 0.0 ? Vec2(half_diff + r, m(0, 1)) : Vec2(m(0, 1), r - half_diff);
  const double len = v.norm();
  v = len > 0.0 ? Vec2(v / len) : Vec2(1.0, 0.0);
  vectors.col(0) = v;
  vectors.col(1) = Vec2(-v.y(), v.x());
}

// Root u >= 0 of S(u) = sum_i c_i^2 / (u + d_i)^2 = 1 with c_i >= 0, d_i >= 0,
// given S(u) -> infinity or S(0) >= 1 (so a root exists at u >= 0). psi(u) =
// S^(-1/2) is a power mean of the affine functions (u + d_i) / c_i with
// exponent -2, hence concave and increasing: Newton on psi(u) = 1 started
// left of the root (psi <= 1) never overshoots and is exact for one term.
// Each term is <= 1 at the root, so u >= c_i - d_i for all i is such a start.
template <int N>
double solveSecular(const Eigen::Matrix<double, N, 1>& c, const Eigen::Matrix<double, N, 1>& d) {
  double u = 0.0;
  for (int i = 0; i < N; ++i) u = std::max(u, c[i] - d[i]);
  for (int iter = 0; iter < 100; ++iter) {
    double s = 0.0, ds = 0.0;  // S and -S'/2
    for (int i = 0; i < N; ++i) {
      if (c[i] == 0.0) continue;
      const double q = c[i] / (u + d[i]);
      s += q * q;
      ds += q * q / (u + d[i]);
    }
    if (s <= 1.0 || ds <= 0.0) break;
    const double step = (s * std::sqrt(s) - s) / ds;
    if (!(step > 1e-16 * u) && !(u == 0.0 && step > 0.0)) break;
    u += step;
  }
  return u;
}

// Closest point (or, for `farthest`, the farthest point) of the ellipse or
// ellipsoid sum_i (x_i / e_i)^2 = 1 to the point q, in its principal frame.
// Stationary points: x_i = e_i^2 q_i / (e_i^2 + t) for the Lagrange multiplier
// t. The closest point is the root with t > -min e_i^2 and the farthest the
// root with t < -max e_i^2 (unique on those branches; written below with
// lambda = -t). When q has no component along the axes of the pole (q on a
// symmetry plane, on an axis, at the centre) the root may not exist on the
// branch: then t sits at the pole and the pole axis component closes
// sum (x_i / e_i)^2 = 1 (two mirror solutions; we take the positive one).
template <int N>
struct ExtremalPoint {
  Eigen::Matrix<double, N, 1> point;   // on the surface
  Eigen::Matrix<double, N, 1> normal;  // outward unit surface normal at point
  double multiplier = 0.0;             // t: q - x = t x / e^2
};

template <int N>
ExtremalPoint<N> extremalPoint(const Eigen::Matrix<double, N, 1>& e,
                               const Eigen::Matrix<double, N, 1>& q, bool farthest) {
  using V = Eigen::Matrix<double, N, 1>;
  const V e2 = e.cwiseAbs2();
  // Work with s_i = +-e_i^2 so both branches read sum (c_i / (u + d_i))^2 = 1
  // with u = t_branch - pole >= 0 and d_i = s_i + pole >= 0 (no cancellation).
  const V s = farthest ? V(-e2) : e2;
  const double pole = (-s).maxCoeff();
  const V d = (s.array() + pole).max(0.0).matrix();
  const V y = q.cwiseAbs();
  const V c = e.cwiseProduct(y);
  bool at_pole_axis_free = true;  // no c_i > 0 on the pole axes
  for (int i = 0; i < N; ++i) {
    if (d[i] == 0.0 && c[i] > 0.0) at_pole_axis_free = false;
  }
  double pole_sum = 0.0;  // S(0) without the pole axes
  if (at_pole_axis_free) {
    for (int i = 0; i < N; ++i) {
      if (d[i] > 0.0 && c[i] > 0.0) pole_sum += (c[i] / d[i]) * (c[i] / d[i]);
    }
  }
  ExtremalPoint<N> out;
  V x = V::Zero();
  double u = 0.0;
  if (at_pole_axis_free && pole_sum < 1.0) {
    int k = 0;
    for (int i = 0; i < N; ++i) {
      if (d[i] == 0.0) {
        k = i;
        break;
      }
    }
    for (int i = 0; i < N; ++i) {
      if (d[i] > 0.0) x[i] = e2[i] * y[i] / d[i];
    }
    x[k] = e[k] * std::sqrt(std::max(0.0, 1.0 - pole_sum));
  } else {
    u = solveSecular<N>(c, d);
    for (int i = 0; i < N; ++i) x[i] = c[i] == 0.0 ? 0.0 : e2[i] * y[i] / (u + d[i]);
  }
  // Back to the signs of q (the farthest point lies on the opposite side;
  // on a mirror plane of q either choice is valid).
  for (int i = 0; i < N; ++i) {
    if (q[i] != 0.0 && (q[i] < 0.0) != farthest) x[i] = -x[i];
  }
  out.point = x;
  const V grad = x.cwiseQuotient(e2);
  out.normal = grad.normalized();
  out.multiplier = farthest ? -(u + pole) : u + pole;
  return out;
}

// Signed distance from q to the ellipsoid (or ellipse) surface, negative
// inside, with the closest point and its outward normal. q - x = t grad(x)/2,
// so the distance is t |x / e^2| with the sign of t.
template <int N>
double signedDistance(const Eigen::Matrix<double, N, 1>& e, const Eigen::Matrix<double, N, 1>& q,
                      ExtremalPoint<N>& closest) {
  closest = extremalPoint<N>(e, q, false);
  return closest.multiplier * closest.point.cwiseQuotient(e.cwiseAbs2()).norm();
}

// ---- ellipsoid pair: minimise f(n) = h_A(n) + h_B(-n) on the unit sphere.

struct PairMinimum {
  Vec3 normal;
  double value;
};

class PairObjective {
 public:
  PairObjective(const EllipsoidShape& a, const EllipsoidShape& b)
      : qa_(a.shape), qb_(b.shape), d_(b.center - a.center) {}

  double value(const Vec3& n) const {
    return -d_.dot(n) + std::sqrt(n.dot(qa_ * n)) + std::sqrt(n.dot(qb_ * n));
  }

  // Safeguarded Newton on the sphere from `start`. At n, v = n + T u
  // (T = tangent basis) parametrises the sphere by n(u) = v / |v|;
  // phi(u) = f(v) / |v| (f is 1-homogeneous) has gradient T^T grad f and
  // Hessian T^T H_f T - f I at u = 0, where H_h = (Q - Qn (Qn)^T / h^2) / h
  // for h = sqrt(n^T Q n). Negative curvature is flipped and small curvature
  // floored (saddle-free Newton), long steps are capped and an Armijo
  // backtracking keeps every step a descent.
  // A run that comes within ~1e-3 rad of a minimum in `known` stops there
  // (value +infinity): it would converge to the same point.
  PairMinimum minimise(const Vec3& start, const std::vector<Vec3>& known = {}) const {
    Vec3 n = start.normalized();
    const double scale = d_.norm() + std::sqrt(qa_.trace()) + std::sqrt(qb_.trace());
    const double tol = 1e-13 * scale;
    const double curvature_floor = 1e-9 * scale;
    double f = value(n);
    for (int iter = 0; iter < 60; ++iter) {
      const Vec3 qa = qa_ * n, qb = qb_ * n;
      const double ha = std::sqrt(n.dot(qa)), hb = std::sqrt(n.dot(qb));
      f = -d_.dot(n) + ha + hb;
      const Vec3 grad = -d_ + qa / ha + qb / hb;
      const Vec3 t1 = perpendicularTo(n);
      const Vec3 t2 = n.cross(t1);
      const Vec2 g(t1.dot(grad), t2.dot(grad));
      if (g.norm() <= tol) break;
      const Mat3 hess = (qa_ - qa * qa.transpose() / (ha * ha)) / ha +
                        (qb_ - qb * qb.transpose() / (hb * hb)) / hb;
      Mat2 reduced;
      reduced(0, 0) = t1.dot(hess * t1) - f;
      reduced(0, 1) = reduced(1, 0) = t1.dot(hess * t2);
      reduced(1, 1) = t2.dot(hess * t2) - f;
      Vec2 lambda;
      Mat2 vecs;
      symmetricEigen2(reduced, lambda, vecs);
      const bool convex = lambda(1) > curvature_floor;
      Vec2 step = Vec2::Zero();
      for (int i = 0; i < 2; ++i) {
        step -= vecs.col(i) * (vecs.col(i).dot(g) / std::max(std::abs(lambda(i)), curvature_floor));
      }
      const double len = step.norm();
      if (len > 0.5) step *= 0.5 / len;
      // Near a non-degenerate minimum take the pure Newton step: the Armijo
      // test would fail on round-off before the normal is fully converged.
      const bool newton_region = convex && len < 1e-2;
      bool accepted = false;
      for (int k = 0; k < 40; ++k) {
        const Vec3 trial = (n + step.x() * t1 + step.y() * t2).normalized();
        const double ft = value(trial);
        if (newton_region || ft <= f + 1e-4 * g.dot(step)) {
          n = trial;
          f = ft;
          accepted = true;
          break;
        }
        step *= 0.5;
      }
      if (!accepted) break;
      for (const Vec3& m : known) {
        if (n.dot(m) > 1.0 - 5e-7) return {m, std::numeric_limits<double>::infinity()};
      }
    }
    return {n, value(n)};
  }

 private:
  const Mat3& qa_;
  const Mat3& qb_;
  Vec3 d_;
};

// ---- walls

ContactGeometry wallPlaneEllipsoid(const Wall& wall, const EllipsoidShape& e) {
  const Vec3& n = wall.normal;
  ContactGeometry g;
  g.normal = n;
  g.point_b = supportPoint(e, -n);
  const double height = n.dot(e.center - wall.point);
  g.gap = height - std::sqrt(n.dot(e.shape * n));
  g.point_a = g.point_b - n.dot(g.point_b - wall.point) * n;
  return g;
}

// Cylinder walls. Only directions n perpendicular to the axis w have a finite
// support function on an infinite cylinder, so the problem lives in the plane
// perpendicular to w, where the ellipsoid projects to the ellipse with shape
// matrix T^T Q T around the projected centre (T: basis of the plane):
//  - outside (free space outside the solid cylinder of radius R): the pair
//    separation is the signed distance from the axis to the projected ellipse
//    minus R (closest point problem, negative when the axis pierces the body);
//  - inside: the deepest point is the point of the ellipsoid farthest from the
//    axis, i.e. the farthest point of the projected ellipse from the axis
//    (largest-multiplier root of the same secular equation, unique), gap =
//    R - that distance.
// The 3D contact point is the support point of the ellipsoid in the radial
// direction found in the plane (it projects onto the 2D point).
ContactGeometry wallCylinderEllipsoid(const Wall& wall, const EllipsoidShape& e) {
  const Vec3& w = wall.normal;
  const Vec3 t1 = perpendicularTo(w);
  const Vec3 t2 = w.cross(t1);
  Eigen::Matrix<double, 3, 2> basis;
  basis << t1, t2;
  const Vec2 centre2 = basis.transpose() * (e.center - wall.point);
  const Mat2 q2 = basis.transpose() * e.shape * basis;
  Vec2 lambda;
  Mat2 frame;  // columns: principal directions of the projected ellipse
  symmetricEigen2(q2, lambda, frame);
  const Vec2 semi(std::sqrt(std::max(lambda(0), 0.0)), std::sqrt(std::max(lambda(1), 0.0)));
  // The axis seen from the ellipse centre, in the ellipse's principal frame.
  const Vec2 axis_local = frame.transpose() * (-centre2);
  const bool inside = wall.kind == WallKind::CylinderInside;
  ContactGeometry g;
  Vec3 radial;  // unit, perpendicular to w, from the axis towards the contact
  if (inside) {
    const ExtremalPoint<2> far = extremalPoint<2>(semi, axis_local, true);
    const Vec2 from_axis = far.point - axis_local;
    const double dist = from_axis.norm();
    radial = dist > 0.0 ? Vec3(basis * (frame * (from_axis / dist))) : t1;
    g.gap = wall.radius - dist;
    g.normal = -radial;
    g.point_b = supportPoint(e, radial);
  } else {
    ExtremalPoint<2> near;
    const double dist = signedDistance<2>(semi, axis_local, near);
    // The ellipse's outward normal at its closest point faces the axis.
    radial = -(basis * (frame * near.normal));
    g.gap = dist - wall.radius;
    g.normal = radial;
    g.point_b = supportPoint(e, -radial);
  }
  const Vec3 on_axis = wall.point + w.dot(g.point_b - wall.point) * w;
  g.point_a = on_axis + wall.radius * radial;
  return g;
}

}  // namespace

ContactGeometry ellipsoidPair(const Body& a, const Body& b) {
  const EllipsoidShape ea = shapeOf(a);
  const EllipsoidShape eb = shapeOf(b);
  const PairObjective objective(ea, eb);
  const Vec3 d = eb.center - ea.center;
  const double dist = d.norm();
  const double size = ea.axes.maxCoeff() + eb.axes.maxCoeff();
  PairMinimum best{Vec3::UnitZ(), std::numeric_limits<double>::infinity()};
  if (dist > 1e-14 * size) best = objective.minimise(d / dist);
  // When is a local minimum the global one?
  //  - f < 0 (separated): along the chord to any lower point f / |v|
  //    decreases, so no other local minimum is below 0.
  //  - f < r0 = sum of the smallest radii of curvature c^2 / a of the bodies:
  //    then h_A + h_B(-.) - r0 |.| is still a support function (its Hessian
  //    on the sphere, the radii of curvature minus r0, stays >= 0), of a
  //    convex body K' with A - B = K' + ball(r0), and the minimum is a local
  //    minimum of h_K' below 0: global by the first case. This covers every
  //    shallow overlap, so one Newton run is the common case.
  // Deeper overlaps can have several local minima: start from the body axes
  // too, only from the side facing b (f(-n) = f(n) - 2 d.n, so the global
  // minimum has d.n >= 0).
  const double certain = square(ea.axes.minCoeff()) / ea.axes.maxCoeff() +
                         square(eb.axes.minCoeff()) / eb.axes.maxCoeff();
  if (!(best.value < certain)) {
    std::vector<Vec3> found;
    found.reserve(7);
    if (std::isfinite(best.value)) found.push_back(best.normal);
    for (const Mat3* rot : {&ea.rotation, &eb.rotation}) {
      for (int axis = 0; axis < 3 && !(best.value < certain); ++axis) {
        const Vec3 start = d.dot(rot->col(axis)) < 0.0 ? Vec3(-rot->col(axis)) : rot->col(axis);
        const PairMinimum m = objective.minimise(start, found);
        if (!std::isfinite(m.value)) continue;
        found.push_back(m.normal);
        if (m.value < best.value) best = m;
      }
    }
  }
  ContactGeometry g;
  g.normal = best.normal;
  g.point_a = supportPoint(ea, best.normal);
  g.point_b = supportPoint(eb, -best.normal);
  g.gap = -best.value;
  return g;
}

ContactGeometry ellipsoidSphere(const Body& ellipsoid, const Vec3& center, double radius) {
  const EllipsoidShape e = shapeOf(ellipsoid);
  const Vec3 local = e.rotation.transpose() * (center - e.center);
  ExtremalPoint<3> closest;
  const double dist = signedDistance<3>(e.axes, local, closest);
  ContactGeometry g;
  g.normal = e.rotation * closest.normal;
  g.point_a = e.center + e.rotation * closest.point;
  g.point_b = center - radius * g.normal;
  g.gap = dist - radius;
  return g;
}

// The signed distance to a convex body is convex, so along the capsule's core
// D(t) = sdf(p0 + t (p1 - p0)) is convex and has one minimum (or a flat
// stretch): no sampling is needed. D'(t) = n(t).(p1 - p0) with n the outward
// normal at the closest point; an end is the minimum when D' does not change
// sign, otherwise the root of D' is found by Illinois regula falsi.
// At an interior minimum n is perpendicular to the core, so n is also the
// capsule's surface normal there: the shared-normal condition holds.
ContactGeometry ellipsoidSpherocylinder(const Body& ellipsoid, const Body& capsule) {
  const EllipsoidShape e = shapeOf(ellipsoid);
  const Vec3 half = capsule.half_length * (capsule.orientation.normalized() * Vec3::UnitZ());
  const Vec3 p0 = capsule.position - half;
  const Vec3 dir = 2.0 * half;
  const Mat3 rot_t = e.rotation.transpose();
  const Vec3 local0 = rot_t * (p0 - e.center);
  const Vec3 local_dir = rot_t * dir;
  auto slope = [&](double t, ExtremalPoint<3>& closest) {
    signedDistance<3>(e.axes, Vec3(local0 + t * local_dir), closest);
    return closest.normal.dot(local_dir);
  };
  ExtremalPoint<3> closest;
  double t = 0.5;
  if (dir.norm() > 1e-14 * e.axes.maxCoeff()) {
    double lo = 0.0, hi = 1.0;
    double f_lo = slope(lo, closest);
    double f_hi = slope(hi, closest);
    if (f_lo >= 0.0) {
      t = 0.0;
    } else if (f_hi <= 0.0) {
      t = 1.0;
    } else {
      // Stop on a vanishing slope, or on a tiny bracket (D' may jump where
      // the core crosses the medial surface of a deep overlap).
      const double slope_tol = 1e-14 * local_dir.norm();
      int kept_side = 0;
      bool converged = false;
      for (int iter = 0; iter < 100 && hi - lo > 1e-14; ++iter) {
        t = (lo * f_hi - hi * f_lo) / (f_hi - f_lo);
        if (!(t > lo && t < hi)) t = 0.5 * (lo + hi);
        const double f = slope(t, closest);
        if (std::abs(f) <= slope_tol) {
          converged = true;
          break;
        }
        if (f < 0.0) {
          lo = t;
          f_lo = f;
          if (kept_side == 1) f_hi *= 0.5;  // Illinois: hi kept twice
          kept_side = 1;
        } else {
          hi = t;
          f_hi = f;
          if (kept_side == -1) f_lo *= 0.5;
          kept_side = -1;
        }
      }
      if (!converged) t = 0.5 * (lo + hi);
    }
  }
  return ellipsoidSphere(ellipsoid, p0 + t * dir, capsule.radius);
}

ContactGeometry wallEllipsoid(const Wall& wall, const Body& ellipsoid) {
  const EllipsoidShape e = shapeOf(ellipsoid);
  switch (wall.kind) {
    case WallKind::Plane:
      return wallPlaneEllipsoid(wall, e);
    case WallKind::CylinderInside:
    case WallKind::CylinderOutside:
      return wallCylinderEllipsoid(wall, e);
    case WallKind::Disc:
    case WallKind::Cone:
    case WallKind::Mesh:
      break;  // refused by wallBody
  }
  throw std::logic_error("wallEllipsoid: unknown wall kind");
}

}  // namespace grains
