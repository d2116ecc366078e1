"""Hostile face and kinds files: numbers, structure and patterns that used to
crash (exit 70), hang or exhaust memory now get one located error line.

Each case is a folder under ``tests/fixtures/hostile-structure``: the files it
puts into a fresh ``cardkit init`` starter and a ``case.yaml`` naming them, the
one error code expected (and its file), and ``run``: ``subprocess`` for the
cases that hung or filled memory on main.  Every case runs ``validate`` and
``build`` through the CLI's entry point, and one case of each failure class of
issue 21 (``commands: all``) also ``l10n check``, ``build png`` and ``l10n
review`` (they all read the project through the same loader): exit 1, exactly
one error line, located (``path:line:col: error[CODE]: ...``), no traceback,
nothing written outside ``output/``, within 10 s.  The subprocess cases run
the installed ``cardkit build`` too, with a timeout and an address-space limit,
and their own peak memory is read back (``tests/peakmem.py``).
"""

from __future__ import annotations

import re
import shutil
import sys
import time
from pathlib import Path

import pytest
import yaml

from cardkit.scaffold import init_project
from tests.conftest import FIXTURES
from tests.peakmem import run_measured

CASE_DIR = FIXTURES / "hostile-structure"
CASES = sorted(p.name for p in CASE_DIR.iterdir() if (p / "case.yaml").is_file())
COMMANDS = (["validate"], ["l10n", "check"], ["build"], ["build", "png"], ["l10n", "review"])
LOCATED = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+):(?P<col>\d+): error\[(?P<code>[A-Z]\d{3})\]: .{1,180}$")
SECONDS = 10.0
MAX_RSS_MB = 300
CARDKIT = Path(sys.executable).with_name("cardkit")


@pytest.fixture(scope="module")
def starter(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("hostile") / "starter"
    init_project(root, "starter")
    return root


def _project(starter: Path, tmp_path: Path, name: str) -> tuple[Path, dict]:
    root = tmp_path / "game"
    shutil.copytree(starter, root)
    case = yaml.safe_load((CASE_DIR / name / "case.yaml").read_text(encoding="utf-8"))
    for target, source in case["replace"].items():
        (root / target).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(CASE_DIR / name / source, root / target)
    return root, case


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def _check(case: dict, code: int, out: str, err: str, what: str) -> None:
    said = out + err
    assert code == 1, f"{what}: exit {code}\n{said[-1500:]}"
    assert "Traceback" not in said and "internal error" not in said, said[-1500:]
    lines = [ln for ln in (err + out).splitlines() if "error[" in ln]
    assert len(lines) == 1, f"{what}: want one error line, got:\n" + "\n".join(lines[:10])
    m = LOCATED.match(lines[0])
    assert m, f"{what}: not a located line: {lines[0][:300]}"
    assert (m["code"], m["file"]) == (case["expect"]["code"], case["expect"]["file"]), lines[0]


def test_every_failure_class_has_a_case():
    codes = {yaml.safe_load((CASE_DIR / n / "case.yaml").read_text())["expect"]["code"] for n in CASES}
    assert {"M054", "M009", "M010", "M011", "M012", "M013", "M014", "M015", "M016", "M017", "M018", "K011", "K012", "K013", "S008"} <= codes


@pytest.mark.parametrize("name", CASES)
def test_hostile_structure_gets_one_located_error(name: str, starter: Path, tmp_path: Path, cli):
    root, case = _project(starter, tmp_path, name)
    before = _files(root)
    for args in COMMANDS if case.get("commands") == "all" else (["validate"], ["build"]):
        start = time.perf_counter()
        result = cli(*args, "--root", str(root))
        took = time.perf_counter() - start
        _check(case, result.code, result.out, result.err, f"{name}: cardkit {' '.join(args)}")
        assert took < SECONDS, f"{name}: cardkit {' '.join(args)} took {took:.1f} s"
    after = _files(root)
    changed = sorted(k for k in after if before.get(k) != after[k])
    assert [k for k in changed if not k.startswith("output/")] == [], changed
    assert not [k for k in changed if k.endswith((".pdf", ".png"))], changed  # nothing built from a refused project


@pytest.mark.parametrize("name", [n for n in CASES if yaml.safe_load((CASE_DIR / n / "case.yaml").read_text())["run"] == "subprocess"])
def test_installed_cli_refuses_within_time_and_memory(name: str, starter: Path, tmp_path: Path):
    args = ["validate"] if name.startswith("kinds-") else ["build"]  # (where main hung: kinds in validate, faces in build)
    root, case = _project(starter, tmp_path, name)
    start = time.perf_counter()
    proc = run_measured([str(CARDKIT), *args, "--root", str(root)], timeout=SECONDS)
    took = time.perf_counter() - start
    _check(case, proc.returncode, proc.stdout, proc.stderr, f"{name}: cardkit {' '.join(args)}")
    assert took < SECONDS and proc.peak_mb < MAX_RSS_MB, (took, proc.peak_mb)
