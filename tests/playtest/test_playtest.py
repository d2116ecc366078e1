"""cardkit playtest: determinism across workers, JSON shape, audit of broken card sets."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cardkit.playtest.sweep import percentile, wilson
from tests.conftest import REPO


def _run(cli, *args: str) -> dict:
    result = cli("playtest", "--root", str(REPO), "--format", "json", *args)
    assert result.code in (0, 1), result.err
    return json.loads(result.out)


def _strip(report: dict) -> dict:
    report = dict(report)
    report.pop("elapsed_s")
    return report


def test_jobs_do_not_change_results(cli, tmp_path: Path):
    """One process, two fresh workers (this test process runs other threads, so its workers
    start from a fork server: cardkit/workers.py) and two forked ones (the cardkit command,
    one thread) give the same report."""
    args = ("--players", "1,4", "--games", "30", "--agent", "random", "--agent", "heuristic")
    one = _run(cli, *args, "--jobs", "1")
    two = _run(cli, *args, "--jobs", "2")
    assert _strip(one) == _strip(two)
    forked = subprocess.run([sys.executable, "-c", "from cardkit.cli import main; main()", "playtest", "--root",
                             str(REPO), "--format", "json", *args, "--jobs", "2"], cwd=tmp_path, capture_output=True,
                            text=True, timeout=600)
    assert forked.returncode in (0, 1), forked.stderr
    assert _strip(json.loads(forked.stdout)) == _strip(one)


def test_coverage_leaves_out_locations_these_player_counts_never_deal(cli):
    """3 players deal tiers 1A, 2, 3, 4: a 1B or 1C location cannot fire, so it is no dead card."""
    from cardkit.load.project import load_project
    from cardkit.games.death_angel.cards import Location

    rep = _run(cli, "--players", "3", "--games", "20", "--agent", "random")
    covered = set(rep["coverage"]["fired"]) | set(rep["coverage"]["never_fired"])
    tiers = {loc.id: loc.tier for loc in load_project(REPO).card_set("death-angel").of_kind(Location)}
    assert {c for c in covered if c in tiers} == {c for c, t in tiers.items() if t in ("1A", "2", "3", "4")}


def test_report_shape_and_meaning(cli):
    rep = _run(cli, "--players", "2", "--games", "40", "--agent", "random")
    assert rep["set"] == "death-angel" and rep["agents"] == ["random"]
    (setup,) = rep["setups"]
    assert setup["games"] == 40 and setup["completed"] == 40 and setup["violations"] == 0
    lo, hi = setup["win_rate_ci95"]
    assert lo <= setup["win_rate"] <= hi
    assert set(rep["coverage"]) == {"fired", "never_fired"}
    (step,) = rep["ladder"]
    assert setup["verdict"] == step["verdict"] and step["strongest"] == "random"
    # random alone: the band judges it (it wins far below 3 %), and skill cannot be judged without a second agent
    assert step["verdict"] == ("too hard" if setup["win_rate"] <= 0.03 else "skill untested")


def _break(project: Path, path: str, old: str, new: str) -> None:
    p = project / "cards" / "death-angel" / path
    text = p.read_text(encoding="utf-8")
    assert old in text
    p.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize("path, old, new, code, card", [
    # a deck recipe that cannot be dealt
    ("setup.yaml", 'deck: ["2", "3", "4"]', 'deck: ["2", "2", "2", "2", "3", "4"]', None, None),
])
def test_broken_card_sets_fail_validation_or_audit(project: Path, cli, path, old, new, code, card):
    _break(project, path, old, new)
    result = cli("playtest", "--root", str(project), "--games", "5", "--players", "1")
    assert result.code == 1
    assert "error[" in result.err


def test_event_spawning_at_a_colour_no_terrain_has(project: Path, cli):
    _break(project, "events.yaml", "spawn: [{severity: minor, colour: red}, {severity: minor, colour: orange}]\n    quantity: 1\n    move: null",
           "spawn: [{severity: minor, colour: red}, {severity: minor, colour: orange}]\n    quantity: 1\n    move: null")
    # recolour every green terrain card: green spawn boxes then have no terrain to spawn at
    _break(project, "terrain.yaml", "colour: green\n    bars: 1\n    activatable: false", "colour: yellow\n    bars: 1\n    activatable: false")
    _break(project, "terrain.yaml", "colour: green\n    bars: 1\n    activatable: true", "colour: yellow\n    bars: 1\n    activatable: true")
    result = cli("playtest", "--root", str(project), "--games", "5", "--players", "1")
    assert result.code == 1
    assert "spawns at green terrain" in result.err


def test_unreachable_tier_is_named(project: Path, cli):
    _break(project, "setup.yaml", 'deck: ["1C", "2", "3", "4"]', 'deck: ["1A", "2", "3", "4"]')
    result = cli("playtest", "--root", str(project), "--games", "5", "--players", "1")
    assert result.code == 1
    assert "error[A008]" in result.err and "tier 1C" in result.err


def test_statistics_helpers():
    lo, hi = wilson(0, 50)
    assert lo < 1e-12 and 0.05 < hi < 0.08
    lo, hi = wilson(50, 50)
    assert hi > 1 - 1e-12 and 0.92 < lo < 0.95
    assert percentile([5, 1, 3, 2, 4], 50) == 3.0 and percentile([7], 95) == 7.0


def test_dask_backend_matches_local(cli):
    local = _run(cli, "--players", "2", "--games", "20", "--agent", "random")
    dask = _run(cli, "--players", "2", "--games", "20", "--agent", "random", "--backend", "dask")
    assert _strip(local) == _strip(dask)


def test_a_search_sweep_on_a_local_dask_cluster_matches_local(cli):
    """Search games on a Dask cluster (``distributed.LocalCluster``: two worker processes, reached by
    its scheduler's address) in batches sized by their cost (one game each), beside random games in
    one batch: the same JSON as the local backend."""
    from distributed import LocalCluster

    from cardkit.playtest.sweep import batch_games, plan

    args = ("--players", "1", "--games", "8", "--agent", "mcts:8", "--agent", "random")
    batches = plan(REPO, "death-angel", [1], ["mcts:8", "random"], 8, 1)
    assert batch_games("mcts:8") < 8 and len(batches) >= 3  # the search games spread over both workers
    local = _run(cli, *args, "--jobs", "1")
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        dask = _run(cli, *args, "--backend", "dask", "--scheduler", cluster.scheduler_address)
    assert _strip(local) == _strip(dask)
    assert [(s["agent"], s["games"]) for s in local["setups"]] == [("mcts:8", 8), ("random", 8)]


def test_pdf_report(cli, tmp_path: Path):
    from pypdf import PdfReader

    out = tmp_path / "report.pdf"
    result = cli("playtest", "--root", str(REPO), "--players", "1,6", "--games", "20", "--agent", "random",
                 "--report", str(out), "--locale", "en")
    assert result.code in (0, 1), result.err
    reader = PdfReader(out)
    assert len(reader.pages) == 4
    first = reader.pages[0].extract_text()
    assert "Playtest report" in first and "Win rate by player count" in first
    assert "Games not yet lost after each round" in reader.pages[1].extract_text()
    assert "Skill ladder" in reader.pages[2].extract_text()
    assert "What the game measures" in reader.pages[3].extract_text()


def test_a_missing_compare_folder_fails_before_any_game(cli, tmp_path: Path):
    result = cli("playtest", "--root", str(REPO), "--players", "1", "--games", "100000",
                 "--compare", str(tmp_path / "missing"))
    assert result.code == 1
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and "error[G005]" in lines[0] and "missing" in lines[0], result.err
    assert "Traceback" not in result.err and result.out == ""


def test_finnish_report_writes_its_numbers_the_finnish_way(cli, tmp_path: Path):
    """Every number of the report's setup table and ladder is written by the locale's rules:
    a median of rounds is "10" or "9,5" in Finnish, never "10.0" or "9.5"."""
    import re

    from babel.numbers import format_decimal
    from pypdf import PdfReader

    out = tmp_path / "r.pdf"
    rep = _run(cli, "--players", "1,2", "--games", "20", "--agent", "random", "--agent", "heuristic",
               "--report", str(out), "--locale", "fi")
    pages = [page.extract_text() for page in PdfReader(out).pages]
    assert not re.search(r"\d\.\d", pages[0] + pages[2]), pages[0]
    rows = pages[0].splitlines()
    for s in rep["setups"]:
        median = format_decimal(round(s["rounds"]["all"]["median"], 2), format="#,##0.##", locale="fi")
        assert median in rows, (median, rows)
