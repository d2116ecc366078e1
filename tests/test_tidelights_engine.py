"""The example game's rules engine as a designer installs it: a plugin package of its own.

``pip install`` of ``examples/tidelights/engine`` goes into a throwaway folder (``--target``,
no network, no dependencies: cardkit is this environment's), never into this environment, so
the other tests see this environment's plugins as they were (with or without the example's engine).  Through that folder the plugin registry
finds the entry point ``tidelights`` and hands out an engine that plays every player count.
(About 5 s, most of it pip starting; the engine's own tests are in
``examples/tidelights/engine/tests``.)
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "tidelights"
ENGINE = EXAMPLE / "engine"
CARDKIT = Path(sys.executable).with_name("cardkit")

PROBE = r"""
import json, random, sys
from cardkit.plugins import plugin_for
from cardkit.load.project import load_project
from cardkit.rules.protocol import Engine, End

plugin = plugin_for("tidelights")
engine = plugin.engine()
assert isinstance(engine, Engine), type(engine)
card_set = load_project(sys.argv[1]).card_set("tidelights")
info = engine.info(card_set)
out = {"module": type(engine).__module__, "file": sys.modules[type(engine).__module__].__file__,
       "players": [info.min_players, info.max_players], "ends": {}}
for players in range(info.min_players, info.max_players + 1):
    game = engine.new_game(card_set, players)
    ends = []
    for seed in range(10):
        state, rng = game.new_state(seed), random.Random(seed)
        while state.decision is not None:
            state.apply(rng.choice(state.decision.options))
        ends.append(state.result().end.value)
    out["ends"][players] = ends
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The engine package pip-installed into a folder of its own, from a copy of its source."""
    work = tmp_path_factory.mktemp("tidelights-engine")
    source = work / "source"
    shutil.copytree(ENGINE, source, ignore=shutil.ignore_patterns("__pycache__", "tests", "conftest.py"))
    target = work / "site"
    proc = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--target", str(target), "--no-deps",
                           "--no-build-isolation", "--no-index", str(source)],
                          check=False, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return target


def _env(site: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CARDKIT_DEBUG")}
    env["PYTHONPATH"] = str(site)
    return env


def _plugins() -> dict[str, str]:
    """This environment's game plugins: entry point name -> where its distribution is installed."""
    return {ep.name: str(ep.dist.locate_file("") if ep.dist is not None else "")
            for ep in entry_points(group="cardkit.games")}


#: read when this module is imported, before the ``installed`` fixture runs pip
PLUGINS_BEFORE = _plugins()


def test_the_throwaway_install_leaves_this_environment_as_it_was(installed: Path):
    """The install went into its own folder only: this environment's game plugins are what they were
    before it, whether or not an engine for the example is installed here as well (a developer's
    venv may have it; CI's has not), and none of them comes from the throwaway folder."""
    after = _plugins()
    assert after == PLUGINS_BEFORE
    assert not any(Path(where).is_relative_to(installed) for where in after.values() if where)
    assert str(installed) not in sys.path


def test_the_installed_plugin_hands_out_an_engine_that_plays_every_player_count(installed: Path, tmp_path: Path):
    entry = (next(installed.glob("tidelights_engine-*.dist-info")) / "entry_points.txt").read_text(encoding="utf-8")
    assert "[cardkit.games]" in entry and "tidelights = tidelights_engine.plugin:PLUGIN" in entry
    proc = subprocess.run([sys.executable, "-c", PROBE, str(EXAMPLE)], env=_env(installed), cwd=tmp_path,
                          check=False, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert Path(out["file"]).is_relative_to(installed)  # the installed copy, not the source folder
    assert out["players"] == [1, 4]
    assert {str(n) for n in range(1, 5)} == set(out["ends"])
    assert all(end == "complete" for ends in out["ends"].values() for end in ends)


def test_the_data_still_validates_with_the_engine_installed(installed: Path, tmp_path: Path):
    proc = subprocess.run([str(CARDKIT), "validate", "--root", str(EXAMPLE)], env=_env(installed), cwd=tmp_path,
                          check=False, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_the_cli_runs_the_conformance_suite_on_the_installed_engine(installed: Path, tmp_path: Path):
    proc = subprocess.run([str(CARDKIT), "rules", "conformance", "--root", str(EXAMPLE), "--set", "tidelights",
                           "--games", "5"], env=_env(installed), cwd=tmp_path, check=False, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "conformance tidelights: conforms" in proc.stdout and "players 1, 2, 3, 4" in proc.stdout


def test_a_designer_playtests_a_copy_of_the_game_with_the_installed_engine(installed: Path, tmp_path: Path):
    """The issue's walk-through, small: a copy outside the repository, the engine pip-installed,
    then ``cardkit playtest`` with impact; every player count plays out, the score targets and
    the game's own metrics are tallied, and every card with a rule gets an impact row."""
    root = tmp_path / "tidelights"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns("output", "__pycache__", "engine"))
    proc = subprocess.run([str(CARDKIT), "playtest", "--root", str(root), "--players", "1-4", "--games", "12",
                           "--agent", "heuristic", "--impact", "--jobs", "1", "--format", "json"],
                          env=_env(installed), cwd=root, check=False, capture_output=True, text=True, timeout=600)
    assert proc.returncode in (0, 1), proc.stderr  # 1: a verdict other than "playable"
    out = json.loads(proc.stdout)
    assert [s["players"] for s in out["setups"]] == [1, 2, 3, 4]
    for setup in out["setups"]:
        assert setup["completed"] == setup["games"] == 12 and setup["violations"] == 0
        assert [t["target"] for t in setup["score"]["targets"]] == [15.0, 20.0, 25.0]
        assert sum(setup["berthed"].values()) == 12 and "wrecks_mean" in setup
    cards = {row["card"] for row in out["impact"]}
    assert len(cards) == 17 and {"saltwick", "old_salt", "jonah_pell", "tempest"} <= cards


def test_rules_play_tells_a_night_in_finnish_with_the_installed_engine(installed: Path, tmp_path: Path):
    proc = subprocess.run([str(CARDKIT), "rules", "play", "--root", str(EXAMPLE), "--set", "tidelights",
                           "--players", "2", "--seed", "4", "--locale", "fi"], env=_env(installed), cwd=tmp_path,
                          check=False, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("Vuorovesivalot, pelaajia: 2") and lines[1].startswith("Kierros 1: vuorossa ")
    assert "Pisteet" in lines[-1] and ("voitettu" in lines[-1] or "menetetty" in lines[-1])
