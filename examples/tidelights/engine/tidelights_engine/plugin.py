"""Tidelights' game plugin (entry point ``cardkit.games: tidelights``).  The hook imports the
engine when called, so that ``cardkit validate`` never loads it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardkit.plugins import GamePlugin

if TYPE_CHECKING:
    from cardkit.rules.protocol import Engine


def _engine() -> Engine:
    from tidelights_engine.engine import engine

    return engine()


PLUGIN = GamePlugin(name="tidelights", engine=_engine)
