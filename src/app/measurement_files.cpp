#include "grains/app/measurement_files.hpp"

#include "grains/io/vtk_series_writer.hpp"

#include <vtkCellData.h>
#include <vtkDoubleArray.h>
#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkXMLImageDataWriter.h>

#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace grains {
namespace {

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}

/// The leading integer of a CSV line (its step), or -1.
long stepOf(const std::string& line) {
  try {
    std::size_t used = 0;
    const long step = std::stol(line, &used);
    return used > 0 ? step : -1;
  } catch (const std::exception&) {
    return -1;
  }
}

}  // namespace

MeasurementCsv::MeasurementCsv(const std::string& path, std::vector<std::string> columns,
                               bool writer, bool append, long first_step)
    : path_(path), columns_(std::move(columns)), writer_(writer) {
  if (!writer_) return;
  std::vector<std::string> kept;
  std::string header;
  for (std::size_t k = 0; k < columns_.size(); ++k) header += (k ? "," : "") + columns_[k];
  if (append) {
    std::ifstream in(path_);
    std::string line;
    bool first = true;
    while (std::getline(in, line)) {
      if (first) {
        first = false;
        if (line != header)
          throw std::runtime_error(path_ + ": its header differs from this run's measurement (" +
                                   header + "); move the file away to restart");
        continue;
      }
      if (stepOf(line) >= 0 && stepOf(line) < first_step) kept.push_back(line);
    }
  }
  out_.open(path_, std::ios::trunc);
  if (!out_) throw std::runtime_error(path_ + ": cannot open for writing");
  out_ << header << '\n';
  for (const std::string& line : kept) out_ << line << '\n';
  out_.flush();
}

void MeasurementCsv::write(long step, double time, const std::vector<double>& values) {
  if (!writer_) return;
  if (values.size() + 2 != columns_.size())
    throw std::logic_error(path_ + ": " + std::to_string(values.size()) + " values for " +
                           std::to_string(columns_.size() - 2) + " columns");
  out_ << step << ',' << number(time);
  for (double v : values) out_ << ',' << number(v);
  out_ << '\n';
  out_.flush();
  if (!out_) throw std::runtime_error(path_ + ": write failed");
}

GridSeries::GridSeries(const std::string& dir, const std::string& name, bool writer, bool append,
                       long first_step)
    : dir_(dir), name_("measurements_" + name), writer_(writer) {
  if (!writer_) return;
  std::filesystem::create_directories(dir_ + "/vtk");
  if (!append) return;
  std::ifstream in(dir_ + "/" + name_ + ".pvd");
  if (!in) return;
  std::stringstream text;
  text << in.rdbuf();
  for (const VtkSeriesEntry& e : VtkSeriesWriter::parseCollection(text.str(), name_)) {
    // Our frames are vtk/<name>_<step>.vti.
    const std::size_t underscore = e.file.rfind('_');
    const long step = underscore == std::string::npos ? -1 : stepOf(e.file.substr(underscore + 1));
    if (step >= 0 && step < first_step) {
      frames_.emplace_back(e.time, e.file);
      steps_.push_back(step);
    }
  }
}

void GridSeries::write(long step, double time, const GridFrame& frame) {
  if (!writer_) return;
  vtkNew<vtkImageData> image;
  image->SetOrigin(frame.origin.x(), frame.origin.y(), frame.origin.z());
  image->SetSpacing(frame.spacing.x(), frame.spacing.y(), frame.spacing.z());
  image->SetDimensions(frame.cells[0] + 1, frame.cells[1] + 1, frame.cells[2] + 1);
  const long cells = static_cast<long>(frame.cells[0]) * frame.cells[1] * frame.cells[2];
  for (const auto& [array_name, data] : frame.arrays) {
    vtkNew<vtkDoubleArray> array;
    array->SetName(array_name.c_str());
    array->SetNumberOfComponents(data.first);
    array->SetNumberOfTuples(cells);
    for (long i = 0; i < cells * data.first; ++i)
      array->SetValue(i, data.second[static_cast<std::size_t>(i)]);
    image->GetCellData()->AddArray(array);
  }
  std::ostringstream file;
  file << "vtk/" << name_ << "_" << std::setw(6) << std::setfill('0') << step << ".vti";
  vtkNew<vtkXMLImageDataWriter> writer;
  writer->SetFileName((dir_ + "/" + file.str()).c_str());
  writer->SetInputData(image);
  writer->SetDataModeToBinary();
  if (writer->Write() != 1) throw std::runtime_error(dir_ + "/" + file.str() + ": write failed");
  // A step written again (a restart) replaces its frame.
  for (std::size_t k = 0; k < steps_.size();) {
    if (steps_[k] >= step) {
      steps_.erase(steps_.begin() + static_cast<long>(k));
      frames_.erase(frames_.begin() + static_cast<long>(k));
    } else {
      ++k;
    }
  }
  frames_.emplace_back(time, file.str());
  steps_.push_back(step);
  const std::string path = dir_ + "/" + name_ + ".pvd";
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << "<?xml version=\"1.0\"?>\n"
        << "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
        << "  <Collection>\n";
    for (const auto& [t, f] : frames_)
      out << "    <DataSet timestep=\"" << number(t) << "\" group=\"\" part=\"0\" file=\"" << f
          << "\"/>\n";
    out << "  </Collection>\n</VTKFile>\n";
    if (!out) throw std::runtime_error(temporary + ": write failed");
  }
  std::filesystem::rename(temporary, path);
}

}  // namespace grains
