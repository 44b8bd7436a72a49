#!/usr/bin/env ns
# SPDX-License-Identifier: GPL-2.0-only
#
# The CIOQ-RED evaluation (examples/cioq-red-evaluation.cc; J. K. Sundararajan et al., "A
# Modification to RED AQM for CIOQ Switches", ns-2) on what ns-2.35 has: an output-queued
# router. ns-2.35 has no CIOQ switch (no input queues or VOQs, no speedup, no fabric, no iSLIP)
# and no CIOQ-RED, which reads the input queues. N source hosts and N sink hosts hang on one
# router node, each on its own duplex link (1 Mb/s, 1 ms); the router forwards a packet to its
# output link's queue at once, so the switch is the CIOQ switch in the limit of speedup N, with
# no input queueing. Each output queue is DropTail or Queue/RED (20 packets); each source's link
# queue is a 50-packet DropTail; acknowledgements use the links' other directions (1000-packet
# queues), so they never meet data in a queue, as the example's second switch keeps them apart.
#
#   validation/ns2/cioq-red-evaluation.tcl --ports=4 --load=0.5 --queueDisc=RED --output=m.json
#
# Parameters keep the example's names, defaults and meanings (--schema); the example's switch
# parameters (speedup, fabric, islipIterations, inputBuffer, voqLimit, nu) are not declared:
# this router is the output-queued limit only. --queueDisc=CIOQ-RED stops with one line.
# Sessions: source, sink, start and duration drawn as the example draws them, all before the
# run, so one RngRun gives DropTail and RED the same sessions; each session is an FTP over its
# own Agent/TCP/Newreno with an Agent/TCPSink (an ACK per segment); packetSize_ is the segment,
# to which ns-2 adds 40 bytes of TCP/IP header (1040-byte packets, as the example's IP packets).
# The router has no input queue, so the input metrics are 0 by construction. Metrics over
# [warmup, simTime] with the example's names (doc/reproductions/cioq-red.rst lists the ns-2
# settings).

source [file join [file dirname [info script]] lib experiment.tcl]

experiment::program cioq-red-evaluation
experiment::param ports uint 4 "N, the switch size (N sources, N sinks)" -min 2 -max 256
experiment::param sessions uint 0 \
    "TCP sessions over the run (0: the paper's 800 for 4 ports, 6400 for 16)" -min 0 \
    -max 4294967295
experiment::param load double 1 "with --sessions=0: this fraction of the paper's sessions\
 (Figs. 3 and 5 vary the load from 0.1 to 1: 80 .. 800 and 640 .. 6400 sessions)"
experiment::param queueDisc string RED "output queue disc: FIFO (Queue/DropTail) or RED\
 (ns-2.35 has no CIOQ switch, so no CIOQ-RED)"
experiment::param minTh double 5 "RED min_th, packets" -recorded sometimes
experiment::param maxTh double 15 "RED max_th, packets" -recorded sometimes
experiment::param qW double 0.004 "RED w_q" -recorded sometimes
experiment::param maxP double 0.1 "RED max_p, in (0, 1]" -recorded sometimes
experiment::param gentle bool 1 "RED gentle mode (ns-2's gentle_)" -recorded sometimes
experiment::param wait bool 1 "RED wait between early drops (ns-2's wait_)" -recorded sometimes
experiment::param outputBuffer uint 20 "output buffer, packets" -min 1 -max 1000000
experiment::param lineRate rate 1Mbps "rate of every host link"
experiment::param linkDelay string 1ms "propagation delay of every host link"
experiment::param hostQueue uint 50 "DropTail queue of each source's link, packets" -min 1 \
    -max 1000000
experiment::param durationMin double 3 "shortest session, seconds"
experiment::param durationMax double 0 \
    "longest session, seconds (0: the paper's 13 for 4 ports, 53 for 16)"
experiment::param simTime double 100 "run length, seconds; sessions start uniformly in\
 \[0, simTime)"
experiment::param warmup double 0 "statistics start, seconds"
experiment::param tcp string NewReno "TCP congestion control: NewReno, Reno or Tahoe (ns-2's\
 Agent/TCP/Newreno, Agent/TCP/Reno, Agent/TCP)"
experiment::param segmentSize uint 1000 "TCP segment size, bytes" -min 1 -max 1400
experiment::param maxWindow uint 20 "receive window, segments (ns-2's window_); 0: no limit" \
    -min 0 -max 65535
experiment::param initialCwnd uint 2 "initial congestion window, segments" -min 1 -max 65535
experiment::param delAckCount uint 1 "segments per delayed ACK (1: an ACK per segment)" \
    -min 1 -max 2
experiment::param minRto double 1 "TCP minimum retransmission timeout, seconds"
foreach metric {mean_input_queue_packets mean_output_queue_packets loss_rate input_loss_rate
    output_loss_rate utilization goodput_utilization switch_arrivals switch_delivered
    input_drops output_drops early_drops forced_drops host_sent host_drops
    end_to_end_loss_rate ack_path_drops sessions_run mean_concurrent_sessions} {
    experiment::metric $metric
}
experiment::parse $argv

# --- the parameters, resolved as the example resolves them ---------------------------------
foreach name {ports sessions load queueDisc minTh maxTh qW maxP gentle wait outputBuffer
    lineRate linkDelay hostQueue durationMin durationMax simTime warmup tcp segmentSize
    maxWindow initialCwnd delAckCount minRto} {
    set P($name) [experiment::get $name]
}

proc paper_default {what four sixteen} {
    global P
    if {$P(ports) == 4} { return $four }
    if {$P(ports) == 16} { return $sixteen }
    experiment::fail "the paper gives $what for 4 and 16 ports only: set it for $P(ports)"
}

switch -- $P(queueDisc) {
    FIFO - RED {}
    CIOQ-RED {
        experiment::fail "--queueDisc=CIOQ-RED: ns-2.35 has no CIOQ switch (no input queues for\
 CIOQ-RED to read); use FIFO or RED"
    }
    default { experiment::fail "--queueDisc must be FIFO or RED, got '$P(queueDisc)'" }
}
array set agentOf {NewReno Agent/TCP/Newreno Reno Agent/TCP/Reno Tahoe Agent/TCP}
if {![info exists agentOf($P(tcp))]} {
    experiment::fail "--tcp must be NewReno, Reno or Tahoe (ns-2's agents), got '$P(tcp)'"
}
if {!($P(load) > 0 && $P(load) <= 100)} { experiment::fail "--load must be in (0, 100]" }
if {$P(sessions) == 0} {
    set P(sessions) [expr {round($P(load) * [paper_default --sessions 800 6400])}]
    if {$P(sessions) == 0} { experiment::fail "--load $P(load) gives no session" }
} elseif {$P(load) != 1} {
    experiment::fail "give --sessions or --load, not both"
}
if {$P(durationMax) <= 0} { set P(durationMax) [paper_default --durationMax 13.0 53.0] }
if {!($P(maxP) > 0 && $P(maxP) <= 1)} { experiment::fail "--maxP must be in (0, 1]" }
if {!($P(simTime) > 0 && $P(warmup) >= 0 && $P(warmup) < $P(simTime))} {
    experiment::fail "need simTime > 0 and warmup in \[0, simTime)"
}
if {!($P(minRto) > 0)} { experiment::fail "--minRto must be > 0 seconds" }
if {!($P(durationMin) > 0 && $P(durationMax) >= $P(durationMin))} {
    experiment::fail "need 0 < durationMin <= durationMax"
}
if {![regexp {^([0-9]+(\.[0-9]*)?)(ms|us|s)$} $P(linkDelay) -> - - unit]} {
    experiment::fail "--linkDelay: expected a time such as 1ms, got '$P(linkDelay)'"
}
set rate [experiment::bps $P(lineRate)]
set n $P(ports)

# --- topology: N sources and N sinks around one output-queued router -----------------------
set ns [new Simulator]
set router [$ns node]
for {set i 0} {$i < $n} {incr i} {
    set src($i) [$ns node]
    set dst($i) [$ns node]
}
set outputQueue [expr {$P(queueDisc) eq "RED" ? "RED" : "DropTail"}]
if {$outputQueue eq "RED"} {
    # RED in packets (queue_in_bytes_ false), no ECN: the example's RedQueueDisc.
    Queue/RED set thresh_ $P(minTh)
    Queue/RED set maxthresh_ $P(maxTh)
    Queue/RED set q_weight_ $P(qW)
    Queue/RED set linterm_ [expr {1.0 / $P(maxP)}]
    Queue/RED set gentle_ $P(gentle)
    Queue/RED set wait_ $P(wait)
    Queue/RED set mean_pktsize_ [expr {$P(segmentSize) + 40}]
    Queue/RED set bytes_ false
    Queue/RED set queue_in_bytes_ false
    Queue/RED set setbit_ false
    Queue/RED set drop_tail_ true
}
for {set i 0} {$i < $n} {incr i} {
    $ns duplex-link $src($i) $router $rate $P(linkDelay) DropTail
    $ns queue-limit $src($i) $router $P(hostQueue)
    $ns queue-limit $router $src($i) 1000
    $ns simplex-link $router $dst($i) $rate $P(linkDelay) $outputQueue
    $ns simplex-link $dst($i) $router $rate $P(linkDelay) DropTail
    $ns queue-limit $router $dst($i) $P(outputBuffer)
    $ns queue-limit $dst($i) $router 1000
}

# A queue monitor with its packets integrator (early drops counted apart for RED).
proc monitor {from to {red 0}} {
    global ns
    set link [$ns link $from $to]
    set qmon [new QueueMonitor/ED]
    $link attach-monitors [new SnoopQueue/In] [new SnoopQueue/Out] [new SnoopQueue/Drop] $qmon
    set integrator [new Integrator]
    $qmon set-pkts-integrator $integrator
    if {$red} {
        set edrop [new SnoopQueue/EDrop]
        $edrop set-monitor $qmon
        [$link queue] early-drop-target $edrop
        $edrop target [$ns set nullAgent_]
    }
    return [list $qmon $integrator]
}
for {set i 0} {$i < $n} {incr i} {
    lassign [monitor $router $dst($i) [expr {$outputQueue eq "RED"}]] outMon($i) outInt($i)
    set hostMon($i) [lindex [monitor $src($i) $router] 0]
    set ackMon($i,in) [lindex [monitor $dst($i) $router] 0]
    set ackMon($i,out) [lindex [monitor $router $src($i)] 0]
}

# --- the sessions, drawn before the run (the same for every queue disc of one RngRun) ------
set sourceDraw [new RandomVariable/Uniform]
set sinkDraw [new RandomVariable/Uniform]
set startDraw [new RandomVariable/Uniform]
$startDraw set max_ $P(simTime)
set durationDraw [new RandomVariable/Uniform]
$durationDraw set min_ $P(durationMin)
$durationDraw set max_ $P(durationMax)
set sessionSeconds 0.0
for {set k 0} {$k < $P(sessions)} {incr k} {
    set s [expr {min($n - 1, int([$sourceDraw value] * $n))}]
    set d [expr {min($n - 1, int([$sinkDraw value] * $n))}]
    set start [$startDraw value]
    set stop [expr {min($start + [$durationDraw value], $P(simTime))}]
    set sessionSeconds [expr {$sessionSeconds + $stop - $start}]
    set tcpAgent($k) [new $agentOf($P(tcp))]
    $tcpAgent($k) set packetSize_ $P(segmentSize)
    $tcpAgent($k) set window_ [expr {$P(maxWindow) ? $P(maxWindow) : 1000000}]
    $tcpAgent($k) set windowInit_ $P(initialCwnd)
    $tcpAgent($k) set minrto_ $P(minRto)
    $ns attach-agent $src($s) $tcpAgent($k)
    set sink [new [expr {$P(delAckCount) == 1 ? "Agent/TCPSink" : "Agent/TCPSink/DelAck"}]]
    $ns attach-agent $dst($d) $sink
    $ns connect $tcpAgent($k) $sink
    set ftp [new Application/FTP]
    $ftp attach-agent $tcpAgent($k)
    $ns at $start "$ftp start"
    $ns at $stop "$ftp stop"
}

# --- measurement from the warm-up on -------------------------------------------------------
proc counters {} {
    global n outMon hostMon ackMon tcpAgent P
    set c(arrivals) 0; set c(departures) 0; set c(bytesOut) 0; set c(drops) 0
    set c(early) 0; set c(hostSent) 0; set c(hostDrops) 0; set c(ackDrops) 0; set c(acked) 0
    for {set i 0} {$i < $n} {incr i} {
        incr c(arrivals) [$outMon($i) set parrivals_]
        incr c(departures) [$outMon($i) set pdepartures_]
        incr c(bytesOut) [$outMon($i) set bdepartures_]
        incr c(drops) [$outMon($i) set pdrops_]
        incr c(early) [$outMon($i) set epdrops_]
        incr c(hostSent) [$hostMon($i) set parrivals_]
        incr c(hostDrops) [$hostMon($i) set pdrops_]
        incr c(ackDrops) [expr {[$ackMon($i,in) set pdrops_] + [$ackMon($i,out) set pdrops_]}]
    }
    for {set k 0} {$k < $P(sessions)} {incr k} {
        # ack_ is the highest segment acknowledged: 0 is the 40-byte SYN (syn_ true), the
        # data segments are 1, 2, ...; -1 before the SYN's ACK.
        incr c(acked) [expr {max(0, [$tcpAgent($k) set ack_])}]
    }
    return [array get c]
}

proc integrate {} {
    global ns n outInt outMon
    set sum 0.0
    for {set i 0} {$i < $n} {incr i} {
        $outInt($i) newpoint [$ns now] [$outMon($i) set pkts_]
        set sum [expr {$sum + [$outInt($i) set sum_]}]
    }
    return $sum
}

proc at_warmup {} {
    global atWarmup areaAtWarmup
    array set atWarmup [counters]
    set areaAtWarmup [integrate]
}
array set atWarmup {arrivals 0 departures 0 bytesOut 0 drops 0 early 0 hostSent 0 hostDrops 0
    ackDrops 0 acked 0}
set areaAtWarmup 0.0
if {$P(warmup) > 0} { $ns at $P(warmup) at_warmup }

proc ratio {a b} {
    return [expr {$b > 0 ? double($a) / $b : "nan"}]
}

proc finish {} {
    global P n atWarmup areaAtWarmup rate sessionSeconds
    set area [expr {[integrate] - $areaAtWarmup}]
    array set now [counters]
    foreach key [array names now] {
        set c($key) [expr {$now($key) - $atWarmup($key)}]
    }
    set seconds [expr {$P(simTime) - $P(warmup)}]
    set capacity [expr {$n * $rate * $seconds}]
    set forced [expr {$P(queueDisc) eq "RED" ? $c(drops) - $c(early) : 0}]
    set early [expr {$P(queueDisc) eq "RED" ? $c(early) : 0}]
    experiment::report [list \
        mean_input_queue_packets 0 \
        mean_output_queue_packets [expr {$area / $seconds / $n}] \
        loss_rate [ratio $c(drops) $c(arrivals)] \
        input_loss_rate [ratio 0 $c(arrivals)] \
        output_loss_rate [ratio $c(drops) $c(arrivals)] \
        utilization [expr {$c(bytesOut) * 8.0 / $capacity}] \
        goodput_utilization [expr {$c(acked) * $P(segmentSize) * 8.0 / $capacity}] \
        switch_arrivals $c(arrivals) \
        switch_delivered $c(departures) \
        input_drops 0 \
        output_drops $c(drops) \
        early_drops $early \
        forced_drops $forced \
        host_sent $c(hostSent) \
        host_drops $c(hostDrops) \
        end_to_end_loss_rate [ratio [expr {$c(hostDrops) + $c(drops)}] $c(hostSent)] \
        ack_path_drops $c(ackDrops) \
        sessions_run $P(sessions) \
        mean_concurrent_sessions [expr {$sessionSeconds / $P(simTime)}]]
    exit 0
}
$ns at $P(simTime) finish
$ns run
