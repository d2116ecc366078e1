"""The plugin registry (cardkit/plugins.py): one engine lookup for every command.

A plugin whose engine hook hands out something that is not the typed engine protocol (the old
``(Game class, agents)`` pair, or the engine's class instead of an engine) gets the same one
G032 line from every command that drives an engine, exit 1, no traceback, nothing written."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from cardkit.errors import CardkitError
from cardkit.plugins import GamePlugin, engine_for, register, unregister
from tests.conftest import REPO
from tests.games.duel.engine import ENGINE, DuelEngine, DuelGame

DUEL = REPO / "tests" / "games" / "duel"

NOT_THE_PROTOCOL: dict[str, Callable[[], object]] = {
    "pair": lambda: (DuelGame, {}),  # the old (Game class, agents) hook
    "class": lambda: DuelEngine,  # the class, not an engine
    "other": lambda: object(),
}

COMMANDS = {
    "playtest": ("playtest", "--players", "2", "--games", "2"),
    "rules play": ("rules", "play", "--players", "2"),
    "rules conformance": ("rules", "conformance", "--games", "2"),
    "rules scenario": ("rules", "scenario", "nothing.yaml"),
    "build": ("build",),
}


@pytest.fixture()
def duel_copy(tmp_path: Path) -> Path:
    shutil.copytree(DUEL, tmp_path / "duel", ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    return tmp_path / "duel"


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_gives_one_g032_line(cli, duel_copy: Path, command: str):
    register(GamePlugin(name="duel", engine=NOT_THE_PROTOCOL["pair"]))  # type: ignore[arg-type]
    try:
        r = cli(*COMMANDS[command], "--root", str(duel_copy))
    finally:
        unregister("duel")
    assert r.code == 1, r.err
    assert "Traceback" not in r.err
    assert r.err.splitlines() == [
        "cardkit: error[G032]: the rules engine of game 'duel' does not implement the typed engine protocol "
        "(cardkit.rules.protocol.Engine: info, new_game, abilities, agents, rollout_policy), "
        f"so `cardkit {command}` cannot drive it"]
    assert not (duel_copy / "output").exists()  # the build stops before writing anything


@pytest.mark.parametrize("kind", sorted(NOT_THE_PROTOCOL))
def test_the_lookup_checks_the_protocol(kind: str):
    register(GamePlugin(name="duel", engine=NOT_THE_PROTOCOL[kind]))  # type: ignore[arg-type]
    try:
        with pytest.raises(CardkitError) as err:
            engine_for("duel", "playtest")
    finally:
        unregister("duel")
    assert [i.code for i in err.value.issues] == ["G032"]


def test_the_lookup_hands_out_a_protocol_engine_and_says_when_there_is_none():
    register(GamePlugin(name="duel", engine=lambda: ENGINE))
    try:
        assert engine_for("duel", "playtest") is ENGINE
    finally:
        unregister("duel")
    with pytest.raises(CardkitError) as err:
        engine_for("no-such-game", "playtest")
    assert [i.code for i in err.value.issues] == ["G008"]

