#!/usr/bin/env ns
# SPDX-License-Identifier: GPL-2.0-only
#
# The DRR evaluation (J.-S. Li, "An Evaluation of Deficit Round Robin Fair Queuing Applied in
# Router Congestion Control", JISE 18, 2002) on the paper's simulator: the scenario of
# examples/drr-evaluation.cc as an ns-2.35 program, with its parameters (same names, defaults
# and meanings) and its metrics, for the ones ns-2 can run. The choices are those of
# doc/reproductions/drr-evaluation.rst; its section "On the paper's simulator (ns-2.35)" lists
# what differs.
#
#  - fairness (Fig. 3): nFlows Application/Traffic/Exponential sources over Agent/UDP (rate_
#    onRate, burst_time_ meanOn, idle_time_ meanOff), every link accessRate, Queue/DRR at the
#    bottleneck (buckets_, blimit_ = maxSize in bytes, quantum_). ns-2's exponential source
#    sends one packet size: packetSize_ is the mean of [packetSizeMin, packetSizeMax].
#  - factorial (Tables 2-5): the measured flow and nFlows - 1 background flows, each a sender
#    scheduled from Tcl with inter-arrival times uniform in (intervalMin, intervalMax) ms
#    (background: bgIntervalMin, bgIntervalMax) and packets of packetSizeMin .. packetSizeMax
#    bytes (background: bgPacketSize); the bottleneck is Queue/DRR or Queue/DropTail.
#
# Senders are nodes 0 .. nFlows - 1 (created first), so ns-2's DRR hash puts sender k in
# bucket k mod buckets_ (the module's flowMapping=sequential). ns-2's UDP agent adds no header:
# a packet's ns-2 size is the module's IPv4 packet size. DropTail's limit_ counts the packet
# ns-2 takes into transmission out of the queue and holds one packet less than limit_, so
# maxSize=Np is limit_ N + 2 (the module's queue disc, the device's one-packet queue and the
# packet on the wire); maxSize=MB is the byte mode (queue_in_bytes_, mean_pktsize_ 1) with
# room for M bytes and the device's packet.
#
#   ns validation/ns2/drr-evaluation.tcl --scenario=factorial --queueDisc=DRR \
#       --maxSize=650000B --bgPacketSize=1000 --bgIntervalMin=5 --bgIntervalMax=15

source [file join [file dirname [info script]] lib experiment.tcl]

experiment::program drr-evaluation
experiment::param scenario string fairness "fairness (Fig. 3: on/off sources, DRR's\
 buckets_ x blimit_) or factorial (Tables 2-5: P x B x Q); the other defaults depend on it"
experiment::param queueDisc string DRR "Bottleneck queue: DRR (Queue/DRR) or FIFO\
 (Queue/DropTail)"
experiment::param nFlows uint 10 "Number of sources (sender/receiver pairs); flow 0 is the\
 measured flow" -min 1 -max 254
experiment::param maxSize string "" "Queue limit as an ns-3 QueueSize text ('25000B', '400p');\
 DRR: blimit_ in bytes; FIFO: limit_ N + 2 for Np, byte mode for MB. Default: fairness\
 25000B; factorial DRR 200000B, FIFO 400p"
experiment::param buckets uint 10 "DRR: buckets_" -min 1 -max 16777216 -recorded sometimes
experiment::param quantum uint 250 "DRR: quantum_ in bytes (ns-2's default 250)" -min 1\
 -max 4294967295 -recorded sometimes
experiment::param accessRate rate 1Mbps "Senders' and receivers' link rate"
experiment::param accessDelay string 1ms "Senders' and receivers' link one-way delay"
experiment::param bottleneckRate rate 1Mbps "Bottleneck rate (the factorial's B)"
experiment::param bottleneckDelay string 10ms "Bottleneck one-way delay"
experiment::param packetSizeMin uint 1400 "Smallest packet size in bytes (factorial: sizes\
 uniform integers in \[packetSizeMin, packetSizeMax]; fairness: their mean, one size)"\
 -min 40 -max 65535
experiment::param packetSizeMax uint 1600 "Largest packet size in bytes" -min 40 -max 65535
experiment::param onRate rate 1Mbps "fairness: rate_ while on" -recorded sometimes
experiment::param meanOn double 3 "fairness: burst_time_, mean on period in seconds"\
 -recorded sometimes
experiment::param meanOff double 0.3 "fairness: idle_time_, mean off period in seconds"\
 -recorded sometimes
experiment::param intervalMin double 2.5 "factorial: smallest inter-arrival time in ms\
 (uniform)" -recorded sometimes
experiment::param intervalMax double 7.5 "factorial: largest inter-arrival time in ms\
 (uniform)" -recorded sometimes
experiment::param bgPacketSize uint 0 "factorial: packet size in bytes of the background\
 flows (1 .. nFlows - 1); 0 = the measured flow's sizes (P), else 40 .. 65535" -min 0\
 -max 65535 -recorded sometimes
experiment::param bgIntervalMin double 0 "factorial: background flows' smallest inter-arrival\
 time in ms (uniform); 0 = intervalMin" -recorded sometimes
experiment::param bgIntervalMax double 0 "factorial: background flows' largest inter-arrival\
 time in ms (uniform); 0 = intervalMax" -recorded sometimes
experiment::param simTime double 300 "Seconds until the sources stop"
experiment::param warmup double 30 "Seconds excluded from the statistics"
experiment::param drainTime double 10 "Seconds the simulation goes on after simTime, so that\
 packets sent before simTime can arrive"
experiment::param startJitter double 1 "Sources start at times uniform in \[0, startJitter) s"\
 -recorded never
experiment::param quick bool false "Short run for CI: simTime=60, warmup=10 (fairness) or 20\
 (factorial)" -recorded never
foreach metric {throughput_mean_kbps throughput_std_kbps throughput_min_kbps
    throughput_max_kbps jain_index total_throughput_kbps mean_delay_s arrival_ratio tx_packets
    rx_packets all_mean_delay_s all_arrival_ratio mean_queue_delay_ms mean_queue_bytes drops} {
    experiment::metric $metric
}
experiment::metric buckets_used -recorded sometimes
experiment::metric colliding_flows -recorded sometimes
experiment::metric flow<i>_kbps
experiment::parse $argv

# --- defaults that depend on the scenario, and the checks ----------------------------------
proc given {param} {
    global argv
    return [expr {[lsearch -glob $argv "--$param=*"] >= 0}]
}

# Set a parameter's value after experiment::parse (a default resolved from others): the report
# records the resolved value, as the ns-3 example's does.
proc resolve {param v} {
    set ::experiment::value($param) $v
}

proc get {param} {
    return [experiment::get $param]
}

set scenario [get scenario]
if {$scenario ne "fairness" && $scenario ne "factorial"} {
    experiment::fail "--scenario must be fairness or factorial, got '$scenario'"
}
set fairness [expr {$scenario eq "fairness"}]
if {!$fairness} {
    foreach {param v} {nFlows 2 accessRate 10Mbps packetSizeMin 500 packetSizeMax 500
        simTime 200 warmup 50} {
        if {![given $param]} { resolve $param $v }
    }
}
if {[get quick]} {
    resolve simTime 60
    resolve warmup [expr {$fairness ? 10 : 20}]
}
set queueDisc [get queueDisc]
if {$queueDisc ne "DRR" && $queueDisc ne "FIFO"} {
    experiment::fail "--queueDisc must be DRR or FIFO, got '$queueDisc'"
}
set drr [expr {$queueDisc eq "DRR"}]
if {[get maxSize] eq ""} {
    resolve maxSize [expr {$fairness ? "25000B" : ($drr ? "200000B" : "400p")}]
}
if {![regexp {^([0-9]+)(B|p)$} [get maxSize] -> limitValue limitUnit] || $limitValue < 1} {
    experiment::fail "--maxSize: expected a queue size such as 25000B or 400p, got\
 '[get maxSize]'"
}
if {$drr && $limitUnit ne "B"} {
    experiment::fail "--maxSize=[get maxSize]: ns-2's DRR blimit_ counts bytes (give NB)"
}
foreach param {accessDelay bottleneckDelay} {
    if {![regexp {^[0-9]+(\.[0-9]*)?(s|ms|us|ns)$} [get $param]]} {
        experiment::fail "--$param: expected a time such as 10ms, got '[get $param]'"
    }
}
set sizeMin [get packetSizeMin]
set sizeMax [get packetSizeMax]
if {$sizeMin > $sizeMax} {
    experiment::fail "packet sizes must satisfy 40 <= packetSizeMin <= packetSizeMax <= 65535"
}
set simTime [get simTime]
set warmup [get warmup]
set drainTime [get drainTime]
set startJitter [get startJitter]
if {$warmup < 0 || $warmup >= $simTime} {
    experiment::fail "--warmup must be in \[0, simTime)"
}
if {$drainTime < 0} { experiment::fail "--drainTime must be >= 0" }
if {$startJitter < 0 || $startJitter > $warmup} {
    experiment::fail "--startJitter must be in \[0, warmup]"
}
set bgSize [get bgPacketSize]
if {$fairness} {
    if {[get meanOn] <= 0 || [get meanOff] < 0} {
        experiment::fail "--meanOn must be > 0 and --meanOff >= 0 seconds"
    }
    if {$bgSize != 0 || [get bgIntervalMin] != 0 || [get bgIntervalMax] != 0} {
        experiment::fail "--bgPacketSize, --bgIntervalMin and --bgIntervalMax apply to\
 --scenario=factorial only"
    }
} else {
    if {[get intervalMin] <= 0 || [get intervalMin] > [get intervalMax]} {
        experiment::fail "inter-arrival times must satisfy 0 < intervalMin <= intervalMax"
    }
    if {$bgSize != 0 && $bgSize < 40} {
        experiment::fail "--bgPacketSize=$bgSize is out of range: 0 (the measured flow's sizes)\
 or \[40, 65535] bytes"
    }
    if {[get bgIntervalMin] == 0} { resolve bgIntervalMin [get intervalMin] }
    if {[get bgIntervalMax] == 0} { resolve bgIntervalMax [get intervalMax] }
    if {[get bgIntervalMin] <= 0 || [get bgIntervalMin] > [get bgIntervalMax]} {
        experiment::fail "background inter-arrival times must satisfy 0 < bgIntervalMin <=\
 bgIntervalMax (ms; 0 = the measured flow's), got [get bgIntervalMin] and [get bgIntervalMax]"
    }
}
set n [get nFlows]
set simEnd [expr {$simTime + $drainTime}]

# A random stream of its own (MRG32k3a; ns-2's RNG objects do not follow the default
# generator's substream): the run's replication is substream RngRun - 1 of it.
proc stream {} {
    set rng [new RNG]
    for {set i 1} {$i < [get RngRun]} {incr i} {
        $rng next-substream
    }
    return $rng
}

# ns-2's DRR hash of a source address (queue/drr.cc, mask_ 0), in C's integer arithmetic.
proc drr_bucket {address buckets} {
    set h [expr {$address + ($address >> 8) + ~($address >> 4)}]
    set prime [expr {(2 << 23) - 1}]
    set h [expr {($h < 0 ? -((-$h) % $prime) : $h % $prime) + 1}]
    return [expr {$h < 0 ? -((-$h) % $buckets) : $h % $buckets}]
}

# --- topology: senders 0 .. n-1, routers, receivers ----------------------------------------
set ns [new Simulator]
for {set i 0} {$i < $n} {incr i} {
    set src($i) [$ns node]
}
set r1 [$ns node]
set r2 [$ns node]
for {set i 0} {$i < $n} {incr i} {
    set dst($i) [$ns node]
}
set accessBps [experiment::bps [get accessRate]]
set bottleneckBps [experiment::bps [get bottleneckRate]]
for {set i 0} {$i < $n} {incr i} {
    $ns duplex-link $src($i) $r1 $accessBps [get accessDelay] DropTail
    $ns duplex-link $r2 $dst($i) $accessBps [get accessDelay] DropTail
    # Unstudied queues: large, as the module's.
    $ns queue-limit $src($i) $r1 100000
    $ns queue-limit $r2 $dst($i) 100000
}
$ns simplex-link $r1 $r2 $bottleneckBps [get bottleneckDelay] [expr {$drr ? "DRR" : "DropTail"}]
$ns simplex-link $r2 $r1 $bottleneckBps [get bottleneckDelay] DropTail
set q [[$ns link $r1 $r2] queue]
set largest [expr {max($sizeMax, $bgSize)}]
if {$drr} {
    $q set buckets_ [get buckets]
    $q set blimit_ $limitValue
    $q set quantum_ [get quantum]
    $q set mask_ 0
} elseif {$limitUnit eq "p"} {
    $q set queue_in_bytes_ false
    $q set limit_ [expr {$limitValue + 2}]
} else {
    $q set queue_in_bytes_ true
    $q set mean_pktsize_ 1
    $q set limit_ [expr {$limitValue + $largest + 1}]
}
set fmon [$ns makeflowmon Fid]
$ns attach-fmon [$ns link $r1 $r2] $fmon
set bytesIntegrator [new Integrator]
set pktsIntegrator [new Integrator]
$fmon set-bytes-integrator $bytesIntegrator
$fmon set-pkts-integrator $pktsIntegrator

# --- traffic -------------------------------------------------------------------------------
# Streams in a fixed order (start times, then per flow), so that every configuration sees the
# same traffic for a given replication.
set startRng [stream]
for {set i 0} {$i < $n} {incr i} {
    set sizeRng($i) [stream]
    set periodRng($i) [stream]
    set intervalRng($i) [stream]
}

# Factorial senders and sinks: Tcl-scheduled packets that carry their send time.
Agent/UDP instproc process_data {from data} {
    global ns flowOf received delaySum windowBytes warmup simTime
    set i $flowOf($self)
    lassign $data sent size
    set now [$ns now]
    if {$sent >= $warmup && $sent < $simTime} {
        incr received($i)
        set delaySum($i) [expr {$delaySum($i) + $now - $sent}]
    }
    if {$now >= $warmup && $now <= $simTime} {
        set windowBytes($i) [expr {$windowBytes($i) + $size}]
    }
}

proc send_packet {i} {
    global ns udp sizeRng intervalRng sizeOf intervalOf measuredSent warmup simTime
    set now [$ns now]
    if {$now >= $simTime} {
        return
    }
    lassign $sizeOf($i) lo hi
    set size [expr {$lo == $hi ? $lo : int(floor([$sizeRng($i) uniform $lo [expr {$hi + 1}]]))}]
    $udp($i) send $size "$now $size"
    if {$now >= $warmup} {
        incr measuredSent($i)
    }
    lassign $intervalOf($i) lo hi
    $ns at [expr {$now + [$intervalRng($i) uniform $lo $hi] / 1000.0}] "send_packet $i"
}

for {set i 0} {$i < $n} {incr i} {
    set udp($i) [new Agent/UDP]
    $udp($i) set fid_ $i
    $ns attach-agent $src($i) $udp($i)
    set start [$startRng uniform 0 $startJitter]
    if {$fairness} {
        $udp($i) set packetSize_ 65535
        set sink($i) [new Agent/LossMonitor]
        set app($i) [new Application/Traffic/Exponential]
        $app($i) set packetSize_ [expr {($sizeMin + $sizeMax) / 2}]
        $app($i) set rate_ [experiment::bps [get onRate]]
        $app($i) set burst_time_ [get meanOn]
        $app($i) set idle_time_ [get meanOff]
        $app($i) use-rng $periodRng($i)
        $app($i) attach-agent $udp($i)
        $ns at $start "$app($i) start"
        $ns at $simTime "$app($i) stop"
    } else {
        $udp($i) set packetSize_ 65535
        set sink($i) [new Agent/UDP]
        set flowOf($sink($i)) $i
        set background [expr {$i > 0}]
        set sizeOf($i) [expr {$background && $bgSize != 0 ? [list $bgSize $bgSize]
                              : [list $sizeMin $sizeMax]}]
        set intervalOf($i) [expr {$background
                                  ? [list [get bgIntervalMin] [get bgIntervalMax]]
                                  : [list [get intervalMin] [get intervalMax]]}]
        set measuredSent($i) 0
        set received($i) 0
        set delaySum($i) 0.0
        set windowBytes($i) 0
        $ns at $start "send_packet $i"
    }
    $ns attach-agent $dst($i) $sink($i)
    $ns connect $udp($i) $sink($i)
}

# --- the statistics window [warmup, simTime] -----------------------------------------------
proc snapshot {which} {
    global ns n fairness sink fmon bytesIntegrator pktsIntegrator at
    set now [$ns now]
    foreach integrator [list $bytesIntegrator $pktsIntegrator] var {size_ pkts_} {
        $integrator newpoint $now [$fmon set $var]
    }
    set at($which,bytesSum) [$bytesIntegrator set sum_]
    set at($which,pktsSum) [$pktsIntegrator set sum_]
    set at($which,drops) [$fmon set pdrops_]
    set at($which,departures) [$fmon set pdepartures_]
    if {$fairness} {
        for {set i 0} {$i < $n} {incr i} {
            set at($which,bytes,$i) [$sink($i) set bytes_]
        }
    }
}
$ns at $warmup "snapshot start"
$ns at $simTime "snapshot end"

proc finish {} {
    global n fairness drr windowBytes measuredSent received delaySum at simTime warmup src
    set seconds [expr {$simTime - $warmup}]
    set sum 0.0
    set squares 0.0
    set kbps {}
    for {set i 0} {$i < $n} {incr i} {
        set bytes [expr {$fairness ? $at(end,bytes,$i) - $at(start,bytes,$i) : $windowBytes($i)}]
        set k [expr {$bytes * 8.0 / 1000.0 / $seconds}]
        lappend kbps $k
        set sum [expr {$sum + $k}]
        set squares [expr {$squares + $k * $k}]
    }
    set mean [expr {$sum / $n}]
    set variance 0.0
    foreach k $kbps {
        set variance [expr {$variance + ($k - $mean) * ($k - $mean)}]
    }
    set variance [expr {$variance / $n}]
    set delay0 null
    set ratio0 null
    set tx0 null
    set rx0 null
    set allDelay null
    set allRatio null
    if {!$fairness} {
        # Per-packet send times exist for the factorial's Tcl senders only.
        set sentAll 0
        set receivedAll 0
        set delayAll 0.0
        for {set i 0} {$i < $n} {incr i} {
            incr sentAll $measuredSent($i)
            incr receivedAll $received($i)
            set delayAll [expr {$delayAll + $delaySum($i)}]
        }
        set tx0 $measuredSent(0)
        set rx0 $received(0)
        if {$rx0 > 0} { set delay0 [expr {$delaySum(0) / $rx0}] }
        if {$tx0 > 0} { set ratio0 [expr {double($rx0) / $tx0}] }
        if {$receivedAll > 0} { set allDelay [expr {$delayAll / $receivedAll}] }
        if {$sentAll > 0} { set allRatio [expr {double($receivedAll) / $sentAll}] }
    }
    # The bottleneck queue over the window: time averages of its bytes and packets, and the
    # mean time a packet spends in it by Little's law (packet-seconds over departures).
    set departures [expr {$at(end,departures) - $at(start,departures)}]
    set queueDelay [expr {$departures > 0
                          ? 1000.0 * ($at(end,pktsSum) - $at(start,pktsSum)) / $departures
                          : "null"}]
    set metrics [list \
        throughput_mean_kbps $mean \
        throughput_std_kbps [expr {sqrt($variance)}] \
        throughput_min_kbps [tcl::mathfunc::min {*}$kbps] \
        throughput_max_kbps [tcl::mathfunc::max {*}$kbps] \
        jain_index [expr {$squares > 0 ? $sum * $sum / ($n * $squares) : "null"}] \
        total_throughput_kbps $sum \
        mean_delay_s $delay0 \
        arrival_ratio $ratio0 \
        tx_packets $tx0 \
        rx_packets $rx0 \
        all_mean_delay_s $allDelay \
        all_arrival_ratio $allRatio \
        mean_queue_delay_ms $queueDelay \
        mean_queue_bytes [expr {($at(end,bytesSum) - $at(start,bytesSum)) / $seconds}] \
        drops [expr {$at(end,drops) - $at(start,drops)}]]
    if {$drr} {
        # ns-2's mapping of the senders' addresses: flows sharing a bucket collide.
        set buckets [experiment::get buckets]
        array set flowsIn {}
        for {set i 0} {$i < $n} {incr i} {
            set b [drr_bucket [$src($i) id] $buckets]
            set bucketOf($i) $b
            set flowsIn($b) [expr {[info exists flowsIn($b)] ? $flowsIn($b) + 1 : 1}]
        }
        set colliding 0
        for {set i 0} {$i < $n} {incr i} {
            if {$flowsIn($bucketOf($i)) > 1} { incr colliding }
        }
        lappend metrics buckets_used [array size flowsIn] colliding_flows $colliding
    }
    for {set i 0} {$i < $n} {incr i} {
        lappend metrics flow${i}_kbps [lindex $kbps $i]
    }
    experiment::report $metrics
    exit 0
}
$ns at $simEnd finish
$ns run
