"""The generic code names no game: no kind of a bundled set (name, deck or label)
and no game id appears anywhere in ``cardkit/`` outside ``cardkit/games/`` (the
card model, the loader, localization and ``cardkit/i18n/ui.yaml``, layout,
rendering, the rules protocol, the playtest, the build summary and the CLI;
issues #14 and #22), and no generic module imports a game's package. Game
knowledge lives in the sets' data (kinds.yaml, faces.yaml, strings.yaml) and in
the game plugins (cardkit/games)."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
from pathlib import Path

import yaml

from tests.conftest import REPO


def generic_places(root: Path) -> tuple[str, ...]:
    """Every file and folder of ``cardkit/`` but the game plugins (and the bundled font files)."""
    return tuple(sorted(p.relative_to(root).as_posix() for p in (root / "cardkit").iterdir()
                        if p.name not in ("games", "fonts", "__pycache__")))


GENERIC = generic_places(REPO)

# Modules still to move into a game plugin (none since issue #22 moved the effect vocabulary).
PENDING: tuple[str, ...] = ()

# Generic uses of a word that is also a kind name and cannot be avoided:
# (file, exact word, a fragment of the line it is allowed on, or "" for any line).
ALLOWED = (
    # gettext's "#:" source references, Babel's ``Message.locations`` API
    ("cardkit/i18n/catalogs.py", "locations", ""),
    # the playtest report's English (a "setup" is a game configuration there); rewording it
    # would send every translation back to fuzzy
    ("cardkit/i18n/ui.yaml", "setup", "{id: report.subtitle,"),
    # the compiled build names the modules it compiles (hatch_build.py reads the list from this file)
    ("cardkit/_compiled.py", "death_angel", '"cardkit.games.'),
    ("cardkit/_compiled.py", "deep_strike", '"cardkit.games.'),
    ("cardkit/_compiled.py", "scenario", '"cardkit.games.'),
    ("cardkit/_compiled.py", "location", "spec_from_file_location"),
    # setuptools' setup(), which builds the extension modules of a compiled build
    ("cardkit/compiling.py", "setup", "from setuptools import setup"),
    ("cardkit/compiling.py", "setup", "setup(name=name,"),
    # library APIs the preview and the SVG check call: lxml's parse events, threading's Event,
    # watchfiles' stop event, the browser's window.location
    ("cardkit/layout/svgsafe.py", "events", "etree.iterparse("),
    ("cardkit/preview.py", "event", "stop_event="),
    ("cardkit/preview.py", "event", "threading.Event"),
    ("cardkit/preview.py", "location", "location.search"),
    ("cardkit/preview.py", "event", "selectors.EVENT_READ"),
    # Babel's ``Message.locations`` API; XLIFF's <context-group purpose="location"> (translate-toolkit)
    ("cardkit/i18n/importer.py", "locations", "e.locations"),
    ("cardkit/i18n/importer.py", "location", '"purpose"'),
)

# English words that are also kind names of a bundled set, in their generic sense:
# a playtest "setup" is a player count and an agent; a "rule scenario" is what
# ``cardkit rules scenario`` runs (the protocol's Scenarios hook).
GENERIC_WORDS = {"setup", "setups", "scenario", "scenarios"}
GENERIC_WORD_PLACES = ("cardkit/playtest/", "cardkit/cli/", "cardkit/rules/", "schemas/")
# the research ecosystems' word (OpenSpiel's ``_apply_action``, PettingZoo's action spaces) in their adapters
# and in the protocol's optional hook for them
ECOSYSTEM_WORDS = {"action", "actions"}
ECOSYSTEM_WORD_PLACES = ("cardkit/interop/", "cardkit/rules/protocol.py")


def allowed(rel: str, word: str, line: str) -> bool:
    if rel in PENDING:
        return True
    if word.lower() in GENERIC_WORDS and rel.startswith(GENERIC_WORD_PLACES):
        return True
    if word.lower() in ECOSYSTEM_WORDS and rel.startswith(ECOSYSTEM_WORD_PLACES):
        return True
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


def source_files(root: Path, place: str, suffix: str = "") -> list[Path]:
    """The files of ``place`` (a file or a folder under ``root``) that are the project's source: in a
    git checkout, those git lists (tracked, or new and not ignored: ``git ls-files --cached --others
    --exclude-standard``), so an ignored build artefact (an in-place compiled build's ``_compiled.json``
    and ``.so`` files) is never scanned; elsewhere (a copy without git) every file but ``__pycache__``.
    ``suffix``: only files whose name ends so."""
    base = root / place
    if not base.exists():
        return []
    listed = _git_listed(root)
    if listed is not None:
        files = [root / rel for rel in listed if rel == place or rel.startswith(place.rstrip("/") + "/")]
        files = [f for f in files if f.is_file()]  # (a tracked file deleted in the work tree is not there)
    else:
        files = [base] if base.is_file() else [p for p in base.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    return sorted(f for f in files if f.name.endswith(suffix))


def _git_listed(root: Path) -> list[str] | None:
    """Every file git would commit under ``root`` (its top level), or None when ``root`` is not the top
    of a git checkout (or git is missing)."""
    try:
        top = subprocess.run(["git", "-C", str(root), "rev-parse", "--show-toplevel"], capture_output=True,
                             text=True, check=True).stdout.strip()
        if Path(top).resolve() != root.resolve():
            return None
        out = subprocess.run(["git", "-C", str(root), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                             capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return sorted({name for name in out.decode("utf-8", "surrogateescape").split("\0") if name})


def hits(root: Path, terms: set[str], places: tuple[str, ...] = GENERIC) -> list[str]:
    """``file:line: word: text`` for each occurrence of a term in the generic
    code (every text file of the source under the listed places: :func:`source_files`),
    allowed uses left out."""
    rx = term_pattern(terms)
    out = []
    for place in places:
        for path in source_files(root, place):
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


def test_the_generic_schemas_hold_no_game_schema():
    """cardkit's schemas/ (shipped in the wheel, copied into every project) names no game: a
    game's effect vocabulary and its own files' schemas live with its plugin."""
    found = hits(REPO, game_terms(REPO), ("schemas",))
    assert found == [], "game names in the generic schemas:\n" + "\n".join(found)
    assert (REPO / "cardkit/games/deep_strike/state.schema.json").is_file()


def test_the_scan_covers_every_generic_module_and_the_interface_strings():
    assert {"cardkit/cli", "cardkit/buildsummary.py", "cardkit/playtest", "cardkit/rules", "cardkit/i18n"} <= set(GENERIC)
    assert not any(p.startswith("cardkit/games") for p in GENERIC)
    assert (REPO / "cardkit/i18n/ui.yaml").is_file()


def game_packages(root: Path) -> set[str]:
    """``cardkit.games.<game>`` for every game plugin package."""
    return {f"cardkit.games.{p.name}" for p in (root / "cardkit/games").iterdir() if (p / "__init__.py").is_file()
            or (p.is_dir() and any(p.glob("*.py")))}


def game_imports(root: Path, places: tuple[str, ...]) -> list[str]:
    """``file:line: module`` for every import of a game package in the generic modules
    (``import``, ``from ... import``, at any depth of the module, lazy imports included)."""
    games = game_packages(root)
    out = []
    for place in places:
        for path in source_files(root, place, ".py"):
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for node in ast.walk(tree):
                names: list[str] = []
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.module:
                    names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
                for name in names:  # one line per import statement
                    if any(name == g or name.startswith(g + ".") for g in games):
                        out.append(f"{path.relative_to(root).as_posix()}:{node.lineno}: {name}")
                        break
    return out


def test_no_generic_module_imports_a_game():
    assert {"cardkit.games.death_angel", "cardkit.games.deep_strike"} <= game_packages(REPO)
    found = game_imports(REPO, GENERIC)
    assert found == [], "generic modules importing a game:\n" + "\n".join(found)


def test_a_game_import_is_found(tmp_path: Path):
    (tmp_path / "cardkit/games/some_game").mkdir(parents=True)
    (tmp_path / "cardkit/games/some_game/engine.py").write_text("", encoding="utf-8")
    (tmp_path / "cardkit/playtest").mkdir(parents=True)
    (tmp_path / "cardkit/playtest/x.py").write_text(
        "import cardkit.games\nfrom cardkit.games import plugins\n\n\ndef f():\n"
        "    from cardkit.games.some_game.engine import Game\n    from cardkit.games import some_game\n",
        encoding="utf-8")
    assert game_imports(tmp_path, ("cardkit/playtest",)) == [
        "cardkit/playtest/x.py:6: cardkit.games.some_game.engine",
        "cardkit/playtest/x.py:7: cardkit.games.some_game"]


def test_a_game_name_in_the_layout_is_found(tmp_path: Path):
    """The scan catches what it is for: a Genestealer written into cardkit/layout
    (plural and any case too), reported with its file and line; the allowed
    Babel word only where it is allowed."""
    for place in GENERIC:
        if place in PENDING:
            continue
        for src in source_files(REPO, place):  # (the source: no build artefact of this checkout)
            if src.suffix in (".ttf", ".otf"):
                continue
            dst = tmp_path / src.relative_to(REPO)
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(src, dst)
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


def test_cardkit_draws_no_game_s_icons():
    """The built-in icons and inline tokens are generic signs: an icon a bundled game
    declares as its own (an SVG file of its set, ``icons:`` in its faces.yaml) is not
    also drawn by cardkit's code (issue #22 moved Death Angel's there)."""
    from cardkit.layout.icons import ICONS
    from cardkit.text import TOKEN_NAMES

    declared: dict[str, set[str]] = {}
    for faces in sorted((REPO / "cards").glob("*/faces.yaml")) + sorted((REPO / "examples").glob("*/cards/*/faces.yaml")):
        declared[faces.parent.name] = set((yaml.safe_load(faces.read_text(encoding="utf-8")) or {}).get("icons") or {})
    assert {"claw", "support", "radar"} <= declared["death-angel"]
    assert {game: names & (set(ICONS) | TOKEN_NAMES) for game, names in declared.items()
            if names & (set(ICONS) | TOKEN_NAMES)} == {}


def test_an_ignored_build_artefact_is_not_scanned_in_a_git_checkout(tmp_path: Path):
    """An editable install compiles the engine in place and writes ``cardkit/_compiled.json`` (the
    hashes of the compiled game modules, by their names) and ``.so`` files beside the sources; git
    ignores them.  The scan reads what git lists, so such a checkout passes as a clean clone does;
    a file git would commit (tracked, or new and not ignored) is still read."""
    (tmp_path / "cardkit/playtest").mkdir(parents=True)
    (tmp_path / "cardkit/playtest/x.py").write_text('"""Plays games."""\n', encoding="utf-8")
    artefact = tmp_path / "cardkit/_compiled.json"
    artefact.write_text('{"cardkit.games.death_angel.rules_engine": "0f3a"}\n', encoding="utf-8")
    (tmp_path / "cardkit/playtest/fast.py.so").write_bytes(b"\x7fELF\x02\x01\xff genestealer")
    (tmp_path / ".gitignore").write_text("/cardkit/_compiled.json\n*.so\n", encoding="utf-8")
    places = ("cardkit/_compiled.json", "cardkit/playtest")
    terms = {"death angel", "genestealer"}
    # not a git checkout: every file is read, the artefact too (its text names a game)
    assert hits(tmp_path, terms, places) == [
        'cardkit/_compiled.json:1: death_angel: {"cardkit.games.death_angel.rules_engine": "0f3a"}']
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    assert source_files(tmp_path, "cardkit/playtest") == [tmp_path / "cardkit/playtest/x.py"]
    assert source_files(tmp_path, "cardkit/_compiled.json") == []
    assert hits(tmp_path, terms, places) == []
    # a new file that is not ignored, not yet added, is source and is read
    (tmp_path / "cardkit/playtest/y.py").write_text("BACK = 'genestealer'\n", encoding="utf-8")
    assert hits(tmp_path, terms, places) == ["cardkit/playtest/y.py:1: genestealer: BACK = 'genestealer'"]
    # and the artefact is read again once git no longer ignores it
    (tmp_path / ".gitignore").write_text("*.so\n", encoding="utf-8")
    assert len(hits(tmp_path, terms, places)) == 2
