"""The generic core names no game: no kind of a bundled set (name, deck or label)
and no game id appears in the card model, the loader, localization, layout or
rendering (issue #14). Game knowledge lives in the sets' data (kinds.yaml,
faces.yaml, strings.yaml) and in the engine plugins (cardkit/games)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import yaml

from tests.conftest import REPO

GENERIC = ("cardkit/model.py", "cardkit/load", "cardkit/i18n", "cardkit/layout", "cardkit/render")

# Generic uses of a word that is also a kind name and cannot be avoided:
# (file, exact word, a fragment of the line it is allowed on, or "" for any line).
ALLOWED = (
    # gettext's "#:" source references, Babel's ``Message.locations`` API
    ("cardkit/i18n/catalogs.py", "locations", ""),
    # the playtest report's English (a "setup" is a game configuration there); rewording it
    # would send every translation back to fuzzy
    ("cardkit/i18n/ui.yaml", "setup", "{id: report.subtitle,"),
)


def allowed(rel: str, word: str, line: str) -> bool:
    return any(rel == f and word.lower() == w and frag in line for f, w, frag in ALLOWED)


def game_terms(root: Path) -> set[str]:
    """Every kind name, deck name and kind label of the bundled sets (the label
    without its trailing "card", and its last word: "Space Marine card" gives
    "space marine" and "marine"), and each set's game id, in lower case with
    words separated by one space."""
    terms: set[str] = set()
    for kinds_file in sorted((root / "cards").glob("*/kinds.yaml")):
        manifest = yaml.safe_load((kinds_file.parent / "set.yaml").read_text(encoding="utf-8"))
        terms.add(manifest["game"])
        for name, kind in yaml.safe_load(kinds_file.read_text(encoding="utf-8"))["kinds"].items():
            terms.update({name, kind.get("deck", name)})
            if "deck_when" in kind:
                terms.add(kind["deck_when"]["deck"])
            label = re.sub(r"\s+card$", "", kind.get("label", ""), flags=re.I)
            if label:
                terms.update({label, label.split()[-1]})
    return {re.sub(r"[\s_-]+", " ", t.lower()) for t in terms}


def term_pattern(terms: set[str]) -> re.Pattern[str]:
    """Whole words, any case, words joined by a space, "_" or "-", an optional plural "s"."""
    alts = sorted((r"[\s_-]".join(map(re.escape, t.split())) for t in terms), key=len, reverse=True)
    return re.compile(rf"(?<![A-Za-z0-9])(?:{'|'.join(alts)})s?(?![A-Za-z0-9])", re.I)


def hits(root: Path, terms: set[str]) -> list[str]:
    """``file:line: word: text`` for each occurrence of a term in the generic
    code (every text file under the listed places), allowed uses left out."""
    rx = term_pattern(terms)
    out = []
    for place in GENERIC:
        base = root / place
        files = [base] if base.is_file() else sorted(p for p in base.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
        for path in files:
            try:
                text = path.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                continue  # not text
            rel = path.relative_to(root).as_posix()
            for n, line in enumerate(text.splitlines(), 1):
                for m in rx.finditer(line):
                    if not allowed(rel, m.group(0), line):
                        out.append(f"{rel}:{n}: {m.group(0)}: {line.strip()[:120]}")
    return out


def test_terms_are_read_from_the_sets():
    terms = game_terms(REPO)
    assert {"genestealer", "brood lord", "space marine", "marine", "location", "setup location", "scenario",
            "death angel", "deep strike"} <= terms


def test_generic_code_names_no_game():
    found = hits(REPO, game_terms(REPO))
    assert found == [], "game names in the generic code:\n" + "\n".join(found)


def test_a_game_name_in_the_layout_is_found(tmp_path: Path):
    """The scan catches what it is for: a Genestealer written into cardkit/layout
    (plural and any case too), reported with its file and line; the allowed
    Babel word only where it is allowed."""
    for place in GENERIC:
        src = REPO / place
        dst = tmp_path / place
        if src.is_file():
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(src, dst)
        else:
            shutil.copytree(src, dst, ignore=shutil.ignore_patterns("__pycache__", "*.ttf", "*.otf"))
    shutil.copytree(REPO / "cards", tmp_path / "cards", ignore=shutil.ignore_patterns("*.png", "*.jpg"))
    terms = game_terms(tmp_path)
    assert hits(tmp_path, terms) == []
    bad = tmp_path / "cardkit/layout/extra.py"
    bad.write_text('"""Draws a card."""\n\n# the GENESTEALERS back\nBACK = "brood_lord"\nok = "terrains"\n', encoding="utf-8")
    (tmp_path / "cardkit/layout/more.py").write_text("locations = []  # Babel's word, not allowed here\n", encoding="utf-8")
    assert hits(tmp_path, terms) == [
        "cardkit/layout/extra.py:3: GENESTEALERS: # the GENESTEALERS back",
        'cardkit/layout/extra.py:4: brood_lord: BACK = "brood_lord"',
        'cardkit/layout/extra.py:5: terrains: ok = "terrains"',
        "cardkit/layout/more.py:1: locations: locations = []  # Babel's word, not allowed here",
    ]
