"""Lanterns: the small scored co-operative game the playtest's outcome handling is tested on
(Hanabi-like in spirit; the card set is data: ``cards/lanterns/``).

Rules.  Three colours (red, green, blue) of ranks 1-4: three 1s, two 2s, two 3s and one 4 of
each colour, 24 cards.  Two to five players hold their hands facing outwards: each sees every
hand but their own.  Hands are four cards (two or three players) or three (four or five).  The
players share six hint tokens and three fuses.

On their turn a player does one of:

* **play** a card of their hand: it lights if it is the next rank of its colour's row (a 1 on an
  empty row, then 2, 3, 4); lighting a 4 gives a hint token back (up to six).  A card that does
  not light is discarded and burns a fuse.
* **discard** a card (only when fewer than six hint tokens are left): one token comes back.
* **hint** another player (costs a token): name a colour or a rank their hand holds; every card
  of that colour or rank in their hand is pointed out (so they also learn which are not).

After a play or a discard the player draws while the deck lasts.  Once the last card is drawn
every player, the one who drew it included, has one more turn.  The score is the number of
lit lanterns (0-12); the game also ends when all twelve are lit.  The third burnt fuse ends the
game at once: the show is lost and scores 0.

The outcome is declared as a score (``Outcome.SCORED``, range 0-12, targets 8, 10, 12); a
game that ended normally has no winner (every seat's result is a draw), a game lost to the
fuses is a loss.  ``heuristic`` plays only cards it knows will light, hints playable cards,
and discards what it knows least about: it never burns a fuse.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from cardkit.errors import CardkitError
from cardkit.games import GamePlugin
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
    Outcome,
    Result,
    SeatResult,
    State,
)

COLOURS = ("red", "green", "blue")
RANKS = (1, 2, 3, 4)
MAX_HINTS = 6
FUSES = 3
TURN = DecisionKind("turn")
FULL = (frozenset(COLOURS), frozenset(RANKS))
METRICS = (Metric("fuses", MetricKind.COUNT, Aggregate.MEAN), Metric("hints", MetricKind.COUNT, Aggregate.MEAN))

Knowledge = tuple[frozenset[str], frozenset[int]]  # the colours and ranks a card can still be, to its holder


@dataclass(frozen=True)
class Card:
    id: str
    colour: str
    rank: int
    copies: int


def cards_of(card_set: object) -> dict[str, Card]:
    out = {}
    for c in getattr(card_set, "cards", {}).values():
        f = c.fields
        out[c.id] = Card(c.id, f["colour"], f["rank"], f["copies"])
    if not out:
        raise CardkitError("the set has no lantern cards", code="E001")
    return out


def hand_size(players: int) -> int:
    return 4 if players <= 3 else 3


class LanternsState:
    __slots__ = ("_decision", "cards", "deck", "discards", "final", "fuses", "hands", "hints", "hints_given",
                 "history", "know", "lost", "n", "over", "stacks", "turn")

    def __init__(self, cards: Mapping[str, Card], players: int) -> None:
        self.cards = cards
        self.n = players
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.know: list[list[Knowledge]] = [[] for _ in range(players)]
        self.deck: list[str] = []  # the top is the end
        self.stacks = {c: 0 for c in COLOURS}
        self.discards: list[str] = []
        self.hints = MAX_HINTS
        self.fuses = 0
        self.hints_given = 0
        self.turn = 0
        self.final: int | None = None  # turns left once the deck is empty
        self.over = False
        self.lost = False
        self.history: list[str] = []
        self._decision: Decision | None = None

    # ---------------------------------------------------------------- protocol
    @property
    def decision(self) -> Decision | None:
        if self.over:
            return None
        if self._decision is None:
            self._decision = Decision(self.turn % self.n, TURN, self._options())
        return self._decision

    def _options(self) -> tuple[Option, ...]:
        seat = self.turn % self.n
        hand = self.hands[seat]
        out = [Option("play", str(i)) for i in range(len(hand))]
        if self.hints < MAX_HINTS:
            out += [Option("discard", str(i)) for i in range(len(hand))]
        if self.hints > 0:
            for k in range(1, self.n):
                p = (seat + k) % self.n
                held = [self.cards[c] for c in self.hands[p]]
                out += [Option("hint", f"{p}:{c}") for c in COLOURS if any(h.colour == c for h in held)]
                out += [Option("hint", f"{p}:{r}") for r in RANKS if any(h.rank == r for h in held)]
        return tuple(out)

    def apply(self, option: Option) -> None:
        decision = self.decision
        if decision is None:
            raise CardkitError("the game is over", code="E010")
        if option not in decision.options:
            raise CardkitError(f"{option.text()} is not a legal option", code="E011")
        self._decision = None
        seat = decision.player
        drew_last = False
        if option.kind == "hint":
            target, _, what = option.value.partition(":")
            p = int(target)
            self.hints -= 1
            self.hints_given += 1
            for j, c in enumerate(self.hands[p]):
                card, (cs, rs) = self.cards[c], self.know[p][j]
                if what in COLOURS:
                    cs = frozenset({what}) if card.colour == what else cs - {what}
                else:
                    r = int(what)
                    rs = frozenset({r}) if card.rank == r else rs - {r}
                self.know[p][j] = (cs, rs)
            self.history.append(f"{seat}:hint:{option.value}")
        else:
            i = int(option.value)
            c = self.hands[seat].pop(i)
            self.know[seat].pop(i)
            card = self.cards[c]
            if option.kind == "play" and self.stacks[card.colour] == card.rank - 1:
                self.stacks[card.colour] += 1
                if card.rank == RANKS[-1] and self.hints < MAX_HINTS:
                    self.hints += 1
                outcome = "lit"
            else:
                self.discards.append(c)
                if option.kind == "play":
                    self.fuses += 1
                    outcome = "burnt"
                else:
                    self.hints += 1
                    outcome = "dropped"
            self.history.append(f"{seat}:{option.kind}:{i}:{c}:{outcome}")
            if self.deck:
                self.hands[seat].append(self.deck.pop())
                self.know[seat].append(FULL)
                drew_last = not self.deck
        if drew_last:
            self.final = self.n
        elif self.final is not None:
            self.final -= 1
        self.turn += 1
        if self.fuses >= FUSES:
            self.over = self.lost = True
        elif sum(self.stacks.values()) == len(COLOURS) * len(RANKS) or self.final == 0:
            self.over = True

    def clone(self) -> LanternsState:
        c = LanternsState.__new__(LanternsState)
        c.cards, c.n = self.cards, self.n
        c.hands = [list(h) for h in self.hands]
        c.know = [list(k) for k in self.know]
        c.deck, c.stacks, c.discards = list(self.deck), dict(self.stacks), list(self.discards)
        c.hints, c.fuses, c.hints_given, c.turn, c.final = self.hints, self.fuses, self.hints_given, self.turn, self.final
        c.over, c.lost, c.history, c._decision = self.over, self.lost, list(self.history), self._decision
        return c

    def chance_outcomes(self) -> Sequence[tuple[Option, float]]:
        return []  # no chance after the seeded deal

    def score(self) -> int:
        return 0 if self.lost else sum(self.stacks.values())

    def result(self) -> GameResult | None:
        if not self.over:
            return None
        seat = SeatResult(Result.LOSS if self.lost else Result.DRAW, float(self.score()))
        reason = EndReason("fuses burnt" if self.lost else "all lit" if self.final is None or self.final > 0
                           else "deck out")
        return GameResult(End.COMPLETE, reason, -(-self.turn // self.n), (seat,) * self.n)

    def report(self) -> GameReport:
        result = self.result()
        assert result is not None
        return GameReport(result, {"fuses": float(self.fuses), "hints": float(self.hints_given)},
                          violations=tuple(self.violations()))

    def violations(self) -> Sequence[str]:
        lit = [c.id for c in self.cards.values() if c.rank <= self.stacks[c.colour]]
        held = [c for h in self.hands for c in h] + self.deck + self.discards + lit
        full = [c.id for c in self.cards.values() for _ in range(c.copies)]
        out = []
        if sorted(held) != sorted(full):
            out.append("cards are not conserved")
        if not 0 <= self.hints <= MAX_HINTS or not 0 <= self.fuses <= FUSES:
            out.append("tokens out of range")
        if any(len(h) != len(k) for h, k in zip(self.hands, self.know)):
            out.append("a card without its holder's knowledge")
        for h, k in zip(self.hands, self.know):
            for c, (cs, rs) in zip(h, k):
                if self.cards[c].colour not in cs or self.cards[c].rank not in rs:
                    out.append(f"a hint says {c} is not what it is")
        return out

    def _knows(self, k: Knowledge) -> str:
        return "".join(c[0] for c in COLOURS if c in k[0]) + "/" + "".join(str(r) for r in sorted(k[1]))

    def information_state(self, player: int) -> str:
        others = " ".join(f"{p}=" + ",".join(f"{c}({self._knows(k)})" for c, k in zip(self.hands[p], self.know[p]))
                          for p in range(self.n) if p != player)
        return (f"seat {player}|turn {self.turn}|hints {self.hints}|fuses {self.fuses}|final {self.final}"
                f"|stacks {sorted(self.stacks.items())}|deck {len(self.deck)}|discards {sorted(self.discards)}"
                f"|own {' '.join(self._knows(k) for k in self.know[player])}|others {others}"
                f"|seen {' '.join(self.history)}")

    def determinize(self, player: int, rng: random.Random) -> LanternsState:
        """The seat's own hand redealt from the cards it has not seen (its hand and the deck),
        each card consistent with the hints the seat was given; the rest, shuffled, is the deck."""
        c = self.clone()
        pool = sorted(c.hands[player] + c.deck)  # sorted: the copy depends on what the seat knows only
        hand = _deal(pool, c.know[player], self.cards, rng)
        rest = Counter(pool) - Counter(hand)
        c.hands[player] = hand
        c.deck = sorted(rest.elements())
        rng.shuffle(c.deck)
        c._decision = None
        return c


def _deal(pool: list[str], know: list[Knowledge], cards: Mapping[str, Card], rng: random.Random) -> list[str]:
    """A hand drawn from ``pool`` with each slot's card fitting what its holder knows (a search
    with backtracking; the true hand fits, so one exists)."""
    counts = Counter(pool)
    order = list(pool)
    rng.shuffle(order)  # the order cards are tried in: a card with more copies comes up sooner
    ranked = list(dict.fromkeys(order))
    out: list[str] = []

    def fill(j: int) -> bool:
        if j == len(know):
            return True
        cs, rs = know[j]
        for cid in ranked:
            card = cards[cid]
            if counts[cid] and card.colour in cs and card.rank in rs:
                counts[cid] -= 1
                out.append(cid)
                if fill(j + 1):
                    return True
                out.pop()
                counts[cid] += 1
        return False

    if not fill(0):
        raise CardkitError("no hand fits the hints given", code="E010")
    return out


class LanternsGame:
    def __init__(self, cards: Mapping[str, Card], players: int) -> None:
        self.cards = cards
        self.players = players

    def new_state(self, seed: int) -> State:
        st = LanternsState(self.cards, self.players)
        deck = sorted(c.id for c in self.cards.values() for _ in range(c.copies))
        random.Random(seed).shuffle(deck)
        k = hand_size(self.players)
        for p in range(self.players):
            st.hands[p] = [deck.pop() for _ in range(k)]
            st.know[p] = [FULL] * k
        st.deck = deck
        return st


def _unseen(state: LanternsState, seat: int) -> Counter[str]:
    """Copies of each card the seat has not seen anywhere (its own hand and the deck)."""
    seen = Counter(c for p in range(state.n) if p != seat for c in state.hands[p])
    seen.update(state.discards)
    seen.update(c.id for c in state.cards.values() if c.rank <= state.stacks[c.colour])
    return Counter({c.id: c.copies - seen[c.id] for c in state.cards.values() if c.copies > seen[c.id]})


def _could_be(state: LanternsState, k: Knowledge, unseen: Counter[str] | None = None) -> list[Card]:
    return [c for c in state.cards.values() if c.colour in k[0] and c.rank in k[1] and (unseen is None or unseen[c.id])]


def _lights(state: LanternsState, card: Card) -> bool:
    return state.stacks[card.colour] == card.rank - 1


def heuristic(seed: int) -> Agent:
    """The game's own agent, reading only what its seat knows: play a card sure to light; else hint
    another player's playable card they do not yet know to be playable (its rank, then its colour);
    else discard a card sure to be useless, else the one it knows least about; else any hint."""
    rng = random.Random(seed)

    def agent(state: State, decision: Decision) -> Option:
        assert isinstance(state, LanternsState)
        seat = decision.player
        legal = set(decision.options)
        unseen = _unseen(state, seat)
        mine = state.know[seat]
        sure = [i for i, k in enumerate(mine) if all(_lights(state, c) for c in _could_be(state, k, unseen))]
        if sure:
            return Option("play", str(min(sure, key=lambda i: (max(r for r in mine[i][1]), i))))
        if state.hints:
            for step in range(1, state.n):
                p = (seat + step) % state.n
                for c, k in zip(state.hands[p], state.know[p]):
                    card = state.cards[c]
                    if _lights(state, card) and not all(_lights(state, x) for x in _could_be(state, k)):
                        what = str(card.rank) if len(k[1]) > 1 else card.colour
                        return Option("hint", f"{p}:{what}")
        if Option("discard", "0") in legal:
            useless = [i for i, k in enumerate(mine)
                       if all(c.rank <= state.stacks[c.colour] for c in _could_be(state, k, unseen))]
            if useless:
                return Option("discard", str(useless[0]))
            least = min(range(len(mine)), key=lambda i: (-(len(mine[i][0]) * len(mine[i][1])), i))
            return Option("discard", str(least))
        hints = [o for o in decision.options if o.kind == "hint"]
        return hints[rng.randrange(len(hints))] if hints else decision.options[0]
    return agent


class LanternsEngine:
    def info(self, card_set: object) -> EngineInfo:
        return EngineInfo("lanterns", 2, 5, Cooperation.COOPERATIVE, Information.IMPERFECT,
                          ChanceMode.DETERMINISTIC, metrics=METRICS,
                          score_targets=(8.0, 10.0, 12.0), outcome=Outcome.SCORED,
                          score_range=(0.0, float(len(COLOURS) * len(RANKS))))

    def new_game(self, card_set: object, players: int, disabled: frozenset[str] = frozenset()) -> LanternsGame:
        if not 2 <= players <= 5:
            raise CardkitError(f"lanterns is for 2-5 players, not {players}", code="E002")
        return LanternsGame(cards_of(card_set), players)

    def abilities(self, card_set: object, players: Sequence[int]) -> frozenset[str]:
        return frozenset()  # no card has an ability

    def agents(self) -> Mapping[str, AgentFactory]:
        return {"heuristic": heuristic}

    def rollout_policy(self) -> AgentFactory | None:
        return heuristic


ENGINE = LanternsEngine()


def engine() -> LanternsEngine:
    return ENGINE


PLUGIN = GamePlugin(name="lanterns", engine=engine)  # type: ignore[arg-type]
