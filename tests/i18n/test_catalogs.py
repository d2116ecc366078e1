"""Catalog round trips with Babel: extract, merge by context, --check."""

from __future__ import annotations

import io
import re
from pathlib import Path

from babel.messages.pofile import read_po

from cardkit.i18n.catalogs import lint_po
from tests.conftest import REPO


def _catalog(path: Path, locale: str | None):
    return read_po(io.BytesIO(path.read_bytes()), locale=locale)


def test_shipped_catalogs_are_current(cli):
    result = cli("l10n", "update", "--check", "--root", str(REPO))
    assert result.code == 0, result.err


def test_every_entry_translated_and_not_fuzzy():
    for loc in ("fi", "ko"):
        for set_id in ("death-angel", "deep-strike"):
            cat = _catalog(REPO / "locales" / loc / "LC_MESSAGES" / f"{set_id}.po", loc)
            entries = [m for m in cat if m.id]
            assert entries, (loc, set_id)
            untranslated = [m.context for m in entries if not m.string]
            fuzzy = [m.context for m in entries if m.fuzzy]
            assert untranslated == [] and fuzzy == [], (loc, set_id, untranslated[:5], fuzzy[:5])


def test_changed_source_marks_translation_fuzzy(project: Path, cli):
    po = project / "locales" / "fi" / "LC_MESSAGES" / "death-angel.po"
    before = {m.context: m.string for m in _catalog(po, "fi") if m.id}
    cards = project / "cards" / "death-angel" / "events.yaml"
    text = cards.read_text(encoding="utf-8")
    old = "Choose a blip pile and discard its top card."
    assert old in text
    cards.write_text(text.replace(old, "Choose a blip pile and discard its top 2 cards."), encoding="utf-8")

    stale = cli("l10n", "update", "--check", "--root", str(project))
    assert stale.code == 1
    assert "error[L004]" in stale.err and "death-angel.po" in stale.err

    assert cli("l10n", "update", "--root", str(project)).code == 0
    after = {m.context: m for m in _catalog(po, "fi") if m.id}
    changed = after["full_scan.text"]
    assert changed.fuzzy
    assert changed.string == before["full_scan.text"]  # translation kept for review
    # the old English is kept for the translator as "#| msgid"
    text = po.read_text(encoding="utf-8")
    block = text[:text.index('\nmsgctxt "full_scan.text"')].rsplit("\n\n", 1)[-1]
    assert f'#| msgctxt "full_scan.text"\n#| msgid "{old}"' in block
    # the untouched location with the same English keeps its translation, not fuzzy
    assert not after["cryo_control.text"].fuzzy
    assert cli("l10n", "update", "--check", "--root", str(project)).code == 0


def test_removed_card_field_becomes_obsolete(project: Path, cli):
    path = project / "cards" / "death-angel" / "genestealers.yaml"
    lines = [ln for ln in path.read_text(encoding="utf-8").splitlines(keepends=True) if "Kill the Brood Lord last" not in ln]
    path.write_text("".join(lines), encoding="utf-8")
    assert cli("l10n", "update", "--root", str(project)).code == 0
    po_text = (project / "locales" / "ko" / "LC_MESSAGES" / "death-angel.po").read_text(encoding="utf-8")
    assert '#~ msgctxt "brood_lord_a.text"' in po_text


def test_update_is_deterministic(project: Path, cli):
    assert cli("l10n", "update", "--root", str(project)).code == 0
    first = {p: p.read_bytes() for p in (project / "locales").rglob("*.po*")}
    assert cli("l10n", "update", "--root", str(project)).code == 0
    assert first == {p: p.read_bytes() for p in (project / "locales").rglob("*.po*")}


def test_new_locale_is_created(project: Path, cli):
    # --locale is a filter of the locales with catalogs; --create adds one (#32)
    refused = cli("l10n", "update", "--root", str(project), "--locale", "sv")
    assert refused.code == 1 and "error[L005]" in refused.err and "--locale sv: no catalogs" in refused.err
    assert not (project / "locales" / "sv").exists()
    assert cli("l10n", "update", "--root", str(project), "--locale", "sv", "--create").code == 0
    cat = _catalog(project / "locales" / "sv" / "LC_MESSAGES" / "death-angel.po", "sv")
    template = _catalog(REPO / "locales" / "death-angel.pot", None)
    assert len([m for m in cat if m.id]) == len([m for m in template if m.id])
    assert cli("l10n", "update", "--root", str(project), "--locale", "xx_QQ", "--create").code == 1


def test_lint_names_each_bad_line():
    text = 'msgid "a"\nmsgstr "b\nhello\n"ok"\n'
    issues = lint_po(text, "x.po")
    assert [(i.code, i.line) for i in issues] == [("L001", 2), ("L001", 3)]


def test_translator_comments_give_place_and_budget():
    text = (REPO / "locales" / "fi" / "LC_MESSAGES" / "death-angel.po").read_text(encoding="utf-8")
    block = text[:text.index('msgctxt "heroic_charge.text"')].rsplit("\n\n", 1)[-1]
    assert "#. Action card 'Heroic Charge', field text" in block
    budget = int(block.split("Length budget: about ")[1].split(" ")[0])
    assert 199 < budget < 2000  # more than the English, and a real bound
    assert "#: cards/death-angel/actions.yaml:" in block


def test_korean_writes_percent_without_space():
    """Korean writes "100%" (Finnish and the English source "100 %")."""
    from cardkit.i18n.catalogs import read_catalog

    for set_id in ("death-angel", "deep-strike", "ui"):
        path = REPO / "locales" / "ko" / "LC_MESSAGES" / f"{set_id}.po"
        spaced = [e.context for e in read_catalog(path, "ko.po", "ko").entries if re.search(r"\d %", "".join(e.strings))]
        assert spaced == [], (set_id, spaced)


def test_entries_without_context_and_obsolete_entries_survive_updates():
    """Entries no card field owns (no msgctxt) all become obsolete; obsolete
    entries stay through later updates and come back with their field."""
    from babel.messages.catalog import Catalog

    from cardkit.i18n.catalogs import merge, parse_catalog, render

    po = ('msgid ""\nmsgstr ""\n"Language: fi\\n"\n\nmsgid "x"\nmsgstr "X"\n\nmsgid "y"\nmsgstr "Y"\n\n'
          'msgctxt "a.text"\nmsgid "Hello"\nmsgstr "Hei"\n\n#~ msgctxt "b.text"\n#~ msgid "Bye"\n#~ msgstr "Hei hei"\n')
    template = Catalog()
    template.add("Hello", "", context="a.text")
    first = render(merge(template, parse_catalog(po.encode(), "x.po", "fi"), "fi"))
    again = parse_catalog(first, "x.po", "fi")
    assert sorted((e.context or "", e.id, e.strings) for e in again.obsolete) == [
        ("", "x", ("X",)), ("", "y", ("Y",)), ("b.text", "Bye", ("Hei hei",))]
    assert render(merge(template, again, "fi")) == first
    template.add("Bye", "", context="b.text")
    revived = parse_catalog(render(merge(template, again, "fi")), "x.po", "fi")
    bye = next(e for e in revived.active if e.context == "b.text")
    assert bye.strings == ("Hei hei",) and not bye.fuzzy
    assert [e.id for e in revived.obsolete] == ["x", "y"]


def test_every_length_budget_is_at_least_the_english():
    """The budget comment of every template entry is at least the English that
    already prints there (deep-strike.pot had 51 of 87 below it)."""
    import re

    checked = 0
    for pot in sorted((REPO / "locales").glob("*.pot")):
        text = pot.read_text(encoding="utf-8").replace("\n#. ", " ")
        for budget, english in re.findall(r"Length budget: about (\d+) characters at full size \(English: (\d+)\)", text):
            assert int(budget) >= int(english), (pot.name, budget, english)
            checked += 1
    assert checked > 250
