"""The ladder reads the figure the game's declared outcome calls for: the mean score of a scored
co-operative game (tests/games/lanterns), the matchups of a competitive one (tests/games/trumps);
ties are never broken by name, and a scored game that is never lost draws no defeat curve."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import cardkit.plugins
from cardkit.playtest.ladder import DEFAULT_BAND
from cardkit.playtest.records import LadderStep
from cardkit.playtest.stats import mean_ci
from cardkit.playtest.sweep import Played, Sweep, Tally, summarize
from cardkit.rules.core import EndReason
from cardkit.rules.protocol import (ChanceMode, Cooperation, End, EngineInfo, GameReport, GameResult, Information,
                                    Outcome, Result, SeatResult)

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
    assert "score distribution (score: games)\n  2p heuristic: " in r.out


def test_a_scored_games_text_speaks_in_scores_rounded_alike(games, cli):
    """The terminal report of a scored game without a win threshold: its mean score with the interval
    where a game won or lost shows its win rate (the 0.0 % win rates and "(wins -)" said nothing), and
    every score figure (means, intervals, the skill gap) to two decimals at most, as the PDF rounds
    them (the gap printed +7.7667 beside +10.1)."""
    r = cli("playtest", "--root", str(games["lanterns"]), "--players", "2-3", "--games", "30", "--jobs", "1",
            "--agent", "random", "--agent", "heuristic")
    assert r.code in (0, 1) and "Traceback" not in r.err
    head = r.out.splitlines()[0]
    assert "mean score" in head and "95% CI" in head and "win rate" not in head
    assert "win rate" not in r.out and "(wins " not in r.out
    scores = r.out.split("declared metrics:")[0]  # the declared metrics are the game's own, not scores
    assert not re.findall(r"\d\.\d{3,}", scores), re.findall(r"[^ ]*\d\.\d{3,}[^ ]*", scores)
    rep = json.loads(cli("playtest", "--root", str(games["lanterns"]), "--players", "2-3", "--games", "30",
                         "--jobs", "1", "--agent", "random", "--agent", "heuristic", "--format", "json").out)
    for step in rep["ladder"]:
        g = step["skill_gap"]
        ladder = scores.split("skill ladder:")[1]
        gap = next(ln for ln in ladder.splitlines() if ln.startswith(f"{step['players']:>7} "))
        assert f"{g['value']:+.2f}".rstrip("0").rstrip(".") in gap  # the same figure, two decimals
    for s in rep["setups"]:
        m = s["mean_score"]["value"]
        row = next(ln for ln in scores.splitlines()[2:] if ln.split()[:2] == [str(s["players"]), s["agent"]])
        assert f"{m:.2f}".rstrip("0").rstrip(".") in row.split()


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


def test_a_scored_game_declares_its_band_in_set_yaml(games, cli):
    manifest = games["lanterns"] / "cards" / "lanterns" / "set.yaml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text + "playtest: {band: [4, 11.5]}\n", encoding="utf-8")
    code, rep = _run(cli, games["lanterns"], "--games", "30", "--agent", "random", "--agent", "heuristic")
    assert rep["band"] == [4.0, 11.5] and rep["ladder"][0]["verdict"] == "playable"
    code, rep = _run(cli, games["lanterns"], "--games", "30", "--agent", "random", "--agent", "heuristic",
                     "--band", "1,3")  # the command line wins
    assert rep["band"] == [1.0, 3.0] and rep["ladder"][0]["verdict"] == "too easy"
    manifest.write_text(text + "playtest: {band: [4, 20]}\n", encoding="utf-8")
    r = cli("playtest", "--root", str(games["lanterns"]), "--players", "2", "--games", "5")
    assert r.code == 1 and "error[G004]: set.yaml playtest.band '4.0,20.0'" in r.err


@pytest.mark.parametrize("locale", ["fi", "ko"])
def test_the_pdf_reports_say_what_the_json_says(games, cli, tmp_path, locale):
    """The scored game's report: mean scores, target shares and the score distribution, the game-length
    page from a judged agent (not the clairvoyant ceiling); the competitive game's: ratings, the tied or
    strongest agent, the balance finding, in the report's language."""
    from pypdf import PdfReader

    from cardkit.strings.localize import Localizer

    for lang in ("fi", "ko"):
        for name in ("lanterns", "trumps"):
            po = games[name] / "locales" / lang / "LC_MESSAGES" / f"{name}.po"
            po.parent.mkdir(parents=True, exist_ok=True)
            po.write_text(f'msgid ""\nmsgstr ""\n"Language: {lang}\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n',
                          encoding="utf-8")
    out = tmp_path / "lanterns.pdf"
    code, rep = _run(cli, games["lanterns"], "--games", "20", "--agent", "random", "--agent", "heuristic",
                     "--agent", "clairvoyant:1", "--report", str(out), "--locale", locale)
    loc = Localizer(games["lanterns"], locale)
    text = "\n".join(page.extract_text() for page in PdfReader(out).pages)
    flat = " ".join(text.split())
    for key in ("report.mean_score", "report.ladder.gap_score", "report.chart.mean_score"):
        assert loc.ui(key) in flat
    for key in ("report.win_rate", "report.chart.win_rate", "report.ladder.rounds_win"):  # no wins to speak of
        assert loc.ui(key) not in flat, key
    assert loc.ui_n("report.chart.scores", 2, players=2) in flat
    assert loc.ui("report.target", target="10") in flat
    assert loc.ui("report.chart.score_rounds", agent="heuristic") in flat  # a judged agent, never the ceiling
    assert loc.ui("report.chart.rounds", agent="heuristic") in flat
    assert loc.ui("report.chart.survival", agent="heuristic") not in flat  # a scored game: no defeat curve
    out = tmp_path / "trumps.pdf"
    code, rep = _run(cli, games["trumps"], "--games", "60", "--agent", "random", "--agent", "planner",
                     "--report", str(out), "--locale", locale)
    step = rep["ladder"][0]
    loc = Localizer(games["trumps"], locale)
    flat = " ".join("\n".join(page.extract_text() for page in PdfReader(out).pages).split())
    finding = loc.ui("report.balance." + step["balance"]["finding"].replace(" ", "_"))
    assert loc.ui("report.rating") in flat and loc.ui("report.chart.rating") in flat and finding in flat
    assert loc.ui("report.ladder.gap_matchups") in flat
    assert loc.ui("report.chart.survival", agent="planner") not in flat  # one seat's loss is another's win


def test_a_scored_game_without_a_range_needs_a_band(games, cli):
    from dataclasses import replace

    from cardkit.plugins import GamePlugin
    from tests.games.lanterns.engine import LanternsEngine

    class Unranged(LanternsEngine):
        def info(self, card_set: object) -> EngineInfo:
            return replace(super().info(card_set), score_range=None)

    cardkit.plugins.register(GamePlugin(name="lanterns", engine=Unranged))  # type: ignore[arg-type]
    r = cli("playtest", "--root", str(games["lanterns"]), "--players", "2", "--games", "5", "--jobs", "1")
    assert r.code == 1 and r.out == "" and "Traceback" not in r.err
    assert r.err.strip() == ("cardkit: error[G071]: game 'lanterns' is scored but declares no score_range: "
                             "give --band LOW,HIGH in score units")


def test_the_scored_figures_are_the_same_for_any_worker_count(games, cli):
    """Score histograms and scores by game length merge exactly: two batches a setup, one or two workers."""
    reps = []
    for jobs in ("1", "2"):
        r = cli("playtest", "--root", str(games["lanterns"]), "--players", "2", "--games", "300", "--agent", "random",
                "--agent", "heuristic", "--jobs", jobs, "--format", "json")
        assert r.code in (0, 1) and "Traceback" not in r.err, r.err
        rep = json.loads(r.out)
        rep.pop("elapsed_s")
        reps.append(rep)
    assert reps[0] == reps[1]
    assert sum(g for _, g in {s["agent"]: s for s in reps[0]["setups"]}["heuristic"]["score_histogram"]) == 300
