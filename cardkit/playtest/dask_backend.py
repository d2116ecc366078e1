"""Run playtest batches on a Dask distributed cluster (optional extra: ``pip install cardkit[dask]``).

The batches and their order are the same as for local processes, and results
are put back in batch order, so a Dask run gives the same report.
"""

from __future__ import annotations

from typing import Iterator

from cardkit.errors import CardkitError
from cardkit.playtest.sweep import Batch, GameRecord, run_batch


def run_on_dask(batches: list[Batch], scheduler: str | None = None, workers: int = 2) -> Iterator[tuple[int, list[GameRecord]]]:
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
        futures = [client.submit(run_batch, b, pure=False) for b in batches]
        index = {f.key: i for i, f in enumerate(futures)}
        for fut, records in as_completed(futures, with_results=True):
            yield index[fut.key], records
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
