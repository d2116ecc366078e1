"""The ladder reads the figure the game's declared outcome calls for: the mean score of a scored
co-operative game (tests/games/lanterns), the matchups of a competitive one (tests/games/trumps);
ties are never broken by name, and a scored game that is never lost draws no defeat curve."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import cardkit.games
from cardkit.playtest.ladder import DEFAULT_BAND
from cardkit.playtest.records import LadderStep
from cardkit.playtest.stats import mean_ci
from cardkit.playtest.sweep import Played, Sweep, Tally, summarize
from cardkit.rules.core import EndReason
from cardkit.rules.protocol import (ChanceMode, Cooperation, End, EngineInfo, GameReport, GameResult, Information,
                                    Outcome, Result, SeatResult)
from tests.conftest import REPO
from tests.games.lanterns.engine import PLUGIN as LANTERNS
from tests.games.trumps.engine import PLUGIN as TRUMPS

SCORED = EngineInfo("scored", 2, 5, Cooperation.COOPERATIVE, Information.IMPERFECT, ChanceMode.DETERMINISTIC,
                    score_targets=(8.0, 10.0), outcome=Outcome.SCORED, score_range=(0.0, 12.0))


def _tally(agent: str, scores: dict[float, int], lost: int = 0, players: int = 2) -> Tally:
    """A scored setup played game by game: ``scores`` normal ends (no winner), ``lost`` games lost (score 0)."""
    t = Tally(players, agent, SCORED)
    seed = 0
    for score, games in scores.items():
        for _ in range(games):
            seat = SeatResult(Result.DRAW, score)
            t.add(Played(seed, GameReport(GameResult(End.COMPLETE, EndReason("deck out"), 10 + seed % 3,
                                                     (seat,) * players))))
            seed += 1
    for _ in range(lost):
        seat = SeatResult(Result.LOSS, 0.0)
        t.add(Played(seed, GameReport(GameResult(End.COMPLETE, EndReason("fuses burnt"), 4 + seed % 3,
                                                 (seat,) * players))))
        seed += 1
    return t


def _step(*tallies: Tally, band: tuple[float, float] = (0.36, 9.6)) -> LadderStep:
    sweep = Sweep({(t.players, t.agent): t for t in tallies})
    (step,) = summarize(sweep, band, set()).ladder
    return step


def test_a_scored_game_ranks_by_mean_score_not_by_name():
    """Every game ends without a winner: today's ladder ranks all at 0 % and picks ``flat-mc`` by name."""
    step = _step(_tally("flat-mc", {0.0: 100}), _tally("heuristic", {9.0: 60, 10.0: 40}),
                 _tally("random", {0.0: 80, 1.0: 20}))
    assert step.figure == "mean score" and step.strongest == "heuristic" and step.strongest_set == ("heuristic",)
    assert [r.agent for r in step.agents] == ["heuristic", "random", "flat-mc"]
    top = step.agents[0].figure
    assert top is not None and top.value == 9.4 and top.ci95.lo < 9.4 < top.ci95.hi
    mean, ci = mean_ci({9.0: 60, 10.0: 40}, (0.0, 12.0))
    assert (top.ci95.lo, top.ci95.hi) == (round(ci[0], 3), round(ci[1], 3))
    gap = step.skill_gap
    assert gap is not None and gap.agent == "heuristic" and gap.value == 9.2 and 8.5 < gap.ci95.lo < gap.ci95.hi < 10
    assert step.verdict == "playable" and "9.4" in step.why
    # the band is in score units
    assert _step(_tally("heuristic", {9.0: 60, 10.0: 40}), _tally("random", {0.0: 100}),
                 band=(1.0, 9.0)).verdict == "too easy"
    assert _step(_tally("heuristic", {9.0: 60, 10.0: 40}), _tally("random", {0.0: 100}),
                 band=(9.5, 12.0)).verdict == "too hard"


def test_agents_whose_difference_holds_zero_are_tied_and_neither_is_named_strongest():
    step = _step(_tally("careful", {9.0: 50, 10.0: 50}), _tally("bold", {9.0: 52, 10.0: 48}),
                 _tally("random", {0.0: 100}))
    assert step.strongest is None and set(step.strongest_set) == {"careful", "bold"}
    assert step.verdict == "playable" and "bold = careful" in step.why  # read from the best figure, naming both
    # random tied with the top: skill does not matter
    step = _step(_tally("heuristic", {1.0: 50, 0.0: 50}), _tally("random", {1.0: 45, 0.0: 55}))
    assert "random" in step.strongest_set and step.verdict == "skill does not matter"


def test_a_scored_game_that_is_never_lost_draws_no_defeat_curve():
    sweep = Sweep({(2, "heuristic"): _tally("heuristic", {9.0: 30}),
                   (2, "random"): _tally("random", {0.0: 10}, lost=10)})
    setups = {s.agent: s for s in summarize(sweep, (0.36, 9.6), set()).setups}
    assert setups["heuristic"].survival_by_round == ()
    curve = setups["random"].survival_by_round
    assert curve[0] == 1.0 and curve[-1] == 0.5  # half the games were never lost
    assert setups["heuristic"].score_by_rounds == {10: (10, 9.0), 11: (10, 9.0), 12: (10, 9.0)}


@pytest.fixture()
def games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Copies of the two test games' projects, their plugins registered in-process."""
    roots = {}
    for name in ("lanterns", "trumps"):
        roots[name] = tmp_path / name
        shutil.copytree(REPO / "tests" / "games" / name, roots[name],
                        ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    from cardkit.playtest import sweep

    monkeypatch.setattr(sweep, "_CACHE", {})
    monkeypatch.setattr(sweep, "_GAMES", {})
    cardkit.games.register(LANTERNS)
    cardkit.games.register(TRUMPS)
    yield roots
    cardkit.games.unregister(LANTERNS.name)
    cardkit.games.unregister(TRUMPS.name)


def _run(cli, root: Path, *args: str) -> tuple[int, dict]:
    r = cli("playtest", "--root", str(root), "--players", "2", "--jobs", "1", "--format", "json", *args)
    assert "Traceback" not in r.err and r.code in (0, 1), r.err
    return r.code, json.loads(r.out)


def test_the_scored_test_game_through_the_cli(games, cli):
    code, rep = _run(cli, games["lanterns"], "--games", "40", "--agent", "random", "--agent", "heuristic")
    (step,) = rep["ladder"]
    lo, hi = DEFAULT_BAND
    assert rep["band"] == [round(12 * lo, 4), round(12 * hi, 4)]  # the default band, in score units
    assert step["figure"] == "mean score" and step["strongest"] == "heuristic"
    setups = {s["agent"]: s for s in rep["setups"]}
    assert setups["heuristic"]["wins"] == 0 and setups["heuristic"]["mean_score"]["value"] > 7
    assert step["skill_gap"]["ci95"][0] > 5
    by = {a["agent"]: a for a in step["agents"]}
    assert by["heuristic"]["figure"] == setups["heuristic"]["mean_score"]
    assert setups["heuristic"]["survival_by_round"] == []  # the heuristic never burns a fuse
    assert sum(r["games"] for r in setups["heuristic"]["score_by_rounds"]) == 40
    assert sum(g for _, g in setups["random"]["score_histogram"]) == 40
    # a band that the strongest agent's mean lies inside
    code, rep = _run(cli, games["lanterns"], "--games", "40", "--agent", "random", "--agent", "heuristic",
                     "--band", "4,11.5")
    assert rep["ladder"][0]["verdict"] == "playable" and code == 0
    r = cli("playtest", "--root", str(games["lanterns"]), "--players", "2", "--games", "5", "--band", "4,13")
    assert r.code == 1 and "error[G004]" in r.err and "0 <= low < high <= 12" in r.err
    r = cli("playtest", "--root", str(games["lanterns"]), "--players", "2", "--games", "20", "--jobs", "1",
            "--agent", "random", "--agent", "heuristic")
    assert "skill ladder: mean score [95 % interval]" in r.out and "score by game length" in r.out


def test_the_competitive_test_game_is_judged_from_its_matchups(games, cli):
    """Self-play seat-1 rates (planner about 46 %, random about 37 %) cannot tell the agents apart at
    200 games; the matchups can, and the verdict, the skill gap and the ladder agree with them."""
    code, rep = _run(cli, games["trumps"], "--games", "200", "--agent", "random", "--agent", "planner")
    (step,) = rep["ladder"]
    cells = {(c["agent"], c["opponent"]): c for c in rep["matchups"]}
    mine, theirs = cells[("planner", "random")], cells[("random", "planner")]
    assert step["figure"] == "rating" and step["strongest"] == "planner" and step["verdict"] == "playable"
    gap = step["skill_gap"]
    assert gap["agent"] == "planner"
    assert gap["value"] == round((mine["wins"] - theirs["wins"]) / mine["games"], 4) and gap["ci95"][0] > 0
    by = {a["agent"]: a for a in step["agents"]}
    assert by["planner"]["vs_random"]["value"] == mine["win_rate"]
    assert by["planner"]["figure"]["value"] > 0 == by["random"]["figure"]["value"]  # rated from random play
    assert by["planner"]["matchup_games"] == 400
    bal = step["balance"]
    own = {s["agent"]: s for s in rep["setups"]}["planner"]["first_seat_advantage"][0]
    assert bal["agent"] == "planner" and bal["difference"] == own["difference"] and bal["ci95"] == own["ci95"]
    assert bal["finding"] == ("first seat ahead" if own["ci95"][0] > 0 else "first seat behind"
                              if own["ci95"][1] < 0 else "no seat advantage")
    # one agent, or no matchups: the game's strength is untested, never read from self-play
    code, rep = _run(cli, games["trumps"], "--games", "20", "--agent", "planner")
    assert rep["ladder"][0]["verdict"] == "skill untested" and code == 1
