# SPDX-License-Identifier: GPL-2.0-only
#
# The ns-2.35 half of the cross-validation suite (python/tests/test_ns2_validation.py): N CBR/UDP
# sources, each on its own 100 Mb/s 1 ms access link to a router, a 1 Mb/s 10 ms bottleneck to a
# second router whose queue is the one under study, and one sink per source behind it, on
# 100 Mb/s 1 ms links: the topology of examples/ns2-validation.cc (DumbbellScenario).
#
#   ns validation/ns2/cbr.tcl --queue=DRR --flows=3 --rates=500,500,800 --output=drr.json
#
# Parameters are --name=value, with the same names and meanings as ns2-validation's (see its
# --help); the metrics are written as one JSON object in the module's metrics contract
# (doc/experiment-contract.rst), with "program": "cbr.tcl".

# --- parameters and their defaults ---------------------------------------------------------
array set P {
    queue DropTail
    flows 1
    rates 2000
    startOffset 0.000313
    starts ""
    stops ""
    packetSize 1000
    simTime 30
    jitter 0
    seed 1
    bottleneckRate 1Mb
    bottleneckDelay 10ms
    accessRate 100Mb
    accessDelay 1ms
    limit 50
    firstNode 0
    buckets 10
    blimit 25000
    quantum 250
    mask 0
    weights ""
    minTh 5
    maxTh 15
    maxP 0.1
    qWeight 0.002
    gentle 0
    wait 1
    inFlows ""
    inMinTh 10
    inMaxTh 30
    inMaxP 0.02
    outMinTh 5
    outMaxTh 15
    outMaxP 0.1
    policer TokenBucket
    cir 320
    cbs 1000
    ebs 1000
    pir 640
    pbs 1000
    output ""
}

foreach arg $argv {
    if {![regexp {^--([A-Za-z]+)=(.*)$} $arg -> name value]} {
        puts stderr "cbr.tcl: expected --name=value, got '$arg'"
        exit 2
    }
    if {![info exists P($name)]} {
        puts stderr "cbr.tcl: unknown parameter --$name (known: [lsort [array names P]])"
        exit 2
    }
    set P($name) $value
}

proc fail {msg} {
    puts stderr "cbr.tcl: $msg"
    exit 2
}

# A per-flow list parameter: empty gives the default, one value is every flow's.
proc per_flow {name default} {
    global P
    set values [split $P($name) ","]
    if {[llength $values] == 0} {
        set values [list $default]
    }
    if {[llength $values] == 1} {
        return [lrepeat $P(flows) [lindex $values 0]]
    }
    if {[llength $values] != $P(flows)} {
        fail "--$name needs one value or $P(flows) (one per flow), got '$P($name)'"
    }
    return $values
}

set n $P(flows)
if {$n < 1} { fail "--flows must be >= 1" }
if {$P(jitter) != 0 && $P(jitter) != 50} {
    fail "--jitter: ns-2's CBR dithers by +-50 % (random_ 1) or not at all; got $P(jitter)"
}
set rates [per_flow rates 2000]
set starts {}
for {set i 0} {$i < $n} {incr i} {
    lappend starts [expr {$i * $P(startOffset)}]
}
if {$P(starts) ne ""} { set starts [per_flow starts 0] }
set stops [per_flow stops 0]
set weights [per_flow weights 1]
set inFlows [split $P(inFlows) ","]

# --- topology ------------------------------------------------------------------------------
set ns [new Simulator]
ns-random $P(seed)
$defaultRNG seed $P(seed)

# Nodes created before the sources shift the sources' ns-2 addresses (DRR hashes them).
for {set i 0} {$i < $P(firstNode)} {incr i} {
    $ns node
}
for {set i 0} {$i < $n} {incr i} {
    set src($i) [$ns node]
}
set r1 [$ns node]
set r2 [$ns node]
for {set i 0} {$i < $n} {incr i} {
    set dst($i) [$ns node]
}

switch -- $P(queue) {
    DropTail { set qtype DropTail }
    DRR { set qtype DRR }
    SRR { set qtype SRR }
    RED { set qtype RED }
    RIO { set qtype RED/RIO }
    dsRED { set qtype dsRED/edge }
    default { fail "--queue must be DropTail, DRR, SRR, RED, RIO or dsRED, got $P(queue)" }
}

for {set i 0} {$i < $n} {incr i} {
    $ns duplex-link $src($i) $r1 $P(accessRate) $P(accessDelay) DropTail
    $ns duplex-link $r2 $dst($i) $P(accessRate) $P(accessDelay) DropTail
    $ns queue-limit $src($i) $r1 100000
    $ns queue-limit $r2 $dst($i) 100000
}
$ns simplex-link $r1 $r2 $P(bottleneckRate) $P(bottleneckDelay) $qtype
$ns simplex-link $r2 $r1 $P(bottleneckRate) $P(bottleneckDelay) DropTail
$ns queue-limit $r1 $r2 $P(limit)
set q [[$ns link $r1 $r2] queue]

# --- the queue under study -----------------------------------------------------------------
switch -- $P(queue) {
    DRR {
        $q set buckets_ $P(buckets)
        $q set blimit_ $P(blimit)
        $q set quantum_ $P(quantum)
        $q set mask_ $P(mask)
    }
    SRR {
        # Flow i is SRR queue i (f2q), of weight w: rate w x granularity_.
        $q set maxqueuenumber_ $n
        $q set mtu_ 1000
        $q set granularity_ 1000
        $q set blimit_ $P(blimit)
        for {set i 0} {$i < $n} {incr i} {
            $q setqueue $i $i
            $q setrate $i [expr {[lindex $weights $i] * 1000}]
        }
    }
    RED {
        $q set thresh_ $P(minTh)
        $q set maxthresh_ $P(maxTh)
        $q set linterm_ [expr {1.0 / $P(maxP)}]
        $q set q_weight_ $P(qWeight)
        $q set gentle_ $P(gentle)
        $q set wait_ $P(wait)
        $q set mean_pktsize_ $P(packetSize)
        $q set bytes_ false
        $q set queue_in_bytes_ false
        $q set setbit_ false
        $q set drop_tail_ true
    }
    RIO {
        # IN or OUT is the packet's flow id (priority_method_ 1): 1 for the --inFlows.
        $q set priority_method_ 1
        $q set in_thresh_ $P(inMinTh)
        $q set in_maxthresh_ $P(inMaxTh)
        $q set in_linterm_ [expr {1.0 / $P(inMaxP)}]
        $q set out_thresh_ $P(outMinTh)
        $q set out_maxthresh_ $P(outMaxTh)
        $q set linterm_ [expr {1.0 / $P(outMaxP)}]
        $q set q_weight_ $P(qWeight)
        $q set gentle_ $P(gentle)
        $q set in_gentle_ $P(gentle)
        $q set out_gentle_ $P(gentle)
        $q set wait_ $P(wait)
        $q set mean_pktsize_ $P(packetSize)
        $q set bytes_ false
        $q set queue_in_bytes_ false
        $q set setbit_ false
        $q set drop_tail_ true
    }
    dsRED {
        # Flow i is metered by its own policy (source, destination) and marked into AF class
        # i + 1: green 8(i+1)+2, yellow +4, red +6; one physical queue that does not drop.
        $q meanPktSize $P(packetSize)
        $q set numQueues_ 1
        $q setNumPrec 3
        $q setMREDMode DROP
        for {set prec 0} {$prec < 3} {incr prec} {
            $q configQ 0 $prec $P(limit) [expr {2 * $P(limit)}] 0.1
        }
        for {set i 0} {$i < $n} {incr i} {
            set green [expr {8 * ($i + 1) + 2}]
            set yellow [expr {$green + 2}]
            set red [expr {$green + 4}]
            set cir [expr {$P(cir) * 1000}]
            set pir [expr {$P(pir) * 1000}]
            set s [$src($i) id]
            set d [$dst($i) id]
            switch -- $P(policer) {
                TokenBucket {
                    $q addPolicyEntry $s $d TokenBucket $green $cir $P(cbs)
                    $q addPolicerEntry TokenBucket $green $yellow
                }
                srTCM {
                    $q addPolicyEntry $s $d srTCM $green $cir $P(cbs) $P(ebs)
                    $q addPolicerEntry srTCM $green $yellow $red
                }
                trTCM {
                    $q addPolicyEntry $s $d trTCM $green $cir $P(cbs) $pir $P(pbs)
                    $q addPolicerEntry trTCM $green $yellow $red
                }
                default { fail "--policer must be TokenBucket, srTCM or trTCM" }
            }
            $q addPHBEntry $green 0 0
            $q addPHBEntry $yellow 0 1
            $q addPHBEntry $red 0 2
            set colours($i) [list $green $yellow $red]
        }
    }
}

# Per-flow arrivals, departures and drops at the studied queue, by (source, destination).
set fmon [$ns makeflowmon SrcDest]
$ns attach-fmon [$ns link $r1 $r2] $fmon

# --- traffic -------------------------------------------------------------------------------
for {set i 0} {$i < $n} {incr i} {
    set udp($i) [new Agent/UDP]
    $ns attach-agent $src($i) $udp($i)
    set fid $i
    if {$P(queue) eq "RIO"} {
        set fid [expr {[lsearch -exact $inFlows $i] >= 0 ? 1 : 0}]
    }
    $udp($i) set fid_ $fid
    set cbr($i) [new Application/Traffic/CBR]
    $cbr($i) set packetSize_ $P(packetSize)
    $cbr($i) set rate_ "[lindex $rates $i]kb"
    $cbr($i) set random_ [expr {$P(jitter) == 50 ? 1 : 0}]
    $cbr($i) attach-agent $udp($i)
    set sink($i) [new Agent/LossMonitor]
    $ns attach-agent $dst($i) $sink($i)
    $ns connect $udp($i) $sink($i)
    $ns at [lindex $starts $i] "$cbr($i) start"
    if {[lindex $stops $i] > 0} {
        $ns at [lindex $stops $i] "$cbr($i) stop"
    }
}

# --- the queue length, sampled every 10 ms from 0 on (as ns2-validation samples it) ----------
set qsum 0.0
set qsamples 0
proc sample {} {
    global ns fmon qsum qsamples P
    set qsum [expr {$qsum + [$fmon set pkts_]}]
    incr qsamples
    set next [expr {$qsamples * 0.01}]
    if {$next < $P(simTime)} {
        $ns at $next sample
    }
}
$ns at 0.0 sample

# --- the report ----------------------------------------------------------------------------
proc json_value {v} {
    if {[string is double -strict $v]} { return $v }
    return "\"$v\""
}

proc finish {} {
    global P n src sink fmon qsum qsamples q colours
    # Flows by source address.
    foreach f [$fmon flows] {
        set arrived([$f set src_]) [$f set parrivals_]
        set dropped([$f set src_]) [$f set pdrops_]
    }
    set metrics {}
    for {set i 0} {$i < $n} {incr i} {
        set a [$src($i) id]
        if {![info exists arrived($a)]} { set arrived($a) 0; set dropped($a) 0 }
        lappend metrics "\"flow${i}_delivered_packets\": [$sink($i) set npkts_]"
        lappend metrics "\"flow${i}_arrived_packets\": $arrived($a)"
        lappend metrics "\"flow${i}_dropped_packets\": $dropped($a)"
    }
    if {$P(queue) eq "dsRED"} {
        for {set i 0} {$i < $n} {incr i} {
            foreach colour {green yellow red} cp $colours($i) {
                set marked [expr {int([$q getStat pkts $cp])}]
                lappend metrics "\"flow${i}_${colour}_packets\": $marked"
            }
        }
    }
    lappend metrics "\"mean_queue_packets\": [expr {$qsum / $qsamples}]"
    set params {}
    foreach name [lsort [array names P]] {
        if {$name ne "output"} {
            lappend params "\"$name\": [json_value $P($name)]"
        }
    }
    set doc "{\"schema\": \"qdisc-lab.metrics/1\", \"program\": \"cbr.tcl\",\
\"ns_version\": \"2.35\", \"params\": {[join $params {, }]},\
\"metrics\": {[join $metrics {, }]}}"
    if {$P(output) eq ""} {
        puts $doc
    } else {
        set out [open $P(output) w]
        puts $out $doc
        close $out
    }
    exit 0
}

$ns at $P(simTime) finish
$ns run
