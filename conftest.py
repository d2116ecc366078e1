"""pytest, repository level: the rules engine modules may run as compiled
extension modules (cardkit/_compiled.py), so --doctest-modules must not import
their sources a second time; they hold no doctests."""

from __future__ import annotations

from cardkit import _compiled

collect_ignore = [str(_compiled.source_path(m)) for m in _compiled.MODULES]


def pytest_report_header() -> str:
    return f"cardkit rules engine: {_compiled.engine_build()}"
