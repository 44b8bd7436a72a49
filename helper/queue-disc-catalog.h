/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef QUEUE_DISC_CATALOG_H
#define QUEUE_DISC_CATALOG_H

#include "ns3/per-flow-queue-disc.h"
#include "ns3/ptr.h"
#include "ns3/queue-disc.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * What the benchmark reads of a per-flow queue disc's state (QueueDiscCatalogEntry::FLOW_STATE):
 * PerFlowQueueDisc::GetStateSize.
 */
using QueueDiscFlowState = PerFlowQueueDisc::StateSize;

/**
 * \ingroup qdisc-lab
 * One queue disc of the catalog: a short name (the one spelling of the queue disc in examples,
 * campaigns and figures), its TypeId, the attributes the entry sets over the TypeId's defaults,
 * what it can do, and how the benchmark runs it.
 */
struct QueueDiscCatalogEntry
{
    /// What a queue disc can do beyond QueueDisc's interface (bits of #capabilities).
    enum Capability : uint32_t
    {
        PER_FLOW = 1U << 0,    //!< hashes flows into buckets: Buckets, Mask, Perturbation,
                               //!< WeightRules, DefaultWeight; packet filters pick the bucket
        FLOW_STATE = 1U << 1,  //!< a PerFlowQueueDisc: reports its state's bytes (GetStateSize)
        FLOW_STATS = 1U << 2,  //!< per-bucket counters (GetFlowStats)
        CLASS_STATS = 1U << 3, //!< per-class counters (RIO's precedences, a marker's profiles)
    };

    /// Name = value pairs, values in the attribute's text form.
    using Attributes = std::vector<std::pair<std::string, std::string>>;

    std::string name;             //!< short name, unique in the catalog ("DRR")
    std::string typeId;           //!< the TypeId's name ("ns3::DrrQueueDisc")
    std::string origin;           //!< "qdisc-lab" (this module) or "ns-3"
    std::string description;      //!< one line, for --help and listings
    Attributes attributes;        //!< set over the TypeId's defaults: what the name means
    std::string quantumAttribute; //!< attribute holding a weight-1 flow's quantum; or empty
    uint32_t capabilities = 0;    //!< Capability bits
    bool benched = false;         //!< in the benchmark's default grid
    bool benchReference = false;  //!< the benchmark's reference (ratios are against it)
    Attributes benchAttributes;   //!< attributes the benchmark adds beyond MaxSize

    /**
     * \param capability a Capability
     * \return whether the entry has it
     */
    bool Has(Capability capability) const
    {
        return (capabilities & capability) != 0;
    }
};

/**
 * \ingroup qdisc-lab
 * \brief The module's catalog of queue discs: the one place that lists which queue discs exist,
 * by which short names, with which attributes and capabilities.
 *
 * The examples choose their queue disc by name from it (Choose), the benchmark reads flow state
 * through it and prints it (`qdisc-bench --list`, which `qdisc-lab bench` reads), and the Python
 * figure styles are checked against that listing. ns-3's own queue discs the module compares
 * with (FIFO, RED, FqCoDel) are entries too, marked origin "ns-3".
 *
 * \code
 *   const QueueDiscCatalogEntry& entry =
 *       QueueDiscCatalog::Choose("--queueDisc", queueDisc, {"DRR", "FIFO"});
 *   tc.SetRootQueueDisc(entry.typeId);  // --queueDisc=Nope: "... known: DRR, FIFO"
 * \endcode
 */
class QueueDiscCatalog
{
  public:
    /// \return every entry, in the catalog's order (ns-3's first, then this module's)
    static const std::vector<QueueDiscCatalogEntry>& GetEntries();

    /**
     * \param name a short name, exactly ("DRR"; "Drr" is no entry's)
     * \return its entry; nullptr if no entry has that name
     */
    static const QueueDiscCatalogEntry* Find(const std::string& name);

    /**
     * \param typeId a TypeId name ("ns3::DrrQueueDisc")
     * \return the first entry of that TypeId; nullptr if none
     */
    static const QueueDiscCatalogEntry* FindByTypeId(const std::string& typeId);

    /**
     * The entry a command-line flag names, among those a program accepts.
     * \param flag the flag, for the message ("--queueDisc")
     * \param value its value
     * \param accepted the names the program accepts, each a catalog name
     * \return the entry \p value names; stops the program, listing \p accepted, if \p value is
     *         not one of them (and if one of \p accepted is not in the catalog)
     */
    static const QueueDiscCatalogEntry& Choose(const std::string& flag,
                                               const std::string& value,
                                               const std::vector<std::string>& accepted);

    /**
     * \param accepted catalog names
     * \return "A (its description); B (...)", for a flag's help
     */
    static std::string Describe(const std::vector<std::string>& accepted);

    /**
     * Read a queue disc's per-flow state, if its catalog entry has FLOW_STATE (it is then a
     * PerFlowQueueDisc, which reports it: GetStateSize).
     * \param qdisc a queue disc
     * \param state set from it
     * \return whether it has that capability
     */
    static bool ReadFlowState(const Ptr<QueueDisc>& qdisc, QueueDiscFlowState& state);

    /**
     * Write the catalog as JSON: {"schema": "qdisc-lab.catalog/2", "capabilities": [...],
     * "entries": [{"name", "type_id", "origin", "description", "attributes",
     * "quantum_attribute", "capabilities", "bench": {"default", "reference", "attributes"}}]};
     * attributes as lists of "Name=Value".
     * \param os the stream
     */
    static void WriteJson(std::ostream& os);

    /**
     * Write the catalog as tab-separated values, a header line then one line per entry; lists
     * (capabilities) comma-separated, attributes ';'-separated "Name=Value".
     * \param os the stream
     */
    static void WriteTsv(std::ostream& os);

    /// Schema tag of WriteJson's document.
    static constexpr const char* SCHEMA = "qdisc-lab.catalog/2";

    /**
     * \param capability one Capability bit
     * \return its name in listings ("per_flow", "flow_state", ...)
     */
    static const char* CapabilityName(QueueDiscCatalogEntry::Capability capability);
};

} // namespace ns3

#endif /* QUEUE_DISC_CATALOG_H */
