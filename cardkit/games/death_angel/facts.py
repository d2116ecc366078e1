"""Death Angel's line in ``cardkit build``'s summary, worded by the set's own
interface strings (``summary.death_angel``, ``summary.audit_failed``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class DeathAngelFacts:
    set_id: str
    games: int  # per player count
    complete: bool  # every game finished, no rule violation
    win_rates: tuple[tuple[int, float], ...]  # (players, rate)
    never_fired: int

    def line(self, ui: Callable[..., str], ui_n: Callable[..., str], num: Callable[[float], str]) -> str:
        rates = ", ".join(f"{p}p {r:.0%}" for p, r in self.win_rates)
        return ui("summary.death_angel", set=self.set_id, games=ui_n("summary.games", self.games, games=num(self.games)),
                  status=ui("summary.complete" if self.complete else "summary.incomplete"), rates=rates,
                  never=num(self.never_fired))


@dataclass(frozen=True)
class AuditFailed:
    set_id: str
    card: str
    problem: str

    def line(self, ui: Callable[..., str], ui_n: Callable[..., str], num: Callable[[float], str]) -> str:
        return ui("summary.audit_failed", set=self.set_id, card=self.card, problem=self.problem)
