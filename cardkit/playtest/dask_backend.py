"""Run playtest batches on a Dask distributed cluster (optional extra: ``pip install cardkit[dask]``).

The batches are the same as for local processes; each returns a mergeable
summary, never the games' records, and merging does not depend on the order in
which batches finish, so a Dask run gives the same report.

A Dask worker is a process of its own, started by the cluster, not by this one: it knows the game
plugins installed where it runs (entry points of ``cardkit.games``), not those this process
registered in-process (:func:`cardkit.plugins.register`: a plugin's own tests, a tool driving
cardkit).  So the registered plugins travel with every batch, as they do to fresh local workers
(:func:`cardkit.workers.portable_plugins`), and before any game is played every worker is asked to
load each card set of the sweep and find its engine (:func:`probe`): a plugin that cannot be sent
is G090, a worker that cannot play the sweep's game G091, one line each, instead of a failure in
the middle of the sweep.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Iterator

from cardkit.errors import CardkitError
from cardkit.playtest.sweep import Batch, BatchResult, run_batch

if TYPE_CHECKING:
    from distributed import Client

    from cardkit.plugins import GamePlugin

WINDOW = 64  # batches submitted ahead: the scheduler and the parent hold a bounded number of results


def _learn(plugins: tuple[GamePlugin, ...]) -> None:
    """Register, in this worker, the plugins the sweep's process registered (over the installed ones,
    as there)."""
    from cardkit.plugins import register

    for plugin in plugins:
        register(plugin)


def run_with(batch: Batch, plugins: tuple[GamePlugin, ...]) -> BatchResult:
    """A worker's task: learn the sweep's registered plugins, then play the batch."""
    _learn(plugins)
    return run_batch(batch)


def probe(sets: tuple[tuple[str, str], ...], plugins: tuple[GamePlugin, ...]) -> list[str]:
    """Run on every worker before the sweep: each ``(root, set id)`` loads and its game's engine is
    found, with the sweep's registered plugins learnt.  Returns the problems (empty: ready); never
    raises, so that each worker's answer comes back as text."""
    from cardkit.errors import CardkitError as Error
    from cardkit.playtest.sweep import _card_set, engine_of

    problems: list[str] = []
    try:
        _learn(plugins)
        for root, set_id in sets:
            engine_of(_card_set(root, set_id))
    except Error as exc:
        problems.extend(f"{i.code}: {i.message}" for i in exc.issues)
    except Exception as exc:  # an engine that cannot even be imported there: the worker says why
        problems.append(f"{type(exc).__name__}: {exc}")
    return problems


def _check_workers(client: Client, batches: Sequence[Batch], plugins: tuple[GamePlugin, ...]) -> None:
    """G091 when a worker cannot load a set of the sweep or find its game's engine (before any game)."""
    sets = tuple(sorted({(b.root, b.set_id) for b in batches} | {(v.root, b.set_id) for b in batches for v in b.variants}))
    if not sets:
        return
    games = ", ".join(sorted({s for _, s in sets}))
    try:
        answers = client.run(probe, sets, plugins)
    except Exception as exc:  # a plugin the workers cannot unpickle (its module is not importable there)
        raise CardkitError(f"the Dask workers cannot receive the game plugins this process registered "
                           f"({type(exc).__name__}: {exc}); install the game's plugin package on every worker",
                           code="G091") from None
    for worker, problems in sorted(answers.items()):
        if problems:
            raise CardkitError(f"the Dask worker {worker} cannot play set {games}: {problems[0]} (a worker knows "
                               "the game plugins installed where it runs and those this process registered; "
                               "install the game's plugin package on every worker)", code="G091")


def sendable_plugins() -> tuple[GamePlugin, ...]:
    """The plugins this process registered, as the workers will receive them; G090 when one cannot
    be sent (a hook that is not an importable function: a lambda, a closure)."""
    from cardkit.plugins import registered
    from cardkit.workers import portable_plugins

    plugins = portable_plugins()
    if plugins is None:
        names = ", ".join(sorted(registered()))
        raise CardkitError(f"--backend dask: the game plugin registered in this process ({names}) cannot be sent to "
                           "Dask workers (a hook is not an importable module-level function); install it as a "
                           "package with a cardkit.games entry point, or use --backend local", code="G090")
    return plugins


def run_on_dask(batches: Sequence[Batch], scheduler: str | None = None, workers: int = 2) -> Iterator[tuple[int, BatchResult]]:
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise CardkitError("the dask backend needs Dask: pip install 'cardkit[dask]'", code="G007") from None
    plugins = sendable_plugins()  # before a cluster is started or reached
    cluster = None
    if scheduler is None:
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    else:
        try:
            client = Client(scheduler, timeout=10)
        except OSError as exc:
            raise CardkitError(f"cannot reach the Dask scheduler at {scheduler}: {exc}", code="G006") from None
    try:
        _check_workers(client, batches, plugins)
        index = {}
        pending = as_completed()
        for i, b in enumerate(batches[:WINDOW]):
            fut = client.submit(run_with, b, plugins, pure=False)
            index[fut.key] = i
            pending.add(fut)
        following = WINDOW
        for fut in pending:
            result = fut.result()
            i = index.pop(fut.key)
            fut.release()
            yield i, result
            if following < len(batches):
                nxt = client.submit(run_with, batches[following], plugins, pure=False)
                index[nxt.key] = following
                pending.add(nxt)
                following += 1
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
