// Mesh walls in the config: the file resolves against the config's
// directory, scale, rotate and translate place the triangles, the effective
// config reads back the same mesh; missing files, zero-area meshes, unknown
// keys and methods other than single are errors naming the key.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "config_test_support.hpp"
#include "grains/config/config_loader.hpp"
#include "grains/geometry/triangle_mesh.hpp"

namespace grains {
namespace {

using test::expectContains;

/// A directory with meshes/tri.stl (one triangle), meshes/mixed.stl (that
/// and one of three corners on a line) and meshes/flat.stl (zero area only).
class MeshDir {
 public:
  MeshDir() {
    const std::string base =
        std::filesystem::temp_directory_path().string() + "/grains_meshcfg_XXXXXX";
    std::vector<char> name(base.begin(), base.end());
    name.push_back('\0');
    path_ = mkdtemp(name.data());
    std::filesystem::create_directory(path_ + "/meshes");
    std::ofstream(path_ + "/meshes/tri.stl")
        << "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\n"
           "endloop\nendfacet\nendsolid t\n";
    std::ofstream(path_ + "/meshes/mixed.stl")
        << "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\n"
           "endloop\nendfacet\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\n"
           "vertex 3 0 0\nendloop\nendfacet\nendsolid t\n";
    std::ofstream(path_ + "/meshes/flat.stl")
        << "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 2 0 0\n"
           "endloop\nendfacet\nendsolid t\n";
  }
  ~MeshDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::string withWalls(const std::string& walls, const std::string& extra = "") {
  return std::string(test::kSmallLatticeYaml) + "walls:\n" + walls + extra;
}

TEST(MeshWallConfig, FileResolvesAgainstTheConfigAndIsPlaced) {
  MeshDir dir;
  const std::string yaml = withWalls(
      "  - {type: mesh, name: chute, file: meshes/tri.stl, scale: [2, 3, 1],\n"
      "     rotate: {axis: [0, 0, 1], angle_deg: 90}, translate: [0, 0, -1],\n"
      "     motion: {velocity: [0, 0, 0.5]}}\n");
  const SimulationConfig c = loadConfigString(yaml, "t", dir.path());
  ASSERT_EQ(c.walls.size(), 1u);
  const Wall& w = c.walls[0];
  ASSERT_EQ(w.kind, WallKind::Mesh);
  ASSERT_NE(w.mesh, nullptr);
  ASSERT_EQ(w.mesh->numTriangles(), 1u);
  // (1, 0, 0) -> scaled (2, 0, 0) -> turned (0, 2, 0) -> moved (0, 2, -1).
  EXPECT_LT((w.mesh->corner(0, 1) - Vec3(0, 2, -1)).norm(), 1e-15);
  EXPECT_LT((w.mesh->corner(0, 2) - Vec3(-3, 0, -1)).norm(), 1e-15);
  EXPECT_EQ(w.motion.pivot, Vec3(0, 0, -1)) << "a mesh turns about its translate by default";
  EXPECT_EQ(w.load_name, "chute");
  EXPECT_TRUE(std::filesystem::path(w.mesh->source.file).is_absolute());

  const SimulationConfig again = loadConfigString(configToYaml(c), "again", ".");
  ASSERT_EQ(again.walls.size(), 1u);
  ASSERT_EQ(again.walls[0].kind, WallKind::Mesh);
  for (int k = 0; k < 3; ++k)
    EXPECT_LT((again.walls[0].mesh->corner(0, k) - w.mesh->corner(0, k)).norm(), 1e-15);
  EXPECT_EQ(configToYaml(again), configToYaml(c));
}

TEST(MeshWallConfig, ZeroAreaTrianglesAreLeftOutAndCounted) {
  MeshDir dir;
  const SimulationConfig c =
      loadConfigString(withWalls("  - {type: mesh, file: meshes/mixed.stl}\n"), "t", dir.path());
  ASSERT_EQ(c.walls.size(), 1u);
  EXPECT_EQ(c.walls[0].mesh->numTriangles(), 1u);
  EXPECT_EQ(c.walls[0].mesh->degenerate_triangles, 1u);
}

TEST(MeshWallConfig, BadMeshesAreErrorsNamingTheKeyAndFile) {
  MeshDir dir;
  auto errorOf = [&](const std::string& walls, const std::string& extra = "") {
    try {
      loadConfigString(withWalls(walls, extra), "test.yaml", dir.path());
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    ADD_FAILURE() << "no ConfigError for " << walls;
    return std::string();
  };
  expectContains(errorOf("  - {type: mesh, file: meshes/absent.stl}\n"),
                 {"walls.0.file", "absent.stl", "no such file"});
  expectContains(errorOf("  - {type: mesh, name: hopper}\n"), {"walls.0.file"});
  expectContains(errorOf("  - {type: mesh, file: meshes/flat.stl}\n"),
                 {"walls.0.file", "flat.stl", "zero area"});
  expectContains(errorOf("  - {type: mesh, file: meshes/tri.stl, scale: [1, 0, 1]}\n"),
                 {"walls.0.scale"});
  expectContains(errorOf("  - {type: mesh, file: meshes/tri.stl, rotate: {axis: [0, 0, 1]}}\n"),
                 {"walls.0.rotate.angle_deg"});
  expectContains(errorOf("  - {type: mesh, file: meshes/tri.stl, radius: 1}\n"),
                 {"walls.0.radius"});
  expectContains(errorOf("  - {type: mesh, name: hopper, file: meshes/tri.stl}\n",
                         "contact: {method: relcp}\n"),
                 {"contact.method", "single", "hopper"});
}

}  // namespace
}  // namespace grains
