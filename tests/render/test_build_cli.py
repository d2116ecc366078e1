"""`cardkit build` through the CLI boundary, including bad input."""

from __future__ import annotations

import re
from pathlib import Path

from PIL import Image
from pypdf import PdfReader

LINE = re.compile(r"^\S+: error\[[A-Z]\d{3}\]: .+$")


def _only_error_lines(err: str) -> None:
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert lines and all(LINE.match(ln) for ln in lines), err
    assert "Traceback" not in err


def _outputs(project: Path) -> list[Path]:
    return sorted(p for p in (project / "output").rglob("*") if p.is_file()) if (project / "output").exists() else []


def test_build_writes_every_set_and_locale(project: Path, cli):
    result = cli("build", "--root", str(project))
    assert result.code == 0, result.err
    names = sorted(p.name for p in _outputs(project))
    pdfs = sorted(f"{s}-{loc}-a4.pdf" for s in ("death-angel", "deep-strike") for loc in ("en", "fi", "ko"))
    assert names == sorted(pdfs + ["build-summary.txt"])
    summary = (project / "output" / "build-summary.txt").read_text(encoding="utf-8")
    assert "validated: death-angel 128 cards, deep-strike 6 cards" in summary
    from cardkit.strings.localize import ui_strings
    from cardkit.load.project import load_project

    loaded = load_project(project)
    total = sum(len(ls.set.strings) for ls in loaded.sets.values()) + len(ui_strings())
    assert f"translations fi: {total}/{total} strings translated" in summary
    for loc in ("fi", "ko"):  # every laid-out text either fits at full size or shrinks
        laid, full, shrunk = map(int, re.search(
            rf"translations {loc}: .*fit of (\d+) laid-out texts: (\d+) at full size, (\d+) shrunk, 0 too small",
            summary).groups())
        assert laid == full + shrunk and laid >= total - len(ui_strings())
    assert all(f"wrote output/{p}" in summary for p in pdfs)
    assert result.out == summary


def test_missing_font_is_a_clear_error(project: Path, cli, monkeypatch, tmp_path: Path):
    monkeypatch.setenv("CARDKIT_FONT_DIR", str(tmp_path / "no-fonts"))
    result = cli("build", "pdf", "--root", str(project), "--locale", "fi")
    assert result.code == 1
    _only_error_lines(result.err)
    assert "error[T001]" in result.err and "font file missing" in result.err
    assert _outputs(project) == []


def _with_art(project: Path, art: str) -> None:
    path = project / "cards" / "death-angel" / "marines.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("    range: 0\n", f"    range: 0\n    art: \"{art}\"\n", 1), encoding="utf-8")


def test_art_path_escaping_the_project(project: Path, cli):
    _with_art(project, "../../../../etc/hostname")
    result = cli("build", "pdf", "--root", str(project))
    assert result.code == 1
    _only_error_lines(result.err)
    assert "marines.yaml:" in result.err and "error[F002]" in result.err
    assert _outputs(project) == []


def test_art_that_is_not_an_image(project: Path, cli):
    (project / "cards" / "death-angel" / "gideon.png").write_text("this is not a picture")
    _with_art(project, "gideon.png")
    result = cli("build", "pdf", "--root", str(project))
    assert result.code == 1
    _only_error_lines(result.err)
    assert "gideon.png: error[I001]" in result.err
    assert _outputs(project) == []


def test_decompression_bomb(project: Path, cli):
    Image.new("1", (20000, 20000)).save(project / "cards" / "death-angel" / "bomb.png")
    _with_art(project, "bomb.png")
    result = cli("build", "pdf", "--root", str(project))
    assert result.code == 1
    _only_error_lines(result.err)
    assert "error[I002]" in result.err
    assert _outputs(project) == []


def test_real_art_is_printed(project: Path, cli):
    im = Image.new("RGB", (300, 200), (200, 30, 30))
    im.save(project / "cards" / "death-angel" / "gideon.jpg")
    _with_art(project, "gideon.jpg")
    result = cli("build", "pdf", "--root", str(project))
    assert result.code == 0, result.err
    reader = PdfReader(project / "output" / "death-angel-en-a4.pdf")
    front, back = list(reader.pages[2].images), list(reader.pages[3].images)
    assert len(front) == len(back) == 1  # the left-facing side, and behind it the right-facing side
    assert front[0].image.size == (300, 200)


def test_markup_characters_are_text(project: Path, cli):
    path = project / "cards" / "death-angel" / "locations.yaml"
    text = path.read_text(encoding="utf-8")
    # (a tag-shaped "<Holds>" would be C013: markup the layout does not interpret; these are plain text)
    path.write_text(text.replace('name: "Black Holds"', 'name: "Black & <Holds"'), encoding="utf-8")
    assert cli("l10n", "update", "--root", str(project)).code == 0
    result = cli("build", "pdf", "--root", str(project))
    assert result.code == 0, result.err
    reader = PdfReader(project / "output" / "death-angel-en-a4.pdf")
    assert any("Black & <Holds" in p.extract_text() for p in reader.pages)


def test_letter_bleed_takes_fewer_rows(project: Path, cli):
    """Letter with 3 mm bleed holds two rows of 88 mm cards inside the 4 mm
    printer margin: fewer cards a page, never refused or clipped; a bleed
    beyond 10 mm is refused."""
    result = cli("build", "pdf", "--root", str(project), "--paper", "letter", "--bleed", "11mm")
    assert result.code == 1
    _only_error_lines(result.err)
    assert "error[B002]" in result.err and "outside 0-10 mm" in result.err
    ok = cli("build", "pdf", "--root", str(project), "--paper", "letter", "--bleed", "3mm")
    assert ok.code == 0, ok.err
    reader = PdfReader(project / "output" / "death-angel-en-letter.pdf")
    page = reader.pages[2]
    assert (round(float(page.mediabox.width)), round(float(page.mediabox.height))) == (612, 792)
    trim, bleed = page.trimbox, page.bleedbox
    assert round((float(trim.left) - float(bleed.left)) * 25.4 / 72, 3) == 3.0
    # three columns of 63 mm cards, two rows of 88 mm ones
    assert round((float(trim.right) - float(trim.left)) * 25.4 / 72) == 3 * 63 + 2 * 6
    assert round((float(trim.top) - float(trim.bottom)) * 25.4 / 72) == 2 * 88 + 6


def test_png_and_tts_exports(project: Path, cli):
    from PIL import Image as PILImage

    result = cli("build", "png", "--root", str(project), "--locale", "ko", "--dpi", "150")
    assert result.code == 0, result.err
    pngs = sorted((project / "output" / "png" / "death-angel-ko").glob("*.png"))
    # every distinct face: marine sides, card fronts, deck backs, the quick reference
    assert len(pngs) > 100
    im = PILImage.open(project / "output" / "png" / "death-angel-ko" / "block.png")
    expected = ((63 + 6) / 25.4 * 150, (88 + 6) / 25.4 * 150)
    assert abs(im.size[0] - expected[0]) <= 1 and abs(im.size[1] - expected[1]) <= 1
    result = cli("build", "tts", "--root", str(project), "--locale", "fi")
    assert result.code == 0, result.err
    sheets = sorted((project / "output" / "tts" / "death-angel-fi").glob("*.png"))
    assert any(p.name == "genestealer-1.png" for p in sheets)
    for p in sheets:
        im = PILImage.open(p)
        assert im.mode == "RGB" and im.width <= 4096
        cw = 4096 // 10
        assert im.width % cw == 0 and im.width // cw <= 10 and round(im.height / (cw * 88 / 63)) <= 7


def test_inserts_carry_only_translated_text(project: Path, cli):
    result = cli("build", "pdf", "--root", str(project), "--locale", "fi", "--mode", "inserts")
    assert result.code == 0, result.err
    reader = PdfReader(project / "output" / "death-angel-fi-a4-inserts.pdf")
    text = " ".join(" ".join(p.extract_text().replace("-\n", "").split()) for p in reader.pages)
    assert "Sankarillinen rynnäkkö" in text
    assert "Heroic Charge" not in text
    assert not any(p.images for p in reader.pages)


def test_metric_map_labels(project: Path, cli):
    result = cli("build", "pdf", "--root", str(project), "--set", "deep-strike", "--locale", "fi", "--units", "cm")
    assert result.code == 0, result.err
    text = " ".join(p.extract_text() for p in PdfReader(project / "output" / "deep-strike-fi-a4.pdf").pages)
    assert "183 cm x 122 cm" in text and '72" x 48"' not in text
    bad = cli("build", "pdf", "--root", str(project), "--set", "deep-strike", "--units", "furlong")
    assert bad.code == 1 and "error[B006]" in bad.err
