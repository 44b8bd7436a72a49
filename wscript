# SPDX-License-Identifier: GPL-2.0-only
#
# Build of qdisc-lab for waf-era ns-3 (<= 3.35). CMakeLists.txt (and test/unit/CMakeLists.txt)
# are the source of truth; the test python/tests/test_build_lists.py fails when they disagree.

# The GoogleTest unit tests (test/unit/CMakeLists.txt's list), one program, qdisc-lab-gtest.
UNIT_TESTS = [
    'aliquem-queue-disc-config-test.cc',
    'aliquem-scheduler-test.cc',
    'bad-input-test.cc',
    'cioq-forwarding-table-test.cc',
    'cioq-switch-config-test.cc',
    'cioq-voq-set-test.cc',
    'drr-queue-disc-config-test.cc',
    'drr-scheduler-test.cc',
    'dscp-marker-profiles-test.cc',
    'dscp-marker-queue-disc-config-test.cc',
    'flow-weight-rules-test.cc',
    'islip-arbiter-test.cc',
    'metrics-report-test.cc',
    'point-batch-test.cc',
    'per-flow-queue-disc-config-test.cc',
    'queue-disc-catalog-test.cc',
    'red-core-test.cc',
    'rio-queue-disc-config-test.cc',
    'srr-queue-disc-config-test.cc',
    'srr-scheduler-test.cc',
    'tcp-segment-ledger-test.cc',
    'traffic-meter-test.cc',
    'vd-queue-disc-config-test.cc',
    'vd-rounds-test.cc',
]


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
    module = bld.create_ns3_module(
        'qdisc-lab', ['applications', 'csma', 'flow-monitor', 'internet', 'point-to-point',
                      'traffic-control'])
    module.source = [
        'helper/bottleneck-flow-meter.cc',
        'helper/bottleneck-monitor.cc',
        'helper/cioq-switch-helper.cc',
        'helper/dscp-marker-helper.cc',
        'helper/dumbbell-params.cc',
        'helper/dumbbell-scenario.cc',
        'helper/example-flags.cc',
        'helper/experiment-params.cc',
        'helper/metrics-report.cc',
        'helper/parking-lot-scenario.cc',
        'helper/point-batch.cc',
        'helper/queue-disc-catalog.cc',
        'helper/random-packet-source.cc',
        'helper/random-tcp-sessions.cc',
        'helper/scenario-link.cc',
        'helper/tcp-segment-ledger.cc',
        'helper/tcp-session-sink.cc',
        'helper/tcp-session-source.cc',
        'helper/udp-flow-meter.cc',
        'model/aliquem-queue-disc.cc',
        'model/aliquem-scheduler.cc',
        'model/cioq-fabric.cc',
        'model/cioq-forwarding-table.cc',
        'model/cioq-frame-item.cc',
        'model/cioq-input-backlog.cc',
        'model/cioq-red-queue-disc.cc',
        'model/cioq-source-tag.cc',
        'model/cioq-switch-net-device.cc',
        'model/cioq-voq-set.cc',
        'model/drr-queue-disc.cc',
        'model/drr-scheduler.cc',
        'model/dscp-marker-profiles.cc',
        'model/dscp-marker-queue-disc.cc',
        'model/flow-identifier.cc',
        'model/flow-index-packet-filter.cc',
        'model/flow-match.cc',
        'model/flow-weight-rules.cc',
        'model/islip-arbiter.cc',
        'model/per-flow-queue-disc.cc',
        'model/qdisc-lab-config.cc',
        'model/red-core.cc',
        'model/ri-plus-o-queue-disc.cc',
        'model/rio-queue-disc.cc',
        'model/slot-queue.cc',
        'model/sr-tcm-meter.cc',
        'model/srr-queue-disc.cc',
        'model/srr-scheduler.cc',
        'model/token-bucket-meter.cc',
        'model/token-bucket.cc',
        'model/tr-tcm-meter.cc',
        'model/traffic-meter.cc',
        'model/vd-rounds.cc',
        'model/vertical-dimensioning-queue-disc.cc',
    ]
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
    module_test.source = [
        'test/aliquem-queue-disc-test-suite.cc',
        'test/cioq-red-queue-disc-test-suite.cc',
        'test/cioq-switch-test-suite.cc',
        'test/compat-test-suite.cc',
        'test/drr-queue-disc-test-suite.cc',
        'test/dscp-marker-queue-disc-test-suite.cc',
        'test/dumbbell-scenario-test-suite.cc',
        'test/parking-lot-scenario-test-suite.cc',
        'test/qdisc-lab-gtest-test-suite.cc',
        'test/random-tcp-sessions-test-suite.cc',
        'test/red-core-test-suite.cc',
        'test/rio-queue-disc-test-suite.cc',
        'test/srr-queue-disc-test-suite.cc',
        'test/tcp-full-window-test-suite.cc',
        'test/vertical-dimensioning-queue-disc-test-suite.cc',
    ]
    if bld.env['ENABLE_TESTS'] and bld.env['QDISC_LAB_GTEST']:
        # The unit tests' program; the suite qdisc-lab-gtest in the test library runs it.
        gtest = bld.create_ns3_program('qdisc-lab-gtest', ['qdisc-lab'])
        gtest.source = ['test/unit/' + name for name in UNIT_TESTS]
        gtest.uselib = 'QDISC_LAB_GTEST'
        gtest.install_path = None
        binary = bld.path.get_bld().make_node(gtest.target).abspath()
        module_test.defines = ['QDISC_LAB_GTEST_BINARY="%s"' % binary]

    headers = bld(features='ns3header')
    headers.module = 'qdisc-lab'
    headers.source = [
        'helper/bottleneck-flow-meter.h',
        'helper/bottleneck-monitor.h',
        'helper/cioq-switch-helper.h',
        'helper/dscp-marker-helper.h',
        'helper/dumbbell-params.h',
        'helper/dumbbell-scenario.h',
        'helper/example-flags.h',
        'helper/experiment-params.h',
        'helper/metrics-report.h',
        'helper/parking-lot-scenario.h',
        'helper/point-batch.h',
        'helper/queue-disc-catalog.h',
        'helper/random-packet-source.h',
        'helper/random-tcp-sessions.h',
        'helper/scenario-link.h',
        'helper/tcp-segment-ledger.h',
        'helper/tcp-session-sink.h',
        'helper/tcp-session-source.h',
        'helper/udp-flow-meter.h',
        'model/aliquem-queue-disc.h',
        'model/aliquem-scheduler.h',
        'model/cioq-fabric.h',
        'model/cioq-forwarding-table.h',
        'model/cioq-frame-item.h',
        'model/cioq-input-backlog.h',
        'model/cioq-red-queue-disc.h',
        'model/cioq-source-tag.h',
        'model/cioq-switch-net-device.h',
        'model/cioq-voq-set.h',
        'model/drr-queue-disc.h',
        'model/drr-scheduler.h',
        'model/dscp-marker-profiles.h',
        'model/dscp-marker-queue-disc.h',
        'model/flow-identifier.h',
        'model/flow-index-packet-filter.h',
        'model/flow-match.h',
        'model/flow-queues.h',
        'model/flow-weight-rules.h',
        'model/islip-arbiter.h',
        'model/per-flow-queue-disc.h',
        'model/qdisc-lab-compat.h',
        'model/qdisc-lab-config.h',
        'model/red-core.h',
        'model/ri-plus-o-queue-disc.h',
        'model/rio-queue-disc.h',
        'model/slot-queue.h',
        'model/sr-tcm-meter.h',
        'model/srr-queue-disc.h',
        'model/srr-scheduler.h',
        'model/token-bucket-meter.h',
        'model/token-bucket.h',
        'model/tr-tcm-meter.h',
        'model/traffic-meter.h',
        'model/vd-rounds.h',
        'model/vertical-dimensioning-queue-disc.h',
    ]

    if bld.env.ENABLE_EXAMPLES:
        bld.recurse('examples')
