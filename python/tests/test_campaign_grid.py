# SPDX-License-Identifier: GPL-2.0-only
"""Campaign files: grid expansion, quick overrides, run keys and errors."""

import pytest

from qdisclab.campaign.spec import (
    CAMPAIGNS_DIR,
    CampaignError,
    format_value,
    load_campaign,
    loads_campaign,
    run_key,
)


def params_of(campaign):
    return [(run.params, run.seed) for run in campaign.runs()]


def test_factorial_times_zipped_times_fixed_in_order():
    campaign = loads_campaign(
        """
        program = "p"
        seeds = [1, 2]
        [fixed]
        simTime = 5
        [factors]
        a = [1, 2]
        b = [true, false]
        [[zip]]
        lo = [0.1, 0.2, 0.3]
        hi = [0.5, 0.6, 0.7]
        """
    )
    runs = campaign.runs()
    assert len(runs) == 2 * 2 * 3 * 2
    expected = [
        ({"simTime": 5, "a": a, "b": b, "lo": lo, "hi": hi}, seed)
        for seed in (1, 2)
        for a in (1, 2)
        for b in (True, False)
        for lo, hi in ((0.1, 0.5), (0.2, 0.6), (0.3, 0.7))
    ]
    assert params_of(campaign) == expected
    assert runs[0].args() == ["--simTime=5", "--a=1", "--b=true", "--lo=0.1", "--hi=0.5",
                              "--RngRun=1"]
    assert campaign.name == "p" and campaign.seeds == (1, 2)


def test_sub_grids_are_crossed_with_top_level_axes_and_unioned():
    campaign = loads_campaign(
        """
        name = "study"
        program = "p"
        replications = 2
        [fixed]
        simTime = 10
        [factors]
        window = [1, 2]
        [[grid]]
        name = "droptail"
        fixed = { queueDisc = "FIFO" }
        [[grid]]
        name = "red"
        fixed = { queueDisc = "RED", simTime = 20 }
        factors = { wait = [true, false] }
        zip = [{ minTh = [0.1, 0.2], maxTh = [0.3, 0.4] }]
        """
    )
    assert campaign.seeds == (1, 2)
    assert [g.name for g in campaign.grids] == ["droptail", "red"]
    assert [g.size() for g in campaign.grids] == [2, 8]
    runs = campaign.runs()
    assert len(runs) == (2 + 8) * 2
    droptail = [r for r in runs if r.grid == "droptail"]
    # DropTail runs do not vary (or even name) RED-only parameters.
    assert {tuple(r.params) for r in droptail} == {("simTime", "queueDisc", "window")}
    red = [r for r in runs if r.grid == "red"]
    assert {r.params["simTime"] for r in red} == {20}  # the sub-grid's value wins
    assert {(r.params["minTh"], r.params["maxTh"]) for r in red} == {(0.1, 0.3), (0.2, 0.4)}
    assert campaign.parameters() == ["simTime", "queueDisc", "window", "wait", "minTh", "maxTh"]


def test_union_removes_duplicate_runs():
    # Two one-factor-at-a-time sweeps share their centre point (a=2, b=20).
    campaign = loads_campaign(
        """
        program = "p"
        seeds = [7]
        [[grid]]
        name = "vary-a"
        fixed = { b = 20 }
        factors = { a = [1, 2, 3] }
        [[grid]]
        name = "vary-b"
        fixed = { a = 2 }
        factors = { b = [10, 20, 30] }
        """
    )
    assert sum(g.size() for g in campaign.grids) == 6
    runs = campaign.runs()
    assert len(runs) == 5
    assert len({r.key for r in runs}) == 5
    pairs = [(r.params["a"], r.params["b"]) for r in runs]
    assert pairs == [(1, 20), (2, 20), (3, 20), (2, 10), (2, 30)]
    assert runs[1].grid == "vary-a"  # the first sub-grid that has it keeps it


def test_sub_grids_may_have_their_own_seeds():
    text = """
        program = "p"
        seeds = [1, 2]
        [[grid]]
        name = "table"
        fixed = { a = 1 }
        seeds = [1, 2, 3, 4]
        [[grid]]
        name = "figure"
        factors = { a = [2, 3] }
        [[grid]]
        name = "more"
        fixed = { a = 9 }
        replications = 3
        [quick]
        seeds = [5]
        """
    campaign = loads_campaign(text)
    assert campaign.seeds == (1, 2) and campaign.all_seeds() == (1, 2, 3, 4)
    assert [g.seeds for g in campaign.grids] == [(1, 2, 3, 4), None, (1, 2, 3)]
    # Seeds outermost; each sub-grid runs only its own.
    assert params_of(campaign) == [
        ({"a": 1}, 1), ({"a": 2}, 1), ({"a": 3}, 1), ({"a": 9}, 1),
        ({"a": 1}, 2), ({"a": 2}, 2), ({"a": 3}, 2), ({"a": 9}, 2),
        ({"a": 1}, 3), ({"a": 9}, 3),
        ({"a": 1}, 4),
    ]
    # [quick]'s seeds replace every sub-grid's.
    quick = loads_campaign(text, quick=True)
    assert quick.all_seeds() == (5,) and all(g.seeds is None for g in quick.grids)
    assert params_of(quick) == [({"a": 1}, 5), ({"a": 2}, 5), ({"a": 3}, 5), ({"a": 9}, 5)]
    with pytest.raises(CampaignError, match=r"\[\[grid\]\] #1.seeds: expected a non-empty"):
        loads_campaign('program = "p"\n[[grid]]\nseeds = []\n')


def test_duplicate_values_and_seeds_run_once():
    campaign = loads_campaign('program = "p"\nseeds = [1, 1, 2]\n[factors]\na = [1, 1]\n')
    assert campaign.seeds == (1, 2)
    assert len(campaign.runs()) == 2


def test_run_key_depends_on_program_params_and_seed_not_order():
    key = run_key("p", {"a": 1, "b": True}, 1)
    assert key == run_key("p", {"b": True, "a": 1}, 1)
    assert len({key, run_key("q", {"a": 1, "b": True}, 1), run_key("p", {"a": 1, "b": True}, 2),
                run_key("p", {"a": 2, "b": True}, 1), run_key("p", {"a": 1, "b": "true"}, 1)}) == 5


def test_values_on_the_command_line():
    assert format_value(True) == "true" and format_value(False) == "false"
    assert format_value(0.04) == "0.04" and format_value(1e-05) == "1e-05"
    assert format_value(64000) == "64000" and format_value("1Mbps") == "1Mbps"


QUICK = """
program = "p"
seeds = [1, 2, 3]
timeout = 100
[fixed]
simTime = 30
[factors]
window = [1, 2, 3, 4]
[[zip]]
rate = ["1Mbps", "1Mbps", "0.5Mbps"]
delay = ["20ms", "10ms", "20ms"]
[quick]
seeds = [1]
timeout = 10
[quick.params]
simTime = 5
window = 2
rate = ["1Mbps"]
delay = ["20ms"]
"""


def test_quick_overrides():
    full = loads_campaign(QUICK)
    quick = loads_campaign(QUICK, quick=True)
    assert (full.mode, quick.mode) == ("full", "quick")
    assert len(full.runs()) == 4 * 3 * 3
    assert (quick.seeds, quick.timeout, full.timeout) == ((1,), 10.0, 100.0)
    assert params_of(quick) == [
        ({"simTime": 5, "window": 2, "rate": "1Mbps", "delay": "20ms"}, 1)
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('program = "p"\n[[zip]]\na = [1, 2]\nb = [1]\n', "equal lengths .*a has 2, b has 1"),
        ('program = "p"\nfactor = { a = [1] }\n', r"unknown key\(s\) factor"),
        ('program = "p"\n[[grid]]\nname = "g"\nfactor = { a = [1] }\n', r"unknown key\(s\) factor"),
        ('program = "p"\n[quick]\nseed = [1]\n', r"\[quick\]: unknown key\(s\) seed"),
        ('program = "p"\n[factors]\na = [1]\n[quick.params]\nb = [2]\n',
         r"unknown parameter\(s\) b"),
        ('program = "p"\n[[zip]]\na = [1, 2]\nb = [3, 4]\n[quick.params]\na = [1]\n',
         "override every member"),
        ('program = "p"\n[[zip]]\na = [1, 2]\nb = [3, 4]\n[quick.params]\na = [1]\nb = [3, 4]\n',
         "equal lengths"),
        ('program = "p"\n[factors]\na = [1]\n[[zip]]\na = [2]\n', "varied twice"),
        ('program = "p"\n[factors]\na = [1]\n[[grid]]\nfactors = { a = [2] }\n',
         "already varied at the top level"),
        ('program = "p"\n[[grid]]\nfixed = { a = 1 }\nfactors = { a = [2] }\n',
         "both fixed and varied"),
        ('program = "p"\n[factors]\nRngRun = [1, 2]\n', "the engine sets it"),
        ('program = "p"\n[factors]\na = []\n', "empty list"),
        ('program = "p"\n[factors]\na = [[1]]\n', "booleans, numbers or strings"),
        ('program = "p"\nseeds = [1, -2]\n', "integers from 0 to"),
        ('program = "p"\nseeds = [1]\nreplications = 2\n', "either seeds or replications"),
        ('program = "p"\ntimeout = 0\n', "above 0"),
        ('name = "x"\n', "'program'"),
        ('program = "p"\n[factors\n', "invalid TOML"),
    ],
)
def test_errors(text, message):
    with pytest.raises(CampaignError, match=message):
        loads_campaign(text)


def test_red_vs_droptail_campaign():
    full = load_campaign("red-vs-droptail")
    assert full.source == CAMPAIGNS_DIR / "red-vs-droptail.toml"
    assert full.program == "red-vs-droptail"
    per_seed = len(full.runs()) // len(full.seeds)
    assert len(full.runs()) % len(full.seeds) == 0
    assert per_seed == 5 * 5 * 4 * (1 + 10 * 2 * 2) == 4100
    # The calibrated scenario (doc/reproductions/red-vs-droptail.rst), six seeds: the best pair
    # chosen on 1-3, judged on 4-6.
    assert full.seeds == (1, 2, 3, 4, 5, 6)
    assert {(r.params["nTcp"], r.params["udpOn"], r.params["udpOff"], r.params["accessRate"])
            for r in full.runs()} == {(8, 3, 1, "100Mbps")}
    red = [r for r in full.runs() if r.params["queueDisc"] == "RED" and r.seed == full.seeds[0]]
    assert len({(r.params["minTh"], r.params["maxTh"]) for r in red}) == 10
    droptail = [r for r in full.runs() if r.params["queueDisc"] == "FIFO"]
    assert not any("minTh" in r.params or "wait" in r.params for r in droptail)
    links = {(r.params["bottleneckRate"], r.params["bottleneckDelay"]) for r in full.runs()}
    assert links == {("1Mbps", "20ms"), ("1Mbps", "10ms"), ("1Mbps", "30ms"), ("0.5Mbps", "20ms")}
    quick = load_campaign("red-vs-droptail", quick=True)
    assert len(quick.runs()) == 2 * (9 + 9 * 3)
    assert {r.params["simTime"] for r in quick.runs()} == {10}
    assert set(full.metrics) >= {"tcp_goodput_mbps", "udp_goodput_mbps", "total_goodput_mbps"}


def test_unknown_campaign_name_lists_known_ones():
    with pytest.raises(CampaignError, match="known: .*red-vs-droptail"):
        load_campaign("no-such-campaign")


def test_campaign_names_its_ns3_build(tmp_path):
    """`ns3` chooses the build a campaign runs on; anything but a flavour is an error."""
    from qdisclab.campaign.spec import CampaignError, load_campaign

    good = tmp_path / "good.toml"
    good.write_text('program = "p"\nns3 = "wheel"\n[factors]\nx = [1, 2]\n')
    assert load_campaign(str(good)).ns3 == "wheel"
    default = tmp_path / "default.toml"
    default.write_text('program = "p"\n[factors]\nx = [1]\n')
    assert load_campaign(str(default)).ns3 == "system"
    optimized = tmp_path / "optimized.toml"
    optimized.write_text('program = "p"\nns3 = "optimized"\n[factors]\nx = [1]\n')
    assert load_campaign(str(optimized)).ns3 == "optimized"
    ns324 = tmp_path / "ns324.toml"
    ns324.write_text('program = "p"\nns3 = "ns-3.24"\n[factors]\nx = [1]\n')
    assert load_campaign(str(ns324)).ns3 == "ns-3.24"
    bad = tmp_path / "bad.toml"
    bad.write_text('program = "p"\nns3 = "3.44"\n[factors]\nx = [1]\n')
    with pytest.raises(CampaignError, match=r'ns3: expected one of "system", "wheel", '
                                            r'"optimized", "ns2", "ns-3.24", got \'3.44\''):
        load_campaign(str(bad))
