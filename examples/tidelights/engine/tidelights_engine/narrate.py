"""A finished night told as a story (``cardkit rules play``), in the reader's language.

Every sentence is one of the set's own interface strings (``narrate.*`` and ``reason.*`` in
``strings.yaml``, translated in the set's catalogs); the cards are named by their translated
names.  The state's event log holds ids only, so the story is the same night in every language.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardkit.rules.protocol import End, Result
from tidelights_engine.state import Night

#: an event kind and the string that tells it, with the names of its card arguments
SENTENCES: dict[str, tuple[str, tuple[str, ...]]] = {
    "reveal": ("", ("card",)),  # a ship or a storm: narrate.ship / narrate.storm
    "ignored": ("narrate.ignored", ("storm", "card")),
    "discard": ("narrate.discard", ("crew",)),
    "slack": ("narrate.slack", ("crew",)),
    "play": ("narrate.play", ("crew", "ship")),
    "move": ("narrate.move", ("crew", "source", "target")),
    "wreck": ("narrate.wreck", ("ship",)),
    "saved": ("narrate.saved", ("ship",)),
    "reshuffle": ("narrate.reshuffle", ()),
}


def story(night: Night, localizer: Any, players: int, seed: int) -> Sequence[str]:
    """The lines of the story; ``localizer`` is a :class:`cardkit.strings.localize.Localizer` of the set."""

    def name(card: str) -> str:
        return str(localizer.card(f"{card}.name"))

    lines = [localizer.ui("narrate.title", players=players, seed=seed)]
    for kind, *args in night.events():
        if kind == "turn":
            lines.append(localizer.ui("narrate.turn", round=args[0], keeper=name(args[2])))
        elif kind == "reveal":
            key = "narrate.ship" if args[0] in night.deck.ships else "narrate.storm"
            lines.append("  " + localizer.ui(key, card=name(args[0])))
        elif kind == "berth":
            lines.append("  " + localizer.ui("narrate.berth", ship=name(args[0]), harbour=name(args[1]),
                                             points=args[2]))
        elif kind == "draw":
            lines.append("  " + localizer.ui("narrate.draw", count=args[0]))
        else:
            key, names = SENTENCES[kind]
            lines.append("  " + localizer.ui(key, **{n: name(a) for n, a in zip(names, args)}))
    result = night.result()
    if result is not None:
        score = f"{result.seats[0].score:g}"
        if result.end is End.COMPLETE and result.seats[0].result is Result.WIN:
            lines.append(localizer.ui("narrate.won", score=score))
        else:
            lines.append(localizer.ui("narrate.lost", reason=localizer.ui(f"reason.{result.reason}"), score=score))
    return lines
