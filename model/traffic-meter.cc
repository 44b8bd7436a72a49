/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "traffic-meter.h"

namespace ns3
{

const char*
TrafficMeter::ColorName(Color color)
{
    switch (color)
    {
    case GREEN:
        return "green";
    case YELLOW:
        return "yellow";
    case RED:
        return "red";
    }
    return "invalid";
}

} // namespace ns3
