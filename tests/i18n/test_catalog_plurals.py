"""Plural entries (``msgid_plural``/``msgstr[n]``, tuples in Babel) through
cardkit's catalog reading, merging, staleness and writing."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from cardkit.errors import CardkitError
from cardkit.i18n.catalogs import Planned, merge, parse_catalog, po_path, render, template_for
from cardkit.i18n.localize import ui_strings


def _template(plural: bool) -> Catalog:
    """The real ui template, with ``report.legend`` as the plural branch will make it."""
    cat = template_for("ui", ui_strings())
    if plural:
        m = cat.get("{players} players", context="report.legend")
        assert m is not None
        cat.delete("{players} players", context="report.legend")
        cat.add(("{players} player", "{players} players"), ("", ""), locations=m.locations,
                auto_comments=m.auto_comments, flags=m.flags, context="report.legend")
    return cat


def _po(project: Path, loc: str) -> Path:
    return po_path(project, loc, "ui")


def _legend(data: bytes, loc: str):
    return next(e for e in parse_catalog(data, "ui.po", loc).entries if e.context == "report.legend")


def _msgfmt(tmp: Path, data: bytes) -> None:
    po = tmp / "x.po"
    po.write_bytes(data)
    run = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(po)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


PLURAL_FI = ('msgctxt "report.legend"\nmsgid "{players} player"\nmsgid_plural "{players} players"\n'
             'msgstr[0] "{players} pelaaja"\nmsgstr[1] "{players} pelaajaa"\n')


def _with_plural_entry(project: Path) -> Path:
    po = _po(project, "fi")
    text = po.read_text(encoding="utf-8")
    single = 'msgctxt "report.legend"\nmsgid "{players} players"\nmsgstr "{players} pelaajaa"\n'
    assert single in text
    po.write_text(text.replace(single, PLURAL_FI), encoding="utf-8")
    return po


def test_translator_added_plural_forms_do_not_crash(project: Path, cli):
    po = _with_plural_entry(project)
    for args in (("validate",), ("l10n", "update", "--check"), ("l10n", "check", "--no-fit", "--locale", "fi")):
        result = cli(*args, "--root", str(project))
        assert "internal error" not in result.err + result.out and "Traceback" not in result.err, args
        assert result.code in (0, 1), (args, result.err)
    assert cli("validate", "--root", str(project)).code == 0
    stale = cli("l10n", "update", "--check", "--root", str(project))
    assert stale.code == 1 and "ui.po: error[L004]" in stale.err  # the template's entry is singular
    # update keeps the translator's first form, marks it fuzzy and records the plural source exactly
    assert cli("l10n", "update", "--root", str(project)).code == 0
    entry = _legend(po.read_bytes(), "fi")
    assert entry.plural is None and entry.strings == ("{players} pelaaja",) and entry.fuzzy
    assert entry.previous is not None
    assert (entry.previous.id, entry.previous.plural) == ("{players} player", "{players} players")
    assert cli("l10n", "update", "--check", "--root", str(project)).code == 0


def test_plural_template_merges_and_round_trips(project: Path, tmp_path: Path):
    for loc, forms in (("fi", 2), ("ko", 1)):
        old = parse_catalog(_po(project, loc).read_bytes(), "ui.po", loc)
        singular = _legend(_po(project, loc).read_bytes(), loc).strings[0]
        first = render(merge(_template(True), old, loc))
        entry = _legend(first, loc)
        # a singular translation fills every form (as msgmerge does) and waits for review
        assert entry.plural == "{players} players" and entry.strings == (singular,) * forms and entry.fuzzy
        assert entry.previous is not None and entry.previous.id == "{players} players" and entry.previous.plural is None
        assert f"nplurals={forms};".encode() in first
        second = render(merge(_template(True), parse_catalog(first, "ui.po", loc), loc))
        assert second == first
        _msgfmt(tmp_path, first)


def test_translated_plural_entry_is_kept_exactly(project: Path, tmp_path: Path):
    po = _with_plural_entry(project)
    old = parse_catalog(po.read_bytes(), "ui.po", "fi")
    m = old.catalog.get(("{players} player", "{players} players"), context="report.legend")
    assert m is not None and m.string == ("{players} pelaaja", "{players} pelaajaa")  # Babel's tuple form
    data = render(merge(_template(True), old, "fi"))
    entry = _legend(data, "fi")
    assert entry.strings == ("{players} pelaaja", "{players} pelaajaa") and not entry.fuzzy and entry.previous is None
    assert PLURAL_FI.replace('msgctxt', '#, python-brace-format\nmsgctxt') in data.decode("utf-8")
    _msgfmt(tmp_path, data)
    # the catalog on disk, written by a PO editor, is current against that template
    po.write_bytes(data.replace(b'"{players} pelaajaa"', b'""\n"{players} "\n"pelaajaa"'))
    assert not Planned(po, data, "fi").stale()
    po.write_bytes(data.replace(b'"{players} pelaajaa"', b'"{players} pelaaja"'))
    assert Planned(po, data, "fi").stale()


@pytest.mark.parametrize("entry, line, words", [
    ('msgid "a"\nmsgid_plural "as"\nmsgstr[0] "x"\nmsgstr[1] "y"\nmsgstr[2] "z"\n', 1, "3 plural forms"),
    ('msgid "a"\nmsgid_plural "as"\nmsgstr "x"\n', 3, "not msgstr"),
    ('msgid "a"\nmsgstr[0] "x"\n', 2, "without msgid_plural"),
    ('msgid "a"\nmsgid_plural "as"\nmsgstr[1] "x"\n', 3, "out of order"),
    ('msgstr "x"\nmsgid_plural "as"\n', 1, "must follow msgid"),
    ('msgid "a"\nmsgid_plural "as"\n', 1, "without msgstr"),
])
def test_broken_plural_entries_are_located(entry: str, line: int, words: str):
    header = 'msgid ""\nmsgstr ""\n"Language: fi\\n"\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
    with pytest.raises(CardkitError) as info:
        parse_catalog((header + entry).encode(), "x.po", "fi")
    issues = info.value.issues
    assert issues and all(i.code == "L001" and i.file == "x.po" for i in issues)
    assert issues[0].line == line + 5 and words in issues[0].message, issues[0].format()
