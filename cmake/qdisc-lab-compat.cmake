# SPDX-License-Identifier: GPL-2.0-only
#
# Everything in the build that depends on the ns-3 version or on how ns-3 was packaged.
# The C++ side of the same differences is model/qdisc-lab-compat.h.
#
#                       Debian libns3-dev 3.37     PyPI ns3 3.44 wheel        in-tree
#   targets             ns3::libcore               ns3::core                  libcore (ns-3's)
#   C++ standard        17                         20                         set by ns-3
#   imported paths      all exist                  build-machine paths        -
#   NS_LOG / NS_ASSERT  compiled out of ns-3       compiled in                per build profile
#
# Our own code always defines NS3_LOG_ENABLE and NS3_ASSERT_ENABLE, so its logging and asserts
# work whatever ns-3's build profile was.

# Finds an installed ns-3 (set ns3_DIR to choose one) and sets lib<module> variables to its
# imported targets, as ns-3's own build does for in-tree modules.
macro(qdisc_lab_find_ns3)
  find_package(ns3 REQUIRED CONFIG)
  if(NOT ns3_VERSION)
    message(FATAL_ERROR "qdisc-lab: the ns-3 package at ${ns3_DIR} does not state its version")
  endif()
  if(ns3_VERSION VERSION_LESS 3.37)
    message(FATAL_ERROR "qdisc-lab needs ns-3 >= 3.37 for a CMake build (found ${ns3_VERSION}); "
                        "use wscript with waf-era ns-3")
  endif()

  # ns-3 >= 3.41 requires C++20 in its headers; 3.37 is C++17.
  if(ns3_VERSION VERSION_GREATER_EQUAL 3.41)
    set(CMAKE_CXX_STANDARD 20)
  else()
    set(CMAKE_CXX_STANDARD 17)
  endif()

  set(QDISC_LAB_NS3_MODULES
      applications
      bridge
      core
      csma
      flow-monitor
      internet
      network
      point-to-point
      stats
      traffic-control)
  foreach(module ${QDISC_LAB_NS3_MODULES})
    if(TARGET ns3::lib${module}) # Debian's 3.37 export names
      set(lib${module} ns3::lib${module})
    elseif(TARGET ns3::${module}) # 3.44 wheel names
      set(lib${module} ns3::${module})
    else()
      message(FATAL_ERROR "qdisc-lab: ns-3 at ${ns3_DIR} has no '${module}' module")
    endif()
    qdisc_lab_sanitize_imported_target(${lib${module}})
  endforeach()
  get_property(dropped GLOBAL PROPERTY QDISC_LAB_DROPPED_PATHS)
  if(dropped)
    list(REMOVE_DUPLICATES dropped)
    message(STATUS "qdisc-lab: ignoring paths of ns-3's build machine that do not exist here: "
                   "${dropped}")
  endif()
  set(QDISC_LAB_NS3_VERSION ${ns3_VERSION})
  message(STATUS "qdisc-lab: ns-3 ${ns3_VERSION} from ${ns3_DIR}, C++${CMAKE_CXX_STANDARD}")
endmacro()

# Imported targets of a relocated package (the PyPI wheel) name include directories and
# libraries of the machine it was built on. Keep what exists here, drop the rest, and say so.
function(qdisc_lab_sanitize_imported_target target)
  get_target_property(imported ${target} IMPORTED)
  if(NOT imported)
    return()
  endif()
  get_target_property(includes ${target} INTERFACE_INCLUDE_DIRECTORIES)
  if(includes)
    set(kept "")
    foreach(dir ${includes})
      if(IS_DIRECTORY "${dir}/ns3" AND IS_DIRECTORY "${dir}/boost")
        qdisc_lab_hide_bundled_boost("${dir}" dir)
        list(APPEND kept "${dir}")
      elseif(IS_DIRECTORY "${dir}")
        list(APPEND kept "${dir}")
      else()
        list(APPEND dropped "${dir}")
      endif()
    endforeach()
    set_target_properties(${target} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${kept}")
  endif()
  get_target_property(links ${target} INTERFACE_LINK_LIBRARIES)
  if(links)
    set(kept "")
    foreach(item ${links})
      if(item MATCHES "^-" OR TARGET ${item} OR item MATCHES "::" OR EXISTS "${item}")
        list(APPEND kept "${item}")
      else()
        list(APPEND dropped "${item}")
      endif()
    endforeach()
    set_target_properties(${target} PROPERTIES INTERFACE_LINK_LIBRARIES "${kept}")
  endif()
  if(dropped)
    set_property(GLOBAL APPEND PROPERTY QDISC_LAB_DROPPED_PATHS ${dropped})
  endif()
  # Recurse into the ns-3 targets this one links, so their paths are filtered too.
  foreach(item ${links})
    if(item MATCHES "^ns3::" AND TARGET ${item})
      get_property(done GLOBAL PROPERTY QDISC_LAB_SANITIZED_${item})
      if(NOT done)
        set_property(GLOBAL PROPERTY QDISC_LAB_SANITIZED_${item} ON)
        qdisc_lab_sanitize_imported_target(${item})
      endif()
    endif()
  endforeach()
endfunction()

# The PyPI wheel ships Boost 1.66 headers beside ns-3's, which do not compile as C++20 (they use
# std::allocator members C++20 removed). Expose the package's include directory without them,
# so the system's Boost is used: a directory of links to everything in it but boost/.
function(qdisc_lab_hide_bundled_boost dir result)
  set(shadow ${CMAKE_BINARY_DIR}/ns3-include-without-boost)
  if(NOT EXISTS ${shadow})
    file(MAKE_DIRECTORY ${shadow})
    file(GLOB entries RELATIVE ${dir} ${dir}/*)
    foreach(entry ${entries})
      if(NOT entry STREQUAL "boost")
        file(CREATE_LINK ${dir}/${entry} ${shadow}/${entry} SYMBOLIC)
      endif()
    endforeach()
    message(STATUS "qdisc-lab: using ${dir} without its bundled boost/ headers")
  endif()
  set(${result} ${shadow} PARENT_SCOPE)
endfunction()

# Compile definitions for the module library and everything that links it.
function(qdisc_lab_apply_compat name)
  if(DEFINED QDISC_LAB_NS3_VERSION)
    set(version ${QDISC_LAB_NS3_VERSION})
  elseif(DEFINED NS3_VER)
    set(version ${NS3_VER}) # in-tree: ns-3's top-level CMakeLists reads its VERSION file
  else()
    file(STRINGS ${PROJECT_SOURCE_DIR}/VERSION version LIMIT_COUNT 1)
  endif()
  string(REGEX MATCH "^([0-9]+)\\.([0-9]+)" unused "${version}")
  set(definitions QDISC_LAB_NS3_VERSION_MAJOR=${CMAKE_MATCH_1}
                  QDISC_LAB_NS3_VERSION_MINOR=${CMAKE_MATCH_2})
  set(lib ${lib${name}})
  target_compile_definitions(${lib} PUBLIC ${definitions})
  if(TARGET ${lib}-obj) # ns-3's in-tree build compiles sources in an object library
    target_compile_definitions(${lib}-obj PRIVATE ${definitions} NS3_LOG_ENABLE NS3_ASSERT_ENABLE)
  else()
    target_compile_definitions(${lib} PRIVATE NS3_LOG_ENABLE NS3_ASSERT_ENABLE)
  endif()
endfunction()
