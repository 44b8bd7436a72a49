/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef METRICS_REPORT_H
#define METRICS_REPORT_H

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief The one machine-readable result of an example program run.
 *
 * Every qdisc-lab example reports its run as one JSON object, written to the file given by its
 * `--output` argument (standard output when that is empty or "-"):
 *
 * \code{.json}
 * {"schema": "qdisc-lab.metrics/1", "program": "dumbbell-fifo-vs-red", "ns3_version": "3.37",
 *  "params": {"queueDisc": "RED", "simTime": 10, ...},
 *  "metrics": {"goodput_mbps": 9.41, "mean_queue_delay_ms": 12.3, ...}}
 * \endcode
 * Figures about the run itself rather than the model's results go to a third object,
 * "run_measurements", after "metrics" (SetMeasurement): the packet-hops the run simulated, which
 * ExperimentParams::Write adds to every report, and in a program that times itself its wall or
 * CPU seconds.
 *
 * Parameters are the run's inputs (numbers, booleans or strings), metrics its outputs (numbers;
 * a metric that could not be computed, such as a mean over no samples, is written as null).
 * Keys keep the order in which they were first set, so equal runs give byte-equal reports.
 * The Python tooling (python/qdisclab/metrics.py) validates this contract.
 */
class MetricsReport
{
  public:
    /// The schema tag written in every report; bump when the layout changes.
    static constexpr const char* SCHEMA = "qdisc-lab.metrics/1";

    /// A parameter value.
    using Value = std::variant<bool, int64_t, double, std::string>;

    /**
     * \param program the example program's name, e.g. "dumbbell-fifo-vs-red"
     * \param ns3Version the ns-3 version the program runs on, e.g. "3.37"
     */
    MetricsReport(std::string program, std::string ns3Version);

    /**
     * Set (or overwrite) a parameter.
     * \param name parameter name, as on the program's command line
     * \param value its value
     */
    void SetParam(const std::string& name, Value value);

    /**
     * Set (or overwrite) a metric.
     * \param name metric name, with its unit as suffix (e.g. "goodput_mbps")
     * \param value its value; NaN or infinity is reported as null
     */
    void SetMetric(const std::string& name, double value);

    /**
     * Set (or overwrite) a run measurement: a figure about the run itself, not the model's
     * results: its work (packet-hops) or its cost (wall or CPU seconds, which differ between two
     * runs of the same inputs). Measurements go to their own object, "run_measurements", after
     * the metrics (written only when one is set), so that equal inputs give byte-equal "params"
     * and "metrics" whatever the measurements.
     * \param name measurement name, with its unit as suffix (e.g. "wall_s")
     * \param value its value; NaN or infinity is reported as null
     */
    void SetMeasurement(const std::string& name, double value);

    /**
     * \param name metric name
     * \return whether the metric has been set
     */
    bool HasMetric(const std::string& name) const;

    /// \return the report as one line of JSON, with a trailing newline
    std::string ToJson() const;

    /**
     * Write the report.
     * \param path a file name; empty or "-" for standard output. A file that cannot be written
     *        stops the program with NS_FATAL_ERROR.
     */
    void Write(const std::string& path) const;

    /// \return the names of the metrics set, in first-set order
    std::vector<std::string> GetMetricNames() const;

    /**
     * Write a JSON string literal, escaped.
     * \param os the stream
     * \param s the string
     */
    static void WriteString(std::ostream& os, const std::string& s);

    /**
     * Write a JSON number, shortest form that reads back to the same double; null if not finite.
     * \param os the stream
     * \param v the number
     */
    static void WriteNumber(std::ostream& os, double v);

    /**
     * Write a parameter value as JSON (true/false, an integer, a number or a string).
     * \param os the stream
     * \param value the value
     */
    static void WriteValue(std::ostream& os, const Value& value);

  private:
    std::string m_program;                                      //!< program name
    std::string m_ns3Version;                                   //!< ns-3 version
    std::vector<std::pair<std::string, Value>> m_params;        //!< parameters, in first-set order
    std::vector<std::pair<std::string, double>> m_metrics;      //!< metrics, in first-set order
    std::vector<std::pair<std::string, double>> m_measurements; //!< run measurements, in order
};

} // namespace ns3

#endif /* METRICS_REPORT_H */
