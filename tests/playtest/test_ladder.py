"""The skill ladder and its verdict, card impact through the CLI, and the report pages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardkit.playtest.ladder import DEFAULT_BAND, diff_ci
from cardkit.playtest.records import LadderStep
from cardkit.playtest.sweep import Sweep, Tally, summarize
from cardkit.rules.protocol import Aggregate, Cooperation, ChanceMode, EngineInfo, Information, Metric, MetricKind
from tests.conftest import REPO

# a game declaring a count shared with another (Death Angel's casualties among casualties and survivors)
INFO = EngineInfo("test", 1, 6, Cooperation.COOPERATIVE, Information.PERFECT, ChanceMode.SAMPLED,
                  metrics=(Metric("lost", MetricKind.COUNT, Aggregate.MEAN, share_with="kept"),
                           Metric("kept", MetricKind.COUNT, Aggregate.MEAN)))


def _tally(players: int, agent: str, games: int, wins: int, done: int | None = None, violations: int = 0) -> Tally:
    done = games if done is None else done
    t = Tally(players, agent, INFO, games=games, wins=wins, losses=done - wins, violations=violations,
              sums={"lost": 3 * (games - wins), "kept": 3 * games + 3 * wins})
    t.rounds_win = {12: wins} if wins else {}
    t.rounds_loss = {8: done - wins} if done - wins else {}
    t.fired = {"gun_jam": 1}
    return t


def _verdicts(*tallies: Tally, band=DEFAULT_BAND, cards=frozenset({"gun_jam"})) -> dict[int, LadderStep]:
    sweep = Sweep({(t.players, t.agent): t for t in tallies})
    return {e.players: e for e in summarize(sweep, band, set(cards)).ladder}


def test_the_verdict_reads_the_strongest_agent_and_needs_random_clearly_below():
    e = _verdicts(_tally(1, "heuristic", 1000, 90), _tally(1, "random", 1000, 1))[1]
    assert e.strongest == "heuristic" and e.verdict == "playable"
    assert [r.agent for r in e.agents] == ["heuristic", "random"]
    assert e.skill_gap.value == 0.089 and e.skill_gap.ci95.lo > 0
    # random within reach of the strongest: skill is not shown to matter
    assert _verdicts(_tally(1, "heuristic", 100, 6), _tally(1, "random", 100, 3))[1].verdict == "skill does not matter"
    # 5 of 40 against 0 of 40: the two Wilson intervals overlap, but the gap's interval excludes 0
    e = _verdicts(_tally(1, "heuristic", 40, 5), _tally(1, "random", 40, 0))[1]
    assert e.agents[1].ci95.hi > e.agents[0].ci95.lo and e.skill_gap.ci95.lo > 0
    assert e.verdict == "playable"
    # no random agent: untested, whatever the strongest agent does
    assert _verdicts(_tally(1, "heuristic", 1000, 90))[1].verdict == "skill untested"
    # the band reads the strongest agent, not the random one
    assert _verdicts(_tally(2, "heuristic", 1000, 20), _tally(2, "random", 1000, 0))[2].verdict == "too hard"
    assert _verdicts(_tally(2, "heuristic", 1000, 900), _tally(2, "random", 1000, 0))[2].verdict == "too easy"
    assert _verdicts(_tally(2, "heuristic", 1000, 900), _tally(2, "random", 1000, 0),
                     band=(0.5, 0.95))[2].verdict == "playable"


def test_failures_of_any_agent_and_dead_cards_fail_the_verdict():
    assert _verdicts(_tally(1, "heuristic", 1000, 90), _tally(1, "random", 1000, 0, done=999))[1].verdict == "incomplete games"
    assert _verdicts(_tally(1, "heuristic", 1000, 90, violations=1), _tally(1, "random", 1000, 0))[1].verdict == "rule violations"
    e = _verdicts(_tally(1, "heuristic", 1000, 90), _tally(1, "random", 1000, 0), cards={"gun_jam", "block"})[1]
    assert e.verdict == "dead cards" and "block" in e.why


def test_an_agent_that_sees_hidden_cards_is_shown_but_never_judged():
    e = _verdicts(_tally(3, "heuristic", 1000, 90), _tally(3, "random", 1000, 0), _tally(3, "clairvoyant", 1000, 950))[3]
    assert e.agents[0].agent == "clairvoyant" and e.agents[0].ceiling
    assert e.strongest == "heuristic" and e.verdict == "playable"  # 95 % would be "too easy"


def test_declared_shares_and_lengths_per_agent():
    e = _verdicts(_tally(1, "heuristic", 1000, 90), _tally(1, "random", 1000, 0))[1]
    h = e.agents[0]
    assert h.shares["lost_share"] == round(3 * 910 / (3 * 910 + 3 * 1090), 4) and "kept_share" not in h.shares
    assert h.rounds_win_median == 12 and h.rounds_median == 8


def test_difference_interval_of_independent_rates():
    lo, hi = diff_ci(90, 1000, 1, 1000)
    assert lo < 0.089 < hi and lo > 0
    lo, hi = diff_ci(5, 100, 3, 100)
    assert lo < 0 < hi


def _run(cli, *args: str) -> dict:
    result = cli("playtest", "--root", str(REPO), "--format", "json", *args)
    assert result.code in (0, 1), result.err
    return json.loads(result.out)


@pytest.mark.parametrize("band", ["0.9,0.1", "0,1.5", "x"])
def test_a_bad_band_is_one_clear_error(cli, band):
    result = cli("playtest", "--root", str(REPO), "--players", "1", "--games", "5", "--band", band)
    assert result.code == 1 and result.out == ""
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and "error[G004]" in lines[0] and "Traceback" not in result.err


def test_impact_lists_every_ability_and_switches_each_off(cli):
    from cardkit.load.project import load_project
    from cardkit.games.death_angel.rules_engine import ability_cards

    rep = _run(cli, "--players", "1", "--games", "8", "--impact", "--agent", "heuristic")
    cards = ability_cards(load_project(REPO).card_set("death-angel"), [1])
    assert {r["card"] for r in rep["impact"]} == cards
    measured = [r for r in rep["impact"] if "win_rate_delta" in r]
    assert measured and all(r["games"] == 8 and r["fired_when_ablated"] == 0 for r in measured)
    for r in measured:
        lo, hi = r["ci95"]
        assert lo <= r["win_rate_delta"] <= hi
        assert r["win_rate_delta"] == round(r["win_rate_ablated"] - r["win_rate_base"], 4)
        assert (r["effect"] == "no measurable effect") == (lo <= 0 <= hi)
    deltas = [r["win_rate_delta"] for r in measured]
    assert deltas == sorted(deltas)  # ranked: the cards whose loss costs the most wins first
    (teams,) = rep["teams"]
    assert sum(t["games"] for t in teams["teams"]) == 3 * 8  # solo: three teams in every game
    assert sum(t["games"] for t in teams["pairings"]) == 3 * 8  # and three pairings of them


def test_pdf_report_has_the_ladder_and_impact_pages(cli, tmp_path: Path):
    from pypdf import PdfReader

    out = tmp_path / "report.pdf"
    result = cli("playtest", "--root", str(REPO), "--players", "1", "--games", "6", "--agent", "heuristic",
                 "--agent", "random", "--impact", "--report", str(out), "--locale", "fi")
    assert result.code in (0, 1), result.err
    reader = PdfReader(out)
    assert len(reader.pages) == 5
    ladder = reader.pages[2].extract_text()
    assert "Taitotikkaat" in ladder and "heuristic" in ladder and "random" in ladder
    metrics = reader.pages[3].extract_text()  # what the game declares it measures, named by the set's strings
    assert "Mitä peli mittaa" in metrics and "Tappiot" in metrics and "näytetään keskiarvona peliä kohden" in metrics
    impact = reader.pages[4].extract_text()
    assert "Korttien vaikutus" in impact and "Ovi" in impact  # card names in the report's language
