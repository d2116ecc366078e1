"""Semantic staleness (#15): catalogs rewritten by PO tools and editors are
current as long as their entries are; ``l10n update`` keeps translator headers."""

from __future__ import annotations

import io
import json
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po

from cardkit.i18n.catalogs import Planned, po_path, read_catalog
from tests.conftest import REPO

CATALOGS = [(loc, d) for loc in ("fi", "ko") for d in ("death-angel", "deep-strike", "ui")]
POEDIT = {"Last-Translator": "Aino Virtanen <aino@example.fi>", "Language-Team": "Finnish <fi@li.org>",
          "PO-Revision-Date": "2026-11-30 21:05+0200", "X-Generator": "Poedit 3.4.2",
          "X-Poedit-SourceCharset": "UTF-8"}


@pytest.fixture
def english_change(project: Path, cli) -> Callable[[], None]:
    """Call it to change one English card text of the project and run ``l10n update``, which
    must rewrite the Finnish Death Angel catalog (after the test has edited the catalogs its way)."""
    def change() -> None:
        cards = project / "cards" / "death-angel" / "events.yaml"
        old = "Choose a blip pile and discard its top card."
        text = cards.read_text(encoding="utf-8")
        assert old in text
        cards.write_text(text.replace(old, "Choose a blip pile; discard its top card."), encoding="utf-8")
        result = cli("l10n", "update", "--root", str(project))
        assert result.code == 0 and "updated locales/fi/LC_MESSAGES/death-angel.po" in result.out

    return change


def _babel(path: Path, loc: str, width: int) -> None:
    cat = read_po(io.BytesIO(path.read_bytes()), locale=loc)
    buf = io.BytesIO()
    write_po(buf, cat, width=width)
    path.write_bytes(buf.getvalue())


def _msgcat(path: Path, *args: str) -> None:
    subprocess.run(["msgcat", *args, "-o", str(path), str(path)], check=True)


def _poedit(path: Path) -> None:
    """What Poedit does on save: its own wrapping (none here) and translator headers."""
    _msgcat(path, "--no-wrap")
    text = path.read_text(encoding="utf-8")
    for name, value in POEDIT.items():
        line = f'"{name}: {value}\\n"\n'
        text, n = re.subn(rf'^"{name}: [^"]*"\n', lambda _, line=line: line, text, flags=re.M)
        if not n:
            text = text.replace('"Content-Transfer-Encoding: 8bit\\n"\n', f'"Content-Transfer-Encoding: 8bit\\n"\n{line}')
    path.write_text(text, encoding="utf-8")


REWRITES = {
    "babel-76": lambda p, loc: _babel(p, loc, 76),
    "babel-0": lambda p, loc: _babel(p, loc, 0),
    "msgcat": lambda p, loc: _msgcat(p),
    "poedit": lambda p, loc: _poedit(p),
}


@pytest.mark.parametrize("style", sorted(REWRITES))
def test_rewritten_catalogs_are_current(style: str, project: Path, cli):
    before = {}
    for loc, domain in CATALOGS:
        path = po_path(project, loc, domain)
        old = path.read_bytes()
        REWRITES[style](path, loc)
        assert path.read_bytes() != old  # the tool really rewrote the file
        before[path] = path.read_bytes()
    fit = ["--no-fit"] if style.startswith("babel") else []
    check = cli("l10n", "check", "--root", str(project), "--format", "json", *fit)
    report = json.loads(check.out)
    assert check.code == 0 and [f for f in report["findings"] if f["severity"] == "error"] == [], check.out[-2000:]
    assert cli("l10n", "update", "--check", "--root", str(project)).code == 0
    # nothing to update: the editor's wrapping and headers stay as they are
    assert cli("l10n", "update", "--root", str(project)).code == 0
    assert {p: p.read_bytes() for p in before} == before


def test_update_keeps_translator_headers(project: Path, cli, english_change):
    for loc, domain in CATALOGS:
        _poedit(po_path(project, loc, domain))
    english_change()
    path = po_path(project, "fi", "death-angel")
    text = path.read_text(encoding="utf-8")
    for name, value in POEDIT.items():
        assert f'"{name}: {value}\\n"' in text, name
    assert text.startswith("# Finnish translations for cardkit.\n")
    loaded = read_catalog(path, "fi.po", "fi")
    assert loaded.header("X-Generator") == "Poedit 3.4.2"
    assert cli("l10n", "update", "--check", "--root", str(project)).code == 0


@pytest.mark.parametrize("edit", [
    ("#: cards/death-angel/actions.yaml:11\n", "#: cards/death-angel/actions.yaml:12\n"),  # a reference
    ("#. Action card 'Block', field text\n", "#. Action card 'Blocks', field text\n"),  # a source comment
    ('msgctxt "block.text"\n', 'msgctxt "block.texts"\n'),  # a context
    ('msgstr "Torjunta"\n', 'msgstr "Torjunta!"\n'),  # a translation
    ("#, fuzzy\n", ""),  # fuzzy flag (added first below)
    ('"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n', '"Plural-Forms: nplurals=1; plural=0;\\n"\n'),
])
def test_semantic_changes_are_stale(edit, tmp_path: Path):
    """Against what `l10n update` writes (the shipped file: it is current), a
    rewrapped copy is current, and each change of meaning makes it stale."""
    shipped = po_path(REPO, "fi", "death-angel").read_bytes()
    data = shipped.replace(b'msgctxt "block.text"', b'#, fuzzy\nmsgctxt "block.text"') if edit[0] == "#, fuzzy\n" else shipped
    path = tmp_path / "death-angel.po"
    path.write_bytes(data)
    _msgcat(path)
    assert path.read_bytes() != data and not Planned(path, data, "fi").stale()
    text = path.read_text(encoding="utf-8")
    assert edit[0] in text
    path.write_text(text.replace(edit[0], edit[1], 1), encoding="utf-8")
    assert Planned(path, data, "fi").stale()


@pytest.mark.parametrize("tool", ["poedit", "msgcat"])
def test_update_keeps_the_header_as_the_file_had_it(tool: str, project: Path, cli, english_change):
    """A header in an editor's order, X- headers first and last, a Generated-By
    line: after one English change the header entry is byte for byte the old one."""
    path = po_path(project, "fi", "death-angel")
    (_poedit if tool == "poedit" else _msgcat)(path)
    head, rest = path.read_text(encoding="utf-8").split("\n\n", 1)
    lines = head.split("\n")
    at = lines.index('msgstr ""') + 1
    lines[at:at] = ['"X-Editor-First: yes\\n"', '"Generated-By: Babel 2.14.0\\n"']
    head = "\n".join(lines + ['"X-Editor-Last: also\\n"'])
    path.write_text(head + "\n\n" + rest, encoding="utf-8")
    english_change()
    text = path.read_text(encoding="utf-8")
    assert text.split("\n\n", 1)[0] == head
    assert "Choose a blip pile; discard its top card." in text
    assert cli("l10n", "update", "--check", "--root", str(project)).code == 0
