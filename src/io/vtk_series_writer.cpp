#include "grains/io/vtk_series_writer.hpp"

#include "body_polydata.hpp"
#include "collective.hpp"
#include "grains/core/text.hpp"

#include <vtkXMLPolyDataWriter.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace grains {

namespace fs = std::filesystem;

namespace {

constexpr const char* kVtkFolder = "vtk";
constexpr const char* kStepSuffix = ".pvtp";

std::string stepPrefix(const std::string& name) {
  return std::string(kVtkFolder) + "/" + name + "_";
}

std::string formatStep(long step) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%06ld", step);
  return buffer;
}

/// Step encoded in "vtk/<name>_<digits>.pvtp", or -1 for any other name.
long stepFromFileName(const std::string& file, const std::string& name) {
  const std::string prefix = stepPrefix(name);
  const std::string suffix = kStepSuffix;
  if (file.size() <= prefix.size() + suffix.size() || file.compare(0, prefix.size(), prefix) != 0 ||
      file.compare(file.size() - suffix.size(), suffix.size(), suffix) != 0) {
    return -1;
  }
  const std::string digits =
      file.substr(prefix.size(), file.size() - prefix.size() - suffix.size());
  if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return -1;
  }
  try {
    return std::stol(digits);
  } catch (const std::exception&) {
    return -1;
  }
}

/// Value of attribute `name="..."` inside one XML start tag.
std::string attribute(const std::string& tag, const std::string& name) {
  const std::string key = " " + name + "=\"";
  const std::size_t start = tag.find(key);
  if (start == std::string::npos) {
    throw std::runtime_error("series file: DataSet without " + name + ": " + tag);
  }
  const std::size_t begin = start + key.size();
  const std::size_t end = tag.find('"', begin);
  if (end == std::string::npos) throw std::runtime_error("series file: unterminated " + name);
  return tag.substr(begin, end - begin);
}

std::string makePvdText(const std::vector<VtkSeriesEntry>& entries) {
  std::ostringstream out;
  out << "<?xml version=\"1.0\"?>\n"
      << "<VTKFile type=\"Collection\" version=\"0.1\">\n"
      << "  <Collection>\n";
  for (const VtkSeriesEntry& entry : entries) {
    out << "    <DataSet timestep=\"" << formatNumber(entry.time)
        << "\" group=\"\" part=\"0\" file=\"" << entry.file << "\"/>\n";
  }
  out << "  </Collection>\n"
      << "</VTKFile>\n";
  return out.str();
}

void configureWriter(vtkXMLPolyDataWriter* writer, VtkEncoding encoding) {
  writer->SetHeaderTypeToUInt64();
  switch (encoding) {
    case VtkEncoding::BinaryCompressed:
      writer->SetDataModeToAppended();
      writer->EncodeAppendedDataOff();
      writer->SetCompressorTypeToZLib();
      break;
    case VtkEncoding::Binary:
      writer->SetDataModeToAppended();
      writer->EncodeAppendedDataOff();
      writer->SetCompressorTypeToNone();
      break;
    case VtkEncoding::Ascii:
      writer->SetDataModeToAscii();
      writer->SetCompressorTypeToNone();
      break;
  }
}

}  // namespace

VtkSeriesWriter::VtkSeriesWriter(const std::string& dir, MPI_Comm comm, bool append_existing,
                                 VtkEncoding encoding, std::string name)
    : dir_(dir), comm_(comm), encoding_(encoding), name_(std::move(name)) {
  rank_ = io_detail::commRank(comm_);
  size_ = io_detail::commSize(comm_);
  std::string error;
  std::string existing;
  if (rank_ == 0) {
    try {
      if (dir_.empty()) throw std::runtime_error("VTK output directory path is empty");
      fs::create_directories(fs::path(dir_) / kVtkFolder);
      const fs::path series = seriesPath();
      if (append_existing && fs::exists(series)) {
        std::ifstream in(series, std::ios::binary);
        if (!in) throw std::runtime_error("cannot read '" + series.string() + "'");
        std::ostringstream text;
        text << in.rdbuf();
        existing = text.str();
        parseCollection(existing, name_);  // fail here, on rank 0, with a clear message
      }
    } catch (const std::exception& e) {
      error = "VtkSeriesWriter('" + dir_ + "'): " + e.what();
    }
  }
  io_detail::throwIfAnyFailed(error, comm_);
  if (append_existing) {
    // A directory without this series (a restart into a new directory)
    // starts it afresh; rank 0 has already checked any text it found.
    io_detail::broadcastString(existing, 0, comm_);
    if (!existing.empty()) entries_ = parseCollection(existing, name_);
  }
}

std::string VtkSeriesWriter::seriesPath() const {
  return (fs::path(dir_) / (name_ + ".pvd")).string();
}

std::string VtkSeriesWriter::stepFileName(long step, const std::string& name) {
  return stepPrefix(name) + formatStep(step) + kStepSuffix;
}

std::string VtkSeriesWriter::pieceFileName(long step, int rank, const std::string& name) {
  return name + "_" + formatStep(step) + "_r" + std::to_string(rank) + ".vtp";
}

std::vector<VtkSeriesEntry> VtkSeriesWriter::parseCollection(const std::string& pvd_text,
                                                             const std::string& name) {
  if (pvd_text.find("<Collection") == std::string::npos) {
    throw std::runtime_error(name + ".pvd: no <Collection> element");
  }
  std::vector<VtkSeriesEntry> entries;
  std::size_t pos = 0;
  while ((pos = pvd_text.find("<DataSet", pos)) != std::string::npos) {
    const std::size_t end = pvd_text.find('>', pos);
    if (end == std::string::npos) throw std::runtime_error(name + ".pvd: unterminated DataSet");
    const std::string tag = pvd_text.substr(pos, end - pos);
    VtkSeriesEntry entry;
    entry.file = attribute(tag, "file");
    const std::string time_text = attribute(tag, "timestep");
    try {
      std::size_t used = 0;
      entry.time = std::stod(time_text, &used);
      if (used != time_text.size()) throw std::invalid_argument(time_text);
    } catch (const std::exception&) {
      throw std::runtime_error(name + ".pvd: bad timestep \"" + time_text + "\"");
    }
    entry.step = stepFromFileName(entry.file, name);
    entries.push_back(entry);
    pos = end;
  }
  return entries;
}

void VtkSeriesWriter::write(long step, double time, const std::vector<Body>& owned_bodies) {
  writePolyData(step, time, io_detail::makeBodyPolyData(owned_bodies, rank_));
}

void VtkSeriesWriter::writePolyData(long step, double time, vtkPolyData* poly) {
  if (step < 0) throw std::invalid_argument("VtkSeriesWriter::write: negative step");
  const fs::path vtk_dir = fs::path(dir_) / kVtkFolder;

  // 1. Every rank writes its own piece, even an empty one.
  std::string error;
  {
    const std::string piece = (vtk_dir / pieceFileName(step, rank_, name_)).string();
    auto writer = vtkSmartPointer<vtkXMLPolyDataWriter>::New();
    configureWriter(writer, encoding_);
    writer->SetFileName(piece.c_str());
    writer->SetInputData(poly);
    if (writer->Write() != 1 || writer->GetErrorCode() != 0) {
      error = "rank " + std::to_string(rank_) + ": VTK could not write '" + piece + "'";
    }
  }
  io_detail::throwIfAnyFailed(error, comm_);

  // 2. All pieces exist: the step index, then the series that references it.
  std::vector<VtkSeriesEntry> updated = entries_;
  updated.erase(std::remove_if(updated.begin(), updated.end(),
                               [&](const VtkSeriesEntry& e) { return e.step >= step; }),
                updated.end());
  updated.push_back(VtkSeriesEntry{step, time, stepFileName(step, name_)});
  if (rank_ == 0) {
    try {
      std::vector<std::string> sources;
      sources.reserve(static_cast<std::size_t>(size_));
      for (int r = 0; r < size_; ++r) sources.push_back(pieceFileName(step, r, name_));
      io_detail::writeFileAtomically((fs::path(dir_) / stepFileName(step, name_)).string(),
                                     io_detail::makePvtpText(poly, sources));
      io_detail::writeFileAtomically(seriesPath(), makePvdText(updated));
    } catch (const std::exception& e) {
      error = std::string("VTK series: ") + e.what();
    }
  }
  io_detail::throwIfAnyFailed(error, comm_);
  entries_ = std::move(updated);
}

}  // namespace grains
