"""The player range is a generic field of ``set.yaml``; a game's own section (``rules``)
is validated by the JSON Schema its plugin supplies (``GamePlugin.manifest_schema``),
every problem located like any schema error (issue #22)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import cardkit.plugins
from cardkit.plugins import GamePlugin, declared_players
from cardkit.load.project import load_project
from tests.conftest import REPO

EXAMPLE = REPO / "examples" / "tidelights"
SECTION_SCHEMA = {
    "type": "object", "additionalProperties": False, "required": ["tide_height"],
    "properties": {"tide_height": {"type": "integer", "minimum": 1, "maximum": 9}},
}


@pytest.fixture
def tidelights(tmp_path: Path) -> Path:
    """A copy of the data-only example game, its manifest given a section of its own."""
    root = tmp_path / "tidelights"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns("engine", "output", "__pycache__"))
    manifest = root / "cards/tidelights/set.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + "rules:\n  tide_height: 12\n", encoding="utf-8")
    return root


def _plugin(schema: object) -> GamePlugin:
    return GamePlugin(name="tidelights", manifest_schema=lambda: schema)  # type: ignore[arg-type,return-value]


def test_a_data_only_game_states_its_players_and_keeps_its_own_section(tidelights: Path, cli):
    """No plugin schema: the section is the game's data (faces may read it), the range generic."""
    cardkit.plugins.unregister("tidelights")
    result = cli("validate", "--root", str(tidelights))
    assert result.code == 0, result.err
    project = load_project(tidelights)
    card_set = project.sets["tidelights"].set
    assert card_set is not None and declared_players(card_set) == (1, 4)
    assert card_set.manifest["rules"]["tide_height"] == 12


def test_the_plugin_schema_checks_the_section_with_located_lines(tidelights: Path, cli):
    manifest = tidelights / "cards/tidelights/set.yaml"
    line = manifest.read_text(encoding="utf-8").splitlines().index("  tide_height: 12") + 1
    cardkit.plugins.register(_plugin(SECTION_SCHEMA))
    try:
        result = cli("validate", "--root", str(tidelights))
    finally:
        cardkit.plugins.unregister("tidelights")
    assert result.code == 1
    assert "Traceback" not in result.err
    assert result.err.splitlines()[0] == (f"cards/tidelights/set.yaml:{line}:16: error[S005]: value 12 is out of range "
                                          "(maximum 9)")


def test_a_plugin_schema_that_is_no_json_schema_is_one_located_line(tidelights: Path, cli):
    manifest = tidelights / "cards/tidelights/set.yaml"
    line = manifest.read_text(encoding="utf-8").splitlines().index("rules:") + 1
    cardkit.plugins.register(_plugin({"type": "integer-ish"}))
    try:
        result = cli("validate", "--root", str(tidelights))
    finally:
        cardkit.plugins.unregister("tidelights")
    assert result.code == 1
    lines = [ln for ln in result.err.splitlines() if "error[" in ln]
    assert len(lines) == 1 and lines[0].startswith(f"cards/tidelights/set.yaml:{line}:1: error[G040]: game 'tidelights': "
                                                   "its plugin's manifest schema is not a valid JSON Schema"), result.err


def test_death_angel_reads_its_range_from_the_generic_field():
    project = load_project(REPO)
    card_set = project.sets["death-angel"].set
    assert card_set is not None and "players" not in card_set.manifest["rules"]
    assert declared_players(card_set) == (1, 6)
    rules = card_set.rules  # type: ignore[attr-defined]
    assert (rules.min_players, rules.max_players) == (1, 6)


def test_a_plugin_may_add_manifest_keys_but_never_redefine_cardkit_ones(tidelights: Path, cli):
    """``GamePlugin.manifest_keys``: a game's own top-level keys and component counts are checked
    with the generic schema, located; without the plugin they are unknown keys (S001)."""
    from cardkit.plugins import ManifestKeys

    manifest = tidelights / "cards/tidelights/set.yaml"
    text = manifest.read_text(encoding="utf-8").replace("rules:\n  tide_height: 12\n", "lantern: {height: 99}\n")
    manifest.write_text(text, encoding="utf-8")
    line = text.splitlines().index("lantern: {height: 99}") + 1
    cardkit.plugins.unregister("tidelights")
    assert f"set.yaml:{line}:1: error[S001]: unknown key 'lantern'" in cli("validate", "--root", str(tidelights)).err
    lantern = {"type": "object", "properties": {"height": {"type": "integer", "maximum": 9}}}
    for keys, code in ((ManifestKeys(keys={"lantern": lantern}), "S005"),
                       (ManifestKeys(keys={"lantern": lantern, "title": {"type": "string"}}), "G055"),
                       (ManifestKeys(keys={"lantern": {"type": "lamp"}}), "G040")):
        cardkit.plugins.register(GamePlugin(name="tidelights", manifest_keys=lambda keys=keys: keys))
        try:
            result = cli("validate", "--root", str(tidelights))
        finally:
            cardkit.plugins.unregister("tidelights")
        errors = [ln for ln in result.err.splitlines() if "error[" in ln]
        assert result.code == 1 and "Traceback" not in result.err and len(errors) == 1, result.err
        assert f"error[{code}]" in errors[0], result.err
        if code == "G055":
            assert "redefine cardkit's own (title)" in errors[0]
        if code == "S005":
            assert errors[0].startswith(f"cards/tidelights/set.yaml:{line}:")
