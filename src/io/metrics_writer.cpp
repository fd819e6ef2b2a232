#include "grains/io/metrics_writer.hpp"

#include "collective.hpp"
#include "grains/core/text.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <sstream>
#include <stdexcept>

namespace grains {

namespace fs = std::filesystem;

namespace {

/// CSV field: quoted (with doubled quotes) only if it needs to be.
std::string csvField(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

std::vector<std::string> splitHeader(const std::string& line) {
  std::vector<std::string> names;
  std::stringstream stream(line);
  std::string name;
  while (std::getline(stream, name, ',')) names.push_back(name);
  return names;
}

std::string joinFields(const std::vector<std::string>& names) {
  std::string line;
  for (std::size_t i = 0; i < names.size(); ++i) line += (i ? "," : "") + names[i];
  return line;
}

/// Columns for `row`: the fixed ones followed by its extra names, validated.
std::vector<std::string> columnsOf(const MetricsRow& row) {
  std::vector<std::string> names = MetricsWriter::fixedColumns();
  std::set<std::string> seen(names.begin(), names.end());
  for (const auto& [name, value] : row.extra) {
    (void)value;
    if (name.empty() || name.find_first_of(",\"\r\n ") != std::string::npos) {
      throw std::runtime_error("metrics column name '" + name +
                               "' is empty or contains a comma, quote, space or newline");
    }
    if (!seen.insert(name).second) {
      throw std::runtime_error("metrics column '" + name + "' appears twice");
    }
    names.push_back(name);
  }
  return names;
}

/// Reads the header of an existing CSV and cuts off a last line without '\n'
/// and every row from the first of step >= drop_from_step (if >= 0) on.
std::string readHeaderAndRepair(const fs::path& path, long drop_from_step) {
  std::string content;
  {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read '" + path.string() + "'");
    std::ostringstream text;
    text << in.rdbuf();
    content = text.str();
  }
  const std::size_t header_end = content.find('\n');
  if (header_end == std::string::npos) {
    fs::resize_file(path, 0);  // not even a full header: start over
    return {};
  }
  std::size_t keep = content.rfind('\n') + 1;
  if (drop_from_step >= 0) {
    for (std::size_t row = header_end + 1; row < keep; row = content.find('\n', row) + 1) {
      if (std::strtol(content.c_str() + row, nullptr, 10) >= drop_from_step) {
        keep = row;
        break;
      }
    }
  }
  if (keep != content.size()) fs::resize_file(path, keep);
  std::string header = content.substr(0, header_end);
  if (!header.empty() && header.back() == '\r') header.pop_back();
  return header;
}

}  // namespace

const std::vector<std::string>& MetricsWriter::fixedColumns() {
  static const std::vector<std::string> columns = {
      "step",     "time",      "bodies",    "contacts",    "solver",         "iterations",
      "residual", "objective", "converged", "max_overlap", "kinetic_energy", "wall_s"};
  return columns;
}

MetricsWriter::MetricsWriter(const std::string& path, MPI_Comm comm, bool append_existing,
                             long drop_from_step)
    : path_(path), comm_(comm) {
  rank_ = io_detail::commRank(comm_);
  std::string error;
  std::string header;
  if (rank_ == 0) {
    try {
      const bool append = append_existing && fs::exists(path_);
      if (append) {
        header = readHeaderAndRepair(path_, drop_from_step);
        if (!header.empty()) {
          const std::vector<std::string> names = splitHeader(header);
          const auto& fixed = fixedColumns();
          if (names.size() < fixed.size() ||
              !std::equal(fixed.begin(), fixed.end(), names.begin())) {
            throw std::runtime_error("existing header is not a grains metrics header: " + header);
          }
        }
      }
      out_.open(path_, append ? std::ios::app : std::ios::trunc);
      if (!out_) throw std::runtime_error("cannot open for writing");
    } catch (const std::exception& e) {
      error = "metrics file '" + path_ + "': " + e.what();
    }
  }
  io_detail::throwIfAnyFailed(error, comm_);
  io_detail::broadcastString(header, 0, comm_);
  if (!header.empty()) columns_ = splitHeader(header);
}

void MetricsWriter::writeRow(const MetricsRow& row) {
  std::string error;
  std::vector<std::string> names;
  const bool first = columns_.empty();
  try {
    names = columnsOf(row);
    if (!first && names != columns_) {
      throw std::runtime_error("metrics row columns (" + joinFields(names) +
                               ") differ from the header (" + joinFields(columns_) + ")");
    }
    if (rank_ == 0) {
      std::string line;
      if (first) line += joinFields(names) + "\n";
      const auto num = [](double value) { return formatNumber(value); };
      const std::vector<std::string> fields = {
          std::to_string(row.step),   num(row.time),
          std::to_string(row.bodies), std::to_string(row.contacts),
          csvField(row.solver),       std::to_string(row.iterations),
          num(row.residual),          num(row.objective),
          row.converged ? "1" : "0",  num(row.max_overlap),
          num(row.kinetic_energy),    num(row.wall_s)};
      line += joinFields(fields);
      for (const auto& [name, value] : row.extra) {
        (void)name;
        line += "," + num(value);
      }
      line += "\n";
      out_ << line << std::flush;
      if (!out_) throw std::runtime_error("write failed");
    }
  } catch (const std::exception& e) {
    error = "metrics file '" + path_ + "': " + e.what();
  }
  io_detail::throwIfAnyFailed(error, comm_);
  if (first) columns_ = std::move(names);
}

}  // namespace grains
