"""A Dask worker knows the game plugins installed where it runs, not those the sweep's process
registered in-process (a plugin's own tests, a tool driving cardkit; cardkit has no plugin given by
path in a project: ``--root examples/tidelights`` finds its engine because the package is installed).
On a ``distributed.LocalCluster`` (two worker processes, reached by its scheduler's address): a
registered plugin travels with the batches and the sweep gives the local backend's JSON; a plugin
that cannot be sent is G090, and a worker that cannot load it G091, one line each before any game."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

import cardkit.plugins
from tests.games.trumps.engine import PLUGIN as TRUMPS


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        yield cluster.scheduler_address


def _sweep(cli, root: Path, *args: str):
    return cli("playtest", "--root", str(root), "--players", "2", "--games", "6", "--agent", "random",
               "--agent", "planner", "--format", "json", *args)


def test_a_registered_plugin_plays_on_the_workers_as_here(games, cli, scheduler):
    local = _sweep(cli, games["trumps"], "--jobs", "1")
    dask = _sweep(cli, games["trumps"], "--backend", "dask", "--scheduler", scheduler)
    assert local.code in (0, 1) and dask.code == local.code, dask.err
    one, two = json.loads(local.out), json.loads(dask.out)
    one.pop("elapsed_s"), two.pop("elapsed_s")
    assert one == two
    assert [(s["agent"], s["games"]) for s in two["setups"]] == [("planner", 6), ("random", 6)]
    assert {(c["agent"], c["opponent"]) for c in two["matchups"]} == {("planner", "random"), ("random", "planner")}


def test_a_plugin_that_cannot_be_sent_is_one_line_before_any_game(games, cli, scheduler):
    cardkit.plugins.register(replace(TRUMPS, engine=lambda: TRUMPS.engine() if TRUMPS.engine else None))
    result = _sweep(cli, games["trumps"], "--backend", "dask", "--scheduler", scheduler)
    lines = result.err.strip().splitlines()
    assert result.code == 1 and len(lines) == 1 and "error[G090]" in lines[0] and "trumps" in lines[0], result.err
    assert "Traceback" not in result.err and result.out == ""


def test_a_plugin_the_workers_cannot_import_is_one_line_before_any_game(games, cli, scheduler, tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch):
    """A plugin module importable here only (its folder put on this process's path after the workers
    started): its hooks are sent by reference, the workers cannot import them, and the probe says so
    before a batch is submitted (a marker file the engine would write on its first game stays absent)."""
    marker = tmp_path / "played"
    (tmp_path / "only_here").mkdir()
    (tmp_path / "only_here" / "here_plugin.py").write_text(
        "from dataclasses import replace\n"
        "from pathlib import Path\n"
        "from tests.games.trumps.engine import ENGINE, PLUGIN as TRUMPS\n\n\n"
        "class Engine(type(ENGINE)):\n"
        "    def new_game(self, card_set, players, disabled=frozenset()):\n"
        f"        Path({str(marker)!r}).write_text('played')\n"
        "        return super().new_game(card_set, players, disabled)\n\n\n"
        "def engine():\n    return Engine()\n\n\n"
        "PLUGIN = replace(TRUMPS, engine=engine)\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path / "only_here"))
    import here_plugin

    try:
        cardkit.plugins.register(here_plugin.PLUGIN)
        result = _sweep(cli, games["trumps"], "--backend", "dask", "--scheduler", scheduler)
    finally:
        sys.modules.pop("here_plugin", None)
    lines = result.err.strip().splitlines()
    assert result.code == 1 and len(lines) == 1 and "error[G091]" in lines[0], result.err
    assert "here_plugin" in lines[0] and "Traceback" not in result.err and result.out == ""
    assert not marker.exists()
