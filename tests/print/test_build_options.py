"""The main job (`cardkit build`) takes the sheet options of `cardkit build pdf`:
--paper, --orientation, --calibration and --bleed, one definition each, the same
defaults; each option changes the PDFs it writes, checked by opening them again."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

from tests.print.threesizes import three_size_project

LINE = re.compile(r"^\S+: error\[[A-Z]\d{3}\]: .+$")
MM = 72 / 25.4
SHEET_OPTIONS = ("--paper", "--orientation", "--calibration", "--bleed")


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """The three-size test game in English only (its starter catalogs do not hold the added cards)."""
    root = three_size_project(tmp_path / "game")
    shutil.rmtree(root / "locales")
    return root


def _params(path: tuple[str, ...]) -> dict[str, object]:
    import typer.main

    from cardkit.cli.app import app

    cmd = typer.main.get_command(app)
    for name in path:
        cmd = cmd.commands[name]  # type: ignore[attr-defined]
    return {p.opts[0]: p for p in cmd.params if p.opts and p.opts[0] in SHEET_OPTIONS}


def test_the_main_job_and_build_pdf_share_each_sheet_option():
    main, pdf = _params(("build",)), _params(("build", "pdf"))
    assert sorted(main) == sorted(pdf) == sorted(SHEET_OPTIONS)
    for name in SHEET_OPTIONS:
        a, b = main[name], pdf[name]
        assert (a.default, a.help, a.required) == (b.default, b.help, b.required), name  # type: ignore[attr-defined]
        assert a.help


def _pages(pdf: Path) -> list:
    return list(PdfReader(pdf).pages)


def _mm(page, box: str = "mediabox") -> tuple[float, float]:
    b = getattr(page, box)
    return round(float(b.width) / MM, 1), round(float(b.height) / MM, 1)


def test_paper(game: Path, cli):
    result = cli("build", "--root", str(game), "--paper", "letter")
    assert result.code == 0, result.err
    assert "wrote output/sizes-en-letter.pdf" in result.out
    assert not (game / "output" / "sizes-en-a4.pdf").exists()
    assert {tuple(sorted(_mm(p))) for p in _pages(game / "output" / "sizes-en-letter.pdf")} == {(215.9, 279.4)}


def test_orientation(game: Path, cli):
    assert cli("build", "--root", str(game)).code == 0
    auto = _pages(game / "output" / "sizes-en-a4.pdf")
    assert any(_mm(p)[0] < _mm(p)[1] for p in auto)  # the default (auto) keeps portrait where it holds as many
    result = cli("build", "--root", str(game), "--orientation", "landscape")
    assert result.code == 0, result.err
    turned = _pages(game / "output" / "sizes-en-a4.pdf")
    assert all(_mm(p) == (297.0, 210.0) for p in turned)
    assert "a4 landscape" in result.out and "a4 portrait" not in result.out


def _calibration_pages(pdf: Path) -> int:
    return sum("calibration" in p.extract_text() for p in _pages(pdf))


def test_calibration(game: Path, cli):
    pdf = game / "output" / "sizes-en-a4.pdf"
    counts = {}
    for mode in ("every-size", "first", "none"):
        result = cli("build", "--root", str(game), "--calibration", mode)
        assert result.code == 0, result.err
        counts[mode] = (len(_pages(pdf)), _calibration_pages(pdf))
    # three card sizes, a calibration front and back each (duplex long-edge)
    assert counts["every-size"][1] == 6 and counts["first"][1] == 2 and counts["none"][1] == 0
    assert counts["every-size"][0] - counts["first"][0] == 4
    assert counts["first"][0] - counts["none"][0] == 2


def _bleeds(pdf: Path) -> set[float]:
    out = set()
    for p in _pages(pdf):
        if list(p.trimbox) != list(p.mediabox):  # a page with cards
            out.add(round((float(p.trimbox.left) - float(p.bleedbox.left)) / MM, 2))
    return out


def test_bleed(game: Path, cli):
    pdf = game / "output" / "sizes-en-a4.pdf"
    assert cli("build", "--root", str(game)).code == 0
    assert min(_bleeds(pdf)) >= 1.0  # the minimum at home
    result = cli("build", "--root", str(game), "--bleed", "0")
    assert result.code == 0, result.err
    assert _bleeds(pdf) == {0.0}
    assert "bleed 0 mm, below the 1 mm minimum" in result.out  # said in the summary
    assert cli("build", "--root", str(game), "--bleed", "1.5mm").code == 0
    assert _bleeds(pdf) == {1.5}


def test_bad_sheet_options_of_the_main_job_are_all_reported_before_anything_is_written(game: Path, cli):
    result = cli("build", "--root", str(game), "--paper", "a2", "--orientation", "sideways", "--calibration", "some",
                 "--bleed", "12mm")
    assert result.code == 1
    lines = [ln for ln in result.err.splitlines() if ln.strip()]
    assert lines and all(LINE.match(ln) for ln in lines) and "Traceback" not in result.err, result.err
    assert sorted(ln.split("error[")[1][:4] for ln in lines) == ["B001", "B002", "B012", "B013"]
    assert not (game / "output").exists()


def test_a_margin_that_does_not_parse_is_reported_with_the_other_sheet_options(game: Path, cli):
    """--margin's parse error (U001) joins B001/B002/B012/B013 in one run, named after its option,
    and nothing is written (it used to stop the build alone, before the others were looked at)."""
    margin = "4 furlongs"
    result = cli("build", "--root", str(game), "--paper", "a2", "--orientation", "sideways", "--calibration", "some",
                 "--bleed", "12mm", "--margin", margin)
    assert result.code == 1
    lines = [ln for ln in result.err.splitlines() if ln.strip()]
    assert lines and all(LINE.match(ln) for ln in lines) and "Traceback" not in result.err, result.err
    codes = sorted(ln.split("error[")[1][:4] for ln in lines)
    assert codes == ["B001", "B002", "B012", "B013", "U001"], codes
    assert any("--margin" in ln and margin in ln for ln in lines), lines
    assert not (game / "output").exists()


def test_build_pdf_reports_a_bad_margin_and_a_bad_bleed_together(game: Path, cli, tmp_path: Path):
    out = tmp_path / "one.pdf"
    result = cli("build", "pdf", "--root", str(game), "--bleed", "wide", "--margin", "4 furlongs", "--out", str(out))
    assert result.code == 1 and "Traceback" not in result.err, result.err
    lines = [ln for ln in result.err.splitlines() if ln.strip()]
    assert len(lines) == 2 and all(LINE.match(ln) for ln in lines), lines
    assert {ln.split(": error")[1].split(": ")[1] for ln in lines} == {"--bleed", "--margin"}, lines
    assert not out.exists()


def _codes(result) -> list[str]:
    lines = [ln for ln in result.err.splitlines() if ln.strip()]
    assert lines and all(LINE.match(ln) for ln in lines) and "Traceback" not in result.err, result.err
    return sorted(ln.split("error[")[1][:4] for ln in lines)


def test_colour_errors_join_the_sheet_option_errors_of_the_main_job(game: Path, cli):
    """--colour and --ink-limit (B050, B051) used to stop the run alone, before the sheet
    options were looked at: one run now says every bad option, one line each."""
    result = cli("build", "--root", str(game), "--colour", "lab", "--ink-limit", "50", "--paper", "a2",
                 "--orientation", "sideways", "--calibration", "some", "--bleed", "12mm", "--margin", "4 furlongs",
                 "--layout", "zigzag")
    assert result.code == 1
    assert _codes(result) == ["B001", "B002", "B008", "B012", "B013", "B050", "B051", "U001"]
    assert not (game / "output").exists()


def test_every_bad_option_of_build_pdf_in_one_run(game: Path, cli, tmp_path: Path):
    out = tmp_path / "one.pdf"
    result = cli("build", "pdf", "--root", str(game), "--colour", "lab", "--ink-limit", "500", "--paper", "zz",
                 "--orientation", "sideways", "--calibration", "twice", "--duplex", "both", "--mode", "posters",
                 "--units", "furlongs", "--layout", "zigzag", "--margin", "40mm", "--out", str(out))
    assert result.code == 1
    assert _codes(result) == ["B001", "B003", "B004", "B006", "B007", "B008", "B012", "B013", "B050", "B051"]
    assert not out.exists()


def test_every_bad_option_of_build_shop_in_one_run(game: Path, cli):
    result = cli("build", "shop", "--root", str(game), "--preset", "kinkos", "--fit", "stretch", "--colour", "lab",
                 "--ink-limit", "50")
    assert result.code == 1
    assert _codes(result) == ["B010", "B014", "B050", "B051"]
    assert not (game / "output").exists()
