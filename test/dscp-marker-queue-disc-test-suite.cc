// SPDX-License-Identifier: GPL-2.0-only
#include "ns3/dscp-marker-queue-disc.h"
