"""docs/engines.md is a walk that works: its files, written into a `cardkit init`
folder, make an engine that passes `cardkit rules conformance` and that the
generic agents play; every code the page names is in docs/errors.md."""

from __future__ import annotations

import importlib
import random
import re
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from cardkit.plugins import register, unregister
from cardkit.load.project import load_project
from cardkit.rules.agents import parse_agent, play
from cardkit.rules.conformance import hidden_independence
from tests.conftest import REPO

DOC = (REPO / "docs" / "engines.md").read_text(encoding="utf-8")
FILES = re.compile(r"<!-- file: (?P<path>[\w./-]+) -->\n```\w+\n(?P<body>.*?)```", re.DOTALL)


@pytest.fixture
def walked(tmp_path: Path, cli) -> Iterator[Path]:
    """The page's steps: cardkit init, the engine's files, the plugin registered in-process."""
    root = tmp_path / "mygame"
    assert cli("init", str(root)).code == 0
    files = {m["path"]: m["body"] for m in FILES.finditer(DOC)}
    assert set(files) == {"engine/pyproject.toml", "engine/mygame_engine/__init__.py"}
    for rel, body in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(body, encoding="utf-8")
    entry = tomllib.loads(files["engine/pyproject.toml"])["project"]["entry-points"]["cardkit.games"]
    assert entry == {"mygame": "mygame_engine:PLUGIN"}
    sys.path.insert(0, str(root / "engine"))
    try:
        module = importlib.import_module("mygame_engine")
        register(module.PLUGIN)
        yield root
    finally:
        unregister("mygame")
        sys.path.remove(str(root / "engine"))
        sys.modules.pop("mygame_engine", None)


def test_the_walk_gives_an_engine_that_conforms(walked: Path, cli):
    r = cli("rules", "conformance", "--root", str(walked))
    assert r.code == 0, r.err
    line = r.out.strip()
    assert line.startswith("conformance mygame: conforms; ")
    assert f"\n{line}\n" in DOC  # the page shows what the command prints


def test_the_generic_agents_play_the_walked_engine(walked: Path):
    from mygame_engine import Engine  # type: ignore[import-not-found]

    engine = Engine()
    card_set = load_project(walked).card_set("mygame")
    mcts = parse_agent("mcts:30", engine, card_set).factory
    results = []
    for seed in range(6):
        st = engine.new_game(card_set, 2).new_state(seed)
        play(st, [mcts(seed), parse_agent("random", engine, card_set).factory(seed)], random.Random(seed))
        results.append(st.result())
    assert all(r is not None and r.complete and len(r.seats) == 2 for r in results)
    issues, compared = hidden_independence(engine, card_set, 2, mcts, games=8, per_game=2)
    assert issues == [] and compared > 0


def test_every_code_on_the_page_is_documented():
    documented = set(re.findall(r"^\| ([A-Z]\d{3}) \|", (REPO / "docs" / "errors.md").read_text(encoding="utf-8"), re.MULTILINE))
    named = set(re.findall(r"\b([A-Z]\d{3})\b", DOC))
    assert named and named <= documented, sorted(named - documented)


def test_the_outcome_declarations_run():
    """The page's declarations of a scored and a competitive game run as written."""
    block = re.search(r"<!-- run: outcomes -->\n```python\n(?P<body>.*?)```", DOC, re.DOTALL)
    assert block is not None
    scope: dict[str, object] = {}
    exec(compile(block["body"], "docs/engines.md", "exec"), scope)  # noqa: S102  (the page's own code)
    from cardkit.rules.protocol import Outcome

    assert scope["lanterns"].outcome is Outcome.SCORED  # type: ignore[attr-defined]
    from tests.games.lanterns.engine import ENGINE as LANTERNS
    from tests.games.trumps.engine import ENGINE as TRUMPS

    # what the page declares is what the test games declare (the metrics aside)
    assert scope["lanterns"] == replace(LANTERNS.info(None), metrics=())
    assert scope["trumps"] == replace(TRUMPS.info(None), metrics=())
