"""Deep Strike's game plugin (entry point ``cardkit.games: deep-strike``): typed
scenario views and the deployment check behind ``cardkit build``'s playability
line.  It has no rules engine: ``cardkit playtest`` and ``rules`` say so."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardkit.errors import Severity
from cardkit.games import GamePlugin
from cardkit.model import CardSet


def _views(card_set: CardSet) -> CardSet:
    from cardkit.games.deep_strike.cards import views

    return views(card_set)


def _playability(root: Path, card_set: CardSet) -> Any:
    """Every scenario deployed by both sides (the build summary words it)."""
    from cardkit.buildsummary import DeepStrikeFacts
    from cardkit.games.deep_strike.check import check_set

    results = check_set(card_set)
    ok = sum(all(run.feasible for run in r.runs) for r in results)
    warnings = sum(n.severity is Severity.WARNING for r in results for n in r.notes)
    return DeepStrikeFacts(card_set.id, ok, len(results), warnings)


PLUGIN = GamePlugin(name="deep-strike", views=_views, playability=_playability)
