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
endfunction()
