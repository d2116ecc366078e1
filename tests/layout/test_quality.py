"""Print-quality checks of validate (Q001-Q004, cardkit/layout/quality.py).

The warning fixtures (tests/fixtures/bad/quality-*) are run by
tests/load/test_bad_input.py; here: the WCAG arithmetic, the bundled sets
clean after their fixes, and a font whose licence bits forbid embedding.
"""

from __future__ import annotations

import shutil
import struct
from pathlib import Path

import pytest

from cardkit.layout.fonts import FONT_DIR
from cardkit.layout.quality import contrast, relative_luminance
from tests.conftest import REPO


@pytest.mark.parametrize("fg, bg, ratio", [
    ("#ffffff", "#000000", 21.0),  # the WCAG maximum
    ("#777777", "#ffffff", 4.48),  # the grey that just fails 4.5:1 on white (a common worked example)
    ("#ffffff", "#d9b51f", 1.98),  # the white on the yellow team colour
    ("#ffffff", "#e8c21c", 1.73),  # and white numbers on yellow terrain markers
])
def test_wcag_contrast(fg: str, bg: str, ratio: float):
    assert contrast(relative_luminance(fg), relative_luminance(bg)) == pytest.approx(ratio, abs=0.005)


@pytest.mark.parametrize("root", [REPO, REPO / "examples" / "tidelights"], ids=["bundled", "tidelights"])
def test_bundled_sets_have_no_quality_warning(root: Path, cli):
    result = cli("validate", "--root", str(root))
    assert result.code == 0, result.err
    assert "[Q0" not in result.err, result.err


def _forbid_embedding(font: Path) -> None:
    """Set the OS/2 table's fsType to 2 (restricted licence: no embedding)."""
    data = bytearray(font.read_bytes())
    (tables,) = struct.unpack(">H", data[4:6])
    for i in range(tables):
        tag, _, offset, _ = struct.unpack(">4sIII", data[12 + 16 * i:28 + 16 * i])
        if tag == b"OS/2":
            data[offset + 8:offset + 10] = struct.pack(">H", 2)
            font.write_bytes(bytes(data))
            return
    raise AssertionError("no OS/2 table")


def test_a_font_that_forbids_embedding_is_an_error(project: Path, tmp_path: Path, cli, monkeypatch: pytest.MonkeyPatch):
    fonts = tmp_path / "fonts"
    shutil.copytree(FONT_DIR, fonts)
    _forbid_embedding(fonts / "noto" / "NotoSans-Bold.ttf")
    monkeypatch.setenv("CARDKIT_FONT_DIR", str(fonts))
    result = cli("validate", "--root", str(project))
    assert result.code == 1
    assert "Traceback" not in result.err + result.out
    lines = [ln for ln in result.err.splitlines() if "[Q004]" in ln]
    assert len(lines) == 2, result.err  # reported once per set, for the one font
    assert all(ln.startswith(f"{fonts / 'noto' / 'NotoSans-Bold.ttf'}: error[Q004]: font NotoSans-Bold ") for ln in lines)
    assert "cannot be embedded: its OS/2 fsType is 0x0002 (restricted licence), it does not allow embedding" in lines[0]


@pytest.mark.parametrize("shade, warned", [((236, 232, 220), True), ((20, 24, 40), False)])
def test_contrast_on_a_raster_image_samples_the_image(project: Path, cli, shade: tuple[int, int, int], warned: bool):
    """White text over artwork: measured against the image's mean colour under the text."""
    from PIL import Image

    d = project / "cards" / "death-angel"
    Image.new("RGB", (900, 850), shade).save(d / "scipio.png")
    marines = d / "marines.yaml"
    marines.write_text(marines.read_text(encoding="utf-8") + "    art: scipio.png\n", encoding="utf-8")
    faces = d / "faces.yaml"
    image = "      - {type: image, if: art, field: art, box: [8mm, 27mm, W - 16mm, 44mm], fit: contain}\n"
    caption = "      - {type: text, if: art, name: caption, style: label, box: [10mm, 50mm, 40mm, 6mm], value: Caption, colour: \"#ffffff\"}\n"  # (not `white`: the printer-friendly variant prints that dark)
    text = faces.read_text(encoding="utf-8")
    assert image in text
    faces.write_text(text.replace(image, image + caption), encoding="utf-8")
    line = text[:text.index(image)].count("\n") + 2  # the caption's line
    result = cli("validate", "--root", str(project))
    assert result.code == 0, result.err
    q001 = [ln for ln in result.err.splitlines() if "[Q001]" in ln]
    if warned:  # (the image's mean colour, shown rounded; the ratio of white on it, about 1.22:1)
        assert len(q001) == 1 and q001[0].startswith(f"cards/death-angel/faces.yaml:{line}:9: warning[Q001]: text "
                                                     "contrast #ffffff on #ece8dc (image): 1.2"), result.err
        ratio = contrast(relative_luminance("#ffffff"), relative_luminance("#{:02x}{:02x}{:02x}".format(*shade)))
        assert q001[0].endswith(f" {ratio:.2f}:1, below 3:1 for bold or large text ('brother_scipio')"), q001
    else:
        assert q001 == [], result.err


def _caption_over_art(project: Path, shade: tuple[int, int, int], images: str) -> int:
    """White caption text over one card's artwork (a plain ``shade``), the faces' ``images:`` set to
    ``images`` for the file as written; the caption's line in faces.yaml."""
    from PIL import Image

    d = project / "cards" / "death-angel"
    Image.new("RGB", (900, 850), shade).save(d / "scipio.png")
    marines = d / "marines.yaml"
    marines.write_text(marines.read_text(encoding="utf-8") + "    art: scipio.png\n", encoding="utf-8")
    faces = d / "faces.yaml"
    image = "      - {type: image, if: art, field: art, box: [8mm, 27mm, W - 16mm, 44mm], fit: contain}\n"
    caption = "      - {type: text, if: art, name: caption, style: label, box: [10mm, 50mm, 40mm, 6mm], value: Caption, colour: \"#ffffff\"}\n"
    text = faces.read_text(encoding="utf-8")
    assert image in text and "\nsize: " in text
    text = text.replace(image, image + caption).replace("\nsize: ", f"\nimages: {images}\nsize: ", 1)
    faces.write_text(text, encoding="utf-8")
    return text[:text.index(caption)].count("\n") + 1


def test_contrast_judges_the_art_as_the_faces_images_option_prints_it(project: Path, cli):
    """Dark art under white text is fine as drawn (the test above); lightened 90 % towards white by
    the faces' ``images:`` it prints pale, and the white caption on it is flagged, measured against
    the lightened pixels (the colour the PDF builder's artwork loader gives)."""
    from PIL import Image

    line = _caption_over_art(project, (20, 24, 40), "{lighten: 0.9}")
    result = cli("validate", "--root", str(project))
    assert result.code == 0, result.err
    q001 = [ln for ln in result.err.splitlines() if "[Q001]" in ln]
    printed = Image.blend(Image.new("RGB", (1, 1), (20, 24, 40)), Image.new("RGB", (1, 1), (255, 255, 255)), 0.9)
    shade = "#{:02x}{:02x}{:02x}".format(*printed.getpixel((0, 0)))
    assert len(q001) == 1 and q001[0].startswith(f"cards/death-angel/faces.yaml:{line}:9: warning[Q001]: text "
                                                 f"contrast #ffffff on {shade} (image): "), result.err


def test_art_the_faces_omit_is_not_judged(project: Path, cli):
    """``images: {omit: true}``: no artwork prints, so none is sampled as the caption's background
    (and its resolution is not judged: a 9 x 9 px image would be Q003 if it printed)."""
    from PIL import Image

    _caption_over_art(project, (236, 232, 220), "{omit: true}")
    Image.new("RGB", (9, 9), (236, 232, 220)).save(project / "cards" / "death-angel" / "scipio.png")
    result = cli("validate", "--root", str(project))
    assert result.code == 0 and "Traceback" not in result.err, result.err
    assert "(image)" not in result.err and "[Q003]" not in result.err, result.err
