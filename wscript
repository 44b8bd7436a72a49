# SPDX-License-Identifier: GPL-2.0-only
#
# Build of qdisc-lab for waf-era ns-3 (<= 3.35). CMakeLists.txt is the source of truth: the
# module's sources, headers and test suites are read from its build_lib() call, so a new file is
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

    headers = bld(features='ns3header')
    headers.module = 'qdisc-lab'
    headers.source = lists['HEADER_FILES']

    if bld.env.ENABLE_EXAMPLES:
        bld.recurse('examples')
