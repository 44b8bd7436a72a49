/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EXPERIMENT_PARAMS_H
#define EXPERIMENT_PARAMS_H

#include "example-flags.h"
#include "metrics-report.h"

#include "ns3/attribute.h"
#include "ns3/command-line.h"
#include "ns3/flow-monitor-helper.h"
#include "ns3/net-device-container.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief An example program's parameters, each declared once: one call adds the command-line
 * flag (ns-3's CommandLine, with ExampleFlags' range checks) and records the parameter's final
 * value in the run's MetricsReport.
 *
 * \code
 *   ExperimentParams params("my-experiment", __FILE__);
 *   params.Add("simTime", "Simulated seconds", simTime);
 *   params.AddUnsigned("nTcp", "TCP flows", nTcp, 1, 1000);
 *   params.Add("quick", "Short run for CI", quick, ExperimentParams::NEVER);
 *   params.AddRunNumber();                       // records ns-3's RngRun
 *   params.AddMetric("goodput_mbps");
 *   params.Parse(argc, argv);                    // --schema: prints the schema, exits 0
 *   ...
 *   MetricsReport report = params.NewReport();   // the recorded params, final values
 *   report.SetMetric("goodput_mbps", goodput);
 *   params.Write(report);                        // to --output
 * \endcode
 *
 * A parameter is recorded with the value its variable holds when NewReport is called, so
 * defaults resolved after parsing (a "0: the paper's value" flag, --quick's shorter times) are
 * recorded as resolved. Parameters are recorded in the order they were added.
 *
 * `--schema` prints one JSON object describing the program and exits 0 without running:
 *
 * \code{.json}
 * {"schema": "qdisc-lab.params/1", "program": "my-experiment",
 *  "params": [{"name": "simTime", "type": "double", "default": 60, "help": "...",
 *              "recorded": "always"},
 *             {"name": "queueDisc", "type": "string", "default": "DRR",
 *              "choices": ["DRR", "FIFO"], "help": "...", "recorded": "always"}, ...],
 *  "metrics": [{"name": "goodput_mbps", "recorded": "always"}, ...]}
 * \endcode
 *
 * Types are "bool", "int", "uint" (with "min" and "max"), "double", "string" (with "choices"
 * when it takes only those: AddChoice), "rate" (a DataRate text) and "time" (a Time text on the
 * command line, recorded in seconds). "recorded" says
 * whether the metrics report has the parameter (or metric) in every run ("always"), in some
 * runs ("sometimes", e.g. a RED threshold only when the queue disc is RED) or never ("never":
 * options such as --output). A metric name may hold "<i>", standing for an index (e.g.
 * "flow<i>_kbps"). Write checks the report against the declared metrics, so the schema cannot
 * drift from what the program writes.
 *
 * Every program also gets `--output=FILE` (the metrics report; standard output when empty or
 * "-"), `--schema`, and two traces, off by default (an empty value is off too):
 * `--pcap=PREFIX` writes pcap files of the devices the program studies (EnableTraces), and
 * `--flowMonitor=FILE` ns-3's FlowMonitor XML of every flow (written by Write).
 *
 * ns-3's attribute overrides (`--ns3::Type::Attribute=VALUE`, or NS_ATTRIBUTE_DEFAULT in the
 * environment) work as in any ns-3 program, and where the program sets an attribute itself it
 * says so, so that an override is never silently lost: an attribute set from one parameter
 * (SetsAttribute) takes the override as that parameter's value, and refuses it when the
 * parameter is given too; an attribute the program computes (OwnsAttribute) refuses any
 * override, naming the parameters to use instead; a fixed choice of the program's (SetDefault)
 * gives way to the override.
 */
class ExperimentParams
{
  public:
    /// The schema tag printed by --schema; bump when its layout changes.
    static constexpr const char* SCHEMA = "qdisc-lab.params/1";

    /// Whether a parameter or metric appears in the metrics report.
    enum Recording
    {
        ALWAYS,    //!< in every run's report
        SOMETIMES, //!< in some runs' reports (the program calls Omit in the others)
        NEVER,     //!< never: an option of the program, not an input of the experiment
    };

    /**
     * \param program the program's name, as in its metrics report
     * \param file the program's source file (__FILE__), for CommandLine's usage line
     */
    ExperimentParams(std::string program, const std::string& file);

    ExperimentParams(const ExperimentParams&) = delete;
    ExperimentParams& operator=(const ExperimentParams&) = delete;

    /// \return the command line, for flags that are not parameters (rarely needed)
    CommandLine& GetCommandLine();

    /**
     * Add a parameter.
     * \tparam T bool, double, int64_t, int32_t or std::string: schema types "bool", "double",
     *           "int" (both integers) and "string" (AddUnsigned, AddRate and AddTime add the
     *           others). Each is read whole (ExampleFlags): "--simTime=4ms" for a double, or
     *           "--n=3abc" for an integer, stops the program naming the flag.
     * \param name the flag, without "--", and the parameter's name in the report
     * \param help its help text
     * \param value its default, and where the parsed value goes
     * \param recording whether the report has it
     */
    template <typename T>
    void Add(const std::string& name,
             const std::string& help,
             T& value,
             Recording recording = ALWAYS);

    /**
     * Add an unsigned integer parameter in [min, max] (ExampleFlags::AddUnsigned).
     * \param name the flag, without "--"
     * \param help its help text
     * \param value its default, and where the parsed value goes
     * \param min the smallest value
     * \param max the largest value
     * \param recording whether the report has it
     */
    void AddUnsigned(const std::string& name,
                     const std::string& help,
                     uint32_t& value,
                     uint32_t min = 0,
                     uint32_t max = std::numeric_limits<uint32_t>::max(),
                     Recording recording = ALWAYS);

    /**
     * Add a rate parameter (ExampleFlags::AddRate), recorded as its text.
     * \param name the flag, without "--"
     * \param help its help text
     * \param value its default, and where the parsed text goes
     * \param recording whether the report has it
     */
    void AddRate(const std::string& name,
                 const std::string& help,
                 std::string& value,
                 Recording recording = ALWAYS);

    /**
     * Add a text parameter that takes one of a fixed set of values (schema type "string", with
     * "choices"), e.g. a queue disc among the catalog names the program runs. Parse stops the
     * program on any other value, listing the choices: "--queueDisc=Drr is not one of its
     * choices: DRR, FIFO".
     * \param name the flag, without "--"
     * \param help its help text
     * \param value its default (one of \p choices), and where the parsed text goes
     * \param choices the values it takes, in the order listings show them
     * \param recording whether the report has it
     */
    void AddChoice(const std::string& name,
                   const std::string& help,
                   std::string& value,
                   const std::vector<std::string>& choices,
                   Recording recording = ALWAYS);

    /// What a text parameter (schema type "string") must hold.
    enum TextFormat
    {
        TIME_TEXT,       //!< a Time text, e.g. a link delay "10ms"
        QUEUE_SIZE_TEXT, //!< a QueueSize text, e.g. "100p"; empty: the program's default
    };

    /**
     * Add a text parameter that must be a time or a queue size (ExampleFlags::AddTimeText,
     * AddSizeText), recorded as its text.
     * \param name the flag, without "--"
     * \param help its help text
     * \param value its default, and where the parsed text goes
     * \param format what the text must hold
     * \param recording whether the report has it
     */
    void AddText(const std::string& name,
                 const std::string& help,
                 std::string& value,
                 TextFormat format,
                 Recording recording = ALWAYS);

    /**
     * Add a number of seconds (schema type "double"; ExampleFlags::AddSeconds): a decimal
     * number in [0, ExampleFlags::MAX_SECONDS].
     * \param name the flag, without "--"
     * \param help its help text
     * \param value its default, and where the parsed value goes
     * \param recording whether the report has it
     */
    void AddSeconds(const std::string& name,
                    const std::string& help,
                    double& value,
                    Recording recording = ALWAYS);

    /**
     * Add a time parameter (ExampleFlags::AddTime), recorded in seconds.
     * \param name the flag, without "--"
     * \param help its help text
     * \param value its default, and where the parsed value goes
     * \param min the smallest value
     * \param recording whether the report has it
     */
    void AddTime(const std::string& name,
                 const std::string& help,
                 Time& value,
                 Time min,
                 Recording recording = ALWAYS);

    /**
     * Add a derived parameter: no flag, a value the program computes from the others and
     * gives to Record before NewReport (schema: "derived": true, "default": null).
     * \param name its name in the report
     * \param type its schema type
     * \param help what it is
     */
    void AddDerived(const std::string& name, const std::string& type, const std::string& help);

    /**
     * Record ns-3's run number and seed (the RngRun and RngSeed global values, set with
     * --RngRun and --RngSeed) as the parameters "RngRun" and "RngSeed", in this place of the
     * order. Parse reads both whole: RngRun in [0, 2^63 - 1], RngSeed in [1, 2^32 - 1].
     */
    void AddRunNumber();

    /**
     * Declare a metric the program reports.
     * \param name the metric's name; "<i>" in it stands for an index
     * \param recording ALWAYS or SOMETIMES
     */
    void AddMetric(const std::string& name, Recording recording = ALWAYS);

    /**
     * Declare that the program sets \p attribute from the parameter \p name, one to one. An
     * override of the attribute then becomes the parameter's value (as if --name=VALUE were
     * given, and recorded so); an override together with --name stops the program naming both.
     * \param name a parameter added before
     * \param attribute the attribute's full name, e.g. "ns3::DrrQueueDisc::Quantum"
     */
    void SetsAttribute(const std::string& name, const std::string& attribute);

    /**
     * Declare that the program sets \p attribute itself, computed from \p from; an override
     * of the attribute stops the program, naming the attribute and \p from.
     * \param attribute the attribute's full name, e.g. "ns3::RedQueueDisc::MinTh"
     * \param from what it is set from, e.g. "--minTh x --queueSize"
     */
    void OwnsAttribute(const std::string& attribute, const std::string& from);

    /**
     * Config::SetDefault, unless the command line or NS_ATTRIBUTE_DEFAULT overrides the
     * attribute: then the override stands. For the program's fixed choices (call after Parse).
     * \param attribute the attribute's full name
     * \param value the program's value
     */
    void SetDefault(const std::string& attribute, const AttributeValue& value);

    /**
     * Declare that the program writes the file named by its parameter \p name (e.g. a trace
     * CSV): Parse then refuses it when its directory does not exist or another output
     * (--output, --flowMonitor, another such file) names the same file.
     * \param name the parameter, for messages
     * \param path its variable (empty: no file)
     */
    void WritesFile(const std::string& name, const std::string& path);

    /**
     * Before Simulator::Run: with --pcap=PREFIX, pcap traces of \p studied (point-to-point or
     * CSMA devices; files PREFIX-NODE-DEVICE.pcap); with --flowMonitor=FILE, a FlowMonitor on
     * every node, which Write serialises to FILE.
     * \param studied the devices the program studies (its bottleneck's)
     */
    void EnableTraces(const NetDeviceContainer& studied);

    /**
     * Parse the command line. With --schema, print the schema to standard output and exit 0.
     * \param argc the argument count
     * \param argv the arguments
     */
    void Parse(int argc, char* argv[]);

    /**
     * Leave a SOMETIMES parameter out of this run's report (it does not apply to this run).
     * \param name the parameter
     */
    void Omit(const std::string& name);

    /**
     * Record \p value for a parameter instead of its variable's (e.g. a normalised form of
     * the text given), or a derived parameter's value.
     * \param name the parameter
     * \param value the value to record
     */
    void Record(const std::string& name, MetricsReport::Value value);

    /// \return a metrics report holding the recorded parameters, in the order they were added;
    /// stops the program when a derived parameter has not been given a value
    MetricsReport NewReport() const;

    /**
     * Check \p report's metrics against the declared ones, then write it to --output with the
     * run's work added to its run measurements: "packet_hops" (CountPacketHops). An undeclared
     * metric, or a missing ALWAYS one, stops the program naming it.
     * \param report the run's report
     */
    void Write(const MetricsReport& report) const;

    /**
     * The packets the simulation sent over links: the transmissions of every point-to-point and
     * CSMA device of every node so far (the packets their device queues took in, less those
     * still queued or dropped after dequeue). Read before Simulator::Destroy. It measures the
     * run's work, the denominator of `qdisc-lab bench --campaigns`' instructions per packet-hop.
     * \return the packet-hops of the nodes in NodeList
     */
    static uint64_t CountPacketHops();

    /// \return the --output flag's value
    const std::string& GetOutput() const;

    /// \return the --pcap flag's value (empty: no pcap)
    const std::string& GetPcapPrefix() const;

    /// \return the schema, one line of JSON with a trailing newline
    std::string GetSchema() const;

  private:
    /// A declared parameter.
    struct Param
    {
        std::string name;                          //!< flag and report name
        std::string type;                          //!< schema type
        std::string help;                          //!< help text
        MetricsReport::Value defaultValue;         //!< value before parsing
        std::function<MetricsReport::Value()> get; //!< reads the variable
        Recording recording{ALWAYS};               //!< whether the report has it
        bool derived{false};                       //!< no flag: the program records it
        bool hasRange{false};                      //!< whether min and max apply
        uint32_t min{0};                           //!< smallest value (uint)
        uint32_t max{0};                           //!< largest value (uint)
        std::vector<std::string> choices;          //!< the values it takes (AddChoice); or none
        bool omitted{false};                       //!< left out of this run's report
        bool recordedSet{false};                   //!< whether Record replaced the value
        MetricsReport::Value recorded;             //!< the value given to Record
    };

    /// A declared metric.
    struct Metric
    {
        std::string name;    //!< name, "<i>" for an index
        Recording recording; //!< ALWAYS or SOMETIMES
    };

    /**
     * Add a parameter's entry.
     * \param name the name
     * \param type the schema type
     * \param help the help text
     * \param get reads its variable
     * \param recording whether the report has it
     * \return the entry
     */
    Param& Declare(const std::string& name,
                   const std::string& type,
                   const std::string& help,
                   std::function<MetricsReport::Value()> get,
                   Recording recording);

    /**
     * Add the entry of a parameter that \p value holds: one recorded as \p value's final value
     * (an integer as int64_t, a Time in seconds).
     * \tparam T the variable's type
     * \param name the name
     * \param type the schema type
     * \param help the help text
     * \param value the variable
     * \param recording whether the report has it
     * \return the entry
     */
    template <typename T>
    Param& Track(const std::string& name,
                 const std::string& type,
                 const std::string& help,
                 const T& value,
                 Recording recording);

    /**
     * \tparam T a type Add takes
     * \return its schema type
     */
    template <typename T>
    static constexpr const char* SchemaType();

    /**
     * \param name a parameter's name
     * \return its entry; stops the program when there is none
     */
    Param& Find(const std::string& name);

    /**
     * Read the attribute overrides of the command line and of NS_ATTRIBUTE_DEFAULT, and the
     * parameters given on the command line.
     * \param argc the argument count
     * \param argv the arguments
     */
    void ReadOverrides(int argc, char* argv[]);

    /**
     * Apply SetsAttribute and OwnsAttribute to the overrides (after CommandLine::Parse), and
     * set the NS_ATTRIBUTE_DEFAULT entries that name an attribute without "ns3::".
     * \param program argv[0]
     */
    void ApplyOverrides(char* program);

    /**
     * Stop the program on an argument that is not "--name[=value]" (CommandLine ignores them)
     * and on a --RngRun or --RngSeed that is not a whole integer in its range (CommandLine
     * wraps "-1").
     * \param argc the argument count
     * \param argv the arguments
     */
    void CheckRunArguments(int argc, char* argv[]) const;

    /**
     * Stop the program on an override of an attribute that does not exist, or whose value is
     * not a whole value of the attribute's type (ns-3 reads "1500x" as 1500, "1.2.3Mbps" as
     * 1.2 Mb/s, "5000000000B" modulo 2^32), naming the override as given.
     */
    void CheckOverrides() const;

    /// Stop the program when a parameter added with AddChoice holds a value outside its choices.
    void CheckChoices() const;

    /// Stop the program when an output file's directory does not exist or two outputs name
    /// one file (WritesFile).
    void CheckFiles() const;

    /**
     * \param pattern a declared metric name, "<i>" for an index
     * \param name a metric name
     * \return whether \p name matches \p pattern
     */
    static bool Matches(const std::string& pattern, const std::string& name);

    /**
     * \param recording a recording
     * \return its schema word
     */
    static const char* RecordingName(Recording recording);

    std::string m_program;                 //!< program name
    CommandLine m_cmd;                     //!< the program's command line
    ExampleFlags m_flags;                  //!< range-checked flags on m_cmd
    std::vector<Param> m_params;           //!< parameters, in order
    std::vector<Metric> m_metrics;         //!< declared metrics, in order
    std::string m_output;                  //!< --output
    bool m_schema{false};                  //!< --schema
    std::string m_pcap;                    //!< --pcap
    std::string m_flowMonitorFile;         //!< --flowMonitor
    FlowMonitorHelper m_flowMonitorHelper; //!< installs the FlowMonitor
    Ptr<FlowMonitor> m_flowMonitor;        //!< the FlowMonitor, with --flowMonitor

    /// An attribute override: its value, and how it was given (for messages).
    struct Override
    {
        std::string value;      //!< the value
        std::string given;      //!< "--ns3::T::A=V" or "NS_ATTRIBUTE_DEFAULT='...'"
        bool unprefixed{false}; //!< an NS_ATTRIBUTE_DEFAULT entry without "ns3::"
    };

    std::map<std::string, Override> m_overrides;             //!< by the attribute's full name
    std::map<std::string, std::string> m_given;              //!< parameters given: name -> argument
    std::vector<std::pair<std::string, std::string>> m_sets; //!< (parameter, attribute)
    std::vector<std::pair<std::string, std::string>> m_owns; //!< (attribute, from)
    std::vector<std::pair<std::string, const std::string*>> m_files; //!< WritesFile's
};

template <typename T>
constexpr const char*
ExperimentParams::SchemaType()
{
    if constexpr (std::is_same_v<T, bool>)
    {
        return "bool";
    }
    else if constexpr (std::is_same_v<T, double>)
    {
        return "double";
    }
    else if constexpr (std::is_same_v<T, int64_t> || std::is_same_v<T, int32_t>)
    {
        return "int";
    }
    else
    {
        static_assert(std::is_same_v<T, std::string>,
                      "ExperimentParams::Add takes bool, double, int64_t, int32_t or std::string "
                      "(AddUnsigned, AddRate and AddTime add the others)");
        return "string";
    }
}

template <typename T>
ExperimentParams::Param&
ExperimentParams::Track(const std::string& name,
                        const std::string& type,
                        const std::string& help,
                        const T& value,
                        Recording recording)
{
    const T* v = &value;
    return Declare(
        name,
        type,
        help,
        [v]() {
            if constexpr (std::is_same_v<T, Time>)
            {
                return MetricsReport::Value(v->GetSeconds());
            }
            else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>)
            {
                return MetricsReport::Value(int64_t{*v});
            }
            else
            {
                return MetricsReport::Value(*v);
            }
        },
        recording);
}

template <typename T>
void
ExperimentParams::Add(const std::string& name,
                      const std::string& help,
                      T& value,
                      Recording recording)
{
    constexpr const char* type = SchemaType<T>();
    if constexpr (std::is_same_v<T, bool>)
    {
        m_flags.AddBoolean(name, help, value);
    }
    else if constexpr (std::is_same_v<T, double>)
    {
        m_flags.AddDecimal(name, help, value);
    }
    else if constexpr (std::is_same_v<T, std::string>)
    {
        m_flags.AddText(name, help, value); // whole: CommandLine stops a string at a space
    }
    else
    {
        m_flags.AddInteger(name, help, value);
    }
    Track(name, type, help, value, recording);
}

} // namespace ns3

#endif /* EXPERIMENT_PARAMS_H */
