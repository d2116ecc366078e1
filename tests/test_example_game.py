"""The example game Tidelights (examples/tidelights), a game written only as data.

The folder is copied outside the repository and driven through the installed ``cardkit``
console script, as a designer with their own game would: validate, update and check the
catalogs (fit included), build the PDF in three languages, the PNGs and the Tabletop
Simulator sheets, then open what was written and look inside.  The expected counts are
derived from the example's own data files, not written down here.
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest
import yaml
from babel.messages.pofile import read_po
from PIL import Image
from pypdf import PdfReader

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "tidelights"
SET = EXAMPLE / "cards" / "tidelights"
CARDKIT = Path(sys.executable).with_name("cardkit")
LOCALES = ("fi", "ko")


def _yaml(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _data() -> dict:
    """What the example's own files say: card entries, physical cards per deck, faces."""
    manifest, declared, faces = _yaml(SET / "set.yaml"), _yaml(SET / "kinds.yaml"), _yaml(SET / "faces.yaml")
    kinds, types = declared["kinds"], declared.get("types", {})
    by_file_kind = {k["file_kind"]: (name, k) for name, k in kinds.items()}

    def default(field: dict) -> int:
        return field.get("default", types.get(field["type"], {}).get("default", 1))

    entries, per_deck = 0, {}
    for rel in manifest["files"]:
        doc = _yaml(SET / rel)
        _, kind = by_file_kind[doc["kind"]]
        for card in doc["cards"]:
            entries += 1
            rule = kind.get("quantity", 1)
            n = rule if isinstance(rule, int) else card.get(rule["field"], default(kind["fields"][rule["field"]]))
            deck = kind["deck"]
            when = kind.get("deck_when")
            if when and card.get(when["field"]) == when["equals"]:
                deck = when["deck"]
            per_deck[deck] = per_deck.get(deck, 0) + n
    extras = faces.get("extras", [])
    return {"manifest": manifest, "entries": entries, "per_deck": per_deck, "extras": extras,
            "physical": sum(per_deck.values())}


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the example in a temporary folder outside the repository."""
    root = tmp_path_factory.mktemp("designer") / "tidelights"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns("output", "__pycache__"))
    assert not root.resolve().is_relative_to(REPO.resolve())
    return root


def _run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CARDKIT_DEBUG")}
    return subprocess.run([str(CARDKIT), *args, "--root", str(root)], cwd=root, env=env, capture_output=True,
                          text=True, timeout=600)


def _translation(locale: str, msgctxt: str) -> str:
    with (EXAMPLE / "locales" / locale / "LC_MESSAGES" / "tidelights.po").open("rb") as f:
        catalog = read_po(f, locale=locale)
    found = [m.string for m in catalog if m.context == msgctxt]
    assert found and found[0], msgctxt
    return found[0]


def test_the_game_is_data_only_and_its_engine_is_a_package_beside_it():
    """The game is data; its rules engine is a separate plugin package beside it (``engine/``),
    which this environment may or may not install (tests/test_tidelights_engine.py installs it into a
    folder of its own): if a plugin for the game is installed, it is that package, never cardkit."""
    assert CARDKIT.is_file()
    engine = EXAMPLE / "engine"
    assert (engine / "pyproject.toml").is_file()
    assert not [p for p in EXAMPLE.rglob("*") if p.suffix in (".py", ".pyc", ".toml", ".cfg")
                and not p.is_relative_to(engine)]
    manifest = _yaml(SET / "set.yaml")
    for ep in entry_points(group="cardkit.games"):
        if ep.name == manifest["game"]:
            assert ep.dist is not None and ep.dist.name == "tidelights-engine", ep
            assert ep.value.split(".", 1)[0] == "tidelights_engine", ep
    data = _data()
    assert data["physical"] == manifest["components"]["cards"]
    assert 30 <= data["physical"] <= 60
    kinds = _yaml(SET / "kinds.yaml")
    assert len(kinds["kinds"]) >= 4
    # icons are SVG files of the set; the artwork is PNG drawn by tools/draw_example_art.py
    icons = _yaml(SET / "faces.yaml")["icons"]
    assert icons and all((SET / rel).suffix == ".svg" and (SET / rel).is_file() for rel in icons.values())
    for rel in manifest["files"]:
        first = (SET / rel).read_text(encoding="utf-8").splitlines()[0]
        assert first == f"# yaml-language-server: $schema=schemas/{_yaml(SET / rel)['kind']}.schema.json"
    for png in (SET / "art").glob("*.png"):
        assert png.stat().st_size < 200_000, png


def test_the_artwork_is_regenerated_byte_for_byte():
    proc = subprocess.run([sys.executable, str(REPO / "tools" / "draw_example_art.py"), "--check"], capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert len(list((SET / "art").glob("*.png"))) >= 2


def test_validate_is_clean(game: Path):
    proc = _run(game, "validate")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "warning" not in (proc.stdout + proc.stderr).lower()
    assert f"tidelights {_data()['physical']} cards" in proc.stdout


def test_catalogs_are_current(game: Path):
    proc = _run(game, "l10n", "update", "--check")
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize("locale", LOCALES)
def test_translations_check_clean_with_fit(game: Path, locale: str):
    proc = _run(game, "l10n", "check", "--locale", locale, "--format", "json")
    report = json.loads(proc.stdout)
    problems = [f for f in report["findings"] if f["severity"] in ("error", "warning")]
    assert proc.returncode == 0 and report["ok"] and not problems, problems
    coverage = report["coverage"][locale]["tidelights"]
    assert coverage["translated"] == coverage["total"] > 0
    # fit was checked through the faces: every laid-out string fits, the card strings among them
    fits = [f for f in report["fit"] if f["locale"] == locale]
    assert fits and all(f["status"] in ("fits", "shrunk") for f in fits), [f for f in fits if f["status"] not in ("fits", "shrunk")]
    assert {"tempest.text", "lantern_queen.name", "gullmere_quay.berths.fish_market.label"} <= {f["msgctxt"] for f in fits}


@pytest.mark.parametrize("locale", ("en", *LOCALES))
def test_pdf_builds_and_holds_the_translated_cards(game: Path, locale: str):
    out = game / "output" / f"tidelights-{locale}.pdf"
    proc = _run(game, "build", "pdf", "--set", "tidelights", "--locale", locale, "--out", str(out))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    data = _data()
    cards = data["physical"] + len(data["extras"])
    reader = PdfReader(out)
    # two duplex calibration pages, then a front and a back page per sheet of 3 x 3 cards
    assert len(reader.pages) == 2 + 2 * math.ceil(cards / 9)
    text = re.sub(r"\s+", " ", " ".join(page.extract_text() for page in reader.pages))
    if locale == "en":
        assert "The Lantern Queen" in text
    else:
        for msgctxt in ("lantern_queen.name", "tempest.name", "gullmere_quay.berths.fish_market.label"):
            translated = _translation(locale, msgctxt)
            assert translated in text, (msgctxt, translated)
        assert "The Lantern Queen" not in text


def test_png_faces(game: Path):
    proc = _run(game, "build", "png", "--set", "tidelights", "--locale", "ko", "--dpi", "150")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    pngs = sorted((game / "output" / "png" / "tidelights-ko").glob("*.png"))
    data = _data()
    # one image per distinct face: each card entry's front, each deck's back, the extra card
    assert len(pngs) == data["entries"] + len(data["per_deck"]) + len(data["extras"])
    sizes = {Image.open(p).size for p in pngs}
    assert len(sizes) == 1
    w, h = sizes.pop()
    assert abs(w / h - (63 + 6) / (88 + 6)) < 0.01  # 63 x 88 mm with 3 mm bleed on every side


def test_tabletop_simulator_sheets(game: Path):
    proc = _run(game, "build", "tts", "--set", "tidelights", "--locale", "fi")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    folder = game / "output" / "tts" / "tidelights-fi"
    backs = {p.name.removesuffix("-back.png"): Image.open(p).size for p in folder.glob("*-back.png")}
    data = _data()
    assert set(backs) == set(data["per_deck"]) | {e["deck"] for e in data["extras"]}
    w, h = next(iter(backs.values()))
    assert abs(w / h - 63 / 88) < 0.01
    for deck, n in data["per_deck"].items():
        sheet = Image.open(folder / f"{deck}-1.png")
        assert sheet.size == (min(n, 10) * w, math.ceil(n / 10) * h), deck


def test_playtest_says_in_one_line_that_the_game_has_no_engine(game: Path, tmp_path: Path):
    """A data-only game whose engine is not installed: the copy names a game no plugin serves (the
    example's own engine may be installed in this environment, or not)."""
    root = tmp_path / "unplugged"
    shutil.copytree(game, root)
    manifest = root / "cards" / "tidelights" / "set.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("\ngame: tidelights\n", "\ngame: unplugged\n"),
                        encoding="utf-8")
    proc = _run(root, "playtest", "--set", "tidelights")
    assert proc.returncode == 1
    lines = [line for line in (proc.stdout + proc.stderr).splitlines() if line.strip()]
    assert len(lines) == 1 and "error[G008]: game 'unplugged' has no rules engine" in lines[0], lines
    assert "Traceback" not in proc.stderr
