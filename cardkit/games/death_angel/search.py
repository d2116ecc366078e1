"""Search agents: determinized Monte Carlo over the action-card choice.

At each action choice the agent copies the game (:meth:`State.fork`, no
replay), and for every legal card plays ``rollouts`` games on from the copy with
the heuristic policy, then picks the card whose rollouts score best.  Every
other decision goes to its own :class:`~cardkit.games.death_angel.heuristic.Heuristic`.

``search`` never reads hidden information: before each rollout the copy is
*determinized* (:func:`determinize`): the Genestealer deck and both blip piles
are dealt again from their pooled cards, the event deck is reshuffled (cards
seen by Scouting keep their place), every location still to come is redrawn
among the unseen cards of its tier, and the dice get a new generator.  All of
it is drawn from the agent's own random stream after sorting what the players
know only as a set, so two games that differ only in hidden order get the same
decisions (``tests/engine/test_search.py``).  All options of one rollout index
share one determinization (common random numbers: the options are compared
on the same imagined futures).

``clairvoyant`` is the same search without determinization: its rollouts
see the true order of every pile and the coming dice.  It is no player; it
bounds what any player could reach (the skill ceiling).
"""

from __future__ import annotations

import random
from typing import Final, TypeVar

from cardkit.games.death_angel import kinds as K
from cardkit.games.death_angel.board import Board
from cardkit.games.death_angel.engine import State
from cardkit.games.death_angel.heuristic import Heuristic
from cardkit.games.death_angel.cards import Location
from cardkit.rules.core import Decision, Option, Rng

ROLLOUTS: Final = 8  # rollouts per option at each action choice (the default budget)
HORIZON: Final = 2  # rounds a rollout plays before the evaluation scores it (measured better than to the end)
SEARCHED: Final = (K.ACTION,)  # the decisions searched; all others: the heuristic

T = TypeVar("T")


def _below(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` (n >= 1), drawn exactly as the random module draws it (its rejection
    sampling of ``getrandbits``, as :meth:`cardkit.rules.core.Rng.below`), here in compiled code."""
    k = n.bit_length()
    r: int = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def _shuffle(items: list[T], rng: random.Random) -> None:
    """``rng.shuffle(items)``, the same permutation from the same draws (Fisher-Yates from the end):
    a search determinizes before every playout, and the random module's own shuffle is Python."""
    for i in range(len(items) - 1, 0, -1):
        j = _below(rng, i + 1)
        items[i], items[j] = items[j], items[i]


def determinize(st: Board, rng: random.Random) -> None:
    """Replace everything the players cannot know by a draw consistent with what they know."""
    # Genestealer deck and blip piles: face down, only their sizes are known
    pool = sorted(st.gs_deck + st.left + st.right, key=lambda c: c.uid)
    _shuffle(pool, rng)
    n_deck, n_left = len(st.gs_deck), len(st.left)
    st.gs_deck = pool[:n_deck]
    st.left = pool[n_deck:n_deck + n_left]
    st.right = pool[n_deck + n_left:]
    # event deck: its cards are known (all but the discard and the current card), their order is not,
    # except a card seen by Scouting, which stays where it was put
    deck = st.event_deck
    fixed = [i for i, c in enumerate(deck) if c in st.scouted]
    free = sorted(c for c in deck if c not in st.scouted)
    _shuffle(free, rng)
    it = iter(free)
    st.event_deck = [deck[i] if i in fixed else next(it) for i in range(len(deck))]
    # location deck: each card's tier is known (the setup card), which card of the tier is not
    seen = {loc.id for loc in st.past_locations}
    if st.location is not None:
        seen.add(st.location.id)
    redrawn: list[Location] = []
    for loc in st.location_deck:
        cands = [c for c in st.game.locations_by_tier.get(loc.tier, ()) if c.id not in seen]
        pick = cands[_below(rng, len(cands))]
        seen.add(pick.id)
        redrawn.append(pick)
    st.location_deck = redrawn
    # the dice: a new generator
    st.rng = Rng(rng.getrandbits(62))


def value(st: State, start_locations: int, total_locations: int) -> float:
    """A rollout's score: 1 for a win; otherwise a small credit for the
    locations reached, so that among losing lines the one that got further
    counts for more (wins are rare, and a plain 0/1 leaves most choices tied)."""
    if st.outcome is not None:
        if st.outcome.win:
            return 1.0
        return 0.1 * (st.stats.locations - start_locations) / max(1, total_locations)
    # cut off before the end: the marines still standing count too
    alive = len(st.marines())
    return 0.1 * (st.stats.locations - start_locations) / max(1, total_locations) + 0.1 * alive / max(1, alive + len(st.dead))


class Search:
    """Flat determinized Monte Carlo over the action choice (see the module)."""

    def __init__(self, seed: int = 0, rollouts: int = ROLLOUTS, clairvoyant: bool = False,
                 horizon: int = 0) -> None:
        self.seed = seed
        self.rollouts = rollouts
        self.clairvoyant = clairvoyant
        self.horizon = horizon  # rounds a rollout plays before it is scored (0: to the end)
        self.rng = random.Random(seed ^ 0x5EA5C4)
        self.policy = Heuristic(seed)

    def __call__(self, st: Board, d: Decision) -> Option:
        if d.kind not in SEARCHED or len(d.options) < 2 or not isinstance(st, State):
            return self.policy(st, d)
        n = len(d.options)
        totals = [0.0] * n
        total_locations = len(st.location_deck) + len(st.past_locations) + (1 if st.location is not None else 0)
        for _ in range(self.rollouts):
            world = self.rng.getrandbits(62)
            for k in range(n):
                copy = st.fork()
                if not self.clairvoyant:
                    determinize(copy, random.Random(world))
                copy.apply(d.options[k])
                totals[k] += self._rollout(copy, st.stats.locations, total_locations)
        # the heuristic's own pick wins ties (its order of preference is the prior)
        best = self.policy(st, d)
        best_k = next(k for k in range(n) if d.options[k] == best)
        for k in range(n):
            if totals[k] > totals[best_k] + 1e-9:
                best_k = k
        return d.options[best_k]

    def _rollout(self, st: State, start_locations: int, total_locations: int) -> float:
        stop = st.round + self.horizon if self.horizon else 1 << 30
        policy = self.policy
        while st.decision is not None and st.round < stop:
            st.apply(policy(st, st.decision))
        return value(st, start_locations, total_locations)


def search_agent(seed: int = 0, rollouts: int = ROLLOUTS, horizon: int = HORIZON) -> Search:
    return Search(seed, rollouts, clairvoyant=False, horizon=horizon)


def clairvoyant_agent(seed: int = 0, rollouts: int = ROLLOUTS, horizon: int = 0) -> Search:
    """Not a player: sees every hidden card and the coming dice (an upper bound);
    its rollouts play to the end, since it knows how the game goes on."""
    return Search(seed, rollouts, clairvoyant=True, horizon=horizon)
