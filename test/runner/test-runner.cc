/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * The standalone build's test runner: ns-3's own TestRunner, linked with the module's
 * TestSuites only. Takes the same options as ns-3's test-runner (--suite=NAME, --list,
 * --verbose, ...). In-tree, ns-3's test.py and test-runner are used instead.
 */

#include "ns3/test.h"

int
main(int argc, char* argv[])
{
    return ns3::TestRunner::Run(argc, argv);
}
