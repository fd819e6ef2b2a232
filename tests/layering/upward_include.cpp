// Fixture of the layering test (tests/CMakeLists.txt): a neighbor-layer
// source that includes a dynamics header, which the layer check must refuse.
#include "grains/dynamics/time_stepper.hpp"
