"""Small helpers shared by combat and the effect handlers: yes/no questions,
marine options, and the abilities in force this round."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

from cardkit.games.death_angel.state import SIDES, Marine, other
from cardkit.model import Effect
from cardkit.rules.core import Option

if TYPE_CHECKING:
    from cardkit.games.death_angel.engine import Flow, State

YES, NO = Option("choice", "yes"), Option("choice", "no")
# the facing question offers the marine's current facing first
FACING = {side: (Option("facing", side), Option("facing", other(side))) for side in SIDES}


def _yes_no(st: "State", player: int, kind: str, **ctx: Any) -> "Flow":
    pick = yield from st.ask(player, kind, [YES, NO], **ctx)
    return pick == YES


def _active(st: "State", kind: str, team: str | None = None) -> Iterator[tuple[str, Effect, str]]:
    for card, eff, t in st.active:
        if eff.kind == kind and (team is None or t == team):
            yield card, eff, t


def _marine_option(m: Marine) -> Option:
    return m.option


def _find_marine(st: "State", mid: str) -> Marine:
    return next(m for m in st.marines() if m.id == mid)


