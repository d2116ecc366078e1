"""The playtest: seeded sweeps, statistics, verdicts and reports.

The library call is :func:`run` of a :class:`PlaytestRequest` (:mod:`cardkit.playtest.session`).
"""

from cardkit.playtest.session import Playtest, PlaytestRequest, run

__all__ = ["Playtest", "PlaytestRequest", "run"]
