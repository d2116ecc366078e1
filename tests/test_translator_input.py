"""Translator input is bounded and read as written (#29): a catalog declaring a
charset its bytes are not in is L001 for every reader (the checks' and the
Localizer that prints); a translation far over any length a card could print
is L011, refused before any check or layout; a fit lays out a bounded part of
a text far too long for its box.  (Speed itself: bench/bench_hostile_strings.py.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardkit.layout.fonts import FontBook
from cardkit.layout.textfit import Block, Style, fit, fit_column, most_chars

LOCATED = re.compile(r"^\S+?:\d+:\d+: (error|warning)\[[A-Z]\d{3}\]: \S")
PO = "locales/fi/LC_MESSAGES/g.po"
FI = 'msgstr "Kun tämä sankari hyökkää, se saa +1 voimaa."'


@pytest.fixture
def game(starter_game: Path) -> Path:
    return starter_game


def _edit(game: Path, old: str, new: str) -> Path:
    po = game / PO
    text = po.read_text(encoding="utf-8")
    assert old in text
    po.write_text(text.replace(old, new, 1), encoding="utf-8")
    return po


def _errors(result) -> list[str]:  # (conftest.Result)
    return [ln for ln in (result.out + result.err).splitlines() if "error[" in ln]


@pytest.mark.parametrize("declared", ["ISO-8859-1", "latin-1", "ASCII", "windows-1252"])
def test_a_charset_that_disagrees_with_the_bytes_is_l001_for_every_reader(game: Path, cli, declared):
    _edit(game, "charset=utf-8", f"charset={declared}")
    for args in (("l10n", "check", "--no-fit", "--locale", "fi"), ("validate",), ("build", "pdf", "--locale", "fi")):
        result = cli(*args, "--root", str(game))
        assert result.code == 1, (args, result.out, result.err)
        lines = _errors(result)
        assert lines and all(LOCATED.match(ln) for ln in lines), (args, lines)
        assert any(ln.startswith(f"{PO}:") and "error[L001]" in ln and f"declares charset '{declared}'" in ln
                   for ln in lines), (args, lines)
    assert not (game / "output" / "g-fi-a4.pdf").exists()  # never printed as other letters


def test_a_declared_charset_over_ascii_text_and_utf8_names_pass(game: Path, cli):
    _edit(game, "charset=utf-8", "charset=UTF8")
    assert cli("l10n", "check", "--no-fit", "--locale", "fi", "--root", str(game)).code == 0
    ko = game / "locales/ko/LC_MESSAGES/g.po"
    text = ko.read_text(encoding="utf-8")
    ascii_only = "".join(line if line.isascii() else "" for line in text.splitlines(True))  # (a broken catalog is fine
    assert "charset=utf-8" in ascii_only                                                   # for this reader test)
    from cardkit.i18n.catalogs import bytes_issues

    assert bytes_issues(ascii_only.replace("charset=utf-8", "charset=ISO-8859-1").encode(), "ko.po") == []
    assert [i.code for i in bytes_issues("msgstr \"\\xe4\"".encode() + b"\xe4", "ko.po")] == ["L001"]


def test_a_translation_far_over_any_length_is_refused_before_check_and_layout(game: Path, cli):
    long = "Kun tämä sankari hyökkää, se saa +1 voimaa. " * 5_000  # 220,000 characters for an English of 41
    _edit(game, FI, f'msgstr "{long}"')
    for args in (("l10n", "check", "--locale", "fi"), ("build", "pdf", "--locale", "fi"), ("build",),
                 ("l10n", "review", "--locale", "fi")):
        result = cli(*args, "--root", str(game))
        assert result.code == 1, (args, result.err[-500:])
        lines = _errors(result)
        assert [ln.split(": error[")[1][:4] for ln in lines] == ["L011"], (args, lines)
        assert lines[0].startswith(f"{PO}:") and "220,000 characters, more than 20 times its English (41)" in lines[0]
    assert not (game / "output" / "g-fi-a4.pdf").exists()


def test_a_long_translation_under_the_limit_is_still_the_fit_checks(game: Path, cli):
    _edit(game, FI, 'msgstr "' + "Kun tämä sankari hyökkää, se saa +1 voimaa. " * 100 + '"')  # 4,400 characters
    result = cli("l10n", "check", "--locale", "fi", "--root", str(game))
    assert result.code == 1
    codes = {ln.split(": error[")[1][:4] for ln in _errors(result)}
    assert "T950" in codes and "L011" not in codes, result.out


def test_a_fit_lays_out_a_bounded_part_of_a_text_far_too_long():
    book = FontBook()
    text = "Kun tämä sankari hyökkää, se saa +1 voimaa. " * 20_000  # 900,000 characters
    r = fit(text, Style("fi"), 150, 60, 9, 6, book)
    assert r.status == "overflow" and r.cut and r.describe().startswith("overflows by at least ")
    shown = sum(len(p.value) for line in r.lines for p in line.pieces)
    assert shown <= 2 * most_chars(150, 60, 4.5, Style("fi").leading)  # only the first part was laid out
    short = fit(text[:300], Style("fi"), 150, 60, 9, 6, book)
    assert not short.cut  # (a text the box might hold is laid out whole, as before)
    # zero-width characters: the cut part fits, so the whole text is laid out and judged as before
    zw = fit("a" + "\u00ad" * 5_000, Style("fi"), 150, 60, 9, 6, book)
    assert not zw.cut
    col = fit_column([Block("Otsikko", Style("fi")), Block(text, Style("fi"))], 150, 60, 9, 6, book)
    assert col.status == "overflow"
    assert sum(len(p.value) for _, lines, _ in col.blocks for line in lines for p in line.pieces) < 10_000
