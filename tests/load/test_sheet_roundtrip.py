"""Lossless round trips through ``cardkit export`` and ``cardkit import``
(issue 29, point 3): the bundled sets and the example game come back
byte-identical, comments included, in every format; integers, line endings
and texts a spreadsheet would take for something else survive; import says
what it would remove and asks for ``--prune``; a CSV export is what import
takes back; the catalogs stay current.
"""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

import pytest

from cardkit.load.project import load_project
from tests.conftest import REPO

EXAMPLE = REPO / "examples" / "tidelights"


def _copy(src: Path, dst: Path) -> Path:
    for name in ("cards", "locales", "schemas"):
        if (src / name).exists():
            shutil.copytree(src / name, dst / name)
    return dst


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("fmt,out", [("xlsx", "book.xlsx"), ("ods", "book.ods"), ("csv", "sheets"), ("csv", "sheet.csv")])
@pytest.mark.parametrize("src,sid", [(REPO, "death-angel"), (REPO, "deep-strike"), (EXAMPLE, "tidelights")])
def test_export_then_import_leaves_every_file_byte_identical(src: Path, sid: str, fmt: str, out: str, tmp_path: Path, cli):
    root = _copy(src, tmp_path / "p")
    before = _files(root)
    book = tmp_path / out
    result = cli("export", "--root", str(root), "--set", sid, "--format", fmt, "--out", str(book))
    assert result.code == 0, result.err
    result = cli("import", str(book), "--root", str(root), "--set", sid)
    assert result.code == 0, result.err
    assert "wrote" not in result.out, result.out
    assert _files(root) == before  # comments (Death Angel's # DISPUTED notes among them) and all
    assert cli("l10n", "update", "--root", str(root), "--check").code == 0


def _tidelights(tmp_path: Path) -> Path:
    return _copy(EXAMPLE, tmp_path / "p")


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_changed_card_keeps_every_other_cards_lines_and_comments(tmp_path: Path, cli):
    root = _copy(REPO, tmp_path / "p")
    locations = root / "cards" / "death-angel" / "locations.yaml"
    before = locations.read_text(encoding="utf-8")
    book = tmp_path / "b.ods"
    assert cli("export", "--root", str(root), "--set", "death-angel", "--format", "ods", "--out", str(book)).code == 0
    project = load_project(root)
    first = project.sets["death-angel"].docs["cards/death-angel/locations.yaml"].data["cards"][0]
    # change one location's name in the YAML; the sheet brings the old one back
    _edit(locations, f'name: "{first["name"]}"', 'name: "Changed"')
    result = cli("import", str(book), "--root", str(root), "--set", "death-angel")
    assert result.code == 0, result.err
    assert f"changes name of card '{first['id']}'" in result.out
    after = locations.read_text(encoding="utf-8")
    assert after.count("# DISPUTED") == before.count("# DISPUTED") == 2
    assert load_project(root).sets["death-angel"].docs["cards/death-angel/locations.yaml"].data == \
        project.sets["death-angel"].docs["cards/death-angel/locations.yaml"].data
    assert cli("l10n", "update", "--root", str(root), "--check").code == 0  # the references were refreshed


def test_a_comment_inside_a_changed_card_is_dropped_only_with_force(tmp_path: Path, cli):
    root = _copy(REPO, tmp_path / "p")
    locations = root / "cards" / "death-angel" / "locations.yaml"
    book = tmp_path / "b.xlsx"
    assert cli("export", "--root", str(root), "--set", "death-angel", "--out", str(book)).code == 0
    _edit(locations, "blips: {left: 7, right: 5}  # DISPUTED", "blips: {left: 6, right: 6}  # DISPUTED")
    changed = locations.read_bytes()
    result = cli("import", str(book), "--root", str(root), "--set", "death-angel")
    assert result.code == 1
    lines = result.err.splitlines()
    assert len([ln for ln in lines if "error[W014]" in ln]) == 1, result.err
    assert any(ln.startswith("cards/death-angel/locations.yaml:151: error[W014]: ") and "# DISPUTED" in ln for ln in lines)
    assert locations.read_bytes() == changed  # nothing written
    result = cli("import", str(book), "--root", str(root), "--set", "death-angel", "--force")
    assert result.code == 0, result.err
    text = locations.read_text(encoding="utf-8")
    assert "blips: {left: 7, right: 5}" in text and text.count("# DISPUTED") == 1


def test_import_lists_what_it_would_remove_and_removes_only_with_prune(tmp_path: Path, cli):
    root = _tidelights(tmp_path)
    book = tmp_path / "storms.csv"
    assert cli("export", "--root", str(root), "--format", "csv", "--out", str(tmp_path / "all")).code == 0
    rows = list(csv.reader(io.StringIO((tmp_path / "all" / "storms.csv").read_text(encoding="utf-8"))))
    header = rows[0]
    # one storm card gone, and the copies column gone
    keep = [i for i, h in enumerate(header) if h != "copies"]
    assert len(keep) < len(header)
    with book.open("w", encoding="utf-8", newline="") as fh:
        csv.writer(fh, lineterminator="\n").writerows([[r[i] for i in keep] for r in rows[:-1]])
    storms = root / "cards" / "tidelights" / "storms.yaml"
    before = storms.read_bytes()
    gone = rows[-1][header.index("id")]
    result = cli("import", str(book), "--root", str(root), "--set", "tidelights")
    assert result.code == 1
    lines = [ln for ln in result.err.splitlines() if "error[W013]" in ln]
    assert any(f"card '{gone}'" in ln and ln.startswith("cards/tidelights/storms.yaml:") for ln in lines), result.err
    assert any("field 'copies' of card 'squall'" in ln for ln in lines), result.err
    assert storms.read_bytes() == before
    result = cli("import", str(book), "--root", str(root), "--set", "tidelights", "--prune")
    assert result.code == 0, result.err
    assert f"removes card '{gone}'" in result.out
    cards = load_project(root).sets["tidelights"].docs["cards/tidelights/storms.yaml"].data["cards"]
    assert gone not in [c["id"] for c in cards] and not any("copies" in c for c in cards)


def _ship_value(root: Path, key: str, value: str) -> Path:
    ships = root / "cards" / "tidelights" / "ships.yaml"
    text = ships.read_text(encoding="utf-8")
    old = next(ln for ln in text.splitlines() if ln.strip().startswith(f"{key}:"))
    ships.write_text(text.replace(old, old.split(":")[0] + ": " + value, 1), encoding="utf-8")
    return ships


@pytest.mark.parametrize("fmt,out", [("xlsx", "b.xlsx"), ("ods", "b.ods"), ("csv", "b.csv")])
@pytest.mark.parametrize("key,value,want", [
    ("text", '"=HYPERLINK(\\"http://x\\",\\"y\\")"', '=HYPERLINK("http://x","y")'),
    ("text", '"@SUM(1+1)"', "@SUM(1+1)"),
    ("text", '"\'quoted from the start"', "'quoted from the start"),
    ("text", '"#N/A"', "#N/A"),
    ("text", '"first line\\r\\nsecond line"', "first line\r\nsecond line"),
    ("text", '"-minus"', "-minus"),
    ("text", '"\\ttab first"', "\ttab first"),
    ("text", '"null"', "null"),
])
def test_texts_a_spreadsheet_would_misread_come_back_exactly(fmt: str, out: str, key: str, value: str, want: str,
                                                             tmp_path: Path, cli):
    root = _tidelights(tmp_path)
    ships = _ship_value(root, key, value)
    cards = load_project(root).sets["tidelights"].docs["cards/tidelights/ships.yaml"].data["cards"]
    assert [c[key] for c in cards if key in c][0] == want
    before = ships.read_bytes()
    book = tmp_path / out
    result = cli("export", "--root", str(root), "--format", fmt, "--out", str(book))
    assert result.code == 0, result.err
    if fmt == "csv":
        cells = [c for row in csv.reader(io.StringIO(book.read_text(encoding="utf-8"))) for c in row]
        assert not any(c[:1] in ("=", "+", "@", "\t", "\r") for c in cells)  # never a formula in a spreadsheet program
    result = cli("import", str(book), "--root", str(root), "--set", "tidelights")
    assert result.code == 0, result.err
    assert ships.read_bytes() == before


@pytest.mark.parametrize("fmt,out", [("xlsx", "b.xlsx"), ("ods", "b.ods"), ("csv", "b.csv")])
@pytest.mark.parametrize("number", ["9007199254740993", "123456789012345678901", "-9007199254740993"])
def test_integers_are_exact_in_every_format(fmt: str, out: str, number: str, tmp_path: Path, cli):
    root = _tidelights(tmp_path)
    _edit(root / "cards" / "tidelights" / "kinds.yaml", "cargo: {type: integer, min: 1, max: 9}", "cargo: {type: integer}")
    ships = _ship_value(root, "cargo", number)
    before = ships.read_bytes()
    book = tmp_path / out
    assert cli("export", "--root", str(root), "--format", fmt, "--out", str(book)).code == 0
    result = cli("import", str(book), "--root", str(root), "--set", "tidelights")
    assert result.code == 0, result.err
    assert ships.read_bytes() == before


@pytest.mark.parametrize("text,code", [('"bell\\vtab"', "U+000B"), ('"half \\ud800 pair"', "U+D800")])
def test_a_text_no_workbook_can_hold_is_one_located_line_at_export(text: str, code: str, tmp_path: Path, cli):
    root = _tidelights(tmp_path)
    _ship_value(root, "text", text)
    result = cli("export", "--root", str(root), "--out", str(tmp_path / "b.xlsx"))
    assert result.code == 1, result.err
    lines = result.err.splitlines()
    assert len([ln for ln in lines if "error[" in ln]) == 1 and "Traceback" not in result.err
    # the set's own check (C021: a control character in an English string) answers before the exporter's W010
    assert lines[0].startswith("cards/tidelights/ships.yaml:") and ("error[W010]" in lines[0] or "error[C021]" in lines[0])
    assert code in lines[0], lines
    assert not (tmp_path / "b.xlsx").exists()


def test_export_out_naming_a_folder_is_one_line(tmp_path: Path, cli):
    root = _tidelights(tmp_path)
    (tmp_path / "dir").mkdir()
    result = cli("export", "--root", str(root), "--out", str(tmp_path / "dir"))
    assert result.code == 1 and result.err.count("error[F003]") == 1 and ".tmp" not in result.err, result.err
    assert list((tmp_path / "dir").iterdir()) == []


def test_a_csv_export_named_like_a_file_is_one_file_that_import_takes(tmp_path: Path, cli):
    root = _tidelights(tmp_path)
    out = tmp_path / "sheet.csv"
    assert cli("export", "--root", str(root), "--format", "csv", "--out", str(out)).code == 0
    assert out.is_file()
    header = next(csv.reader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert header[0] == "kind"
    ships = root / "cards" / "tidelights" / "ships.yaml"
    _edit(ships, '"Kestrel"', '"Kittiwake"')
    result = cli("import", str(out), "--root", str(root), "--set", "tidelights")
    assert result.code == 0, result.err
    assert "Kestrel" in ships.read_text(encoding="utf-8")
    folder = tmp_path / "folder"
    assert cli("export", "--root", str(root), "--format", "csv", "--out", str(folder)).code == 0
    assert folder.is_dir()
    result = cli("import", str(folder), "--root", str(root), "--set", "tidelights")
    assert result.code == 0 and "wrote" not in result.out, result.err + result.out
