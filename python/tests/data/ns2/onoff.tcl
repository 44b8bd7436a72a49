#!/usr/bin/env ns
# SPDX-License-Identifier: GPL-2.0-only
#
# A small ns-2.35 program on the experiment contract (validation/ns2/lib/experiment.tcl), for
# the tooling's tests: two exponential on/off UDP sources into a DropTail bottleneck.

source [file join [file dirname [info script]] .. .. .. .. validation ns2 lib experiment.tcl]

experiment::program onoff
experiment::param flows uint 2 "Number of on/off sources" -min 1 -max 8
experiment::param bottleneckRate rate 1Mbps "Bottleneck rate (ns-3 DataRate text)"
experiment::param simTime double 20 "Simulated time in seconds" -min 0.001
experiment::param limit uint 20 "DropTail limit_ in packets" -min 2
experiment::param burstTime double 0.5 "Mean on time in seconds" -min 0
experiment::param label string "" "A free text, recorded" -recorded never
experiment::metric delivered_packets
experiment::metric flow<i>_delivered_packets
experiment::metric dropped_packets
experiment::parse $argv

set ns [new Simulator]
set r1 [$ns node]
set r2 [$ns node]
$ns duplex-link $r1 $r2 [experiment::bps [experiment::get bottleneckRate]] 10ms DropTail
$ns queue-limit $r1 $r2 [experiment::get limit]
set n [experiment::get flows]
for {set i 0} {$i < $n} {incr i} {
    set s [$ns node]
    set d [$ns node]
    $ns duplex-link $s $r1 10Mb 1ms DropTail
    $ns duplex-link $r2 $d 10Mb 1ms DropTail
    set udp [new Agent/UDP]
    $ns attach-agent $s $udp
    set sink($i) [new Agent/LossMonitor]
    $ns attach-agent $d $sink($i)
    $ns connect $udp $sink($i)
    set src [new Application/Traffic/Exponential]
    $src set packetSize_ 1000
    $src set burst_time_ [experiment::get burstTime]
    $src set idle_time_ 0.1
    $src set rate_ 800k
    $src attach-agent $udp
    $ns at 0 "$src start"
}
set fmon [$ns makeflowmon Fid]
$ns attach-fmon [$ns link $r1 $r2] $fmon

proc finish {} {
    global n sink fmon
    set total 0
    set values {}
    for {set i 0} {$i < $n} {incr i} {
        set got [$sink($i) set npkts_]
        incr total $got
        lappend values flow${i}_delivered_packets $got
    }
    experiment::report [list delivered_packets $total {*}$values \
                            dropped_packets [$fmon set pdrops_]]
    exit 0
}
$ns at [experiment::get simTime] finish
$ns run
