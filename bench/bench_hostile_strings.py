"""Benchmark of hostile translations (#29): how long `l10n check` and `build pdf`
take on a catalog holding one huge msgstr, or every msgstr just under the
length limit (L011: 20 times the English and 10,000 characters).

    python bench/bench_hostile_strings.py [--repeat 1]

Writes the starter game (`cardkit init`) into a temporary folder, poisons its
Finnish catalog, and runs each command as a fresh process; prints a row per
case and command: exit status, the first error code, wall and CPU seconds and
the peak memory of the process.  The goal is every row under 30 s and 1 GiB
on this 2-core machine (before #29: a 4.19 MB msgstr kept `l10n check` busy
past 60 s and 638 MiB, a 2 MB one took `build pdf` 56 s).
"""

from __future__ import annotations

import argparse
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cardkit.i18n.catalogs import LONG_FLOOR  # noqa: E402
from cardkit.scaffold import init_project  # noqa: E402

CARDKIT = [sys.executable, "-c", "from cardkit.cli import main; main()"]
PO = "locales/fi/LC_MESSAGES/g.po"
UNIT = "Kun tämä sankari hyökkää, se saa +1 voimaa. "


def _one_huge(text: str, size: int) -> str:
    first = re.search(r'msgstr "([^"]+)"', text.split('msgctxt "ember_knight.text"', 1)[1])
    assert first is not None
    return text.replace(f'msgstr "{first.group(1)}"', 'msgstr "' + UNIT * (size // len(UNIT.encode())) + '"', 1)


def _all_at_limit(text: str) -> str:
    body = (UNIT * (LONG_FLOOR // len(UNIT) + 1))[: LONG_FLOOR - 1]
    return re.sub(r'^msgstr "(?!")[^\n]*"$', f'msgstr "{body}"', text, flags=re.M)


CASES = {
    "msgstr 2 MB": lambda t: _one_huge(t, 2_000_000),
    "msgstr 4.1 MB": lambda t: _one_huge(t, 4_100_000),
    "every msgstr 9,999 chars": _all_at_limit,
}


def run(args: list[str]) -> tuple[int, str, float, float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(CARDKIT + args, capture_output=True, text=True, timeout=600)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    code = re.search(r"error\[([A-Z]\d{3})\]", proc.stdout + proc.stderr)
    return proc.returncode, code.group(1) if code else "-", wall, cpu, after.ru_maxrss / 1024


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=1)
    opts = ap.parse_args()
    print(f"{'case':26} {'command':18} {'exit':>4} {'code':>5} {'wall s':>7} {'cpu s':>7} {'peak MB':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        starter = Path(tmp) / "starter"
        init_project(starter, "g")
        for case, poison in CASES.items():
            root = Path(tmp) / "game"
            shutil.rmtree(root, ignore_errors=True)
            shutil.copytree(starter, root)
            po = root / PO
            po.write_text(poison(po.read_text(encoding="utf-8")), encoding="utf-8")
            for label, args in (("l10n check", ["l10n", "check", "--root", str(root)]),
                                ("build pdf --locale fi", ["build", "pdf", "--root", str(root), "--locale", "fi"])):
                for _ in range(opts.repeat):
                    code, first, wall, cpu, peak = run(args)
                    print(f"{case:26} {label:18} {code:>4} {first:>5} {wall:7.2f} {cpu:7.2f} {peak:8.0f}")
    print("(peak MB: the largest child process so far)")


if __name__ == "__main__":
    main()
