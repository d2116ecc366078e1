"""Untrusted strings never act as code (#29): every message line escapes control
and bidi characters through one helper (``cardkit.errors.neutral``), card values
and locale folder names included; control and bidi characters in an English
string (C021) or a translation (T310) are errors, and the review page shows them
as escapes, never live; ``l10n check`` writes the documented line format."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from cardkit.errors import UNSAFE, Issue, neutral

LIVE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")  # what must never be printed
LOCATED = re.compile(r"^\S+?(:\d+:\d+)?: (error|warning)\[[A-Z]\d{3}\]: \S")
ESC_CLEAR = "\x1b[2J\x1b[31m"  # clear the screen, then red
RLO = "\u202e"


@pytest.fixture
def game(starter_game: Path) -> Path:
    return starter_game


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_the_helper_escapes_every_kind_and_nothing_else():
    live = "a\x1b[31mb\x07c\x08d\x7fe\x9bf\u202eg\u2066h\u2069i\udc80j\rk\nl\u2028m"
    shown = neutral(live)
    assert not UNSAFE.search(shown)
    assert shown == r"a\x1b[31mb\x07c\x08d\x7fe\x9bf\u202eg\u2066h\u2069i\udc80j\x0dk\x0al\u2028m"
    assert neutral("Kun tämä sankari hyökkää: 한국어 «ok» — 1½") == "Kun tämä sankari hyökkää: 한국어 «ok» — 1½"
    line = Issue("S004", f"value 'x{ESC_CLEAR}' {RLO}evil", file=f"locales/x{ESC_CLEAR}/a.po", line=3).format()
    assert not LIVE.search(line) and line.startswith(r"locales/x\x1b[2J\x1b[31m/a.po:3:1: error[S004]: ")
    assert json.dumps(Issue("S004", ESC_CLEAR, file=RLO).to_json(), ensure_ascii=False).count("\x1b") == 0


def test_a_card_value_with_live_escapes_is_one_neutral_line(game: Path, cli):
    # (YAML refuses a raw ESC, Y001; its double-quoted escapes make one)
    _replace(game / "cards/g/heroes.yaml", 'name: "Ember Knight"', 'name: "Ember \\e[2J\\x1b[31mKnight\\u202e"')
    result = cli("validate", "--root", str(game))
    assert result.code == 1
    lines = [ln for ln in result.err.splitlines() if "error[" in ln]
    assert lines and all(LOCATED.match(ln) for ln in lines), result.err
    assert not LIVE.search(result.err + result.out)
    assert any("error[C021]" in ln and "U+001B (ESC) at column 7" in ln for ln in lines), lines
    assert any("error[C021]" in ln and "U+202E (RIGHT-TO-LEFT OVERRIDE)" in ln for ln in lines), lines


def test_a_lone_surrogate_from_a_yaml_escape_is_an_error_not_a_crash(game: Path, cli):
    path = game / "cards/g/heroes.yaml"
    text = path.read_text(encoding="utf-8").replace('name: "Ember Knight"', 'name: "Ember \\ud800Knight"')
    path.write_text(text, encoding="utf-8")
    for fmt in ("text", "json"):
        result = cli("validate", "--root", str(game), "--format", fmt)
        assert result.code == 1, result.err
        if fmt == "json":
            assert not json.loads(result.out)["ok"]
        assert "internal error" not in result.err and not LIVE.search(result.err + result.out)
        assert "U+D800 (lone surrogate)" in (result.err if fmt == "text" else result.out)


def test_a_bidi_override_in_a_translation_is_t310_and_escaped_on_the_review_page(game: Path, cli):
    po = game / "locales/fi/LC_MESSAGES/g.po"
    _replace(po, 'msgstr "Kun tämä sankari hyökkää, se saa +1 voimaa."',
             f'msgstr "Kun tämä sankari hyökkää, se saa {RLO}1+\u202c voimaa\x1b[2J."')
    result = cli("l10n", "check", "--root", str(game), "--locale", "fi", "--no-fit")
    assert result.code == 1
    assert not LIVE.search(result.out + result.err)
    findings = [ln for ln in result.out.splitlines() if "[T310]" in ln]
    assert len(findings) == 2 and all(LOCATED.match(ln) for ln in findings), result.out
    assert findings[0].startswith("locales/fi/LC_MESSAGES/g.po:") and ": error[T310]: ember_knight.text: " in findings[0]
    as_json = cli("l10n", "check", "--root", str(game), "--locale", "fi", "--no-fit", "--format", "json")
    assert as_json.code == 1 and not LIVE.search(as_json.out)
    assert sum(f["check"] == "T310" for f in json.loads(as_json.out)["findings"]) == 2
    built = cli("build", "--root", str(game))  # the build stops at it too, nothing printed
    assert built.code == 1 and "error[T310]" in built.err and not (game / "output" / "g-fi-a4.pdf").exists()
    review = cli("l10n", "review", "--root", str(game), "--locale", "fi")
    assert review.code == 0, review.err
    page = (game / "output/review/fi.html").read_text(encoding="utf-8")
    assert not LIVE.search(page)
    assert r"se saa \u202e1+\u202c voimaa\x1b[2J." in page


def test_every_l10n_check_line_is_in_the_documented_format(game: Path, cli):
    po = game / "locales/fi/LC_MESSAGES/g.po"
    _replace(po, 'msgstr "Kun tämä sankari hyökkää, se saa +1 voimaa."', 'msgstr ""')
    result = cli("l10n", "check", "--root", str(game), "--no-fit")
    assert result.code == 1
    said = [ln for ln in result.out.splitlines() if "error[" in ln or "warning[" in ln]
    assert said == [f"locales/fi/LC_MESSAGES/g.po:{_line(po, 'ember_knight.text')}:1: error[T102]: "
                    "ember_knight.text: not translated"]


def _line(po: Path, msgctxt: str) -> int:
    lines = po.read_text(encoding="utf-8").splitlines()
    return lines.index(f'msgctxt "{msgctxt}"') + 2  # the msgid line


def test_a_locale_folder_named_with_escapes_is_named_neutrally(game: Path, cli):
    bad = game / "locales" / f"x{ESC_CLEAR}{RLO}" / "LC_MESSAGES"
    bad.mkdir(parents=True)
    shutil.copy(game / "locales/fi/LC_MESSAGES/g.po", bad)
    for args in (("validate",), ("l10n", "check", "--no-fit"), ("l10n", "update"), ("build",)):
        result = cli(*args, "--root", str(game))
        assert result.code == 1, (args, result.err)
        assert "error[L00" in result.err + result.out, (args, result.err)
        assert not LIVE.search(result.out + result.err), args
    result = cli("l10n", "check", "--root", str(game), "--locale", f"fi{ESC_CLEAR}")
    assert result.code == 1 and not LIVE.search(result.out + result.err)


def test_a_csv_header_and_a_sheet_with_escapes_are_named_neutrally(game: Path, tmp_path: Path, cli):
    sheet = tmp_path / "heroes.csv"
    sheet.write_text(f"id,name{ESC_CLEAR}{RLO},text\nember_knight,Ember{ESC_CLEAR},x\n", encoding="utf-8")
    result = cli("import", str(sheet), "--root", str(game))
    assert result.code == 1
    assert r"header 'name\x1b[2J\x1b[31m\u202e'" in result.err, result.err
    assert not LIVE.search(result.out + result.err)
