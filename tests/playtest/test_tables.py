"""The playtest's seat, matchup and declared-metric tables, on the competitive test game (duel)
and on Death Angel: JSON, terminal text and the PDF report in Finnish and Korean, the same for
any number of workers."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

import cardkit.plugins
from cardkit.playtest.ladder import diff_ci, paired_diff_ci
from cardkit.playtest.sweep import play_game, seated
from tests.conftest import REPO
from tests.games.duel.engine import PLUGIN, greedy
from tests.games.duel.engine import ENGINE as DUEL

DUEL_ROOT = REPO / "tests" / "games" / "duel"
AGENTS = ("--agent", "random", "--agent", "greedy", "--agent", "flat-mc:3")


@pytest.fixture()
def duel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the duel project with (empty) Finnish and Korean set catalogs, its plugin registered."""
    root = tmp_path / "duel"
    shutil.copytree(DUEL_ROOT, root, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    for lang in ("fi", "ko"):
        po = root / "locales" / lang / "LC_MESSAGES" / "duel.po"
        po.parent.mkdir(parents=True)
        po.write_text(f'msgid ""\nmsgstr ""\n"Language: {lang}\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n',
                      encoding="utf-8")
    cardkit.plugins.register(PLUGIN)
    from cardkit.playtest import sweep

    monkeypatch.setattr(sweep, "_CACHE", {})
    monkeypatch.setattr(sweep, "_GAMES", {})
    yield root
    cardkit.plugins.unregister(PLUGIN.name)


def _json(cli, root: Path, *args: str) -> dict:
    result = cli("playtest", "--root", str(root), "--players", "2", "--games", "30", *AGENTS, "--format", "json", *args)
    assert result.code in (0, 1) and "Traceback" not in result.err, result.err
    rep = json.loads(result.out)
    rep.pop("elapsed_s")
    return rep


def test_matchups_and_seats_are_the_same_for_any_worker_count(duel, cli):
    one = _json(cli, duel, "--jobs", "1")
    two = _json(cli, duel, "--jobs", "2")
    assert one == two
    cells = {(c["agent"], c["opponent"]): c for c in one["matchups"]}
    names = {"random", "greedy", "flat-mc:3"}
    assert set(cells) == {(a, b) for a in names for b in names if a != b}  # every ordered pair
    for (a, b), c in cells.items():
        other = cells[(b, a)]
        assert c["games"] == 60 and c["incomplete"] == 0
        # duel has no draws: one agent or the other wins each of the 60 games
        assert c["wins"] + other["wins"] == 60
        # a's wins as seat 1 and as seat 2 make up its wins; b's seat 2 games are a's seat 1 games
        assert round(c["first_win_rate"] * 30) + round(c["second_win_rate"] * 30) == c["wins"]
        assert round(c["first_win_rate"] * 30) + round(other["second_win_rate"] * 30) == 30
        assert c["ci95"][0] <= c["win_rate"] <= c["ci95"][1]
    # search beats random play over both seatings
    assert cells[("flat-mc:3", "random")]["win_rate"] > 0.5
    for s in one["setups"]:
        seats, (adv,) = s["seats"], s["first_seat_advantage"]
        assert adv["over_seat"] == 2
        assert adv["difference"] == round((seats[0]["wins"] - seats[1]["wins"]) / seats[0]["games"], 4)
        assert adv["ci95"][0] <= adv["difference"] <= adv["ci95"][1]
    assert [m["name"] for m in one["metrics"]] == ["ambushes", "margin"]
    assert one["metrics"][1] == {"name": "margin", "kind": "score", "aggregate": "mean", "label": ""}


def test_seated_play_deals_the_same_chance_whoever_sits_where():
    """Common random numbers: the coin of a seed falls the same way with the seats swapped,
    and differs between seeds."""
    from tests.rules.test_conformance import duel_set

    game = DUEL.new_game(duel_set(), 2)
    from cardkit.rules.agents import random_agent

    coins = []
    for seed in range(12):
        one = play_game(game, seated([greedy(1), random_agent(2)], seed), seed, False)
        two = play_game(game, seated([random_agent(2), greedy(1)], seed), seed, False)
        assert one.report.result.complete and two.report.result.complete
        st_a, st_b = game.new_state(seed), game.new_state(seed)
        for st, seats in ((st_a, [greedy(1), random_agent(2)]), (st_b, [random_agent(2), greedy(1)])):
            choose = seated(seats, seed)(seed)
            st.apply(choose(st, st.decision))  # the coin
        assert st_a.history[0] == st_b.history[0]
        coins.append(st_a.history[0])
    assert len(set(coins)) == 2


def test_the_paired_interval_reads_the_correlation_of_the_seats():
    # the seats of one game: a win of one is a loss of the other, so the difference varies more
    # than two independent rates would (wider than the unpaired interval)...
    lo, hi = paired_diff_ci(0, 30, 10, 0)
    ulo, uhi = diff_ci(30, 40, 10, 40)
    assert hi - lo > uhi - ulo
    # ...while trials that mostly agree give a narrower one
    lo, hi = paired_diff_ci(25, 8, 2, 5)
    ulo, uhi = diff_ci(33, 40, 27, 40)
    assert hi - lo < uhi - ulo and lo <= (33 - 27) / 40 <= hi
    # swapping the two rates mirrors the interval
    a, b = paired_diff_ci(3, 11, 4, 22)
    c, d = paired_diff_ci(3, 4, 11, 22)
    assert (a, b) == pytest.approx((-d, -c))


@pytest.mark.parametrize("lang, seats, matchups, metrics", [
    ("fi", "Pelipaikat", "Ottelut, 2 pelaajaa", "Mitä peli mittaa"),
    ("ko", "자리별 승률", "2인 대전", "게임이 측정하는 것"),
])
def test_the_pdf_report_has_the_new_pages_in_the_language(duel, cli, tmp_path: Path, lang, seats, matchups, metrics):
    out = tmp_path / f"r-{lang}.pdf"
    result = cli("playtest", "--root", str(duel), "--players", "2", "--games", "20", "--agent", "random",
                 "--agent", "greedy", "--jobs", "1", "--report", str(out), "--locale", lang)
    assert result.code in (0, 1) and "Traceback" not in result.err, result.err
    text = [page.extract_text() for page in PdfReader(out).pages]
    seat_page = next(t for t in text if seats in t)
    assert matchups in seat_page and "greedy" in seat_page
    metric_page = next(t for t in text if metrics in t)
    assert "ambushes" in metric_page and "margin" in metric_page
    # the terminal shows the same tables
    assert "seat 1 minus seat 2" in result.out and "matchups:" in result.out
    assert "declared metrics: ambushes (count, mean per game); margin (score, mean per game)" in result.out


def test_death_angel_reports_its_declared_metrics_as_each_aggregates(cli):
    """(Its Finnish PDF page of them is checked in test_ladder.py's PDF test.)"""
    args = ("playtest", "--root", str(REPO), "--players", "1", "--games", "20", "--agent", "random", "--jobs", "1")
    rep = json.loads(cli(*args, "--format", "json").out)
    (s,) = rep["setups"]
    assert [m["name"] for m in rep["metrics"]] == ["casualties", "survivors", "locations", "support_shortage",
                                                   "reshuffles"]
    assert rep["metrics"][2]["aggregate"] == "histogram" and rep["metrics"][0]["label"] == "metric.casualties"
    text = cli(*args).out
    line = next(ln for ln in text.splitlines() if ln.startswith("  1p random: casualties"))
    assert f"casualties {round(s['casualties_mean'], 3):g}," in line
    assert f"support shortage {s['support_shortage_games'] / 20:.1%}" in line
    assert "seat 1 minus" not in text and "matchups:" not in text  # co-operative: no seats, no matchups


def test_metric_rows_aggregate_as_declared_and_carry_the_score():
    from cardkit.playtest.sweep import Played, Sweep, Tally
    from cardkit.playtest.tables import metric_rows
    from cardkit.rules import protocol as P

    info = P.EngineInfo("g", 1, 1, P.Cooperation.COOPERATIVE, P.Information.PERFECT, P.ChanceMode.DETERMINISTIC,
                        metrics=(P.Metric("m", P.MetricKind.COUNT, P.Aggregate.MEAN),
                                 P.Metric("f", P.MetricKind.FLAG, P.Aggregate.SHARE),
                                 P.Metric("h", P.MetricKind.COUNT, P.Aggregate.HISTOGRAM)),
                        score_targets=(10.0,))
    t = Tally(1, "a", info)
    for seed, (m, f, h, score) in enumerate([(1, 0, 2, 4.0), (2, 1, 5, 8.0), (6, 1, 9, 15.0)]):
        result = P.GameResult(P.End.COMPLETE, "x", 1, (P.SeatResult(P.Result.WIN, score),))
        t.add(Played(seed, P.GameReport(result, {"m": m, "f": f, "h": h})))
    (row,) = metric_rows(Sweep({(1, "a"): t}))
    mean, share, hist = row.values
    assert (mean.value, share.value, hist.value, hist.p5, hist.p95) == (3.0, 0.6667, 5.0, 2.0, 9.0)
    assert row.score == 9.0
