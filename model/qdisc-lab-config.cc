/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "qdisc-lab-config.h"

#include "dscp-marker-profiles.h"
#include "dscp-marker-queue-disc.h"
#include "flow-weight-rules.h"
#include "per-flow-queue-disc.h"
#include "value-text.h"

#include "ns3/abort.h"
#include "ns3/queue-disc.h"
#include "ns3/string.h"

#include <iostream>
#include <limits>
#include <mutex>
#include <set>
#include <sstream>

namespace ns3
{
namespace qdisclab
{

namespace
{

/**
 * \param type the queue disc's TypeId name
 * \param size its MaxSize
 * \return "" if \p size holds a packet or a byte, else why it is out of range
 */
std::string
MaxSizeError(const std::string& type, const QueueSize& size)
{
    if (size.GetValue() != 0)
    {
        return "";
    }
    std::ostringstream text;
    text << type << ": MaxSize = " << size
         << " is out of range: a queue disc's buffer holds at least 1p (in packets) or 1B (in "
            "bytes)";
    return text.str();
}

/**
 * \param tid a TypeId
 * \param base another
 * \return whether \p tid is \p base or derives from it
 */
bool
IsA(TypeId tid, TypeId base)
{
    return tid == base || tid.IsChildOf(base);
}

/// QueueDisc's MaxSize accessor, refusing 0 out loud (MakeMaxSizeAccessor).
class MaxSizeAccessor : public AttributeAccessor
{
  public:
    bool Set(ObjectBase* object, const AttributeValue& value) const override
    {
        auto* disc = dynamic_cast<QueueDisc*>(object);
        const auto* size = dynamic_cast<const QueueSizeValue*>(&value);
        if (!disc || !size)
        {
            return false;
        }
        const std::string error = MaxSizeError(disc->GetInstanceTypeId().GetName(), size->Get());
        NS_ABORT_MSG_UNLESS(error.empty(), error);
        return disc->SetMaxSize(size->Get());
    }

    bool Get(const ObjectBase* object, AttributeValue& value) const override
    {
        const auto* disc = dynamic_cast<const QueueDisc*>(object);
        auto* size = dynamic_cast<QueueSizeValue*>(&value);
        if (!disc || !size)
        {
            return false;
        }
        size->Set(disc->GetMaxSize());
        return true;
    }

    bool HasGetter() const override
    {
        return true;
    }

    bool HasSetter() const override
    {
        return true;
    }
};

} // namespace

Ptr<const AttributeAccessor>
MakeMaxSizeAccessor()
{
    return Ptr<const AttributeAccessor>(new MaxSizeAccessor(), false);
}

bool
WarnOnce(const std::string& text)
{
    static std::mutex mutex;
    static std::set<std::string> said;
    std::lock_guard<std::mutex> lock(mutex);
    if (!said.insert(text).second)
    {
        return false;
    }
    std::cerr << "qdisc-lab warning: " << text << std::endl;
    return true;
}

void
WarnThresholdsAboveMaxSize(const QueueDisc& disc,
                           const std::string& prefix,
                           double minTh,
                           double maxTh)
{
    const QueueSize limit = disc.GetMaxSize();
    const auto buffer = static_cast<double>(limit.GetValue());
    if (maxTh <= buffer)
    {
        return;
    }
    const bool min = minTh > buffer;
    const std::string unit = limit.GetUnit() == QueueSizeUnit::BYTES ? "bytes" : "packets";
    std::ostringstream text;
    text << disc.GetInstanceTypeId().GetName() << " " << prefix << (min ? "MinTh=" : "MaxTh=")
         << (min ? minTh : maxTh) << " " << unit << " exceeds MaxSize=" << limit
         << (min ? ": the buffer overflows before the average reaches it, RED never drops early"
                 : ": the buffer overflows before the average reaches it")
         << "; raise MaxSize or lower the thresholds";
    WarnOnce(text.str());
}

TypeId
LookupTypeId(const std::string& name, TypeId base, const std::string& what)
{
    const std::string error = CheckTypeId(name, base, what);
    NS_ABORT_MSG_UNLESS(error.empty(), error);
    return TypeId::LookupByName(name);
}

std::string
CheckTypeId(const std::string& name, TypeId base, const std::string& what)
{
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(name, &tid))
    {
        return what + " = '" + name + "': no such TypeId (expected a " + base.GetName() + ")";
    }
    if (!IsA(tid, base))
    {
        return what + " = '" + name + "' is not a " + base.GetName();
    }
    if (!tid.HasConstructor())
    {
        return what + " = '" + name + "' has no constructor (an abstract type)";
    }
    // ns-3's MqQueueDisc is a queue disc only for a multi-queue device's root: on any other
    // device it stops the program mid-run, in ns-3's own words.
    TypeId mq;
    if (base == QueueDisc::GetTypeId() && TypeId::LookupByNameFailSafe("ns3::MqQueueDisc", &mq) &&
        IsA(tid, mq))
    {
        return what + " = '" + name +
               "' needs a multi-queue device (one child per transmission queue); give a queue "
               "disc of one queue, e.g. ns3::FifoQueueDisc";
    }
    return "";
}

std::string
CheckValueText(Ptr<const AttributeChecker> checker, const std::string& text)
{
    // Without "ns3::": ns-3 spells some ("DataRateValue", "QueueSizeValue") without it.
    std::string type = checker->GetValueTypeName();
    type = type.rfind("ns3::", 0) == 0 ? type.substr(5) : type;
    if (type == "UintegerValue")
    {
        int64_t v = 0;
        return ParseInteger(text, 0, std::numeric_limits<int64_t>::max(), v);
    }
    if (type == "IntegerValue")
    {
        int64_t v = 0;
        return ParseInteger(text,
                            std::numeric_limits<int64_t>::min(),
                            std::numeric_limits<int64_t>::max(),
                            v);
    }
    if (type == "DoubleValue")
    {
        double v = 0;
        return ParseDecimal(text, v);
    }
    if (type == "BooleanValue")
    {
        bool v = false;
        return text.empty() ? "a boolean (true, false, 1 or 0)" : ParseBoolean(text, v);
    }
    if (type == "TimeValue")
    {
        Time v;
        return ParseTimeText(text, v);
    }
    if (type == "DataRateValue")
    {
        DataRate v;
        return ParseRateText(text, v, 0);
    }
    if (type == "QueueSizeValue")
    {
        QueueSize v;
        return ParseQueueSizeText(text, v);
    }
    if (type.rfind("EnumValue", 0) == 0)
    {
        // An enum checker's type information is its names, "A|B|C", in every ns-3 version.
        const std::string names = checker->GetUnderlyingTypeInformation();
        const std::string bars = "|" + names + "|";
        return text.find('|') == std::string::npos &&
                       bars.find("|" + text + "|") != std::string::npos
                   ? ""
                   : "one of " + names;
    }
    return "";
}

std::string
CheckAttribute(const std::string& typeName, const std::string& name, const AttributeValue& value)
{
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(typeName, &tid))
    {
        return "'" + typeName + "': no such TypeId";
    }
    TypeId::AttributeInformation info;
    if (!tid.LookupAttributeByName(name, &info))
    {
        std::string names;
        for (TypeId type = tid;; type = type.GetParent())
        {
            for (std::size_t i = 0; i < type.GetAttributeN(); ++i)
            {
                names += (names.empty() ? "" : ", ") + type.GetAttribute(i).name;
            }
            if (type == type.GetParent())
            {
                break;
            }
        }
        return typeName + " has no attribute '" + name + "' (its attributes: " + names + ")";
    }
    const auto* given = dynamic_cast<const StringValue*>(&value);
    if (const std::string type = info.checker->GetValueTypeName();
        given && type != "ns3::StringValue" && type != "StringValue")
    {
        if (const std::string expected = CheckValueText(info.checker, given->Get());
            !expected.empty())
        {
            return typeName + " " + name + " = '" + given->Get() + "' is not " + expected;
        }
    }
    const Ptr<AttributeValue> valid = info.checker->CreateValidValue(value);
    if (!valid)
    {
        return typeName + " " + name + " = '" +
               (given ? given->Get() : value.SerializeToString(info.checker)) +
               "': not a valid value (expected " + info.checker->GetUnderlyingTypeInformation() +
               ")";
    }
    if (dynamic_cast<const MaxSizeAccessor*>(PeekPointer(info.accessor)))
    {
        if (const auto* size = dynamic_cast<const QueueSizeValue*>(PeekPointer(valid)))
        {
            return MaxSizeError(typeName, size->Get());
        }
    }
    // The module's rule texts, checked as the queue discs read them (CheckConfig).
    const std::string text = valid->SerializeToString(info.checker);
    const std::string shortName = typeName.substr(typeName.rfind(':') + 1);
    if (name == "WeightRules" && IsA(tid, PerFlowQueueDisc::GetTypeId()))
    {
        return FlowWeightRules::Check(text, shortName + " WeightRules");
    }
    if (name == "Profiles" && IsA(tid, DscpMarkerQueueDisc::GetTypeId()))
    {
        return DscpMarkerProfiles::Check(text, "DscpMarkerQueueDisc Profiles");
    }
    return "";
}

} // namespace qdisclab
} // namespace ns3
