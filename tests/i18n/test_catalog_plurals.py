"""Plural entries (``msgid_plural``/``msgstr[n]``, tuples in Babel) through
cardkit's catalog reading, merging, staleness and writing."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from cardkit.errors import CardkitError
from cardkit.i18n.catalogs import Planned, merge, parse_catalog, po_path, render, template_for
from cardkit.load.project import load_project
from tests.conftest import REPO

DOMAIN, CTX = "death-angel", "set.teams.green.name"  # a plain message in the shipped template


def _template(plural: bool) -> Catalog:
    """The real Death Angel template, with one plain message made plural."""
    cat = template_for(DOMAIN, load_project(REPO).card_set(DOMAIN).strings)
    if plural:
        m = cat.get("Green", context=CTX)
        assert m is not None
        cat.delete("Green", context=CTX)
        cat.add(("Green", "Greens"), ("", ""), locations=m.locations,
                auto_comments=m.auto_comments, flags=m.flags, context=CTX)
    return cat


def _po(project: Path, loc: str) -> Path:
    return po_path(project, loc, DOMAIN)


def _legend(data: bytes, loc: str):
    return next(e for e in parse_catalog(data, f"{DOMAIN}.po", loc).entries if e.context == CTX)


def _msgfmt(tmp: Path, data: bytes) -> None:
    po = tmp / "x.po"
    po.write_bytes(data)
    run = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(po)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


PLURAL_FI = ('msgctxt "set.teams.green.name"\nmsgid "Green"\nmsgid_plural "Greens"\n'
             'msgstr[0] "Vihreä"\nmsgstr[1] "Vihreät"\n')


def _with_plural_entry(project: Path) -> Path:
    po = _po(project, "fi")
    text = po.read_text(encoding="utf-8")
    single = 'msgctxt "set.teams.green.name"\nmsgid "Green"\nmsgstr "Vihreä"\n'
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
    assert stale.code == 1 and f"{DOMAIN}.po: error[L004]" in stale.err  # the template's entry is singular
    # update keeps the translator's first form, marks it fuzzy and records the plural source exactly
    assert cli("l10n", "update", "--root", str(project)).code == 0
    entry = _legend(po.read_bytes(), "fi")
    assert entry.plural is None and entry.strings == ("Vihreä",) and entry.fuzzy
    assert entry.previous is not None
    assert (entry.previous.id, entry.previous.plural) == ("Green", "Greens")
    assert cli("l10n", "update", "--check", "--root", str(project)).code == 0


def test_plural_template_merges_and_round_trips(project: Path, tmp_path: Path):
    for loc, forms in (("fi", 2), ("ko", 1)):
        old = parse_catalog(_po(project, loc).read_bytes(), f"{DOMAIN}.po", loc)
        singular = _legend(_po(project, loc).read_bytes(), loc).strings[0]
        first = render(merge(_template(True), old, loc))
        entry = _legend(first, loc)
        # a singular translation fills every form (as msgmerge does) and waits for review
        assert entry.plural == "Greens" and entry.strings == (singular,) * forms and entry.fuzzy
        assert entry.previous is not None and entry.previous.id == "Green" and entry.previous.plural is None
        assert f"nplurals={forms};".encode() in first
        second = render(merge(_template(True), parse_catalog(first, f"{DOMAIN}.po", loc), loc))
        assert second == first
        _msgfmt(tmp_path, first)


def test_translated_plural_entry_is_kept_exactly(project: Path, tmp_path: Path):
    po = _with_plural_entry(project)
    old = parse_catalog(po.read_bytes(), f"{DOMAIN}.po", "fi")
    m = old.catalog.get(("Green", "Greens"), context=CTX)
    assert m is not None and m.string == ("Vihreä", "Vihreät")  # Babel's tuple form
    data = render(merge(_template(True), old, "fi"))
    entry = _legend(data, "fi")
    assert entry.strings == ("Vihreä", "Vihreät") and not entry.fuzzy and entry.previous is None
    assert PLURAL_FI in data.decode("utf-8")
    _msgfmt(tmp_path, data)
    # the catalog on disk, written by a PO editor, is current against that template
    po.write_bytes(data.replace('"Vihreät"'.encode(), '""\n"Vihr"\n"eät"'.encode()))
    assert not Planned(po, data, "fi").stale()
    po.write_bytes(data.replace('"Vihreät"'.encode(), '"Vihreä"'.encode()))
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
