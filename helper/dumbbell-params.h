/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DUMBBELL_PARAMS_H
#define DUMBBELL_PARAMS_H

#include "ns3/bottleneck-monitor.h"
#include "ns3/dumbbell-scenario.h"
#include "ns3/experiment-params.h"
#include "ns3/metrics-report.h"

#include <string>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief What the dumbbell examples (dumbbell-fifo-vs-red, red-vs-droptail: TCP senders and a
 * UDP sender through DropTail or RED) declare alike: the links as parameters, the bottleneck's
 * metrics, and the attributes the program sets from the links.
 *
 * \code
 *   DumbbellParams links("10Mbps", "20ms", "100Mbps", "1ms"); // the program's defaults
 *   params.Add("queueDisc", "...", queueDisc);
 *   links.Declare(params, ExperimentParams::ALWAYS, ExperimentParams::SOMETIMES);
 *   ...
 *   params.Parse(argc, argv);
 *   links.SetLinks(scenario);                      // before scenario.Build()
 *   ...
 *   DumbbellParams::Report(report, monitor, red);  // after Simulator::Run()
 * \endcode
 *
 * RED gets the bottleneck as its LinkBandwidth and LinkDelay (from bottleneckRate and
 * bottleneckDelay, which the program passes on); the metrics are BottleneckMonitor's for sink
 * groups "tcp" and "udp", and RED's early and forced drops.
 */
struct DumbbellParams
{
    /**
     * \param bottleneckRate the bottleneck's rate (a DataRate text)
     * \param bottleneckDelay its one-way propagation delay (a Time text)
     * \param accessRate the access links' rate
     * \param accessDelay their one-way propagation delay
     */
    DumbbellParams(std::string bottleneckRate,
                   std::string bottleneckDelay,
                   std::string accessRate,
                   std::string accessDelay);

    /**
     * Add --bottleneckRate, --bottleneckDelay, --accessRate and --accessDelay, in this order at
     * this place of the program's parameters; declare the metrics Report writes; and declare
     * that the program sets the links' attributes (and RED's LinkBandwidth and LinkDelay) from
     * them.
     * \param params the program's parameters
     * \param access whether the report records the access link's rate and delay
     * \param udp whether every report has udp_goodput_mbps (SOMETIMES when the UDP flow is
     *        optional)
     */
    void Declare(ExperimentParams& params,
                 ExperimentParams::Recording access,
                 ExperimentParams::Recording udp);

    /**
     * Give \p scenario the links' rates and delays. Call before DumbbellScenario::Build.
     * \param scenario the dumbbell
     */
    void SetLinks(DumbbellScenario& scenario) const;

    /**
     * Write \p monitor's metrics (BottleneckMonitor::Report) and the drops by kind:
     * early_drops, RED's unforced drops (0 for DropTail), and forced_drops, RED's forced drops
     * (with the drops at a full queue) or DropTail's (FifoQueueDisc's limit drops).
     * \param report the run's report
     * \param monitor the bottleneck's monitor, sink groups "tcp" and "udp"
     * \param red whether the bottleneck is a RedQueueDisc (else a FifoQueueDisc)
     */
    static void Report(MetricsReport& report, const BottleneckMonitor& monitor, bool red);

    std::string bottleneckRate;  //!< --bottleneckRate
    std::string bottleneckDelay; //!< --bottleneckDelay
    std::string accessRate;      //!< --accessRate
    std::string accessDelay;     //!< --accessDelay
};

} // namespace ns3

#endif /* DUMBBELL_PARAMS_H */
