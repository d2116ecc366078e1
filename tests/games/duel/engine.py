"""Duel: the small competitive two-player game the generic agents and the
conformance suite are tested on (the card set is data: ``cards/duel/``).

Rules.  Fourteen cards, two suits (sun, moon) of ranks 1-7; the 5, 6 and 7
are worth their rank in points (36 in all).  The deck is shuffled and each
player is dealt three cards, hidden from the other; the rest is the deck,
face down.  A coin (a chance decision, 1/2 each) decides who leads first.

A trick: the leader plays any card face up, then the other player plays one,
following the led suit if they can.  The higher card of the led suit wins the
trick (a card of the other suit never wins), except that an ``ambush`` card (the
two 1s) played second to a led card of its suit worth points wins.  The trick's
winner scores the points of both cards, draws first, then the other player
draws (while the deck lasts), and leads the next trick.  After seven tricks the
winner of the last trick scores one point more, and the player with more points
wins (37 points in all: there is no draw).

Skill matters: winning a points trick cheaply, throwing a low card on a trick
one cannot win, keeping a 1 for the opponent's 7.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from cardkit.errors import CardkitError
from cardkit.plugins import GamePlugin
from cardkit.rules.core import Decision, Option
from cardkit.rules.protocol import (
    CHANCE,
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

HAND = 3
COIN = (Option("lead", "0"), Option("lead", "1"))
METRICS = (Metric("ambushes", MetricKind.COUNT, Aggregate.MEAN), Metric("margin", MetricKind.SCORE, Aggregate.MEAN))


@dataclass(frozen=True)
class Card:
    id: str
    suit: str
    rank: int
    points: int
    ambush: bool


def cards_of(card_set: object) -> dict[str, Card]:
    cards = getattr(card_set, "cards", {})
    out = {}
    for c in cards.values():
        f = c.fields
        out[c.id] = Card(c.id, f["suit"], f["rank"], f["points"], f.get("ability") == "ambush")
    if not out:
        raise CardkitError("the set has no duel cards", code="E001")
    return out


class DuelState:
    __slots__ = (
        "_decision",
        "ambushes",
        "cards",
        "deck",
        "disabled",
        "fired",
        "hands",
        "history",
        "last",
        "leader",
        "points",
        "trick",
        "tricks",
    )

    def __init__(self, cards: Mapping[str, Card], disabled: frozenset[str]) -> None:
        self.cards = cards
        self.disabled = disabled
        self.hands: list[list[str]] = [[], []]
        self.deck: list[str] = []  # the top is the end
        self.leader: int | None = None  # None: the coin is still to be tossed
        self.trick: list[str] = []  # the cards played to the current trick, leader's first
        self.points = [0, 0]
        self.tricks = 0
        self.history: list[str] = []  # what both players saw, in order
        self.fired: set[str] = set()
        self.ambushes = 0
        self.last = -1
        self._decision: Decision | None = None

    # ---------------------------------------------------------------- protocol
    @property
    def players(self) -> int:
        return 2

    @property
    def decision(self) -> Decision | None:
        if self._decision is None and self.tricks < 7:
            self._decision = self._ask()
        return self._decision

    def _ask(self) -> Decision:
        if self.leader is None:
            return Decision(CHANCE, "coin", COIN)
        seat = self.leader if not self.trick else 1 - self.leader
        hand = self.hands[seat]
        if self.trick:
            suit = self.cards[self.trick[0]].suit
            follow = [c for c in hand if self.cards[c].suit == suit]
            hand = follow or hand
        return Decision(seat, "follow" if self.trick else "lead", tuple(Option("play", c) for c in hand))

    def apply(self, option: Option) -> None:
        decision = self.decision
        if decision is None:
            raise CardkitError("the game is over", code="E010")
        if option not in decision.options:
            raise CardkitError(f"{option.text()} is not a legal option", code="E011")
        self._decision = None
        if decision.player == CHANCE:
            self.leader = int(option.value)
            self.history.append(f"coin:{option.value}")
            return
        seat = decision.player
        self.hands[seat].remove(option.value)
        self.trick.append(option.value)
        self.history.append(f"{seat}:{option.value}")
        if len(self.trick) == 2:
            self._score()

    def _score(self) -> None:
        assert self.leader is not None
        led, second = (self.cards[c] for c in self.trick)
        if second.suit != led.suit:
            winner = self.leader
        elif second.ambush and led.points and second.id not in self.disabled:
            winner = 1 - self.leader
            self.fired.add(second.id)
            self.ambushes += 1
        else:
            winner = self.leader if led.rank > second.rank else 1 - self.leader
        self.points[winner] += led.points + second.points
        self.tricks += 1
        self.trick = []
        self.leader = winner
        self.last = winner
        for seat in (winner, 1 - winner):
            if self.deck:
                self.hands[seat].append(self.deck.pop())
                self.hands[seat].sort()
        if self.tricks == 7:
            self.points[winner] += 1

    def clone(self) -> DuelState:
        c = type(self).__new__(type(self))
        c.cards, c.disabled = self.cards, self.disabled
        c.hands = [list(self.hands[0]), list(self.hands[1])]
        c.deck = list(self.deck)
        c.leader, c.trick, c.points = self.leader, list(self.trick), list(self.points)
        c.tricks, c.history, c.fired = self.tricks, list(self.history), set(self.fired)
        c.ambushes, c.last, c._decision = self.ambushes, self.last, self._decision
        return c

    def chance_outcomes(self) -> Sequence[tuple[Option, float]]:
        d = self.decision
        return [(o, 0.5) for o in COIN] if d is not None and d.player == CHANCE else []

    def result(self) -> GameResult | None:
        if self.tricks < 7:
            return None
        a, b = self.points
        seats = tuple(SeatResult(Result.WIN if mine > theirs else Result.LOSS if mine < theirs else Result.DRAW, mine)
                      for mine, theirs in ((a, b), (b, a)))
        return GameResult(End.COMPLETE, "tricks", self.tricks, seats)

    def report(self) -> GameReport:
        result = self.result()
        assert result is not None
        return GameReport(result, {"ambushes": float(self.ambushes), "margin": float(abs(self.points[0] - self.points[1]))},
                          frozenset(self.fired), tuple(self.violations()))

    def violations(self) -> Sequence[str]:
        held = self.hands[0] + self.hands[1] + self.deck + self.trick
        played = [h.split(":", 1)[1] for h in self.history if not h.startswith("coin:")]
        gone = [c for c in played if c not in self.trick]
        if sorted(held + gone) != sorted(self.cards):
            return ["cards are not conserved"]
        return []

    def information_state(self, player: int) -> str:
        return (f"seat {player}|hand {','.join(self.hands[player])}|other {len(self.hands[1 - player])}"
                f"|deck {len(self.deck)}|leader {self.leader}|points {self.points}|seen {' '.join(self.history)}")

    def determinize(self, player: int, rng: random.Random) -> DuelState:
        c = self.clone()
        other = 1 - player
        unseen = sorted(c.hands[other] + c.deck)
        rng.shuffle(unseen)
        n = len(c.hands[other])
        c.hands[other] = sorted(unseen[:n])
        c.deck = unseen[n:]
        c._decision = None
        return c


class DuelGame:
    state_class: type[DuelState] = DuelState  # the conformance tests deal broken states through it

    def __init__(self, cards: Mapping[str, Card], disabled: frozenset[str]) -> None:
        self.cards = cards
        self.disabled = disabled

    @property
    def players(self) -> int:
        return 2

    def new_state(self, seed: int) -> State:
        st = self.state_class(self.cards, self.disabled)
        deck = sorted(self.cards)
        random.Random(seed).shuffle(deck)
        st.hands = [sorted(deck[:HAND]), sorted(deck[HAND:2 * HAND])]
        st.deck = deck[2 * HAND:]
        return st


def greedy(seed: int) -> Agent:
    """The game's own agent: lead the lowest card; follow with the lowest card that wins, else the lowest
    (the coin, when it is asked to toss it, from its own stream)."""
    rng = random.Random(seed)

    def agent(state: State, decision: Decision) -> Option:
        assert isinstance(state, DuelState)
        if decision.player == CHANCE:
            return decision.options[rng.randrange(len(decision.options))]
        rank = {o: state.cards[o.value].rank for o in decision.options}
        if decision.kind == "follow":
            led = state.cards[state.trick[0]]
            wins = [o for o in decision.options if state.cards[o.value].suit == led.suit and rank[o] > led.rank]
            if wins:
                return min(wins, key=lambda o: rank[o])
        return min(decision.options, key=lambda o: rank[o])
    return agent


class DuelEngine:
    def info(self, card_set: object) -> EngineInfo:
        return EngineInfo("duel", 2, 2, Cooperation.COMPETITIVE, Information.IMPERFECT, ChanceMode.EXPLICIT,
                          seats=("first", "second"), metrics=METRICS)

    def new_game(self, card_set: object, players: int, disabled: frozenset[str] = frozenset()) -> DuelGame:
        if players != 2:
            raise CardkitError(f"duel is for 2 players, not {players}", code="E002")
        return DuelGame(cards_of(card_set), disabled)

    def abilities(self, card_set: object, players: Sequence[int]) -> frozenset[str]:
        return frozenset(c.id for c in cards_of(card_set).values() if c.ambush)

    def agents(self) -> Mapping[str, AgentFactory]:
        return {"greedy": greedy}

    def rollout_policy(self) -> AgentFactory | None:
        return None

    # the optional Evaluated hook: generic search plays PLAYOUT_LIMIT decisions, then reads the points
    def evaluate(self, state: State, seat: int) -> float:
        """A seat's chance of winning read from the points: decided once one side has more than half of the 37,
        else the lead measured against the points still to play for."""
        assert isinstance(state, DuelState)
        mine, theirs = state.points[seat], state.points[1 - seat]
        left = 37 - mine - theirs
        return min(1.0, max(0.0, 0.5 + 0.5 * (mine - theirs) / (left + 1)))

    def playout_limit(self) -> int | None:
        return PLAYOUT_LIMIT


#: decisions generic search plays before it evaluates a playout (three tricks of the fourteen cards)
PLAYOUT_LIMIT = 6

ENGINE = DuelEngine()


def engine() -> DuelEngine:
    return ENGINE


# hooks are module functions, so a worker process started fresh (cardkit.workers) can be sent it
PLUGIN = GamePlugin(name="duel", engine=engine)  # type: ignore[arg-type]
