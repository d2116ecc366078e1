"""B070: a text of the page furniture that does not fit the sheet even in English is the
paper's or the layout's problem, not a translation's: the build says so, one warning line
each (it used to leave the footer out without a word)."""

from __future__ import annotations

from pypdf import PdfReader

from cardkit.load.project import load_project
from cardkit.printing import build_pdf
from tests.conftest import REPO


def test_a_footer_no_paper_band_holds_is_a_warning_in_english_and_in_finnish(tmp_path, cli):
    card_set = load_project(REPO).card_set("death-angel")
    small = dict(paper="148x105", orientation="landscape")  # A6 landscape: 2 cards a sheet, no room below or beside
    for locale in ("en", "fi"):
        result = build_pdf(REPO, card_set, locale, out=tmp_path / f"{locale}.pdf", **small)
        b070 = [w for w in result.warnings if w.code == "B070"]
        assert [w.message.split(":")[0] for w in b070] == ["page footer", "token page footer"], b070
        assert all("(148x105 landscape grid)" in w.message and "the English does not fit this sheet either" in w.message
                   for w in b070)
        assert [f.place for f in result.furniture if not f.ok] == ["page footer", "token page footer"]
        cards = PdfReader(str(result.path)).pages[2].extract_text()  # a card page: its footer is left out
        assert "65/65" not in cards and "/65" not in cards
    cli_result = cli("build", "pdf", "--root", str(REPO), "--set", "death-angel", "--paper", "148x105",
                     "--orientation", "landscape", "--out", str(tmp_path / "cli.pdf"))
    assert cli_result.code == 0
    lines = [ln for ln in cli_result.err.splitlines() if "[B070]" in ln]
    assert len(lines) == 2 and all(ln.startswith("cardkit: warning[B070]: ") for ln in lines), cli_result.err


def test_a_sheet_with_room_has_no_such_warning(tmp_path):
    card_set = load_project(REPO).card_set("death-angel")
    result = build_pdf(REPO, card_set, "fi", out=tmp_path / "a4.pdf")
    assert all(f.ok for f in result.furniture)
    assert not [w for w in result.warnings if w.code == "B070"]
    assert "Suomi · 1/15" in PdfReader(str(result.path)).pages[2].extract_text()  # the footer printed
