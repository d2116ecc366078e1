"""The mistakes a user can make, on the install a user gets.

Each case runs the installed ``cardkit`` console script of a virtual environment
that holds cardkit with its runtime dependencies only (no test extras: a package
the tests pull in, such as click through dask, must not hide a missing one), in
a copy of the project, and checks the exit code, one readable line naming the
problem, no traceback, and that nothing was written.

``.ci/run`` builds that environment once and names its ``cardkit`` in
``CARDKIT_RUNTIME_BIN``; without it the first test builds one (about a minute).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import REPO


@pytest.fixture(scope="module")
def cardkit_bin(tmp_path_factory: pytest.TempPathFactory) -> Path:
    given = os.environ.get("CARDKIT_RUNTIME_BIN")
    if given:
        return Path(given)
    venv = tmp_path_factory.mktemp("runtime-venv")
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    env = {k: v for k, v in os.environ.items() if k not in ("CARDKIT_COMPILE", "PYTHONPATH")}
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", str(REPO)], check=True, env=env,
                   capture_output=True)
    return venv / "bin" / "cardkit"


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the bundled project, with one scenario file that is not YAML."""
    root = tmp_path_factory.mktemp("project")
    for name in ("cards", "locales"):
        shutil.copytree(REPO / name, root / name)
    (root / "output").mkdir()
    (root / "broken.yaml").write_bytes(b"setup: [unclosed\n  - {a: \n")
    (root / "a-file").write_text("not a folder\n")
    return root


def snapshot(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def run(cardkit: Path, root: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CARDKIT_DEBUG", "PYTHONPATH", "COLUMNS")}
    return subprocess.run([str(cardkit), *args], cwd=root, env=env, capture_output=True, text=True, timeout=timeout)


# (arguments, exit code, words the message must hold)
MISTAKES = [
    (["playtest", "--games", "-5"], 1, "error[G080]"),
    (["playtest", "--games", "many"], 1, "error[G080]"),
    (["preview", "--port", "99999", "--no-open"], 2, "'--port'"),  # (was: an internal OverflowError, exit 70)
    (["playtest", "--players", "9", "--games", "2"], 1, "--players 9: the game plays 1-6"),
    (["playtest", "--players", "one", "--games", "2"], 1, "error[G001]"),
    (["playtest", "--agent", "genius", "--games", "2"], 1, "error[G002]"),
    (["playtest", "--band", "0.5", "--games", "2"], 1, "error[G004]"),
    (["playtest", "--games", "2", "--report", "r.pdf", "--locale", "xx"], 1, "no 'xx' catalog"),
    (["rules", "play", "--players", "7"], 1, "--players 7: the game plays 1-6"),
    (["rules", "play", "--agent", "genius"], 1, "error[G002]"),
    (["rules", "play", "--locale", "xx"], 1, "error[L005]"),
    (["rules", "scenario", "broken.yaml"], 1, "broken.yaml:"),
    (["rules", "scenario", "missing.yaml"], 1, "missing.yaml"),
    (["build", "pdf", "--set", "no-such-set"], 1, "error[P002]"),
    (["build", "pdf", "--set", "death-angel", "--locale", "xx"], 1, "no 'xx' catalog for set 'death-angel' (locales: en, fi, ko)"),
    (["build", "pdf", "--set", "death-angel", "--locale", "fi", "--out", "/proc/cardkit/x.pdf"], 1, "error[F003]"),
    (["build", "pdf", "--set", "death-angel", "--paper", "a2"], 1, "error[B001]"),
    (["build", "png", "--set", "death-angel", "--dpi", "5"], 1, "error[B005]"),
    (["build", "pdf", "--set"], 2, "'--set'"),
    (["l10n", "check", "--locale", "xx"], 1, "error[L005]"),
    (["l10n", "check", "--set", "no-such-set"], 1, "error[P002]"),
    (["deepstrike", "score", "--state", "missing.yaml"], 1, "missing.yaml"),
    (["deepstrike", "score", "--state", "broken.yaml", "--locale", "fi"], 1, "broken.yaml:"),
    (["validate", "--root", "no-such-folder"], 1, "error[P001]"),
    (["validate", "--root", "a-file"], 2, "'--root'"),
    (["frobnicate"], 2, "No such command"),
    (["export", "--set", "no-such-set", "--out", "x.xlsx"], 1, "error[P002]"),
    (["export", "--format", "pdf", "--out", "x.pdf"], 2, "'--format'"),
    (["import", "missing.xlsx", "--set", "death-angel"], 1, "error[F001]"),
    (["import", "broken.yaml", "--set", "death-angel"], 1, "error[W001]"),
    (["preview", "--locale", "xx", "--no-open"], 1, "error[L005]"),
    (["preview", "--dpi", "5", "--no-open"], 1, "error[B005]"),
]


@pytest.mark.parametrize("args,code,words", MISTAKES, ids=[" ".join(m[0]) for m in MISTAKES])
def test_a_mistake_gets_one_readable_line(cardkit_bin: Path, project: Path, args: list[str], code: int, words: str):
    before = snapshot(project)
    out = run(cardkit_bin, project, *args)
    said = out.stdout + out.stderr
    assert out.returncode == code, said
    assert "Traceback" not in said and "internal error" not in said, said
    assert words in said, said
    if code == 1:  # a cardkit error: located lines, each short enough to read
        lines = [ln for ln in out.stderr.splitlines() if ln.strip()]
        assert lines and all("error[" in ln and len(ln) < 200 for ln in lines), out.stderr
    assert snapshot(project) == before  # nothing written, nothing half-written


def test_the_runtime_environment_has_no_test_extras(cardkit_bin: Path):
    """The table above means something only on an install without the test
    extras: pytest, hypothesis and dask (which brings click) are absent."""
    python = cardkit_bin.parent / "python"
    for module in ("pytest", "hypothesis", "dask", "click"):
        probe = subprocess.run([str(python), "-c", f"import {module}"], capture_output=True, text=True)
        assert probe.returncode != 0, f"{module} is installed in the runtime-only environment"


def test_ctrl_c_during_a_sweep_stops_it_cleanly(cardkit_bin: Path, project: Path):
    """Ctrl-C on a terminal sends SIGINT to the whole process group: the sweep
    stops with exit 130, one line, no traceback from any worker, and the report
    it was to write does not exist."""
    before = snapshot(project)
    env = {k: v for k, v in os.environ.items() if k not in ("CARDKIT_DEBUG", "PYTHONPATH")}
    proc = subprocess.Popen([str(cardkit_bin), "playtest", "--players", "1-6", "--games", "200000", "--jobs", "2",
                             "--report", "report.pdf"], cwd=project, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    time.sleep(6)  # loading, the audit and the first batches
    assert proc.poll() is None, proc.communicate()
    os.killpg(proc.pid, signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130, stdout + stderr
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr, stderr
    assert "interrupted" in stderr
    assert not (project / "report.pdf").exists()
    assert snapshot(project) == before
