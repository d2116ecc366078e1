"""Worker processes: how to start them safely in the process at hand.

Forking is the fast way: a forked worker inherits the loaded card sets, fonts and
laid-out faces.  But ``fork()`` in a process that runs other threads copies the
locks those threads hold, held, into a child where no thread will ever release
them; a worker that touches one (a stream it flushes at exit, an allocator, a
library's internal lock) waits forever, and so does whoever waits for it.  The
``cardkit`` command runs one thread when it starts workers (its progress bar draws
from the main thread), so it forks.  A host with other threads (a test runner such
as pytest-xdist, a server, a notebook kernel) gets fresh workers from a fork
server instead, which start from nothing and load what they need; their results
are the same, since nothing a worker computes depends on how it was started.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import threading
from multiprocessing.context import BaseContext
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardkit.plugins import GamePlugin


def threads_here() -> int:
    """The operating-system threads of this process (threads started below Python's
    :mod:`threading`, such as a test runner's I/O thread, count too)."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:  # no /proc: what Python knows of
        return threading.active_count()


def forking_is_safe() -> bool:
    """Can this process fork workers now: the platform has ``fork`` and this is the only thread?"""
    return "fork" in multiprocessing.get_all_start_methods() and threads_here() == 1


def pool_context() -> BaseContext:
    """``fork`` when :func:`forking_is_safe`, else a fork server (or ``spawn`` where there is none)."""
    if forking_is_safe():
        return multiprocessing.get_context("fork")
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def inherits(context: BaseContext) -> bool:
    """Do workers of ``context`` inherit this process's memory (loaded sets, registered plugins)?"""
    return context.get_start_method() == "fork"


def portable_plugins() -> tuple[GamePlugin, ...] | None:
    """The game plugins registered in this process (:func:`cardkit.plugins.register`), in a form
    a fresh worker can receive; ``None`` if one cannot be sent (its hooks are not importable
    functions), and then work must stay in this process."""
    from cardkit.plugins import registered as registered_plugins

    registered = tuple(registered_plugins().values())
    try:
        pickle.dumps(registered)
    except (pickle.PicklingError, TypeError, AttributeError):
        return None
    return registered


def start_worker(plugins: tuple[GamePlugin, ...] = ()) -> None:
    """A pool worker's initializer: Ctrl-C is left to the parent (a terminal sends SIGINT to the
    whole process group, and each worker would print a traceback), and a fresh worker learns the
    plugins its parent registered in-process."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if plugins:
        from cardkit.plugins import register

        for plugin in plugins:
            register(plugin)
