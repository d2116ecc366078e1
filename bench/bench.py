"""Benchmarks: prints a table of timings on the bundled project.

    python bench/bench.py [--repeat N]

Measures (median of N runs, in-process, warm font caches after the first run):
validating both sets (loading and checks; then the face file checks and the
print-quality checks, which compose every face), the full translation check
(fit included), and the PDF build of every set x locale in cards per second
(``--validate-only`` skips the last two).  Each row gives the median
wall time and the median CPU time of the process (``time.process_time``): on a
machine shared with other work the CPU time is the steadier figure.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cardkit.i18n.report import check_translations  # noqa: E402
from cardkit.load.project import load_project  # noqa: E402
from cardkit.printing import build_pdf  # noqa: E402


def timed(fn, repeat: int) -> tuple[float, float, object]:
    """Median wall and CPU seconds of ``repeat`` calls, and the last result."""
    walls, cpus, result = [], [], None
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        result = fn()
        cpus.append(time.process_time() - c)
        walls.append(time.perf_counter() - t)
    return statistics.median(walls), statistics.median(cpus), result


def seconds(t: float) -> str:
    return f"{t * 1000:.0f} ms" if t < 1 else f"{t:.2f} s"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--validate-only", action="store_true", help="only the validate rows")
    args = ap.parse_args()
    rows = []
    t, c, project = timed(lambda: load_project(ROOT), args.repeat)
    cards = sum(ls.set.physical_count() for ls in project.sets.values())
    rows.append(("validate both sets (schema + checks)", seconds(t), seconds(c), f"{cards} cards"))
    from cardkit.cli import _face_issues

    def faces_and_quality() -> int:
        return sum(len(_face_issues(ROOT, ls)) for ls in project.sets.values())

    t2, c2, found = timed(faces_and_quality, args.repeat)
    rows.append(("validate: face files + print quality", seconds(t2), seconds(c2), f"{found} findings"))
    rows.append(("validate in all", seconds(t + t2), seconds(c + c2), ""))
    if args.validate_only:
        _table(rows)
        return
    t, c, report = timed(lambda: check_translations(ROOT, project, ["fi", "ko"]), max(1, args.repeat // 2))
    rows.append(("l10n check fi+ko, fit included", seconds(t), seconds(c), f"{len(report.fit)} strings laid out"))
    out = Path(tempfile.mkdtemp())

    def build_all() -> int:
        n = 0
        for sid, ls in sorted(project.sets.items()):
            for loc in ("en", "fi", "ko"):
                n += build_pdf(ROOT, ls.set, loc, out=out / f"{sid}-{loc}.pdf").cards
        return n

    t, c, n = timed(build_all, max(1, args.repeat // 2))
    rows.append(("PDF build, all sets x en/fi/ko", seconds(t), seconds(c),
                 f"{n / t:.0f} cards/s ({n / c:.0f} per CPU second; {n} cards)"))
    _table(rows)


def _table(rows: list[tuple[str, str, str, str]]) -> None:
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    w = max(len(r[0]) for r in rows)
    print(f"{'benchmark':<{w}}  {'median':>9}  {'CPU':>9}  detail")
    for name, value, cpu, detail in rows:
        print(f"{name:<{w}}  {value:>9}  {cpu:>9}  {detail}")


if __name__ == "__main__":
    main()
