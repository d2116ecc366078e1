"""How worker processes are started (cardkit/workers.py): forked only from a process
with one thread, since a fork copies the locks other threads hold into a child that
can never release them; fresh workers otherwise, which are given the plugins this
process registered and play the same games."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
from pathlib import Path

from cardkit.workers import forking_is_safe, pool_context, threads_here
from tests.conftest import REPO
from tests.playtest.test_tables import _json, duel  # noqa: F401  (the duel project fixture)

PROBE = """
import json, threading, time
from cardkit.workers import forking_is_safe, pool_context, threads_here
for _ in range(200):  # a thread of the interpreter's start-up may still be ending
    if threads_here() == 1:
        break
    time.sleep(0.05)
out = {"alone": [threads_here(), forking_is_safe(), pool_context().get_start_method()]}
stop = threading.Event()
t = threading.Thread(target=stop.wait)
t.start()
out["with a thread"] = [threads_here(), forking_is_safe(), pool_context().get_start_method()]
stop.set(); t.join()
for _ in range(200):
    if threads_here() == 1:
        break
    time.sleep(0.05)
out["after"] = [threads_here(), forking_is_safe(), pool_context().get_start_method()]
print(json.dumps(out))
"""


def test_a_process_forks_only_while_it_has_one_thread(tmp_path: Path):
    run = subprocess.run([sys.executable, "-c", PROBE], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    seen = json.loads(run.stdout)
    assert seen["alone"] == [1, True, "fork"]
    assert seen["with a thread"][0] >= 2 and seen["with a thread"][1:] == [False, "forkserver"]
    assert seen["after"] == [1, True, "fork"]


def test_threads_below_python_count_too():
    """A test runner's I/O thread (pytest-xdist's, started with ``_thread``) is no
    :mod:`threading` thread, yet forking beside it is what hangs."""
    import _thread

    before = threads_here()
    started, stop = threading.Event(), threading.Event()

    def low_level() -> None:
        started.set()
        stop.wait()

    _thread.start_new_thread(low_level, ())
    started.wait(10)
    try:
        assert threads_here() == before + 1
        assert not forking_is_safe()
        assert pool_context().get_start_method() != "fork"
    finally:
        stop.set()


def test_fresh_workers_get_the_registered_plugin_and_play_the_same_games(duel, cli):  # noqa: F811
    """With another thread running, ``--jobs 2`` starts fresh workers: the duel plugin,
    registered only in this process, reaches them, and the report is the one of ``--jobs 1``."""
    stop = threading.Event()
    t = threading.Thread(target=stop.wait, daemon=True)
    t.start()
    try:
        assert pool_context().get_start_method() == "forkserver"
        two = _json(cli, duel, "--jobs", "2")
    finally:
        stop.set()
    assert two == _json(cli, duel, "--jobs", "1")
    assert {c["agent"] for c in two["matchups"]} == {"random", "greedy", "flat-mc:3"}


def test_the_cli_forks_its_workers_with_its_progress_bar_on_a_terminal(tmp_path: Path):
    """The ``cardkit`` command runs one thread when it starts its workers, its progress bar
    on a terminal included (drawn from the main thread), so it keeps the fast, forked start."""
    import os
    import pty

    code = ("import sys\n"
            "import cardkit.playtest.sweep as s\n"
            "real = s.pool_context\n"
            "def seen():\n"
            "    ctx = real()\n"
            "    print('start method:', ctx.get_start_method(), file=sys.stderr)\n"
            "    return ctx\n"
            "s.pool_context = seen\n"
            "from cardkit.cli import main\n"
            "sys.argv = ['cardkit', 'playtest', '--root', sys.argv[1], '--players', '1', '--games', '600',"
            " '--jobs', '2', '--agent', 'random']\n"
            "main()\n")
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-c", code, str(REPO)], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=slave, text=True)
    os.close(slave)
    chunks = []

    def drain() -> None:
        while True:
            try:
                data = os.read(master, 4096)
            except OSError:  # the terminal closed with the process
                return
            if not data:
                return
            chunks.append(data)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    out, _ = proc.communicate(timeout=300)
    reader.join(30)
    os.close(master)
    terminal = b"".join(chunks).decode("utf-8", "replace")
    assert proc.returncode in (0, 1), terminal
    assert re.search(r"start method: fork\s", terminal), terminal  # not forkserver
    assert "playtest" in terminal and "games/s" in terminal, terminal  # the bar was drawn there
    assert "win" in out.lower(), out
