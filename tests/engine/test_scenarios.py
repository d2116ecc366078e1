"""Every rule scenario passes, and together they exercise every card of the set."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from cardkit.games.death_angel.scenario import run_scenario
from cardkit.load.project import load_project
from tests.conftest import REPO

FOLDER = REPO / "tests" / "scenarios" / "death-angel"
FILES = sorted(p for p in FOLDER.glob("*.yaml"))
DA = load_project(REPO).card_set("death-angel")


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_scenario(path: Path):
    result = run_scenario(DA, path, path.relative_to(REPO).as_posix())
    assert result.passed, "\n".join(result.diffs)


def test_scenarios_cover_every_card():
    covered: set[str] = set()
    for p in FILES:
        covered.update(c.split("#")[0] for c in yaml.safe_load(p.read_text(encoding="utf-8")).get("covers", []))
    # every card with an ability: not the marines, not the plain Genestealers (Brood Lords are covered)
    cards = {c.id for c in DA.cards.values()
             if c.kind != "marine" and not (c.kind == "genestealer" and not c.fields["brood_lord"])}
    assert sorted(cards - covered) == []


def test_a_failing_expectation_is_reported(tmp_path: Path):
    text = (FOLDER / "block.yaml").read_text(encoding="utf-8").replace("alive: true", "alive: false")
    broken = tmp_path / "broken.yaml"
    broken.write_text(text, encoding="utf-8")
    result = run_scenario(DA, broken, "broken.yaml")
    assert result.diffs == ["marine sergeant_gideon alive: expected False, got True"]


def test_scenario_index_is_current():
    lines = (REPO / "docs" / "rule-scenarios.md").read_text(encoding="utf-8")
    for p in FILES:
        assert f"`{p.name}`" in lines, f"{p.name} is missing from docs/rule-scenarios.md"
