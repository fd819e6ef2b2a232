# Dependencies come from Debian packages only (see README / scripts/install-deps.sh).
find_package(MPI REQUIRED COMPONENTS C CXX)
find_package(OpenMP REQUIRED COMPONENTS CXX)
find_package(Eigen3 3.3 REQUIRED NO_MODULE)
find_package(yaml-cpp REQUIRED)
find_package(CLI11 REQUIRED)  # header-only command-line parser (libcli11-dev)
find_package(Tpetra REQUIRED)
find_package(Belos REQUIRED)
find_package(Zoltan2 REQUIRED)
find_package(VTK REQUIRED COMPONENTS CommonCore CommonDataModel IOXML IOGeometry IOLegacy)
# Checkpoints are written collectively: the MPI flavour of HDF5 is required.
set(HDF5_PREFER_PARALLEL TRUE)
find_package(HDF5 REQUIRED COMPONENTS C)
if(NOT HDF5_IS_PARALLEL)
  message(FATAL_ERROR "grains needs a parallel (MPI) HDF5, found a serial one in "
                      "${HDF5_C_INCLUDE_DIRS}; install libhdf5-openmpi-dev")
endif()

add_library(grains_deps INTERFACE)
add_library(grains::deps ALIAS grains_deps)
# Trilinos headers are SYSTEM so that our own code can build with -Werror.
target_include_directories(grains_deps SYSTEM INTERFACE
  ${Tpetra_INCLUDE_DIRS} ${Tpetra_TPL_INCLUDE_DIRS}
  ${Belos_INCLUDE_DIRS} ${Belos_TPL_INCLUDE_DIRS}
  ${Zoltan2_INCLUDE_DIRS} ${Zoltan2_TPL_INCLUDE_DIRS}
  ${HDF5_C_INCLUDE_DIRS})
target_link_libraries(grains_deps INTERFACE
  ${Belos_LIBRARIES} ${Zoltan2_LIBRARIES} ${Tpetra_LIBRARIES}
  MPI::MPI_CXX MPI::MPI_C OpenMP::OpenMP_CXX Eigen3::Eigen yaml-cpp CLI11::CLI11 ${VTK_LIBRARIES}
  ${HDF5_C_LIBRARIES})

function(grains_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wno-unknown-pragmas)
  if(GRAINS_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  if(GRAINS_ARCH AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # With AVX-512, GCC 12 flags its own intrinsics inlined into Eigen's 3x3
    # Householder products as maybe-uninitialized (a false positive).
    target_compile_options(${target} PRIVATE -Wno-maybe-uninitialized)
  endif()
endfunction()

# Precompiled headers: Trilinos' and Eigen's headers take about half of a
# translation unit's compile time, parsed again in every one.
# grains_precompile(TARGET [REUSE_FROM OTHER] [TESTS]) precompiles them for
# TARGET, or reuses OTHER's (same flags); TESTS adds GoogleTest's header.
option(GRAINS_PCH "Precompile the Trilinos, Eigen and GoogleTest headers" ON)
function(grains_precompile target)
  cmake_parse_arguments(PCH "TESTS" "REUSE_FROM" "" ${ARGN})
  if(NOT GRAINS_PCH)
    return()
  endif()
  if(PCH_REUSE_FROM)
    target_precompile_headers(${target} REUSE_FROM ${PCH_REUSE_FROM})
    return()
  endif()
  set(headers <Teuchos_RCP.hpp> <Tpetra_Core.hpp> <Tpetra_CrsMatrix.hpp> <Tpetra_Map.hpp>
              <Tpetra_MultiVector.hpp> <Tpetra_Operator.hpp> <Tpetra_Vector.hpp> <Eigen/Core>
              <Eigen/Geometry> <algorithm> <cmath> <string> <vector>)
  if(PCH_TESTS)
    list(APPEND headers <gtest/gtest.h>)
  endif()
  target_precompile_headers(${target} PRIVATE ${headers})
endfunction()
