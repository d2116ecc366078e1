"""Card files that are spreadsheets (cardkit/load/sheets.py) and the way back
(cardkit/sheetio.py: ``cardkit export`` and ``cardkit import``).

The bundled games are exported to xlsx, ods and csv and their sets pointed at
the sheets instead of the YAML files: the cards read back the same, and for
the example game the PDFs are byte-identical and the catalogs keep every
translation.  Bad sheets, written here with openpyxl, with a hand-patched
formula cache and a hand-made zip bomb, each give one located
``file:Sheet!CELL: error[CODE]`` line.
"""

from __future__ import annotations

import functools
import json
import io
import re
import shutil
import struct
import time
import zipfile
import zlib
from pathlib import Path

import pytest
import yaml
from babel.messages.pofile import read_po

from cardkit.load.project import load_project
from cardkit.sheetio import SheetFormat, export_set
from tests.conftest import FIXTURES, REPO

EXAMPLE = REPO / "examples" / "tidelights"
CELL_LINE = re.compile(r"^(?P<file>[^:]+):(?P<cell>(?:[A-Za-z0-9_]+!)?[A-Z]{1,3}\d+): error\[(?P<code>[A-Z]\d{3})\]: .+$")


def _copy(src: Path, dst: Path) -> Path:
    for name in ("cards", "locales", "schemas"):
        if (src / name).exists():
            shutil.copytree(src / name, dst / name)
    return dst


def _list_files(set_yaml: Path, names: list[str]) -> None:
    """Point ``files:`` of a set.yaml at ``names`` (the rest of the file as it was)."""
    text = set_yaml.read_text(encoding="utf-8")
    m = re.search(r"^files:\n(?:  - .*\n)+", text, re.MULTILINE)
    assert m, "no files: block"
    set_yaml.write_text(text[:m.start()] + "files:\n" + "".join(f"  - {n}\n" for n in names) + text[m.end():],
                        encoding="utf-8")


def _cards(project, sid: str) -> list[tuple]:
    return [(c.id, c.kind, c.quantity, c.art, dict(c.fields)) for c in project.sets[sid].set.cards.values()]


def _errors(project) -> list[str]:
    return [i.format() for i in project.issues if i.severity.value == "error"]


@functools.cache
def _loaded(src: Path):
    return load_project(src)


def _as_sheets(src: Path, dst: Path, sid: str, fmt: str) -> Path:
    """A copy of set ``sid`` of a project (alone, with the catalogs and schemas)
    that reads all its cards from one export of them."""
    project = _loaded(src)
    shutil.copytree(src / "cards" / sid, dst / "cards" / sid)
    for name in ("locales", "schemas"):
        if (src / name).exists():
            shutil.copytree(src / name, dst / name)
    set_dir = dst / "cards" / sid
    out = set_dir / ("sheets" if fmt == "csv" else f"{sid}.{fmt}")
    written = export_set(project.sets[sid], SheetFormat(fmt), out)
    for p in (set_dir / f for f in project.sets[sid].set.manifest["files"]):
        p.unlink()  # the YAML is gone: only the sheet can give the cards back
    _list_files(set_dir / "set.yaml", [p.relative_to(set_dir).as_posix() for p in written])
    return dst


# ------------------------------------------------------------------ round trips

@pytest.mark.parametrize("fmt", ["xlsx", "ods", "csv"])
@pytest.mark.parametrize("root,sid", [(REPO, "death-angel"), (REPO, "deep-strike"), (EXAMPLE, "tidelights")])
def test_a_bundled_game_reads_back_from_its_export(root: Path, sid: str, fmt: str, tmp_path: Path):
    want = _cards(_loaded(root), sid)
    project = load_project(_as_sheets(root, tmp_path / "p", sid, fmt))
    assert _errors(project) == []
    assert _cards(project, sid) == want  # same cards, fields, quantities, art, in the same order


def _po_entries(path: Path) -> dict:
    with path.open("rb") as fh:
        cat = read_po(fh)
    return {(m.context, m.id if isinstance(m.id, str) else tuple(m.id)): (m.string, m.fuzzy, tuple(m.auto_comments))
            for m in cat if m.id}


@pytest.fixture(scope="module")
def tidelights_pdf(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The Finnish PDF of the example game as its YAML files give it."""
    from cardkit.printing import build_pdf

    out = tmp_path_factory.mktemp("yaml") / "fi.pdf"
    build_pdf(EXAMPLE, _loaded(EXAMPLE).card_set("tidelights"), "fi", out=out)
    return out.read_bytes()


@pytest.mark.parametrize("fmt", ["xlsx", "ods", "csv"])
def test_tidelights_from_a_sheet_prints_the_same_pdf_and_keeps_every_translation(fmt: str, tmp_path: Path, cli,
                                                                                 tidelights_pdf: bytes):
    sheet = _as_sheets(EXAMPLE, tmp_path / "sheet", "tidelights", fmt)
    # the catalogs' #: references now name cells; nothing else about an entry changes
    assert cli("l10n", "update", "--root", str(sheet)).code == 0
    assert cli("l10n", "update", "--root", str(sheet), "--check").code == 0
    for po in sorted((EXAMPLE / "locales").rglob("*.po")):
        after = sheet / po.relative_to(EXAMPLE)
        assert _po_entries(after) == _po_entries(po), po
    pot = (sheet / "locales" / "tidelights.pot").read_text(encoding="utf-8")
    sheet_name = "ships" if fmt != "csv" else ""
    where = f"cards/tidelights/{'sheets/ships.csv:' if fmt == 'csv' else f'tidelights.{fmt}:ships!'}"
    assert re.search(rf"#: {re.escape(where)}B\d+\n", pot), (sheet_name, pot[:400])
    result = cli("build", "pdf", "--root", str(sheet), "--locale", "fi", "--out", str(tmp_path / "sheet.pdf"))
    assert result.code == 0, result.err
    assert (tmp_path / "sheet.pdf").read_bytes() == tidelights_pdf


@pytest.mark.parametrize("fmt", ["xlsx", "ods", "csv"])
def test_an_export_is_byte_identical_on_rerun(fmt: str, tmp_path: Path, cli):
    outs = []
    for n in (1, 2):
        out = tmp_path / f"{n}.{fmt}"
        result = cli("export", "--root", str(EXAMPLE), "--set", "tidelights", "--format", fmt, "--out", str(out))
        assert result.code == 0, result.err
        outs.append(out.read_bytes())  # (a --out ending in .csv is one file with a kind column)
        time.sleep(1.1 if n == 1 else 0)  # a zip time or document date taken from the clock would differ
    assert outs[0] == outs[1]
    if fmt != "csv":
        names = zipfile.ZipFile(tmp_path / f"1.{fmt}").infolist()
        assert {i.date_time for i in names} == {(1980, 1, 1, 0, 0, 0)}


def test_the_committed_tidelights_workbook_is_the_current_export(tmp_path: Path, cli):
    out = tmp_path / "t.xlsx"
    assert cli("export", "--root", str(EXAMPLE), "--set", "tidelights", "--out", str(out)).code == 0
    assert out.read_bytes() == (REPO / "docs" / "tidelights.xlsx").read_bytes(), \
        "docs/tidelights.xlsx is stale: cardkit export --root examples/tidelights --out docs/tidelights.xlsx"


@pytest.mark.parametrize("root,sid", [(REPO, "death-angel"), (REPO, "deep-strike")])
def test_import_of_an_export_gives_yaml_that_loads_the_same_cards(root: Path, sid: str, tmp_path: Path, cli):
    want = _cards(_loaded(root), sid)
    dst = tmp_path / "p"
    shutil.copytree(root / "cards" / sid, dst / "cards" / sid)
    shutil.copytree(root / "schemas", dst / "schemas")
    book = tmp_path / "book.xlsx"
    export_set(_loaded(root).sets[sid], SheetFormat.xlsx, book)
    for f in _loaded(root).sets[sid].set.manifest["files"]:
        (dst / "cards" / sid / f).write_text("kind: nothing\n", encoding="utf-8")  # import must write them all
    result = cli("import", str(book), "--root", str(dst), "--set", sid)
    assert result.code == 0, result.err
    project = load_project(dst)
    assert _errors(project) == []
    assert _cards(project, sid) == want


def test_the_review_page_names_a_sheet_cell_as_the_source(tmp_path: Path):
    from cardkit.i18n.review import _Entries

    project = load_project(_as_sheets(EXAMPLE, tmp_path / "p", "tidelights", "xlsx"))
    row = _Entries(tmp_path / "p", project.card_set("tidelights"), "fi").row(("tidelights", "kestrel.name"))
    assert (row.english, row.source) == ("Kestrel", "cards/tidelights/tidelights.xlsx:ships!B3")


def test_import_writes_the_sets_yaml_files_which_load_the_same_cards(tmp_path: Path, cli):
    root = _copy(EXAMPLE, tmp_path / "p")
    want = _cards(load_project(root), "tidelights")
    book = tmp_path / "book.ods"
    assert cli("export", "--root", str(root), "--format", "ods", "--out", str(book)).code == 0
    ships = root / "cards" / "tidelights" / "ships.yaml"
    ships.write_text(ships.read_text(encoding="utf-8").replace('"Kestrel"', '"Kittiwake"'), encoding="utf-8")
    result = cli("import", str(book), "--root", str(root), "--set", "tidelights")
    assert result.code == 0, result.err
    assert "Traceback" not in result.err
    text = ships.read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=schemas/ships.schema.json\n")
    assert "Kittiwake" not in text and "Kestrel" in text
    assert _cards(load_project(root), "tidelights") == want
    assert cli("validate", "--root", str(root)).code == 0


# ------------------------------------------------------------------ a set whose ships live in an xlsx

def _ships_project(tmp_path: Path):
    """The example game with its ship cards in ``ships.xlsx`` (openpyxl, from the
    YAML), and the workbook for a test to break."""
    from openpyxl import Workbook

    root = _copy(EXAMPLE, tmp_path / "p")
    set_dir = root / "cards" / "tidelights"
    cards = yaml.safe_load((set_dir / "ships.yaml").read_text(encoding="utf-8"))["cards"]
    header = ["id", "name", "registry", "rig", "needs[0]", "needs[1]", "needs[2]", "needs[3]", "cargo", "final", "text", "art"]
    wb = Workbook()
    ws = wb.active
    ws.title = "Ships"
    ws.append(header)
    for c in cards:
        needs = (c["needs"] + [None] * 4)[:4]
        ws.append([c["id"], c["name"], c["registry"], c["rig"], *needs, c["cargo"], c.get("final"), c.get("text"), c["art"]])
    (set_dir / "ships.yaml").unlink()
    text = (set_dir / "set.yaml").read_text(encoding="utf-8").replace("  - ships.yaml\n", "  - ships.xlsx\n")
    (set_dir / "set.yaml").write_text(text, encoding="utf-8")
    return root, set_dir / "ships.xlsx", wb, cards


def _validate_lines(cli, root: Path) -> tuple[int, list[str]]:
    result = cli("validate", "--root", str(root))
    assert "Traceback" not in result.err + result.out
    return result.code, [ln for ln in result.err.splitlines() if ln and not ln.endswith("error(s)")]


def test_a_set_whose_ships_live_in_an_xlsx_validates_and_builds(tmp_path: Path, cli):
    root, book, wb, _ = _ships_project(tmp_path)
    wb.save(book)  # the sheet "Ships" is kind ships: a sheet names its kind by file_kind or kind name, in any case
    code, lines = _validate_lines(cli, root)
    assert (code, lines) == (0, [])
    result = cli("build", "pdf", "--root", str(root), "--out", str(tmp_path / "x.pdf"))
    assert result.code == 0, result.err
    from pypdf import PdfReader

    assert len(PdfReader(tmp_path / "x.pdf").pages) > 0


def test_import_of_the_listed_sheet_relists_set_yaml_and_the_set_loads_from_yaml(tmp_path: Path, cli):
    """The set's ships live in ships.xlsx, listed in set.yaml; after import the
    cards are in ships.yaml and files: lists it in the sheet's place (every other
    line of set.yaml as it was), so validate reads the YAML and the same cards."""
    root, book, wb, _ = _ships_project(tmp_path)
    wb.save(book)
    want = _cards(load_project(root), "tidelights")
    manifest = root / "cards" / "tidelights" / "set.yaml"
    before = manifest.read_text(encoding="utf-8")
    result = cli("import", str(book), "--root", str(root), "--set", "tidelights")
    assert result.code == 0, result.err
    assert "W012" not in result.err
    after = manifest.read_text(encoding="utf-8")
    assert after == before.replace("  - ships.xlsx\n", "  - ships.yaml\n") and after != before
    assert "files: lists ships.yaml instead of ships.xlsx" in result.out
    book.unlink()  # the cards now load from the YAML alone
    assert _validate_lines(cli, root) == (0, [])
    assert _cards(load_project(root), "tidelights") == want


def test_import_says_what_to_change_when_files_is_not_a_block_list(tmp_path: Path, cli):
    root, book, wb, _ = _ships_project(tmp_path)
    wb.save(book)
    manifest = root / "cards" / "tidelights" / "set.yaml"
    data = yaml.safe_load(manifest.read_text(encoding="utf-8"))
    text = manifest.read_text(encoding="utf-8")
    block = "files:\n" + "".join(f"  - {f}\n" for f in data["files"])
    assert block in text
    flow = text.replace(block, "files: [" + ", ".join(data["files"]) + "]\n")
    manifest.write_text(flow, encoding="utf-8")
    result = cli("import", str(book), "--root", str(root), "--set", "tidelights")
    assert result.code == 0, result.err
    assert manifest.read_text(encoding="utf-8") == flow  # left to the user, who is told what to change
    warned = [ln for ln in result.err.splitlines() if "W012" in ln]
    assert len(warned) == 2, result.err
    assert any("ships.yaml is not listed" in w for w in warned) and any("still lists ships.xlsx" in w for w in warned), warned


@pytest.mark.parametrize("break_it,want", [
    (lambda ws: ws.__setitem__("D3", "spice"), ("Ships!D3", "S004", "'spice' is not one of: skiff, ketch, brig")),
    (lambda ws: ws.__setitem__("C5", None), ("Ships!C5", "S002", "missing required key 'registry'")),
    (lambda ws: ws.__setitem__("M1", "colour"), ("Ships!M1", "S001", "unknown key 'colour'")),
])
def test_a_bad_cell_gives_one_located_line(break_it, want, tmp_path: Path, cli):
    root, book, wb, _ = _ships_project(tmp_path)
    break_it(wb["Ships"])
    wb.save(book)
    code, lines = _validate_lines(cli, root)
    assert code == 1
    assert len(lines) == 1, lines
    m = CELL_LINE.match(lines[0])
    assert m, lines[0]
    assert (m["file"], m["cell"], m["code"]) == ("cards/tidelights/ships.xlsx", want[0], want[1])
    assert want[2] in lines[0]


def _patch_zip(path: Path, name: str, edit) -> None:
    src = zipfile.ZipFile(io.BytesIO(path.read_bytes()))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as out:
        for info in src.infolist():
            data = src.read(info)
            out.writestr(info, edit(data) if info.filename == name else data)
    path.write_bytes(buf.getvalue())


def test_a_formula_counts_by_its_cached_value_and_is_never_evaluated(tmp_path: Path, cli):
    root, book, wb, cards = _ships_project(tmp_path)
    ws = wb["Ships"]
    ws["I2"] = "=1+1"  # Little Wren's cargo: evaluated it would be 2; the file says 7
    ws["I3"] = "=1+1"  # Kestrel's: a formula nobody saved a value for
    wb.save(book)

    def cache(xml: bytes) -> bytes:
        xml, n = re.subn(rb'<c r="I2"([^>]*)><f>1\+1</f><v\s*/?>(?:</v>)?', rb'<c r="I2"\1><f>1+1</f><v>7</v>', xml)
        assert n == 1, xml[:2000]
        return xml

    _patch_zip(book, "xl/worksheets/sheet1.xml", cache)
    code, lines = _validate_lines(cli, root)
    # Kestrel's uncached formula is an empty cell: a required field left empty
    assert code == 1 and len(lines) == 1 and lines[0].startswith("cards/tidelights/ships.xlsx:Ships!I3: error[S002]"), lines
    from openpyxl import load_workbook

    wb2 = load_workbook(book)
    wb2["Ships"]["I3"] = cards[1]["cargo"]
    wb2.save(book)
    _patch_zip(book, "xl/worksheets/sheet1.xml", cache)
    project = load_project(root)
    assert _errors(project) == []
    assert project.sets["tidelights"].set.cards["little_wren"].fields["cargo"] == 7


def _zip_bomb(path: Path, size: int = 1 << 30) -> None:
    """A real zip bomb named .xlsx: one entry that inflates to ``size`` bytes of
    zeros (``size`` a multiple of 16 MiB), ~1 MB on disk; the deflate stream is
    one flushed block repeated, so making it takes no time."""
    chunk = 16 << 20
    co = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = co.compress(b"\0" * chunk) + co.flush(zlib.Z_FULL_FLUSH)
    data = block * (size // chunk) + zlib.compressobj(9, zlib.DEFLATED, -15).flush(zlib.Z_FINISH)
    name = b"xl/worksheets/sheet1.xml"
    crc = 0  # not computed: a reader that checks sizes first never gets that far
    local = struct.pack("<4s5H3L2H", b"PK\x03\x04", 20, 0, 8, 0, 0x21, crc, len(data), size, len(name), 0) + name
    central = struct.pack("<4s6H3L5H2L", b"PK\x01\x02", 20, 20, 0, 8, 0, 0x21, crc, len(data), size, len(name),
                          0, 0, 0, 0, 0, 0) + name
    end = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, 1, 1, len(central), len(local) + len(data), 0)
    path.write_bytes(local + data + central + end)


def test_a_1gb_zip_bomb_disguised_as_xlsx_is_refused_at_once(tmp_path: Path, cli):
    root, book, _, _ = _ships_project(tmp_path)
    _zip_bomb(book)
    assert book.stat().st_size < 2 << 20
    code, lines = _validate_lines(cli, root)
    assert code == 1
    # (the W002 line itself says nothing was inflated: the entry's CRC is wrong, so a reader that
    # inflated it would fail on that, after a gigabyte; the time is bench/bench_sheets.py's)
    assert lines == [(f"cards/tidelights/ships.xlsx: error[W002]: the workbook unpacks to {1 << 30} bytes; "
                      "the limit is 67108864 (a zip bomb?)")]


def test_a_zip_whose_header_lies_about_its_size_is_refused(tmp_path: Path):
    from cardkit.load.sheets import SheetError, check_zip

    bomb = tmp_path / "b.xlsx"
    _zip_bomb(bomb, 80 << 20)
    raw = bytearray(bomb.read_bytes())
    # declare 1 KiB uncompressed in both headers: the inflated data runs past it
    for sig, off in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        at = raw.find(sig)
        raw[at + off:at + off + 4] = struct.pack("<L", 1024)
    with pytest.raises(SheetError) as exc:
        check_zip(bytes(raw), "b.xlsx")
    assert exc.value.issue.code in ("W001", "W002")


def test_a_cell_far_out_is_refused_before_the_sheet_is_built(tmp_path: Path, cli):
    root, book, wb, _ = _ships_project(tmp_path)
    ws = wb["Ships"]
    ws["XFD1048576"] = 1  # read densely, a sheet of 17 billion cells
    wb.save(book)
    t0 = time.perf_counter()
    code, lines = _validate_lines(cli, root)
    assert time.perf_counter() - t0 < 10  # (a hang guard: read densely it would not end)
    assert code == 1 and len(lines) == 1 and "error[W002]" in lines[0], lines


def test_a_sheet_named_after_no_kind_is_one_line_and_notes_sheets_are_skipped(tmp_path: Path, cli):
    root, book, wb, _ = _ships_project(tmp_path)
    wb.create_sheet("_notes")["A1"] = "anything at all"
    wb.create_sheet("Boats")["A1"] = "id"
    wb.save(book)
    code, lines = _validate_lines(cli, root)
    assert code == 1
    assert lines == [("cards/tidelights/ships.xlsx:Boats!A1: error[W005]: sheet 'Boats' is not a kind of the set "
                      "(crew, harbours, keepers, ships, storms) and has no 'kind' column; name it after a kind, "
                      "or start its name with _ to keep notes")]


# ------------------------------------------------------------------ bad CSV fixtures, one per code

CSV_CASES = sorted(p.name for p in (FIXTURES / "sheets").glob("*.csv"))


def test_every_csv_case_has_its_expectation():
    expect = yaml.safe_load((FIXTURES / "sheets" / "expect.yaml").read_text(encoding="utf-8"))
    assert sorted(expect) == CSV_CASES
    assert len(CSV_CASES) >= 6


@pytest.mark.parametrize("name", CSV_CASES)
def test_a_bad_csv_card_file_gives_its_located_lines(name: str, tmp_path: Path, cli):
    """Each fixture replaces the example's storm cards (cards/tidelights/storms.csv)."""
    want = yaml.safe_load((FIXTURES / "sheets" / "expect.yaml").read_text(encoding="utf-8"))[name]
    root = _copy(EXAMPLE, tmp_path / "p")
    set_dir = root / "cards" / "tidelights"
    shutil.copyfile(FIXTURES / "sheets" / name, set_dir / "storms.csv")
    (set_dir / "storms.yaml").unlink()
    text = (set_dir / "set.yaml").read_text(encoding="utf-8").replace("  - storms.yaml\n", "  - storms.csv\n")
    (set_dir / "set.yaml").write_text(text, encoding="utf-8")
    code, lines = _validate_lines(cli, root)
    assert code == (1 if want else 0), lines
    assert [ln.replace("cards/tidelights/storms.csv", "F") for ln in lines] == want


def test_import_of_a_bad_sheet_writes_nothing_and_names_the_cells(tmp_path: Path, cli):
    root = _copy(EXAMPLE, tmp_path / "p")
    storms = root / "cards" / "tidelights" / "storms.yaml"
    before = storms.read_bytes()
    bad = tmp_path / "storms.csv"
    shutil.copyfile(FIXTURES / "sheets" / "enum-value.csv", bad)
    result = cli("import", str(bad), "--root", str(root), "--set", "tidelights")
    assert result.code == 1
    assert result.err.splitlines() == [f"{bad.as_posix()}:C3: error[S004]: 'hurricane' is not one of: squall, gale, tempest"]
    assert storms.read_bytes() == before


def test_export_of_a_broken_set_or_an_unknown_set_is_refused(tmp_path: Path, cli):
    root = _copy(EXAMPLE, tmp_path / "p")
    result = cli("export", "--root", str(root), "--set", "nope", "--out", str(tmp_path / "x.xlsx"))
    assert result.code == 1 and "error[P002]" in result.err
    storms = root / "cards" / "tidelights" / "storms.yaml"
    storms.write_text(storms.read_text(encoding="utf-8").replace("severity: gale", "severity: breeze", 1), encoding="utf-8")
    result = cli("export", "--root", str(root), "--out", str(tmp_path / "x.xlsx"))
    assert result.code == 1 and "error[S004]" in result.err and "Traceback" not in result.err
    assert not (tmp_path / "x.xlsx").exists()


def _ods_with(tmp_path: Path, extra_rows: bytes) -> Path:
    from cardkit.sheetio import Sheet, _zip, write_ods

    book = zipfile.ZipFile(io.BytesIO(write_ods([Sheet("storms", ("id", "name"), (("squall", "Squall"),))])))
    entries = []
    for info in book.infolist():
        data = book.read(info)
        if info.filename == "content.xml":
            data = data.replace(b"</table:table>", extra_rows + b"</table:table>")
        entries.append((info.filename, data, info.compress_type))
    path = tmp_path / "x.ods"
    path.write_bytes(_zip(entries))
    return path


def test_ods_repeated_rows_empty_are_fine_and_filled_ones_are_bounded(tmp_path: Path):
    from cardkit.load.sheets import SheetError, read_tables

    # what LibreOffice writes after the last row: a million empty rows of 1024 empty cells
    fine = _ods_with(tmp_path, b'<table:table-row table:number-rows-repeated="1048553">'
                               b'<table:table-cell table:number-columns-repeated="1024"/></table:table-row>')
    assert [list(r) for r in read_tables(fine, "x.ods")[0].rows] == [["id", "name"], ["squall", "Squall"]]
    bomb = _ods_with(tmp_path, b'<table:table-row table:number-rows-repeated="1048553"><table:table-cell '
                               b'office:value-type="string"><text:p>x</text:p></table:table-cell></table:table-row>')
    with pytest.raises(SheetError) as exc:
        read_tables(bomb, "x.ods")
    assert exc.value.issue.code == "W002" and "row" in exc.value.issue.message


def test_any_csv_gives_cards_or_located_issues_never_an_exception(tmp_path: Path):
    """Random headers (field names, parts, item numbers, junk) and random cells
    (YAML-looking, huge, odd unicode) through the reader and the kind's schema."""
    import csv as csvmod

    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from cardkit.load import kinds as kindsmod
    from cardkit.load.schema import validate_with, validator_for
    from cardkit.load.sheets import read_sheet_file

    kinds = _loaded(EXAMPLE).sets["tidelights"].kinds
    headers = st.sampled_from(["id", "kind", "name", "name.text", "name.plural", "icons", "icons[0]", "icons[1]",
                               "icons[7]", "copies", "text", "severity", "needs[0]", "chart", "chart[0].rect",
                               "berths[0].label", "", "a b", "x[", "name..y", "=SUM(A1)"])
    cells = st.one_of(st.text(max_size=30), st.sampled_from(["[lamp, oar]", "[", "{a: 1}", "!!python/object:x {}",
                                                             "&a [*a, *a]", "null", "TRUE", "3", "#REF!", "1e999"]))

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
    @given(st.lists(headers, min_size=1, max_size=8), st.lists(st.lists(cells, max_size=8), max_size=6),
           st.sampled_from(["storms", "crew", "ships", "weather"]))
    def check(header, rows, stem):
        path = tmp_path / f"{stem}.csv"
        with path.open("w", encoding="utf-8", newline="") as fh:
            w = csvmod.writer(fh)
            w.writerow(header)
            w.writerows(rows)
        docs, issues = read_sheet_file(path, f"cards/x/{stem}.csv", kinds)
        for doc in docs:
            kind = kinds.by_file[doc.data["kind"]]
            issues += validate_with(doc, validator_for(kind.file_kind, kindsmod.derive_schema(kind, "kinds.yaml")))
        for issue in issues:
            assert issue.file.startswith(f"cards/x/{stem}.csv"), issue
            assert "\n" not in issue.format() and len(issue.format()) < 400, issue.format()

    check()


# ------------------------------------------------------------------ one bound on the cards of a file

def _storms_sheet_project(tmp_path: Path, fmt: str, cards: int, max_cards: int | None = None) -> Path:
    """The example with its storm cards in ``storms.<fmt>``: ``cards`` rows (blank lines between
    some), the storms kind bounded by ``max_cards`` when given."""
    from cardkit.sheetio import Sheet, write_csv, write_ods, write_xlsx

    root = _copy(EXAMPLE, tmp_path / f"p{cards}{fmt}")
    set_dir = root / "cards" / "tidelights"
    rows = []
    for i in range(cards):
        rows.append((f"s{i}", f"Storm {i}", "gale", "1", "Wind."))
        if i % 97 == 0:
            rows.append(("", "", "", "", ""))  # a blank row is no card
    sheet = Sheet("storms", ("id", "name", "severity", "copies", "text"), tuple(rows))
    data = {"csv": lambda: write_csv(sheet), "xlsx": lambda: write_xlsx([sheet]), "ods": lambda: write_ods([sheet])}[fmt]()
    (set_dir / f"storms.{fmt}").write_bytes(data)
    (set_dir / "storms.yaml").unlink()
    text = (set_dir / "set.yaml").read_text(encoding="utf-8").replace("  - storms.yaml\n", f"  - storms.{fmt}\n")
    (set_dir / "set.yaml").write_text(text, encoding="utf-8")
    if max_cards is not None:
        kinds = set_dir / "kinds.yaml"
        k = kinds.read_text(encoding="utf-8")
        kinds.write_text(k.replace("    file_kind: storms\n", f"    file_kind: storms\n    max_cards: {max_cards}\n", 1),
                         encoding="utf-8")
    return root


@pytest.mark.parametrize(("fmt", "cards"), [("csv", 501), ("csv", 5001), ("xlsx", 501), ("ods", 4000)])
def test_a_sheet_of_too_many_cards_is_the_yaml_files_s006_line_at_the_kinds_bound(fmt: str, cards: int,
                                                                                tmp_path: Path, cli):
    """The reader allowed 5000 rows where the schema allows 500 cards (two bounds, a W002 line for
    one and S006 for the other): now one bound, the kind's max_cards, one S006 line either way."""
    root = _storms_sheet_project(tmp_path, fmt, cards)
    code, lines = _validate_lines(cli, root)
    assert code == 1
    f = f"cards/tidelights/storms.{fmt}"
    where = "" if fmt == "csv" else "sheet 'storms': "
    assert lines == [f"{f}: error[S006]: {where}more than 500 cards in one file; at most 500: split the file"]


def test_a_workbook_beyond_the_grid_is_one_w002_line_before_it_is_read(tmp_path: Path, cli):
    """Past 5001 rows a workbook is refused by its declared grid, before the reader runs (a
    memory guard): still one coded line."""
    root = _storms_sheet_project(tmp_path, "xlsx", 5001)
    code, lines = _validate_lines(cli, root)
    assert code == 1 and len(lines) == 1 and "error[W002]" in lines[0] and "row 5001" in lines[0], lines


def test_the_bound_is_the_kinds_max_cards_and_the_reader_reads_what_it_allows(tmp_path: Path, cli):
    from cardkit.load.kinds import MAX_CARDS, MAX_CARDS_LIMIT
    from cardkit.load.workbook import MAX_ROWS

    schema = json.loads((REPO / "schemas" / "kinds.schema.json").read_text(encoding="utf-8"))

    def find(node):
        if isinstance(node, dict):
            if "max_cards" in node and isinstance(node["max_cards"], dict) and "maximum" in node["max_cards"]:
                return node["max_cards"]
            for v in node.values():
                if (hit := find(v)) is not None:
                    return hit
        return None

    assert find(schema)["maximum"] == MAX_CARDS_LIMIT and MAX_ROWS == MAX_CARDS_LIMIT + 1 and MAX_CARDS < MAX_CARDS_LIMIT
    # exactly the default bound, and a kind that allows more: every card read (the manifest counts them)
    for fmt, cards, bound in (("csv", 500, None), ("xlsx", 600, 700)):
        code, lines = _validate_lines(cli, _storms_sheet_project(tmp_path, fmt, cards, max_cards=bound))
        assert not [ln for ln in lines if "error[S" in ln or "error[W" in ln], lines[:3]
        assert any("error[C005]" in ln and f"storm {cards})" in ln for ln in lines), lines[:3]
    root = _storms_sheet_project(tmp_path, "ods", 701, max_cards=700)
    code, lines = _validate_lines(cli, root)
    assert code == 1 and [ln for ln in lines if "error" in ln] == [
        "cards/tidelights/storms.ods: error[S006]: sheet 'storms': more than 700 cards in one file; at most 700: split "
        "the file"]


def test_the_export_line_counts_cards_as_validate_does(tmp_path: Path, cli):
    """Death Angel's rows are card definitions, some with copies: the line gives both counts, the
    second the one ``cardkit validate`` prints, so the two commands never seem to disagree."""
    from tests.conftest import REPO

    out = cli("export", "--root", str(REPO), "--set", "death-angel", "--out", str(tmp_path / "da.xlsx")).out
    valid = cli("validate", "--root", str(REPO)).out
    physical = int(valid.split("death-angel ")[1].split(" cards")[0])
    rows = int(out.split("(")[1].split(" cards")[0])
    assert rows < physical and f"({rows} cards, {physical} with their copies" in out
