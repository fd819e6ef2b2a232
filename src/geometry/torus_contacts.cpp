// Contacts of tori (rings): all points within the tube radius r of a centre
// circle of radius R. The surface is the circle's offset surface, so the
// shared-normal signed separation ("deepest point", Palmer et al. (2025) section 2.5)
// against another tube or a sphere is the distance between the closest points
// of the centre curves minus the radii, along the line joining them. A ring is
// not convex: the distance along the circle can have several local minima (a
// ring through a ring has two, section 4.4's chainmail), and the contact is
// the global one. The circle angle is sampled, every sampled local minimum is
// refined (golden section, then bisection on the derivative of the gap, which
// the contact normal gives in closed form), and the best is kept.
#include "grains/geometry/contact_geometry.hpp"
#include "grains/geometry/torus_geometry.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace grains {

Vec3 CentreCircle::at(double angle) const {
  return center + radius * (std::cos(angle) * u + std::sin(angle) * v);
}

Vec3 CentreCircle::derivative(double angle) const {
  return radius * (-std::sin(angle) * u + std::cos(angle) * v);
}

CentreCircle centreCircle(const Body& torus) {
  if (torus.shape != ShapeKind::Torus) {
    throw std::invalid_argument("centreCircle: body " + std::to_string(torus.gid) +
                                " is not a torus");
  }
  if (!(torus.major_radius >= 0.0) || !(torus.radius >= 0.0)) {
    throw std::invalid_argument("torus " + std::to_string(torus.gid) + ": major_radius (" +
                                std::to_string(torus.major_radius) + ") and radius (" +
                                std::to_string(torus.radius) + ") must be >= 0");
  }
  const Mat3 rot = torus.orientation.toRotationMatrix();
  CentreCircle c;
  c.center = torus.position;
  c.u = rot.col(0);
  c.v = rot.col(1);
  c.axis = rot.col(2);
  c.radius = torus.major_radius;
  return c;
}

Vec3 closestPointOnCircle(const CentreCircle& circle, const Vec3& p) {
  const Vec3 rel = p - circle.center;
  const Vec3 radial = rel - rel.dot(circle.axis) * circle.axis;
  const double rho = radial.norm();
  // Within round-off of the axis the direction is noise: use angle 0.
  if (rho <= 1e-14 * (rel.norm() + circle.radius)) return circle.center + circle.radius * circle.u;
  return circle.center + (circle.radius / rho) * radial;
}

namespace {

constexpr double kTwoPi = 2.0 * kPi;
/// Samples along the circle before refining; a ring pair has at most a few
/// local minima, well separated unless the distance is nearly constant.
constexpr int kSamples = 64;

/// The contact of the tube around the circle point at one angle, and the
/// derivative of its gap with respect to the angle.
struct Probe {
  double angle = 0.0;
  ContactGeometry g;
  double slope = 0.0;
};

/// Normal of a tube (side a, centre-curve point p with tangent ta) against a
/// curve point q (tangent tb) of the other body: along q - p, or, when the
/// curves cross (distance ~ 0), perpendicular to both tangents (a's outward
/// radial_a when they are parallel), on the side of towards_b.
Vec3 tubeNormal(const Vec3& p, const Vec3& ta, const Vec3& q, const Vec3& tb, const Vec3& radial_a,
                const Vec3& towards_b, double length_scale) {
  const Vec3 d = q - p;
  const double dist = d.norm();
  if (dist > 1e-14 * length_scale) return d / dist;
  Vec3 n = ta.cross(tb);
  const double tiny = 1e-12 * std::max(1e-300, ta.norm() * tb.norm());
  n = n.norm() > tiny ? Vec3(n.normalized()) : radial_a;
  return n.dot(towards_b) < 0.0 ? Vec3(-n) : n;
}

/// Outward unit vector of the circle's plane at angle (the axis when R = 0).
Vec3 radialOf(const CentreCircle& c, double angle) {
  if (c.radius <= 0.0) return c.axis;
  return std::cos(angle) * c.u + std::sin(angle) * c.v;
}

/// The zero of the gap's derivative in [a, c], where it goes from negative
/// to positive: false position with the Illinois halving (superlinear, and
/// the bracket shrinks from both sides). Exact to round-off in the angle, so
/// the normal is a true shared normal (the gap alone resolves the angle only
/// to ~1e-8).
template <class Eval>
Probe solveSlope(const Eval& eval, double a, double c, double slope_a, double slope_c) {
  const double eps = std::numeric_limits<double>::epsilon();
  int kept = 0;  // which end the last step kept: -1 a moved, +1 c moved
  for (int k = 0; k < 200 && c - a > 4.0 * eps * std::max(1.0, std::abs(a)); ++k) {
    double m = (a * slope_c - c * slope_a) / (slope_c - slope_a);
    if (!(m > a && m < c)) m = 0.5 * (a + c);
    const double s = eval(m).slope;
    if (s < 0.0) {
      a = m;
      slope_a = s;
      if (kept == -1) slope_c *= 0.5;
      kept = -1;
    } else if (s > 0.0) {
      c = m;
      slope_c = s;
      if (kept == 1) slope_a *= 0.5;
      kept = 1;
    } else {
      a = c = m;
    }
  }
  return eval(0.5 * (a + c));
}

/// Refine a local minimum bracketed by lo < mid < hi with f(mid) <= f(lo),
/// f(hi): the zero of the gap's derivative when it changes sign across the
/// bracket, else (a kink, or several stationary points) golden section on
/// the gap, finished on the derivative once the bracket is small.
template <class Eval>
Probe refineMinimum(const Eval& eval, const Probe& lo, const Probe& mid, const Probe& hi,
                    double length_scale) {
  if (lo.slope < 0.0 && hi.slope > 0.0) {
    const Probe root = solveSlope(eval, lo.angle, hi.angle, lo.slope, hi.slope);
    if (root.g.gap <= mid.g.gap + 1e-13 * length_scale) return root;
  }
  constexpr double kGolden = 0.3819660112501051;  // (3 - sqrt 5) / 2
  Probe best = mid;
  double a = lo.angle, b = mid.angle, c = hi.angle;
  auto golden = [&](double width) {
    while (c - a > width) {
      const double x = (b - a > c - b) ? b - kGolden * (b - a) : b + kGolden * (c - b);
      const Probe px = eval(x);
      if (px.g.gap < best.g.gap) {
        (x < b ? c : a) = b;
        b = x;
        best = px;
      } else {
        (x < b ? a : c) = x;
      }
    }
  };
  golden(1e-7);
  const double slope_a = eval(a).slope, slope_c = eval(c).slope;
  if (slope_a < 0.0 && slope_c > 0.0) {
    const Probe root = solveSlope(eval, a, c, slope_a, slope_c);
    if (root.g.gap <= best.g.gap + 1e-13 * length_scale) best = root;
  } else {
    golden(1e-13);
  }
  return best;
}

/// Local minima of eval's gap over [lo, hi], sampled at kSub times the
/// coarse resolution: where the distance is nearly flat, two minima and the
/// maximum between them can hide between two coarse samples.
template <class Eval>
void refineInterval(const Eval& eval, double lo, double hi, double length_scale,
                    std::vector<Probe>& minima) {
  constexpr int kSub = 16;
  const int n = std::max(2, static_cast<int>(std::lround((hi - lo) / (kTwoPi / kSamples))) * kSub);
  std::vector<Probe> fine;
  fine.reserve(n + 1);
  for (int k = 0; k <= n; ++k) fine.push_back(eval(lo + (hi - lo) * k / n));
  for (int k = 1; k < n; ++k) {
    if (fine[k].g.gap <= fine[k - 1].g.gap && fine[k].g.gap < fine[k + 1].g.gap) {
      minima.push_back(refineMinimum(eval, fine[k - 1], fine[k], fine[k + 1], length_scale));
    }
  }
  // A minimum the samples straddle without a lower sample: the derivative
  // still changes sign across it.
  for (int k = 0; k < n; ++k) {
    if (fine[k].slope < 0.0 && fine[k + 1].slope > 0.0) {
      const Probe root =
          solveSlope(eval, fine[k].angle, fine[k + 1].angle, fine[k].slope, fine[k + 1].slope);
      if (root.g.gap <= std::min(fine[k].g.gap, fine[k + 1].g.gap)) minima.push_back(root);
    }
  }
}

/// Every distinct local minimum over the circle angle of eval's gap, sorted
/// by gap. A gap constant along the circle (to round-off) gives the single
/// deterministic probe at angle 0.
template <class Eval>
std::vector<Probe> localMinimaOverCircle(const Eval& eval, double length_scale) {
  const double step = kTwoPi / kSamples;
  std::vector<Probe> samples;
  samples.reserve(kSamples + 1);
  double lowest = std::numeric_limits<double>::infinity();
  double highest = -lowest;
  for (int i = 0; i < kSamples; ++i) {
    samples.push_back(eval(i * step));
    lowest = std::min(lowest, samples.back().g.gap);
    highest = std::max(highest, samples.back().g.gap);
  }
  if (highest - lowest <= 1e-12 * length_scale) return {samples.front()};

  auto sample = [&](int i) -> const Probe& { return samples[(i + kSamples) % kSamples]; };
  // Strict on one side, so a run of equal samples yields one candidate.
  auto sampledMinimum = [&](int i) {
    return sample(i).g.gap <= sample(i - 1).g.gap && sample(i).g.gap < sample(i + 1).g.gap;
  };
  std::vector<Probe> minima;
  for (int i = 0; i < kSamples; ++i) {
    if (sampledMinimum(i)) {
      refineInterval(eval, (i - 1) * step, (i + 1) * step, length_scale, minima);
    } else if (sample(i).slope < 0.0 && sample(i + 1).slope > 0.0 && !sampledMinimum(i + 1)) {
      // The gap descends into a minimum between two samples that neither
      // sample's value reveals.
      refineInterval(eval, i * step, (i + 1) * step, length_scale, minima);
    }
  }
  for (Probe& m : minima) {
    m.angle = std::fmod(m.angle, kTwoPi);
    if (m.angle < 0.0) m.angle += kTwoPi;
  }
  std::sort(minima.begin(), minima.end(),
            [](const Probe& x, const Probe& y) { return x.g.gap < y.g.gap; });
  // Neighbouring brackets can converge to the same minimum.
  std::vector<Probe> distinct;
  for (const Probe& m : minima) {
    const bool seen = std::any_of(distinct.begin(), distinct.end(), [&](const Probe& d) {
      const double diff = std::abs(d.angle - m.angle);
      return std::min(diff, kTwoPi - diff) < 1e-6;
    });
    if (!seen) distinct.push_back(m);
  }
  return distinct;
}

double pairScale(const CentreCircle& a, const CentreCircle& b, double ra, double rb) {
  return a.radius + b.radius + ra + rb + (b.center - a.center).norm() + 1e-300;
}

std::vector<Probe> torusPairProbes(const Body& a, const Body& b) {
  const CentreCircle ca = centreCircle(a);
  const CentreCircle cb = centreCircle(b);
  const double scale = pairScale(ca, cb, a.radius, b.radius);
  auto eval = [&](double angle) {
    Probe pr;
    pr.angle = angle;
    const Vec3 p = ca.at(angle);
    const Vec3 ta = ca.derivative(angle);
    const Vec3 q = closestPointOnCircle(cb, p);
    const Vec3 tb = cb.axis.cross(q - cb.center);
    const Vec3 n = tubeNormal(p, ta, q, tb, radialOf(ca, angle), cb.center - ca.center, scale);
    pr.g.normal = n;
    pr.g.gap = (q - p).norm() - a.radius - b.radius;
    pr.g.point_a = p + a.radius * n;
    pr.g.point_b = q - b.radius * n;
    // d|q - p| / d angle = (p - q) . p' / |q - p| (q moves perpendicular to q - p).
    pr.slope = -n.dot(ta);
    return pr;
  };
  return localMinimaOverCircle(eval, scale);
}

}  // namespace

std::vector<ContactGeometry> torusPairLocalMinima(const Body& a, const Body& b) {
  std::vector<ContactGeometry> out;
  for (const Probe& p : torusPairProbes(a, b)) out.push_back(p.g);
  return out;
}

ContactGeometry torusPair(const Body& a, const Body& b) { return torusPairProbes(a, b).front().g; }

ContactGeometry torusSphere(const Body& torus, const Vec3& center, double radius) {
  const CentreCircle c = centreCircle(torus);
  const Vec3 q = closestPointOnCircle(c, center);
  const Vec3 d = center - q;
  const double dist = d.norm();
  ContactGeometry g;
  if (dist > 1e-14 * (c.radius + torus.radius + radius + (center - c.center).norm())) {
    g.normal = d / dist;
  } else if (c.radius > 0.0) {
    // Sphere centre on the centre circle: leave radially outwards.
    g.normal = (q - c.center) / c.radius;
  } else {
    g.normal = c.axis;
  }
  g.gap = dist - torus.radius - radius;
  g.point_a = q + torus.radius * g.normal;
  g.point_b = center - radius * g.normal;
  return g;
}

ContactGeometry torusSpherocylinder(const Body& torus, const Body& capsule) {
  const CentreCircle c = centreCircle(torus);
  const Vec3 half = capsule.half_length * (capsule.orientation * Vec3::UnitZ());
  const Vec3 s0 = capsule.position - half;
  const Vec3 ds = 2.0 * half;
  const double len2 = ds.squaredNorm();
  const Vec3 seg_dir =
      len2 > 0.0 ? Vec3(ds / std::sqrt(len2)) : Vec3(capsule.orientation * Vec3::UnitZ());
  const double scale = c.radius + torus.radius + capsule.radius + capsule.half_length +
                       (capsule.position - c.center).norm() + 1e-300;
  auto eval = [&](double angle) {
    Probe pr;
    pr.angle = angle;
    const Vec3 p = c.at(angle);
    const Vec3 tp = c.derivative(angle);
    const double t = len2 > 0.0 ? std::clamp((p - s0).dot(ds) / len2, 0.0, 1.0) : 0.0;
    const Vec3 q = s0 + t * ds;
    const Vec3 n =
        tubeNormal(p, tp, q, seg_dir, radialOf(c, angle), capsule.position - c.center, scale);
    pr.g.normal = n;
    pr.g.gap = (q - p).norm() - torus.radius - capsule.radius;
    pr.g.point_a = p + torus.radius * n;
    pr.g.point_b = q - capsule.radius * n;
    pr.slope = -n.dot(tp);
    return pr;
  };
  return localMinimaOverCircle(eval, scale).front().g;
}

ContactGeometry torusEllipsoid(const Body& torus, const Body& ellipsoid) {
  const CentreCircle c = centreCircle(torus);
  const double scale = c.radius + torus.radius + ellipsoid.semi_axes.maxCoeff() +
                       (ellipsoid.position - c.center).norm() + 1e-300;
  auto eval = [&](double angle) {
    Probe pr;
    pr.angle = angle;
    const Vec3 p = c.at(angle);
    // The tube around p is a sphere of the torus's tube radius.
    const ContactGeometry e = ellipsoidSphere(ellipsoid, p, torus.radius);
    pr.g = flipped(e);
    // The gap's gradient with respect to the sphere centre is e.normal.
    pr.slope = e.normal.dot(c.derivative(angle));
    return pr;
  };
  return localMinimaOverCircle(eval, scale).front().g;
}

ContactGeometry wallTorus(const Wall& wall, const Body& torus) {
  const CentreCircle c = centreCircle(torus);
  const double r = torus.radius;
  ContactGeometry g;
  switch (wall.kind) {
    case WallKind::Plane: {
      // Lowest circle point: opposite the normal's in-plane component.
      const Vec3& n = wall.normal;
      const Vec3 n_perp = n - n.dot(c.axis) * c.axis;
      const double len = n_perp.norm();
      // A ring parallel to the plane touches it all round: angle 0.
      const Vec3 p = len > 1e-14 ? Vec3(c.center - (c.radius / len) * n_perp) : c.at(0.0);
      const double height = n.dot(p - wall.point);
      g.normal = n;
      g.gap = height - r;
      g.point_a = p - height * n;
      g.point_b = p - r * n;
      return g;
    }
    case WallKind::CylinderInside:
    case WallKind::CylinderOutside: {
      const Vec3& axis = wall.normal;
      const bool inside = wall.kind == WallKind::CylinderInside;
      const double scale =
          c.radius + r + wall.radius + (c.center - wall.point).cross(axis).norm() + 1e-300;
      // Inside: the circle point farthest from the axis; outside: the nearest.
      auto eval = [&](double angle) {
        Probe pr;
        pr.angle = angle;
        const Vec3 p = c.at(angle);
        const Vec3 rel = p - wall.point;
        const Vec3 radial = rel - rel.dot(axis) * axis;
        const double rho = radial.norm();
        const Vec3 outward = rho > 1e-14 * scale ? Vec3(radial / rho) : anyPerpendicular(axis);
        pr.g.normal = inside ? Vec3(-outward) : outward;
        pr.g.gap = inside ? wall.radius - rho - r : rho - wall.radius - r;
        pr.g.point_a = p - radial + wall.radius * outward;
        pr.g.point_b = p - r * pr.g.normal;
        // Moving the tube centre along the normal opens the gap.
        pr.slope = pr.g.normal.dot(c.derivative(angle));
        return pr;
      };
      return localMinimaOverCircle(eval, scale).front().g;
    }
    case WallKind::Disc:
    case WallKind::Cone:
    case WallKind::Mesh:
      break;  // refused by wallBody
  }
  throw std::logic_error("wallTorus: unknown wall kind");
}

}  // namespace grains
