"""A game as a localized narrative, from the engine's structured event log.

The engine logs IDs and numbers only; names and sentences come from the
catalogs here (Babel formats numbers; Korean particles are fixed by
``fill_ko``), so a Finnish or Korean narration plays the very same game.
"""

from __future__ import annotations

from typing import Any, Iterable

from babel.numbers import format_decimal

from cardkit.strings.localize import Localizer


class Narrator:
    def __init__(self, loc: Localizer) -> None:
        self.loc = loc
        self.locale = loc.locale.replace("-", "_")

    def name(self, card_id: str) -> str:
        base = card_id.split("#")[0]
        try:
            return self.loc.card(f"{base}.name")
        except KeyError:
            return base

    def num(self, n: int) -> str:
        return format_decimal(n, locale=self.locale)

    def side(self, side: str) -> str:
        return self.loc.ui(f"play.side.{side}")

    def line(self, ev: tuple[Any, ...]) -> str | None:
        kind, args = ev[0], ev[1:]
        ui = self.loc.ui
        if kind == "setup":
            return ui("play.setup", marines=", ".join(self.name(m) for m in args[0]),
                      locations=", ".join(self.name(x) for x in args[1]))
        if kind == "round":
            return "\n" + ui("play.round", round=self.num(args[0]))
        if kind == "actions":
            return ui("play.actions", cards=", ".join(self.name(c) for c in args[0]))
        if kind == "resolve":
            return ui("play.resolve", card=self.name(args[0]))
        if kind == "support":
            return self.loc.ui_n("play.support", args[1], marine=self.name(args[0]), count=self.num(args[1]))
        if kind == "activate":
            return ui("play.activate", marine=self.name(args[0]), terrain=self.name(args[1]))
        if kind == "swap":
            return ui("play.swap", marine=self.name(args[0]), row=self.num(args[2] + 1))
        if kind == "face":
            return ui("play.face", marine=self.name(args[0]), side=self.side(args[1]))
        if kind == "kill":
            return ui("play.kill", genestealer=self.name(args[0]), row=self.num(args[1] + 1), side=self.side(args[2]))
        if kind == "defend":
            key = "play.defend_miss" if args[2] == "miss" else "play.defend_hit"
            return ui(key, marine=self.name(args[0]), value=self.num(args[1]))
        if kind == "death":
            return ui("play.death", marine=self.name(args[0]))
        if kind == "spawn":
            return self.loc.ui_n("play.spawn", args[2], row=self.num(args[0] + 1), side=self.side(args[1]), count=self.num(args[2]))
        if kind == "move":
            return ui("play.move", from_row=self.num(args[0] + 1), to_row=self.num(args[2] + 1), side=self.side(args[1]))
        if kind == "flank":
            return ui("play.flank", row=self.num(args[0] + 1), side=self.side(args[2]))
        if kind == "event":
            return ui("play.event", card=self.name(args[0]))
        if kind == "travel":
            return ui("play.travel", location=self.name(args[0]))
        if kind == "team_out":
            return ui("play.team_out", team=self.loc.card(f"set.teams.{args[0]}.name"))
        if kind == "brood_lord":
            return ui("play.brood_lord", row=self.num(args[0] + 1), side=self.side(args[1]))
        if kind == "end":
            return "\n" + ui("play.win" if args[0] == "win" else "play.loss", round=self.num(args[2]))
        return None  # dice, shuffles and bookkeeping stay out of the story

    def story(self, events: Iterable[tuple[Any, ...]]) -> list[str]:
        return [s for s in (self.line(e) for e in events) if s is not None]
