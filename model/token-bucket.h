/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TOKEN_BUCKET_H
#define TOKEN_BUCKET_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief A token bucket, the building block of the DiffServ meters (TokenBucketMeter,
 * SrTcmMeter, TrTcmMeter): tokens (bytes) arrive at a rate and are kept up to a size.
 *
 * Tokens are counted exactly, in units of 10^-9 bit, so that a rate in bit/s times a time in
 * nanoseconds is a whole number of units (RFC 2697's "incremented by one CIR times per
 * second", without rounding): a bucket refilled for 1 ms at 1 Mb/s gains exactly 125 bytes.
 * Times are read in nanoseconds, ns-3's default resolution.
 *
 * The bucket is pure arithmetic: it is told the time, and needs no simulator.
 */
class TokenBucket
{
  public:
    /// Token units per byte (a unit is 10^-9 bit).
    static constexpr uint64_t UNITS_PER_BYTE = 8'000'000'000ULL;
    /// The largest bucket size, in bytes (2^30; two full buckets fit in 64 bits of units).
    static constexpr uint32_t MAX_SIZE = 1U << 30;

    /**
     * A full bucket. Sizes are not checked here: the meters check their parameters.
     * \param rate the rate tokens arrive at (0: only Add fills it)
     * \param size the most bytes of tokens it holds, <= MAX_SIZE
     * \param now the time it is full at
     */
    TokenBucket(DataRate rate, uint32_t size, Time now);

    /**
     * Add the tokens that arrived since the last refill (or creation), up to the size.
     * \param now the time, not earlier than the last refill's
     * \return the tokens that did not fit, in units (saturated at 2^63, more than any bucket
     *         holds)
     */
    uint64_t Refill(Time now);

    /**
     * Add tokens (another bucket's overflow), up to the size.
     * \param units the tokens, in units
     */
    void Add(uint64_t units);

    /**
     * \param bytes a packet's size
     * \return whether the bucket holds at least that many bytes of tokens
     */
    bool Holds(uint32_t bytes) const;

    /**
     * Remove a packet's worth of tokens; the bucket must hold them (see Holds).
     * \param bytes a packet's size
     */
    void Take(uint32_t bytes);

    /// \return the tokens, in bytes (fractional)
    double GetTokens() const;

    /// \return the tokens, in units of 10^-9 bit
    uint64_t GetUnits() const;

    /// \return the size, in bytes
    uint32_t GetSize() const;

  private:
    uint64_t m_rate;     //!< token rate, bit/s
    uint32_t m_size;     //!< size, bytes
    uint64_t m_capacity; //!< size, units
    uint64_t m_tokens;   //!< tokens, units
    int64_t m_last;      //!< time of the last refill, ns
};

} // namespace ns3

#endif /* TOKEN_BUCKET_H */
