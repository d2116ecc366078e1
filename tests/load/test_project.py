"""The shipped project loads clean and matches the published component list."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import yaml

from cardkit.games.death_angel.vocabulary import effect_schema_text
from cardkit.load.project import load_project
from cardkit.load.schema import schema_dir
from cardkit.games.death_angel.cards import Action, Event, Location, SetupCard
from tests.conftest import REPO

FACTS = REPO.parent / "shared" / "reference" / "death-angel-facts.yaml"


def test_validate_json_on_shipped_project(cli):
    result = cli("validate", "--root", str(REPO), "--format", "json")
    assert result.code == 0, result.err
    report = json.loads(result.out)
    assert report["ok"] is True
    assert report["errors"] == []
    assert report["sets"]["death-angel"]["cards"] == 128
    assert report["sets"]["deep-strike"]["cards"] == 6


def test_validate_text_summary(cli):
    result = cli("validate", "--root", str(REPO))
    assert result.code == 0
    assert result.out.startswith("ok: 2 set(s)")
    assert result.err == ""


def test_card_mix_matches_component_list():
    s = load_project(REPO).card_set("death-angel")
    by_kind = Counter()  # by deck: Brood Lords are Genestealer cards with their own back
    for c in s.cards.values():
        by_kind[s.kinds[c.kind].deck_of(c.fields)] += c.quantity
    components = yaml.safe_load(FACTS.read_text())["components"] if FACTS.exists() else None
    expected = {"action": 18, "marine": 12, "event": 30, "genestealer": 36, "brood_lord": 2,
                "location": 18, "setup": 4, "terrain": 8}
    if components:
        expected = {"action": components["action_cards"], "marine": components["space_marine_cards"],
                    "event": components["event_cards"], "genestealer": components["genestealer_cards"],
                    "brood_lord": components["brood_lord_cards"], "location": components["mission_location_cards"],
                    "setup": components["setup_location_cards"], "terrain": components["terrain_cards"]}
    assert dict(by_kind) == expected


def test_action_numbers_and_event_copies():
    s = load_project(REPO).card_set("death-angel")
    assert sorted(a.order for a in s.of_kind(Action)) == list(range(1, 19))
    twins = [e for e in s.of_kind(Event) if len(set(e.moves)) > 1]
    assert sorted(e.id for e in twins) == ["out_of_thin_air", "the_swarm"]
    # every setup deck can be dealt and ends on a final location
    tiers = Counter(loc.tier for loc in s.of_kind(Location))
    for st in s.of_kind(SetupCard):
        assert all(tiers[t] >= n for t, n in Counter(st.deck).items())


def test_location_facts_agree_with_reference():
    """Blips and terrain of every location equal the reference dossier's primary values."""
    if not FACTS.exists():
        return
    facts = {loc["id"]: loc for loc in yaml.safe_load(FACTS.read_text())["locations"]}
    s = load_project(REPO).card_set("death-angel")
    for loc in s.of_kind(Location):
        f = facts[loc.id]
        assert loc.blips == (f["blips"]["left"], f["blips"]["right"]), loc.id
        assert loc.tier == f["tier"], loc.id
        assert [(p.side, p.terrain, p.position, p.count_from) for p in loc.terrain] == \
            [(t["side"], t["terrain"], t["number"], t["count_from"]) for t in f["terrain"]], loc.id


def test_effect_schema_is_generated_from_vocabulary():
    """The game's effect schema is its plugin's, written beside the set's derived schemas for
    editors; cardkit's generic schemas/ holds no game's schema."""
    assert (REPO / "cards" / "death-angel" / "schemas" / "effect.schema.json").read_text(encoding="utf-8") \
        == effect_schema_text()
    assert not (REPO / "schemas" / "effect.schema.json").exists()


def test_package_uses_the_project_schemas():
    used = schema_dir()
    shipped = REPO / "schemas"
    names = sorted(p.name for p in shipped.glob("*.json"))
    assert names == sorted(p.name for p in used.glob("*.json"))
    for name in names:
        assert (used / name).read_bytes() == (shipped / name).read_bytes(), name


def test_card_files_declare_their_schema():
    """Manifests and kind declarations point at the shipped schemas; card files at
    the schema derived from their set's kinds.yaml, beside them."""
    for path in sorted((REPO / "cards").rglob("*.yaml")):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        kind = yaml.safe_load(path.read_text(encoding="utf-8"))["kind"]
        if kind in ("set", "kinds", "faces", "strings"):
            shipped = {"faces": "face"}.get(kind, kind)
            assert first == f"# yaml-language-server: $schema=../../schemas/{shipped}.schema.json", path
        else:
            assert first == f"# yaml-language-server: $schema=schemas/{kind}.schema.json", path
        schema = (path.parent / first.split("=", 1)[1]).resolve()
        assert schema.is_file(), path


def test_derived_schemas_are_committed_and_current():
    """Each set's schemas/ holds exactly what its kinds.yaml derives (the editor's copy)."""
    from cardkit.load.project import derived_schemas

    project = load_project(REPO)
    assert derived_schemas(project) == []
    for sid, loaded in project.sets.items():
        on_disk = {p.relative_to(REPO).as_posix() for p in (REPO / loaded.set.directory / "schemas").glob("*.json")}
        assert on_disk == set(loaded.derived), sid
        for rel, text in loaded.derived.items():
            assert json.loads(text), rel  # valid JSON


def test_wheel_carries_the_same_schemas(tmp_path: Path):
    """Build the wheel as a plain ``pip install`` does and compare its schema
    files with schemas/; without CARDKIT_COMPILE=1 the wheel is pure Python, with
    no compiled file in it."""
    import os
    import subprocess
    import sys
    import zipfile

    env = {k: v for k, v in os.environ.items() if k not in ("CARDKIT_PURE", "CARDKIT_COMPILE")}
    out = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", str(tmp_path), str(REPO)],
                         capture_output=True, text=True, env=env)
    if out.returncode != 0:  # hatchling missing from the environment: build with isolation
        out = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(tmp_path), str(REPO)],
                             capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr[-2000:]
    wheel = next(tmp_path.glob("cardkit-*.whl"))
    assert wheel.name.endswith("-py3-none-any.whl"), wheel.name
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        assert not [n for n in names if n.endswith((".so", ".pyd")) or n.endswith("_compiled.json")]
        assert "cardkit/games/death_angel/engine.py" in names
        packed = {Path(n).name: zf.read(n) for n in names if n.startswith("cardkit/_data/schemas/")}
        starter = {n for n in names if n.startswith("cardkit/starter/")}
        catalogs = {n: zf.read(n) for n in names if n.startswith("cardkit/_data/locales/")}
    shipped = {p.name: p.read_bytes() for p in (REPO / "schemas").glob("*.json")}
    assert packed == shipped
    # `cardkit init` copies its starter game from the package
    assert starter == {f"cardkit/{p.relative_to(REPO / 'cardkit').as_posix()}"
                       for p in (REPO / "cardkit" / "starter").rglob("*") if p.is_file()}
    # cardkit's own ui catalogs, every locale the repository keeps, for projects without a ui.po
    assert catalogs == {f"cardkit/_data/{p.relative_to(REPO).as_posix()}": p.read_bytes()
                        for p in (REPO / "locales").glob("*/LC_MESSAGES/ui.po")}


def test_effects_doc_is_current():
    from cardkit.games.death_angel.vocabulary import effects_markdown

    assert (REPO / "docs" / "effects.md").read_text(encoding="utf-8") == effects_markdown()


def test_core_schemas_are_copied_where_the_modelines_point(tmp_path: Path, cli):
    """A project outside the repository gets cardkit's own schemas under
    schemas/ from --write-schemas (those its files' modelines name, and what
    they refer to); a missing or different copy is a K010 warning, and in the
    repository the copies are the very files cardkit reads."""
    from cardkit.load.project import core_schemas

    for name in ("cards", "locales"):
        shutil.copytree(REPO / name, tmp_path / name)
    first = cli("validate", "--root", str(tmp_path))
    assert first.code == 0, first.err
    warned = sorted(ln.split(":", 1)[0] for ln in first.err.splitlines() if "warning[K010]" in ln)
    # set.yaml, kinds.yaml, faces.yaml, strings.yaml and the glossaries point at five; set.schema.json refers to common
    assert warned == [f"schemas/{n}.schema.json" for n in ("common", "face", "glossary", "kinds", "set", "strings")]
    assert cli("validate", "--root", str(tmp_path), "--write-schemas").code == 0
    for name in warned:
        assert (tmp_path / name).read_bytes() == (schema_dir() / Path(name).name).read_bytes()
    assert "K010" not in cli("validate", "--root", str(tmp_path)).err
    (tmp_path / "schemas" / "face.schema.json").write_text("{}", encoding="utf-8")
    again = cli("validate", "--root", str(tmp_path))
    assert again.code == 0
    assert [ln for ln in again.err.splitlines() if "K010" in ln] == [
        "schemas/face.schema.json:1:1: warning[K010]: cardkit's schema differs from the one this cardkit reads "
        "(editors validate through it); run: cardkit validate --write-schemas"]
    assert core_schemas(REPO) == []  # the repository's schemas/ is what cardkit reads: nothing to write
