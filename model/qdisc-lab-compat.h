/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef QDISC_LAB_COMPAT_H
#define QDISC_LAB_COMPAT_H

/**
 * \file
 * \ingroup qdisc-lab
 * The one place where qdisc-lab's C++ code bends to differences between ns-3 versions.
 *
 * The build (cmake/qdisc-lab-compat.cmake) defines QDISC_LAB_NS3_VERSION_MAJOR and
 * QDISC_LAB_NS3_VERSION_MINOR for the ns-3 it compiles against, in-tree or installed.
 *
 * Differences between 3.37 and 3.44 that the module avoids rather than wraps (see
 * doc/qdisc-lab.rst, "Supported ns-3 versions"):
 *  - TestCase durations and TestSuite types became scoped enums; tests use the defaults.
 *  - EventId::IsRunning was deprecated; code uses !EventId::IsExpired().
 *  - GetInstanceTypeId is not overridden.
 */

#include "ns3/boolean.h"
#include "ns3/ipv4.h"
#include "ns3/ptr.h"

#include <string>

#ifndef QDISC_LAB_NS3_VERSION_MAJOR
#error                                                                                             \
    "QDISC_LAB_NS3_VERSION_MAJOR is not defined: build qdisc-lab with its CMakeLists.txt or wscript"
#endif

/**
 * True when the ns-3 being compiled against is at least major.minor.
 */
#define QDISC_LAB_NS3_AT_LEAST(major, minor)                                                       \
    (QDISC_LAB_NS3_VERSION_MAJOR > (major) ||                                                      \
     (QDISC_LAB_NS3_VERSION_MAJOR == (major) && QDISC_LAB_NS3_VERSION_MINOR >= (minor)))

/**
 * MakeEnumAccessor for an attribute of enum type \p Enum: ns-3 >= 3.41 needs the enum type as a
 * template argument (EnumValue became a template), 3.37 deduces everything from the member.
 */
#if QDISC_LAB_NS3_AT_LEAST(3, 41)
#define QDISC_LAB_ENUM_ACCESSOR(Enum, member) MakeEnumAccessor<Enum>(member)
#else
#define QDISC_LAB_ENUM_ACCESSOR(Enum, member) MakeEnumAccessor(member)
#endif

namespace ns3
{
namespace qdisclab
{

/**
 * \ingroup qdisc-lab
 * \return the ns-3 version the module was compiled against, e.g. "3.37".
 */
inline std::string
Ns3Version()
{
    return std::to_string(QDISC_LAB_NS3_VERSION_MAJOR) + "." +
           std::to_string(QDISC_LAB_NS3_VERSION_MINOR);
}

/**
 * \ingroup qdisc-lab
 * Choose between the strong and the weak end-system model (RFC 1122) of a node's IPv4: with the
 * strong model, a packet is delivered locally only if addressed to the interface it arrived on,
 * so a router forwarding a packet does not search all its interfaces' addresses (the weak
 * model, ns-3's default, does, at a cost linear in the number of interfaces). ns-3 >= 3.41
 * calls it StrongEndSystemModel, 3.37 WeakEsModel (with the opposite meaning).
 * \param ipv4 the node's IPv4
 * \param strong true for the strong model
 */
inline void
SetStrongEndSystemModel(Ptr<Ipv4> ipv4, bool strong)
{
#if QDISC_LAB_NS3_AT_LEAST(3, 41)
    ipv4->SetAttribute("StrongEndSystemModel", BooleanValue(strong));
#else
    ipv4->SetAttribute("WeakEsModel", BooleanValue(!strong));
#endif
}

} // namespace qdisclab
} // namespace ns3

#endif /* QDISC_LAB_COMPAT_H */
