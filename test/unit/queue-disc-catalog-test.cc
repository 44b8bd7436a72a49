/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The queue disc catalog (helper/queue-disc-catalog.h): every entry names a queue disc ns-3 can
// create with the entry's attributes, names are unique, capabilities match what the queue disc
// has, and the examples' lookups stop with the known names.

#include "../qdisc-lab-test-packets.h"

#include "ns3/object-factory.h"
#include "ns3/queue-disc-catalog.h"
#include "ns3/queue-disc.h"
#include "ns3/string.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <set>
#include <sstream>
#include <string>

using namespace ns3;

namespace
{

/**
 * \param tid a TypeId
 * \param attributes name/value pairs
 * \return "" if each is an attribute of \p tid and its value valid; else what is wrong
 */
std::string
CheckAttributes(TypeId tid, const QueueDiscCatalogEntry::Attributes& attributes)
{
    for (const auto& [name, value] : attributes)
    {
        TypeId::AttributeInformation info;
        if (!tid.LookupAttributeByName(name, &info))
        {
            return tid.GetName() + " has no attribute " + name;
        }
        if (!info.checker->CreateValidValue(StringValue(value)))
        {
            return tid.GetName() + "::" + name + ": invalid value '" + value + "'";
        }
    }
    return "";
}

/**
 * \param entry a catalog entry
 * \return its queue disc, with the entry's attributes, initialized
 */
Ptr<QueueDisc>
Create(const QueueDiscCatalogEntry& entry)
{
    ObjectFactory factory(entry.typeId);
    for (const auto& [name, value] : entry.attributes)
    {
        factory.Set(name, StringValue(value));
    }
    Ptr<QueueDisc> qdisc = factory.Create<QueueDisc>();
    qdisc->Initialize();
    return qdisc;
}

} // namespace

TEST(QueueDiscCatalogTest, NamesAreUnique)
{
    std::set<std::string> names;
    for (const QueueDiscCatalogEntry& entry : QueueDiscCatalog::GetEntries())
    {
        EXPECT_TRUE(names.insert(entry.name).second) << entry.name;
        EXPECT_FALSE(entry.description.empty()) << entry.name;
        EXPECT_TRUE(entry.origin == "ns-3" || entry.origin == "qdisc-lab") << entry.name;
    }
    EXPECT_EQ(names.size(), QueueDiscCatalog::GetEntries().size());
}

TEST(QueueDiscCatalogTest, EveryEntryIsACreatableQueueDiscWithValidAttributes)
{
    for (const QueueDiscCatalogEntry& entry : QueueDiscCatalog::GetEntries())
    {
        TypeId tid;
        ASSERT_TRUE(TypeId::LookupByNameFailSafe(entry.typeId, &tid)) << entry.typeId;
        EXPECT_TRUE(tid.IsChildOf(QueueDisc::GetTypeId())) << entry.typeId;
        EXPECT_TRUE(tid.HasConstructor()) << entry.typeId;
        EXPECT_EQ(CheckAttributes(tid, entry.attributes), "");
        EXPECT_EQ(CheckAttributes(tid, entry.benchAttributes), "");
        if (!entry.quantumAttribute.empty())
        {
            EXPECT_EQ(CheckAttributes(tid, {{entry.quantumAttribute, "1000"}}), "");
        }
        if (entry.Has(QueueDiscCatalogEntry::PER_FLOW))
        {
            EXPECT_EQ(CheckAttributes(tid,
                                      {{"Buckets", "7"},
                                       {"Mask", "AddressPair"},
                                       {"Perturbation", "3"},
                                       {"WeightRules", "dport=5000 weight=2"},
                                       {"DefaultWeight", "1"}}),
                      "");
        }
        // Flow state is read through PerFlowQueueDisc::GetStateSize: exactly its subclasses.
        EXPECT_EQ(entry.Has(QueueDiscCatalogEntry::FLOW_STATE),
                  tid.IsChildOf(PerFlowQueueDisc::GetTypeId()))
            << entry.name;
    }
}

TEST(QueueDiscCatalogTest, AttributesAreApplied)
{
    const QueueDiscCatalogEntry* tail = QueueDiscCatalog::Find("DRR-tail");
    ASSERT_NE(tail, nullptr);
    StringValue dropFrom;
    Create(*tail)->GetAttribute("DropFrom", dropFrom);
    EXPECT_EQ(dropFrom.Get(), "Tail");
}

TEST(QueueDiscCatalogTest, FlowStateIsReadExactlyForItsEntries)
{
    for (const QueueDiscCatalogEntry& entry : QueueDiscCatalog::GetEntries())
    {
        QueueDiscFlowState state;
        if (!entry.Has(QueueDiscCatalogEntry::FLOW_STATE))
        {
            Ptr<QueueDisc> qdisc = ObjectFactory(entry.typeId).Create<QueueDisc>();
            EXPECT_FALSE(QueueDiscCatalog::ReadFlowState(qdisc, state)) << entry.name;
            qdisc->Dispose();
            continue;
        }
        // Backlogged flows (two, or one if the hosts share a bucket) have per-flow state.
        Ptr<QueueDisc> qdisc = Create(entry);
        qdisc->Enqueue(qdisclab::test::FromHost(1, 500));
        qdisc->Enqueue(qdisclab::test::FromHost(2, 500));
        EXPECT_TRUE(QueueDiscCatalog::ReadFlowState(qdisc, state)) << entry.name;
        EXPECT_GE(state.peakActiveFlows, 1U) << entry.name;
        EXPECT_LE(state.peakActiveFlows, 2U) << entry.name;
        EXPECT_GT(state.activeFlowBytes, 0U) << entry.name;
        qdisc->Dispose();
    }
}

TEST(QueueDiscCatalogTest, OneBenchReference)
{
    int references = 0;
    for (const QueueDiscCatalogEntry& entry : QueueDiscCatalog::GetEntries())
    {
        references += entry.benchReference ? 1 : 0;
        EXPECT_TRUE(entry.benched || !entry.benchReference) << entry.name;
    }
    EXPECT_EQ(references, 1);
}

TEST(QueueDiscCatalogTest, FindTakesExactlyTheName)
{
    ASSERT_NE(QueueDiscCatalog::Find("DRR"), nullptr);
    EXPECT_EQ(QueueDiscCatalog::Find("DRR")->typeId, "ns3::DrrQueueDisc");
    EXPECT_EQ(QueueDiscCatalog::Find("FIFO")->typeId, "ns3::FifoQueueDisc");
    // One spelling per queue disc: other cases and the former aliases name nothing.
    for (const char* other : {"Drr",
                              "drr",
                              "DropTail",
                              "Fifo",
                              "Red",
                              "Rio",
                              "RiPlusO",
                              "CioqRed",
                              "Wf2qPlus",
                              "WF2Q",
                              "Nope"})
    {
        EXPECT_EQ(QueueDiscCatalog::Find(other), nullptr) << other;
    }
    EXPECT_EQ(QueueDiscCatalog::FindByTypeId("ns3::DrrQueueDisc")->name, "DRR");
    EXPECT_EQ(QueueDiscCatalog::FindByTypeId("ns3::NopeQueueDisc"), nullptr);
}

TEST(QueueDiscCatalogTest, ChooseReturnsTheNamedEntry)
{
    const QueueDiscCatalogEntry& entry =
        QueueDiscCatalog::Choose("--queueDisc", "FIFO", {"DRR", "FIFO"});
    EXPECT_EQ(entry.typeId, "ns3::FifoQueueDisc");
    EXPECT_EQ(QueueDiscCatalog::Describe({"DRR", "VD"}),
              "DRR (" + QueueDiscCatalog::Find("DRR")->description + "); VD (" +
                  QueueDiscCatalog::Find("VD")->description + ")");
}

TEST(QueueDiscCatalogDeathTest, ChooseStopsListingTheAcceptedNames)
{
    // Known to the catalog but not accepted by this program: refused as well.
    EXPECT_DEATH(QueueDiscCatalog::Choose("--queueDisc", "VD", {"DRR", "FIFO"}),
                 "--queueDisc=VD is not a known queue disc; known: DRR, FIFO");
    EXPECT_DEATH(QueueDiscCatalog::Choose("--queueDisc", "Nope", {"DRR", "FIFO"}),
                 "--queueDisc=Nope is not a known queue disc; known: DRR, FIFO");
    // Another spelling of an accepted name is refused, not read as it.
    EXPECT_DEATH(QueueDiscCatalog::Choose("--queueDisc", "Drr", {"DRR", "FIFO"}),
                 "--queueDisc=Drr is not a known queue disc; known: DRR, FIFO");
    // A program's list holding a name the catalog lacks stops it, whatever the value.
    EXPECT_DEATH(QueueDiscCatalog::Choose("--queueDisc", "DRR", {"DRR", "Drr"}),
                 "--queueDisc: 'Drr' is not in the queue disc catalog");
}

TEST(QueueDiscCatalogTest, ListingsHaveOneRowPerEntry)
{
    const auto& entries = QueueDiscCatalog::GetEntries();
    std::ostringstream tsv;
    QueueDiscCatalog::WriteTsv(tsv);
    std::istringstream lines(tsv.str());
    std::string line;
    std::size_t rows = 0;
    std::size_t columns = 0;
    while (std::getline(lines, line))
    {
        const std::size_t fields = std::count(line.begin(), line.end(), '\t') + 1;
        if (rows == 0)
        {
            columns = fields;
        }
        EXPECT_EQ(fields, columns) << line;
        if (rows > 0)
        {
            EXPECT_EQ(line.substr(0, line.find('\t')), entries[rows - 1].name);
        }
        ++rows;
    }
    EXPECT_EQ(rows, entries.size() + 1);

    std::ostringstream json;
    QueueDiscCatalog::WriteJson(json);
    EXPECT_EQ(json.str().rfind("{\"schema\": \"qdisc-lab.catalog/2\"", 0), 0U);
    for (const QueueDiscCatalogEntry& entry : entries)
    {
        EXPECT_NE(json.str().find("\"type_id\": \"" + entry.typeId + "\""), std::string::npos);
    }
}
