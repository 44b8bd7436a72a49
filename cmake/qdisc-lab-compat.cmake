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

include_guard(GLOBAL)

set(QDISC_LAB_CMAKE_DIR ${CMAKE_CURRENT_LIST_DIR})
include(${QDISC_LAB_CMAKE_DIR}/qdisc-lab-ns3-targets.cmake)
# In-tree, an installed ns-3's headers must not stand in for ones the tree lacks.
include(${QDISC_LAB_CMAKE_DIR}/qdisc-lab-installed-ns3-guard.cmake)

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
    qdisc_lab_ns3_target(${module} lib${module})
    list(APPEND QDISC_LAB_NS3_TARGETS ${lib${module}})
  endforeach()
  qdisc_lab_sanitize_ns3_targets(${QDISC_LAB_NS3_TARGETS})
  set(QDISC_LAB_NS3_VERSION ${ns3_VERSION})
  message(STATUS "qdisc-lab: ns-3 ${ns3_VERSION} from ${ns3_DIR}, C++${CMAKE_CXX_STANDARD}")
endmacro()

# The version of the ns-3 being compiled against, as the generated header ns3/qdisc-lab-version.h
# (see model/qdisc-lab-compat.h); and the compile definitions of the module's own code.
function(qdisc_lab_apply_compat name)
  if(DEFINED QDISC_LAB_NS3_VERSION)
    set(version ${QDISC_LAB_NS3_VERSION})
  elseif(DEFINED NS3_VER)
    set(version ${NS3_VER}) # in-tree: ns-3's top-level CMakeLists reads its VERSION file
  else()
    file(STRINGS ${PROJECT_SOURCE_DIR}/VERSION version LIMIT_COUNT 1)
  endif()
  if(NOT version MATCHES "^([0-9]+)\\.([0-9]+)")
    message(FATAL_ERROR "qdisc-lab: cannot read a major.minor ns-3 version from '${version}'")
  endif()
  set(QDISC_LAB_NS3_VERSION_MAJOR ${CMAKE_MATCH_1})
  set(QDISC_LAB_NS3_VERSION_MINOR ${CMAKE_MATCH_2})
  set(lib ${lib${name}})
  # Written beside the other public headers and installed with them: standalone by
  # cmake/qdisc-lab-install.cmake, from PUBLIC_HEADER; in-tree, ns-3's build_lib has already
  # read that property into its install rule, so the header gets its own.
  if(QDISC_LAB_STANDALONE)
    set(header ${QDISC_LAB_HEADER_DIR}/ns3/qdisc-lab-version.h)
    set_property(TARGET ${lib} APPEND PROPERTY PUBLIC_HEADER ${header})
  else()
    set(header ${CMAKE_HEADER_OUTPUT_DIRECTORY}/qdisc-lab-version.h) # ns-3's build/include/ns3
    install(FILES ${header} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ns3)
  endif()
  configure_file(${QDISC_LAB_CMAKE_DIR}/qdisc-lab-version.h.in ${header} @ONLY)
  if(TARGET ${lib}-obj) # ns-3's in-tree build compiles sources in an object library
    target_compile_definitions(${lib}-obj PRIVATE NS3_LOG_ENABLE NS3_ASSERT_ENABLE)
  else()
    target_compile_definitions(${lib} PRIVATE NS3_LOG_ENABLE NS3_ASSERT_ENABLE)
  endif()
endfunction()
