/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ISLIP_ARBITER_H
#define ISLIP_ARBITER_H

#include <cstdint>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief The iSLIP matching of McKeown (IEEE/ACM ToN 7(2), 1999) for an N x N crossbar; no
 * packets, no simulator.
 *
 * Each call to Match is one scheduling decision over the inputs and outputs the caller marks
 * free. One iteration, as in the paper:
 * \verbatim
 *   Request: every unmatched free input i requests every unmatched free output j with
 *            request(i, j) (VOQ(i, j) is not empty).
 *   Grant:   every unmatched free output j that is requested grants the requesting input that
 *            comes next in round-robin order from its grant pointer g[j].
 *   Accept:  every input i that is granted accepts the granting output that comes next in
 *            round-robin order from its accept pointer a[i].
 *            In the first iteration only: g[j] = one beyond the accepted input,
 *                                          a[i] = one beyond the accepted output.
 * \endverbatim
 * Unmatched ports try again in the next iteration, up to Iterations (iSLIP's "i-SLIP"); the
 * pointers move only for first-iteration matches, which is what desynchronises the output
 * pointers and gives iSLIP 100% throughput under uniform i.i.d. Bernoulli traffic.
 *
 * The request matrix belongs to the caller (row-major, input by output, non-zero = request), so
 * it can be kept up to date incrementally; a match costs O(N^2) per iteration.
 */
class IslipArbiter
{
  public:
    /// A matched pair: (input, output).
    using Pair = std::pair<uint32_t, uint32_t>;

    IslipArbiter();

    /**
     * Size the arbiter and put every pointer at port 0.
     * \param ports N, the number of inputs (and of outputs); >= 1
     * \param iterations iSLIP iterations per match; >= 1
     */
    void Reset(uint32_t ports, uint32_t iterations);

    /**
     * Compute one matching.
     * \param requests N*N row-major requests: requests[i * N + j] != 0 when input i has a
     *        packet for output j
     * \param inputFree N flags: input i may be matched (not transferring)
     * \param outputFree N flags: output j may be matched (not receiving, has room)
     * \return the matched pairs, at most one per input and per output, valid until the next call
     */
    const std::vector<Pair>& Match(const std::vector<uint8_t>& requests,
                                   const std::vector<uint8_t>& inputFree,
                                   const std::vector<uint8_t>& outputFree);

    /**
     * \param output an output
     * \return its grant pointer g[output]
     */
    uint32_t GetGrantPointer(uint32_t output) const;

    /**
     * \param input an input
     * \return its accept pointer a[input]
     */
    uint32_t GetAcceptPointer(uint32_t input) const;

    /// \return N
    uint32_t GetPorts() const;

  private:
    /// No port (a grant slot that holds no input).
    static constexpr uint32_t NONE = UINT32_MAX;

    uint32_t m_ports;                  //!< N
    uint32_t m_iterations;             //!< iterations per match
    std::vector<uint32_t> m_grantPtr;  //!< g[j]: the input output j favours next
    std::vector<uint32_t> m_acceptPtr; //!< a[i]: the output input i favours next
    std::vector<uint32_t> m_grant;     //!< per output, the input it granted this iteration
    std::vector<uint8_t> m_inMatched;  //!< per input, matched in this call
    std::vector<uint8_t> m_outMatched; //!< per output, matched in this call
    std::vector<Pair> m_matches;       //!< result of the last call
};

} // namespace ns3

#endif /* ISLIP_ARBITER_H */
