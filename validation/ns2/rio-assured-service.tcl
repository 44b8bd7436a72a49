#!/usr/bin/env ns
# SPDX-License-Identifier: GPL-2.0-only
#
# The Assured Service scenario of examples/rio-assured-service.cc (Kim, Park and Bahk's RI+O
# paper) on ns-2.35, the paper's simulator: long-lived TCP NewReno flows (Agent/TCP/Newreno with
# an FTP source, which always has data to send) share a 20 Mb/s bottleneck; every Assured
# Service (AS) flow is metered against its profile by a token bucket on its sender's access
# link (Queue/dsRED/edge, TokenBucket policer: IN while the bucket holds the packet, OUT
# beyond), best-effort (BE) flows stay unmarked (OUT), and the bottleneck is ns-2.35's
# diffserv RIO (Queue/dsRED/core, one physical queue, two precedences, MRED mode RIO-C: IN
# tested on the average of the IN packets, OUT on the average of all packets).
#
#   validation/ns2/rio-assured-service.tcl --simTime=30 --warmup=5 --output=m.json
#
# Why not Queue/RED/RIO: it reads IN/OUT from hdr_flags::pri_ (which no ns-2.35 marker sets)
# or, with priority_method_ 1, from the flow id (one value per agent), so a token bucket's
# per-packet marking cannot reach it; dsRED's edge writes the code point, which its core
# reads. Parameters have the ns-3 example's names, defaults and meanings; those ns-2 cannot
# honour (RI+O's OUT test, SACK, the recovery algorithm, the minimum RTO's ns-3 default, the
# trace) are not declared. The choices are listed in doc/reproductions/rio-assured-service.rst.

source [file join [file dirname [info script]] lib experiment.tcl]

experiment::program rio-assured-service
experiment::param queueDisc string RIO "Bottleneck queue disc: RIO (ns-2.35's diffserv RIO,\
 RIO-C; RI+O and the RED baseline have no ns-2.35 counterpart)"
experiment::param profiles string "2,1,0.5,0.2,0.1" "AS profile rates in Mb/s, comma-separated\
 (flowsPerProfile flows of each)"
experiment::param flowsPerProfile uint 4 "AS flows per profile rate" -min 0 -max 254
experiment::param nBestEffort uint 20 "Best-effort (unmarked) flows" -min 0 -max 254
experiment::param subscription double 0 "If > 0: the subscription level in (0, 1]; each profile\
 gets round(S x bottleneckRate / sum(profiles)) flows instead of flowsPerProfile (recorded: the\
 level the flows give)"
experiment::param bucketKbit double 320 "Token bucket depth of every AS marker, kbit (1000 bits)"
experiment::param inMinTh double 390 "RIO IN min_in, packets (an integer: dsRED reads it so)"
experiment::param inMaxTh double 694 "RIO IN max_in, packets (an integer)"
experiment::param inMaxP double 0.02 "RIO IN P_max_in"
experiment::param totalMinTh double 347 "RIO IN+OUT min_total, packets (an integer)"
experiment::param totalMaxTh double 694 "RIO IN+OUT max_total, packets (an integer)"
experiment::param totalMaxP double 0.05 "RIO IN+OUT P_max_total"
experiment::param queueLimit uint 1000 "Bottleneck queue limit, packets" -min 1 -max 1000000
experiment::param queueWeight double 0.002 "RED averaging weight w_q of the queue averages"
experiment::param bottleneckRate rate 20Mbps "Bottleneck link rate"
experiment::param bottleneckDelay string 48ms "Bottleneck one-way propagation delay"
experiment::param accessRate rate 100Mbps "Access links' rate"
experiment::param accessDelay string 1ms "Access links' one-way propagation delay"
experiment::param segmentSize uint 1000 "TCP segment size, bytes (packetSize_; packets are 40 B\
 larger)" -min 100 -max 1460
experiment::param delAckCount uint 1 "Segments per delayed ACK (1: Agent/TCPSink, an ACK per\
 segment; 2: Agent/TCPSink/DelAck)" -min 1 -max 2
experiment::param socketBuffer uint 4194304 "TCP send and receive buffer, bytes: window_ is\
 socketBuffer / segmentSize packets (large: windows are never the limit)" -min 1\
 -recorded never
experiment::param simTime double 100 "Simulated seconds"
experiment::param warmup double 10 "Seconds excluded from the statistics"
experiment::param startJitter double 1 "Flows start at times uniform in \[0, startJitter) s"\
 -recorded never
experiment::param quick bool 0 "Short run for CI: simTime=30, warmup=5" -recorded never

foreach metric {as<i>_mbps as<i>_min_mbps as<i>_max_mbps as<i>_in_mbps as<i>_goodput_mbps
        as_mbps as_min_mbps as_in_mbps be_mbps be_min_mbps be_max_mbps be_in_mbps
        be_goodput_mbps total_mbps mean_queue_packets mean_queue_delay_ms drops
        in_packets in_early_drops in_forced_or_limit_drops out_packets out_early_drops
        out_forced_or_limit_drops mean_avg_in_packets mean_avg_total_packets
        as<i>_retx_fraction as<i>_out_drop_prob be_retx_fraction be_out_drop_prob
        as<i>_timeouts_per_s be_timeouts_per_s flow<i>_mbps flow<i>_goodput_mbps} {
    experiment::metric $metric
}
experiment::parse $argv

# --- the values, checked as the ns-3 example checks them ------------------------------------
foreach name {queueDisc profiles flowsPerProfile nBestEffort subscription bucketKbit inMinTh
        inMaxTh inMaxP totalMinTh totalMaxTh totalMaxP queueLimit queueWeight bottleneckRate
        bottleneckDelay accessRate accessDelay segmentSize delAckCount socketBuffer simTime
        warmup startJitter quick} {
    set P($name) [experiment::get $name]
}
if {$P(quick)} {
    set P(simTime) 30
    set P(warmup) 5
    set experiment::value(simTime) 30
    set experiment::value(warmup) 5
}
if {$P(queueDisc) ne "RIO"} {
    experiment::fail "--queueDisc: ns-2.35 has RIO only, got '$P(queueDisc)' (RI+O and\
 the RED baseline run on the module's example)"
}
set profiles {}
foreach item [split $P(profiles) ","] {
    if {![string is double -strict $item] || $item < 1e-6} {
        experiment::fail "--profiles: '$item' is not a positive rate in Mb/s (expected e.g.\
 2,1,0.5)"
    }
    lappend profiles $item
}
if {[llength $profiles] == 0} { experiment::fail "--profiles: at least one profile rate is required" }
if {[llength $profiles] > 31} {
    experiment::fail "--profiles: at most 31 profiles (two dsRED code points each), got\
 [llength $profiles]"
}
foreach name {bottleneckDelay accessDelay} {
    if {![regexp {^([0-9]+(\.[0-9]*)?)(s|ms|us)$} $P($name)]} {
        experiment::fail "--$name: expected a time such as 48ms or 0.001s, got '$P($name)'"
    }
}
foreach name {inMinTh inMaxTh totalMinTh totalMaxTh} {
    if {$P($name) != int($P($name)) || $P($name) < 0} {
        experiment::fail "--$name: dsRED takes a whole number of packets >= 0, got $P($name)"
    }
}
foreach {low high} {inMinTh inMaxTh totalMinTh totalMaxTh} {
    if {$P($high) <= $P($low)} {
        experiment::fail "--$high must be above --$low, got $P($high) <= $P($low)"
    }
}
foreach name {inMaxP totalMaxP queueWeight} {
    if {$P($name) <= 0 || $P($name) > 1} {
        experiment::fail "--$name must be in (0, 1], got $P($name)"
    }
}
if {$P(bucketKbit) <= 0} { experiment::fail "--bucketKbit must be > 0" }
set capacity [expr {[experiment::bps $P(bottleneckRate)] / 1e6}]
set profileSum 0.0
foreach p $profiles { set profileSum [expr {$profileSum + $p}] }
set perProfile $P(flowsPerProfile)
if {$P(subscription) != 0} {
    if {$P(subscription) <= 0 || $P(subscription) > 1} {
        experiment::fail "--subscription must be in (0, 1], got $P(subscription)"
    }
    set flows [expr {$P(subscription) * $capacity / $profileSum}]
    set perProfile [expr {round($flows)}]
    if {abs($flows - $perProfile) >= 1e-6 || $perProfile < 1} {
        experiment::fail "--subscription=$P(subscription) needs $flows flows per profile: not a\
 positive integer"
    }
}
set nAs [expr {$perProfile * [llength $profiles]}]
set nFlows [expr {$nAs + $P(nBestEffort)}]
if {$nFlows < 1 || $nFlows > 254} {
    experiment::fail "AS plus best-effort flows must be in \[1, 254\], got $nFlows"
}
if {$P(warmup) < 0 || $P(warmup) >= $P(simTime)} {
    experiment::fail "--warmup must be in \[0, simTime)"
}
if {$P(startJitter) < 0 || $P(startJitter) > $P(warmup)} {
    experiment::fail "--startJitter must be in \[0, warmup\]"
}
# Recorded as the ns-3 example records it: the subscription level the flows give.
set experiment::value(subscription) [expr {$nAs ? $profileSum * $perProfile / $capacity : 0.0}]

# --- topology: one sender and one receiver per flow, r1 -> r2 the bottleneck -----------------
set ns [new Simulator]
set packetBytes [expr {$P(segmentSize) + 40}]
set r1 [$ns node]
set r2 [$ns node]
for {set i 0} {$i < $nFlows} {incr i} {
    set src($i) [$ns node]
    set dst($i) [$ns node]
}
# Code points: BE 0; profile class k: IN 2k + 2, OUT 2k + 3.
proc in_cp {k} { return [expr {2 * $k + 2}] }
proc out_cp {k} { return [expr {2 * $k + 3}] }

for {set i 0} {$i < $nFlows} {incr i} {
    # The AS senders' links carry their marker: a dsRED edge that only marks (its own queue
    # never drops: DROP mode with thresholds above its limit).
    set class($i) [expr {$i < $nAs ? $i / $perProfile : -1}]
    if {$class($i) >= 0} {
        $ns simplex-link $src($i) $r1 [experiment::bps $P(accessRate)] $P(accessDelay) dsRED/edge
        set e [[$ns link $src($i) $r1] queue]
        set k $class($i)
        set cir [expr {[lindex $profiles $k] * 1e6}]
        set cbs [expr {round($P(bucketKbit) * 1000 / 8)}]
        $e set numQueues_ 1
        $e setNumPrec 2
        $e setMREDMode DROP
        $e configQ 0 0 200000 200000 1
        $e configQ 0 1 200000 200000 1
        $e meanPktSize $packetBytes
        $e addPolicyEntry [$src($i) id] [$dst($i) id] TokenBucket [in_cp $k] $cir $cbs
        $e addPolicerEntry TokenBucket [in_cp $k] [out_cp $k]
        $e addPHBEntry [in_cp $k] 0 0
        $e addPHBEntry [out_cp $k] 0 1
    } else {
        $ns simplex-link $src($i) $r1 [experiment::bps $P(accessRate)] $P(accessDelay) DropTail
    }
    $ns simplex-link $r1 $src($i) [experiment::bps $P(accessRate)] $P(accessDelay) DropTail
    $ns duplex-link $r2 $dst($i) [experiment::bps $P(accessRate)] $P(accessDelay) DropTail
    $ns queue-limit $src($i) $r1 100000
    $ns queue-limit $r1 $src($i) 100000
    $ns queue-limit $r2 $dst($i) 100000
    $ns queue-limit $dst($i) $r2 100000
}
$ns simplex-link $r1 $r2 [experiment::bps $P(bottleneckRate)] $P(bottleneckDelay) dsRED/core
$ns simplex-link $r2 $r1 [experiment::bps $P(bottleneckRate)] $P(bottleneckDelay) DropTail
$ns queue-limit $r1 $r2 $P(queueLimit)
$ns queue-limit $r2 $r1 100000

# The bottleneck: RIO-C on one physical queue; precedence 0 (IN) tested on the IN average,
# precedence 1 (OUT) on the average of IN and OUT; w_q = queueWeight for both; RED's mean
# packet size 500 B (ns-2's RED default, the example's) for the idle-time decay.
set q [[$ns link $r1 $r2] queue]
$q set numQueues_ 1
$q setNumPrec 2
$q setMREDMode RIO-C
$q configQ 0 0 [expr {int($P(inMinTh))}] [expr {int($P(inMaxTh))}] $P(inMaxP) $P(queueWeight)
$q configQ 0 1 [expr {int($P(totalMinTh))}] [expr {int($P(totalMaxTh))}] $P(totalMaxP)\
    $P(queueWeight)
$q meanPktSize 500
$q link [[$ns link $r1 $r2] link]
$q addPHBEntry 0 0 1
for {set k 0} {$k < [llength $profiles]} {incr k} {
    $q addPHBEntry [in_cp $k] 0 0
    $q addPHBEntry [out_cp $k] 0 1
}

set fmon [$ns makeflowmon Fid]
$ns attach-fmon [$ns link $r1 $r2] $fmon

# --- traffic: NewReno with an FTP source per flow, ns-2.35's defaults but the window ---------
set window [expr {max(1, $P(socketBuffer) / $P(segmentSize))}]
for {set i 0} {$i < $nFlows} {incr i} {
    set tcp($i) [new Agent/TCP/Newreno]
    $tcp($i) set fid_ $i
    $tcp($i) set packetSize_ $P(segmentSize)
    $tcp($i) set window_ $window
    $ns attach-agent $src($i) $tcp($i)
    if {$P(delAckCount) == 1} {
        set sink($i) [new Agent/TCPSink]
    } else {
        set sink($i) [new Agent/TCPSink/DelAck]
    }
    $ns attach-agent $dst($i) $sink($i)
    $ns connect $tcp($i) $sink($i)
    set ftp($i) [new Application/FTP]
    $ftp($i) attach-agent $tcp($i)
    # Start times from ns-2's default generator, seeded by --RngSeed/--RngRun.
    $ns at [$defaultRNG uniform 0 $P(startJitter)] "$ftp($i) start"
}

# --- what is read at the end of the warm-up and at the end -----------------------------------
proc flow_bytes {} {
    global fmon
    set bytes {}
    foreach f [$fmon flows] {
        dict set bytes [$f set flowid_] [$f set bdepartures_]
    }
    return $bytes
}

proc counters {} {
    global nFlows tcp q profiles fmon
    set c [dict create departed [flow_bytes] drops [$fmon set pdrops_]]
    for {set i 0} {$i < $nFlows} {incr i} {
        foreach v {ack_ ndatabytes_ nrexmitbytes_ nrexmit_} {
            dict set c $v,$i [$tcp($i) set $v]
        }
    }
    set cps [list 0]
    for {set k 0} {$k < [llength $profiles]} {incr k} {
        lappend cps [in_cp $k] [out_cp $k]
    }
    foreach cp $cps {
        foreach s {pkts drops edrops} {
            dict set c $s,$cp [expr {int([$q getStat $s $cp])}]
        }
    }
    return $c
}

set qsum 0.0
set avgInSum 0.0
set avgTotalSum 0.0
set samples 0
proc sample {} {
    global ns q qsum avgInSum avgTotalSum samples P
    set qsum [expr {$qsum + [$q getCurrent 0]}]
    set avgInSum [expr {$avgInSum + [$q getAverageV 0 0]}]
    set avgTotalSum [expr {$avgTotalSum + [$q getAverageV 0 1]}]
    incr samples
    set next [expr {$P(warmup) + $samples * 0.01}]
    if {$next <= $P(simTime)} {
        $ns at $next sample
    }
}

proc at_warmup {} {
    global atWarmup
    set atWarmup [counters]
    sample
}
$ns at $P(warmup) at_warmup

proc mean {values} {
    if {[llength $values] == 0} { return NaN }
    return [expr {[tcl::mathop::+ {*}$values] / double([llength $values])}]
}
proc ratio {a b} {
    if {$b == 0} { return NaN }
    return [expr {double($a) / $b}]
}
proc summary {name values} {
    if {[llength $values] == 0} {
        return [list ${name}_mbps NaN ${name}_min_mbps NaN ${name}_max_mbps NaN]
    }
    return [list ${name}_mbps [mean $values] ${name}_min_mbps [tcl::mathfunc::min {*}$values]\
                ${name}_max_mbps [tcl::mathfunc::max {*}$values]]
}

proc finish {} {
    global P nFlows nAs perProfile profiles atWarmup packetBytes qsum avgInSum avgTotalSum samples
    set now [counters]
    set seconds [expr {$P(simTime) - $P(warmup)}]
    set diff [dict create]
    dict for {key value} $now {
        if {$key ne "departed"} {
            dict set diff $key [expr {$value - [dict get $atWarmup $key]}]
        }
    }
    set m {}
    # Per flow: throughput (bytes leaving the bottleneck queue) and goodput (the cumulative ACK:
    # segments the receiver holds in order).
    set before [dict get $atWarmup departed]
    set after [dict get $now departed]
    for {set i 0} {$i < $nFlows} {incr i} {
        set b0 [expr {[dict exists $before $i] ? [dict get $before $i] : 0}]
        set b1 [expr {[dict exists $after $i] ? [dict get $after $i] : 0}]
        set mbps($i) [expr {($b1 - $b0) * 8.0 / 1e6 / $seconds}]
        set goodput($i) [expr {[dict get $diff ack_,$i] * $P(segmentSize) * 8.0 / 1e6 / $seconds}]
    }
    # Per class: the mean, minimum and maximum over its flows; the IN part from the core's
    # counters of the class's IN code point (packets that arrived and were not dropped).
    set groups {}
    for {set k 0} {$k < [llength $profiles]} {incr k} {
        lappend groups as$k [expr {$k * $perProfile}] [expr {($k + 1) * $perProfile}] [list $k]
    }
    set all {}
    for {set k 0} {$k < [llength $profiles]} {incr k} { lappend all $k }
    lappend groups as 0 $nAs $all be $nAs $nFlows {}
    foreach {name from to classes} $groups {
        set rates {}
        set goods {}
        set sent 0
        set resent 0
        set timeouts 0
        for {set i $from} {$i < $to} {incr i} {
            lappend rates $mbps($i)
            lappend goods $goodput($i)
            incr sent [dict get $diff ndatabytes_,$i]
            incr resent [dict get $diff nrexmitbytes_,$i]
            incr timeouts [dict get $diff nrexmit_,$i]
        }
        set inPackets 0
        set outArrivals 0
        set outDrops 0
        if {$name eq "be"} {
            set outCps [list 0]
        } else {
            set outCps {}
            foreach k $classes {
                incr inPackets [expr {[dict get $diff pkts,[in_cp $k]]
                                      - [dict get $diff drops,[in_cp $k]]
                                      - [dict get $diff edrops,[in_cp $k]]}]
                lappend outCps [out_cp $k]
            }
        }
        foreach cp $outCps {
            incr outArrivals [dict get $diff pkts,$cp]
            incr outDrops [expr {[dict get $diff drops,$cp] + [dict get $diff edrops,$cp]}]
        }
        # A class without flows (no BE flow, say) has no rates: NaN, written as null.
        set n [expr {$to - $from}]
        set inMbps NaN
        set timeoutRate NaN
        set least NaN
        if {$n > 0} {
            set inMbps [expr {$inPackets * $packetBytes * 8.0 / 1e6 / $seconds / $n}]
            set timeoutRate [expr {$timeouts / double($n) / $seconds}]
            set least [tcl::mathfunc::min {*}$rates]
        }
        if {$name eq "as"} {
            lappend m as_mbps [mean $rates] as_min_mbps $least as_in_mbps $inMbps
            continue
        }
        lappend m {*}[summary $name $rates] ${name}_in_mbps $inMbps\
            ${name}_goodput_mbps [mean $goods]\
            ${name}_retx_fraction [ratio $resent $sent]\
            ${name}_out_drop_prob [ratio $outDrops $outArrivals]\
            ${name}_timeouts_per_s $timeoutRate
    }
    set total 0.0
    for {set i 0} {$i < $nFlows} {incr i} { set total [expr {$total + $mbps($i)}] }
    set meanQueue [expr {$qsum / $samples}]
    lappend m total_mbps $total mean_queue_packets $meanQueue\
        mean_queue_delay_ms [expr {$meanQueue * $packetBytes * 8.0 / [experiment::bps $P(bottleneckRate)] * 1e3}]\
        drops [dict get $diff drops]
    # IN (the classes' IN code points) and OUT (theirs and BE's) at the bottleneck.
    foreach {name kinds} [list in in_cp out out_cp] {
        set cps [expr {$name eq "out" ? [list 0] : {}}]
        for {set k 0} {$k < [llength $profiles]} {incr k} { lappend cps [$kinds $k] }
        set arrivals 0
        set early 0
        set forced 0
        foreach cp $cps {
            incr arrivals [dict get $diff pkts,$cp]
            incr early [dict get $diff edrops,$cp]
            incr forced [dict get $diff drops,$cp]
        }
        lappend m ${name}_packets $arrivals ${name}_early_drops $early\
            ${name}_forced_or_limit_drops $forced
    }
    lappend m mean_avg_in_packets [expr {$avgInSum / $samples}]\
        mean_avg_total_packets [expr {$avgTotalSum / $samples}]
    for {set i 0} {$i < $nFlows} {incr i} {
        lappend m flow${i}_mbps $mbps($i) flow${i}_goodput_mbps $goodput($i)
    }
    experiment::report $m
    exit 0
}
$ns at $P(simTime) finish
$ns run
