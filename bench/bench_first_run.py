"""The README's first command on a fresh clone, timed step by step.

Clones this repository's HEAD into a temporary folder and runs what a newcomer
runs: ``python3 -m venv .venv``, ``pip install -e .`` and ``cardkit build``,
printing the wall time of each step.  ``--compiled`` adds the opt-in compiled
engine (``CARDKIT_COMPILE=1``) as a second row.  pip's download cache is left as
it is (a newcomer's first install downloads the wheels once; say which in the
docs when you record figures).

    python bench/bench_first_run.py [--compiled] [--keep]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def timed(cmd: list[str], cwd: Path, env: dict[str, str]) -> float:
    started = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
    return time.perf_counter() - started


def first_run(work: Path, compiled: bool) -> dict[str, float]:
    clone = work / ("compiled" if compiled else "plain")
    subprocess.run(["git", "clone", "-q", str(REPO), str(clone)], check=True)
    env = {k: v for k, v in os.environ.items() if k not in ("CARDKIT_PURE", "CARDKIT_COMPILE", "VIRTUAL_ENV", "PYTHONPATH")}
    if compiled:
        env["CARDKIT_COMPILE"] = "1"
    row = {"venv": timed([sys.executable, "-m", "venv", ".venv"], clone, env)}
    row["pip install -e ."] = timed([str(clone / ".venv/bin/pip"), "install", "-q", "-e", "."], clone, env)
    row["cardkit build"] = timed([str(clone / ".venv/bin/cardkit"), "build"], clone, env)
    row["total"] = sum(row.values())
    pdfs = sorted(p.name for p in (clone / "output").glob("*.pdf"))
    if len(pdfs) < 6 or not (clone / "output" / "build-summary.txt").is_file():
        sys.exit(f"cardkit build wrote {pdfs}: expected six PDFs and build-summary.txt")
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--compiled", action="store_true", help="also time CARDKIT_COMPILE=1")
    ap.add_argument("--keep", action="store_true", help="keep the clones")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="cardkit-first-run-"))
    try:
        rows = {"plain (pure engine)": first_run(work, compiled=False)}
        if args.compiled:
            rows["CARDKIT_COMPILE=1"] = first_run(work, compiled=True)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    cols = list(next(iter(rows.values())))
    print(f"{'install':<22}" + "".join(f"{c:>20}" for c in cols))
    for name, row in rows.items():
        print(f"{name:<22}" + "".join(f"{row[c]:>19.1f}s" for c in cols))
    print(f"({os.cpu_count()} cores; {sys.version.split()[0]})")


if __name__ == "__main__":
    main()
