"""Benchmark of spreadsheet card files: how fast a zip bomb named .xlsx is refused.

    python bench/bench_sheets.py [--runs 5]

Builds the example game with its ship cards in ``ships.xlsx`` (a real
workbook written by openpyxl), then replaces the workbook with a zip bomb (one
entry that inflates to 1 GiB, about 1 MB on disk) and times, best and median of
``--runs``:

* ``check_zip`` alone on the bomb (the size check before anything is inflated);
* ``cardkit validate`` on the project with the good workbook, and with the bomb
  (a fresh process each: start-up, loading every other file, the refusal).

The issue's goal is the refusal in under a second.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.load.test_sheets import _ships_project, _zip_bomb  # noqa: E402  (the test builders: the same files)


def _times(fn, runs: int) -> tuple[float, float]:
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return min(out), statistics.median(out)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    from cardkit.load.sheets import SheetError, check_zip

    cardkit = shutil.which("cardkit") or str(Path(sys.executable).with_name("cardkit"))
    with tempfile.TemporaryDirectory() as tmp:
        root, book, wb, _ = _ships_project(Path(tmp))
        wb.save(book)

        def validate(expect: int) -> None:
            code = subprocess.run([cardkit, "validate", "--root", str(root)], capture_output=True, check=False).returncode
            assert code == expect, code

        good = _times(lambda: validate(0), args.runs)
        _zip_bomb(book)
        raw = book.read_bytes()

        def check() -> None:
            try:
                check_zip(raw, "ships.xlsx")
            except SheetError:
                return
            raise AssertionError("the bomb was not refused")

        alone = _times(check, args.runs)
        bomb = _times(lambda: validate(1), args.runs)
    print(f"{'what':44} {'best ms':>8} {'median ms':>10}")
    for name, (best, med) in [("check_zip on the 1 GiB bomb", alone), ("cardkit validate, ships.xlsx", good),
                              ("cardkit validate, the bomb as ships.xlsx", bomb)]:
        print(f"{name:44} {best * 1000:8.1f} {med * 1000:10.1f}")


if __name__ == "__main__":
    main()
