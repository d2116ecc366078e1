"""Small helpers shared by combat and the effect handlers: yes/no questions,
marine options, and the abilities in force this round."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Iterator

from cardkit.games.death_angel.state import SIDES, Marine, other
from cardkit.model import Effect
from cardkit.rules.core import Option

if TYPE_CHECKING:
    from cardkit.games.death_angel.engine import Flow, State

YES: Final = Option("choice", "yes")
NO: Final = Option("choice", "no")
# the facing question offers the marine's current facing first
FACING: Final = {side: (Option("facing", side), Option("facing", other(side))) for side in SIDES}


def _yes_no(st: "State", player: int, kind: str, **ctx: Any) -> "Flow":
    pick = yield from st.ask_in(player, kind, [YES, NO], ctx)
    return pick == YES


def _active(st: "State", kind: str, team: str | None = None) -> Iterator[tuple[str, Effect, str]]:
    for card, eff, t in st.active:
        if eff.kind == kind and (team is None or t == team):
            yield card, eff, t


def _marine_option(m: Marine) -> Option:
    return m.option


def _find_marine(st: "State", mid: str) -> Marine:
    for r in st.rows:
        m = r.marine
        if m is not None and m.id == mid:
            return m
    raise AssertionError(f"{mid} is not in the formation")


