"""The playtest summary is typed records: frozen, read by attribute, serialized once to JSON
in the key order the JSON report has always had."""

from __future__ import annotations

import dataclasses
import json

import pytest

from cardkit.playtest.records import Interval, PlaytestResult, Setup, Unswitchable, to_json
from cardkit.playtest.sweep import Sweep, Tally, summarize
from cardkit.rules.protocol import Aggregate, ChanceMode, Cooperation, EngineInfo, Information, Metric, MetricKind

INFO = EngineInfo("test", 1, 2, Cooperation.COMPETITIVE, Information.PERFECT, ChanceMode.SAMPLED,
                  metrics=(Metric("lost", MetricKind.COUNT, Aggregate.MEAN, share_with="kept"),
                           Metric("kept", MetricKind.COUNT, Aggregate.MEAN),
                           Metric("depth", MetricKind.COUNT, Aggregate.HISTOGRAM),
                           Metric("jam", MetricKind.FLAG, Aggregate.SHARE)),
                  seats=("north", "south"))


def _summary():
    t = Tally(2, "random", INFO, games=10, wins=4, losses=5, draws=1, sums={"lost": 7, "kept": 3},
              hists={"depth": {2: 3, 1: 7}}, nonzero={"jam": 2}, seat_wins=[4, 5], seat_draws=[1, 1],
              seat_both=[0, 0])
    t.rounds_win, t.rounds_loss = {3: 4}, {5: 6}
    t.fired = {"gun": 1}
    return summarize(Sweep({(2, "random"): t}), (0.0, 1.0), {"gun", "dud"})


def test_a_setup_is_frozen_and_read_by_attribute():
    summary = _summary()
    (s,) = summary.setups
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.verdict = "playable"  # type: ignore[misc]
    assert s.verdict == summary.ladder[0].verdict == "skill untested"
    assert s.figures == {"lost_mean": 0.7, "kept_mean": 0.3, "depth": {1: 7, 2: 3}, "jam_games": 2}
    assert s.shares == {"lost_share": 0.7} and s.draws == 1
    assert [r.name for r in s.seats or ()] == ["north", "south"]
    assert summary.coverage.never_fired == ("dud",)


def test_the_json_keeps_the_report_key_order():
    summary = _summary()
    result = PlaytestResult("s", 1, ("random",), summary, {"rate": 0.5}, (0.1, 0.9),
                            impact=(Unswitchable("dud", "no switch"),), teams=(), engine="pure")
    out = json.loads(json.dumps(result.to_json()))
    assert list(out) == ["set", "seed", "agents", "setups", "coverage", "ladder", "metrics", "reference", "band",
                         "impact", "teams", "elapsed_s", "engine"]
    (s,) = out["setups"]
    assert list(s) == ["players", "agent", "games", "completed", "completion_ci95", "wins", "win_rate",
                       "win_rate_ci95", "rounds", "lost_mean", "kept_mean", "depth", "jam_games", "survival_by_round",
                       "rounds_histogram", "defeat_causes", "violations", "failures", "lost_share", "draws", "seats",
                       "first_seat_advantage", "verdict"]
    assert s["depth"] == {"1": 7, "2": 3} and s["win_rate_ci95"] == [summary.setups[0].win_rate_ci95.lo,
                                                                     summary.setups[0].win_rate_ci95.hi]
    assert out["impact"] == [{"card": "dud", "ablatable": False, "note": "no switch"}]
    assert list(out["ladder"][0]["agents"][0])[-3:] == ["lost_share", "completed", "violations"]


def test_only_report_values_serialize():
    assert to_json({"a": (Interval(0.1, 0.2),)}) == {"a": [[0.1, 0.2]]}
    with pytest.raises(TypeError, match="not a report value"):
        to_json({"a": object()})
    assert Setup.__dataclass_params__.frozen  # type: ignore[attr-defined]
