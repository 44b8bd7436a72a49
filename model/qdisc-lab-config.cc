/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "qdisc-lab-config.h"

#include "ns3/abort.h"
#include "ns3/queue-disc.h"

#include <iostream>
#include <mutex>
#include <set>
#include <sstream>

namespace ns3
{
namespace qdisclab
{

namespace
{

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
        NS_ABORT_MSG_IF(size->Get().GetValue() == 0,
                        disc->GetInstanceTypeId().GetName()
                            << ": MaxSize = " << size->Get()
                            << " is out of range: a queue disc's buffer holds at least 1p (in "
                               "packets) or 1B (in bytes)");
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
    TypeId tid;
    NS_ABORT_MSG_UNLESS(TypeId::LookupByNameFailSafe(name, &tid),
                        what << " = '" << name << "': no such TypeId (expected a " << base.GetName()
                             << ")");
    NS_ABORT_MSG_UNLESS(tid.IsChildOf(base) || tid == base,
                        what << " = '" << name << "' is not a " << base.GetName());
    NS_ABORT_MSG_UNLESS(tid.HasConstructor(),
                        what << " = '" << name << "' has no constructor (an abstract type)");
    // ns-3's MqQueueDisc is a queue disc only for a multi-queue device's root: on any other
    // device it stops the program mid-run, in ns-3's own words.
    TypeId mq;
    NS_ABORT_MSG_IF(base == QueueDisc::GetTypeId() &&
                        TypeId::LookupByNameFailSafe("ns3::MqQueueDisc", &mq) &&
                        (tid == mq || tid.IsChildOf(mq)),
                    what << " = '" << name
                         << "' needs a multi-queue device (one child per transmission queue); "
                            "give a queue disc of one queue, e.g. ns3::FifoQueueDisc");
    return tid;
}

} // namespace qdisclab
} // namespace ns3
