"""Deep Strike's game plugin (entry point ``cardkit.games: deep-strike``): typed
scenario views and the deployment check behind ``cardkit build``'s playability
line, and its own commands (``cardkit deepstrike check`` and ``score``).  It has no
rules engine: ``cardkit playtest`` and ``rules`` say so."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from cardkit.errors import Severity
from cardkit.plugins import CommandGroup, GamePlugin
from cardkit.model import CardSet


@dataclass(frozen=True)
class DeepStrikeFacts:
    """The build summary's line: scenarios deployable by both sides, and the check's warnings."""

    set_id: str
    deployable: int
    scenarios: int
    warnings: int

    def line(self, ui: Callable[..., str], ui_n: Callable[..., str], num: Callable[[float], str]) -> str:
        return ui("summary.deep_strike", set=self.set_id,
                  scenarios=ui_n("summary.deployable", self.scenarios, ok=num(self.deployable), total=num(self.scenarios)),
                  warnings=ui_n("summary.warnings", self.warnings, warnings=num(self.warnings)))


def _views(card_set: CardSet) -> CardSet:
    from cardkit.games.deep_strike.cards import views

    return views(card_set)


def _playability(root: Path, card_set: CardSet) -> DeepStrikeFacts:
    """Every scenario deployed by both sides (the build summary words it)."""
    from cardkit.games.deep_strike.check import check_set

    results = check_set(card_set)
    ok = sum(all(run.feasible for run in r.runs) for r in results)
    warnings = sum(n.severity is Severity.WARNING for r in results for n in r.notes)
    return DeepStrikeFacts(card_set.id, ok, len(results), warnings)


def _commands() -> tuple[str, CommandGroup]:
    from cardkit.games.deep_strike.commands import app

    return "deepstrike", app


PLUGIN = GamePlugin(name="deep-strike", views=_views, playability=_playability, commands=_commands)
