/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef POINT_BATCH_H
#define POINT_BATCH_H

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief Several points (argument lists) of an example program, run one after another in one
 * process, each from the global state a fresh process starts with.
 *
 * A campaign of short runs (a tenth of a second of simulation) spends as much on starting a
 * process and loading ns-3's libraries as on simulating. An example whose main is "parse the
 * flags, run one point" hands that function to Main, which runs it once with the command line,
 * or, given `--batch=FILE` alone, once for every point FILE lists:
 *
 * \code
 *   int RunPoint(int argc, char* argv[]);  // CommandLine, Simulator::Run, MetricsReport::Write
 *
 *   int main(int argc, char* argv[])
 *   {
 *       return PointBatch::Main(argc, argv, RunPoint);
 *   }
 * \endcode
 *
 * FILE has one point per line, its arguments separated by tabs (blank lines are skipped). Two
 * arguments are the batch's own and name the files the point's standard output and error go to,
 * so that each point's messages can be read apart: `--stdout=PATH` and `--stderr=PATH` (without
 * them the point writes where the process does). The point's `--output` is its own metrics file.
 *
 * Before each point, ResetGlobalState returns ns-3 to a fresh process's state, so every point's
 * metrics report is byte-identical to the one a process of its own writes (the campaign tests
 * check it). The points run in file order; the first point whose function returns non-zero ends
 * the batch with that status, and a point that aborts ends the process: a point has run to its
 * end when its metrics file exists, and the last point whose standard error file exists is the
 * one that stopped the batch.
 *
 * On an ns-3 where some global state cannot be reset (IsSupported), `--batch` stops the program
 * with a message saying so, and the caller runs one point per process.
 */
class PointBatch
{
  public:
    /// One point of the program: parses \p argv as its command line, runs, returns the exit status.
    using Point = int (*)(int argc, char* argv[]);

    /**
     * \return whether this ns-3 lets ResetGlobalState reset everything a point's results depend
     *         on (RngSeedManager::ResetNextStreamIndex, ns-3 >= 3.44); false on ns-3.37, whose
     *         automatic random-stream numbers go on counting from the previous point.
     */
    static bool IsSupported();

    /**
     * The example program's main.
     * \param argc the process's argument count
     * \param argv the process's arguments
     * \param point the program's one point
     * \return \p point's status with one point; with `--batch=FILE`, 0 once every point returned
     *         0, else the first non-zero status (the points after it do not run)
     */
    static int Main(int argc, char* argv[], Point point);

    /**
     * Return ns-3's global state to that of a fresh process: Names::Clear, Config::Reset
     * (attribute defaults and global values such as RngRun), the automatic random-stream counter,
     * the IPv4/IPv6 address generators, the MAC address allocators, and last Simulator::Destroy
     * (events, nodes, channels, simulation singletons, and the simulator itself, whose time
     * NS_FATAL_ERROR's messages would otherwise show). Stops the program when !IsSupported().
     *
     * Not reset, because no result depends on it: Packet's UID counter (ns-3 offers no reset;
     * UIDs only tag packets) and Packet::EnablePrinting/EnableChecking.
     */
    static void ResetGlobalState();

    /**
     * Read a batch file.
     * \param path the file
     * \return its points, each the arguments of one line; stops the program, naming the file,
     *         when it cannot be read
     */
    static std::vector<std::vector<std::string>> ReadPoints(const std::string& path);

  private:
    /// Stop the program, saying why, when !IsSupported().
    static void RequireSupport();

    /**
     * Run the points of a batch file.
     * \param program the program's name (argv[0] of every point)
     * \param path the batch file
     * \param point the program's one point
     * \return 0, or the first point's non-zero status
     */
    static int RunBatch(const std::string& program, const std::string& path, Point point);
};

} // namespace ns3

#endif /* POINT_BATCH_H */
