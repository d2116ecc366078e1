"""A watchdog on every test: a test that hangs fails, loudly, instead of stalling the run.

A hang in this suite is most likely a process the test started (a forked pool
worker, a ``cardkit`` subprocess) that never ends while the test waits for it.
Ending only the pytest worker would not help: its children keep the pipes to
pytest-xdist's controller open, and the run waits on them forever.  So after
:data:`LIMIT` seconds the watchdog prints the stacks of every thread of the
process and the command line of every child process, kills the children, and
gives the test :data:`GRACE` seconds to fail on its own (a pool whose workers
died raises ``BrokenProcessPool``; a subprocess call returns).  A test that is
still running then ends its worker process, which xdist reports and replaces.

``CARDKIT_TEST_TIMEOUT`` sets the limit in seconds (default 600; the slowest
test takes about two minutes on two cores).  tests/conftest.py installs the
hook; ``tests/test_watchdog.py`` runs it on a test that really hangs.
"""

from __future__ import annotations

import faulthandler
import os
import signal
import sys
import threading
from collections.abc import Iterator

import pytest

LIMIT = float(os.environ.get("CARDKIT_TEST_TIMEOUT", "600"))
GRACE = float(os.environ.get("CARDKIT_TEST_GRACE", "30"))


def descendants(pid: int) -> list[int]:
    """Every living process below ``pid`` (children first), read from /proc."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", encoding="utf-8", errors="replace") as fh:
                stat = fh.read()
        except OSError:  # it ended while we looked
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(name))
    out: list[int] = []
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def _command(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return fh.read().replace(b"\0", b" ").decode("utf-8", "replace").strip()[:200]
    except OSError:
        return "?"


def _expire(item: pytest.Item, done: threading.Event) -> None:
    capman = item.config.pluginmanager.getplugin("capturemanager")
    if capman is not None:  # the real stderr, not the test's captured one
        capman.suspend_global_capture(in_=True)
    err = sys.stderr
    err.write(f"\n+++ watchdog: {item.nodeid} still runs after {LIMIT:.0f} s; the stacks of its process:\n")
    err.flush()
    faulthandler.dump_traceback(file=err, all_threads=True)
    kids = descendants(os.getpid())
    for pid in kids:
        err.write(f"+++ watchdog: killing child process {pid}: {_command(pid)}\n")
    err.flush()
    for pid in reversed(kids):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    if done.wait(GRACE):
        return
    err.write(f"+++ watchdog: {item.nodeid} did not end {GRACE:.0f} s after its children were killed; "
              "ending this test process\n")
    err.flush()
    for pid in descendants(os.getpid()):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    os._exit(1)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    done = threading.Event()

    def watch() -> None:
        if not done.wait(LIMIT):
            _expire(item, done)

    threading.Thread(target=watch, name="cardkit-test-watchdog", daemon=True).start()
    try:
        yield
    finally:
        done.set()
