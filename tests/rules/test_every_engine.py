"""Every engine cardkit can find keeps the protocol (OpenSpiel's ``api_test``: one suite over every
registered game).

The engines are those of the installed plugins (the ``cardkit.games`` entry points of this
environment), the engine packages in the repository (``examples/*/engine``, by the entry point
their ``pyproject.toml`` declares) and the test games (``tests/games/<game>/engine.py`` with a
``PLUGIN``), registered in-process.  Each is looked up through the one lookup every command uses
(:func:`cardkit.plugins.engine_for`: the protocol check, G032) and runs the conformance suite
(:mod:`cardkit.rules.conformance`) on a card set of its game found in the repository, two seeded
games per player count of its whole range: a new engine is checked the day it is added, and an
engine with no set to play is a failure, not a skip."""

from __future__ import annotations

import importlib
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardkit.load.project import load_project
from cardkit.model import CardSet
from cardkit.plugins import GamePlugin, engine_for, plugins, register, unregister
from cardkit.rules.conformance import run
from tests.conftest import REPO

GAMES = 2  # seeded games per player count (and one with every ability switched off)

#: the project folders whose sets the engines play
PROJECTS = (REPO, *sorted(p for p in (REPO / "examples").iterdir() if (p / "cards").is_dir()),
            *sorted(p for p in (REPO / "tests" / "games").iterdir() if (p / "cards").is_dir()))


def repository_engine_packages() -> dict[str, tuple[Path, str]]:
    """Game id -> (the package's folder, ``module:attribute`` of its plugin), for every engine
    package of the repository's examples."""
    out = {}
    for toml in sorted((REPO / "examples").glob("*/engine/pyproject.toml")):
        entry = tomllib.loads(toml.read_text(encoding="utf-8"))["project"].get("entry-points", {})
        for game, target in entry.get("cardkit.games", {}).items():
            out[game] = (toml.parent, target)
    return out


def game_plugins_of_tests() -> dict[str, str]:
    """Game id -> the module holding the ``PLUGIN`` of every test game under ``tests/games``."""
    return {importlib.import_module(f"tests.games.{d.name}.engine").PLUGIN.name: f"tests.games.{d.name}.engine"
            for d in sorted((REPO / "tests" / "games").iterdir()) if (d / "engine.py").is_file()}


def engines() -> list[str]:
    """Every game id with an engine: installed, in the repository's examples, or a test game."""
    installed = {name for name, p in plugins().items() if p.engine is not None}
    return sorted(installed | set(repository_engine_packages()) | set(game_plugins_of_tests()))


def _set_of(game: str) -> CardSet | None:
    """The first card set of ``game`` in the repository's projects, loaded with its plugin known."""
    for root in PROJECTS:
        project = load_project(root)
        for set_id in sorted(project.sets):
            card_set = project.sets[set_id].set
            if card_set is not None and card_set.game == game:
                assert not project.issues, [i.format() for i in project.issues]
                return card_set
    return None


def _plugin(game: str) -> GamePlugin | None:
    """The plugin to register in-process for a game that is not installed (None: it is)."""
    if game in game_plugins_of_tests():
        return importlib.import_module(game_plugins_of_tests()[game]).PLUGIN
    if game in repository_engine_packages() and game not in plugins():
        folder, target = repository_engine_packages()[game]
        module, _, attribute = target.partition(":")
        sys.path.insert(0, str(folder))
        try:
            return getattr(importlib.import_module(module), attribute)
        finally:
            sys.path.remove(str(folder))
    return None


@pytest.fixture()
def found(request: pytest.FixtureRequest) -> Iterator[str]:
    game = request.param
    plugin = _plugin(game)
    if plugin is not None:
        register(plugin)
    try:
        yield game
    finally:
        if plugin is not None:
            unregister(game)


@pytest.mark.parametrize("found", engines(), indirect=True)
def test_the_engine_conforms(found: str):
    card_set = _set_of(found)
    assert card_set is not None, f"no card set of game '{found}' in {', '.join(p.name for p in PROJECTS)} to run its engine on"
    engine = engine_for(found, "test")
    result = run(engine, card_set, None, GAMES, seed=1)
    assert not result.findings, f"{found}: the engine breaks the protocol:\n" + "\n".join(i.format() for i in result.issues)
    info = engine.info(card_set)
    assert result.players == tuple(range(info.min_players, info.max_players + 1)) and result.games > 0
    # clones of determinized states were played and compared (R005, R006) at every player count
    assert result.worlds_cloned >= sum(result.players)


def test_the_suite_reaches_every_kind_of_engine():
    """Installed (Death Angel, by the package's own entry point), an example's package
    (Tidelights) and a test game (the duel) are all in the list."""
    assert {"death-angel", "tidelights", "duel"} <= set(engines())
    assert "death-angel" in {n for n, p in plugins().items() if p.engine is not None}
    assert repository_engine_packages()["tidelights"][1] == "tidelights_engine.plugin:PLUGIN"
    assert game_plugins_of_tests()["duel"] == "tests.games.duel.engine"
