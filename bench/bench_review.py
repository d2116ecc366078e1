"""Benchmark of ``cardkit l10n review``: prints a table.

    python bench/bench_review.py [--repeat N]

Review pages for both bundled sets in fi and ko (English images rendered once
and shared): the command end to end in a fresh process (import, project load,
translation check, every face rendered, pages written), then in-process with
one worker per core and with a single process.  Wall time is the median of N
runs; CPU time (this process and its workers) tells how much of the wall time
was the machine being busy with other work.  The load average is printed
because the machine may be shared.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cardkit.i18n.review import write_review  # noqa: E402
from cardkit.load.project import load_project  # noqa: E402


def cpu() -> float:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def timed(fn, repeat: int) -> tuple[float, float, object]:
    walls, cpus, result = [], [], None
    for _ in range(repeat):
        c, t = cpu(), time.perf_counter()
        result = fn()
        walls.append(time.perf_counter() - t)
        cpus.append(cpu() - c)
    return statistics.median(walls), statistics.median(cpus), result


def size(folder: Path) -> str:
    files = [p for p in folder.rglob("*") if p.is_file()]
    return f"{len(files)} files, {sum(p.stat().st_size for p in files) / 1e6:.1f} MB"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-review-"))
    load_before = os.getloadavg()
    rows = []
    exe = Path(sys.executable).with_name("cardkit")
    cmd = [str(exe), "l10n", "review", "--root", str(ROOT), "--locale", "fi", "--locale", "ko", "--out", str(tmp / "cli")]
    wall, cpu_s, _ = timed(lambda: subprocess.run(cmd, check=True, capture_output=True), args.repeat)
    rows.append(("cardkit l10n review, both sets, fi+ko (fresh process)", f"{wall:.1f} s", f"{cpu_s:.1f} s", size(tmp / "cli")))
    project = load_project(ROOT)
    for jobs, label in ((0, f"one worker per core ({os.cpu_count()})"), (1, "one process")):
        out = tmp / f"jobs{jobs}"
        wall, cpu_s, res = timed(lambda out=out, jobs=jobs: write_review(ROOT, project, out, ["fi", "ko"], jobs=jobs),
                                 args.repeat)
        rows.append((f"write_review in-process, {label}", f"{wall:.1f} s", f"{cpu_s:.1f} s",
                     f"{res.faces} faces, {res.images} images"))
    load_after = os.getloadavg()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
          f"load average {load_before[0]:.1f} before, {load_after[0]:.1f} after")
    head = ("review page (120 dpi images)", "wall", "CPU", "output")
    widths = [max(len(r[i]) for r in rows + [head]) for i in range(4)]
    for r in [head, tuple("-" * w for w in widths)] + rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())


if __name__ == "__main__":
    main()
