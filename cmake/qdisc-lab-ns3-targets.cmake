# SPDX-License-Identifier: GPL-2.0-only
#
# Make an installed ns-3's imported targets usable on this machine. Used by the standalone build
# (qdisc-lab-compat.cmake) and installed beside qdisc-lab-config.cmake, which runs the same on
# the ns-3 targets qdisc-lab::qdisc-lab links, in the program that finds the package.

# The functions below keep these policies wherever they are called from (IN_LIST, 3.3).
cmake_policy(VERSION 3.16)

# The imported target of the ns-3 module `module` (core, point-to-point-layout, ...) in `var`:
# ns3::lib<module> in Debian's package, ns3::<module> in the PyPI wheel's.
function(qdisc_lab_ns3_target module var)
  if(TARGET ns3::lib${module})
    set(${var} ns3::lib${module} PARENT_SCOPE)
  elseif(TARGET ns3::${module})
    set(${var} ns3::${module} PARENT_SCOPE)
  else()
    message(FATAL_ERROR "qdisc-lab: the ns-3 at ${ns3_DIR} has no module '${module}'")
  endif()
endfunction()

# qdisc_lab_link_ns3(<target> [PRIVATE|PUBLIC|INTERFACE] <module>...): link a program with
# further ns-3 modules by their names, on either ns-3 (installed with the CMake package).
function(qdisc_lab_link_ns3 target)
  set(scope PRIVATE)
  set(modules ${ARGN})
  list(GET modules 0 first)
  if(first MATCHES "^(PRIVATE|PUBLIC|INTERFACE)$")
    set(scope ${first})
    list(REMOVE_AT modules 0)
  endif()
  set(targets "")
  foreach(module ${modules})
    qdisc_lab_ns3_target(${module} imported)
    list(APPEND targets ${imported})
  endforeach()
  qdisc_lab_sanitize_ns3_targets(${targets})
  target_link_libraries(${target} ${scope} ${targets})
endfunction()

# The ns-3 targets (ns3::...) among the given ones and those they link, directly or not.
function(qdisc_lab_ns3_link_closure var)
  set(closure "")
  set(pending ${ARGN})
  while(pending)
    list(POP_FRONT pending current)
    if(current MATCHES "^ns3::")
      list(APPEND closure ${current})
    endif()
    get_target_property(links ${current} INTERFACE_LINK_LIBRARIES)
    foreach(item ${links})
      if(item MATCHES "^ns3::" AND TARGET ${item} AND NOT item IN_LIST closure
         AND NOT item IN_LIST pending)
        list(APPEND pending ${item})
      endif()
    endforeach()
  endwhile()
  set(${var} ${closure} PARENT_SCOPE)
endfunction()

# Sanitize the given ns-3 imported targets and those they link (see below), and say which paths
# were dropped.
function(qdisc_lab_sanitize_ns3_targets)
  qdisc_lab_ns3_link_closure(targets ${ARGN})
  foreach(target ${targets})
    qdisc_lab_sanitize_imported_target(${target})
  endforeach()
  get_property(dropped GLOBAL PROPERTY QDISC_LAB_DROPPED_PATHS)
  if(dropped)
    list(REMOVE_DUPLICATES dropped)
    message(STATUS "qdisc-lab: ignoring paths of ns-3's build machine that do not exist here: "
                   "${dropped}")
  endif()
endfunction()

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
      list(FIND CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES "${dir}" system)
      if(IS_DIRECTORY "${dir}/ns3" AND IS_DIRECTORY "${dir}/boost" AND system EQUAL -1)
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
