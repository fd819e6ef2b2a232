#pragma once
// The checkpoint's self-describing layout: each member of Body and of
// WarmStartRecord is one dataset named after it, with its units and the
// meaning of its columns, so a checkpoint opens in h5py or h5dump and does
// not depend on the struct's bytes (docs/restart.md, file layout).
#include "grains/constraint/warm_start.hpp"
#include "grains/core/body.hpp"

#include <vector>

namespace grains::io_detail {

/// A floating-point member: `width` doubles per body.
struct BodyRealField {
  const char* name;
  const char* units;
  const char* columns;  ///< names of the columns, "" for one column
  int width;
  void (*get)(const Body&, double*);
  void (*set)(Body&, const double*);
};

/// An integer member, stored as a 64-bit integer.
struct BodyIntegerField {
  const char* name;
  const char* units;
  long long (*get)(const Body&);
  void (*set)(Body&, long long);
};

const std::vector<BodyRealField>& bodyRealFields();
const std::vector<BodyIntegerField>& bodyIntegerFields();

/// Units and columns of the warm-start impulses (kMaxBlockSize columns).
extern const char* const kImpulseUnits;
extern const char* const kImpulseColumns;

}  // namespace grains::io_detail
