# The library as layers (docs/architecture.md), lowest first. Each layer is
# its own static library that links the layers below it only, and its
# sources and headers may include only its own and lower layers' headers:
# the build checks that before compiling a layer, so an upward include fails
# to build with a message naming the file.
set(GRAINS_LAYERS core linalg geometry neighbor solver parallel constraint dynamics io config
                  scenario app)

function(grains_add_layers)
  set(below "")
  set(previous "")
  foreach(layer IN LISTS GRAINS_LAYERS)
    file(GLOB sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/${layer}/*.cpp)
    file(GLOB headers CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/${layer}/*.hpp
         ${PROJECT_SOURCE_DIR}/include/grains/${layer}/*.hpp)
    set(allowed ${below} ${layer})
    set(stamp ${CMAKE_CURRENT_BINARY_DIR}/layers/${layer}.checked)
    add_custom_command(
      OUTPUT ${stamp}
      COMMAND ${CMAKE_COMMAND} -DLAYER=${layer} "-DALLOWED=${allowed}" "-DALL=${GRAINS_LAYERS}"
              "-DFILES=${sources};${headers}" -DSTAMP=${stamp}
              -P ${PROJECT_SOURCE_DIR}/cmake/check_layer_includes.cmake
      DEPENDS ${sources} ${headers} ${PROJECT_SOURCE_DIR}/cmake/check_layer_includes.cmake
      COMMENT "Checking that layer ${layer} includes only ${allowed}"
      VERBATIM)
    add_custom_target(grains_layer_${layer}_includes DEPENDS ${stamp})
    if(sources)
      add_library(grains_layer_${layer} STATIC ${sources})
      grains_warnings(grains_layer_${layer})
      # core, geometry and neighbor know nothing of Trilinos; the solver
      # layer is the first that uses it, and the layers above share its
      # precompiled headers.
      if(layer STREQUAL "solver")
        grains_precompile(grains_layer_solver)
      elseif(NOT layer MATCHES "^(core|geometry|neighbor)$")
        grains_precompile(grains_layer_${layer} REUSE_FROM grains_layer_solver)
      endif()
    else()
      add_library(grains_layer_${layer} INTERFACE)
    endif()
    add_dependencies(grains_layer_${layer} grains_layer_${layer}_includes)
    if(sources)
      set(scope PUBLIC)
    else()
      set(scope INTERFACE)
    endif()
    target_include_directories(grains_layer_${layer} ${scope} ${PROJECT_SOURCE_DIR}/include)
    target_compile_definitions(grains_layer_${layer} ${scope} GRAINS_VERSION="${PROJECT_VERSION}")
    if(previous)
      target_link_libraries(grains_layer_${layer} ${scope} grains_layer_${previous})
    else()
      target_link_libraries(grains_layer_${layer} ${scope} grains::deps)
    endif()
    set(previous ${layer})
    list(APPEND below ${layer})
  endforeach()
  # Everything, for the driver, the benchmarks and the tests.
  add_library(grains_lib INTERFACE)
  target_link_libraries(grains_lib INTERFACE grains_layer_${previous})
endfunction()
