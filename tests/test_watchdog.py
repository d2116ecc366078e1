"""The watchdog of tests/watchdog.py, on tests that really hang, under pytest-xdist
as the suite runs: a test waiting on a forked worker that never answers, and a test
that is stuck itself.  Each must end the run in seconds with its stacks printed,
never stall it."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from tests.conftest import REPO

HANGING = '''
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor


def _never_answers(x):
    time.sleep(3600)


def test_waits_on_a_worker_that_never_answers():
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork")) as pool:
        pool.submit(_never_answers, 1).result()


def test_stuck_itself():
    time.sleep(3600)


def test_quick():
    assert sum(range(4)) == 6
'''


def test_a_hanging_test_fails_with_its_stacks_and_the_run_goes_on(tmp_path: Path):
    (tmp_path / "test_hanging.py").write_text(HANGING, encoding="utf-8")
    env = {**os.environ, "CARDKIT_TEST_TIMEOUT": "4", "CARDKIT_TEST_GRACE": "4"}
    started = time.monotonic()
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "tests.watchdog", "-o", "addopts=", "-n", "2",
                          "-p", "no:cacheprovider", "--rootdir", str(tmp_path), str(tmp_path / "test_hanging.py")],
                         cwd=REPO, env=env, capture_output=True, text=True, timeout=240)
    took = time.monotonic() - started
    said = run.stdout + run.stderr
    assert run.returncode == 1, said
    assert took < 120, f"{took:.0f} s\n{said}"
    # both hanging tests are named, with the stack of the line they hang on
    assert "test_hanging.py::test_waits_on_a_worker_that_never_answers still runs after 4 s" in said, said
    assert "test_hanging.py::test_stuck_itself still runs after 4 s" in said, said
    assert 'line 17 in test_stuck_itself' in said, said
    # the pool's worker is killed, so that test fails on its own, and the run goes on
    assert "killing child process" in said, said
    assert "BrokenProcessPool" in said, said
    # the test stuck itself ends its worker, which xdist reports and replaces
    assert "did not end 4 s after its children were killed" in said, said
    assert "1 passed" in said and "2 failed" in said, said
