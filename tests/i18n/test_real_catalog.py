"""A project built from real-style card data (tests/fixtures/l10n/lanternhold:
names with titles and calibres, a name German pronouns start like, ellipses,
abbreviations, quotes, lengths in words and units, inline markup and an icon
alias) with a correct German catalog: no false alarm, and each defect planted
in it is found on its entry (issue 32)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po
from pypdf import PdfReader

from tests.conftest import FIXTURES

LANTERNHOLD = FIXTURES / "l10n" / "lanternhold"
PO = "locales/{locale}/LC_MESSAGES/lanternhold.po"


@pytest.fixture
def lanternhold(tmp_path: Path) -> Path:
    root = tmp_path / "lanternhold"
    shutil.copytree(LANTERNHOLD, root)
    return root


def _set(root: Path, msgctxt: str, translation: str, locale: str = "de") -> None:
    path = root / PO.format(locale=locale)
    with path.open("rb") as f:
        cat = read_po(f)
    hits = [m for m in cat if m.context == msgctxt]
    assert len(hits) == 1, msgctxt
    hits[0].string = translation
    with path.open("wb") as f:
        write_po(f, cat, width=78)


def _translation(root: Path, msgctxt: str, locale: str = "de") -> str:
    with (root / PO.format(locale=locale)).open("rb") as f:
        return next(str(m.string) for m in read_po(f) if m.context == msgctxt)


def test_the_real_style_project_gives_no_false_alarm(lanternhold: Path, cli):
    r = cli("validate", "--root", str(lanternhold))
    assert r.code == 0, r.out + r.err
    r = cli("l10n", "check", "--root", str(lanternhold))
    assert r.code == 0, r.out + r.err
    assert "de: translated lanternhold 27/27; 0 error(s), 0 warning(s)" in r.out
    assert "fr: translated lanternhold 27/27; 0 error(s), 0 warning(s)" in r.out
    # the German catalog has "deiner" beside the card Brother Deino, and builds
    assert "deiner" in _translation(lanternhold, "sister_ilse.text")
    r = cli("build", "--root", str(lanternhold))  # every locale: the German PDF too, checked first
    assert r.code == 0, r.out + r.err
    assert "wrote output/lanternhold-de-a4.pdf" in r.out and "wrote output/lanternhold-fr-a4.pdf" in r.out
    pdf = lanternhold / "output" / "lanternhold-de-a4.pdf"
    text = "".join(p.extract_text() for p in PdfReader(pdf).pages)
    assert "Bruder Deino" in text and ".45 Automatik" in text
    assert "[" not in text  # [auto_fail] is the skull icon through its alias, not text


PLANTED = [
    # French: a no-break space before '!' beside a space, a minus lost, a negation lost
    ("fr", "brother_deino.text", lambda t: t.replace("armure\u00a0!", "armure\u00a0 !"), {"T801"}),
    ("fr", "automatic_45.text", lambda t: t.replace("–2", "2"), {"T401", "T402"}),
    ("fr", "last_stand.text", lambda t: t.replace("Ne jouez", "Jouez").replace("que si vous n’avez aucune carte",
                                                                           "si vous avez des cartes"), {"T161"}),
    # a name swapped for another card's
    ("de", "brother_deino.text", lambda t: t.replace("Bruder Deino", "Schwester Ilse"), {"T160"}),
    # a minus lost (the French/German en dash minus is read as a sign)
    ("de", "automatic_45.text", lambda t: t.replace("–2", "2"), {"T401", "T402"}),
    # a converted length that is wrong
    ("de", "ritual_knife.text", lambda t: t.replace("30 Zentimeter", "40 Zentimeter"), {"T402"}),
    # a changed calibre
    ("de", "special_38.name", lambda t: t.replace(".38", ".45"), {"T401", "T402"}),
    # a sentence dropped (its negation with it)
    ("de", "special_38.text", lambda t: t.split(". ")[0] + ".", {"T161", "T163", "T172"}),
    # a negation lost
    ("de", "last_stand.text", lambda t: t.replace("keine ", ""), {"T161"}),
    # markup the layout would print as it is
    ("de", "whispers.text", lambda t: t.replace("[auto_fail]", "[[auto_fail]]"), {"T304"}),
    ("de", "brother_deino.text", lambda t: t.replace("<i>", "<cite>").replace("</i>", "</cite>"),
     {"T303", "T304", "T803"}),  # (the string now ends with '</cite>', not with its '.')
    ("de", "special_38.text", lambda t: t.replace("Hospital", "Hospital &amp; Heim"), {"T304"}),
    # a no-break space beside a space
    ("de", "dr_mara_voss.text", lambda t: t.replace("2 Karten", "2\u00a0 Karten"), {"T801"}),
]


@pytest.mark.parametrize("locale, msgctxt, plant, codes", PLANTED,
                         ids=[f"{loc}-{c}-{i}" for i, (loc, c, _, _) in enumerate(PLANTED)])
def test_each_planted_defect_is_found_on_its_entry(lanternhold: Path, cli, locale, msgctxt, plant, codes):
    before = _translation(lanternhold, msgctxt, locale)
    after = plant(before)
    assert after != before
    _set(lanternhold, msgctxt, after, locale)
    r = cli("l10n", "check", "--root", str(lanternhold), "--locale", locale, "--no-fit", "--format", "json")
    assert r.code == 1
    import json

    findings = json.loads(r.out)["findings"]
    assert {f["check"] for f in findings} == codes
    assert {f["msgctxt"] for f in findings} == {msgctxt}


def test_validate_reports_markup_that_would_print_raw_at_its_string(lanternhold: Path, cli):
    cards = lanternhold / "cards/lanternhold/spells.yaml"
    text = cards.read_text(encoding="utf-8")
    text = text.replace("Draw 3 cards.", "Draw 3 [[Item]] cards. <u>Fast</u> &amp; [Free]\\\\n")
    cards.write_text(text, encoding="utf-8")
    line = next(i for i, s in enumerate(text.splitlines(), 1) if "[[Item]]" in s)
    r = cli("validate", "--root", str(lanternhold))
    assert r.code == 1
    found = re.findall(r"^cards/lanternhold/spells\.yaml:(\d+):\d+: error\[C013\]: last_stand\.text: '([^']+)' prints",
                       r.out + r.err, re.M)
    assert sorted(found) == sorted((str(line), raw) for raw in ("[[Item]]", "<u>", "</u>", "&amp;", "[Free]", "\\n"))


def test_an_icon_alias_is_an_icon_and_a_bad_alias_is_reported(lanternhold: Path, cli):
    faces = lanternhold / "cards/lanternhold/faces.yaml"
    text = faces.read_text(encoding="utf-8")
    faces.write_text(text.replace("auto_fail: skull", "auto_fail: skul"), encoding="utf-8")
    r = cli("validate", "--root", str(lanternhold))
    assert r.code == 1
    assert re.search(r"faces\.yaml:\d+:\d+: error\[M089\]: icon alias 'auto_fail' names 'skul'", r.out + r.err)
    faces.write_text(text.replace("  auto_fail: skull\n", ""), encoding="utf-8")
    r = cli("validate", "--root", str(lanternhold))
    assert r.code == 1
    assert "error[C013]: whispers.text: unknown icon token '[auto_fail]'" in r.out + r.err


def test_validate_reports_raw_markup_in_a_translation_at_its_entry(lanternhold: Path, cli):
    _set(lanternhold, "special_38.text", _translation(lanternhold, "special_38.text").replace("Hospital", "Hospital &amp; Heim"))
    line = next(i for i, s in enumerate((lanternhold / PO.format(locale="de")).read_text(encoding="utf-8").splitlines(), 1)
                if s == 'msgctxt "special_38.text"') + 1  # its msgid line, where l10n check locates it too
    r = cli("validate", "--root", str(lanternhold))
    assert r.code == 1
    assert re.findall(r"^locales/de/LC_MESSAGES/lanternhold\.po:(\d+):1: error\[T304\]: special_38\.text \(de\): '&amp;'",
                      r.out + r.err, re.M) == [str(line)]
