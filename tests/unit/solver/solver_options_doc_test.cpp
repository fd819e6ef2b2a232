// docs/config.md lists every solver's options with their defaults and ranges;
// this holds that table to the solver registry, so the user guide cannot
// drift from what `solver.options` accepts.
#include "grains/solver/solver.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace grains {
namespace {

struct DocumentedOption {
  std::string name;  // empty for a solver documented with "(none)"
  std::string default_text;
  std::string range_text;
};

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(' ');
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(' ') - first + 1);
}

std::string unquoted(const std::string& s) {
  return s.size() >= 2 && s.front() == '`' && s.back() == '`' ? s.substr(1, s.size() - 2) : s;
}

// The cells of a Markdown table row, splitting at '|' but not at "\|".
std::vector<std::string> cells(const std::string& row) {
  std::vector<std::string> out;
  std::string cell;
  for (std::size_t k = 1; k < row.size(); ++k) {
    if (row[k] == '|' && row[k - 1] != '\\') {
      out.push_back(trimmed(cell));
      cell.clear();
    } else {
      cell += row[k];
    }
  }
  return out;
}

// The table that follows the "| solver | option | default | range |" header.
std::map<std::string, std::vector<DocumentedOption>> documentedOptions(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in) << "cannot read " << path;
  std::map<std::string, std::vector<DocumentedOption>> table;
  std::string line;
  bool inside = false;
  std::string solver;
  while (std::getline(in, line)) {
    if (line.rfind("| solver | option | default | range |", 0) == 0) {
      inside = true;
      std::getline(in, line);  // the |---| row
      continue;
    }
    if (!inside) continue;
    if (line.empty() || line[0] != '|') break;
    const auto row = cells(line);
    if (row.size() < 4) {
      ADD_FAILURE() << "short row in " << path << ": " << line;
      continue;
    }
    if (!row[0].empty()) solver = unquoted(row[0]);
    const std::string option = unquoted(row[1]);
    table[solver].push_back(option == "(none)" ? DocumentedOption{}
                                               : DocumentedOption{option, row[2], row[3]});
  }
  return table;
}

// The registry's range as the table would write it, for failure messages.
std::string rangeText(const SolverOptionSpec& spec) {
  std::ostringstream text;
  text << (spec.integer ? "integer in [" : "[") << spec.min_value << ", " << spec.max_value << "]";
  return text.str();
}

// "integer in [1, 200]" -> {1, 200}; the numbers as the document writes them.
std::pair<double, double> rangeOf(const std::string& text) {
  const auto open = text.find('[');
  const auto comma = text.find(',', open);
  const auto close = text.find(']', comma);
  if (open == std::string::npos || comma == std::string::npos || close == std::string::npos)
    throw std::invalid_argument("not a range: " + text);
  return {std::stod(text.substr(open + 1, comma - open - 1)),
          std::stod(text.substr(comma + 1, close - comma - 1))};
}

TEST(SolverOptionsDoc, ConfigMdListsEveryOptionWithTheRegistrysDefaultAndRange) {
  const auto documented = documentedOptions(std::string(GRAINS_SOURCE_DIR) + "/docs/config.md");
  const auto& registry = SolverRegistry::instance();
  EXPECT_EQ(documented.size(), registry.names().size()) << "solvers in docs/config.md's table";
  for (const auto& name : registry.names()) {
    SCOPED_TRACE(name);
    const auto found = documented.find(name);
    ASSERT_NE(found, documented.end()) << "solver missing from docs/config.md";
    const auto& specs = registry.find(name)->options;
    if (specs.empty()) {
      ASSERT_EQ(found->second.size(), 1u);
      EXPECT_TRUE(found->second[0].name.empty()) << "documented as having options";
      continue;
    }
    ASSERT_EQ(found->second.size(), specs.size()) << "options documented";
    for (std::size_t k = 0; k < specs.size(); ++k) {
      const auto& spec = specs[k];
      const auto& doc = found->second[k];
      SCOPED_TRACE(spec.name);
      EXPECT_EQ(doc.name, spec.name) << "registry order";
      EXPECT_EQ(std::stod(doc.default_text), spec.default_value);
      const auto [low, high] = rangeOf(doc.range_text);
      EXPECT_EQ(low, spec.min_value);
      EXPECT_EQ(high, spec.max_value);
      EXPECT_EQ(doc.range_text.rfind("integer in ", 0) == 0, spec.integer)
          << doc.range_text << " against " << rangeText(spec);
    }
  }
}

}  // namespace
}  // namespace grains
