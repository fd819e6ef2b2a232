// Run under mpirun with 1, 2 and 3 ranks: the contact-force network written
// by a distributed run holds every force-carrying contact exactly once, with
// the forces of a one-rank run: 16 spheres (of 4 different masses) resting on
// a floor, each carrying its weight.
#include "grains/app/simulation.hpp"
#include "grains/config/config_loader.hpp"
#include "grains/parallel/mpi_utils.hpp"

#include <gtest/gtest.h>
#include <unistd.h>
#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkPolyData.h>
#include <vtkSmartPointer.h>
#include <vtkXMLPolyDataReader.h>
#include <Teuchos_DefaultMpiComm.hpp>
#include <Tpetra_Core.hpp>

#include <filesystem>
#include <map>
#include <string>
#include <tuple>

namespace grains {
namespace {

namespace fs = std::filesystem;
using LineKey = std::tuple<long, long, int>;  // gid_a, gid_b, wall

const char* kMonolayer = R"(simulation: {dt: 0.01, steps: 10}
bodies:
  radius: 0.1
  mass: 1.0
  generator: {type: lattice, count: 16, spacing: 0.25,
              region: {type: box, min: [0, 0, 0], max: [1.0, 1.0, 0.2]}}
extra_bodies:
  - {shape: sphere, radius: 0.1, mass: 2.0, position: [0.1, 1.5, 0.1]}
  - {shape: sphere, radius: 0.1, mass: 3.0, position: [0.6, 1.5, 0.1]}
walls: [{type: plane, point: [0, 0, 0], normal: [0, 0, 1]}]
solver: {name: bbpgd, tolerance: 1.0e-12, max_iterations: 2000}
output: {vtk_every: 10, contact_network: true, log_every: 0, metrics_every: 0}
)";

/// Every line of the network at `step`, read from all pieces of a run.
std::map<LineKey, double> network(const fs::path& out, long step, int pieces, int& lines) {
  std::map<LineKey, double> forces;
  lines = 0;
  char name[64];
  for (int r = 0; r < pieces; ++r) {
    std::snprintf(name, sizeof name, "contacts_%06ld_r%d.vtp", step, r);
    auto reader = vtkSmartPointer<vtkXMLPolyDataReader>::New();
    reader->SetFileName((out / "vtk" / name).c_str());
    reader->Update();
    vtkPolyData* poly = reader->GetOutput();
    vtkCellData* cells = poly->GetCellData();
    for (vtkIdType c = 0; c < poly->GetNumberOfCells(); ++c) {
      ++lines;
      const LineKey key{static_cast<long>(cells->GetArray("gid_a")->GetTuple1(c)),
                        static_cast<long>(cells->GetArray("gid_b")->GetTuple1(c)),
                        static_cast<int>(cells->GetArray("wall")->GetTuple1(c))};
      forces[key] = cells->GetArray("normal_force")->GetTuple1(c);
    }
  }
  return forces;
}

TEST(ContactNetworkMpi, EveryContactOnceWithTheForcesOfOneRank) {
  auto world = Tpetra::getDefaultComm();
  const MPI_Comm world_raw = rawMpiComm(*world);
  long id = static_cast<long>(::getpid());
  MPI_Bcast(&id, 1, MPI_LONG, 0, world_raw);
  const fs::path dir = fs::temp_directory_path() / ("grains_network_mpi_" + std::to_string(id));
  const SimulationConfig config = loadConfigString(kMonolayer, "<monolayer>", ".", {});
  auto run = [&](RCP<const Comm> comm, const fs::path& out) {
    RunOptions options;
    options.output_dir = out.string();
    options.overwrite = true;
    runSimulation(config, options, comm);
  };
  run(world, dir / "world");
  MPI_Comm self_raw = MPI_COMM_NULL;
  MPI_Comm_split(world_raw, world->getRank() == 0 ? 0 : MPI_UNDEFINED, 0, &self_raw);
  if (world->getRank() == 0) {
    auto self = rcp(new Teuchos::MpiComm<int>(Teuchos::opaqueWrapper(self_raw, MPI_Comm_free)));
    run(self, dir / "one");
    int world_lines = 0, one_lines = 0;
    const auto distributed = network(dir / "world", 10, world->getSize(), world_lines);
    const auto reference = network(dir / "one", 10, 1, one_lines);
    EXPECT_EQ(world_lines, 18);  // every sphere on the floor, once
    EXPECT_EQ(static_cast<int>(distributed.size()), world_lines) << "a contact written twice";
    EXPECT_EQ(one_lines, 18);
    for (const auto& [key, force] : reference) {
      const long gid = std::get<1>(key);
      const double weight = 9.81 * (gid == 16 ? 2.0 : gid == 17 ? 3.0 : 1.0);
      EXPECT_EQ(std::get<2>(key), 0);
      EXPECT_NEAR(force, weight, 1e-6 * weight) << "body " << gid;
      ASSERT_EQ(distributed.count(key), 1u) << "body " << gid;
      EXPECT_NEAR(distributed.at(key), force, 1e-6 * weight) << "body " << gid;
    }
    fs::remove_all(dir);
  }
  world->barrier();
}

}  // namespace
}  // namespace grains
