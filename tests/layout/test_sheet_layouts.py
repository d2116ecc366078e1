"""Issue 30, point 5: the sheet layouts are one registry, a YAML file each in
``cardkit/layout/sheetlayouts/``; the planner, the PDF writer, ``--layout``'s help and
the table of docs/print.md read it, and every registered layout prints a sheet the
prepress check passes."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

from cardkit.errors import CardkitError
from cardkit.layout import sheetlayout
from cardkit.layout.sheet import plan_sheet
from cardkit.layout.sheetlayout import (
    FOLDER,
    TABLE_END,
    TABLE_START,
    layout_names,
    layout_table,
    load_layouts,
    sheet_layouts,
)
from cardkit.layout.units import MM
from cardkit.load.project import load_project
from cardkit.printing import build_pdf
from tests.conftest import REPO
from tests.print.prepress import check_pdf

TIDE = REPO / "examples" / "tidelights"


def test_the_docs_table_is_the_registry_s():
    text = (REPO / "docs" / "print.md").read_text(encoding="utf-8")
    assert text.count(TABLE_START) == 1 and text.count(TABLE_END) == 1
    shown = text.split(TABLE_START)[1].split(TABLE_END)[0].strip()
    assert shown == layout_table(), "out of date: python tools/registries.py"
    for lay in sheet_layouts():
        assert f"| `{lay.name}`" in shown


def test_the_help_names_every_layout_with_its_words(cli):
    result = cli("build", "pdf", "--help")
    flat = " ".join(re.sub(r"[│╭╮╰╯─]", " ", result.out).split())
    for lay in sheet_layouts():
        assert f"{lay.name} ({' '.join(lay.help.split())})" in flat, lay.name


def test_an_unknown_layout_names_the_registry_s(cli):
    result = cli("build", "pdf", "--root", str(TIDE), "--layout", "zigzag", "--out", "x.pdf")
    assert result.code != 0
    assert f"error[B008]: unknown --layout 'zigzag' (use {', '.join(layout_names())})" in result.err


@pytest.mark.parametrize("layout", layout_names())
def test_every_registered_layout_prints_sheets_the_prepress_check_passes(layout, tmp_path):
    card_set = load_project(TIDE).card_set("tidelights")
    result = build_pdf(TIDE, card_set, "en", layout=layout, duplex="none", out=tmp_path / f"{layout}.pdf")
    assert result.pages == len(PdfReader(str(result.path)).pages) > 1
    assert check_pdf(result.path).problems == []


@pytest.fixture
def own_registry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A copy of the registry that a test may add a file to (the worked example of
    docs/contributing.md: a new layout is one new file)."""
    folder = tmp_path / "sheetlayouts"
    shutil.copytree(FOLDER, folder)
    monkeypatch.setattr(sheetlayout, "FOLDER", folder)
    sheetlayout.sheet_layouts.cache_clear()
    yield folder
    sheetlayout.sheet_layouts.cache_clear()  # (the next call reads cardkit's own folder again)


def _guide_example() -> str:
    """The YAML file of docs/contributing.md's "Adding a sheet layout", as written there."""
    text = (REPO / "docs" / "contributing.md").read_text(encoding="utf-8")
    section = text.split("\n## Adding a sheet layout\n", 1)[1].split("\n## ", 1)[0]
    (block,) = re.findall(r"```yaml\n(.*?)```", section, re.S)
    return "\n".join(line.removeprefix("   ") for line in block.splitlines()) + "\n"


def test_a_new_layout_is_one_file(own_registry: Path, tmp_path: Path):
    """docs/contributing.md's worked example, run as written: gutterfold with shared cut lines."""
    assert not (FOLDER / "shared-fold.yaml").exists()  # (the example's file is not in the tree)
    (own_registry / "shared-fold.yaml").write_text(_guide_example(), encoding="utf-8")
    assert layout_names()[-1] == "shared-fold"
    sheet = plan_sheet("a4", 63 * MM, 88 * MM, None, layout="shared-fold", orientation="landscape")
    assert sheet.fold and sheet.shared and sheet.per_page == 4
    assert sheet.pitch_x == 63 * MM  # butted: no gutter between neighbours
    card_set = load_project(TIDE).card_set("tidelights")
    result = build_pdf(TIDE, card_set, "en", layout="shared-fold", out=tmp_path / "sf.pdf")
    assert check_pdf(result.path).problems == []
    assert "`shared-fold`" in layout_table()


def test_every_problem_of_every_layout_file_at_once(tmp_path: Path):
    (tmp_path / "a.yaml").write_text("name: b\norder: 1\nhelp: x\nedges: diagonal\nfold: yes please\ndoc: x\n"
                                     "colour: red\n", encoding="utf-8")
    (tmp_path / "c.yaml").write_text("- a list\n", encoding="utf-8")
    (tmp_path / "d.yaml").write_text("name: d\norder: 2\nhelp: x\nedges: own\nfold: false\ndoc: x\n"
                                     "free_slots: tokens\n", encoding="utf-8")
    with pytest.raises(CardkitError) as err:
        load_layouts(tmp_path)
    lines = [i.format() for i in err.value.issues]
    codes = sorted(i.code for i in err.value.issues)
    assert codes == ["M100", "M101", "M102", "M102", "M102", "M102"], lines
    assert any("a.yaml:7:1: error[M101]: unknown key 'colour'" in ln for ln in lines), lines
    assert any("a.yaml:4:1: error[M102]: 'edges' is 'diagonal'" in ln for ln in lines), lines
    assert any("'edges' is 'diagonal'" in ln for ln in lines) and any("'fold' must be a bool" in ln for ln in lines)
    assert any("name 'b' is not the file's name 'a'" in ln for ln in lines)
    assert any("d.yaml" in ln and "needs a one-sided sheet" in ln for ln in lines)


def test_exactly_one_default_layout(tmp_path: Path):
    for name, order in (("one", 1), ("two", 2)):
        (tmp_path / f"{name}.yaml").write_text(f"name: {name}\norder: {order}\nhelp: x\nedges: own\nfold: false\n"
                                               "doc: x\n", encoding="utf-8")
    with pytest.raises(CardkitError) as err:
        load_layouts(tmp_path)
    assert [i.code for i in err.value.issues] == ["M103"]
    assert "0 sheet layouts say 'default: true'" in err.value.issues[0].message
