"""Issue 30, point 4: ``l10n check`` reads the fits the page furniture reports
(:func:`cardkit.printing.furniture.furniture_fits`) for every paper, orientation and
layout, so a translated string that fits the default A4 grid but not another sheet is
found, named with the sheet where it does not fit."""

from __future__ import annotations

import json
from pathlib import Path


from cardkit.layout.faces import load_faces
from cardkit.layout.sheet import DUPLEX, LAYOUTS, PAPERS, Sheet, plan_sheet
from cardkit.layout.units import MM
from cardkit.load.project import load_project
from cardkit.printing import compose_set, size_groups
from cardkit.printing.furniture import furniture_fits, sheet_plans
from cardkit.strings.localize import Localizer
from tests.conftest import REPO, set_translation



def test_every_layout_and_paper_is_fit_checked():
    card_set = load_project(REPO).card_set("death-angel")
    loc = Localizer(REPO, "fi", card_set)
    book = load_faces(REPO, card_set).font_book()
    items, extras = compose_set(REPO, card_set, "fi")
    groups = [(g[0].front.template.width, g[0].front.template.height, len(g)) for g in size_groups(items + extras)]
    plans = sheet_plans([(w, h) for w, h, _ in groups])
    assert plans[0].name == "a4 portrait grid"  # what cardkit build prints, first
    assert {p.layout for p in plans} == set(LAYOUTS) and {p.paper for p in plans} == set(PAPERS)
    fits = furniture_fits(card_set, loc, book, groups)
    sheets = {f.sheet for f in fits}
    assert any("gutterfold" in s for s in sheets) and any(s.endswith("short-edge") for s in sheets)
    places = {f.place for f in fits}
    assert {"calibration page, help box", "calibration page, slot label", "page footer", "token page, heading",
            "token page footer", "token page, team marker"} <= places


def test_a_help_text_too_long_for_a5_but_not_a4_is_found_on_a5(project: Path, cli):
    """The calibration page's help box is at most 2.6 cards wide and stays inside the
    sheet's grid: 164 mm for Death Angel's cards on A4, 114 mm on A5.  A Finnish help
    text that fits the first but not the second was never checked when the check laid
    out only A4."""
    from cardkit.printing.calibration import calibration_fits

    card_set = load_project(project).card_set("death-angel")
    book = load_faces(project, card_set).font_book()
    a4, a5 = (plan_sheet(paper, 63 * MM, 88 * MM, None) for paper in ("a4", "a5"))
    english = Localizer(project, "en", card_set).ui("calibration.help")

    def box_fits(sheet: Sheet, help_text: str) -> bool:
        set_translation(project, "fi", "ui", "calibration.help", help_text)
        loc = Localizer(project, "fi", card_set)
        return all(f.ok for d in DUPLEX for f in calibration_fits(sheet, loc, d, book) if f.box is not None)

    words = english.split()
    help_text = english
    while box_fits(a5, help_text):
        help_text += " " + " ".join(words[:6])
    assert box_fits(a4, help_text)  # the planted defect: A5 only (and the file now holds it)

    result = cli("l10n", "check", "--root", str(project), "--locale", "fi", "--format", "json")
    findings = [f for f in json.loads(result.out)["findings"] if f["check"] == "T950"]
    assert [f["msgctxt"] for f in findings] == ["calibration.help"], findings
    message = findings[0]["message"]
    assert message.startswith("calibration page, help box: ") and message.endswith("(a5 portrait grid long-edge)"), message
    assert findings[0]["file"].endswith("fi/LC_MESSAGES/ui.po") and findings[0]["line"] > 0
    assert result.code == 1


def test_the_check_reads_what_the_pdf_build_reports(tmp_path: Path):
    """Every fit a PDF build reports for the texts beside its cards is one the check
    reads for that sheet (the same records, made by the same furniture code)."""
    from cardkit.printing import build_pdf

    card_set = load_project(REPO).card_set("death-angel")
    result = build_pdf(REPO, card_set, "fi", orientation="portrait", out=tmp_path / "fi.pdf")
    loc = Localizer(REPO, "fi", card_set)
    book = load_faces(REPO, card_set).font_book()
    items, extras = compose_set(REPO, card_set, "fi")
    groups = [(g[0].front.template.width, g[0].front.template.height, len(g)) for g in size_groups(items + extras)]
    checked = furniture_fits(card_set, loc, book, groups)
    assert {f.sheet for f in result.furniture} == {"a4 portrait grid", "a4 portrait grid long-edge"}
    places = {f.place for f in result.furniture}
    assert {"calibration page, help box", "page footer", "token page, token label", "token page footer"} <= places
    assert all(f in checked for f in result.furniture)
    assert all(f.ok for f in result.furniture)  # the shipped Finnish fits (else the build would have refused)


def test_a_custom_paper_asked_for_is_fit_checked_like_a_named_one(project: Path, cli):
    """A Finnish help text that fits every named paper but not a custom 100 x 220 mm one:
    `l10n check` finds it when asked for that paper (`--paper 100x220`), naming the custom
    sheet, and so does `cardkit build --paper 100x220` (its translation check blocks the
    build); without the paper it is not looked for."""
    card_set = load_project(project).card_set("death-angel")
    book = load_faces(project, card_set).font_book()
    groups = [(63 * MM, 88 * MM, 129)]

    def help_fits(papers: tuple[str, ...], custom: bool) -> bool:
        loc = Localizer(project, "fi", card_set)
        return all(f.ok for f in furniture_fits(card_set, loc, book, groups, papers)
                   if f.place == "calibration page, help box" and f.sheet.startswith("100x220") is custom)

    english = Localizer(project, "en", card_set)
    assert all(f.ok for f in furniture_fits(card_set, english, book, groups, ("100x220",))
               if f.place == "calibration page, help box")  # the English help box fits there
    words = Localizer(project, "fi", card_set).ui("calibration.help").split()
    help_text = " ".join(words)
    while help_fits(("100x220",), True):
        help_text += " " + " ".join(words[:6])
        set_translation(project, "fi", "ui", "calibration.help", help_text)
    assert help_fits(("100x220",), False)  # the planted defect: the custom paper only

    def t950(*more: str) -> tuple[int, list[dict[str, object]]]:
        result = cli("l10n", "check", "--root", str(project), "--locale", "fi", "--set", "death-angel",
                     "--format", "json", *more)
        return result.code, [f for f in json.loads(result.out)["findings"] if f["check"] == "T950"]

    code, findings = t950()
    assert findings == [] and code == 0
    code, findings = t950("--paper", "100x220")
    assert code == 1 and [f["msgctxt"] for f in findings] == ["calibration.help"], findings
    assert str(findings[0]["message"]).startswith("calibration page, help box: ")
    assert "(100x220 " in str(findings[0]["message"]), findings[0]["message"]

    build = cli("build", "--root", str(project), "--paper", "100x220")
    assert build.code == 1 and "error[T950]" in build.err and "(100x220 " in build.err, build.err
    assert not (project / "output" / "death-angel-fi-100x220.pdf").exists()
    bad = cli("l10n", "check", "--root", str(project), "--locale", "fi", "--paper", "10x10", "--paper", "zz")
    assert bad.code == 1 and bad.err.count("error[B001]") == 2 and "Traceback" not in bad.err
