"""A night of Tidelights as a state machine: every decision is a state that copies (``clone``).

The rules are those of ``examples/tidelights/README.md``; where they are silent the engine
decides as ``RULES.md`` says.  Whose turn it is decides every pending decision (the game is
co-operative); the decision kinds are:

========= ============================================ =======================================
kind      when                                         options (text form ``kind:value``)
========= ============================================ =======================================
peek      Jonah Pell before a reveal (he sees the card) ``peek:top``, ``peek:bottom``
tide      after a reveal, the tide deck not empty      ``tide:reveal``, ``tide:stop``
shelter   Cass Merrow reveals a storm, holds a rope     ``shelter:<crew id>``, ``shelter:no``
discard   a squall: discard one crew card              ``discard:<crew id>``
slack     the tide deck is empty at the tide step      ``slack:<crew id>``
guide     the guide step                               ``play:<crew>:<ship>[:<need>]``,
                                                       ``move:<crew>:<from>:<to>[:<need>]``,
                                                       ``dock:<ship>:<berth>``, ``end:guide``
berth     a ship's needs are covered                   ``berth:<berth id>``
========= ============================================ =======================================

A decision with one option is taken at once (it is no choice).  Chance is the state's own
seeded stream (``random.Random``), copied with the state: the deal at the start and the one
reshuffle of the crew discards.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from typing import Literal

from cardkit.rules.core import Decision, DecisionKind, EndReason, Option
from cardkit.rules.protocol import (
    End,
    GameReport,
    GameResult,
    Result,
    SeatResult,
    State,
)
from tidelights_engine.cards import BAY_LIMIT, FINAL_DEPTH, WRECK_LIMIT, Deck

#: the decision kinds of the table above (Tidelights' own vocabulary; ``Decision.kind`` is the
#: generic :data:`~cardkit.rules.core.DecisionKind` made of it)
Kind = Literal["peek", "tide", "shelter", "discard", "slack", "guide", "berth"]
#: why a night ended (``GameResult.reason``; the playtest's defeat causes)
Reason = Literal["final_ship_berthed", "final_ship_wrecked", "wrecks", "crew_deck_out", "round_limit", "unfinished"]

#: a night that has not ended after this many rounds is abandoned (it never happens in play:
#: the slack rule drains the crew deck once the tide deck is empty)
ROUND_LIMIT = 100

# a tide deck slot: (card id, may be the final ship to someone who has not seen it, bitmask of the seats that know it)
Slot = tuple[str, bool, int]

# Options are immutable values equal by kind and value, so the engine hands out one shared object per
# option instead of building (and formatting) a new one at every decision: the guide step is asked
# after every card played, in every playout of the search agents.  Bounded by the set's card ids.
_OPTIONS: dict[tuple[str, ...], Option] = {}
_PLAY_PARTS: dict[str, tuple[str, str, tuple[str, ...]]] = {}  # a play option's value read: crew, ship, need


def option(kind: str, *parts: str) -> Option:
    """The option ``kind:part1:part2...`` (one shared object per text)."""
    key = (kind, *parts)
    found = _OPTIONS.get(key)
    if found is None:
        found = _OPTIONS[key] = Option(kind, ":".join(parts))
    return found


class BayShip:
    """A ship in the bay: its id, the crew played on it (crew id, the needs it covers), and
    whether a storm was revealed while it waited (Patience)."""

    __slots__ = ("crew", "id", "weathered")

    def __init__(self, ship: str, crew: list[tuple[str, tuple[str, ...]]] | None = None, weathered: bool = False) -> None:
        self.id = ship
        self.crew = crew if crew is not None else []
        self.weathered = weathered

    def copy(self) -> BayShip:
        return BayShip(self.id, list(self.crew), self.weathered)

    def text(self) -> str:
        crew = ",".join(f"{c}={'+'.join(cov)}" for c, cov in self.crew)
        return f"{self.id}[{crew}]{'*' if self.weathered else ''}"


def uncovered(needs: Sequence[str], ship: BayShip) -> list[str]:
    """The needs of ``ship`` no crew card covers yet (a multiset, in the card's order)."""
    left = list(needs)
    if not ship.crew:
        return left
    for _, cov in ship.crew:
        for mark in cov:
            left.remove(mark)
    return left


def cover(icons: Sequence[str], left: Sequence[str]) -> tuple[str, ...]:
    """The needs of ``left`` a card with ``icons`` covers, one icon per need."""
    pool = list(left)
    got = []
    for mark in icons:
        if mark in pool:
            pool.remove(mark)
            got.append(mark)
    return tuple(got)


class Night:
    """One game of Tidelights in progress (a :class:`cardkit.rules.protocol.State`)."""

    def __init__(self, deck: Deck, players: int, seed: int, round_limit: int = ROUND_LIMIT,
                 copy_of: Night | None = None) -> None:
        self.deck = deck
        self.players = players
        self.round_limit = round_limit
        if copy_of is not None:
            self._copy(copy_of)
            return
        # the state's own stream, made when first drawn from and shared by clones until one of them draws
        # (see _stream): copying a random.Random costs more than the rest of a clone, and after the deal
        # only the one reshuffle of the crew discards draws from it
        stream = random.Random(seed)
        self._rng: random.Random | None = stream
        self._rng_seed = 0  # the seed of a stream not made yet (_rng None)
        self._rng_shared = False  # _rng is also another state's: copy it before drawing
        everyone = (1 << players) - 1
        self.everyone = everyone
        keepers = list(range(len(deck.keepers)))
        stream.shuffle(keepers)
        self.keepers = [deck.keepers[i] for i in keepers[:players]]
        crew = deck.crew_cards()
        stream.shuffle(crew)
        self.crew_deck: list[str] = crew  # top = the end of the list
        self.crew_discard: list[str] = []
        self.reshuffled = False
        self.hands: list[list[str]] = [[] for _ in range(players)]
        for seat, keeper in enumerate(self.keepers):
            for _ in range(keeper.hand):
                if self.crew_deck:
                    self.hands[seat].append(self.crew_deck.pop())
        tide = deck.tide_cards()
        stream.shuffle(tide)
        depth = min(FINAL_DEPTH - len(deck.finals()), len(tide)) if deck.finals() else 0
        depth = max(depth, 0)
        bottom = tide[:depth] + deck.finals()
        stream.shuffle(bottom)
        # index 0 is the bottom of the deck; the bottom group may hold a final ship
        self.tide: list[Slot] = [(c, True, 0) for c in bottom] + [(c, False, 0) for c in tide[depth:]]
        self.bay: list[BayShip] = []
        self.berths: list[str | None] = [None] * len(deck.berths)
        self.berth_points: list[int] = [0] * len(deck.berths)
        self.wrecked: list[str] = []
        self.storm_discard: list[str] = []
        self.score = 0
        self.turn = 0  # turns begun, less one; the seat is turn % players
        # this turn
        self.revealed = 0
        self.storms = 0
        self.skip_guide = False
        self.lamp_used = False
        self.shift_used = False
        self.fog_until = -1  # a fog horn is sounding until the end of this turn's tide step
        self.fog_card = ""  # the crew card that sounded it
        self.storm: str | None = None  # the storm being resolved
        self.ship: str | None = None  # the ship waiting for a berth
        # what the report counts
        self.fired: set[str] = set()
        self.extra_reveals = 0
        self.ignored = 0
        self.over: GameResult | None = None
        # what happened, for the narration: a linked list of events (newest first), shared by clones
        self.log: tuple[tuple[str, ...], object] | None = None
        self.quiet = False  # records no events (a determinization: a world the search imagines, never told)
        self.kind: Kind | None = None
        self.options: tuple[Option, ...] = ()
        self._decision: Decision | None = None
        # the needs left of each ship in the bay, by ship id, as the guide step read them for its options
        # (guide_lefts() hands them out while those options are pending, to the heuristic and the play)
        self._lefts: dict[str, list[str]] = {}
        self._lefts_for: tuple[Option, ...] | None = None
        self._start_turn()
        self._settle()

    # ------------------------------------------------------------------ protocol

    @property
    def seat(self) -> int:
        return self.turn % self.players

    @property
    def decision(self) -> Decision | None:
        if self.kind is None:
            return None
        if self._decision is None:
            self._decision = Decision(self.turn % self.players, DecisionKind(self.kind), self.options, {}, True)
        return self._decision

    def apply(self, option: Option) -> None:
        if self.kind is None:
            raise ValueError("the night is over: no decision to take")
        if option not in self.options:
            raise ValueError(f"{option.text()} is not an option of the {self.kind} decision")
        self.kind, self._decision = None, None
        _HANDLERS[option.kind](self, option.value)
        self._settle()

    def clone(self) -> Night:
        if self._rng is not None:
            self._rng_shared = True  # both copies hold it now: whichever draws first copies it (_stream)
        if _NATIVE:  # compiled (mypyc): its instances have no __dict__ to copy
            return Night(self.deck, self.players, 0, self.round_limit, copy_of=self)
        new = object.__new__(Night)
        new.__dict__.update(self.__dict__)
        new._copy_piles(self)
        return new

    def _copy_piles(self, other: Night) -> None:
        """Own copies of ``other``'s mutable fields (its piles, hands, berths and fired abilities): what
        both ways of copying (:meth:`clone`'s ``__dict__`` and :meth:`_copy`) must not share."""
        self.keepers = list(other.keepers)
        self.crew_deck = list(other.crew_deck)
        self.crew_discard = list(other.crew_discard)
        self.hands = [list(h) for h in other.hands]
        self.tide = list(other.tide)
        self.bay = [s.copy() for s in other.bay]
        self.berths = list(other.berths)
        self.berth_points = list(other.berth_points)
        self.wrecked = list(other.wrecked)
        self.storm_discard = list(other.storm_discard)
        self.fired = set(other.fired)

    def _copy(self, other: Night) -> None:
        """Become a copy of ``other`` (what :meth:`clone` does by copying ``__dict__``, field by field:
        a compiled Night has no ``__dict__``; tests/test_tidelights_engine.py checks that both copy
        every field alike)."""
        self._rng, self._rng_seed, self._rng_shared = other._rng, other._rng_seed, other._rng_shared
        self.everyone = other.everyone
        self._copy_piles(other)
        self.reshuffled = other.reshuffled
        self.score, self.turn = other.score, other.turn
        self.revealed, self.storms = other.revealed, other.storms
        self.skip_guide, self.lamp_used, self.shift_used = other.skip_guide, other.lamp_used, other.shift_used
        self.fog_until, self.fog_card = other.fog_until, other.fog_card
        self.storm, self.ship = other.storm, other.ship
        self.extra_reveals, self.ignored = other.extra_reveals, other.ignored
        self.over = other.over
        self.log, self.quiet = other.log, other.quiet
        self.kind, self.options, self._decision = other.kind, other.options, other._decision
        self._lefts, self._lefts_for = other._lefts, other._lefts_for

    @property
    def rng(self) -> random.Random:
        """The state's own random stream (its future chance), this state's alone."""
        return self._stream()

    @rng.setter
    def rng(self, stream: random.Random) -> None:
        self._rng, self._rng_shared = stream, False

    def _stream(self) -> random.Random:
        stream = self._rng
        if stream is None:
            stream = self._rng = random.Random(self._rng_seed)
        elif self._rng_shared:
            mine = random.Random(0)
            mine.setstate(stream.getstate())
            stream = self._rng = mine
        self._rng_shared = False
        return stream

    def chance_outcomes(self) -> Sequence[tuple[Option, float]]:
        return ()

    def result(self) -> GameResult | None:
        return self.over

    def rounds(self) -> int:
        return self.turn // self.players + 1

    def metrics(self) -> dict[str, float]:
        return {"berthed": float(sum(b is not None for b in self.berths)), "wrecks": float(len(self.wrecked)),
                "rounds": float(self.rounds()), "extra_reveals": float(self.extra_reveals),
                "ignored": float(self.ignored), "reshuffled": 1.0 if self.reshuffled else 0.0}

    def report(self) -> GameReport:
        result = self.over if self.over is not None else self._result(End.ABANDONED, "unfinished", Result.LOSS)
        return GameReport(result=result, metrics=self.metrics(), fired=frozenset(self.fired),
                          violations=tuple(self.violations()), groups=tuple(sorted(k.id for k in self.keepers)))

    def violations(self) -> list[str]:
        found = []
        crew = Counter(self.crew_deck) + Counter(self.crew_discard)
        for hand in self.hands:
            crew.update(hand)
        for ship in self.bay:
            crew.update(c for c, _ in ship.crew)
        if crew != Counter(self.deck.crew_cards()):
            found.append(f"crew cards not conserved: {sorted((crew - Counter(self.deck.crew_cards())).elements())} "
                         f"extra, {sorted((Counter(self.deck.crew_cards()) - crew).elements())} missing")
        tide = Counter(c for c, _, _ in self.tide) + Counter(s.id for s in self.bay)
        tide.update(self.wrecked)
        tide.update(self.storm_discard)
        tide.update(b for b in self.berths if b is not None)
        if self.storm is not None:
            tide[self.storm] += 1
        expected = Counter(self.deck.tide_cards()) + Counter(self.deck.finals())
        if tide != expected:
            found.append("tide cards not conserved")
        if len(self.bay) > BAY_LIMIT:
            found.append(f"{len(self.bay)} ships in the bay (at most {BAY_LIMIT})")
        if len(self.wrecked) >= WRECK_LIMIT and self.over is None:
            found.append(f"{len(self.wrecked)} wrecks and the night goes on")
        if self.score != sum(self.berth_points):
            found.append(f"score {self.score} is not the berthed ships' {sum(self.berth_points)}")
        for berth, held in zip(self.deck.berths, self.berths):
            if held is not None and not berth.takes(self.deck.ships[held].rig):
                found.append(f"{held} berthed at {berth.id}, which does not take a {self.deck.ships[held].rig}")
        for afloat in self.bay:
            try:
                uncovered(self.deck.ships[afloat.id].needs, afloat)
            except ValueError:
                found.append(f"{afloat.id} has crew covering needs it does not have")
        return found

    def information_state(self, player: int) -> str:
        bit = 1 << player
        tide = " ".join((c if known & bit else "?") + ("^" if may else "") for c, may, known in self.tide)
        hands = " ".join(str(len(h)) for h in self.hands)
        berths = " ".join(f"{b.id}={s}" for b, s in zip(self.deck.berths, self.berths) if s is not None)
        return "\n".join([
            f"seat {player} turn {self.turn} kind {self.kind} keepers {' '.join(k.id for k in self.keepers)}",
            (f"revealed {self.revealed} storms {self.storms} skip {self.skip_guide} lamp {self.lamp_used} "
             f"shift {self.shift_used} fog {self.fog_until} storm {self.storm} ship {self.ship}"),
            f"hand {' '.join(sorted(self.hands[player]))}",
            f"hands {hands} crew deck {len(self.crew_deck)} reshuffled {self.reshuffled}",
            f"crew discard {' '.join(sorted(self.crew_discard))}",
            f"tide (bottom first) {tide}",
            f"bay {' '.join(s.text() for s in self.bay)}",
            f"berths {berths} score {self.score}",
            f"wrecked {' '.join(self.wrecked)} storms {' '.join(sorted(self.storm_discard))}",
            # the options of a decision show the decider's hand: only the decider sees them
            f"options {' '.join(o.text() for o in self.options) if player == self.seat else '(hidden)'}",
        ])

    def determinize(self, player: int, rng: random.Random) -> Night:
        """A copy with what ``player`` cannot know redealt from ``rng``: the other hands and the
        crew deck, the tide cards they have not seen (a final ship only into a slot that may hold
        it), and the state's future stream.  The redeal depends on the hidden cards as a multiset,
        never on their order, so two states the player cannot tell apart redeal alike.  The copy
        records no further events (``quiet``): the search plays it out and drops it."""
        shared = self._rng_shared
        new = self.clone()
        self._rng_shared = shared  # the copy gets a stream of its own below: this state's stays its own
        pool = list(new.crew_deck)
        for seat, hand in enumerate(new.hands):
            if seat != player:
                pool.extend(hand)
        pool.sort()  # the deal depends on what is hidden, never on its order
        rng.shuffle(pool)
        new.crew_deck = pool[:len(new.crew_deck)]
        at = len(new.crew_deck)
        for seat, hand in enumerate(new.hands):
            if seat != player:
                new.hands[seat] = pool[at:at + len(hand)]
                at += len(hand)
        bit = 1 << player
        unknown = [i for i, (_, _, known) in enumerate(new.tide) if not known & bit]
        cards = [new.tide[i][0] for i in unknown]
        finals = [c for c in cards if self.deck.ships.get(c) is not None and self.deck.ships[c].final]
        others = sorted(c for c in cards if c not in finals)
        finals.sort()
        rng.shuffle(others)
        may = [i for i in unknown if new.tide[i][1]]
        rng.shuffle(may)
        placed: dict[int, str] = dict(zip(may, finals))
        rest = iter(others)
        for i in unknown:
            card = placed.get(i) or next(rest)
            _, flag, known = new.tide[i]
            new.tide[i] = (card, flag, known)
        new._rng, new._rng_seed, new._rng_shared = None, rng.getrandbits(64), False
        new.quiet = True  # the search plays it out and drops it: its events would never be told
        if player != new.seat:
            new._refresh()  # the decider's hand was redealt: so are the options that come from it
        return new

    def _refresh(self) -> None:
        """The pending decision's options afresh from the state (after a redeal of the hands)."""
        hand = self.hands[self.seat]
        if self.kind == "guide":
            self._ask_guide()
        elif self.kind in ("discard", "slack"):
            self._ask(self.kind, [option(self.kind, c) for c in sorted(set(hand))])
        elif self.kind == "shelter":
            ropes = sorted({c for c in hand if "rope" in self.deck.crew[c].icons})
            self._ask("shelter", [option("shelter", c) for c in ropes] + [option("shelter", "no")])

    # ------------------------------------------------------------------ the turn

    def _note(self, *event: str) -> None:
        if not self.quiet:
            self.log = (event, self.log)

    def events(self) -> list[tuple[str, ...]]:
        """What happened, oldest first: (kind, card ids and numbers as text) per event."""
        out = []
        node = self.log
        while node is not None:
            event, node = node  # type: ignore[assignment]
            out.append(event)
        return out[::-1]

    def _keeper_rule(self) -> str:
        return self.keepers[self.seat].rule

    def _ask(self, kind: Kind, options: list[Option]) -> None:
        self.kind, self.options, self._decision = kind, tuple(options), None

    def _settle(self) -> None:
        """Take every decision that has one option (it is no choice), in a loop, not by recursion."""
        while self.kind is not None and len(self.options) == 1:
            only = self.options[0]
            self.kind, self._decision = None, None
            _HANDLERS[only.kind](self, only.value)

    def _result(self, end: End, reason: Reason, result: Result) -> GameResult:
        return GameResult(end=end, reason=EndReason(reason), rounds=self.rounds(),
                          seats=tuple(SeatResult(result, float(self.score)) for _ in range(self.players)))

    def _end(self, reason: Reason, result: Result = Result.LOSS, end: End = End.COMPLETE) -> None:
        if self.over is None:
            self.over = self._result(end, reason, result)
        self.kind, self.options, self._decision = None, (), None

    def _start_turn(self) -> None:
        if self.turn >= self.round_limit * self.players:
            self._end("round_limit", end=End.ABANDONED)
            return
        self.revealed = self.storms = 0
        self.skip_guide = self.lamp_used = self.shift_used = False
        if not self.quiet:
            self._note("turn", str(self.rounds()), str(self.seat), self.keepers[self.seat].id)
        if not self.tide:
            hand = self.hands[self.seat]
            if hand:
                self._ask("slack", [option("slack", c) for c in sorted(set(hand))])
            else:
                self._end_tide()
            return
        self._before_reveal()

    def _on_slack(self, crew: str) -> None:
        self._note("slack", crew)
        self.hands[self.seat].remove(crew)
        self.crew_discard.append(crew)
        self._end_tide()

    def _before_reveal(self) -> None:
        if self._keeper_rule() == "peek" and len(self.tide) > 1:
            card, may, known = self.tide[-1]
            self.tide[-1] = (card, may, known | (1 << self.seat))
            self._ask("peek", [option("peek", "top"), option("peek", "bottom")])
        else:
            self._reveal()

    def _on_peek(self, where: str) -> None:
        if where == "bottom":
            self.tide.insert(0, self.tide.pop())
            self.fired.add(self.keepers[self.seat].id)
        self._reveal()

    def _reveal(self) -> None:
        card, _, _ = self.tide.pop()
        self.revealed += 1
        if self.revealed > 1:
            self.extra_reveals += 1
        self._note("reveal", card)
        if card in self.deck.ships:
            self.bay.append(BayShip(card))
            if len(self.bay) > BAY_LIMIT:
                self._wreck(self.bay[0])
            self._after_reveal()
            return
        self.storm = card
        for ship in self.bay:
            if self.deck.ships[ship.id].rule == "weathered":
                ship.weathered = True
        if self.fog_until >= self.turn:
            self.fog_until = -1
            self.fired.add(self.fog_card)
            self._ignore(self.fog_card)
            return
        if self._keeper_rule() == "shelter":
            ropes = sorted({c for c in self.hands[self.seat] if "rope" in self.deck.crew[c].icons})
            if ropes:
                self._ask("shelter", [option("shelter", c) for c in ropes] + [option("shelter", "no")])
                return
        self._strike()

    def _ignore(self, by: str) -> None:
        assert self.storm is not None
        self._note("ignored", self.storm, by)
        self.storm_discard.append(self.storm)
        self.storm = None
        self.ignored += 1
        self._after_reveal()

    def _on_shelter(self, crew: str) -> None:
        if crew == "no":
            self._strike()
            return
        self.hands[self.seat].remove(crew)
        self.crew_discard.append(crew)
        self.fired.add(self.keepers[self.seat].id)
        self._ignore(self.keepers[self.seat].id)

    def _strike(self) -> None:
        storm = self.storm
        assert storm is not None
        self.storms += 1
        rule = self.deck.storms[storm].rule
        if rule == "discard" and self.hands[self.seat]:
            self.fired.add(storm)
            self._ask("discard", [option("discard", c) for c in sorted(set(self.hands[self.seat]))])
            return
        if rule == "fog":
            self.skip_guide = True
            self.fired.add(storm)
        elif rule == "current":
            for ship in self.bay:
                if ship.crew:
                    self.crew_discard.append(ship.crew.pop()[0])
                    self.fired.add(storm)
        elif rule == "wreck_oldest" and self.bay:
            self.fired.add(storm)
            self._wreck(self.bay[0])
        elif rule == "wreck_bare":
            for ship in [s for s in self.bay if not s.crew]:
                if ship in self.bay and self.over is None:
                    self.fired.add(storm)
                    self._wreck(ship)
        self._storm_done()

    def _on_discard(self, crew: str) -> None:
        self._note("discard", crew)
        self.hands[self.seat].remove(crew)
        self.crew_discard.append(crew)
        self._storm_done()

    def _storm_done(self) -> None:
        assert self.storm is not None
        self.storm_discard.append(self.storm)
        self.storm = None
        self._after_reveal()

    def _after_reveal(self) -> None:
        if self.over is not None:
            return
        if self.storms >= 2:
            self._end_tide(turn_over=True)
        elif self.tide:
            self.kind, self.options, self._decision = "tide", _TIDE, None
        else:
            self._end_tide()

    def _on_tide(self, what: str) -> None:
        if what == "reveal":
            self._before_reveal()
        else:
            self._end_tide()

    def _end_tide(self, turn_over: bool = False) -> None:
        if self.fog_until == self.turn:
            self.fog_until = -1
        if turn_over:
            self._next_turn()
        elif self.skip_guide:
            self._draw_step()
        else:
            self._ask_guide()

    # ------------------------------------------------------------------ wrecks

    def _wreck(self, ship: BayShip) -> None:
        at = self.bay.index(ship)
        del self.bay[at]
        self.crew_discard.extend(c for c, _ in ship.crew)
        spec = self.deck.ships[ship.id]
        if spec.rule == "second_chance":
            self._note("saved", ship.id)
            self.tide.insert(0, (ship.id, False, self.everyone))
            self.fired.add(ship.id)
            return
        self.wrecked.append(ship.id)
        self._note("wreck", ship.id)
        if spec.final:
            self._end("final_ship_wrecked")
            return
        if len(self.wrecked) >= WRECK_LIMIT:
            self._end("wrecks")
            return
        if spec.rule == "drag" and at < len(self.bay):
            self.fired.add(ship.id)
            self._wreck(self.bay[at])

    # ------------------------------------------------------------------ guide

    def _ask_guide(self) -> None:
        if self.over is not None:
            return
        seat = self.turn % self.players
        deck = self.deck
        crew, ships = deck.crew, deck.ships
        hand = tuple(sorted(set(self.hands[seat])))
        options: list[Option] = []
        lefts = {s.id: uncovered(ships[s.id].needs, s) for s in self.bay}
        # the play options onto one ship depend on the hand, the ship and its needs left alone: they are
        # worked out once per (hand, ship, needs left) and kept in the deck's bounded memo of guide steps
        memo = deck.plays
        for ship in self.bay:
            ship_id = ship.id
            left = lefts[ship_id]
            if not left:
                continue
            key = (hand, ship_id, tuple(left))
            plays = memo.get(key)
            if plays is None:
                if len(memo) >= PLAYS_LIMIT:
                    memo.clear()
                plays = memo[key] = _plays(deck, hand, ship_id, left)
            options.extend(plays)
        if self.keepers[seat].rule == "shift" and not self.shift_used:
            for src in self.bay:
                for c in sorted({c for c, _ in src.crew}):
                    for dst in self.bay:
                        left = lefts[dst.id]
                        if dst is src or not left:
                            continue
                        if crew[c].rule == "wild":
                            options.extend(option("move", c, src.id, dst.id, need) for need in sorted(set(left)))
                        elif not crew[c].marks.isdisjoint(left):
                            options.append(option("move", c, src.id, dst.id))
        for ship in self.bay:
            if len(lefts[ship.id]) == 1:
                berths, held = deck.berths, self.berths
                options.extend(option("dock", ship.id, berths[i].id) for i in deck.takers[ships[ship.id].rig]
                               if held[i] is None and berths[i].harbour_rule == "one_short")
        options.append(_END_GUIDE)
        self.kind, self.options, self._decision = "guide", tuple(options), None
        self._lefts, self._lefts_for = lefts, self.options

    def guide_lefts(self) -> dict[str, list[str]] | None:
        """The needs left of each ship in the bay (by ship id, not to be changed) as the pending guide
        decision's options were made from them; None when no guide decision's options are pending."""
        return self._lefts if self._lefts_for is self.options and self.options else None

    def _bay_ship(self, ship: str) -> BayShip:
        for afloat in self.bay:
            if afloat.id == ship:
                return afloat
        raise ValueError(f"{ship} is not in the bay")

    def _on_play(self, value: str) -> None:
        parts = _PLAY_PARTS.get(value)
        if parts is None:
            c, ship_id, *needs = value.split(":")
            parts = _PLAY_PARTS[value] = (c, ship_id, tuple(needs))
        c, ship_id, need = parts
        ship = self._bay_ship(ship_id)
        spec = self.deck.ships[ship_id]
        lefts = self.guide_lefts()  # this play is an option of the guide decision just taken
        left = lefts[ship_id] if lefts is not None else uncovered(spec.needs, ship)
        self.hands[self.turn % self.players].remove(c)
        card = self.deck.crew[c]
        covered = need if need else cover(card.icons, left)
        if need:
            self.fired.add(c)  # a wild card covers the one need chosen
        if self._keeper_rule() == "double_lamp" and not self.lamp_used and "lamp" in covered:
            rest = list(left)
            for mark in covered:
                rest.remove(mark)
            if "lamp" in rest:
                covered += ("lamp",)
                self.lamp_used = True
                self.fired.add(self.keepers[self.seat].id)
        ship.crew.append((c, covered))
        self._note("play", c, ship_id)
        if card.rule == "fog_horn":
            self.fog_until, self.fog_card = self.turn + self.players, c
        if card.rule == "pilot" and self.bay[-1] is not ship:
            self.bay.remove(ship)
            self.bay.append(ship)
            self.fired.add(c)
        self._covered(ship)

    def _on_move(self, value: str) -> None:
        c, src_id, dst_id, *need = value.split(":")
        src, dst = self._bay_ship(src_id), self._bay_ship(dst_id)
        at = max(i for i, (card, _) in enumerate(src.crew) if card == c)
        del src.crew[at]
        left = uncovered(self.deck.ships[dst_id].needs, dst)
        dst.crew.append((c, tuple(need) if need else cover(self.deck.crew[c].icons, left)))
        if need:
            self.fired.add(c)
        self.shift_used = True
        self._note("move", c, src_id, dst_id)
        self.fired.add(self.keepers[self.seat].id)
        self._covered(dst)

    def _on_dock(self, value: str) -> None:
        ship_id, berth_id = value.split(":")
        at = next(i for i, b in enumerate(self.deck.berths) if b.id == berth_id)
        self.fired.add(self.deck.berths[at].harbour)
        self._berth(self._bay_ship(ship_id), at)
        self._ask_guide()

    def _covered(self, ship: BayShip) -> None:
        """After crew came onto ``ship``: it berths if its needs are all covered and a berth takes it."""
        spec = self.deck.ships[ship.id]
        if uncovered(spec.needs, ship):
            self._ask_guide()
            return
        free = [option("berth", self.deck.berths[i].id) for i in self.deck.takers[spec.rig] if self.berths[i] is None]
        if not free:
            self._ask_guide()  # no berth takes it: it waits in the bay, covered
            return
        self.ship = ship.id
        self._ask("berth", free)

    def _on_berth(self, berth_id: str) -> None:
        assert self.ship is not None
        ship = self._bay_ship(self.ship)
        self.ship = None
        self._berth(ship, next(i for i, b in enumerate(self.deck.berths) if b.id == berth_id))
        self._ask_guide()

    def _berth(self, ship: BayShip, at: int) -> None:
        spec, berth = self.deck.ships[ship.id], self.deck.berths[at]
        self.bay.remove(ship)
        self.crew_discard.extend(c for c, _ in ship.crew)
        points = spec.cargo + berth.bonus
        if ship.weathered and spec.rule == "weathered":
            points += 1
            self.fired.add(ship.id)
        self.berths[at] = ship.id
        self.berth_points[at] = points
        self.score += points
        self._note("berth", ship.id, berth.harbour, str(points))
        if spec.final:
            self._end("final_ship_berthed", Result.WIN)
            return
        if berth.harbour_rule == "brig_draw" and spec.rig == "brig":
            self.fired.add(berth.harbour)
            for _ in range(2):
                if not self._draw():
                    return

    def _on_end(self, _: str) -> None:
        self._draw_step()

    # ------------------------------------------------------------------ draw

    def _draw(self) -> bool:
        """One crew card into the hand of the seat whose turn it is; False when the night is lost."""
        if not self.crew_deck:
            if not self.crew_discard:
                return True  # nothing to draw, nothing to shuffle: the deck has not run out of anything
            if self.reshuffled:
                self._end("crew_deck_out")
                return False
            self.reshuffled = True
            self._note("reshuffle")
            self.crew_deck, self.crew_discard = self.crew_discard, []
            self._stream().shuffle(self.crew_deck)
        self.hands[self.seat].append(self.crew_deck.pop())
        return True

    def _draw_step(self) -> None:
        want = 1 + max(0, self.revealed - 1)
        room = self.keepers[self.seat].hand - len(self.hands[self.seat])
        if min(want, room) > 0:
            self._note("draw", str(min(want, room)))
        for _ in range(min(want, room)):
            if not self._draw():
                return
        self._next_turn()

    def _next_turn(self) -> None:
        if self.over is not None:
            return
        self.turn += 1
        self._start_turn()


_END_GUIDE = option("end", "guide")
_TIDE = (option("tide", "reveal"), option("tide", "stop"))
#: whether this module runs compiled (mypyc): an extension module's ``__file__`` is not its ``.py``
_NATIVE = not __file__.endswith(".py")
#: the handler of each option kind (a guide decision has several: play, move, dock, end)
_HANDLERS = {kind: getattr(Night, "_on_" + kind)
             for kind in ("peek", "tide", "shelter", "discard", "slack", "play", "move", "dock", "berth", "end")}


#: entries of a deck's memo of play options before it starts afresh
PLAYS_LIMIT = 1 << 15


def _plays(deck: Deck, hand: Sequence[str], ship_id: str, left: Sequence[str]) -> tuple[Option, ...]:
    """The options of playing a card of ``hand`` (sorted, one id per kind of card) onto the ship with
    the needs ``left``: a card with an icon of a need covers it; a wild card covers one need of the
    player's choice (one option per need)."""
    plays: list[Option] = []
    for c in hand:
        card = deck.crew[c]
        if card.rule == "wild":
            plays.extend(option("play", c, ship_id, need) for need in sorted(set(left)))
        elif not card.marks.isdisjoint(left):
            plays.append(option("play", c, ship_id))
    return tuple(plays)


def _is_state(state: Night) -> State:
    return state  # mypy checks here that a Night is a protocol State
