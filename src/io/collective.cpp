#include "collective.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <system_error>

namespace grains::io_detail {

int commRank(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

int commSize(MPI_Comm comm) {
  int size = 0;
  MPI_Comm_size(comm, &size);
  return size;
}

void broadcastString(std::string& text, int root, MPI_Comm comm) {
  unsigned long long length = text.size();
  MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, root, comm);
  text.resize(static_cast<std::size_t>(length));
  // Chunks below INT_MAX bytes: MPI counts are int.
  constexpr std::size_t kChunk = 1u << 30;
  for (std::size_t offset = 0; offset < text.size(); offset += kChunk) {
    const std::size_t n = std::min(kChunk, text.size() - offset);
    MPI_Bcast(&text[offset], static_cast<int>(n), MPI_CHAR, root, comm);
  }
}

void throwIfAnyFailed(const std::string& local_error, MPI_Comm comm) {
  const int size = commSize(comm);
  const int mine = local_error.empty() ? size : commRank(comm);
  int first_failed = size;
  MPI_Allreduce(&mine, &first_failed, 1, MPI_INT, MPI_MIN, comm);
  if (first_failed == size) return;
  std::string message = local_error;
  broadcastString(message, first_failed, comm);
  throw std::runtime_error(message);
}

void writeFileAtomically(const std::string& path, const std::string& content) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error("cannot open '" + tmp + "' for writing");
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.flush();
    if (!out) throw std::runtime_error("failed writing '" + tmp + "'");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    const std::string reason = ec.message();
    std::filesystem::remove(tmp, ec);
    throw std::runtime_error("cannot rename '" + tmp + "' to '" + path + "': " + reason);
  }
}

}  // namespace grains::io_detail
