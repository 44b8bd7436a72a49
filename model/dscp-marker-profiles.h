/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DSCP_MARKER_PROFILES_H
#define DSCP_MARKER_PROFILES_H

#include "flow-match.h"
#include "traffic-meter.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief The traffic profiles of a DiffServ edge marker (DscpMarkerQueueDisc), written as text
 * rules: which flows each applies to, and the meter they are measured with.
 *
 * Rules are separated by ';' or new lines; a rule is a list of key=value fields separated by
 * spaces or commas: FlowMatch's fields (src, dst, sport, dport, proto, dscp) and
 *
 * \verbatim
 *   meter=tb | srtcm | trtcm   the meter (default tb):
 *                              tb     two-colour token bucket (TokenBucketMeter): cir, cbs
 *                              srtcm  RFC 2697 (SrTcmMeter): cir, cbs, ebs
 *                              trtcm  RFC 2698 (TrTcmMeter): cir, cbs, pir, pbs
 *   cir=2Mbps                  committed (profile) rate, any ns-3 DataRate text, > 0
 *   cbs=40000                  committed burst (bucket) size, bytes: tb, trtcm 1 .. 2^30;
 *                              srtcm 0 .. 2^30
 *   ebs=6000                   srtcm: excess burst size, bytes, 0 .. 2^30; cbs + ebs > 0
 *   pir=4Mbps                  trtcm: peak rate, >= cir
 *   pbs=6000                   trtcm: peak burst size, bytes, 1 .. 2^30
 *   af=2                       AF class 1..4 of this profile's marks (default: the marker's)
 * \endverbatim
 *
 * e.g. "src=10.1.1.1 dport=5000 proto=tcp cir=2Mbps cbs=40000; dst=10.2.0.0/16 meter=srtcm
 * cir=1Mbps cbs=3000 ebs=6000 af=2". A flow takes the first profile it matches. A malformed
 * rule stops the program with a message naming the setting, the rule, the field and what was
 * expected.
 */
class DscpMarkerProfiles
{
  public:
    /// A profile's meter.
    enum MeterType : uint8_t
    {
        TOKEN_BUCKET, //!< two colours, one bucket (TokenBucketMeter)
        SR_TCM,       //!< RFC 2697 (SrTcmMeter)
        TR_TCM,       //!< RFC 2698 (TrTcmMeter)
    };

    /// One profile.
    struct Profile
    {
        FlowMatch match;                //!< the flows it applies to
        MeterType meter = TOKEN_BUCKET; //!< its meter
        DataRate cir;                   //!< committed rate
        uint32_t cbs = 0;               //!< committed burst size, bytes
        uint32_t ebs = 0;               //!< srTCM: excess burst size, bytes
        DataRate pir;                   //!< trTCM: peak rate
        uint32_t pbs = 0;               //!< trTCM: peak burst size, bytes
        uint8_t afClass = 0;            //!< AF class of its marks, 1..4; 0: the marker's
        std::string text;               //!< the rule as written
    };

    /// No profiles.
    DscpMarkerProfiles() = default;

    /**
     * \param text the rules
     * \param what the setting they come from, named in error messages
     */
    DscpMarkerProfiles(const std::string& text, const std::string& what);

    /**
     * Check profiles without stopping the program.
     * \param text the rules
     * \param what the setting they come from, named in the message
     * \return "" if \p text parses, else the message the constructor stops with
     */
    static std::string Check(const std::string& text, const std::string& what);

    /// \return the number of profiles
    std::size_t GetN() const;

    /**
     * \param i a profile index, < GetN()
     * \return the profile
     */
    const Profile& Get(std::size_t i) const;

    /**
     * \param key a packet's flow key
     * \return the index of the first profile it matches, or -1
     */
    int32_t Find(const FlowKey& key) const;

    /**
     * \param i a profile index, < GetN()
     * \param now when metering starts (the buckets are full then)
     * \return a new meter with the profile's parameters
     */
    std::unique_ptr<TrafficMeter> MakeMeter(std::size_t i, Time now) const;

  private:
    /**
     * Read the profiles into m_profiles.
     * \param text the rules
     * \param what the setting they come from
     * \throws FlowMatch::RuleError on a malformed rule
     */
    void Parse(const std::string& text, const std::string& what);

    std::vector<Profile> m_profiles; //!< the profiles, in order
};

} // namespace ns3

#endif /* DSCP_MARKER_PROFILES_H */
