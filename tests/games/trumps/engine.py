"""Trumps: the small competitive two-seat trick-taking game the playtest's matchup-based
ladder is tested on (the card set is data: ``cards/trumps/``).

Rules.  Twenty-four cards, three suits (leaf, stone, wave) of ranks 1-8.  The deck is shuffled,
each player is dealt eight cards, hidden from the other; the next card is turned face up and its
suit is trumps for the game; the last seven stay face down, unused.  The first seat may exchange
one card of its hand for the turned card (the card given stays face up, out of play): its edge,
besides leading the first trick.

A trick: the leader plays any card, the other player follows suit if they can, else plays any
card.  The highest trump played wins the trick, else the highest card of the led suit; the
winner leads the next.  After eight tricks the player with more tricks wins; four each is a draw.
Each seat's score is its tricks.

``planner``, the game's own agent, counts the cards it has not seen: it leads a card no unseen
card can beat, else its lowest card outside trumps; it follows with the cheapest card that wins
(a trump only when it cannot follow), else throws its lowest; it takes the turned card for its
lowest card outside trumps.  It beats random play by far; the
first seat's advantage (leading first) is small.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from cardkit.errors import CardkitError
from cardkit.plugins import GamePlugin
from cardkit.rules.core import Decision, DecisionKind, EndReason, Option
from cardkit.rules.protocol import (
    Agent,
    AgentFactory,
    Aggregate,
    ChanceMode,
    Cooperation,
    End,
    EngineInfo,
    GameReport,
    GameResult,
    Information,
    Metric,
    MetricKind,
    Result,
    SeatResult,
    State,
)

HAND = 8
LEAD, FOLLOW, SWAP = DecisionKind("lead"), DecisionKind("follow"), DecisionKind("swap")
KEEP = Option("swap", "none")
LOW = 3  # the first seat may take the turned card when its rank is at most this
METRICS = (Metric("trumped", MetricKind.COUNT, Aggregate.MEAN),)


@dataclass(frozen=True)
class Card:
    id: str
    suit: str
    rank: int


def cards_of(card_set: object) -> dict[str, Card]:
    out = {c.id: Card(c.id, c.fields["suit"], c.fields["rank"]) for c in getattr(card_set, "cards", {}).values()}
    if not out:
        raise CardkitError("the set has no trumps cards", code="E001")
    return out


class TrumpsState:
    __slots__ = ("_decision", "cards", "hands", "history", "leader", "rest", "shown", "swapped", "trick", "tricks", "trump",
                 "trumped", "turned")

    def __init__(self, cards: Mapping[str, Card]) -> None:
        self.cards = cards
        self.hands: list[list[str]] = [[], []]
        self.rest: list[str] = []  # face down, out of play
        self.turned = ""  # the face-up card that names trumps
        self.shown = ""  # the card first turned up (in the first seat's hand once it was taken)
        self.trump = ""
        self.leader = 0
        self.swapped = False  # the first seat's exchange with the turned card is behind
        self.trick: list[str] = []
        self.tricks = [0, 0]
        self.trumped = 0  # tricks won by a trump on a led card of another suit
        self.history: list[str] = []
        self._decision: Decision | None = None

    @property
    def decision(self) -> Decision | None:
        if sum(self.tricks) == HAND:
            return None
        if self._decision is None and not self.swapped and self.cards[self.turned].rank <= LOW:
            self._decision = Decision(0, SWAP, (KEEP, *(Option("swap", c) for c in self.hands[0])))
        if self._decision is None:
            seat = self.leader if not self.trick else 1 - self.leader
            hand = self.hands[seat]
            if self.trick:
                led = self.cards[self.trick[0]].suit
                hand = [c for c in hand if self.cards[c].suit == led] or hand
            self._decision = Decision(seat, FOLLOW if self.trick else LEAD, tuple(Option("play", c) for c in hand))
        return self._decision

    def apply(self, option: Option) -> None:
        decision = self.decision
        if decision is None:
            raise CardkitError("the game is over", code="E010")
        if option not in decision.options:
            raise CardkitError(f"{option.text()} is not a legal option", code="E011")
        self._decision = None
        seat = decision.player
        if decision.kind == SWAP:
            self.swapped = True
            self.history.append(option.text())
            if option != KEEP:
                self.hands[0].remove(option.value)
                self.hands[0] = sorted(self.hands[0] + [self.turned])
                self.turned = option.value
            return
        self.hands[seat].remove(option.value)
        self.trick.append(option.value)
        self.history.append(f"{seat}:{option.value}")
        if len(self.trick) == 2:
            led, other = (self.cards[c] for c in self.trick)
            if other.suit == led.suit:
                winner = self.leader if led.rank > other.rank else 1 - self.leader
            elif other.suit == self.trump:
                winner = 1 - self.leader
                self.trumped += 1
            else:
                winner = self.leader
            self.tricks[winner] += 1
            self.leader, self.trick = winner, []

    def clone(self) -> TrumpsState:
        c = TrumpsState.__new__(TrumpsState)
        c.cards, c.turned, c.trump, c.leader, c.swapped = self.cards, self.turned, self.trump, self.leader, self.swapped
        c.shown = self.shown
        c.hands, c.rest, c.trick = [list(self.hands[0]), list(self.hands[1])], list(self.rest), list(self.trick)
        c.tricks, c.trumped, c.history, c._decision = list(self.tricks), self.trumped, list(self.history), self._decision
        return c

    def chance_outcomes(self) -> Sequence[tuple[Option, float]]:
        return []  # no chance after the seeded deal

    def result(self) -> GameResult | None:
        if sum(self.tricks) < HAND:
            return None
        a, b = self.tricks
        seats = tuple(SeatResult(Result.WIN if x > y else Result.LOSS if x < y else Result.DRAW, float(x))
                      for x, y in ((a, b), (b, a)))
        return GameResult(End.COMPLETE, EndReason("tricks played"), HAND, seats)

    def report(self) -> GameReport:
        result = self.result()
        assert result is not None
        return GameReport(result, {"trumped": float(self.trumped)}, violations=tuple(self.violations()))

    def violations(self) -> Sequence[str]:
        played = [h.split(":", 1)[1] for h in self.history if not h.startswith("swap:")]
        held = self.hands[0] + self.hands[1] + self.rest + [self.turned] + played
        return [] if sorted(held) == sorted(self.cards) else ["cards are not conserved"]

    def information_state(self, player: int) -> str:
        return (f"seat {player}|hand {','.join(sorted(self.hands[player]))}|other {len(self.hands[1 - player])}"
                f"|turned {self.turned}|shown {self.shown}|leader {self.leader}|tricks {self.tricks}|seen {' '.join(self.history)}")

    def determinize(self, player: int, rng: random.Random) -> TrumpsState:
        c = self.clone()
        other = 1 - player
        known = [self.shown] if self.shown in c.hands[other] else []  # taken in sight of both
        unseen = sorted(x for x in c.hands[other] + c.rest if x not in known)  # sorted: the copy depends
        rng.shuffle(unseen)  # on what the seat knows only
        n = len(c.hands[other]) - len(known)
        c.hands[other], c.rest = sorted(unseen[:n] + known), sorted(unseen[n:])
        c._decision = None
        return c


class TrumpsGame:
    players = 2

    def __init__(self, cards: Mapping[str, Card]) -> None:
        self.cards = cards

    def new_state(self, seed: int) -> State:
        st = TrumpsState(self.cards)
        deck = sorted(self.cards)
        random.Random(seed).shuffle(deck)
        st.hands = [sorted(deck[:HAND]), sorted(deck[HAND:2 * HAND])]
        st.turned = st.shown = deck[2 * HAND]
        st.trump = self.cards[st.turned].suit
        st.rest = sorted(deck[2 * HAND + 1:])
        return st


def planner(seed: int) -> Agent:
    """The game's own agent (see the module's docstring); it reads only its hand and the cards played."""

    def agent(state: State, decision: Decision) -> Option:
        assert isinstance(state, TrumpsState)
        seat, cards, trump = decision.player, state.cards, state.trump
        mine = [cards[o.value] for o in decision.options if o != KEEP]
        seen = set(state.hands[seat]) | {h.split(":", 1)[1] for h in state.history} | {state.turned}
        unseen = [c for c in cards.values() if c.id not in seen]

        def value(c: Card) -> tuple[int, int]:
            return (c.suit == trump, c.rank)
        if decision.kind == SWAP:  # give the lowest card outside trumps for the turned trump
            low = min((c for c in mine if c.suit != trump), key=value, default=None)
            return Option("swap", low.id) if low is not None else KEEP
        if decision.kind == LEAD:
            def safe(c: Card) -> bool:
                return not any(u.suit == c.suit and u.rank > c.rank for u in unseen) and (
                    c.suit == trump or not any(u.suit == trump for u in unseen))
            sure = [c for c in mine if safe(c)]
            pick = max(sure, key=value) if sure else min(mine, key=value)
            return Option("play", pick.id)
        led = cards[state.trick[0]]

        def beats(c: Card) -> bool:
            if c.suit == led.suit:
                return c.rank > led.rank
            return c.suit == trump
        wins = [c for c in mine if beats(c)]
        return Option("play", (min(wins, key=value) if wins else min(mine, key=value)).id)
    return agent


class TrumpsEngine:
    def info(self, card_set: object) -> EngineInfo:
        return EngineInfo("trumps", 2, 2, Cooperation.COMPETITIVE, Information.IMPERFECT, ChanceMode.DETERMINISTIC,
                          seats=("first", "second"), metrics=METRICS)

    def new_game(self, card_set: object, players: int, disabled: frozenset[str] = frozenset()) -> TrumpsGame:
        if players != 2:
            raise CardkitError(f"trumps is for 2 players, not {players}", code="E002")
        return TrumpsGame(cards_of(card_set))

    def abilities(self, card_set: object, players: Sequence[int]) -> frozenset[str]:
        return frozenset()  # no card has an ability

    def agents(self) -> Mapping[str, AgentFactory]:
        return {"planner": planner}

    def rollout_policy(self) -> AgentFactory | None:
        return None


ENGINE = TrumpsEngine()


def engine() -> TrumpsEngine:
    return ENGINE


PLUGIN = GamePlugin(name="trumps", engine=engine)  # type: ignore[arg-type]
