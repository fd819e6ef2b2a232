#include "body_polydata.hpp"

#include "grains/constraint/body_motion.hpp"
#include "grains/geometry/shape_traits.hpp"

#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkDoubleArray.h>
#include <vtkIntArray.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkType.h>
#include <vtkTypeInt64Array.h>

#include <sstream>
#include <stdexcept>

namespace grains::io_detail {

namespace {

vtkSmartPointer<vtkDoubleArray> doubleArray(const char* name, int components, vtkIdType n) {
  auto array = vtkSmartPointer<vtkDoubleArray>::New();
  array->SetName(name);
  array->SetNumberOfComponents(components);
  array->SetNumberOfTuples(n);
  return array;
}

void setTuple3(vtkDoubleArray* array, vtkIdType i, const Vec3& v) {
  const double values[3] = {v.x(), v.y(), v.z()};
  array->SetTypedTuple(i, values);
}

bool isLittleEndian() {
  const unsigned int probe = 1;
  return *reinterpret_cast<const unsigned char*>(&probe) == 1;
}

}  // namespace

vtkSmartPointer<vtkPolyData> makeBodyPolyData(const std::vector<Body>& bodies, int rank) {
  const auto n = static_cast<vtkIdType>(bodies.size());

  auto points = vtkSmartPointer<vtkPoints>::New();
  points->SetDataTypeToDouble();
  points->SetNumberOfPoints(n);

  auto vertices = vtkSmartPointer<vtkCellArray>::New();
  vertices->AllocateExact(n, n);

  auto gid = vtkSmartPointer<vtkTypeInt64Array>::New();
  gid->SetName("gid");
  gid->SetNumberOfTuples(n);
  auto owner = vtkSmartPointer<vtkIntArray>::New();
  owner->SetName("rank");
  owner->SetNumberOfTuples(n);
  auto radius = doubleArray("radius", 1, n);
  auto half_length = doubleArray("half_length", 1, n);
  auto shape = vtkSmartPointer<vtkIntArray>::New();
  shape->SetName("shape");  // ShapeKind: 0 sphere, 1 cylinder, 2 capsule, 3 ellipsoid, 4 torus
  shape->SetNumberOfTuples(n);
  auto velocity = doubleArray("velocity", 3, n);
  auto angular_velocity = doubleArray("angular_velocity", 3, n);
  auto orientation = doubleArray("orientation", 4, n);
  auto axis = doubleArray("axis", 3, n);
  auto semi_axes = doubleArray("semi_axes", 3, n);
  auto major_radius = doubleArray("major_radius", 1, n);
  auto external_force = doubleArray("external_force", 3, n);
  auto shape_tensor = doubleArray("shape_tensor", 9, n);
  auto contact_force = doubleArray("contact_force", 3, n);
  auto contact_force_magnitude = doubleArray("contact_force_magnitude", 1, n);
  auto num_contacts = vtkSmartPointer<vtkIntArray>::New();
  num_contacts->SetName("num_contacts");
  num_contacts->SetNumberOfTuples(n);
  auto length = doubleArray("length", 1, n);
  auto generation = vtkSmartPointer<vtkIntArray>::New();
  generation->SetName("generation");
  generation->SetNumberOfTuples(n);
  auto growth_rate = doubleArray("growth_rate", 1, n);

  for (vtkIdType i = 0; i < n; ++i) {
    const Body& body = bodies[static_cast<std::size_t>(i)];
    points->SetPoint(i, body.position.x(), body.position.y(), body.position.z());
    vertices->InsertNextCell(1, &i);
    gid->SetValue(i, static_cast<vtkTypeInt64>(body.gid));
    owner->SetValue(i, rank);
    radius->SetValue(i, body.radius);
    half_length->SetValue(i, body.half_length);
    shape->SetValue(i, static_cast<int>(body.shape));
    setTuple3(velocity, i, body.velocity);
    setTuple3(angular_velocity, i, body.angular_velocity);
    const double q[4] = {body.orientation.w(), body.orientation.x(), body.orientation.y(),
                         body.orientation.z()};
    orientation->SetTypedTuple(i, q);
    const Mat3 rot = body.orientation.toRotationMatrix();
    setTuple3(axis, i, rot.col(2));
    const ShapeTraits& traits = shapeTraits(body.shape);
    setTuple3(semi_axes, i, traits.uses(kSemiAxesParameter) ? body.semi_axes : Vec3::Zero());
    major_radius->SetValue(i, traits.uses(kMajorRadiusParameter) ? body.major_radius : 0.0);
    setTuple3(external_force, i, body.external_force);
    // R diag(s) R^T: eigenvectors are the body axes, eigenvalues the glyph semi-axes.
    const Mat3 tensor =
        rot * traits.glyph_semi_axes(shapeSize(body)).asDiagonal() * rot.transpose();
    double t[9];
    for (int row = 0; row < 3; ++row) {
      for (int col = 0; col < 3; ++col) t[3 * row + col] = tensor(row, col);
    }
    shape_tensor->SetTypedTuple(i, t);
    setTuple3(contact_force, i, body.contact_force);
    contact_force_magnitude->SetValue(i, body.contact_force.norm());
    num_contacts->SetValue(i, body.num_contacts);
    // The same length the overdamped drag uses: tip to tip for rods.
    length->SetValue(i, dragLength(body));
    generation->SetValue(i, body.generation);
    growth_rate->SetValue(i, body.growth_rate);
  }

  auto poly = vtkSmartPointer<vtkPolyData>::New();
  poly->SetPoints(points);
  poly->SetVerts(vertices);
  vtkPointData* data = poly->GetPointData();
  data->AddArray(gid);
  data->AddArray(owner);
  data->AddArray(radius);
  data->AddArray(half_length);
  data->AddArray(shape);
  data->AddArray(velocity);
  data->AddArray(angular_velocity);
  data->AddArray(orientation);
  data->AddArray(axis);
  data->AddArray(semi_axes);
  data->AddArray(major_radius);
  data->AddArray(external_force);
  data->AddArray(shape_tensor);
  data->AddArray(contact_force);
  data->AddArray(contact_force_magnitude);
  data->AddArray(num_contacts);
  data->AddArray(length);
  data->AddArray(generation);
  data->AddArray(growth_rate);
  return poly;
}

std::string xmlTypeName(vtkDataArray* array) {
  const std::string bits = std::to_string(8 * array->GetDataTypeSize());
  switch (array->GetDataType()) {
    case VTK_FLOAT:
    case VTK_DOUBLE:
      return "Float" + bits;
    case VTK_SIGNED_CHAR:
    case VTK_CHAR:
    case VTK_SHORT:
    case VTK_INT:
    case VTK_LONG:
    case VTK_LONG_LONG:
    case VTK_ID_TYPE:
      return "Int" + bits;
    case VTK_UNSIGNED_CHAR:
    case VTK_UNSIGNED_SHORT:
    case VTK_UNSIGNED_INT:
    case VTK_UNSIGNED_LONG:
    case VTK_UNSIGNED_LONG_LONG:
      return "UInt" + bits;
    default:
      throw std::logic_error(std::string("no VTK XML type name for array '") +
                             (array->GetName() ? array->GetName() : "") + "'");
  }
}

std::string makePvtpText(vtkPolyData* schema, const std::vector<std::string>& piece_sources) {
  std::ostringstream out;
  out << "<?xml version=\"1.0\"?>\n"
      << "<VTKFile type=\"PPolyData\" version=\"1.0\" byte_order=\""
      << (isLittleEndian() ? "LittleEndian" : "BigEndian") << "\" header_type=\"UInt64\">\n"
      << "  <PPolyData GhostLevel=\"0\">\n";
  auto declare = [&out](vtkFieldData* data, const char* element) {
    out << "    <" << element << ">\n";
    for (int a = 0; a < data->GetNumberOfArrays(); ++a) {
      vtkDataArray* array = data->GetArray(a);
      out << "      <PDataArray type=\"" << xmlTypeName(array) << "\" Name=\"" << array->GetName()
          << "\"";
      if (array->GetNumberOfComponents() > 1) {
        out << " NumberOfComponents=\"" << array->GetNumberOfComponents() << "\"";
      }
      out << "/>\n";
    }
    out << "    </" << element << ">\n";
  };
  declare(schema->GetPointData(), "PPointData");
  if (schema->GetCellData()->GetNumberOfArrays() > 0) declare(schema->GetCellData(), "PCellData");
  out << "    <PPoints>\n"
      << "      <PDataArray type=\"" << xmlTypeName(schema->GetPoints()->GetData())
      << "\" Name=\"Points\" NumberOfComponents=\"3\"/>\n"
      << "    </PPoints>\n";
  for (const std::string& source : piece_sources) {
    out << "    <Piece Source=\"" << source << "\"/>\n";
  }
  out << "  </PPolyData>\n"
      << "</VTKFile>\n";
  return out.str();
}

}  // namespace grains::io_detail
