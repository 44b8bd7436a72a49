/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef QDISC_LAB_CONFIG_H
#define QDISC_LAB_CONFIG_H

/**
 * \file
 * \ingroup qdisc-lab
 * What every queue disc of the module shares in checking its configuration: the accessor of the
 * MaxSize attribute (an empty buffer stops the program instead of being dropped silently) and
 * the always-on warning about values that are legal but suspicious.
 */

#include "ns3/attribute.h"
#include "ns3/ptr.h"
#include "ns3/queue-size.h"
#include "ns3/type-id.h"

#include <string>

namespace ns3
{

class QueueDisc;

namespace qdisclab
{

/**
 * \ingroup qdisc-lab
 * The accessor of a queue disc's MaxSize attribute: QueueDisc::SetMaxSize and GetMaxSize, except
 * that a size of 0 (0p or 0B) stops the program with a message naming the queue disc, the
 * attribute and its range.
 *
 * ns-3's QueueDisc::SetMaxSize refuses 0 by returning false; ns-3's object factories ignore that
 * result while they construct an object, so a queue disc created by a helper with MaxSize = 0p
 * would run with its previous size (the default, or ns-3's one packet) while its configuration
 * says 0. Every MaxSize attribute of the module uses this accessor instead.
 *
 * \return the accessor
 */
Ptr<const AttributeAccessor> MakeMaxSizeAccessor();

/**
 * \ingroup qdisc-lab
 * Print "qdisc-lab warning: <text>" on standard error, once per distinct text in the process
 * (always on, in optimized builds too, and not through NS_LOG): for a configuration that is
 * legal but probably not what the user meant (a RED threshold above the buffer, an attribute the
 * configuration ignores).
 * \param text the warning, naming the object, the attribute, its value and why it is suspicious
 * \return whether this call printed it (false: it was printed before)
 */
bool WarnOnce(const std::string& text);

/**
 * \ingroup qdisc-lab
 * Warn (WarnOnce) when a RED threshold is above the buffer: the buffer fills, and drops every
 * arrival, before the average queue can reach the threshold. Names the lower threshold that is
 * above it (min_th: RED never drops early), else max_th.
 * \param disc the queue disc, for its TypeId name and MaxSize
 * \param prefix the thresholds' attribute prefix ("In", "Total", "" for MinTh and MaxTh)
 * \param minTh the min_th, in MaxSize's unit
 * \param maxTh the max_th, in MaxSize's unit
 */
void WarnThresholdsAboveMaxSize(const QueueDisc& disc,
                                const std::string& prefix,
                                double minTh,
                                double maxTh);

/**
 * \ingroup qdisc-lab
 * \param name a TypeId name, e.g. "ns3::CioqRedQueueDisc"
 * \param base the type it must be, or derive from, e.g. QueueDisc::GetTypeId()
 * \param what who asks, for the message ("--qdisc", "CioqSwitchHelper::SetOutputQueueDisc")
 * \return the TypeId; stops the program, naming \p what and \p name, if there is no such
 *         TypeId, if it is not a \p base, or if it cannot be created (no constructor)
 */
TypeId LookupTypeId(const std::string& name, TypeId base, const std::string& what);

} // namespace qdisclab
} // namespace ns3

#endif /* QDISC_LAB_CONFIG_H */
