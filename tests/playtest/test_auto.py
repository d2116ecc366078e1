"""``--games auto`` (cardkit/playtest/auto.py) and the library call ``cardkit.playtest.run``: rounds of
seeds until every verdict has settled, the maximum, the same report for any number of workers, the
option errors as coded lines, and the coverage of the intervals under this stopping rule."""

from __future__ import annotations

import json
import random

import pytest

from cardkit.playtest import PlaytestRequest, run
from cardkit.playtest.auto import DEFAULT_MAX, FIRST_ROUND, Schedule, _judge, _Unit
from tests.conftest import REPO


def _json(cli, *args: str) -> tuple[int, dict]:
    r = cli("playtest", *args, "--format", "json")
    assert r.out.startswith("{"), r.err
    rep = json.loads(r.out)
    rep.pop("elapsed_s")
    return r.code, rep


def _units(rep: dict) -> dict[tuple[str, int, str], dict]:
    return {(u["what"], u["players"], u["agent"]): u for u in rep["sequential"]["units"]}


def test_a_clear_case_stops_early_and_says_its_intervals_are_anytime_valid(cli):
    """Death Angel at 3 players: the heuristic wins about 10 %, random play never: both the band's
    edges and the gap are clear long before the maximum."""
    code, rep = _json(cli, "--players", "3", "--games", "auto", "--jobs", "1")
    seq = rep["sequential"]
    assert "anytime-valid" in seq["intervals"] and seq["max_games"] == DEFAULT_MAX
    units = _units(rep)
    heur, gap = units[("setup", 3, "heuristic")], units[("skill gap", 3, "heuristic|random")]
    assert heur["stopped"] == "clear of the band" and gap["stopped"] == "clear of 0"
    assert FIRST_ROUND <= heur["games"] < DEFAULT_MAX
    assert all(u["stopped"] != "maximum reached" for u in seq["units"])
    # the report shows the sequence's interval, not the fixed-count one, and judges by it
    setup = next(s for s in rep["setups"] if s["agent"] == "heuristic")
    assert setup["games"] == heur["games"] and setup["win_rate_ci95"] == heur["interval"]
    step = rep["ladder"][0]
    assert step["skill_gap"]["ci95"] == gap["interval"] and step["skill_gap"]["ci95"][0] > 0
    assert seq["games_played"] == sum(s["games"] for s in rep["setups"]) < 2 * DEFAULT_MAX


def test_a_close_case_goes_on_to_the_maximum(cli):
    """A band edge at the heuristic's own rate: its interval can never clear it, so it plays on until
    ``--max-games``, in the rounds 50, 100, 200 (the last one cut at the maximum)."""
    code, rep = _json(cli, "--players", "3", "--games", "auto", "--max-games", "130", "--band", "0.1,0.9",
                      "--jobs", "1")
    heur = _units(rep)[("setup", 3, "heuristic")]
    assert heur["games"] == 130 and heur["stopped"] == "maximum reached"
    lo, hi = heur["interval"]
    assert lo < 0.1 < hi
    assert rep["sequential"]["rounds"] == 3


def test_a_precision_stops_a_close_case_before_the_maximum(cli):
    code, rep = _json(cli, "--players", "3", "--games", "auto", "--max-games", "800", "--band", "0.1,0.9",
                      "--precision", "15", "--jobs", "1")
    heur = _units(rep)[("setup", 3, "heuristic")]
    lo, hi = heur["interval"]
    assert heur["stopped"] == "precision reached" and heur["games"] < 800 and hi - lo <= 0.30


def test_jobs_1_and_2_give_the_same_json(cli):
    a = _json(cli, "--players", "2-3", "--games", "auto", "--max-games", "200", "--jobs", "1")
    b = _json(cli, "--players", "2-3", "--games", "auto", "--max-games", "200", "--jobs", "2")
    assert a == b


def test_the_library_call_gives_what_the_command_prints(cli):
    code, rep = _json(cli, "--players", "2", "--games", "30", "--jobs", "1")
    done = run(PlaytestRequest(REPO, players=(2,), games=30, jobs=1))
    mine = json.loads(json.dumps(done.result.to_json()))  # keys as the JSON text has them
    mine.pop("elapsed_s")
    assert mine == rep and done.games_played == 60
    assert "sequential" not in rep  # a fixed-count report is unchanged


@pytest.mark.parametrize("args, codes", [
    (("--games", "many"), ["G080"]),
    (("--games", "0"), ["G080"]),
    (("--games", "auto", "--precision", "0"), ["G081"]),
    (("--games", "auto", "--precision", "-2", "--max-games", "0"), ["G080", "G081"]),
    (("--games", "100", "--precision", "5"), ["G083"]),
    (("--games", "auto", "--compare", "."), ["G083"]),
])
def test_bad_sequential_options_are_coded_lines_all_at_once(cli, args, codes):
    r = cli("playtest", "--players", "1", *args)
    assert r.code == 1 and "Traceback" not in r.err
    lines = [ln for ln in r.err.splitlines() if ln.strip()]
    assert sorted(ln.split("error[")[1][:4] for ln in lines) == codes, r.err
    assert all(": error[" in ln for ln in lines)


def test_a_scored_game_runs_on_its_score_placed_in_its_range(games, cli):
    """Lanterns (scores 0-12, never won): the sequences run on the score placed in [0, 1] and the
    report shows the mean score's interval in score units."""
    code, rep = _json(cli, "--root", str(games["lanterns"]), "--players", "2", "--agent", "random",
                      "--agent", "heuristic", "--games", "auto", "--max-games", "100", "--jobs", "1")
    setup = next(s for s in rep["setups"] if s["agent"] == "heuristic")
    unit = _units(rep)[("setup", 2, "heuristic")]
    lo, hi = setup["mean_score"]["ci95"]
    assert [lo, hi] == unit["interval"] and 0 <= lo < setup["mean_score"]["value"] < hi <= 12
    gap = _units(rep)[("skill gap", 2, "heuristic|random")]
    assert gap["stopped"] == "clear of 0" and rep["ladder"][0]["skill_gap"]["ci95"] == gap["interval"]
    assert gap["interval"][0] > 0  # in score units: the heuristic scores more


def test_the_impact_of_a_card_in_a_scored_game_reads_the_score_not_the_win_rate():
    """Nobody wins a scored co-operative game: switching a card off that costs 3 points a game leaves
    the win rate at 0 but must show as an ability that helps."""
    from cardkit.playtest.impact import _row
    from cardkit.playtest.sweep import Paired, Played, Sweep
    from cardkit.rules.core import EndReason
    from cardkit.rules.protocol import End, GameReport, GameResult, Result, SeatResult
    from tests.playtest.test_outcomes import SCORED

    def game(seed: int, score: float) -> Played:
        seat = SeatResult(Result.DRAW, score)
        return Played(seed, GameReport(GameResult(End.COMPLETE, EndReason("deck out"), 10, (seat, seat))))

    p = Paired("lamp", 2, "heuristic", SCORED)
    for seed in range(60):
        base = 9.0 + seed % 3
        p.add(game(seed, base), game(seed, base - 3.0 + (seed % 2)))
    row = _row(p, Sweep())
    assert row.win_rate_delta == 0.0 and row.ci95.lo <= 0 <= row.ci95.hi
    assert row.score_delta == -2.5 and row.score_ci95 is not None and row.score_ci95.hi < 0
    assert row.effect == "helps" and row.score_base == 10.0 and row.score_ablated == 7.5
    assert row.to_json()["score_delta"] == -2.5


def test_a_competitive_game_plays_its_matchups_in_rounds_too(games, cli):
    code, rep = _json(cli, "--root", str(games["trumps"]), "--players", "2", "--agent", "random",
                      "--agent", "planner", "--games", "auto", "--max-games", "100", "--jobs", "1")
    units = [u for u in rep["sequential"]["units"] if u["what"] == "matchup"]
    assert len(units) == 1 and 0 < units[0]["games"] <= 100
    cell = rep["ladder"][0]
    assert cell["figure"] == "rating"


# ------------------------------------------------------------------ coverage under this stopping rule
@pytest.mark.parametrize("p", (0.01, 0.5, 0.9))
def test_the_stopping_rule_of_auto_keeps_95_percent_coverage_over_1000_runs(p: float) -> None:
    """1,000 simulated setups of a known win rate, each played in auto's rounds (50, 100, 200, ...
    seeds, at most 400) and stopped by auto's own decision (:func:`_judge`: clear of the default band,
    or 5 points either side): the interval it reports holds the true rate in at least 95 % of runs."""
    rng = random.Random(int(p * 1000) + 1)
    schedule = Schedule(max_games=400, precision=5.0)
    held = 0
    for _ in range(1000):
        u = _Unit("setup", 1, "agent")
        r = 0
        while not u.stopped:
            target = schedule.target(r)
            u.cs.extend(1.0 if rng.random() < p else 0.0 for _ in range(target - u.games))
            r += 1
            _judge({(1, "agent"): u}, {}, {}, {}, (0.03, 0.80), 0.05, 0.025, frozenset(), False,
                   target >= schedule.max_games)
        lo, hi = u.cs.interval()
        held += lo <= p <= hi
    assert held >= 950, f"the true rate {p} was held in {held} of 1000 runs"


# ------------------------------------------------------------------ impact pairs: a group-sequential design
def _pair_run(rng: random.Random, up: float, down: float, schedule: Schedule, both: float = 0.4) -> _Unit:
    """One simulated impact pair of a win/loss game: per seed the card's loss turns a loss into a win with
    ``up``, a win into a loss with ``down``, else both games end alike (both won with ``both``); played in
    ``schedule``'s rounds and stopped by auto's own decision for impact pairs."""
    u = _Unit("impact", 1, "agent", "card")
    design = schedule.impact_design
    r = 0
    while not u.stopped:
        target = min(schedule.target(r), schedule.impact_cap)
        for _ in range(target - u.games):
            x = rng.random()
            u.pairs.append((0.0, 1.0) if x < up else (1.0, 0.0) if x < up + down else
                           (1.0, 1.0) if rng.random() < both else (0.0, 0.0))
        r += 1
        _judge({}, {}, {}, {("card", 1, "agent"): u}, (0.03, 0.80), None, None, frozenset(), False,
               target >= schedule.max_games, schedule.impact_cap, lambda v: v.change(design, False))
    return u


def test_impact_pairs_are_looked_at_every_50_seeds_up_to_their_own_maximum() -> None:
    s = Schedule.for_impact(None, None)
    assert [s.target(r) for r in range(4)] == [50, 100, 150, 200] and s.impact_cap == 300
    assert s.impact_looks == (50, 100, 150, 200, 250, 300)
    assert Schedule.for_impact(120, None).impact_looks == (50, 100, 120) and Schedule(1600).impact_cap == 1600
    d = s.impact_design
    # Haybittle-Peto: a clear answer before the maximum, nearly a fixed interval's width at it
    assert d.z(50) == d.z(250) > 3.4 and 1.96 < d.z(300) < 2.0
    assert d.spent * 5 + d.final_alpha == pytest.approx(0.05)


def test_an_impact_pair_stops_by_its_sign_or_at_its_maximum() -> None:
    rng = random.Random(7)
    s = Schedule.for_impact(None, None)
    clear = _pair_run(rng, 0.02, 0.30, s)  # switching the card off loses 28 points: its sign is found soon
    assert clear.stopped == "clear of 0" and clear.games <= 100 and clear.change(s.impact_design, False)[1] < 0
    null = _pair_run(rng, 0.05, 0.05, s)  # no effect: played to its maximum, the interval holds 0
    assert null.stopped == "maximum reached" and null.games == 300
    lo, hi = null.change(s.impact_design, False)
    assert lo < 0 < hi


@pytest.mark.parametrize("effect", (0.0, -0.06))
def test_the_impact_rule_keeps_95_percent_coverage_over_1000_pairs(effect: float) -> None:
    """1,000 simulated pairs of a known change, stopped by the impact rule (looks every 50 seeds, at most
    300): the interval at the stop holds the true change in at least 95 % of runs.  A change of 6 points
    is found at some look in some runs and not in others: the stop depends on the data, as it must."""
    rng = random.Random(int(-effect * 100) + 3)
    s = Schedule.for_impact(None, None)
    changed = 0.2
    up, down = (changed + effect) / 2, (changed - effect) / 2
    held = 0
    stops = set()
    for _ in range(1000):
        u = _pair_run(rng, up, down, s)
        lo, hi = u.change(s.impact_design, False)
        held += lo <= effect <= hi
        stops.add(u.games)
    assert held >= 950, f"the true change {effect} was held in {held} of 1000 runs"
    assert effect == 0.0 or len(stops) > 2  # the nonzero change stopped at several looks


def test_an_auto_impact_report_says_what_each_stopped_pair_means(cli, tmp_path):
    """Death Angel solo with --impact and --games auto (at most 100 seeds): every pair says helps or hurts
    (its interval clear of 0), or "not settled" (at its maximum), and carries why it stopped, in the JSON
    and in the Finnish PDF report.  A pair that reached its maximum played the fixed-count run's games
    (the same seeds): the same change, its interval the fixed one widened by the design's z.  The
    fixed-count run keeps its words and has no stop reason."""
    from pypdf import PdfReader

    pdf = tmp_path / "r.pdf"
    code, rep = _json(cli, "--players", "1", "--agent", "heuristic", "--impact", "--games", "auto",
                      "--max-games", "100", "--jobs", "1", "--report", str(pdf), "--locale", "fi")
    text = "".join(page.extract_text() for page in PdfReader(pdf).pages)
    assert "ei ratkennut" in text and "ei mitattavaa vaikutusta" not in text
    assert rep["sequential"]["impact_z"][1] > 1.96 and "group-sequential" in rep["sequential"]["impact_intervals"]
    rows = [r for r in rep["impact"] if "effect" in r]
    units = {u["card"]: u for u in rep["sequential"]["units"] if u["what"] == "impact"}
    assert rows and len(rows) == len(units)
    stops = set()
    for r in rows:
        u = units[r["card"]]
        assert r["stopped"] == u["stopped"] and r["games"] == u["games"] and r["ci95"] == u["interval"]
        stops.add(u["stopped"])
        lo, hi = r["ci95"]
        if lo <= 0 <= hi:
            assert r["effect"] == "not settled" and u["stopped"] == "maximum reached" and u["games"] == 100
        else:
            assert r["effect"] == ("helps" if hi < 0 else "hurts") and u["stopped"] == "clear of 0"
    assert stops == {"clear of 0", "maximum reached"}
    code, fixed = _json(cli, "--players", "1", "--agent", "heuristic", "--impact", "--games", "100", "--jobs", "1")
    assert all("stopped" not in r and "margin" not in r and r["effect"] in ("helps", "hurts", "no measurable effect")
               for r in fixed["impact"] if "effect" in r)
    same = {r["card"]: r for r in fixed["impact"] if "effect" in r}
    for r in rows:
        if r["games"] == 100:
            f = same[r["card"]]
            assert (r["win_rate_delta"], r["games_changed"]) == (f["win_rate_delta"], f["games_changed"])
            assert r["ci95"][0] <= f["ci95"][0] and f["ci95"][1] <= r["ci95"][1]


def test_the_text_report_says_how_rounds_grew_and_which_intervals_impact_pairs_have():
    """With impact pairs the rounds grow by a step, not doubling, and their intervals are the design's
    repeated ones (not the setups' confidence sequences): the text says so, with its critical values."""
    from cardkit.cli.playtest import _sequential_text
    from cardkit.playtest.records import Sequential

    plain = _sequential_text(Sequential(3, 50, 1600, None, (), 700))
    assert "doubling, at most 1,600)" in plain and "impact pairs" not in plain
    assert "\nintervals: anytime-valid" in plain
    d = Schedule.for_impact(200, None).impact_design
    z = (d.z(d.looks[0]), d.z(d.looks[-1]))
    text = _sequential_text(Sequential(4, 50, 200, None, (), 900, step=50, impact_max=200, impact_z=z))
    assert "50 more a round, at most 200, 200 per impact pair)" in text
    assert "intervals (setups, skill gaps, matchups): anytime-valid" in text
    assert f"z {z[0]:.2f} at every look before the pair's maximum and z {z[1]:.2f} at it" in text
    assert z[0] > 3 > 1.96 < z[1] < 2.1


def test_when_every_pair_played_the_same_games_the_report_names_one_number(cli, tmp_path):
    """At most 50 seeds (the first look), every impact pair plays 50: the Finnish report's impact page
    says "50 peliparia", not "50–50"."""
    from pypdf import PdfReader

    pdf = tmp_path / "r.pdf"
    code, rep = _json(cli, "--players", "1", "--agent", "heuristic", "--impact", "--games", "auto",
                      "--max-games", "50", "--jobs", "1", "--report", str(pdf), "--locale", "fi")
    assert {u["games"] for u in rep["sequential"]["units"] if u["what"] == "impact"} == {50}
    text = " ".join(page.extract_text() for page in PdfReader(pdf).pages)
    assert "kytketään pois, 50 peliparia korttia kohden; viivat: aina päteviä" in text.replace("\n", " ")
    assert "50–50" not in text


def test_a_design_with_one_look_is_the_fixed_count_interval():
    """--max-games at or below the first round leaves impact pairs one look, at their maximum: nothing is
    spent before it, so its interval is the fixed-count one, and the report says so."""
    from cardkit.cli.playtest import _sequential_text
    from cardkit.playtest.records import Sequential

    d = Schedule.for_impact(50, None).impact_design
    assert d.looks == (50,) and abs(d.z(1) - 1.96) < 0.001 and d.z(1) == d.z(50)
    text = _sequential_text(Sequential(1, 50, 50, None, (), 100, step=50, impact_max=50, impact_z=(d.z(1), d.z(50))))
    assert "impact pairs: one look, at their maximum of 50 seeds: the fixed-count 95 % interval (z 1.96)" in text
