"""Tidelights' own agent, ``heuristic``: a few plain rules of thumb a careful keeper would follow.

It reads only what its seat knows: the table, its own hand, the size of the decks and the storms
already gone (and, as Jonah Pell, the tide card he looked at).  It is deterministic (its seed is
unused) and cheap, so it is also the rollout policy of the generic search agents.

* **Tide:** reveal another card while the extra draw is of use, the bay has room and a storm is
  unlikely; after a storm this turn (a second one ends the turn), only when one is very unlikely.
* **Guide:** play the card that berths the most valuable ship, else the one that covers the most
  needs of a ship that will find a berth; keep a deep-water berth for every brig still to come.
* **Berth:** the best bonus, sparing the berths that take brigs.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardkit.rules.core import Decision, Option
from cardkit.rules.protocol import Agent, State
from tidelights_engine.cards import BAY_LIMIT, Berth, Deck, Ship
from tidelights_engine.state import Night, cover, option, uncovered


def _storm_odds(night: Night) -> float:
    """The chance that the next tide card is a storm, from what everyone knows."""
    if not night.tide:
        return 0.0
    left = night.deck.storm_cards - len(night.storm_discard) - (night.storm is not None)
    return max(left, 0) / len(night.tide)


class _Berthing:
    """The berths' side of the rules of thumb for one position of the berths (which berth holds
    what, how many brigs were wrecked): the same whatever the bay holds, so it is worked out once
    per position and kept in the deck's memo (the agent is also the search agents' rollout policy:
    it runs at every decision of every playout, and the berths change seldom)."""

    __slots__ = ("best", "best_any", "brigs_to_come", "deck", "free_deep", "held")

    def __init__(self, deck: Deck, held: tuple[str | None, ...], wrecked_brigs: int) -> None:
        self.deck = deck
        self.held = held
        ships = deck.ships
        self.free_deep = sum(1 for i in deck.takers["brig"] if held[i] is None)
        # brigs not yet berthed or wrecked (the final ship among them)
        gone = wrecked_brigs + sum(1 for s in held if s is not None and ships[s].rig == "brig")
        self.brigs_to_come = deck.brigs - gone
        self.best: dict[tuple[str, str | None], float | None] = {}
        self.best_any: dict[str, float | None] = {}  # best_for(ship) by rig, the one asked for every option

    def value(self, ship: Ship, berth: Berth) -> float:
        value = 10.0 * berth.bonus + (3.0 if berth.rig == ship.rig else 0.0)
        if berth.harbour_rule == "brig_draw" and ship.rig == "brig":
            value += 5.0
        if ship.rig != "brig" and berth.deep and self.free_deep - 1 < self.brigs_to_come:
            value -= 100.0  # keep a deep-water berth for every brig still to come
        return value

    def best_for(self, ship: Ship, only_rule: str | None = None) -> float | None:
        if only_rule is None:
            rig = ship.rig
            if rig not in self.best_any:
                self.best_any[rig] = self._best(ship, None)
            return self.best_any[rig]
        key = (ship.rig, only_rule)
        if key not in self.best:
            self.best[key] = self._best(ship, only_rule)
        return self.best[key]

    def _best(self, ship: Ship, only_rule: str | None) -> float | None:
        berths, held = self.deck.berths, self.held
        values = [self.value(ship, berths[i]) for i in self.deck.takers[ship.rig]
                  if held[i] is None and (only_rule is None or berths[i].harbour_rule == only_rule)]
        return max(values) if values else None


#: positions of the berths kept per deck before the memo starts afresh
MEMO_LIMIT = 4096


class _Harbours:
    """What the berths and the bay look like at one decision (computed once per decision)."""

    __slots__ = ("berthing", "best_for", "lefts", "night", "ships", "value")

    def __init__(self, night: Night) -> None:
        self.night = night
        deck = night.deck
        ships = deck.ships
        self.ships = {s.id: s for s in night.bay}
        lefts = night.guide_lefts()
        self.lefts = lefts if lefts is not None else {s.id: uncovered(ships[s.id].needs, s) for s in night.bay}
        held = tuple(night.berths)
        wrecked_brigs = sum(1 for s in night.wrecked if ships[s].rig == "brig")
        memo = deck.memo
        key = (held, wrecked_brigs)
        berthing = memo.get(key)
        if berthing is None:
            if len(memo) >= MEMO_LIMIT:
                memo.clear()
            berthing = memo[key] = _Berthing(deck, held, wrecked_brigs)
        assert isinstance(berthing, _Berthing)
        self.berthing = berthing
        self.best_for = berthing.best_for
        self.value = berthing.value


def _points(ship: Ship) -> float:
    return 1000.0 if ship.final else 100.0 + 10.0 * ship.cargo


def _card_use(night: Night, crew: str) -> int:
    """How many needs of the ships in the bay this crew card could cover at best."""
    icons = night.deck.crew[crew].icons
    best = 0
    for ship in night.bay:
        left = uncovered(night.deck.ships[ship.id].needs, ship)
        n = min(1, len(left)) if night.deck.crew[crew].rule == "wild" else len(cover(icons, left))
        best = max(best, n)
    return best


def _keep_value(night: Night, crew: str) -> float:
    card = night.deck.crew[crew]
    return 2.0 * _card_use(night, crew) + len(card.icons) + (3.0 if card.rule == "wild" else 0.0)


# the parts of a play or move option's value (crew, source ship or "", ship, the need or ""), by value:
# read once per option text, not at every decision of every playout
_PLAYS: dict[str, tuple[str, str, str, str]] = {}
_MOVES: dict[str, tuple[str, str, str, str]] = {}


def _parts(kind: str, value: str) -> tuple[str, str, str, str]:
    table = _PLAYS if kind == "play" else _MOVES
    parts = table.get(value)
    if parts is None:
        if kind == "play":
            crew, ship_id, *need = value.split(":")
            src_id = ""
        else:
            crew, src_id, ship_id, *need = value.split(":")
        parts = table[value] = (crew, src_id, ship_id, need[0] if need else "")
    return parts


def _play_value(night: Night, harbours: _Harbours, option: Option) -> float:
    kind = option.kind
    if kind == "end":
        return 0.0
    if kind == "dock":
        ship_id, _ = option.value.split(":")
        spec = night.deck.ships[ship_id]
        berth = harbours.best_for(spec, "one_short")
        return -1.0 if berth is None or berth < -50 else _points(spec) + berth - 20.0
    crew, src_id, ship_id, one = _parts(kind, option.value)
    need = (one,) if one else ()
    if kind == "play":
        src_loss = 0.0
    else:  # move
        src_loss = 10.0 * sum(len(cov) for c, cov in harbours.ships[src_id].crew if c == crew) + 1.0
    ship = harbours.ships[ship_id]
    spec = night.deck.ships[ship_id]
    left = harbours.lefts[ship_id]
    card = night.deck.crew[crew]
    got = need if need else cover(card.icons, left)
    after = len(left) - len(got)
    berth = harbours.best_for(spec)
    if berth is None or (berth < -50 and not spec.final):
        return -10.0  # it would never berth: keep the card
    if not after:
        return _points(spec) + berth - src_loss
    if kind == "move":
        return -1.0
    value = 10.0 * len(got) - 3.0 * (len(card.icons) - len(got)) - 2.0 * after + spec.cargo
    if spec.final:
        value += 15.0
    if card.rule == "wild":
        value -= 8.0
    if len(night.bay) >= BAY_LIMIT - 1 and night.bay[0] is ship:
        value -= 6.0  # the oldest ship goes first
    return value


def _guide(night: Night, options: Sequence[Option]) -> Option:
    """The guide step's choice: the option of the best :func:`_play_value`, equal values to the
    greater text (``max`` by (value, text)).  The same values as :func:`_play_value` (the rules of
    thumb's one statement, tested against this), computed with what belongs to a ship (its spec,
    needs left, best berth) looked up once per ship rather than once per option: this runs at every
    guide decision of every playout of the search agents."""
    harbours = _Harbours(night)
    deck = night.deck
    crews = deck.crew
    bay = night.bay
    oldest = bay[0].id if len(bay) >= BAY_LIMIT - 1 else None
    per_ship: dict[str, tuple[Ship, list[str], float | None]] = {}
    best, best_value = options[0], 0.0
    for i, o in enumerate(options):
        kind = o.kind
        if kind == "end":
            value = 0.0
        elif kind == "dock":
            value = _play_value(night, harbours, o)
        else:
            crew, src_id, ship_id, one = _parts(kind, o.value)
            facts = per_ship.get(ship_id)
            if facts is None:
                spec = deck.ships[ship_id]
                facts = per_ship[ship_id] = (spec, harbours.lefts[ship_id], harbours.best_for(spec))
            spec, left, berth = facts
            card = crews[crew]
            if one:
                got = 1
            else:
                pool = list(left)
                got = 0
                for mark in card.icons:
                    if mark in pool:
                        pool.remove(mark)
                        got += 1
            after = len(left) - got
            if berth is None or (berth < -50 and not spec.final):
                value = -10.0  # it would never berth: keep the card
            elif not after:
                src_loss = 0.0 if kind == "play" else \
                    10.0 * sum(len(cov) for c, cov in harbours.ships[src_id].crew if c == crew) + 1.0
                value = _points(spec) + berth - src_loss
            elif kind == "move":
                value = -1.0
            else:
                value = 10.0 * got - 3.0 * (len(card.icons) - got) - 2.0 * after + spec.cargo
                if spec.final:
                    value += 15.0
                if card.rule == "wild":
                    value -= 8.0
                if ship_id == oldest:
                    value -= 6.0  # the oldest ship goes first
        if i == 0 or value > best_value or (value == best_value and o.text() > best.text()):
            best, best_value = o, value
    return best


def _tide(night: Night) -> str:
    seat = night.seat
    room = night.keepers[seat].hand - len(night.hands[seat])
    if room < night.revealed + 1 or len(night.bay) >= BAY_LIMIT:
        return "stop"
    if any(night.deck.ships[s.id].final for s in night.bay):
        return "stop"
    odds = _storm_odds(night)
    limit = 0.15 if night.storms else 0.4
    return "reveal" if odds < limit else "stop"


def _peek(night: Night) -> str:
    card = night.tide[-1][0]
    if card in night.deck.storms:
        return "bottom"
    return "top" if len(night.bay) < BAY_LIMIT else "bottom"


def _shelter(night: Night, options: tuple[Option, ...]) -> Option:
    assert night.storm is not None
    rule = night.deck.storms[night.storm].rule
    harmful = (night.storms >= 1 or (rule == "wreck_oldest" and night.bay)
               or (rule == "wreck_bare" and any(not s.crew for s in night.bay))
               or (rule == "current" and any(s.crew for s in night.bay)) or rule == "fog")
    ropes = [o for o in options if o.value != "no"]
    if not harmful or not ropes:
        return option("shelter", "no")
    return min(ropes, key=lambda o: (_keep_value(night, o.value), o.value))


def _choose(night: Night, decision: Decision) -> Option:
    kind, options = decision.kind, decision.options
    if kind == "tide":
        return option("tide", _tide(night))
    if kind == "peek":
        return option("peek", _peek(night))
    if kind == "shelter":
        return _shelter(night, options)
    if kind in ("discard", "slack"):
        return min(options, key=lambda o: (_keep_value(night, o.value), o.value))
    if kind == "berth":
        assert night.ship is not None
        spec = night.deck.ships[night.ship]
        by_id = {b.id: b for b in night.deck.berths}
        harbours = _Harbours(night)
        return max(options, key=lambda o: (harbours.value(spec, by_id[o.value]), o.value))
    return _guide(night, options)


def keeper_agent(seed: int) -> Agent:
    """The ``heuristic`` agent (deterministic: ``seed`` is unused)."""

    def agent(state: State, decision: Decision) -> Option:
        assert isinstance(state, Night)
        return _choose(state, decision)

    return agent
