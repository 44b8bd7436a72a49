# SPDX-License-Identifier: GPL-2.0-only
#
# Build of qdisc-lab for waf-era ns-3 (<= 3.35). CMakeLists.txt is the source of truth: the
# module's sources, headers and test suites are read from its build_lib() call, and the GoogleTest
# program is every test/unit/*-test.cc (as test/unit/CMakeLists.txt's glob), so a new file is
# listed once (python/tests/test_build_lists.py checks what waf is given).

import re


def cmake_lists(text):
    """The file lists of CMakeLists.txt's build_lib() call: keyword -> file names."""
    text = re.sub(r'#[^\n]*', '', text)
    call = re.search(r'^build_lib\((.*?)\)', text, re.S | re.M).group(1)
    lists = {}
    current = None
    for token in call.split():
        if re.fullmatch(r'[A-Z_]+', token):
            current = lists.setdefault(token, [])
        elif current is not None:
            current.append(token)
    return lists


def configure(conf):
    # GoogleTest, for the unit tests: optional. Without it the program is not built and the suite
    # that runs it (test/qdisc-lab-gtest-test-suite.cc) is left out of test.py's suites.
    found = conf.check_cxx(header_name='gtest/gtest.h', lib=['gtest_main', 'gtest', 'pthread'],
                           uselib_store='QDISC_LAB_GTEST', mandatory=False)
    conf.env['QDISC_LAB_GTEST'] = bool(found)
    conf.report_optional_feature('QdiscLabGtest', 'qdisc-lab GoogleTest unit tests', bool(found),
                                 'GoogleTest (libgtest-dev) not found')


def build(bld):
    version = bld.srcnode.find_node('VERSION').read().strip().split('.')
    lists = cmake_lists(bld.path.find_node('CMakeLists.txt').read())
    module = bld.create_ns3_module(
        'qdisc-lab', ['applications', 'csma', 'flow-monitor', 'internet', 'point-to-point',
                      'traffic-control'])
    module.source = lists['SOURCE_FILES']
    # The ns-3 version, which a CMake build writes into the generated ns3/qdisc-lab-version.h,
    # is a -D flag here, exported to every program in the tree that uses the module
    # (model/qdisc-lab-compat.h includes the header only when the flag is absent). Our code's
    # logging and asserts work whatever ns-3's build profile is.
    module.defines = [
        'QDISC_LAB_NS3_VERSION_MAJOR=%s' % version[0],
        'QDISC_LAB_NS3_VERSION_MINOR=%s' % version[1],
        'NS3_LOG_ENABLE',
        'NS3_ASSERT_ENABLE',
    ]
    module.export_defines = module.defines[:2]

    module_test = bld.create_ns3_module_test_library('qdisc-lab')
    module_test.source = lists['TEST_SOURCES']
    if bld.env['ENABLE_TESTS'] and bld.env['QDISC_LAB_GTEST']:
        # The unit tests' program; the suite qdisc-lab-gtest in the test library runs it.
        gtest = bld.create_ns3_program('qdisc-lab-gtest', ['qdisc-lab'])
        gtest.source = sorted(node.path_from(bld.path)
                              for node in bld.path.ant_glob('test/unit/*-test.cc'))
        gtest.uselib = 'QDISC_LAB_GTEST'
        gtest.install_path = None
        binary = bld.path.get_bld().make_node(gtest.target).abspath()
        module_test.defines = ['QDISC_LAB_GTEST_BINARY="%s"' % binary]

    headers = bld(features='ns3header')
    headers.module = 'qdisc-lab'
    headers.source = lists['HEADER_FILES']

    if bld.env.ENABLE_EXAMPLES:
        bld.recurse('examples')
