# SPDX-License-Identifier: GPL-2.0-only
#
# The experiment contract (doc/experiment-contract.rst, "Programs for the papers' simulators") for ns-2.35 programs:
# what experiment/experiment-params.h and experiment/metrics-report.h are for the C++ examples. A
# program declares its parameters and metrics, parses its command line, and writes one metrics
# JSON object, so that the campaign engine sweeps it like an ns-3 example:
#
#   source [file join [file dirname [info script]] lib experiment.tcl]
#   experiment::program drr-evaluation
#   experiment::param simTime double 300 "Simulated time in seconds" -min 0
#   experiment::metric mean_delay_s
#   experiment::parse $argv           ;# --schema, --help, --name=value, --output, --RngRun
#   ...
#   experiment::report [list mean_delay_s $delay]
#
# The command line takes --name=value for every declared parameter, --RngRun=N and --RngSeed=N
# (the run's independent replication: RngSeed seeds ns-2's default generator, RngRun - 1
# substreams are skipped, the MRG32k3a streams ns-2's manual gives for independent runs),
# --output=FILE (the metrics JSON; standard output when not given), --schema and --help.
# A bad value stops the program with exit code 2 and one line naming the parameter.

namespace eval experiment {
    variable name ""
    variable order {}
    variable params
    variable metrics {}
    variable value
    variable output ""
    array set params {}
    array set value {}
}

# The program's name, as the metrics report and --schema give it.
proc experiment::program {program} {
    variable name
    set name $program
}

proc experiment::fail {message} {
    variable name
    puts stderr "$name: $message"
    exit 2
}

# Declare a parameter: type is uint, int, double, bool, string or rate (an ns-3 DataRate text
# such as "1Mbps", see experiment::bps); options -min N, -max N, -recorded always|never.
proc experiment::param {param type default help args} {
    variable order
    variable params
    variable value
    if {[lsearch -exact {uint int double bool string rate} $type] < 0} {
        error "experiment::param $param: unknown type '$type'"
    }
    array set opt [list -min "" -max "" -recorded always]
    foreach {key v} $args {
        if {![info exists opt($key)]} {
            error "experiment::param $param: unknown option '$key'"
        }
        set opt($key) $v
    }
    lappend order $param
    set params($param) [list $type $default $help $opt(-min) $opt(-max) $opt(-recorded)]
    set value($param) $default
}

# Declare a metric (a name, or a pattern with <i> for one per flow); -recorded always|sometimes.
proc experiment::metric {metric args} {
    variable metrics
    array set opt [list -recorded always]
    array set opt $args
    lappend metrics [list $metric $opt(-recorded)]
}

# The value of a parameter after experiment::parse.
proc experiment::get {param} {
    variable value
    if {![info exists value($param)]} {
        error "experiment::get: no parameter '$param'"
    }
    return $value($param)
}

# Bits per second of an ns-3 DataRate text ("1Mbps", "1.5Mb/s", "10kbps", "800bps").
proc experiment::bps {text} {
    if {![regexp {^([0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?)\s*([kKMG]?)(bps|b/s)$} $text \
              -> number - - prefix]} {
        return ""
    }
    array set scale {"" 1 k 1e3 K 1e3 M 1e6 G 1e9}
    return [expr {$number * $scale($prefix)}]
}

proc experiment::json_string {text} {
    return "\"[string map {\\ \\\\ \" \\\" \n \\n \t \\t} $text]\""
}

proc experiment::json_number {v} {
    if {![string is double -strict $v] || [string match -nocase "*n*" $v]} {
        return null
    }
    return $v
}

# A parameter's value as JSON, after its type.
proc experiment::json_param {param v} {
    variable params
    switch -- [lindex $params($param) 0] {
        uint - int - double { return [json_number $v] }
        bool { return [expr {$v ? "true" : "false"}] }
        default { return [json_string $v] }
    }
}

proc experiment::check {param text} {
    variable params
    lassign $params($param) type - - min max
    switch -- $type {
        uint - int {
            if {![string is wideinteger -strict $text]
                || ($type eq "uint" && $text < 0)} {
                fail "--$param: expected a[expr {$type eq "uint" ? " non-negative" : "n"}]\
 integer, got '$text'"
            }
        }
        double {
            if {![string is double -strict $text] || [string match -nocase "*n*" $text]} {
                fail "--$param: expected a finite number, got '$text'"
            }
        }
        bool {
            switch -- [string tolower $text] {
                1 - true - yes - on { return 1 }
                0 - false - no - off { return 0 }
                default { fail "--$param: expected true or false, got '$text'" }
            }
        }
        rate {
            if {[bps $text] eq ""} {
                fail "--$param: expected a data rate such as 1Mbps or 500kbps, got '$text'"
            }
        }
    }
    if {$min ne "" && $text < $min} {
        fail "--$param: $text is below its minimum $min"
    }
    if {$max ne "" && $text > $max} {
        fail "--$param: $text is above its maximum $max"
    }
    return $text
}

proc experiment::schema {} {
    variable name
    variable order
    variable params
    variable metrics
    set entries {}
    foreach param $order {
        lassign $params($param) type default help min max recorded
        set entry "{\"name\": [json_string $param], \"type\": \"$type\",\
\"default\": [json_param $param $default], \"help\": [json_string $help]"
        if {$min ne ""} { append entry ", \"min\": $min" }
        if {$max ne ""} { append entry ", \"max\": $max" }
        append entry ", \"recorded\": \"$recorded\"}"
        lappend entries $entry
    }
    set declared {}
    foreach metric $metrics {
        lassign $metric metric recorded
        lappend declared "{\"name\": [json_string $metric], \"recorded\": \"$recorded\"}"
    }
    return "{\"schema\": \"qdisc-lab.params/1\", \"program\": [json_string $name],\
\"params\": \[[join $entries {, }]\], \"metrics\": \[[join $declared {, }]\]}"
}

proc experiment::usage {} {
    variable name
    variable order
    variable params
    puts "$name (ns-2.35): --name=value for each of"
    foreach param $order {
        lassign $params($param) type default help
        puts [format "  --%-18s %s \[%s, default %s\]" $param $help $type $default]
    }
    puts "  --RngRun=N, --RngSeed=N     the replication; --output=FILE the metrics JSON;\
 --schema"
}

# Parse the command line, answer --schema and --help, seed ns-2's default generator.
proc experiment::parse {argv} {
    variable params
    variable value
    variable output
    if {![info exists params(RngRun)]} {
        param RngRun uint 1 "The run number: RngRun - 1 substreams of ns-2's default\
 generator are skipped (the independent replication)" -min 1
        param RngSeed uint 1 "The seed of ns-2's default generator" -min 1
    }
    foreach arg $argv {
        if {$arg eq "--schema"} {
            puts [schema]
            exit 0
        }
        if {$arg eq "--help" || $arg eq "-h"} {
            usage
            exit 0
        }
        if {![regexp {^--([A-Za-z][A-Za-z0-9]*)=(.*)$} $arg -> param text]} {
            fail "expected --name=value, got '$arg'"
        }
        if {$param eq "output"} {
            set output $text
            continue
        }
        if {![info exists params($param)]} {
            fail "unknown parameter --$param (see --help)"
        }
        set value($param) [check $param $text]
    }
    global defaultRNG
    $defaultRNG seed $value(RngSeed)
    for {set i 1} {$i < $value(RngRun)} {incr i} {
        $defaultRNG next-substream
    }
}

# Write the metrics report: metricValues is a list of name value pairs (a value that is not a
# finite number is written as null).
proc experiment::report {metricValues} {
    variable name
    variable order
    variable params
    variable value
    variable output
    set recorded {}
    foreach param $order {
        if {[lindex $params($param) 5] ne "never"} {
            lappend recorded "[json_string $param]: [json_param $param $value($param)]"
        }
    }
    set measured {}
    foreach {metric v} $metricValues {
        lappend measured "[json_string $metric]: [json_number $v]"
    }
    set doc "{\"schema\": \"qdisc-lab.metrics/1\", \"program\": [json_string $name],\
\"ns3_version\": \"ns-2.35\", \"simulator\": \"ns-2.35\",\
\"params\": {[join $recorded {, }]}, \"metrics\": {[join $measured {, }]}}"
    if {$output eq ""} {
        puts $doc
    } else {
        set out [open $output w]
        puts $out $doc
        close $out
    }
}
