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
 * QDISC_LAB_NS3_VERSION_MAJOR and QDISC_LAB_NS3_VERSION_MINOR name the ns-3 the module was
 * built against. A CMake build (standalone or in an ns-3 tree) writes them into the generated
 * header ns3/qdisc-lab-version.h (cmake/qdisc-lab-compat.cmake), installed with the others, so a
 * program including the module's headers needs no flags; the waf build (wscript) passes them as
 * -D flags to the module and everything in the tree that uses it.
 *
 * Supported: ns-3.35 (the last waf release, built with the module's wscript), 3.37 and newer.
 * What 3.35 lacks and this header bridges: lambdas as Callbacks and as simulator events
 * (MakeFunctorCallback, Schedule, ScheduleNow). SlotQueue reaches QueueBase's counters (private
 * in 3.35) the same way on every version, so it needs nothing here.
 *
 * Differences between 3.37 and 3.44 that the module avoids rather than wraps (see
 * doc/qdisc-lab.rst, "Supported ns-3 versions"):
 *  - TestCase durations and TestSuite types became scoped enums; tests use the defaults.
 *  - EventId::IsRunning was deprecated; code uses !EventId::IsExpired().
 *  - GetInstanceTypeId is not overridden.
 */

#include "ns3/boolean.h"
#include "ns3/bulk-send-application.h"
#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/ipv4.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/tcp-tx-buffer.h"

#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#ifndef QDISC_LAB_NS3_VERSION_MAJOR // waf passes it as a -D flag; CMake generates the header
#include "ns3/qdisc-lab-version.h"
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

/**
 * True when ns-3's TcpTxBuffer::NextSeg offers a zero-byte segment once the sent, unacknowledged
 * data exactly fills the peer's receive window (it tests m_sentSize <= rWnd; ns-3.44 tests <).
 * Fixed upstream after ns-3.40 (whose source still has <=); 3.44 is the first release this
 * module verified. See GuardedReceiveWindow.
 */
#define QDISC_LAB_NS3_NEXTSEG_FULL_WINDOW_BUG (!QDISC_LAB_NS3_AT_LEAST(3, 44))

/**
 * True when ns-3's Callback and Simulator::Schedule take a lambda (or any callable object)
 * directly: ns-3 >= 3.36 (Callback became a wrapper of std::function). ns-3 <= 3.35 (the waf
 * era) takes function and member-function pointers only; MakeFunctorCallback, Schedule and
 * ScheduleNow below give lambdas to both.
 */
#define QDISC_LAB_NS3_CALLBACK_TAKES_LAMBDA QDISC_LAB_NS3_AT_LEAST(3, 36)

/**
 * True when RngSeedManager::ResetNextStreamIndex exists, so that a process can run several
 * simulations one after another, each numbering its automatically assigned random streams from
 * 0 like a fresh process (PointBatch). ns-3.37 lacks it; 3.44 is the first release this module
 * verified with it.
 */
#define QDISC_LAB_NS3_RESETS_STREAM_INDEX QDISC_LAB_NS3_AT_LEAST(3, 44)

/**
 * The header that declares Ipv4GlobalRouting, for code that inspects a node's global routing
 * (\#include QDISC_LAB_IPV4_GLOBAL_ROUTING_HEADER). Up to ns-3.44 it is ns3/ipv4-global-routing.h;
 * ns-3.48 has only ns3/global-routing.h, where the class template GlobalRouting<T> covers IPv4 and
 * IPv6 and Ipv4GlobalRouting is its typedef for Ipv4RoutingProtocol. 3.48 is the first release
 * this module verified without the old header.
 */
#if QDISC_LAB_NS3_AT_LEAST(3, 48)
#define QDISC_LAB_IPV4_GLOBAL_ROUTING_HEADER "ns3/global-routing.h"
#else
#define QDISC_LAB_IPV4_GLOBAL_ROUTING_HEADER "ns3/ipv4-global-routing.h"
#endif

#if QDISC_LAB_NS3_NEXTSEG_FULL_WINDOW_BUG
#include "ns3/abort.h"
#include "ns3/simple-ref-count.h"
#include "ns3/tcp-socket-base.h"
#endif

#if !QDISC_LAB_NS3_CALLBACK_TAKES_LAMBDA
#include "ns3/event-impl.h"
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

namespace compat
{

/**
 * The signature of the callable type \p F (a lambda) as an ns-3 Callback type: Callback<R,
 * Args...> for an F whose (only) operator() is R(Args...), const or not.
 */
template <typename F>
struct CallbackOf : CallbackOf<decltype(&F::operator())>
{
};

/// \copydoc CallbackOf
template <typename F, typename R, typename... Args>
struct CallbackOf<R (F::*)(Args...) const>
{
    using Type = Callback<R, Args...>; //!< the Callback type
};

/// \copydoc CallbackOf
template <typename F, typename R, typename... Args>
struct CallbackOf<R (F::*)(Args...)>
{
    using Type = Callback<R, Args...>; //!< the Callback type
};

/// The Callback type \p Cb, given (the counterpart of CallbackOf).
template <typename Cb>
struct GivenCallback
{
    using Type = Cb; //!< the Callback type
};

/// The Callback type MakeFunctorCallback<Cb>(f) returns: Cb, or f's own signature for void.
template <typename Cb, typename F>
using FunctorCallbackType =
    typename std::conditional_t<std::is_void_v<Cb>, CallbackOf<F>, GivenCallback<Cb>>::Type;

#if !QDISC_LAB_NS3_CALLBACK_TAKES_LAMBDA
/**
 * A callable object for ns-3 <= 3.35's FunctorCallbackImpl, which compares the functors of two
 * callbacks with != (lambdas have no such operator): copies share the callable, and two are
 * equal when they share it.
 */
template <typename F>
class SharedFunctor
{
  public:
    /// \param f the callable
    explicit SharedFunctor(F f)
        : m_f(std::make_shared<F>(std::move(f)))
    {
    }

    /**
     * Call the callable.
     * \param args its arguments
     * \return what it returns
     */
    template <typename... Args>
    decltype(auto) operator()(Args&&... args) const
    {
        return (*m_f)(std::forward<Args>(args)...);
    }

    /**
     * \param other another SharedFunctor
     * \return true unless both share one callable
     */
    bool operator!=(const SharedFunctor& other) const
    {
        return m_f != other.m_f;
    }

  private:
    std::shared_ptr<F> m_f; //!< the callable
};

/**
 * A simulator event that calls a callable object (ns-3 <= 3.35's MakeEvent takes function and
 * member-function pointers only).
 */
template <typename F>
class FunctorEvent : public EventImpl
{
  public:
    /// \param f the callable, called with no argument
    explicit FunctorEvent(F f)
        : m_f(std::move(f))
    {
    }

  private:
    void Notify() override
    {
        m_f();
    }

    F m_f; //!< the callable
};
#endif

} // namespace compat

/**
 * \ingroup qdisc-lab
 * An ns-3 Callback that calls a lambda (or another callable object), on every ns-3 version:
 * ns-3 >= 3.36 converts the lambda itself; ns-3 <= 3.35 only through Callback's functor
 * constructor, with functors that compare with != (compat::SharedFunctor).
 *
 * \code
 * socket->SetRecvCallback(qdisclab::MakeFunctorCallback([](Ptr<Socket> s) { ... }));
 * cmd.AddValue(name, help, qdisclab::MakeFunctorCallback<Callback<bool, std::string>>(f), v);
 * \endcode
 * \tparam Cb the Callback type to return; by default (void) the lambda's own signature, which
 *         deduction needs to be unique (no generic lambda, no overloaded operator())
 * \param f the callable
 * \return the callback
 */
template <typename Cb = void, typename F>
compat::FunctorCallbackType<Cb, F>
MakeFunctorCallback(F f)
{
#if QDISC_LAB_NS3_CALLBACK_TAKES_LAMBDA
    return compat::FunctorCallbackType<Cb, F>(std::move(f));
#else
    return compat::FunctorCallbackType<Cb, F>(compat::SharedFunctor<F>(std::move(f)), true, true);
#endif
}

/**
 * \ingroup qdisc-lab
 * Simulator::Schedule for a lambda (or another callable object taking no argument), on every
 * ns-3 version (ns-3 <= 3.35 schedules function and member-function pointers only).
 * \param delay the delay from now
 * \param f the callable
 * \return the event's id
 */
template <typename F>
EventId
Schedule(const Time& delay, F f)
{
#if QDISC_LAB_NS3_CALLBACK_TAKES_LAMBDA
    return Simulator::Schedule(delay, std::move(f));
#else
    return Simulator::Schedule(delay,
                               Ptr<EventImpl>(new compat::FunctorEvent<F>(std::move(f)), false));
#endif
}

/**
 * \ingroup qdisc-lab
 * Simulator::ScheduleNow for a lambda (or another callable object taking no argument), on every
 * ns-3 version (see Schedule).
 * \param f the callable
 * \return the event's id
 */
template <typename F>
EventId
ScheduleNow(F f)
{
#if QDISC_LAB_NS3_CALLBACK_TAKES_LAMBDA
    return Simulator::ScheduleNow(std::move(f));
#else
    return Simulator::ScheduleNow(Ptr<EventImpl>(new compat::FunctorEvent<F>(std::move(f)), false));
#endif
}

#if QDISC_LAB_NS3_NEXTSEG_FULL_WINDOW_BUG
/**
 * \ingroup qdisc-lab
 * The receive window a TCP sender's TcpTxBuffer sees, adjusted so that ns-3 < 3.44's NextSeg
 * decides like 3.44's (see GuardedReceiveWindow).
 */
class FullWindowGuard : public SimpleRefCount<FullWindowGuard>
{
  public:
    /**
     * \param txBuffer the sender's buffer (not owned: it owns this guard through its callback)
     * \param rWnd the peer's receive window in bytes
     */
    FullWindowGuard(const TcpTxBuffer* txBuffer, Callback<uint32_t> rWnd)
        : m_txBuffer(txBuffer),
          m_rWnd(rWnd)
    {
    }

    /**
     * \return the receive window in bytes for NextSeg: rWnd - 1 when the sent, unacknowledged
     * bytes equal a non-zero rWnd, else rWnd
     */
    uint32_t RWnd() const
    {
        const uint32_t rWnd = m_rWnd();
        // TcpTxBuffer::BytesInFlight() = sent - SACKed - lost + retransmitted bytes.
        const uint32_t sent = m_txBuffer->BytesInFlight() + m_txBuffer->GetSacked() +
                              m_txBuffer->GetLost() - m_txBuffer->GetRetransmitsCount();
        return (sent == rWnd && rWnd > 0) ? rWnd - 1 : rWnd;
    }

  private:
    const TcpTxBuffer* m_txBuffer; //!< the guarded sender's buffer
    Callback<uint32_t> m_rWnd;     //!< the peer's receive window in bytes
};

/**
 * \ingroup qdisc-lab
 * A TCP socket's receive window (RCV.WND of its peer), followed through its RWND trace source
 * (TcpSocketBase::GetRWnd is not public).
 */
class ReceiveWindowTracker : public SimpleRefCount<ReceiveWindowTracker>
{
  public:
    /**
     * The RWND trace sink.
     * \param oldValue the previous window in bytes (unused)
     * \param newValue the window in bytes
     */
    void Changed([[maybe_unused]] uint32_t oldValue, uint32_t newValue)
    {
        m_rWnd = newValue;
    }

    /**
     * \return the window in bytes
     */
    uint32_t Get() const
    {
        // NextSeg, the only reader, runs only while the window is open (SendPendingData's
        // AvailableWindow() > 0), so a zero here means the tracker missed the handshake's window.
        NS_ABORT_MSG_IF(m_rWnd == 0,
                        "GuardTcpSocketFullWindow: installed after the socket learnt its peer's "
                        "receive window; install it before Connect");
        return m_rWnd;
    }

  private:
    uint32_t m_rWnd{0}; //!< the window in bytes
};
#endif

/**
 * \ingroup qdisc-lab
 * The receive-window callback to give a TCP sender's TcpTxBuffer (TcpTxBuffer::SetRWndCallback)
 * so that its NextSeg decides like ns-3.44's.
 *
 * ns-3 < 3.44 (Debian's 3.37) crashes when the sent, unacknowledged data exactly fills the peer's
 * receive window and loss recovery has left room in the congestion window (SACKed or lost bytes no
 * longer count as in flight): TcpTxBuffer::NextSeg's rule (2) tests m_sentSize <= rWnd and offers a
 * segment of rWnd - m_sentSize = 0 bytes, TcpTxBuffer::CopyFromSequence returns no item for it,
 * and TcpSocketBase::SendDataPacket dereferences that (SIGSEGV in TcpRateLinux::SkbSent; the
 * NS_ASSERT that would name it is compiled out of Debian's build). ns-3.44 tests m_sentSize < rWnd
 * and offers nothing then.
 *
 * The window is NextSeg's only use of this callback: "if (sent <= rWnd()) offer at most rWnd() -
 * sent new bytes". The returned callback answers rWnd - 1 when sent == rWnd, so the test fails and
 * NextSeg offers nothing, as 3.44's does; otherwise it answers rWnd, so the test and the segment's
 * size are unchanged. (With rWnd == 0 nothing can be changed, but SendPendingData does not call
 * NextSeg then.) On ns-3 >= 3.44 it returns \p rWnd itself.
 * \param txBuffer the sender's buffer
 * \param rWnd the peer's receive window in bytes
 * \return the callback for txBuffer->SetRWndCallback
 */
inline Callback<uint32_t>
GuardedReceiveWindow([[maybe_unused]] Ptr<TcpTxBuffer> txBuffer, Callback<uint32_t> rWnd)
{
#if QDISC_LAB_NS3_NEXTSEG_FULL_WINDOW_BUG
    return MakeCallback(&FullWindowGuard::RWnd,
                        Create<FullWindowGuard>(PeekPointer(txBuffer), rWnd));
#else
    return rWnd;
#endif
}

/**
 * \ingroup qdisc-lab
 * Keep a TCP socket clear of ns-3 < 3.44's zero-byte-segment crash (GuardedReceiveWindow): its
 * TcpTxBuffer gets the guarded window, followed through the socket's RWND trace. A run that does
 * not crash is unchanged. Does nothing on ns-3 >= 3.44.
 * \param socket a TCP socket (TcpSocketBase) that has not connected yet
 */
inline void
GuardTcpSocketFullWindow([[maybe_unused]] Ptr<Socket> socket)
{
#if QDISC_LAB_NS3_NEXTSEG_FULL_WINDOW_BUG
    Ptr<TcpSocketBase> tcp = DynamicCast<TcpSocketBase>(socket);
    NS_ABORT_MSG_UNLESS(tcp, "GuardTcpSocketFullWindow: not a TCP socket (TcpSocketBase)");
    Ptr<ReceiveWindowTracker> tracker = Create<ReceiveWindowTracker>();
    tcp->TraceConnectWithoutContext("RWND", MakeCallback(&ReceiveWindowTracker::Changed, tracker));
    Ptr<TcpTxBuffer> txBuffer = tcp->GetTxBuffer();
    txBuffer->SetRWndCallback(
        GuardedReceiveWindow(txBuffer, MakeCallback(&ReceiveWindowTracker::Get, tracker)));
#endif
}

/**
 * \ingroup qdisc-lab
 * GuardTcpSocketFullWindow for a BulkSendApplication's socket, which the application creates and
 * connects when it starts. Call before Simulator::Run. Does nothing on ns-3 >= 3.44.
 * \param sender the application
 * \param start its start time
 */
inline void
GuardBulkSendFullWindow([[maybe_unused]] Ptr<BulkSendApplication> sender,
                        [[maybe_unused]] Time start)
{
#if QDISC_LAB_NS3_NEXTSEG_FULL_WINDOW_BUG
    // The application's own start event, at the same time, is queued when the simulation begins,
    // so after this one; an event this one schedules for "now" runs after it, when the socket
    // exists and has sent its SYN, and long before the SYN-ACK brings the peer's window.
    Schedule(start, [sender]() {
        ScheduleNow([sender]() {
            NS_ABORT_MSG_UNLESS(sender->GetSocket(),
                                "GuardBulkSendFullWindow: the application has not started");
            GuardTcpSocketFullWindow(sender->GetSocket());
        });
    });
#endif
}

} // namespace qdisclab
} // namespace ns3

#endif /* QDISC_LAB_COMPAT_H */
