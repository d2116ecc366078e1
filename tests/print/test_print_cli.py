"""`cardkit build pdf --layout/--margin` through the CLI boundary, and bad input
for the sheet options and face sizes: one line per problem, nothing written."""

from __future__ import annotations

import re
from pathlib import Path

from pypdf import PdfReader

from tests.print.threesizes import three_size_project

LINE = re.compile(r"^\S+: error\[[A-Z]\d{3}\]: .+$")


def _error_lines(err: str) -> list[str]:
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert lines and all(LINE.match(ln) for ln in lines), err
    assert "Traceback" not in err
    return lines


def test_bad_sheet_options_are_all_reported_before_anything_is_built(tmp_path: Path, cli):
    root = three_size_project(tmp_path / "game")
    result = cli("build", "pdf", "--root", str(root), "--layout", "zigzag", "--margin", "30mm", "--paper", "a2",
                 "--duplex", "sideways", "--bleed", "12mm")
    assert result.code == 1
    codes = sorted(ln.split("error[")[1][:4] for ln in _error_lines(result.err))
    assert codes == ["B001", "B002", "B003", "B007", "B008"]
    assert not (root / "output").exists()


def test_layout_and_margin_options_name_the_file(tmp_path: Path, cli):
    root = three_size_project(tmp_path / "game")
    result = cli("build", "pdf", "--root", str(root), "--layout", "shared-edge", "--margin", "6mm", "--paper", "letter")
    assert result.code == 0, result.err
    reader = PdfReader(root / "output" / "sizes-en-letter-shared-edge.pdf")
    card_pages = [p for p in reader.pages if list(p.trimbox) != list(p.mediabox)]  # (calibration pages have no boxes)
    assert len(card_pages) >= 6
    for page in card_pages:
        trim = [float(v) * 25.4 / 72 for v in page.trimbox]
        bleed = trim[0] - float(page.bleedbox.left) * 25.4 / 72
        assert bleed > 0
        pw, ph = (float(v) * 25.4 / 72 for v in (page.mediabox.width, page.mediabox.height))
        assert {round(pw, 1), round(ph, 1)} == {215.9, 279.4}  # Letter, either way round
        assert min(trim[0], trim[1], pw - trim[2], ph - trim[3]) >= 6 + bleed - 0.01


def test_an_unknown_size_name_is_located(tmp_path: Path, cli):
    root = three_size_project(tmp_path / "game")
    faces = root / "cards" / "sizes" / "faces.yaml"
    faces.write_text(faces.read_text(encoding="utf-8").replace("size: mini landscape", "size: jumbo landscape", 1),
                     encoding="utf-8")
    result = cli("build", "pdf", "--root", str(root))
    assert result.code == 1
    (line,) = _error_lines(result.err)
    assert line.startswith("cards/sizes/faces.yaml:18:11:") and "error[M070]" in line and "'jumbo landscape'" in line
    assert not (root / "output").exists()


def test_a_back_of_another_size_is_refused(tmp_path: Path, cli):
    root = three_size_project(tmp_path / "game")
    faces = root / "cards" / "sizes" / "faces.yaml"
    text = faces.read_text(encoding="utf-8").replace("{kinds: [relic], front: relic, back: relic_back}",
                                                     "{kinds: [relic], front: relic, back: spell_back}")
    faces.write_text(text, encoding="utf-8")
    result = cli("build", "pdf", "--root", str(root))
    assert result.code == 1
    lines = _error_lines(result.err)
    assert len(lines) == 11 and all("error[B009]" in ln and "63 x 41 mm" in ln and "41 x 63 mm" in ln for ln in lines)
    assert not (root / "output").exists()


def test_an_unknown_print_kind_is_located(tmp_path: Path, cli):
    root = three_size_project(tmp_path / "game")
    faces = root / "cards" / "sizes" / "faces.yaml"
    faces.write_text(faces.read_text(encoding="utf-8").replace("{kinds: [relic], front: relic", "{kinds: [relik], front: relic"),
                     encoding="utf-8")
    result = cli("validate", "--root", str(root))
    assert result.code == 1
    lines = [ln for ln in result.err.splitlines() + result.out.splitlines() if "error[M071]" in ln]
    assert len(lines) == 1 and lines[0].startswith("cards/sizes/faces.yaml:33:14:") and "'relik'" in lines[0], lines
