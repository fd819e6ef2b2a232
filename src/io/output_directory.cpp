#include "grains/io/output_directory.hpp"

#include "collective.hpp"

#include <filesystem>
#include <stdexcept>
#include <vector>

namespace grains {

namespace fs = std::filesystem;

namespace {

bool endsWith(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

void removeGrainsOutputs(const fs::path& dir) {
  std::vector<fs::path> doomed;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (isGrainsOutputName(entry.path().filename().string())) doomed.push_back(entry.path());
  }
  // remove_all does not follow symbolic links: a linked vtk/ loses the link only.
  for (const auto& path : doomed) fs::remove_all(path);
}

void prepareOnRoot(const std::string& dir, bool overwrite, bool keep_existing) {
  if (dir.empty()) throw std::runtime_error("output directory path is empty");
  const fs::path path(dir);
  const fs::file_status status = fs::status(path);
  if (!fs::exists(status)) {
    fs::create_directories(path);
    return;
  }
  if (!fs::is_directory(status)) {
    throw std::runtime_error("output path '" + dir + "' exists and is not a directory");
  }
  if (keep_existing || fs::is_empty(path)) return;
  if (!overwrite) {
    throw std::runtime_error("output directory '" + dir +
                             "' already exists and is not empty; pass --overwrite to replace "
                             "its contents");
  }
  removeGrainsOutputs(path);
}

}  // namespace

bool isGrainsOutputName(const std::string& file_name) {
  return file_name == "vtk" || file_name == "metrics.csv" || file_name == "walls.vtp" ||
         file_name == "timing.csv" || endsWith(file_name, ".pvd") ||
         endsWith(file_name, ".pvd.tmp");
}

namespace {

void prepareCollectively(const std::string& dir, bool overwrite, bool keep_existing,
                         MPI_Comm comm) {
  std::string error;
  if (io_detail::commRank(comm) == 0) {
    try {
      prepareOnRoot(dir, overwrite, keep_existing);
    } catch (const fs::filesystem_error& e) {
      error = "cannot prepare output directory '" + dir + "': " + e.what();
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
  io_detail::throwIfAnyFailed(error, comm);
}

}  // namespace

void prepareOutputDirectory(const std::string& dir, bool overwrite, MPI_Comm comm) {
  prepareCollectively(dir, overwrite, false, comm);
}

void continueOutputDirectory(const std::string& dir, MPI_Comm comm) {
  prepareCollectively(dir, false, true, comm);
}

}  // namespace grains
