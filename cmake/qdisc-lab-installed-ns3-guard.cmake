# SPDX-License-Identifier: GPL-2.0-only
#
# In an ns-3 source tree, `#include "ns3/x.h"` should find x.h in the tree's own headers
# (build/include/ns3). When the tree has no x.h (a header its release dropped, or one of a module
# not enabled), the compiler goes on to its default search path, and an installed ns-3 there
# (Debian's libns3-dev: /usr/include/ns3, reached through the compiler's implicit /usr/include,
# with no flag of ns-3's or ours naming it) supplies its own x.h: the module then compiles against
# two ns-3 releases at once, which fails far from the cause, or worse, does not.
#
# The guard: a directory of headers named like each installed ns-3 header the tree lacks, each an
# #error naming it. It is added with -I after the tree's own include directory, so it is searched
# after the tree's headers and before every system directory: an in-tree build of the module takes
# an ns-3 header from the tree or stops, naming the header.
#
# cmake -P friendly: qdisc_lab_write_installed_ns3_guard works in script mode (the tests call it).

# Directories an installed ns-3's headers can be found in without any flag: the compiler's implicit
# include directories (CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES holds /usr/local/include and
# /usr/include on Debian), and /usr/local/include and /usr/include in any case.
# QDISC_LAB_INSTALLED_NS3_INCLUDE_DIRS, when set, names them instead (the tests use it).
function(qdisc_lab_installed_ns3_include_dirs out)
  if(DEFINED QDISC_LAB_INSTALLED_NS3_INCLUDE_DIRS)
    set(dirs ${QDISC_LAB_INSTALLED_NS3_INCLUDE_DIRS})
  else()
    set(dirs ${CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES} /usr/local/include /usr/include)
  endif()
  list(REMOVE_DUPLICATES dirs)
  set(found)
  foreach(dir ${dirs})
    if(IS_DIRECTORY ${dir}/ns3)
      list(APPEND found ${dir})
    endif()
  endforeach()
  set(${out} ${found} PARENT_SCOPE)
endfunction()

# Writes <guard_dir>/ns3/<name> for each header <name> found in <dir>/ns3 of one of the
# INSTALLED directories but neither in TREE (the tree's build/include/ns3) nor among the
# basenames of the headers under OWN (the module's own, not yet copied into the tree when this
# runs), nor generated for the module (qdisc-lab-*.h: its -module.h, -export.h, -version.h). Sets <count_var> to the number of guarded headers.
function(qdisc_lab_write_installed_ns3_guard guard_dir count_var)
  cmake_parse_arguments(G "" "TREE;OWN;VERSION" "INSTALLED" ${ARGN})
  file(REMOVE_RECURSE ${guard_dir})
  file(MAKE_DIRECTORY ${guard_dir}/ns3)
  set(own_names)
  if(G_OWN)
    file(GLOB_RECURSE own_headers ${G_OWN}/*.h)
    foreach(header ${own_headers})
      get_filename_component(name ${header} NAME)
      list(APPEND own_names ${name})
    endforeach()
  endif()
  set(count 0)
  foreach(dir ${G_INSTALLED})
    file(GLOB installed RELATIVE ${dir}/ns3 ${dir}/ns3/*.h)
    foreach(name ${installed})
      if(EXISTS ${G_TREE}/${name} OR EXISTS ${guard_dir}/ns3/${name})
        continue()
      endif()
      list(FIND own_names ${name} own)
      if(NOT own EQUAL -1 OR name MATCHES "^qdisc-lab-")
        continue()
      endif()
      file(WRITE ${guard_dir}/ns3/${name}
           "#error \"ns3/${name} is not a header of this ns-3 ${G_VERSION} tree: the compiler "
           "would take the installed ns-3's ${dir}/ns3/${name} (see "
           "cmake/qdisc-lab-installed-ns3-guard.cmake). Include the header this release has "
           "(model/qdisc-lab-compat.h keeps such differences) or enable the ns-3 module that "
           "provides it.\"\n")
      math(EXPR count "${count} + 1")
    endforeach()
  endforeach()
  set(${count_var} ${count} PARENT_SCOPE)
endfunction()

# In-tree only (a standalone build compiles against an installed ns-3 on purpose): adds the guard
# directory to the include path of every target defined from here on in this directory and below
# (the library, its tests, the examples), and fills it at the end of ns-3's configure, when every
# enabled module has put its headers into the tree's include directory (ns-3 configures contrib/
# before src/, so they are not there yet when this runs).
function(qdisc_lab_guard_installed_ns3_headers)
  if(QDISC_LAB_STANDALONE)
    return()
  endif()
  if(NOT CMAKE_HEADER_OUTPUT_DIRECTORY)
    message(FATAL_ERROR "qdisc-lab: in an ns-3 tree, but ns-3's CMAKE_HEADER_OUTPUT_DIRECTORY "
                        "is not set")
  endif()
  set(guard ${CMAKE_CURRENT_BINARY_DIR}/installed-ns3-guard)
  file(MAKE_DIRECTORY ${guard}/ns3)
  # Build tree only: ns-3 exports its modules' targets, and an exported interface may not name a
  # directory of the build tree (3.37 stops configuring on it).
  include_directories(AFTER $<BUILD_INTERFACE:${guard}>)
  if(CMAKE_VERSION VERSION_LESS 3.19)
    message(WARNING "qdisc-lab: CMake ${CMAKE_VERSION} cannot defer a call (3.19 can): an "
                    "installed ns-3's headers are not kept out of this build")
    return()
  endif()
  qdisc_lab_installed_ns3_include_dirs(installed)
  # EVAL bakes the values in now; the call runs when the top-level directory is done.
  cmake_language(
    EVAL CODE
    "cmake_language(DEFER DIRECTORY [[${CMAKE_SOURCE_DIR}]] CALL qdisc_lab_finish_installed_ns3_guard
       [[${guard}]] [[${CMAKE_HEADER_OUTPUT_DIRECTORY}]] [[${CMAKE_CURRENT_SOURCE_DIR}]]
       [[${NS3_VER}]] ${installed})")
endfunction()

function(qdisc_lab_finish_installed_ns3_guard guard tree own version)
  qdisc_lab_write_installed_ns3_guard(${guard} count TREE ${tree} OWN ${own} VERSION "${version}"
                                      INSTALLED ${ARGN})
  if(ARGN)
    message(STATUS "qdisc-lab: an installed ns-3 has headers in ${ARGN}; the ${count} that this "
                   "tree lacks stop the build if included (${guard})")
  endif()
endfunction()
