#include "grains/io/metrics_writer.hpp"

#include "io_test_support.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace grains {
namespace {

using io_test::TempDir;

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream stream(text);
  std::string line;
  while (std::getline(stream, line)) lines.push_back(line);
  return lines;
}

std::vector<std::string> splitFields(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream stream(line);
  std::string field;
  while (std::getline(stream, field, ',')) fields.push_back(field);
  return fields;
}

MetricsRow sampleRow(long step) {
  MetricsRow row;
  row.step = step;
  row.time = 0.1 * static_cast<double>(step) + 1.0 / 3.0;
  row.bodies = 131072;
  row.contacts = 5000000000LL + step;  // beyond 32 bits
  row.solver = "bbpgd";
  row.iterations = 17 + static_cast<int>(step);
  row.residual = 1.234567890123456789e-7;
  row.objective = -std::acos(-1.0) * 1e3;
  row.converged = (step % 2) == 0;
  row.max_overlap = 2.0 / 3.0 * 1e-5;
  row.kinetic_energy = 1e300 / 7.0;
  row.wall_s = 0.0123456789012345;
  return row;
}

void expectRowEquals(const std::vector<std::string>& f, const MetricsRow& row) {
  ASSERT_EQ(f.size(), 12u + row.extra.size());
  EXPECT_EQ(std::stol(f[0]), row.step);
  EXPECT_EQ(std::stod(f[1]), row.time);  // exact: written with round-trip precision
  EXPECT_EQ(std::stoll(f[2]), row.bodies);
  EXPECT_EQ(std::stoll(f[3]), row.contacts);
  EXPECT_EQ(f[4], row.solver);
  EXPECT_EQ(std::stoi(f[5]), row.iterations);
  EXPECT_EQ(std::stod(f[6]), row.residual);
  EXPECT_EQ(std::stod(f[7]), row.objective);
  EXPECT_EQ(f[8], row.converged ? "1" : "0");
  EXPECT_EQ(std::stod(f[9]), row.max_overlap);
  EXPECT_EQ(std::stod(f[10]), row.kinetic_energy);
  EXPECT_EQ(std::stod(f[11]), row.wall_s);
  for (std::size_t i = 0; i < row.extra.size(); ++i) {
    EXPECT_EQ(std::stod(f[12 + i]), row.extra[i].second);
  }
}

const char* kHeader =
    "step,time,bodies,contacts,solver,iterations,residual,objective,converged,max_overlap,"
    "kinetic_energy,wall_s";

TEST(MetricsWriter, HeaderAndRowsParseBackExactly) {
  TempDir tmp;
  const std::string path = tmp / "metrics.csv";
  MetricsWriter writer(path, MPI_COMM_SELF);
  EXPECT_TRUE(writer.columns().empty());
  const MetricsRow row0 = sampleRow(0);
  const MetricsRow row1 = sampleRow(1);
  writer.writeRow(row0);
  // Flushed at once: a reader sees the row while the writer is still open.
  auto lines = splitLines(io_test::readText(path));
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], kHeader);
  expectRowEquals(splitFields(lines[1]), row0);

  writer.writeRow(row1);
  lines = splitLines(io_test::readText(path));
  ASSERT_EQ(lines.size(), 3u);
  expectRowEquals(splitFields(lines[2]), row1);
  EXPECT_EQ(writer.columns(), splitFields(kHeader));
  EXPECT_EQ(MetricsWriter::fixedColumns(), splitFields(kHeader));
}

TEST(MetricsWriter, ExtraColumnsFollowTheFixedOnes) {
  TempDir tmp;
  const std::string path = tmp / "metrics.csv";
  MetricsWriter writer(path, MPI_COMM_SELF);
  MetricsRow row = sampleRow(3);
  row.extra = {{"rank_bodies_max", 4096.0}, {"rank_imbalance", 1.0 / 7.0}};
  writer.writeRow(row);
  row.extra[1].second = 2.5e-300;
  writer.writeRow(row);
  const auto lines = splitLines(io_test::readText(path));
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], std::string(kHeader) + ",rank_bodies_max,rank_imbalance");
  MetricsRow first = row;
  first.extra[1].second = 1.0 / 7.0;
  expectRowEquals(splitFields(lines[1]), first);
  expectRowEquals(splitFields(lines[2]), row);
}

TEST(MetricsWriter, RejectsChangedOrInvalidExtraColumns) {
  TempDir tmp;
  const std::string path = tmp / "metrics.csv";
  MetricsWriter writer(path, MPI_COMM_SELF);
  MetricsRow row = sampleRow(0);
  row.extra = {{"a", 1.0}};
  writer.writeRow(row);
  MetricsRow renamed = row;
  renamed.extra = {{"b", 1.0}};
  EXPECT_THROW(writer.writeRow(renamed), std::runtime_error);
  MetricsRow missing = row;
  missing.extra.clear();
  EXPECT_THROW(writer.writeRow(missing), std::runtime_error);
  EXPECT_EQ(splitLines(io_test::readText(path)).size(), 2u);  // nothing written

  MetricsWriter other(tmp / "other.csv", MPI_COMM_SELF);
  MetricsRow bad = sampleRow(0);
  bad.extra = {{"has,comma", 1.0}};
  EXPECT_THROW(other.writeRow(bad), std::runtime_error);
  bad.extra = {{"residual", 1.0}};  // clashes with a fixed column
  EXPECT_THROW(other.writeRow(bad), std::runtime_error);
  bad.extra = {{"x", 1.0}, {"x", 2.0}};
  EXPECT_THROW(other.writeRow(bad), std::runtime_error);
  EXPECT_TRUE(other.columns().empty());
}

TEST(MetricsWriter, QuotesSolverNamesWithCommas) {
  TempDir tmp;
  const std::string path = tmp / "metrics.csv";
  MetricsWriter writer(path, MPI_COMM_SELF);
  MetricsRow row = sampleRow(0);
  row.solver = "pgs,\"sor\"";
  writer.writeRow(row);
  const auto lines = splitLines(io_test::readText(path));
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[1].rfind("0,", 0), 0u);
  EXPECT_NE(lines[1].find(",\"pgs,\"\"sor\"\"\","), std::string::npos);
}

TEST(MetricsWriter, DoublesUseTheShortestExactText) {
  TempDir tmp;
  const std::string path = tmp / "metrics.csv";
  MetricsWriter writer(path, MPI_COMM_SELF);
  MetricsRow row = sampleRow(0);
  row.time = 0.05;
  row.wall_s = 0.1 + 0.2;  // not 0.3: needs 17 digits
  writer.writeRow(row);
  const auto f = splitFields(splitLines(io_test::readText(path)).at(1));
  ASSERT_EQ(f.size(), 12u);
  EXPECT_EQ(f[1], "0.05");
  EXPECT_EQ(f[11], "0.30000000000000004");
}

TEST(MetricsWriter, NonFiniteValuesAreWrittenReadably) {
  TempDir tmp;
  const std::string path = tmp / "metrics.csv";
  MetricsWriter writer(path, MPI_COMM_SELF);
  MetricsRow row = sampleRow(0);
  row.residual = std::numeric_limits<double>::quiet_NaN();
  row.objective = std::numeric_limits<double>::infinity();
  writer.writeRow(row);
  const auto f = splitFields(splitLines(io_test::readText(path)).at(1));
  ASSERT_EQ(f.size(), 12u);
  EXPECT_TRUE(std::isnan(std::stod(f[6])));
  EXPECT_EQ(std::stod(f[7]), std::numeric_limits<double>::infinity());
}

TEST(MetricsWriter, TruncatesWithoutAppend) {
  TempDir tmp;
  const std::string path = tmp / "metrics.csv";
  io_test::writeText(path, "old content\n");
  MetricsWriter writer(path, MPI_COMM_SELF);
  EXPECT_EQ(io_test::readText(path), "");
  writer.writeRow(sampleRow(0));
  EXPECT_EQ(splitLines(io_test::readText(path)).at(0), kHeader);
}

TEST(MetricsWriter, AppendKeepsHeaderAndDropsTornLastLine) {
  TempDir tmp;
  const std::string path = tmp / "metrics.csv";
  MetricsRow row = sampleRow(0);
  row.extra = {{"e", 0.5}};
  {
    MetricsWriter writer(path, MPI_COMM_SELF);
    writer.writeRow(row);
  }
  // Simulate a run killed in the middle of a row.
  {
    std::ofstream out(path, std::ios::app);
    out << "1,0.43,131072,5";
  }
  MetricsWriter writer(path, MPI_COMM_SELF, /*append_existing=*/true);
  EXPECT_EQ(writer.columns().size(), 13u);
  MetricsRow next = sampleRow(2);
  next.extra = {{"e", 4.0}};
  writer.writeRow(next);
  const auto lines = splitLines(io_test::readText(path));
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], std::string(kHeader) + ",e");
  expectRowEquals(splitFields(lines[1]), row);
  expectRowEquals(splitFields(lines[2]), next);
  MetricsRow wrong = sampleRow(3);  // no extra column: does not match the file
  EXPECT_THROW(writer.writeRow(wrong), std::runtime_error);
}

TEST(MetricsWriter, AppendDropsTheRowsARestartRecomputes) {
  TempDir tmp;
  const std::string path = tmp / "metrics.csv";
  {
    MetricsWriter writer(path, MPI_COMM_SELF);
    for (int step = 1; step <= 4; ++step) writer.writeRow(sampleRow(step));
  }
  MetricsWriter writer(path, MPI_COMM_SELF, /*append_existing=*/true, /*drop_from_step=*/3);
  writer.writeRow(sampleRow(3));
  const auto lines = splitLines(io_test::readText(path));
  ASSERT_EQ(lines.size(), 4u);  // header, 1, 2, 3
  expectRowEquals(splitFields(lines[2]), sampleRow(2));
  expectRowEquals(splitFields(lines[3]), sampleRow(3));
}

TEST(MetricsWriter, AppendToMissingFileStartsFresh) {
  TempDir tmp;
  const std::string path = tmp / "metrics.csv";
  MetricsWriter writer(path, MPI_COMM_SELF, true);
  writer.writeRow(sampleRow(5));
  const auto lines = splitLines(io_test::readText(path));
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], kHeader);
  expectRowEquals(splitFields(lines[1]), sampleRow(5));
}

TEST(MetricsWriter, AppendRejectsForeignHeader) {
  TempDir tmp;
  const std::string path = tmp / "metrics.csv";
  io_test::writeText(path, "a,b,c\n1,2,3\n");
  EXPECT_THROW(MetricsWriter(path, MPI_COMM_SELF, true), std::runtime_error);
  EXPECT_EQ(io_test::readText(path), "a,b,c\n1,2,3\n");
}

TEST(MetricsWriter, UnwritableDirectoryThrows) {
  TempDir tmp;
  EXPECT_THROW(MetricsWriter(tmp / "missing/metrics.csv", MPI_COMM_SELF), std::runtime_error);
}

}  // namespace
}  // namespace grains
