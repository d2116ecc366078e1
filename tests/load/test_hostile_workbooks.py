"""Hostile workbooks (issue 29, point 1): the size pre-check of
cardkit/load/sheets.py reads a workbook as python-calamine will read it.

Each case is a small, real workbook written by ``cardkit export``'s writers and
then patched as an attacker would: a cell reference in lower case or past the
bounds, a ``<dimension>`` that spans the whole grid, a sheet stored outside
``xl/worksheets/``, a shared-string table declaring four billion strings, an
OpenDocument spreadsheet named ``.xlsx``, repeated ODS rows and spaces.  Before
the fix each one made the reader allocate gigabytes (or abort under a memory
cap); now each is one ``W0xx`` line, before the reader runs.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from cardkit.load.sheets import SheetError, column_letters, read_tables
from cardkit.sheetio import Sheet, _zip, write_ods, write_xlsx

SHEET1 = "xl/worksheets/sheet1.xml"


def _book(fmt: str) -> bytes:
    sheets = [Sheet("storms", ("id", "name", "severity"), (("squall", "Squall", "gale"), ("gust", "Gust", "squall")))]
    return write_xlsx(sheets) if fmt == "xlsx" else write_ods(sheets)


def _patched(raw: bytes, edits: dict[str, Callable[[bytes], bytes]], rename: dict[str, str] | None = None) -> bytes:
    src = zipfile.ZipFile(io.BytesIO(raw))
    entries = []
    for info in src.infolist():
        data = src.read(info)
        if info.filename in edits:
            data = edits[info.filename](data)
        entries.append(((rename or {}).get(info.filename, info.filename), data, info.compress_type))
    for name, edit in edits.items():  # an edit of a member that is not there adds it
        if name not in src.namelist():
            entries.append((name, edit(b""), zipfile.ZIP_DEFLATED))
    return _zip(entries)


def _sub(pattern: bytes, repl: bytes, count: int = 1) -> Callable[[bytes], bytes]:
    def edit(data: bytes) -> bytes:
        out, n = re.subn(pattern, repl, data, count=count)
        assert n, (pattern, data[:600])
        return out
    return edit


def _refused(tmp_path: Path, name: str, raw: bytes) -> SheetError:
    path = tmp_path / name
    path.write_bytes(raw)
    with pytest.raises(SheetError) as exc:
        read_tables(path, f"cards/x/{name}")
    line = exc.value.issue.format()
    assert "\n" not in line and line.startswith(f"cards/x/{name}"), line
    return exc.value


def _far_cell(ref: bytes) -> Callable[[bytes], bytes]:
    """Add one cell ``ref`` (an inline text) in a row of its own at the end of the sheet."""
    return _sub(rb"</sheetData>", b'<row><c r="' + ref + b'" t="inlineStr"><is><t>x</t></is></c></row></sheetData>')


@pytest.mark.parametrize("ref", [b"iv400000", b"A400000", b"a1000000000", b"IW1", b"ZZZZ1", b"$A$1", b"A01", b"A0", b" A1"])
def test_a_cell_reference_out_of_bounds_or_not_in_a1_form_is_refused(ref: bytes, tmp_path: Path):
    raw = _patched(_book("xlsx"), {SHEET1: _far_cell(ref)})
    assert len(raw) < 8000
    exc = _refused(tmp_path, "storms.xlsx", raw)
    assert exc.issue.code == "W002"
    assert ref.decode().strip() in exc.issue.message


def test_the_issues_17kb_workbook_with_one_lower_case_cell_is_one_line_through_validate(tmp_path: Path, cli):
    from tests.load.test_sheets import _copy, EXAMPLE

    root = _copy(EXAMPLE, tmp_path / "p")
    set_dir = root / "cards" / "tidelights"
    (set_dir / "storms.yaml").unlink()
    (set_dir / "set.yaml").write_text((set_dir / "set.yaml").read_text(encoding="utf-8")
                                      .replace("  - storms.yaml\n", "  - storms.xlsx\n"), encoding="utf-8")
    (set_dir / "storms.xlsx").write_bytes(_patched(_book("xlsx"), {SHEET1: _far_cell(b"iv400000")}))
    result = cli("validate", "--root", str(root))
    lines = [ln for ln in result.err.splitlines() if "error[" in ln]
    assert result.code == 1 and "Traceback" not in result.err
    assert lines == ["cards/tidelights/storms.xlsx: error[W002]: sheet 'storms': cell reference 'iv400000' is not "
                     "an A1 reference within column IV and row 5001 (cardkit reads references in capitals, "
                     "like A1)"], result.err


@pytest.mark.parametrize("ref", [b"A1:XFD1048576", b"A1:iv5000", b"A1:B99999999"])
def test_a_dimension_spanning_the_grid_is_refused(ref: bytes, tmp_path: Path):
    raw = _patched(_book("xlsx"), {SHEET1: _sub(rb'<dimension ref="[^"]*"', b'<dimension ref="' + ref + b'"')})
    exc = _refused(tmp_path, "storms.xlsx", raw)
    assert exc.issue.code == "W002" and "dimension" in exc.issue.message


def test_a_sheet_stored_outside_xl_worksheets_is_checked_all_the_same(tmp_path: Path):
    rels = "xl/_rels/workbook.xml.rels"
    raw = _patched(_book("xlsx"), {SHEET1: _far_cell(b"A400000"),
                                  rels: _sub(rb"/xl/worksheets/sheet1.xml", b"elsewhere/data.xml"),
                                  "[Content_Types].xml": _sub(rb"/xl/worksheets/sheet1.xml", b"/xl/elsewhere/data.xml")},
                   rename={SHEET1: "xl/elsewhere/data.xml"})
    exc = _refused(tmp_path, "storms.xlsx", raw)
    assert exc.issue.code == "W002" and "A400000" in exc.issue.message


def _shared_strings(unique: bytes, count: bytes = b"2", strings: tuple[bytes, ...] = (b"id", b"name")) -> bytes:
    body = b"".join(b"<si><t>" + s + b"</t></si>" for s in strings)
    return (b'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="' + count
            + b'" uniqueCount="' + unique + b'">' + body + b"</sst>")


def test_a_shared_string_table_declaring_four_billion_strings_is_refused(tmp_path: Path):
    raw = _patched(_book("xlsx"), {"xl/sharedStrings.xml": lambda _: _shared_strings(b"4000000000", b"4000000000")})
    exc = _refused(tmp_path, "storms.xlsx", raw)
    assert exc.issue.code == "W002" and "4000000000" in exc.issue.message


def test_a_shared_string_table_that_miscounts_its_strings_is_refused(tmp_path: Path):
    raw = _patched(_book("xlsx"), {"xl/sharedStrings.xml": lambda _: _shared_strings(b"900")})
    exc = _refused(tmp_path, "storms.xlsx", raw)
    assert exc.issue.code == "W002" and "900" in exc.issue.message and "2" in exc.issue.message


def test_one_long_shared_string_repeated_in_every_cell_is_refused_by_its_volume(tmp_path: Path):
    """60,000 cells that each show the same 9,000-character shared string: 540 million characters once
    the reader has copied it into every cell, from a workbook of a few hundred kilobytes."""
    cells = b"".join(b'<row r="%d">' % r + b"".join(b'<c r="%s%d" t="s"><v>0</v></c>' % (c, r) for c in (b"A", b"B", b"C"))
                     + b"</row>" for r in range(2, 2002))
    raw = _patched(_book("xlsx"), {"xl/sharedStrings.xml": lambda _: _shared_strings(b"1", b"6000", (b"x" * 9000,)),
                                  SHEET1: _sub(rb"</sheetData>", cells + b"</sheetData>")})
    exc = _refused(tmp_path, "storms.xlsx", raw)
    assert exc.issue.code == "W002" and "characters" in exc.issue.message


def test_ods_content_named_xlsx_is_refused_by_its_suffix(tmp_path: Path):
    exc = _refused(tmp_path, "storms.xlsx", _book("ods"))
    assert exc.issue.code == "W001" and "OpenDocument" in exc.issue.message and ".ods" in exc.issue.message


def test_xlsx_content_named_ods_is_refused_by_its_suffix(tmp_path: Path):
    exc = _refused(tmp_path, "storms.ods", _book("xlsx"))
    assert exc.issue.code == "W001" and ".xlsx" in exc.issue.message


def _ods_rows(extra: bytes) -> Callable[[bytes], bytes]:
    return _sub(rb"</table:table>", extra + b"</table:table>")


@pytest.mark.parametrize("extra,word", [
    # a filled row repeated past the bound
    (b'<table:table-row table:number-rows-repeated="1048553"><table:table-cell office:value-type="string">'
     b"<text:p>x</text:p></table:table-cell></table:table-row>", "row"),
    # a filled cell repeated across 16,384 columns
    (b'<table:table-row><table:table-cell table:number-columns-repeated="16384" office:value-type="string">'
     b"<text:p>x</text:p></table:table-cell></table:table-row>", "column"),
    # repeats within the bounds whose product is a million filled cells
    (b'<table:table-row table:number-rows-repeated="4990"><table:table-cell table:number-columns-repeated="250" '
     b'office:value-type="float" office:value="1"><text:p>1</text:p></table:table-cell></table:table-row>', "cells"),
    # four billion spaces in one cell
    (b'<table:table-row><table:table-cell office:value-type="string"><text:p>a<text:s text:c="4000000000"/>b'
     b"</text:p></table:table-cell></table:table-row>", "characters"),
    # a repeat count that is not a number
    (b'<table:table-row table:number-rows-repeated="1e9"><table:table-cell/></table:table-row>', "1e9"),
])
def test_ods_repeats_are_counted(extra: bytes, word: str, tmp_path: Path):
    raw = _patched(_book("ods"), {"content.xml": _ods_rows(extra)})
    exc = _refused(tmp_path, "storms.ods", raw)
    assert exc.issue.code in ("W001", "W002") and word in exc.issue.message, exc.issue.message


def test_ods_empty_repeats_after_the_data_stay_fine(tmp_path: Path):
    raw = _patched(_book("ods"), {"content.xml": _ods_rows(
        b'<table:table-row table:number-rows-repeated="1048570"><table:table-cell table:number-columns-repeated="1024"/>'
        b"</table:table-row>")})
    path = tmp_path / "storms.ods"
    path.write_bytes(raw)
    assert [list(r) for r in read_tables(path, "storms.ods")[0].rows] == [
        ["id", "name", "severity"], ["squall", "Squall", "gale"], ["gust", "Gust", "squall"]]


def test_a_real_workbook_reads_the_same_through_the_guarded_reader(tmp_path: Path):
    for fmt in ("xlsx", "ods"):
        path = tmp_path / f"storms.{fmt}"
        path.write_bytes(_book(fmt))
        tables = read_tables(path, path.name)
        assert [(t.name, [list(r) for r in t.rows]) for t in tables] == [
            ("storms", [["id", "name", "severity"], ["squall", "Squall", "gale"], ["gust", "Gust", "squall"]])]


def test_a_reader_that_runs_out_of_memory_is_an_error_line_not_an_abort(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The second line of defence: the reader runs in a child process under a lowered address-space
    limit. With the limit set below what even a small workbook needs, the read fails in the child and
    the parent reports one W002 line (before the guard, an allocation failure in the reader was a
    SIGABRT of cardkit itself)."""
    from cardkit.load import workbook

    raw = grid_xlsx(5000, 19)
    path = tmp_path / "storms.xlsx"
    path.write_bytes(raw)
    assert len(read_tables(path, "storms.xlsx")[0].rows) == 5001  # within every bound: it reads
    monkeypatch.setattr(workbook, "READER_MEMORY", 4 << 20)  # but not in 4 MiB
    exc = _refused(tmp_path, "storms.xlsx", raw)
    assert exc.issue.code == "W002" and "memory" in exc.issue.message


def grid_xlsx(rows: int, cols: int, text: bool = True) -> bytes:
    """A sheet ``storms`` of ``rows`` cards and ``cols`` columns (an id and numbered texts
    or numbers), every cell with its reference, written straight as XML (fast at any size)."""
    letters = [column_letters(c) for c in range(cols)]
    out = [b"<sheetData>"]
    for r in range(1, rows + 2):
        cells = []
        for c in range(cols):
            ref = f"{letters[c]}{r}"
            if r == 1:
                cells.append(f'<c r="{ref}" t="inlineStr"><is><t>{"id" if c == 0 else f"f{c}"}</t></is></c>')
            elif c == 0 or text:
                cells.append(f'<c r="{ref}" t="inlineStr"><is><t>{"c" if c == 0 else "t"}{r}x{c}</t></is></c>')
            else:
                cells.append(f'<c r="{ref}"><v>{r * c}</v></c>')
        out.append(f'<row r="{r}">{"".join(cells)}</row>'.encode())
    out.append(b"</sheetData>")
    body = b"".join(out)
    return _patched(_book("xlsx"), {SHEET1: lambda d: re.sub(
        rb"<sheetData>.*</sheetData>", lambda _: body, re.sub(rb'<dimension ref="[^"]*"/>', b"", d), flags=re.S)})


def test_sheet_names_and_headers_reach_messages_with_their_control_characters_escaped(tmp_path: Path):
    """A header or sheet name holding ESC or a bidi override is shown as ``\\x1b`` / ``\\u202e``:
    the line cannot clear the terminal or reorder itself."""
    from cardkit.load.project import load_project
    from cardkit.load.sheets import read_sheet_file
    from tests.load.test_sheets import EXAMPLE

    kinds = load_project(EXAMPLE).sets["tidelights"].kinds
    csv_file = tmp_path / "storms.csv"
    csv_file.write_text("id,na\x1b[2Jme\nsquall,x\n", encoding="utf-8")
    book = tmp_path / "book.xlsx"
    book.write_bytes(write_xlsx([Sheet("evil\u202egnp", ("id",), (("a",),))]))
    lines = [i.format() for i in read_sheet_file(csv_file, "storms.csv", kinds)[1] + read_sheet_file(book, "book.xlsx", kinds)[1]]
    assert len(lines) == 2, lines
    assert all(ch.isprintable() for ln in lines for ch in ln), lines
    assert "na\\x1b[2Jme" in lines[0] and "evil\\u202egnp" in lines[1], lines


def test_one_sheet_part_named_by_many_sheets_is_counted_once_for_each(tmp_path: Path):
    """64 sheets of the workbook all built from the one part of 30,000 cells: the reader builds it
    64 times (1.9 million cells), so the part counts 64 times (alone it is within every bound)."""
    columns = (b"A", b"B", b"C", b"D", b"E", b"F")
    cells = b"".join(b'<row r="%d">' % r + b"".join(b'<c r="%s%d"><v>1</v></c>' % (c, r) for c in columns) + b"</row>"
                     for r in range(2, 5002))
    sheets = b"".join(b'<sheet xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" '
                      b'name="s%d" sheetId="%d" r:id="rId1"/>' % (i, i + 1) for i in range(1, 64))
    raw = _patched(_book("xlsx"), {SHEET1: _sub(rb"</sheetData>", cells + b"</sheetData>"),
                                  "xl/workbook.xml": _sub(rb"</sheets>", sheets + b"</sheets>")})
    exc = _refused(tmp_path, "storms.xlsx", raw)
    assert exc.issue.code == "W002" and "1920384 cells" in exc.issue.message
