"""Fixtures shared by the playtest tests."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

import cardkit.plugins
from tests.conftest import REPO
from tests.games.lanterns.engine import PLUGIN as LANTERNS
from tests.games.trumps.engine import PLUGIN as TRUMPS


@pytest.fixture()
def games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Path]]:
    """Copies of the scored (lanterns) and the competitive (trumps) test games' projects, their
    plugins registered in-process for the test and unregistered after it."""
    roots = {}
    for name in ("lanterns", "trumps"):
        roots[name] = tmp_path / name
        shutil.copytree(REPO / "tests" / "games" / name, roots[name],
                        ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    from cardkit.playtest import sweep

    monkeypatch.setattr(sweep, "_CACHE", {})
    monkeypatch.setattr(sweep, "_GAMES", {})
    cardkit.plugins.register(LANTERNS)
    cardkit.plugins.register(TRUMPS)
    yield roots
    cardkit.plugins.unregister(LANTERNS.name)
    cardkit.plugins.unregister(TRUMPS.name)
