// The executable's ParaView outputs: the contact-force network of a sphere
// resting on the floor carries its weight, and the walls are written once.
#include "grains_process.hpp"

#include <gtest/gtest.h>

#include <unistd.h>
#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkPolyData.h>
#include <vtkSmartPointer.h>
#include <vtkXMLPolyDataReader.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;
using grains_test::runGrainsProcess;

vtkSmartPointer<vtkPolyData> readPolyData(const fs::path& file) {
  auto reader = vtkSmartPointer<vtkXMLPolyDataReader>::New();
  reader->SetFileName(file.c_str());
  reader->Update();
  return reader->GetOutput();
}

TEST(GrainsCliNetwork, ARestingSphereCarriesItsWeightAndTheWallsAreWritten) {
  const fs::path dir = fs::temp_directory_path() / ("grains_network_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "rest.yaml") << R"(simulation: {dt: 0.01, steps: 20}
bodies:
  radius: 0.1
  mass: 2.0
  generator: {type: lattice, count: 1, spacing: 0.2,
              region: {type: box, min: [0, 0, 0], max: [0.2, 0.2, 0.2]}}
walls:
  - {type: plane, point: [0, 0, 0], normal: [0, 0, 1]}
  - {type: cylinder, side: inside, point: [0.1, 0.1, 0], radius: 1.0}
solver: {name: bbpgd, tolerance: 1.0e-12, max_iterations: 1000}
output: {vtk_every: 10, contact_network: true, log_every: 0}
)";
  const auto r = runGrainsProcess("run " + (dir / "rest.yaml").string() + " --output " +
                                  (dir / "out").string());
  ASSERT_EQ(r.status, 0) << r.output;
  const fs::path out = dir / "out";
  ASSERT_TRUE(fs::exists(out / "contacts.pvd"));
  std::ifstream pvd(out / "contacts.pvd");
  std::stringstream text;
  text << pvd.rdbuf();
  EXPECT_NE(text.str().find("timestep=\"0.2\""), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("vtk/contacts_000020.pvtp"), std::string::npos) << text.str();

  const auto network = readPolyData(out / "vtk" / "contacts_000020_r0.vtp");
  ASSERT_EQ(network->GetNumberOfCells(), 1);  // the floor; the cylinder is 0.9 m away
  vtkCellData* cells = network->GetCellData();
  EXPECT_NEAR(cells->GetArray("normal_force")->GetTuple1(0), 2.0 * 9.81, 1e-6 * 19.62);
  EXPECT_EQ(cells->GetArray("wall")->GetTuple1(0), 0.0);
  EXPECT_EQ(cells->GetArray("gid_b")->GetTuple1(0), 0.0);
  EXPECT_NEAR(cells->GetArray("force")->GetComponent(0, 2), 19.62, 1e-5);
  double start[3], end[3];
  network->GetPoint(0, start);  // the contact point on the floor
  network->GetPoint(1, end);    // the sphere's centre
  EXPECT_NEAR(start[2], 0.0, 1e-6);
  EXPECT_NEAR(end[2], 0.1, 1e-6);
  EXPECT_NEAR(end[0], 0.1, 1e-12);

  const auto walls = readPolyData(out / "walls.vtp");
  EXPECT_EQ(walls->GetNumberOfCells(), 1 + 64);  // floor quad + tube
  EXPECT_NE(walls->GetCellData()->GetArray("kind"), nullptr);
  fs::remove_all(dir);
}

TEST(GrainsCliNetwork, TheNetworkNeedsVtkFrames) {
  const auto r = runGrainsProcess(std::string("validate ") + GRAINS_SOURCE_DIR +
                                  "/config/demo_settle.yaml --set output.vtk_every=0 "
                                  "--set output.contact_network=true");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("output.contact_network"), std::string::npos) << r.output;
}

}  // namespace
