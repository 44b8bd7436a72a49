#!/usr/bin/env ns
# SPDX-License-Identifier: GPL-2.0-only
#
# Vertical Dimensioning's simulations (Bakiras et al., §IV, "the ns-2 network simulator") on
# ns-2.35: the scenario of examples/vertical-dimensioning-evaluation.cc, reconstructed as in
# doc/reproductions/vertical-dimensioning.rst, with ns-2.35's own Queue/SRR on both core links.
#
#   n0 -- n1 == n2 == n3 -- n4     background: 15 flows n0 -> n4, 10 n5 -> n6, 10 n7 -> n8,
#         |     |  |     |         UDP on/off (Pareto, shape 1.5, mean on and off 0.5 s,
#        n5    n6 n7    n8         250 kb/s while on), weight 1
#
# plus ten reference flows n0 -> n4 of weights 1 .. 10: CBR UDP at w_i x 125 kb/s
# (--reference=cbr, Fig. 4) or FTP over Agent/TCP/Newreno into Agent/TCPSink (--reference=tcp,
# Fig. 5). Parameters have the ns-3 example's names, defaults and meanings; the ones ns-2.35
# cannot honour are left out (maxSize: Queue/SRR has no shared buffer; buckets; vdReturn; tcp;
# pcap; flowMonitor), and --limit is Queue/SRR's own buffer (limit_ packets per flow queue).
# ns-2.35 has no VD, Aliquem or WF2Q+, and its Queue/DRR has one quantum_ for every flow and
# classifies by the source node's address, so --queueDisc takes SRR only.
#
#   ns validation/ns2/vertical-dimensioning-evaluation.tcl --queueDisc=SRR --reference=tcp \
#       --limit=12 --RngRun=3 --output=run.json

source [file join [file dirname [info script]] lib experiment.tcl]

experiment::program vertical-dimensioning-evaluation
experiment::param queueDisc string VD "Scheduler on the core links, by name: SRR (ns-2.35's\
 Queue/SRR, the reference flows' weights by setrate, one queue per flow by flow id); the ns-3\
 example's VD, DRR, DRR-tail, Aliquem, WF2Q+ and FIFO are not in ns-2.35 (its Queue/DRR has\
 one quantum_ for all flows and hashes the source node)"
experiment::param reference string cbr "Reference flows: cbr (UDP at w_i x cbrRateUnit,\
 Fig. 4) or tcp (long-lived TCP, Fig. 5)"
experiment::param limit uint 50 "ns-2 only: Queue/SRR's limit_, packets each flow's queue\
 holds before it drops the arrival (ns-2.35's SRR has no shared buffer: its blimit_ check is\
 commented out); ns-2's default 50" -min 1 -max 100000
experiment::param quantum uint 1000 "Quantum of a weight-1 flow in bytes (SRR's mtu_, the\
 bytes a queue may send per visit); the paper's 1000" -min 1 -max 65535
experiment::param weights string 1,2,3,4,5,6,7,8,9,10 "Reference flows' weights,\
 comma-separated; flow i has the i-th (the paper's w_i = i); whole numbers for Queue/SRR"
experiment::param cbrRateUnit rate 125kbps "cbr: reference flow i sends at w_i times this\
 rate (the paper's 125 kb/s)"
experiment::param mainBackground uint 15 "Background flows n0 -> n4 (the paper's 15)" \
    -min 0 -max 10000
experiment::param crossBackground uint 10 "Background flows of each hop's cross traffic,\
 n5 -> n6 and n7 -> n8 (the paper's 10)" -min 0 -max 10000
experiment::param backgroundRate rate 250kbps "Background sources' rate while on"
experiment::param onOff string pareto "Background on and off periods: pareto (ns-2's\
 RandomVariable/Pareto, shape paretoShape) or exponential"
experiment::param paretoShape double 1.5 "Shape of the Pareto on and off periods, > 1"
experiment::param meanOn double 0.5 "Mean on period in seconds"
experiment::param meanOff double 0.5 "Mean off period in seconds"
experiment::param packetSizeMin uint 200 "Smallest UDP IPv4 packet size in bytes (uniform\
 integers in \[min, max\])" -min 40 -max 1500
experiment::param packetSizeMax uint 1000 "Largest UDP IPv4 packet size in bytes" \
    -min 40 -max 1500
experiment::param tcpPacketSize uint 1000 "tcp: IPv4 size of a full TCP segment in bytes\
 (packetSize_ is this less ns-2's 40-byte TCP/IP header)" -min 53 -max 1500
experiment::param hops uint 2 "Core links of the parking lot (Fig. 3: 2)" -min 1 -max 84
experiment::param accessRate rate 100Mbps "Hosts' link rate"
experiment::param accessDelay string 1ms "Hosts' link one-way delay"
experiment::param coreRate rate 10Mbps "Core links' rate"
experiment::param coreDelay string 1ms "Core links' one-way delay"
experiment::param simTime double 60 "Seconds until the sources stop (the paper's 60)"
experiment::param warmup double 5 "Seconds excluded from the statistics"
experiment::param drainTime double 1 "Seconds the simulation goes on after simTime, so that\
 packets sent before simTime can arrive"
experiment::param startJitter double 1 "Sources start at times uniform in \[0, startJitter)\
 s" -recorded never
experiment::param quick bool false "Short run for CI and the demo: simTime=20, warmup=5" \
    -recorded never
experiment::metric reference_kbps
experiment::metric weighted_jain
experiment::metric flow<i>_kbps
foreach m {flow<i>_mean_delay_ms flow<i>_p99_delay_ms flow<i>_max_delay_ms flow<i>_loss} {
    experiment::metric $m -recorded sometimes
}
experiment::metric main_offered_kbps
experiment::metric main_kbps
experiment::metric cross<i>_offered_kbps -recorded sometimes
experiment::metric cross<i>_kbps -recorded sometimes
experiment::metric hop<i>_kbps
experiment::metric hop<i>_drops
experiment::metric hop<i>_mean_queue_bytes
experiment::metric hop<i>_flows -recorded sometimes
experiment::parse $argv

# --- the configuration, checked ------------------------------------------------------------
foreach name {queueDisc reference limit quantum weights mainBackground crossBackground onOff
              paretoShape meanOn meanOff packetSizeMin packetSizeMax tcpPacketSize hops
              simTime warmup drainTime startJitter quick} {
    set P($name) [experiment::get $name]
}
if {$P(quick)} {
    set P(simTime) 20.0
    set P(warmup) 5.0
}
foreach name {cbrRateUnit backgroundRate accessRate coreRate} {
    set P($name) [experiment::bps [experiment::get $name]]
}
foreach name {accessDelay coreDelay} {
    set text [experiment::get $name]
    if {![regexp {^([0-9]+(\.[0-9]*)?)(s|ms|us)$} $text -> number - unit]} {
        experiment::fail "--$name: expected a time such as 1ms or 0.5s, got '$text'"
    }
    set P($name) [expr {$number * [dict get {s 1.0 ms 1e-3 us 1e-6} $unit]}]
}
if {$P(queueDisc) ne "SRR"} {
    experiment::fail "--queueDisc=$P(queueDisc): ns-2.35 runs SRR only (it has no VD, Aliquem\
 or WF2Q+, and its Queue/DRR has one quantum_ for all flows and hashes the source node)"
}
if {$P(reference) ni {cbr tcp}} {
    experiment::fail "--reference must be cbr or tcp, got '$P(reference)'"
}
if {$P(onOff) ni {pareto exponential}} {
    experiment::fail "--onOff must be pareto or exponential, got '$P(onOff)'"
}
if {$P(paretoShape) <= 1} {
    experiment::fail "--paretoShape must be > 1 (a finite mean), got $P(paretoShape)"
}
if {$P(meanOn) <= 0 || $P(meanOff) <= 0} {
    experiment::fail "--meanOn and --meanOff must be > 0"
}
if {$P(packetSizeMin) > $P(packetSizeMax)} {
    experiment::fail "packet sizes must satisfy packetSizeMin <= packetSizeMax, got\
 $P(packetSizeMin) > $P(packetSizeMax)"
}
if {$P(warmup) < 0 || $P(warmup) >= $P(simTime)} {
    experiment::fail "--warmup must be in \[0, simTime), got $P(warmup)"
}
if {$P(drainTime) < 0} {
    experiment::fail "--drainTime must be >= 0, got $P(drainTime)"
}
if {$P(startJitter) < 0 || $P(startJitter) > $P(simTime)} {
    experiment::fail "--startJitter must be in \[0, simTime\], got $P(startJitter)"
}
set weights {}
foreach w [split $P(weights) ","] {
    # Queue/SRR's weight is setrate's rate / granularity_, a whole number >= 1.
    if {![string is integer -strict $w] || $w < 1 || $w > 65535} {
        experiment::fail "--weights: '$w' is not a whole number in \[1, 65535\] (Queue/SRR's\
 weights are rate / granularity_; weights are comma-separated, e.g. 1,2,3)"
    }
    lappend weights $w
}
set nRef [llength $weights]
if {$nRef == 0} {
    experiment::fail "--weights must list at least one weight"
}
# ns-2.35's srr.cc keeps MAXFLOW = 100 flow ids and MAXQUEUE = 100 queues.
set nFlows [expr {$nRef + $P(mainBackground) + $P(hops) * $P(crossBackground)}]
if {$nFlows > 100} {
    experiment::fail "$nFlows flows (weights + mainBackground + hops x crossBackground) exceed\
 Queue/SRR's 100 flow ids (MAXFLOW in ns-2.35's srr.cc)"
}
if {$P(reference) eq "cbr"} {
    foreach w $weights {
        if {$w * $P(cbrRateUnit) > $P(accessRate)} {
            experiment::fail "--weights: weight $w x --cbrRateUnit = [expr {$w * $P(cbrRateUnit)}]\
 bit/s is above --accessRate"
        }
    }
}
set T(warmup) $P(warmup)
set T(stop) $P(simTime)

# Every source has its own generator, on the RngRun's substream (defaultRNG is seeded by
# experiment::parse; a new RNG starts a new stream whatever the run, so it skips too).
proc new_rng {} {
    set rng [new RNG]
    for {set i 1} {$i < [experiment::get RngRun]} {incr i} {
        $rng next-substream
    }
    return $rng
}

# --- the topology: node 0, routers 1 .. H+1, node H+2, then the cross pairs -----------------
set ns [new Simulator]
set H $P(hops)
for {set i 0} {$i < $H + 3 + 2 * $H} {incr i} {
    set node($i) [$ns node]
}
set mainSource $node(0)
set mainSink $node([expr {$H + 2}])
proc access {a b} {
    global ns P
    $ns duplex-link $a $b $P(accessRate) $P(accessDelay) DropTail
    # The module's hosts have 10240-packet device queues: none of them ever fills.
    $ns queue-limit $a $b 10240
    $ns queue-limit $b $a 10240
}
access $node(0) $node(1)
access $node([expr {$H + 1}]) $mainSink
for {set h 0} {$h < $H} {incr h} {
    set a $node([expr {1 + $h}])
    set b $node([expr {2 + $h}])
    $ns simplex-link $a $b $P(coreRate) $P(coreDelay) SRR
    $ns simplex-link $b $a $P(coreRate) $P(coreDelay) DropTail
    $ns queue-limit $b $a 10240
    $ns queue-limit $a $b $P(limit)
    set crossSource($h) $node([expr {$H + 3 + 2 * $h}])
    set crossSink($h) $node([expr {$H + 4 + 2 * $h}])
    access $crossSource($h) $a
    access $b $crossSink($h)
}

# Flow ids: reference flows 0 .. nRef-1, then the n0 -> n4 background, then each hop's cross
# traffic. Each core link's SRR gives every flow crossing it a queue of its own (setqueue)
# and its weight (setrate weight x granularity_); background flows have weight 1.
set fidMain $nRef
for {set h 0} {$h < $H} {incr h} {
    set fidCross($h) [expr {$nRef + $P(mainBackground) + $h * $P(crossBackground)}]
}
for {set h 0} {$h < $H} {incr h} {
    set q [[$ns link $node([expr {1 + $h}]) $node([expr {2 + $h}])] queue]
    set srr($h) $q
    set fids {}
    for {set f 0} {$f < $nRef + $P(mainBackground)} {incr f} {
        lappend fids $f
    }
    for {set k 0} {$k < $P(crossBackground)} {incr k} {
        lappend fids [expr {$fidCross($h) + $k}]
    }
    $q set maxqueuenumber_ [llength $fids]
    $q set mtu_ $P(quantum)
    $q set granularity_ 1000
    set queue 0
    foreach f $fids {
        $q setqueue $f $queue
        set w [expr {$f < $nRef ? [lindex $weights $f] : 1}]
        $q setrate $queue [expr {$w * 1000}]
        incr queue
    }
    set fmon($h) [$ns makeflowmon Fid]
    $ns attach-fmon [$ns link $node([expr {1 + $h}]) $node([expr {2 + $h}])] $fmon($h)
}

# --- the sources: Tcl-driven UDP packets of uniform sizes, the module's RandomPacketSource ---
set startRng [new_rng]
proc start_time {} {
    global startRng P
    return [$startRng uniform 0 $P(startJitter)]
}
proc packet_size {rng} {
    global P
    return [expr {int(floor([$rng uniform $P(packetSizeMin) [expr {$P(packetSizeMax) + 1.0}]]))}]
}
proc period {rng mean} {
    global P
    if {$P(onOff) eq "pareto"} {
        # Pareto of shape a and mean m: scale m (a - 1) / a, as ns-2's RandomVariable/Pareto.
        set scale [expr {$mean * ($P(paretoShape) - 1) / $P(paretoShape)}]
        return [expr {$scale / pow(1.0 - [$rng uniform 0 1], 1.0 / $P(paretoShape))}]
    }
    return [$rng exponential $mean]
}

# One UDP packet of source s; its send time and size travel with it (ns-2's UDP agent hands
# the receiver's Tcl the data and the source's address, not the size).
proc send_one {s} {
    global ns src T
    set now [$ns now]
    set size [packet_size $src($s,rng)]
    $src($s,agent) send $size "$now $size"
    if {$now >= $T(warmup)} {
        incr src($s,sent)
        incr src($s,bytes) $size
    }
    return [list $now [expr {$size * 8.0 / $src($s,rate)}]]
}

proc cbr_send {s} {
    global ns T
    if {[$ns now] >= $T(stop)} { return }
    lassign [send_one $s] now tx
    $ns at [expr {$now + $tx}] "cbr_send $s"
}

proc onoff_start {s} {
    global ns src P
    set src($s,onUntil) [expr {[$ns now] + [period $src($s,rng) $P(meanOn)]}]
    onoff_send $s
}

proc onoff_send {s} {
    global ns src T P
    set now [$ns now]
    if {$now >= $T(stop)} { return }
    if {$now >= $src($s,onUntil)} {
        $ns at [expr {$now + [period $src($s,rng) $P(meanOff)]}] "onoff_start $s"
        return
    }
    lassign [send_one $s] now tx
    set next [expr {$now + $tx}]
    if {$next < $src($s,onUntil)} {
        $ns at $next "onoff_send $s"
    } else {
        $ns at [expr {$src($s,onUntil) + [period $src($s,rng) $P(meanOff)]}] "onoff_start $s"
    }
}

proc udp_source {s node fid sink rate} {
    global ns src
    set agent [new Agent/UDP]
    $agent set packetSize_ 1500
    $agent set fid_ $fid
    $ns attach-agent $node $agent
    $ns connect $agent $sink
    set src($s,agent) $agent
    set src($s,rng) [new_rng]
    set src($s,rate) $rate
    set src($s,sent) 0
    set src($s,bytes) 0
}

# The reference flows' sinks: a packet's delay when it was sent in [warmup, simTime), its
# bytes when it arrives in [warmup, simTime].
Agent/UDP instproc process_data {from data} {
    $self instvar flow
    global ns T rx
    lassign $data sent size
    set now [$ns now]
    if {$now >= $T(warmup) && $now <= $T(stop)} {
        incr rx($flow,bytes) $size
    }
    if {$sent >= $T(warmup) && $sent < $T(stop)} {
        upvar #0 delays$flow delays
        lappend delays [expr {1000.0 * ($now - $sent)}]
    }
    # Return nothing: the agent's C++ caller would take the list's text as the result.
    return
}

for {set i 0} {$i < $nRef} {incr i} {
    set start [start_time]
    if {$P(reference) eq "tcp"} {
        set tcp($i) [new Agent/TCP/Newreno]
        $tcp($i) set packetSize_ [expr {$P(tcpPacketSize) - 40}]
        $tcp($i) set fid_ $i
        $ns attach-agent $mainSource $tcp($i)
        set tcpSink($i) [new Agent/TCPSink]
        $ns attach-agent $mainSink $tcpSink($i)
        $ns connect $tcp($i) $tcpSink($i)
        set ftp($i) [new Application/FTP]
        $ftp($i) attach-agent $tcp($i)
        $ns at $start "$ftp($i) start"
        $ns at $T(stop) "$ftp($i) stop"
        continue
    }
    set sink [new Agent/UDP]
    $sink set flow $i
    set rx($i,bytes) 0
    set delays$i {}
    $ns attach-agent $mainSink $sink
    udp_source ref$i $mainSource $i $sink [expr {[lindex $weights $i] * $P(cbrRateUnit)}]
    $ns at $start "cbr_send ref$i"
}

# Background: one LossMonitor per group (main, cross0, cross1, ...).
set groups [list main]
set group(main) [list $mainSource $mainSink $P(mainBackground) $fidMain]
for {set h 0} {$h < $H} {incr h} {
    lappend groups cross$h
    set group(cross$h) [list $crossSource($h) $crossSink($h) $P(crossBackground) $fidCross($h)]
}
foreach g $groups {
    lassign $group($g) from to n fid0
    set monitor($g) [new Agent/LossMonitor]
    $ns attach-agent $to $monitor($g)
    for {set k 0} {$k < $n} {incr k} {
        udp_source $g,$k $from [expr {$fid0 + $k}] $monitor($g) $P(backgroundRate)
        $ns at [start_time] "onoff_start $g,$k"
    }
}

# --- the measurements over [warmup, simTime] ---------------------------------------------------
for {set h 0} {$h < $H} {incr h} {
    set qsum($h) 0.0
}
set qsamples 0
proc sample {} {
    global ns fmon qsum qsamples H T
    for {set h 0} {$h < $H} {incr h} {
        set qsum($h) [expr {$qsum($h) + [$fmon($h) set size_]}]
    }
    incr qsamples
    set next [expr {$T(warmup) + $qsamples * 0.01}]
    if {$next < $T(stop)} {
        $ns at $next sample
    }
}

proc snapshot {which} {
    global H fmon monitor groups tcpSink nRef P at
    for {set h 0} {$h < $H} {incr h} {
        set at($which,hop$h,bytes) [$fmon($h) set bdepartures_]
        set at($which,hop$h,drops) [$fmon($h) set pdrops_]
    }
    foreach g $groups {
        set at($which,$g) [$monitor($g) set bytes_]
    }
    if {$P(reference) eq "tcp"} {
        for {set i 0} {$i < $nRef} {incr i} {
            set at($which,tcp$i) [$tcpSink($i) set bytes_]
        }
    }
}
$ns at $T(warmup) "snapshot warmup; sample"
$ns at $T(stop) "snapshot stop"

proc quantile {sorted q} {
    set n [llength $sorted]
    set rank [expr {int(ceil($q * $n))}]
    return [lindex $sorted [expr {max($rank, 1) - 1}]]
}

proc finish {} {
    global P H nRef weights at rx src groups group fmon qsum qsamples T
    set seconds [expr {$T(stop) - $T(warmup)}]
    set metrics {}
    set sum 0.0
    set nsum 0.0
    set nsq 0.0
    set perFlow {}
    for {set i 0} {$i < $nRef} {incr i} {
        if {$P(reference) eq "tcp"} {
            set bytes [expr {$at(stop,tcp$i) - $at(warmup,tcp$i)}]
        } else {
            set bytes $rx($i,bytes)
        }
        set kbps [expr {$bytes * 8.0 / 1000.0 / $seconds}]
        set w [lindex $weights $i]
        set sum [expr {$sum + $kbps}]
        set nsum [expr {$nsum + $kbps / $w}]
        set nsq [expr {$nsq + ($kbps / $w) * ($kbps / $w)}]
        set flow flow[expr {$i + 1}]
        lappend perFlow ${flow}_kbps $kbps
        if {$P(reference) eq "cbr"} {
            upvar #0 delays$i received
            set delays [lsort -real $received]
            set n [llength $delays]
            set sent $src(ref$i,sent)
            if {$n > 0} {
                set total 0.0
                foreach d $delays {
                    set total [expr {$total + $d}]
                }
                lappend perFlow ${flow}_mean_delay_ms [expr {$total / $n}] \
                    ${flow}_p99_delay_ms [quantile $delays 0.99] \
                    ${flow}_max_delay_ms [lindex $delays end]
            } else {
                lappend perFlow ${flow}_mean_delay_ms nan ${flow}_p99_delay_ms nan \
                    ${flow}_max_delay_ms nan
            }
            set loss nan
            if {$sent > 0} {
                set loss [expr {1.0 - double($n) / $sent}]
            }
            lappend perFlow ${flow}_loss $loss
        }
    }
    set jain nan
    if {$nsq > 0} {
        set jain [expr {$nsum * $nsum / ($nRef * $nsq)}]
    }
    lappend metrics reference_kbps $sum weighted_jain $jain {*}$perFlow
    foreach g $groups {
        lassign $group($g) - - n
        set offered 0
        for {set k 0} {$k < $n} {incr k} {
            incr offered $src($g,$k,bytes)
        }
        lappend metrics ${g}_offered_kbps [expr {$offered * 8.0 / 1000.0 / $seconds}] \
            ${g}_kbps [expr {($at(stop,$g) - $at(warmup,$g)) * 8.0 / 1000.0 / $seconds}]
    }
    for {set h 0} {$h < $H} {incr h} {
        set flows 0
        foreach f [$fmon($h) flows] {
            if {[$f set parrivals_] > 0} { incr flows }
        }
        lappend metrics hop${h}_kbps \
            [expr {($at(stop,hop$h,bytes) - $at(warmup,hop$h,bytes)) * 8.0 / 1000.0 / $seconds}] \
            hop${h}_drops [expr {$at(stop,hop$h,drops) - $at(warmup,hop$h,drops)}] \
            hop${h}_mean_queue_bytes [expr {$qsum($h) / max($qsamples, 1)}] \
            hop${h}_flows $flows
    }
    experiment::report $metrics
    exit 0
}
$ns at [expr {$T(stop) + $P(drainTime)}] finish
$ns run
