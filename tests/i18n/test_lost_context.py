"""Catalogs that lost their msgctxt (#32): an XLIFF round trip through translate-toolkit drops it;
`l10n check` says so and how to repair, `l10n update` gives every entry whose English still
matches its msgctxt back (never makes it obsolete), and refuses where the English is ambiguous.
Also: `--locale` is the same filter in every `l10n` command."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from cardkit.i18n.catalogs import read_catalog
from tests.conftest import FIXTURES, REPO

PO = "locales/fi/LC_MESSAGES/death-angel.po"


def _translations(path: Path) -> dict[str, tuple[str, ...]]:
    loaded = read_catalog(path, path.name, "fi")
    return {e.context: e.strings for e in loaded.active if e.context is not None}


def test_a_catalog_through_an_xliff_round_trip_keeps_every_translation(project: Path, cli):
    shutil.copy(FIXTURES / "l10n" / "xliff-roundtrip" / "death-angel.fi.po", project / PO)
    check = cli("l10n", "check", "--root", str(project), "--locale", "fi", "--set", "death-angel", "--no-fit")
    assert check.code == 1
    t106 = [ln for ln in check.out.splitlines() if "error[T106]" in ln]
    assert len(t106) == 1 and "233 entries have no msgctxt" in t106[0] and "233 translations" in t106[0]
    assert "cardkit l10n update --locale fi" in t106[0]
    assert "T101" not in check.out  # not 233 "no catalog entry" lines on top
    update = cli("l10n", "update", "--root", str(project))
    assert update.code == 0 and "0 obsolete, 233 unchanged, 233 msgctxt restored" in update.out
    assert _translations(project / PO) == _translations(REPO / PO)
    assert cli("l10n", "update", "--root", str(project), "--check").code == 0
    assert cli("l10n", "check", "--root", str(project), "--locale", "fi", "--set", "death-angel", "--no-fit").code == 0


def test_translations_an_earlier_update_made_obsolete_come_back(project: Path, cli):
    """What `l10n update` did before #32: every entry without msgctxt became `#~` obsolete."""
    text = (REPO / PO).read_text(encoding="utf-8")
    gun = text.index('msgctxt "gun_jam.name"')
    end = text.index("\n\n", gun)
    entry = text[gun:end].split("\n")[1:]  # msgid and msgstr, without the msgctxt
    broken = text[:gun] + "\n".join("#~ " + ln for ln in entry) + text[end:]
    (project / PO).write_text(broken, encoding="utf-8")
    assert _translations(project / PO).get("gun_jam.name") is None
    assert cli("l10n", "update", "--root", str(project)).code == 0
    assert _translations(project / PO)["gun_jam.name"] == ("Asehäiriö",)


def test_english_several_strings_share_is_refused_with_the_way_to_repair(project: Path, cli):
    text = (REPO / PO).read_text(encoding="utf-8")
    # five cards are named Genestealer: one entry loses its msgctxt and its source reference, another is
    # missing (a card added since), so the English names two card strings without an entry
    found = list(re.finditer(r'#: (cards/death-angel/genestealers\.yaml:\d+)\nmsgctxt "([^"]+)"\nmsgid "Genestealer"\n'
                             r'msgstr "([^"]+)"\n', text))
    assert len(found) >= 2
    broken = text.replace(found[0].group(0), f'msgid "Genestealer"\nmsgstr "{found[0].group(3)}"\n', 1)
    broken = broken.replace(found[1].group(0), "", 1)
    (project / PO).write_text(broken, encoding="utf-8")
    before = (project / PO).read_bytes()
    update = cli("l10n", "update", "--root", str(project))
    assert update.code == 1 and "Traceback" not in update.err
    [line] = update.err.splitlines()
    assert line.startswith(f"{PO}: error[L012]: nothing written: 1 entries have no msgctxt")
    assert "1 match several card strings" in line and "'Genestealer'" in line and "cardkit l10n import OLD.po" in line
    assert (project / PO).read_bytes() == before
    check = cli("l10n", "check", "--root", str(project), "--locale", "fi", "--set", "death-angel", "--no-fit")
    assert "error[T106]" in check.out and "1 match several card strings" in check.out


def test_locale_is_a_filter_for_update_and_check(project: Path, cli):
    cards = project / "cards" / "death-angel" / "events.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace('name: "Gun Jam"', 'name: "Gun Jammed"'), encoding="utf-8")
    ko = project / "locales" / "ko" / "LC_MESSAGES" / "death-angel.po"
    ko_before = ko.read_bytes()
    update = cli("l10n", "update", "--root", str(project), "--locale", "fi")
    assert update.code == 0 and "updated locales/fi/LC_MESSAGES/death-angel.po" in update.out
    assert "locales/ko/" not in update.out and ko.read_bytes() == ko_before
    for command in (("update",), ("check", "--no-fit"), ("accept", "--entry", "x", "--code", "T402", "--reason", "r")):
        r = cli("l10n", *command, "--root", str(project), "--locale", "sv")
        assert r.code == 1 and "error[L005]" in r.err and "--locale sv: no catalogs" in r.err, (command, r.err)
    assert not (project / "locales" / "sv").exists()
    r = cli("l10n", "update", "--root", str(project), "--create")
    assert r.code == 1 and "--create needs --locale" in r.err


def test_a_translation_without_msgctxt_fills_the_empty_entry_of_its_english(project: Path, cli):
    text = (REPO / PO).read_text(encoding="utf-8")
    assert text.count('msgctxt "gun_jam.name"\nmsgid "Gun Jam"\nmsgstr "Asehäiriö"\n') == 1
    text = text.replace('msgctxt "gun_jam.name"\nmsgid "Gun Jam"\nmsgstr "Asehäiriö"\n',
                        'msgctxt "gun_jam.name"\nmsgid "Gun Jam"\nmsgstr ""\n')
    (project / PO).write_text(text + '\nmsgid "Gun Jam"\nmsgstr "Asehäiriö"\n', encoding="utf-8")
    update = cli("l10n", "update", "--root", str(project))
    assert update.code == 0 and "0 obsolete" in update.out and "1 msgctxt restored" in update.out
    assert _translations(project / PO) == _translations(REPO / PO)
