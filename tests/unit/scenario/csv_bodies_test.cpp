// Bodies from CSV files, and the rejection of overlapping initial bodies.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "grains/config/config_loader.hpp"
#include "grains/geometry/shape_traits.hpp"
#include "grains/scenario/body_generator.hpp"

namespace grains {
namespace {

namespace fs = std::filesystem;

class CsvBodies : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("grains_csv_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  /// Writes bodies.csv and scenario.yaml (with `extra` appended) and loads the latter.
  SimulationConfig load(const std::string& csv, const std::string& extra = "") {
    std::ofstream(dir_ / "bodies.csv") << csv;
    std::ofstream(dir_ / "scenario.yaml") << "simulation: {dt: 0.01, steps: 1}\n"
                                             "bodies:\n"
                                             "  radius: 0.5\n"
                                             "  density: 1000\n"
                                             "  initial_velocity: [0, 0, -1]\n"
                                             "  generator: {type: file, file: bodies.csv}\n"
                                          << extra;
    return loadConfigFile((dir_ / "scenario.yaml").string());
  }

  /// The ConfigError message of generateAllBodies for this CSV.
  std::string errorOf(const std::string& csv, const std::string& extra = "") {
    const SimulationConfig config = load(csv, extra);
    try {
      generateAllBodies(config);
    } catch (const ConfigError& e) {
      return e.what();
    }
    ADD_FAILURE() << "no ConfigError for:\n" << csv;
    return "";
  }

  std::string csvPath() const { return (dir_ / "bodies.csv").string(); }

  fs::path dir_;
};

void expectContains(const std::string& message, const std::vector<std::string>& parts) {
  for (const auto& part : parts) {
    EXPECT_NE(message.find(part), std::string::npos) << "expected '" << part << "' in: " << message;
  }
}

TEST_F(CsvBodies, ReadsColumnsAndFillsDefaultsFromTheConfig) {
  const SimulationConfig config = load(
      "# bodies for the test\n"
      "x, y, z, radius, vx\n"
      "\n"
      "0, 0, 1, 0.25, 2\n"
      "# a comment between rows\n"
      "3.5, -1, 2e0, 1.0, -1\r\n"
      "10,10,10,0.5,0\n");
  const std::vector<Body> bodies = generateAllBodies(config);
  ASSERT_EQ(bodies.size(), 3u);
  EXPECT_EQ(bodies[0].gid, 0);
  EXPECT_EQ(bodies[2].gid, 2);
  EXPECT_EQ(bodies[0].position, Vec3(0, 0, 1));
  EXPECT_EQ(bodies[1].position, Vec3(3.5, -1, 2));
  EXPECT_DOUBLE_EQ(bodies[0].radius, 0.25);
  EXPECT_DOUBLE_EQ(bodies[1].radius, 1.0);
  // Mass from bodies.density and each body's own radius.
  EXPECT_NEAR(bodies[0].mass, 1000.0 * 4.0 / 3.0 * kPi * 0.25 * 0.25 * 0.25, 1e-9);
  EXPECT_NEAR(bodies[1].mass, 1000.0 * 4.0 / 3.0 * kPi, 1e-9);
  // vx from the file, vy and vz from bodies.initial_velocity.
  EXPECT_EQ(bodies[0].velocity, Vec3(2, 0, -1));
  EXPECT_EQ(bodies[1].velocity, Vec3(-1, 0, -1));
}

TEST_F(CsvBodies, MissingColumnsUseConfigRadiusAndMass) {
  const SimulationConfig config = load("z,y,x,mass\n1,2,3,7.5\n");
  const auto bodies = generateAllBodies(config);
  ASSERT_EQ(bodies.size(), 1u);
  EXPECT_EQ(bodies[0].position, Vec3(3, 2, 1));
  EXPECT_DOUBLE_EQ(bodies[0].radius, 0.5);
  EXPECT_DOUBLE_EQ(bodies[0].mass, 7.5);
  EXPECT_DOUBLE_EQ(bodies[0].inertia.z(), 0.4 * 7.5 * 0.25);
}

TEST_F(CsvBodies, BadNumberNamesFileLineAndColumn) {
  expectContains(errorOf("x,y,z\n0,0,0\n# comment\n5,abc,0\n"),
                 {csvPath() + ":4:2", "y = 'abc'", "expected a number"});
}

TEST_F(CsvBodies, HeaderErrors) {
  expectContains(errorOf("x,y,z,colour\n0,0,0,1\n"),
                 {csvPath() + ":1:4", "unknown column 'colour'", "radius, mass"});
  expectContains(errorOf("\nx,y\n0,0\n"), {csvPath() + ":2", "no column 'z'"});
  expectContains(errorOf("x,y,z,x\n"), {csvPath() + ":1:4", "duplicate column 'x'"});
  expectContains(errorOf("# only a comment\n"), {csvPath(), "no header"});
  expectContains(errorOf("x,y,z\n"), {csvPath(), "no bodies"});
}

TEST_F(CsvBodies, RowErrors) {
  expectContains(errorOf("x,y,z\n0,0,0\n1,1\n"),
                 {csvPath() + ":3", "expected 3 fields", "found 2"});
  expectContains(errorOf("x,y,z,radius\n0,0,0,-0.5\n"),
                 {csvPath() + ":2:4", "radius = -0.5", "expected a number > 0"});
  expectContains(errorOf("x,y,z\n0,0,\n"), {csvPath() + ":2:3", "z = ''"});
}

TEST_F(CsvBodies, MissingFileNamesTheKey) {
  const SimulationConfig config = load("x,y,z\n0,0,0\n");
  fs::remove(dir_ / "bodies.csv");
  try {
    generateAllBodies(config);
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    expectContains(e.what(), {"scenario.yaml", "bodies.generator.file = bodies.csv", csvPath()});
  }
}

TEST_F(CsvBodies, OverlappingBodiesAreRejected) {
  expectContains(errorOf("x,y,z\n0,0,0\n5,5,5\n0.9,0,0\n"),
                 {"scenario.yaml: initial configuration: bodies 0 and 2 overlap by 0.1 m"});
  // Exactly touching bodies are accepted.
  EXPECT_EQ(generateAllBodies(load("x,y,z\n0,0,0\n1,0,0\n")).size(), 2u);
}

TEST_F(CsvBodies, BodiesPenetratingAWallAreRejected) {
  expectContains(errorOf("x,y,z\n0,0,2\n0,0,0.3\n",
                         "walls: [{type: plane, name: floor, normal: [0, 0, 1]}]\n"),
                 {"initial configuration: body 1", "penetrates wall 'floor' (plane) by 0.2 m"});
  expectContains(
      errorOf("x,y,z\n0,0,2\n1.7,0,0\n", "walls: [{type: cylinder, side: inside, radius: 2}]\n"),
      {"body 1", "wall 'walls.0' (cylinder, inside) by 0.2 m"});
  expectContains(
      errorOf("x,y,z\n3,0,0\n0.9,0,0\n", "walls: [{type: cylinder, side: outside, radius: 0.5}]\n"),
      {"body 1", "(cylinder, outside) by 0.1 m"});
}

TEST(InitialOverlaps, FindsOverlapsAcrossCellBoundariesAndNamesTheGids) {
  std::vector<Body> bodies;
  for (int i = 0; i < 50; ++i) bodies.push_back(makeSphere(100 + i, 0.1, 1.0, Vec3(i * 0.3, 0, 0)));
  EXPECT_NO_THROW(checkInitialOverlaps(bodies, {}));
  // 0.39 and 0.41 fall in different cells of size 0.2; they overlap by 0.18.
  bodies.push_back(makeSphere(7, 0.1, 1.0, Vec3(0.59, 0.0, 0.0)));
  bodies.push_back(makeSphere(3, 0.1, 1.0, Vec3(0.39, 5.0, 0.0)));
  bodies.push_back(makeSphere(9, 0.1, 1.0, Vec3(0.41, 5.0, 0.0)));
  try {
    checkInitialOverlaps(bodies, {});
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    const std::string msg = e.what();
    // Body 7 at x = 0.59 overlaps body 102 at x = 0.6 by 0.19 and is found first.
    expectContains(msg, {"bodies 7 and 102 overlap by 0.19 m", "radii 0.1 and 0.1"});
  }
  bodies.erase(bodies.end() - 3);
  try {
    checkInitialOverlaps(bodies, {});
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    expectContains(e.what(), {"bodies 3 and 9 overlap by 0.18 m"});
  }
}

}  // namespace
}  // namespace grains
