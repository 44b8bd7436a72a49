/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DSCP_MARKER_QUEUE_DISC_H
#define DSCP_MARKER_QUEUE_DISC_H

#include "dscp-marker-profiles.h"
#include "flow-identifier.h"
#include "traffic-meter.h"

#include "ns3/queue-disc.h"
#include "ns3/traced-callback.h"

#include <array>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief A DiffServ edge marker (RFC 2475 traffic conditioner: classifier, meter, marker) as a
 * root queue disc with one child queue disc, which queues and schedules the marked packets.
 *
 * Enqueue:
 *  1. Classify: the packet's 5-tuple and DSCP (FlowIdentifier::Extract) are matched against
 *     the Profiles, first match wins (DscpMarkerProfiles).
 *  2. Meter: the profile's meter (a token bucket, srTCM or trTCM) measures the packet's IP size
 *     at its arrival time and gives it a colour. With MeterScope PerFlow, every distinct
 *     5-tuple the profile matches has its own meter (the paper's "for each flow, a token
 *     bucket marker is attached"); with PerProfile, all its flows share one (an aggregate
 *     SLA). A meter starts, with full buckets, at its first packet. With ColorAware, a packet
 *     arriving as AFx2 / AFx3 (any AF class x) is pre-coloured yellow / red, any other green.
 *  3. Mark: the DSCP of the IPv4 TOS / IPv6 Traffic Class becomes AF<c><d>, c the profile's AF
 *     class (AfClass unless the profile says af=), d = 1 green (IN), 2 yellow (OUT), 3 red; the
 *     ECN bits are kept.
 *  4. The packet is enqueued in the child (a FifoQueueDisc of MaxSize unless one is added).
 *
 * Packets no profile matches (and non-IP packets) pass unmetered, with their DSCP kept or set
 * to 0 (Unmatched). Dequeue takes the child's next packet. The marker never drops; the child
 * may, and its drops are counted in the marker's stats too (ns-3's parent/child accounting).
 *
 * How the DSCP is written: ns-3 keeps an IP packet's header in its Ipv4QueueDiscItem /
 * Ipv6QueueDiscItem until the root queue disc sends it (AddHeader), and the item exposes the
 * header read-only (Mark() only sets ECN CE). The marker therefore replaces the item by a new
 * one with the same packet (payload, tags), destination address, protocol, transmit queue
 * index and time stamp, and a copy of the header with the new DSCP; the header, with its
 * checksum, is serialized when the packet is sent, so the mark is in the packet on the wire and
 * in pcap traces. An item whose DSCP is already right is kept as it is.
 */
class DscpMarkerQueueDisc : public QueueDisc
{
  public:
    /// How meters are shared among a profile's flows.
    enum MeterScope
    {
        PER_FLOW,    //!< one meter per distinct 5-tuple (the paper's per-flow marker)
        PER_PROFILE, //!< one meter per profile, shared by all its flows
    };

    /// What happens to the DSCP of packets no profile matches.
    enum UnmatchedAction
    {
        KEEP_DSCP,   //!< left as it is
        BEST_EFFORT, //!< set to 0 (default PHB)
    };

    /// Counters of one profile, per colour (indexed by TrafficMeter::Color).
    struct ProfileStats
    {
        std::array<uint64_t, TrafficMeter::N_COLORS> packets{}; //!< packets marked, per colour
        std::array<uint64_t, TrafficMeter::N_COLORS> bytes{};   //!< bytes marked, per colour
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    DscpMarkerQueueDisc();
    ~DscpMarkerQueueDisc() override;

    /// \return the number of profiles (after initialization)
    uint32_t GetNProfiles() const;

    /**
     * \param profile a profile index, < GetNProfiles()
     * \return its counters since the simulation started
     */
    const ProfileStats& GetProfileStats(uint32_t profile) const;

    /// \return packets no profile matched (non-IP packets included)
    uint64_t GetUnmatchedPackets() const;

    /// \return bytes of the packets no profile matched
    uint64_t GetUnmatchedBytes() const;

    /// \return the number of meters in use (flows metered, with PerFlow)
    std::size_t GetNMeters() const;

    /**
     * \param afClass an AF class, 1..4
     * \param color a colour
     * \return the DSCP of AF<afClass><color + 1> (RFC 2597): 8 afClass + 2 (color + 1)
     */
    static uint8_t AfDscp(uint8_t afClass, TrafficMeter::Color color);

    /**
     * \param dscp a DSCP
     * \return its colour for colour-aware metering: yellow for AFx2, red for AFx3, else green
     */
    static TrafficMeter::Color PreColor(uint8_t dscp);

    /**
     * TracedCallback signature of the DscpMark trace source (QueueDisc's Mark is ECN marking).
     * \param item the packet, with its new DSCP
     * \param profile the profile that metered it
     * \param color its colour
     */
    typedef void (*DscpMarkTracedCallback)(Ptr<const QueueDiscItem> item,
                                           uint32_t profile,
                                           TrafficMeter::Color color);

  protected:
    void DoDispose() override;

  private:
    bool DoEnqueue(Ptr<QueueDiscItem> item) override;
    Ptr<QueueDiscItem> DoDequeue() override;
    Ptr<const QueueDiscItem> DoPeek() override;
    bool CheckConfig() override;
    void InitializeParams() override;

    /**
     * \param profile a profile index
     * \param key a packet's flow key
     * \return the meter that measures the packet (created, full, if it is the first)
     */
    TrafficMeter& MeterOf(uint32_t profile, const FlowKey& key);

    /**
     * \param item an IP packet
     * \param dscp a DSCP
     * \return the packet with that DSCP: \p item itself if it has it already, else a copy
     */
    static Ptr<QueueDiscItem> WithDscp(Ptr<QueueDiscItem> item, uint8_t dscp);

    /// A flow's meter's key: the profile and the 5-tuple (without the DSCP, which may vary).
    struct FlowMeterKey
    {
        uint32_t profile; //!< profile index
        FlowKey flow;     //!< the flow (its dscp field is not used)

        /**
         * \param other another key
         * \return whether both are the same profile and 5-tuple
         */
        bool operator==(const FlowMeterKey& other) const;
    };

    /// Hash of a FlowMeterKey: FlowIdentifier's 5-tuple hash, perturbed by the profile.
    struct FlowMeterKeyHash
    {
        /**
         * \param key a key
         * \return its hash
         */
        std::size_t operator()(const FlowMeterKey& key) const;
    };

    // Attributes
    std::string m_profilesText;  //!< the profiles, as rules
    uint32_t m_afClass;          //!< default AF class of the marks
    bool m_colorAware;           //!< colour-aware metering
    MeterScope m_scope;          //!< meters per flow or per profile
    UnmatchedAction m_unmatched; //!< DSCP of unmatched packets

    DscpMarkerProfiles m_profiles;                       //!< parsed profiles
    std::vector<std::unique_ptr<TrafficMeter>> m_shared; //!< PerProfile meters
    std::unordered_map<FlowMeterKey, std::unique_ptr<TrafficMeter>, FlowMeterKeyHash>
        m_perFlow;                     //!< PerFlow meters
    std::vector<ProfileStats> m_stats; //!< per-profile counters
    uint64_t m_unmatchedPackets;       //!< unmatched packets
    uint64_t m_unmatchedBytes;         //!< unmatched bytes

    TracedCallback<Ptr<const QueueDiscItem>, uint32_t, TrafficMeter::Color>
        m_markTrace; //!< a packet was metered and marked
};

} // namespace ns3

#endif /* DSCP_MARKER_QUEUE_DISC_H */
