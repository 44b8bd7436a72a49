# SPDX-License-Identifier: GPL-2.0-only
"""Runs the built dscp-marking example (if present): its metrics, and the DSCPs in its pcap."""

import collections
import ipaddress
import struct
import subprocess
from pathlib import Path

from qdisclab.metrics import load_metrics
from built_examples import example, needs_build

BINARY = example("dscp-marking")
pytestmark = needs_build(BINARY)

LINKTYPE_PPP = 9
PPP_IPV4 = 0x0021
COLORS = ("green", "yellow", "red")


def pcap_dscp_bytes(path: Path) -> dict[tuple[str, int], int]:
    """IPv4 bytes per (source address, DSCP) in a pcap of a point-to-point link."""
    data = path.read_bytes()
    magic, _, _, _, _, _, link = struct.unpack("<IHHiIII", data[:24])
    assert magic == 0xA1B2C3D4 and link == LINKTYPE_PPP
    counts: dict[tuple[str, int], int] = collections.Counter()
    offset = 24
    while offset < len(data):
        _, _, captured, _ = struct.unpack("<IIII", data[offset:offset + 16])
        frame = data[offset + 16:offset + 16 + captured]
        offset += 16 + captured
        if struct.unpack(">H", frame[:2])[0] != PPP_IPV4:
            continue
        ip = frame[2:]
        total_length = struct.unpack(">H", ip[2:4])[0]
        counts[(str(ipaddress.IPv4Address(ip[12:16])), ip[1] >> 2)] += total_length
    return counts


def test_marks_are_in_the_pcap(tmp_path):
    output = tmp_path / "metrics.json"
    subprocess.run([str(BINARY), "--quick", "--pcap=dscp-marking", f"--output={output}"],
                   check=True, timeout=300, capture_output=True, cwd=tmp_path)
    doc = load_metrics(output)
    assert doc["program"] == "dscp-marking" and doc["params"]["simTime"] == 5
    metrics = doc["metrics"]
    (pcap,) = tmp_path.glob("dscp-marking-*.pcap")
    seen = pcap_dscp_bytes(pcap)
    # Hosts 10.1.<i+1>.1; flow i's profile marks AF<i+1>1..3; host 4 has no profile.
    for flow in range(3):
        source = f"10.1.{flow + 1}.1"
        for precedence, color in enumerate(COLORS, start=1):
            dscp = 8 * (flow + 1) + 2 * precedence
            assert seen.pop((source, dscp), 0) == metrics[f"flow{flow}_{color}_bytes"], (flow,
                                                                                       color)
    assert seen.pop(("10.1.4.1", 0)) == metrics["unmatched_bytes"]
    assert not seen, f"unexpected (source, DSCP) pairs: {seen}"
    # Flow 0 (2 Mb/s from 1 s to 5 s, 1 Mb/s profile, 10000 B bucket): rate x T + bucket IN,
    # T the 4 s less under one gap between packets at each end (the test suite checks the
    # one-packet bound with the exact T).
    expected = 1e6 / 8 * 4 + 10000
    assert expected - 2 * 1028 < metrics["flow0_green_bytes"] <= expected
    assert metrics["flow0_red_bytes"] == 0
    # The trTCM flow (1.5 Mb/s, CIR 0.5, PIR 1 Mb/s) is about a third of each colour.
    tr = [metrics[f"flow2_{color}_bytes"] for color in COLORS]
    assert all(abs(x / sum(tr) - 1 / 3) < 0.05 for x in tr)
