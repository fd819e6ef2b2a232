#include "checkpoint_fields.hpp"

namespace grains::io_detail {
namespace {

void getVec(const Vec3& v, double* out) {
  out[0] = v.x();
  out[1] = v.y();
  out[2] = v.z();
}

Vec3 vecOf(const double* in) { return Vec3(in[0], in[1], in[2]); }

}  // namespace

// One entry per member of Body (core/body.hpp): a new member needs a row
// here, or it would not survive a restart.
const std::vector<BodyRealField>& bodyRealFields() {
  static const std::vector<BodyRealField> fields = {
      {"radius", "m", "", 1, [](const Body& b, double* o) { *o = b.radius; },
       [](Body& b, const double* i) { b.radius = *i; }},
      {"half_length", "m", "", 1, [](const Body& b, double* o) { *o = b.half_length; },
       [](Body& b, const double* i) { b.half_length = *i; }},
      {"semi_axes", "m", "a b c", 3, [](const Body& b, double* o) { getVec(b.semi_axes, o); },
       [](Body& b, const double* i) { b.semi_axes = vecOf(i); }},
      {"major_radius", "m", "", 1, [](const Body& b, double* o) { *o = b.major_radius; },
       [](Body& b, const double* i) { b.major_radius = *i; }},
      {"mass", "kg", "", 1, [](const Body& b, double* o) { *o = b.mass; },
       [](Body& b, const double* i) { b.mass = *i; }},
      {"inertia", "kg m^2", "body x y z", 3, [](const Body& b, double* o) { getVec(b.inertia, o); },
       [](Body& b, const double* i) { b.inertia = vecOf(i); }},
      {"position", "m", "x y z", 3, [](const Body& b, double* o) { getVec(b.position, o); },
       [](Body& b, const double* i) { b.position = vecOf(i); }},
      {"orientation", "1", "w x y z", 4,
       [](const Body& b, double* o) {
         o[0] = b.orientation.w();
         o[1] = b.orientation.x();
         o[2] = b.orientation.y();
         o[3] = b.orientation.z();
       },
       [](Body& b, const double* i) { b.orientation = Quat(i[0], i[1], i[2], i[3]); }},
      {"velocity", "m/s", "x y z", 3, [](const Body& b, double* o) { getVec(b.velocity, o); },
       [](Body& b, const double* i) { b.velocity = vecOf(i); }},
      {"angular_velocity", "rad/s", "x y z", 3,
       [](const Body& b, double* o) { getVec(b.angular_velocity, o); },
       [](Body& b, const double* i) { b.angular_velocity = vecOf(i); }},
      {"external_force", "N", "x y z", 3,
       [](const Body& b, double* o) { getVec(b.external_force, o); },
       [](Body& b, const double* i) { b.external_force = vecOf(i); }},
      {"growth_rate", "1/s", "", 1, [](const Body& b, double* o) { *o = b.growth_rate; },
       [](Body& b, const double* i) { b.growth_rate = *i; }},
      {"contact_force", "N", "x y z", 3,
       [](const Body& b, double* o) { getVec(b.contact_force, o); },
       [](Body& b, const double* i) { b.contact_force = vecOf(i); }},
      {"contact_torque", "N m", "x y z", 3,
       [](const Body& b, double* o) { getVec(b.contact_torque, o); },
       [](Body& b, const double* i) { b.contact_torque = vecOf(i); }},
  };
  return fields;
}

const std::vector<BodyIntegerField>& bodyIntegerFields() {
  static const std::vector<BodyIntegerField> fields = {
      {"gid", "1", [](const Body& b) { return static_cast<long long>(b.gid); },
       [](Body& b, long long v) { b.gid = static_cast<GlobalId>(v); }},
      {"shape", "0 sphere, 1 cylinder, 2 spherocylinder, 3 ellipsoid, 4 torus",
       [](const Body& b) { return static_cast<long long>(b.shape); },
       [](Body& b, long long v) { b.shape = static_cast<ShapeKind>(v); }},
      {"generation", "1", [](const Body& b) { return static_cast<long long>(b.generation); },
       [](Body& b, long long v) { b.generation = static_cast<int>(v); }},
      {"num_contacts", "1", [](const Body& b) { return static_cast<long long>(b.num_contacts); },
       [](Body& b, long long v) { b.num_contacts = static_cast<int>(v); }},
  };
  return fields;
}

const char* const kImpulseUnits = "N s (columns n u w), N m s (columns r1 r2 s)";
const char* const kImpulseColumns = "n u w r1 r2 s";

}  // namespace grains::io_detail
