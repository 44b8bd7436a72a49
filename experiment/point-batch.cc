/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "point-batch.h"

#include "ns3/abort.h"
#include "ns3/config.h"
#include "ns3/ipv4-address-generator.h"
#include "ns3/ipv6-address-generator.h"
#include "ns3/mac16-address.h"
#include "ns3/mac48-address.h"
#include "ns3/mac64-address.h"
#include "ns3/mac8-address.h"
#include "ns3/names.h"
#include "ns3/qdisc-lab-compat.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>

namespace ns3
{

namespace
{

/// The argument that makes Main run a batch file.
constexpr const char* BATCH_FLAG = "--batch=";
/// A point's argument naming the file its standard output goes to.
constexpr const char* STDOUT_FLAG = "--stdout=";
/// A point's argument naming the file its standard error goes to.
constexpr const char* STDERR_FLAG = "--stderr=";

/**
 * \param word an argument
 * \param flag a flag with its '='
 * \return whether \p word is \p flag with a value
 */
bool
HasFlag(const std::string& word, const char* flag)
{
    return word.compare(0, std::strlen(flag), flag) == 0;
}

/// Write out everything buffered for standard output and error (C++ streams and stdio).
void
FlushAll()
{
    std::cout.flush();
    std::cerr.flush();
    std::clog.flush();
    std::fflush(nullptr);
}

/**
 * Make \p fd write to \p target.
 * \param fd 1 or 2
 * \param target an open descriptor
 */
void
PointTo(int fd, int target)
{
    NS_ABORT_MSG_IF(::dup2(target, fd) < 0,
                    "PointBatch: cannot redirect descriptor " << fd << ": "
                                                              << std::strerror(errno));
}

/**
 * Make \p fd write to the file \p path (created or emptied).
 * \param fd 1 or 2
 * \param flag the point's argument that named the file, for the error message
 * \param path the file
 */
void
Redirect(int fd, const char* flag, const std::string& path)
{
    const int file = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    NS_ABORT_MSG_IF(file < 0,
                    "PointBatch: cannot open " << flag << path << ": " << std::strerror(errno));
    PointTo(fd, file);
    ::close(file);
}

} // namespace

bool
PointBatch::IsSupported()
{
    return QDISC_LAB_NS3_RESETS_STREAM_INDEX;
}

void
PointBatch::RequireSupport()
{
    NS_ABORT_MSG_UNLESS(
        IsSupported(),
        "--batch needs ns-3 >= 3.44 (RngSeedManager::ResetNextStreamIndex); on ns-3 "
            << qdisclab::Ns3Version()
            << " a point's automatic random-stream numbers would continue from "
               "the previous point's: run one point per process");
}

void
PointBatch::ResetGlobalState()
{
    RequireSupport();
    Names::Clear();
    Config::Reset();
    Ipv4AddressGenerator::Reset();
    Ipv6AddressGenerator::Reset();
#if QDISC_LAB_NS3_RESETS_STREAM_INDEX
    // After Config::Reset: without this reset even a batch's first point, which follows only
    // the resets above, numbers its streams differently from a fresh process (measured).
    RngSeedManager::ResetNextStreamIndex();
    // (Inside the guard because waf-era ns-3 has no such resets; RequireSupport has already
    // refused a batch there.)
    Mac8Address::ResetAllocationIndex();
    Mac16Address::ResetAllocationIndex();
    Mac48Address::ResetAllocationIndex();
    Mac64Address::ResetAllocationIndex();
#endif
    // Last: the address generators are simulation singletons, which schedule their deletion on
    // the simulator and so create one; a fresh process has none (and no time in its messages).
    Simulator::Destroy();
}

std::vector<std::vector<std::string>>
PointBatch::ReadPoints(const std::string& path)
{
    std::ifstream file(path);
    NS_ABORT_MSG_UNLESS(file, "--batch=" << path << ": cannot read the file");
    std::vector<std::vector<std::string>> points;
    std::string line;
    while (std::getline(file, line))
    {
        if (line.find_first_not_of(" \t\r") == std::string::npos)
        {
            continue;
        }
        std::vector<std::string> words;
        std::istringstream fields(line);
        for (std::string word; std::getline(fields, word, '\t');)
        {
            words.push_back(word);
        }
        points.push_back(std::move(words));
    }
    NS_ABORT_MSG_IF(file.bad(), "--batch=" << path << ": read error");
    return points;
}

int
PointBatch::Main(int argc, char* argv[], Point point)
{
    for (int i = 1; i < argc; ++i)
    {
        if (HasFlag(argv[i], BATCH_FLAG))
        {
            NS_ABORT_MSG_UNLESS(argc == 2,
                                argv[i] << ": --batch=FILE must be the only argument (the points' "
                                           "arguments are in FILE)");
            return RunBatch(argv[0], argv[i] + std::strlen(BATCH_FLAG), point);
        }
    }
    return point(argc, argv);
}

int
PointBatch::RunBatch(const std::string& program, const std::string& path, Point point)
{
    RequireSupport();
    const auto points = ReadPoints(path);
    FlushAll();
    const int processOut = ::dup(STDOUT_FILENO);
    const int processErr = ::dup(STDERR_FILENO);
    NS_ABORT_MSG_IF(processOut < 0 || processErr < 0,
                    "PointBatch: cannot duplicate standard output/error: " << std::strerror(errno));
    int status = 0;
    for (const auto& words : points)
    {
        ResetGlobalState();
        FlushAll();
        PointTo(STDOUT_FILENO, processOut);
        PointTo(STDERR_FILENO, processErr);
        std::vector<std::string> args{program};
        for (const auto& word : words)
        {
            if (HasFlag(word, STDOUT_FLAG))
            {
                Redirect(STDOUT_FILENO, STDOUT_FLAG, word.substr(std::strlen(STDOUT_FLAG)));
            }
            else if (HasFlag(word, STDERR_FLAG))
            {
                Redirect(STDERR_FILENO, STDERR_FLAG, word.substr(std::strlen(STDERR_FLAG)));
            }
            else
            {
                args.push_back(word);
            }
        }
        std::vector<char*> pointArgv;
        for (auto& arg : args)
        {
            pointArgv.push_back(arg.data());
        }
        pointArgv.push_back(nullptr);
        status = point(static_cast<int>(args.size()), pointArgv.data());
        FlushAll();
        if (status != 0)
        {
            break;
        }
    }
    PointTo(STDOUT_FILENO, processOut);
    PointTo(STDERR_FILENO, processErr);
    ::close(processOut);
    ::close(processErr);
    return status;
}

} // namespace ns3
