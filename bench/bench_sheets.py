"""Benchmark of spreadsheet card files: hostile workbooks refused, legal ones at the bounds.

    python bench/bench_sheets.py [--runs 3]

Builds the example game with one card file replaced by a workbook and times
``cardkit validate`` on it (a fresh process each: start-up, loading every other
file, the workbook's check and guarded read), best and median of ``--runs``,
with the CPU seconds and the peak resident memory ``wait4`` reports for the
validate process (the reader's child process, which it waits for, included:
the machine is shared, so CPU time is the steadier figure):

* the workbooks at the documented bounds (docs/authoring.md, "Bounds"): 5000
  ship cards of 20 filled cells (100,000 filled cells) as ``.xlsx``, ``.ods``
  and ``.csv``, and the same ``.xlsx`` with one more cell at IV5001 (the sheet
  grid at its 5001 x 256 bound);
* the hostile cases of issue 29 (each refused with one line): a 1.7 KB
  ``.xlsx`` whose one cell is ``iv400000``; a ``<dimension>`` of the whole
  grid; a sheet stored outside ``xl/worksheets/`` with a cell at A400000; a
  shared-string table declaring 4e9 strings; one 9,000-character shared
  string shown in 6,000 cells; OpenDocument content named ``.xlsx``; an ODS
  row of text repeated a million times; four billion ODS spaces;
* ``check_zip`` alone on a 1 GiB zip bomb, and ``validate`` on it.

The goals: a legal workbook at the bounds under 10 s and 500 MB; every hostile
case one line, well under 30 s and 1 GiB.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.load.test_hostile_workbooks import (  # noqa: E402  (the test builders: the same files)
    SHEET1, _book, _far_cell, _ods_rows, _patched, _shared_strings, _sub)
from tests.load.test_sheets import _zip_bomb  # noqa: E402

EXAMPLE = ROOT / "examples" / "tidelights"


def _project(tmp: Path, name: str, replace: str, data: bytes) -> Path:
    """The example game with its ``replace`` cards (``ships``/``storms``) read from ``name``."""
    root = tmp / name.replace(".", "_")
    for sub in ("cards", "locales", "schemas"):
        if (EXAMPLE / sub).exists():
            shutil.copytree(EXAMPLE / sub, root / sub)
    set_dir = root / "cards" / "tidelights"
    (set_dir / f"{replace}.yaml").unlink()
    text = (set_dir / "set.yaml").read_text(encoding="utf-8").replace(f"  - {replace}.yaml\n", f"  - {name}\n")
    (set_dir / "set.yaml").write_text(text, encoding="utf-8")
    (set_dir / name).write_bytes(data)
    return root


def _ships(fmt: str, cards: int = 4999, far: bool = False) -> bytes:
    """``cards`` ship cards of 20 filled cells each: 10 fields and needs[0..9]."""
    from cardkit.sheetio import Sheet, write_csv, write_ods, write_xlsx

    header = ("id", "name", "registry", "rig", "cargo", "final", "text", "art") + tuple(f"needs[{i}]" for i in range(12))
    rows = tuple((f"ship_{r}", f"Ship {r}", f"GM-{r % 100:02d}", "skiff", r % 9 + 1, False, f"The text of ship {r}.",
                  "art/ship-skiff.png") + ("oar",) * 12 for r in range(cards))
    sheet = Sheet("ships", header, rows)
    if fmt == "csv":
        return write_csv(sheet)
    raw = write_xlsx([sheet]) if fmt == "xlsx" else write_ods([sheet])
    if far:
        raw = _patched(raw, {SHEET1: _far_cell(b"IV5001")})
    return raw


def _hostile() -> list[tuple[str, str, bytes]]:
    rels = "xl/_rels/workbook.xml.rels"
    cells = b"".join(b'<row r="%d">' % r + b"".join(b'<c r="%s%d" t="s"><v>0</v></c>' % (c, r) for c in (b"A", b"B", b"C"))
                     + b"</row>" for r in range(2, 2002))
    return [
        ("1.7 KB xlsx, one cell r=iv400000", "storms.xlsx", _patched(_book("xlsx"), {SHEET1: _far_cell(b"iv400000")})),
        ("<dimension ref=A1:XFD1048576>", "storms.xlsx",
         _patched(_book("xlsx"), {SHEET1: _sub(rb'<dimension ref="[^"]*"', b'<dimension ref="A1:XFD1048576"')})),
        ("sheet outside xl/worksheets/, cell A400000", "storms.xlsx",
         _patched(_book("xlsx"), {SHEET1: _far_cell(b"A400000"), rels: _sub(rb"/xl/worksheets/sheet1.xml", b"elsewhere/d.xml")},
                  rename={SHEET1: "xl/elsewhere/d.xml"})),
        ("sharedStrings uniqueCount=4e9", "storms.xlsx",
         _patched(_book("xlsx"), {"xl/sharedStrings.xml": lambda _: _shared_strings(b"4000000000", b"4000000000")})),
        ("9,000-char shared string in 6,000 cells", "storms.xlsx",
         _patched(_book("xlsx"), {"xl/sharedStrings.xml": lambda _: _shared_strings(b"1", b"6000", (b"x" * 9000,)),
                                 SHEET1: _sub(rb"</sheetData>", cells + b"</sheetData>")})),
        ("ODS content named .xlsx", "storms.xlsx", _book("ods")),
        ("ODS text row repeated 1,048,553 times", "storms.ods", _patched(_book("ods"), {"content.xml": _ods_rows(
            b'<table:table-row table:number-rows-repeated="1048553"><table:table-cell office:value-type="string">'
            b"<text:p>x</text:p></table:table-cell></table:table-row>")})),
        ("ODS <text:s text:c=4000000000>", "storms.ods", _patched(_book("ods"), {"content.xml": _ods_rows(
            b'<table:table-row><table:table-cell office:value-type="string"><text:p>a<text:s text:c="4000000000"/>'
            b"</text:p></table:table-cell></table:table-row>")})),
    ]


def _run(cardkit: str, root: Path, runs: int) -> tuple[float, float, float, int, int, str, int]:
    times, peaks, cpu = [], [], []
    code, line, count = 0, "", 0
    for _ in range(runs):
        t0 = time.perf_counter()
        proc = subprocess.Popen([cardkit, "validate", "--root", str(root)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        times.append(time.perf_counter() - t0)
        peaks.append(usage.ru_maxrss // 1024)
        cpu.append(usage.ru_utime + usage.ru_stime)
        err = proc.stderr.read().decode() if proc.stderr else ""
        proc.stdout.close() if proc.stdout else None
        code = os.waitstatus_to_exitcode(status)
        errors = [ln for ln in err.splitlines() if "error[" in ln]
        count = len(errors)
        line = errors[0] if errors else "ok"
    return min(times), statistics.median(times), statistics.median(cpu), max(peaks), code, line, count


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    from cardkit.load.sheets import SheetError, check_zip

    cardkit = shutil.which("cardkit") or str(Path(sys.executable).with_name("cardkit"))
    rows = []
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        cases = [(f"legal at the bounds: 100,000 cells, .{fmt}", _project(tmp, f"ships.{fmt}", "ships", _ships(fmt)))
                 for fmt in ("xlsx", "ods", "csv")]
        cases.append(("legal at the bounds + a cell at IV5001, .xlsx",
                      _project(tmp, "wide.xlsx", "ships", _ships("xlsx", cards=4998, far=True))))
        cases += [(what, _project(tmp, f"h{i}-{name}", "storms", data)) for i, (what, name, data) in enumerate(_hostile())]
        bomb_root = _project(tmp, "bomb.xlsx", "storms", b"")
        _zip_bomb(bomb_root / "cards" / "tidelights" / "bomb.xlsx")
        cases.append(("1 GiB zip bomb named .xlsx", bomb_root))
        for what, root in cases:
            size = max(p.stat().st_size for p in (root / "cards" / "tidelights").iterdir() if p.suffix in (".xlsx", ".ods", ".csv"))
            best, med, cpu, peak, code, line, count = _run(cardkit, root, args.runs)
            rows.append((what, size, best, med, cpu, peak, code, count, line))
        raw = (bomb_root / "cards" / "tidelights" / "bomb.xlsx").read_bytes()
        t = []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            try:
                check_zip(raw, "bomb.xlsx")
            except SheetError:
                pass
            t.append(time.perf_counter() - t0)
    print(f"{'cardkit validate on':48} {'bytes':>9} {'best s':>7} {'median s':>8} {'cpu s':>6} {'peak MB':>8} {'exit':>4} "
          f"{'lines':>5}  first line")
    for what, size, best, med, cpu, peak, code, count, line in rows:
        print(f"{what:48} {size:9d} {best:7.2f} {med:8.2f} {cpu:6.2f} {peak:8d} {code:4d} {count:5d}  {line[:100]}")
    print(f"{'check_zip alone on the 1 GiB bomb':48} {'':9} {min(t):7.3f} {statistics.median(t):8.3f}")


if __name__ == "__main__":
    main()
