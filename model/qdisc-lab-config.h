/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef QDISC_LAB_CONFIG_H
#define QDISC_LAB_CONFIG_H

/**
 * \file
 * \ingroup qdisc-lab
 * What every queue disc of the module shares in checking its configuration: the accessor of the
 * MaxSize attribute (an empty buffer stops the program instead of being dropped silently), the
 * always-on warning about values that are legal but suspicious, and the checks of a TypeId name
 * and of an attribute's value that return their error instead of stopping the program (for
 * callers that must go on, as Python's bindings: qdisclab.ns.check).
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

/**
 * \ingroup qdisc-lab
 * LookupTypeId's checks, without stopping the program.
 * \param name a TypeId name
 * \param base the type it must be, or derive from
 * \param what who asks, for the message
 * \return "" if \p name is a TypeId LookupTypeId returns, else the message it stops with
 */
std::string CheckTypeId(const std::string& name, TypeId base, const std::string& what);

/**
 * \ingroup qdisc-lab
 * Read \p text strictly (value-text.h) as a value of the attribute type \p checker checks, as
 * ns-3 reads a StringValue given for it: ns-3's own readers take "4ms" for the number 4, or stop
 * the program on "15x00". Numbers, booleans, times, rates, queue sizes and enums are read (an
 * enum: one of its names); any other type is left to ns-3.
 * \param checker the attribute's checker
 * \param text the value as text
 * \return "" if \p text is a value of that type (its range is the checker's to check), else
 *         what was expected
 */
std::string CheckValueText(Ptr<const AttributeChecker> checker, const std::string& text);

/**
 * \ingroup qdisc-lab
 * Check, without stopping the program, what setting attribute \p name of a \p typeName object
 * to \p value would stop it for, at once or when the object checks its configuration: no such
 * TypeId; no such attribute (the message lists the type's attributes); a value the attribute's
 * checker refuses (a StringValue is read first by CheckValueText; the message gives the
 * checker's type and range); a MaxSize of 0 (MakeMaxSizeAccessor); and, for the module's rule texts
 * (a per-flow queue disc's WeightRules, DscpMarkerQueueDisc's Profiles), a malformed rule. \param
 * typeName a TypeId name, e.g. "ns3::DrrQueueDisc" \param name an attribute of it, or of a parent
 * \param value the value to set
 * \return "" if nothing is wrong, else the message, naming the type, the attribute and the value
 */
std::string CheckAttribute(const std::string& typeName,
                           const std::string& name,
                           const AttributeValue& value);

} // namespace qdisclab
} // namespace ns3

#endif /* QDISC_LAB_CONFIG_H */
