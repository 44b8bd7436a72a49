/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "dscp-marker-profiles.h"

#include "sr-tcm-meter.h"
#include "token-bucket-meter.h"
#include "tr-tcm-meter.h"
#include "value-text.h"

#include "ns3/abort.h"

namespace ns3
{

namespace
{

/// Every key a profile rule takes, for error messages.
const std::string KEYS = std::string(FlowMatch::KEYS) + ", meter, cir, cbs, ebs, pir, pbs or af";

/// The largest bucket size, as text.
const std::string MAX_SIZE = std::to_string(TokenBucket::MAX_SIZE);

} // namespace

DscpMarkerProfiles::DscpMarkerProfiles(const std::string& text, const std::string& what)
{
    try
    {
        Parse(text, what);
    }
    catch (const FlowMatch::RuleError& error)
    {
        NS_FATAL_ERROR(error.what());
    }
}

std::string
DscpMarkerProfiles::Check(const std::string& text, const std::string& what)
{
    try
    {
        DscpMarkerProfiles().Parse(text, what);
    }
    catch (const FlowMatch::RuleError& error)
    {
        return error.what();
    }
    return "";
}

void
DscpMarkerProfiles::Parse(const std::string& text, const std::string& what)
{
    for (const FlowMatch::RuleText& rule : FlowMatch::SplitRules(text, what, KEYS))
    {
        Profile profile;
        profile.text = rule.text;
        // Meter parameters are read first and checked against the meter once it is known.
        const std::pair<std::string, std::string>* cir = nullptr;
        const std::pair<std::string, std::string>* cbs = nullptr;
        const std::pair<std::string, std::string>* ebs = nullptr;
        const std::pair<std::string, std::string>* pir = nullptr;
        const std::pair<std::string, std::string>* pbs = nullptr;
        for (const auto& field : rule.fields)
        {
            const auto& [key, value] = field;
            const std::string written = key + "=" + value;
            unsigned long number = 0;
            if (key == "meter")
            {
                if (value == "tb")
                {
                    profile.meter = TOKEN_BUCKET;
                }
                else if (value == "srtcm")
                {
                    profile.meter = SR_TCM;
                }
                else if (value == "trtcm")
                {
                    profile.meter = TR_TCM;
                }
                else
                {
                    FlowMatch::Fail(what, rule, written, "tb, srtcm or trtcm");
                }
            }
            else if (key == "af")
            {
                if (!FlowMatch::ParseNumber(value, 4, number) || number < 1)
                {
                    FlowMatch::Fail(what, rule, written, "an AF class 1-4");
                }
                profile.afClass = static_cast<uint8_t>(number);
            }
            else if (key == "cir")
            {
                cir = &field;
            }
            else if (key == "cbs")
            {
                cbs = &field;
            }
            else if (key == "ebs")
            {
                ebs = &field;
            }
            else if (key == "pir")
            {
                pir = &field;
            }
            else if (key == "pbs")
            {
                pbs = &field;
            }
            else if (!FlowMatch::IsKey(key))
            {
                FlowMatch::Fail(what, rule, written, "key " + KEYS);
            }
            else if (const std::string expected = profile.match.Set(key, value); !expected.empty())
            {
                FlowMatch::Fail(what, rule, written, expected);
            }
        }

        const char* meterName = profile.meter == TOKEN_BUCKET ? "tb"
                                : profile.meter == SR_TCM     ? "srtcm"
                                                              : "trtcm";
        // A rate: required, > 0.
        const auto readRate = [&](const std::pair<std::string, std::string>* field,
                                  const std::string& name) {
            if (!field)
            {
                FlowMatch::Fail(what,
                                rule,
                                name,
                                std::string("meter=") + meterName + " to give " + name +
                                    "=RATE, e.g. " + name + "=1Mbps");
            }
            // Read whole: ns-3's DataRate parser reads "1..5Mbps" as 1 Mb/s.
            DataRate rate;
            if (!qdisclab::ParseRateText(field->second, rate).empty())
            {
                FlowMatch::Fail(what,
                                rule,
                                field->first + "=" + field->second,
                                "a rate > 0 such as 2Mbps, 500kb/s or 125000B/s, at most "
                                "18446744073709551615 bit/s");
            }
            return rate;
        };
        // A size in bytes: required, min .. MAX_SIZE.
        const auto readSize = [&](const std::pair<std::string, std::string>* field,
                                  const std::string& name,
                                  unsigned long min) {
            if (!field)
            {
                FlowMatch::Fail(what,
                                rule,
                                name,
                                std::string("meter=") + meterName + " to give " + name + "=BYTES");
            }
            unsigned long bytes = 0;
            if (!FlowMatch::ParseNumber(field->second, TokenBucket::MAX_SIZE, bytes) || bytes < min)
            {
                FlowMatch::Fail(what,
                                rule,
                                field->first + "=" + field->second,
                                "a size in bytes from " + std::to_string(min) + " to " + MAX_SIZE);
            }
            return static_cast<uint32_t>(bytes);
        };
        // A parameter the meter does not take.
        const auto refuse = [&](const std::pair<std::string, std::string>* field,
                                const std::string& forMeters) {
            if (field)
            {
                FlowMatch::Fail(what,
                                rule,
                                field->first + "=" + field->second,
                                field->first + " only with " + forMeters +
                                    ", not meter=" + meterName);
            }
        };

        profile.cir = readRate(cir, "cir");
        switch (profile.meter)
        {
        case TOKEN_BUCKET:
            profile.cbs = readSize(cbs, "cbs", 1);
            refuse(ebs, "meter=srtcm");
            refuse(pir, "meter=trtcm");
            refuse(pbs, "meter=trtcm");
            break;
        case SR_TCM:
            profile.cbs = readSize(cbs, "cbs", 0);
            profile.ebs = readSize(ebs, "ebs", 0);
            refuse(pir, "meter=trtcm");
            refuse(pbs, "meter=trtcm");
            if (profile.cbs == 0 && profile.ebs == 0)
            {
                FlowMatch::Fail(what, rule, "cbs, ebs", "cbs + ebs > 0 (RFC 2697)");
            }
            break;
        case TR_TCM:
            profile.cbs = readSize(cbs, "cbs", 1);
            profile.pir = readRate(pir, "pir");
            profile.pbs = readSize(pbs, "pbs", 1);
            refuse(ebs, "meter=srtcm");
            if (profile.pir < profile.cir)
            {
                FlowMatch::Fail(what,
                                rule,
                                pir->first + "=" + pir->second,
                                "pir >= cir (RFC 2698)");
            }
            break;
        }
        m_profiles.push_back(profile);
    }
}

std::size_t
DscpMarkerProfiles::GetN() const
{
    return m_profiles.size();
}

const DscpMarkerProfiles::Profile&
DscpMarkerProfiles::Get(std::size_t i) const
{
    NS_ABORT_MSG_UNLESS(i < m_profiles.size(),
                        "DscpMarkerProfiles: profile " << i << " out of range [0, "
                                                       << m_profiles.size() << ")");
    return m_profiles[i];
}

int32_t
DscpMarkerProfiles::Find(const FlowKey& key) const
{
    for (std::size_t i = 0; i < m_profiles.size(); ++i)
    {
        if (m_profiles[i].match.Matches(key))
        {
            return static_cast<int32_t>(i);
        }
    }
    return -1;
}

std::unique_ptr<TrafficMeter>
DscpMarkerProfiles::MakeMeter(std::size_t i, Time now) const
{
    const Profile& p = Get(i);
    switch (p.meter)
    {
    case TOKEN_BUCKET:
        return std::make_unique<TokenBucketMeter>(p.cir, p.cbs, now);
    case SR_TCM:
        return std::make_unique<SrTcmMeter>(p.cir, p.cbs, p.ebs, now);
    case TR_TCM:
        return std::make_unique<TrTcmMeter>(p.cir, p.cbs, p.pir, p.pbs, now);
    }
    NS_FATAL_ERROR("DscpMarkerProfiles: unknown meter type " << unsigned(p.meter));
    return nullptr;
}

} // namespace ns3
