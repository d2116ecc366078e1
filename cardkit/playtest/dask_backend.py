"""Run playtest batches on a Dask distributed cluster (optional extra: ``pip install cardkit[dask]``).

The batches are the same as for local processes; each returns a mergeable
summary, never the games' records, and merging does not depend on the order in
which batches finish, so a Dask run gives the same report.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Iterator

from cardkit.errors import CardkitError
from cardkit.playtest.sweep import Batch, BatchResult, run_batch

WINDOW = 64  # batches submitted ahead: the scheduler and the parent hold a bounded number of results


def run_on_dask(batches: Sequence[Batch], scheduler: str | None = None, workers: int = 2) -> Iterator[tuple[int, BatchResult]]:
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise CardkitError("the dask backend needs Dask: pip install 'cardkit[dask]'", code="G007") from None
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
        index = {}
        pending = as_completed()
        for i, b in enumerate(batches[:WINDOW]):
            fut = client.submit(run_batch, b, pure=False)
            index[fut.key] = i
            pending.add(fut)
        following = WINDOW
        for fut in pending:
            result = fut.result()
            i = index.pop(fut.key)
            fut.release()
            yield i, result
            if following < len(batches):
                nxt = client.submit(run_batch, batches[following], pure=False)
                index[nxt.key] = following
                pending.add(nxt)
                following += 1
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
