# SPDX-License-Identifier: GPL-2.0-only
#
# Install rules of the standalone build. `cmake --install build/<flavor> --prefix DIR` (what
# `./qdisc-lab install --prefix DIR` runs) installs into DIR:
#   include/ns3/*.h               the public headers, with the generated qdisc-lab-version.h
#   lib/libns3-qdisc-lab.so       with an RPATH to ns-3's libraries when they are not in a system
#                                 directory (the PyPI wheel)
#   lib/cmake/qdisc-lab/          find_package(qdisc-lab CONFIG) -> target qdisc-lab::qdisc-lab
#   lib/pkgconfig/qdisc-lab.pc    pkg-config --cflags --libs qdisc-lab
# (lib is CMAKE_INSTALL_LIBDIR.) Both packages bring the ns-3 the module was built against.

include(CMakePackageConfigHelpers)

# The project's version is declared once, in the Python package.
file(STRINGS ${PROJECT_SOURCE_DIR}/python/qdisclab/__init__.py version_line
     REGEX "^__version__ = \"[0-9.]+\"")
string(REGEX MATCH "[0-9.]+" QDISC_LAB_VERSION "${version_line}")
set(package_dir ${CMAKE_INSTALL_LIBDIR}/cmake/qdisc-lab)

# The library file of an imported ns-3 target.
function(qdisc_lab_ns3_location target out)
  get_target_property(location ${target} IMPORTED_LOCATION_RELEASE)
  if(NOT location)
    get_target_property(location ${target} IMPORTED_LOCATION)
  endif()
  set(${out} ${location} PARENT_SCOPE)
endfunction()

# The directories of the ns-3 libraries the module needs (directly or through ns-3's own links).
function(qdisc_lab_ns3_libdirs out)
  qdisc_lab_ns3_link_closure(targets ${libqdisc-lab})
  set(dirs "")
  foreach(target ${targets})
    qdisc_lab_ns3_location(${target} location)
    get_filename_component(dir ${location} DIRECTORY)
    list(APPEND dirs ${dir})
  endforeach()
  list(REMOVE_DUPLICATES dirs)
  set(${out} ${dirs} PARENT_SCOPE)
endfunction()

set(QDISC_LAB_SYSTEM_LIBDIRS ${CMAKE_PLATFORM_IMPLICIT_LINK_DIRECTORIES}
                             ${CMAKE_CXX_IMPLICIT_LINK_DIRECTORIES})
# The installed library finds ns-3 by an RPATH unless ns-3 is in a directory the loader searches
# anyway. Named explicitly: INSTALL_RPATH_USE_LINK_PATH leaves out directories inside the
# project, and a clone's own venv (where the PyPI wheel lives) is inside it.
qdisc_lab_ns3_libdirs(ns3_libdirs)
set(rpath "")
foreach(dir ${ns3_libdirs})
  list(FIND QDISC_LAB_SYSTEM_LIBDIRS "${dir}" system)
  if(system EQUAL -1)
    list(APPEND rpath "${dir}")
  endif()
endforeach()
set_target_properties(${libqdisc-lab} PROPERTIES INSTALL_RPATH "${rpath}")
install(
  TARGETS ${libqdisc-lab}
  EXPORT qdisc-lab-targets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  PUBLIC_HEADER DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ns3)

# CMake package. The config finds the same ns-3 (by its ns3_DIR, exact version) before the
# targets, which link ns-3's targets by name.
install(EXPORT qdisc-lab-targets NAMESPACE qdisc-lab:: FILE qdisc-lab-targets.cmake
        DESTINATION ${package_dir})
configure_package_config_file(${QDISC_LAB_CMAKE_DIR}/qdisc-lab-config.cmake.in
                              ${CMAKE_BINARY_DIR}/qdisc-lab-config.cmake
                              INSTALL_DESTINATION ${package_dir})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/qdisc-lab-config-version.cmake
                                 VERSION ${QDISC_LAB_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/qdisc-lab-config.cmake
              ${CMAKE_BINARY_DIR}/qdisc-lab-config-version.cmake
              ${QDISC_LAB_CMAKE_DIR}/qdisc-lab-ns3-targets.cmake
        DESTINATION ${package_dir})

# ns-3's part of the pkg-config file (in the style of Debian's ns3-*.pc). Where pkg-config's
# ns3-<module>.pc files describe the ns-3 the module was built against (Debian's), it Requires
# them. Otherwise (the PyPI wheel ships .pc files naming its build machine's paths) Cflags and
# Libs name that ns-3's include directory and libraries themselves, with an RPATH to them: the
# include directory only, without the defines (HAVE_BOOST...) that make ns-3's headers include
# the Boost copy the wheel bundles.
function(qdisc_lab_pkg_config_ns3 requires cflags libs)
  qdisc_lab_ns3_link_closure(targets ${libqdisc-lab})
  find_package(PkgConfig QUIET)
  set(by_pkg_config ${PKG_CONFIG_FOUND})
  set(libdirs "")
  set(names "")
  foreach(target ${targets})
    qdisc_lab_ns3_location(${target} location)
    get_filename_component(dir ${location} DIRECTORY)
    string(REGEX REPLACE "^ns3::(lib)?" "ns3-" module ${target})
    if(by_pkg_config)
      execute_process(COMMAND ${PKG_CONFIG_EXECUTABLE} --variable=libdir ${module}
                      OUTPUT_VARIABLE pc_libdir OUTPUT_STRIP_TRAILING_WHITESPACE
                      RESULT_VARIABLE failed ERROR_QUIET)
      execute_process(COMMAND ${PKG_CONFIG_EXECUTABLE} --modversion ${module}
                      OUTPUT_VARIABLE pc_version OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
      if(failed OR NOT pc_libdir STREQUAL dir OR NOT pc_version STREQUAL QDISC_LAB_NS3_VERSION)
        set(by_pkg_config OFF)
      endif()
    endif()
    get_filename_component(name ${location} NAME)
    string(REGEX REPLACE "^lib(.*)\\.so.*$" "\\1" name ${name})
    list(APPEND libdirs ${dir})
    list(APPEND names -l${name})
  endforeach()
  if(by_pkg_config)
    # The modules the library links directly; pkg-config brings the rest.
    get_target_property(direct ${libqdisc-lab} INTERFACE_LINK_LIBRARIES)
    list(FILTER direct INCLUDE REGEX "^ns3::")
    list(TRANSFORM direct REPLACE "^ns3::(lib)?" "ns3-")
    list(JOIN direct " " value)
    set(${requires} "${value}" PARENT_SCOPE)
    set(${cflags} "" PARENT_SCOPE)
    set(${libs} "" PARENT_SCOPE)
    message(STATUS "qdisc-lab: qdisc-lab.pc requires ${value}")
    return()
  endif()
  list(REMOVE_DUPLICATES libdirs)
  set(flags "")
  foreach(dir ${libdirs})
    string(APPEND flags "-L\"${dir}\" -Wl,-rpath,\"${dir}\" ")
  endforeach()
  list(JOIN names " " value)
  set(${libs} " ${flags}${value}" PARENT_SCOPE)
  get_filename_component(prefix ${ns3_DIR}/../../.. ABSOLUTE) # as ns3Targets.cmake finds it
  set(${cflags} " -I\"${prefix}/include\"" PARENT_SCOPE)
  set(${requires} "" PARENT_SCOPE)
  message(STATUS "qdisc-lab: qdisc-lab.pc names ns-3's flags itself (no usable ns3-*.pc files)")
endfunction()

# The .pc file names the prefix given at install time (cmake --install --prefix), so it is
# written then, from these values of the configuration.
qdisc_lab_pkg_config_ns3(QDISC_LAB_PC_REQUIRES QDISC_LAB_PC_NS3_CFLAGS QDISC_LAB_PC_NS3_LIBS)
set(QDISC_LAB_PC_TEMPLATE ${QDISC_LAB_CMAKE_DIR}/qdisc-lab.pc.in)
set(code "")
foreach(var QDISC_LAB_VERSION QDISC_LAB_NS3_VERSION QDISC_LAB_PC_REQUIRES QDISC_LAB_PC_NS3_CFLAGS
            QDISC_LAB_PC_NS3_LIBS QDISC_LAB_PC_TEMPLATE QDISC_LAB_SYSTEM_LIBDIRS
            CMAKE_INSTALL_LIBDIR CMAKE_INSTALL_INCLUDEDIR CMAKE_CXX_STANDARD)
  string(APPEND code "set(${var} [==[${${var}}]==])\n")
endforeach()
install(CODE "${code}")
install(CODE [[
  set(QDISC_LAB_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(libdir "${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}")
  # Programs find the library by an RPATH unless it is in a directory the linker searches anyway.
  set(QDISC_LAB_PC_RPATH "")
  list(FIND QDISC_LAB_SYSTEM_LIBDIRS "${libdir}" system) # (IN_LIST needs a policy not set here)
  if(system EQUAL -1)
    set(QDISC_LAB_PC_RPATH "-Wl,-rpath,\"\${libdir}\" ")
  endif()
  set(pc "$ENV{DESTDIR}${libdir}/pkgconfig/qdisc-lab.pc")
  message(STATUS "Installing: ${pc}")
  configure_file("${QDISC_LAB_PC_TEMPLATE}" "${pc}" @ONLY)
  list(APPEND CMAKE_INSTALL_MANIFEST_FILES "${pc}")
]])
