"""Agents for every engine, built on the typed protocol alone (:mod:`cardkit.rules.protocol`).

Each is an :data:`~cardkit.rules.protocol.AgentFactory` (``seed -> agent``, and
the agent answers ``agent(state, decision) -> Option``), seeded with its own
random stream, never the game's:

* ``random``: a uniformly random legal option.
* ``flat-mc[:N]``: flat Monte Carlo, N playouts per option (default 20) from
  determinizations of the state, the option with the best mean value; the
  options of one round of playouts share one determinization (common random
  numbers), and with a rollout policy another option than the policy's own is
  played only where its paired difference beats 0 by more than :data:`ANCHOR`
  standard errors (a bundled co-operative game solo: ``flat-mc:6`` won 16 of 100 games where
  ``mcts`` won 10; docs/search-agent.md).
* ``mcts[:N]``: information-set Monte Carlo tree search over determinizations
  (single-observer IS-MCTS, Cowling, Powley and Whitehouse 2012): every
  iteration redeals what the deciding seat cannot see (``state.determinize``),
  walks one tree of option sequences choosing by UCB1 among the options
  available in that determinization (visits counted against availability),
  adds one node, plays out with the engine's ``rollout_policy()`` (or at
  random) and backs up the return of the seat that chose at each node.  Chance
  decisions are sampled by their ``chance_outcomes()`` probabilities from the
  agent's stream.  N is a budget of playouts (default 20) per decision.
  The choice is the most visited option; equal visits go to the better mean
  value, then (with a rollout policy) to the policy's own choice, then to the
  first option: where the returns show no difference at all (a hard game whose
  playouts all lose alike), the search plays as its policy would.  With a
  rollout policy the search is *anchored* to it: it plays another option only
  where that option's mean value beats the policy's by more than
  :data:`ANCHOR` standard errors, so that a handful of noisy playouts does not
  overrule a good policy at every minor decision.  The playouts of one
  decision cycle through :data:`WORLDS` determinizations (common random
  numbers: the options meet the same worlds), and UCB1 reads the means in the
  range of values seen in this search (MuZero's min-max normalisation), so
  that evaluations differing by hundredths still steer it.  With a
  rollout policy, its choice at a new tree node is also expanded first.  The
  policy gets no bonus in the tree beyond that: a progressive bias towards it
  (tried in d3c242d) made the search follow the policy where the policy loses
  (the example game at four players, mcts:20: 0 of 10 games won with the bias,
  6 of 10 with ties read by the mean; docs/engines.md).  A playout budget stops early once the most
  visited option leads the next by more than the playouts left (no later
  playout could change this choice; the agent's stream then deals the next
  decision's determinizations from another point, so the games differ, still
  seeded).
* ``clairvoyant[:N]``: the same search on copies of the true state (``clone``
  instead of ``determinize``): it reads hidden cards, so it is a ceiling of
  what search could reach, labelled as such and never judged as a player.

A budget is a number of playouts (``mcts:200``, the default kind: the same
seed gives the same games) or a time per decision (``mcts:50ms``, ``mcts:2s``;
results then depend on the machine).  :func:`parse_agent` reads a name; an
engine's own agents (``Engine.agents()``) come first, so a game may keep its
own ``random``.

Values: what a playout is worth to a seat, in [0, 1], is the game's declared outcome
(:func:`~cardkit.rules.protocol.outcome_value`, the one home of that rule): a scored game
(``Outcome.SCORED``) its score placed in its declared range, never win/loss alone; a won/lost
game 1 a win, 0.5 a draw, 0 a loss, and where such a game declares ``score_targets`` the seat's
score, divided by the largest target and clipped to [0, 1], is blended in with weight
:data:`SCORE_WEIGHT`, so that among equally lost (or won) games search prefers the better scores.
An engine with the optional :class:`~cardkit.rules.protocol.Evaluated` hook has its playouts cut
off after its :meth:`~cardkit.rules.protocol.Evaluated.playout_limit` decisions (counted from the
determinization: the tree's steps and the rollout's) and the cut-off state valued by its
:meth:`~cardkit.rules.protocol.Evaluated.evaluate`; without the hook a playout runs to the end
(or :data:`PLAYOUT_LIMIT` decisions, then worth 0.5).  In a co-operative game every seat shares
seat 0's value.
"""

from __future__ import annotations

import gc
import math
import random
import re
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from cardkit.errors import CardkitError
from cardkit.model import CardSet
from cardkit.rules.core import Decision, Option
from cardkit.rules.protocol import (
    CHANCE,
    Agent,
    AgentFactory,
    Cooperation,
    End,
    Engine,
    EngineInfo,
    Evaluated,
    Outcome,
    State,
    outcome_value,
)

#: share of a playout's value that the seat's score makes up where a game declares score targets
SCORE_WEIGHT = 0.2
#: UCB1's exploration constant for returns in [0, 1] (sqrt 2, as in Kocsis and Szepesvari)
EXPLORATION = math.sqrt(2)
#: a playout that has not ended after this many decisions counts as a draw (0.5)
PLAYOUT_LIMIT = 20_000
#: IS-MCTS deals this many determinizations per decision and cycles its playouts through them, so
#: that the options are compared on the same imagined worlds (common random numbers)
WORLDS = 8
#: with a rollout policy, IS-MCTS leaves the policy's choice only for an option whose mean value
#: beats the policy's by more than this many standard errors (a bundled game solo, 50 games: 0 won
#: without it, 5 with it; docs/search-agent.md)
ANCHOR = 1.0
#: playouts between two collections of young objects while a search runs (see :class:`_Paused`)
COLLECT_EVERY = 32
#: the largest budgets a name may ask for
MAX_PLAYOUTS = 1_000_000
MAX_SECONDS = 600.0

GENERIC = ("random", "flat-mc", "mcts", "clairvoyant")
#: default budgets: mcts:20 plays the example game in about 0.3-0.6 CPU s a game (bench/bench_mcts.py, 2026-12-01), a tenth of mcts:200
DEFAULT_PLAYOUTS = {"flat-mc": 20, "mcts": 20, "clairvoyant": 20}


@dataclass(frozen=True)
class Budget:
    """A search budget per decision: a number of playouts, or a time in seconds."""

    playouts: int = 0
    seconds: float = 0.0

    def __post_init__(self) -> None:
        if (self.playouts > 0) == (self.seconds > 0):
            raise ValueError("a budget is either playouts or seconds")

    def text(self) -> str:
        if self.playouts:
            return str(self.playouts)
        ms = self.seconds * 1000
        return f"{ms:g}ms" if ms < 1000 else f"{self.seconds:g}s"


_BUDGET = re.compile(r"(?P<n>\d{1,9}(?:\.\d{1,6})?)(?P<unit>ms|s)?")


def parse_budget(text: str) -> Budget:
    """``200`` playouts, ``50ms`` or ``1.5s`` per decision (tests/rules/test_agents.py; a compiled
    module has no doctests: pytest would collect its extension module beside the source)."""
    m = _BUDGET.fullmatch(text.strip())
    if m is None:
        raise ValueError(f"not a budget: {text[:20]!r} (a number of playouts such as 200, or a time such as 50ms or 2s)")
    value, unit = m.group("n"), m.group("unit")
    if unit is None:
        if "." in value or not 1 <= int(value) <= MAX_PLAYOUTS:
            raise ValueError(f"not a budget: {text[:20]!r} (playouts are a whole number from 1 to {MAX_PLAYOUTS:,})")
        return Budget(playouts=int(value))
    seconds = float(value) / (1000 if unit == "ms" else 1)
    if not 0.001 <= seconds <= MAX_SECONDS:
        raise ValueError(f"not a budget: {text[:20]!r} (a time from 1ms to {MAX_SECONDS:g}s)")
    return Budget(seconds=seconds)


# ------------------------------------------------------------------ shared pieces

def sample_chance(state: State, rng: random.Random) -> Option:
    """One outcome of the pending chance decision, drawn by its probabilities."""
    outcomes = state.chance_outcomes()
    if not outcomes:
        decision = state.decision
        assert decision is not None
        return decision.options[rng.randrange(len(decision.options))]
    x = rng.random()
    acc = 0.0
    for option, p in outcomes:
        acc += p
        if x < acc:
            return option
    return outcomes[-1][0]


class Values:
    """What a finished, or cut-off, playout is worth to each seat, in [0, 1] (the module's "Values")."""

    __slots__ = ("cooperative", "evaluator", "info", "limit", "top")

    def __init__(self, info: EngineInfo, evaluator: Evaluated | None = None) -> None:
        self.info = info
        self.cooperative = info.cooperation is Cooperation.COOPERATIVE
        scored = info.outcome is Outcome.SCORED and info.score_range is not None
        # a won/lost game's score targets make the score a secondary bonus; a scored game's score is the value
        self.top = max(info.score_targets) if info.score_targets and not scored else 0.0
        self.evaluator = evaluator
        limit = evaluator.playout_limit() if evaluator is not None else None
        #: decisions a playout plays (from its determinization) before it is cut off and evaluated
        self.limit = min(PLAYOUT_LIMIT, limit) if limit is not None and limit > 0 else PLAYOUT_LIMIT

    def left(self, steps: int) -> int:
        """Decisions a rollout may still play after ``steps`` of a playout (the tree's): up to the engine's
        cut-off where it evaluates, else :data:`PLAYOUT_LIMIT` of its own."""
        return max(0, self.limit - steps) if self.evaluator is not None else PLAYOUT_LIMIT

    def value(self, state: State, seat: int) -> float:
        """What ``state`` is worth to ``seat``: its result by the declared outcome once the game is over,
        the engine's evaluation before (0.5 without one, or for a game stopped without a result)."""
        result = state.result()
        if result is None:
            if self.evaluator is None:
                return 0.5
            v = self.evaluator.evaluate(state, 0 if self.cooperative else seat)
            return 0.5 if v != v else min(1.0, max(0.0, v))  # a NaN is worth nothing either way
        worth = outcome_value(self.info, result, seat)
        if worth is None:
            return 0.5
        if self.top > 0:
            i = 0 if self.cooperative else seat
            score = min(1.0, max(0.0, result.seats[i].score / self.top))
            worth = (1.0 - SCORE_WEIGHT) * worth + SCORE_WEIGHT * score
        return worth

    def __call__(self, state: State) -> list[float]:
        """Values of a finished game by seat (empty for an unfinished or stopped one)."""
        result = state.result()
        if result is None or result.end is not End.COMPLETE or not result.seats:
            return []
        return [self.value(state, seat) for seat in range(len(result.seats))]

    @staticmethod
    def of(values: list[float], seat: int) -> float:
        return values[seat] if 0 <= seat < len(values) else 0.5


def _rollout(state: State, policy: Agent | None, rng: random.Random, limit: int = PLAYOUT_LIMIT) -> None:
    """Play ``state`` on to its end, or for ``limit`` decisions (chance included)."""
    for _ in range(limit):
        decision = state.decision
        if decision is None:
            return
        if decision.player == CHANCE:
            state.apply(sample_chance(state, rng))
        elif policy is not None:
            state.apply(policy(state, decision))
        else:
            state.apply(decision.options[rng.randrange(len(decision.options))])


class _Clock:
    """Counts playouts, or watches the time, for one decision."""

    __slots__ = ("budget", "deadline", "done")

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.deadline = time.perf_counter() + budget.seconds if budget.seconds else 0.0
        self.done = 0

    def more(self) -> bool:
        if self.budget.playouts:
            return self.done < self.budget.playouts
        return self.done == 0 or time.perf_counter() < self.deadline


class _Paused:
    """Python's cyclic garbage collector, paused while one search runs.

    A search makes a copy of the game per playout and drops it a few hundred decisions later; an
    engine's states often hold reference cycles (a state and the generator of its rules code), so
    each copy is garbage only the cyclic collector frees.  Left to its thresholds the collector runs
    every 700 allocations, scans the copy still in play again and again and moves it into older
    generations, whose collections cost more: a quarter of a search's time on the bundled engine.
    Paused, and asked to collect the young generation every :data:`COLLECT_EVERY` playouts (the
    memory a search holds stays bounded, whatever its budget) and once at the end, it frees the same
    garbage for a fraction of the work.  Nothing a game does depends on when garbage is freed, so the
    games are the same; a collector paused by the caller stays paused."""

    __slots__ = ("paused",)

    def __init__(self) -> None:
        self.paused = gc.isenabled()
        if self.paused:
            gc.disable()

    def tick(self, done: int) -> None:
        if self.paused and done % COLLECT_EVERY == 0:
            gc.collect(0)

    def resume(self) -> None:
        if self.paused:
            self.paused = False
            gc.collect(0)
            gc.enable()


def play(state: State, seats: Sequence[Agent], rng: random.Random, limit: int = PLAYOUT_LIMIT) -> int:
    """Play ``state`` on with one agent per seat, chance drawn from ``rng`` by its
    probabilities, until the game ends or ``limit`` decisions; the decisions taken."""
    for n in range(limit):
        decision = state.decision
        if decision is None:
            return n
        if decision.player == CHANCE:
            state.apply(sample_chance(state, rng))
        else:
            state.apply(seats[decision.player](state, decision))
    return limit


# ------------------------------------------------------------------ the agents
# The agents and their factories are small classes with ``__call__`` rather than closures: compiled
# with the engine (cardkit/_compiled.py) they are native objects whose fields are C slots, and a
# factory can carry a mark such as ``clairvoyant`` (a compiled function takes no attributes).

class RandomAgent:
    """A uniformly random legal option (chance decisions by their probabilities)."""

    __slots__ = ("rng",)

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def __call__(self, state: State, decision: Decision) -> Option:
        if decision.player == CHANCE:
            return sample_chance(state, self.rng)
        return decision.options[self.rng.randrange(len(decision.options))]


def random_agent(seed: int) -> Agent:
    """A uniformly random legal option (chance decisions by their probabilities)."""
    return RandomAgent(seed)


class FlatMC:
    """Flat Monte Carlo, an :data:`~cardkit.rules.protocol.AgentFactory` (see :func:`flat_mc`)."""

    clairvoyant = False

    def __init__(self, info: EngineInfo, budget: Budget, rollout: AgentFactory | None = None,
                 evaluator: Evaluated | None = None, paired: bool = True, anchor: float = ANCHOR) -> None:
        self.values = Values(info, evaluator)
        self.budget = budget
        self.rollout = rollout
        self.paired = paired
        self.anchor = anchor

    def __call__(self, seed: int) -> Agent:
        return FlatMCAgent(self, seed)


class FlatMCAgent:
    """One seeded flat Monte Carlo player."""

    def __init__(self, spec: FlatMC, seed: int) -> None:
        self.spec = spec
        self.rng = random.Random(seed)
        self.policy: Agent | None = spec.rollout(self.rng.getrandbits(63)) if spec.rollout is not None else None

    def __call__(self, state: State, decision: Decision) -> Option:
        rng, spec, policy, values = self.rng, self.spec, self.policy, self.spec.values
        if decision.player == CHANCE:
            return sample_chance(state, rng)
        options = decision.options
        n_options = len(options)
        if n_options == 1:
            return options[0]
        me = decision.player
        budget = spec.budget
        totals = [0.0] * n_options
        seen: list[list[float]] = [[] for _ in options]
        clock = _Clock(budget if budget.seconds else Budget(playouts=budget.playouts * n_options))
        deal = 0
        left = values.left(1)
        collector = _Paused()  # (see there: the same games, less time in the garbage collector)
        try:
            while clock.more():
                i = clock.done % n_options
                if spec.paired:
                    if i == 0:
                        deal = rng.getrandbits(63)
                    world = state.determinize(me, random.Random(deal))
                else:
                    world = state.determinize(me, rng)
                world.apply(options[i])
                _rollout(world, policy, rng, left)
                v = values.value(world, me)
                totals[i] += v
                seen[i].append(v)
                clock.done += 1
                collector.tick(clock.done)
        finally:
            collector.resume()
        done = clock.done
        best = 0
        best_mean = -2.0
        for i in range(n_options):
            n = done // n_options + (1 if i < done % n_options else 0)
            mean = totals[i] / n if n else -1.0
            if mean > best_mean:  # ties to the first option
                best, best_mean = i, mean
        if spec.paired and spec.anchor > 0 and policy is not None:
            look = state.determinize(me, rng)
            own = policy(look, look.decision) if look.decision is not None else None
            k = best
            for j in range(n_options):
                if options[j] == own:
                    k = j
                    break
            if k != best and not _paired_better(seen[best], seen[k], spec.anchor):
                best = k
        return options[best]


def flat_mc(info: EngineInfo, budget: Budget, rollout: AgentFactory | None = None,
            evaluator: Evaluated | None = None, paired: bool = True, anchor: float = ANCHOR) -> AgentFactory:
    """Flat Monte Carlo: ``budget`` playouts per option (or a time shared out
    round-robin); the best mean value wins, ties to the first option.  ``evaluator``: the engine's :class:`Evaluated` hook (cut-off playouts);
    ``paired``: the options of one round share one determinization (common random numbers);
    ``anchor``: with a rollout policy and ``paired``, an option other than the policy's own is played only
    where its paired difference from the policy's beats 0 by more than ``anchor`` standard errors."""
    return FlatMC(info, budget, rollout, evaluator, paired, anchor)


class _Node:
    """One node of the IS-MCTS tree: the option that led here and its statistics."""

    __slots__ = ("available", "children", "squares", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[Option, _Node] = {}
        self.visits = 0
        self.available = 0
        self.total = 0.0
        self.squares = 0.0  # the sum of the squared values (the spread the anchor reads)


def _ucb(child: _Node, low: float, span: float) -> float:
    """UCB1 with the mean placed in the range of values this search has seen (``low``, ``span``;
    MuZero's min-max normalisation): where every playout is worth about the same (a hard game whose
    evaluations differ by hundredths) the differences still count against the exploration term."""
    mean = child.total / child.visits
    if span > 0:
        mean = (mean - low) / span
    return mean + EXPLORATION * math.sqrt(math.log(child.available) / child.visits)


def _mean(node: _Node | None) -> float:
    return node.total / node.visits if node is not None and node.visits else -1.0


def _paired_better(a: list[float], b: list[float], z: float) -> bool:
    """Are the values ``a`` above ``b``, played in the same worlds pair by pair, by more than ``z``
    standard errors of their differences?"""
    d = [x - y for x, y in zip(a, b)]
    n = len(d)
    if n < 2:
        return False
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / (n - 1)
    return mean > z * math.sqrt(var / n)


def _better(a: _Node, b: _Node, z: float) -> bool:
    """Is ``a``'s mean value above ``b``'s by more than ``z`` standard errors (Welch)?"""
    if a.visits < 2 or b.visits < 2:
        return False
    ma, mb = a.total / a.visits, b.total / b.visits
    va = max(0.0, a.squares / a.visits - ma * ma) * a.visits / (a.visits - 1)
    vb = max(0.0, b.squares / b.visits - mb * mb) * b.visits / (b.visits - 1)
    return ma - mb > z * math.sqrt(va / a.visits + vb / b.visits)


def _settled(root: _Node, left: int) -> bool:
    """Whether the most visited child of ``root`` stays the most visited whatever ``left`` more
    playouts do (it leads the next by more than that), so the search may stop here."""
    if len(root.children) < 2:
        return False
    first = second = 0
    for child in root.children.values():
        if child.visits > first:
            first, second = child.visits, first
        elif child.visits > second:
            second = child.visits
    return first - second > left


class ISMCTS:
    """Information-set MCTS, an :data:`~cardkit.rules.protocol.AgentFactory` (see :func:`ismcts`);
    ``clairvoyant`` is the playtest's mark of a ceiling."""

    def __init__(self, info: EngineInfo, budget: Budget, rollout: AgentFactory | None = None,
                 clairvoyant: bool = False, early_stop: bool = True, reuse: bool = True,
                 evaluator: Evaluated | None = None, normalize: bool = True, worlds: int = WORLDS,
                 anchor: float = ANCHOR) -> None:
        self.values = Values(info, evaluator)
        self.budget = budget
        self.rollout = rollout
        self.clairvoyant = clairvoyant
        self.early_stop = early_stop
        self.reuse = reuse
        self.normalize = normalize
        self.worlds = worlds
        self.anchor = anchor

    def __call__(self, seed: int) -> Agent:
        return ISMCTSAgent(self, seed)


class ISMCTSAgent:
    """One seeded IS-MCTS player; it keeps the subtree of its last choice (tree reuse)."""

    def __init__(self, spec: ISMCTS, seed: int) -> None:
        self.spec = spec
        self.rng = random.Random(seed)
        self.policy: Agent | None = spec.rollout(self.rng.getrandbits(63)) if spec.rollout is not None else None
        # the subtree of the last choice, its seat and what that seat would know next (tree reuse)
        self.carried: tuple[_Node, int, str] | None = None

    def __call__(self, state: State, decision: Decision) -> Option:
        spec, rng, policy = self.spec, self.rng, self.policy
        values = spec.values
        budget = spec.budget
        clairvoyant = spec.clairvoyant
        cooperative = values.cooperative
        kept, self.carried = self.carried, None
        if decision.player == CHANCE:
            return sample_chance(state, rng)
        options = decision.options
        if len(options) == 1:
            return options[0]
        me = decision.player
        root = _Node()
        clock = _Clock(budget)
        if spec.reuse and kept is not None and kept[1] == me and state.information_state(me) == kept[2]:
            root = kept[0]  # the same seat decides next, knowing just what the search foresaw
            clock.done = min(sum(c.visits for c in root.children.values()), budget.playouts or MAX_PLAYOUTS)
        first: Option | None = None  # the rollout policy's choice: the tie-break when the search found no difference
        if policy is not None:
            look = state.clone() if clairvoyant else state.determinize(me, rng)
            look_decision = look.decision
            if look_decision is not None and look_decision.player == me:
                first = policy(look, look_decision)
        low, high = 1.0, 0.0  # the range of the values backed up in this search (normalize)
        dealt = [rng.getrandbits(63) for _ in range(spec.worlds)] if spec.worlds and not clairvoyant else []
        limit = values.limit
        iteration = 0
        collector = _Paused()  # (see there: the same games, less time in the garbage collector)
        try:
            while clock.more():
                span = high - low if spec.normalize and high > low else 0.0
                if clairvoyant:
                    world = state.clone()
                elif dealt:
                    world = state.determinize(me, random.Random(dealt[iteration % len(dealt)]))
                else:
                    world = state.determinize(me, rng)
                iteration += 1
                node = root
                path: list[tuple[_Node, int]] = []
                expanded = False
                while not expanded and len(path) < limit:
                    d = world.decision
                    if d is None:
                        break
                    if d.player == CHANCE:
                        option = sample_chance(world, rng)
                        child = node.children.get(option)
                        if child is None:
                            child = node.children[option] = _Node()
                        path.append((child, CHANCE))
                    else:
                        untried: list[Option] = []
                        best: Option | None = None
                        best_value = -math.inf
                        children = node.children
                        for o in d.options:
                            c = children.get(o)
                            if c is None:
                                untried.append(o)
                            else:
                                c.available += 1
                                if not untried:
                                    v = _ucb(c, low, span)
                                    if v > best_value:
                                        best, best_value = o, v
                        if untried:
                            # the rollout policy's own choice is tried first (one call, at the new node only)
                            hint = policy(world, d) if policy is not None and len(untried) > 1 else None
                            option = hint if hint is not None and hint in untried else untried[rng.randrange(len(untried))]
                            child = children[option] = _Node()
                            child.available = 1
                            expanded = True
                        else:
                            assert best is not None
                            option, child = best, children[best]
                        path.append((child, d.player))
                    world.apply(option)
                    node = child
                _rollout(world, policy, rng, values.left(len(path)))
                worth: dict[int, float] = {}  # by seat (one shared value in a co-operative game)
                for n, seat in path:
                    n.visits += 1
                    if seat != CHANCE:
                        key = 0 if cooperative else seat
                        got = worth.get(key)
                        if got is None:
                            got = worth[key] = values.value(world, seat)
                            low, high = min(low, got), max(high, got)
                        n.total += got
                        n.squares += got * got
                clock.done += 1
                collector.tick(clock.done)
                if spec.early_stop and budget.playouts and _settled(root, budget.playouts - clock.done):
                    break
        finally:
            collector.resume()
        choice = options[0]
        best_key: tuple[int, float, bool, int] | None = None
        for i, o in enumerate(options):
            c = root.children.get(o)
            key4 = (c.visits if c is not None else 0, _mean(c), o == first, -i)
            if best_key is None or key4 > best_key:
                choice, best_key = o, key4
        if spec.anchor > 0 and first is not None and choice != first and first in root.children:
            if not _better(root.children[choice], root.children[first], spec.anchor):
                choice = first  # the search found no difference it can trust: play as the policy would
        chosen = root.children.get(choice)
        if spec.reuse and chosen is not None and chosen.children:
            # keep the chosen subtree when this seat decides next and nothing it could not foresee
            # came between (no other seat, no chance): one world shows what the seat would then know
            ahead = state.clone() if clairvoyant else state.determinize(me, rng)
            ahead.apply(choice)
            ahead_decision = ahead.decision
            if ahead_decision is not None and ahead_decision.player == me:
                self.carried = (chosen, me, ahead.information_state(me))
        return choice


def ismcts(info: EngineInfo, budget: Budget, rollout: AgentFactory | None = None,
           clairvoyant: bool = False, early_stop: bool = True, reuse: bool = True,
           evaluator: Evaluated | None = None, normalize: bool = True, worlds: int = WORLDS,
           anchor: float = ANCHOR) -> AgentFactory:
    """Single-observer information-set MCTS (see the module docstring);
    ``clairvoyant`` searches copies of the true state instead (a ceiling; the factory's
    ``clairvoyant`` attribute says so to the playtest);
    ``early_stop=False`` spends a playout budget whole (the same choice, at full cost);
    ``reuse=False`` starts every decision from an empty tree;
    ``evaluator``: the engine's :class:`Evaluated` hook (playouts cut off and evaluated);
    ``normalize``: UCB reads the means in the range of values the search has seen (else as they are);
    ``worlds``: playouts cycle through this many determinizations drawn per decision (0: a new one
    each), so that the options are compared on the same imagined worlds (common random numbers);
    ``anchor``: with a rollout policy, the search leaves the policy's choice only for an option whose
    mean value beats the policy's by more than ``anchor`` standard errors (0: whenever it is visited more)."""
    return ISMCTS(info, budget, rollout, clairvoyant, early_stop, reuse, evaluator, normalize, worlds, anchor)


# ------------------------------------------------------------------ cost

#: what one playout of a generic search agent's budget costs, in games of random play: a playout is
#: a game's tail played by the rollout policy, and a search game plays its budget at every decision
#: (an mcts:20 game measured 40x to 1,500x a random game on the bundled and test engines, compiled:
#: docs/benchmarks.md; 25 a playout makes it 500x)
PLAYOUT_COST = 25.0
#: options a flat-mc decision spreads its budget over (it plays N playouts per option)
FLAT_OPTIONS = 4
#: the cost of a game of an agent with a time budget, per second a decision: it spends its time
#: whatever the engine, so such a game is costly whatever the machine (a batch of one game)
SECOND_COST = 10_000.0


def expected_cost(name: str) -> float:
    """The expected CPU cost of one game played by the agent ``name``, in games of random play: what
    the playtest sizes its batches by (a batch holds about the same work whatever its agent).  Read
    from the name alone: a generic search agent by its budget, anything else (random, an engine's own
    agent) as one random game (tests/rules/test_agents.py)."""
    base, sep, rest = name.partition(":")
    if base not in GENERIC or base == "random":
        return 1.0
    try:
        budget = parse_budget(rest) if sep else Budget(playouts=DEFAULT_PLAYOUTS[base])
    except ValueError:
        return 1.0
    if budget.seconds:
        return max(1.0, SECOND_COST * budget.seconds)
    playouts = budget.playouts * (FLAT_OPTIONS if base == "flat-mc" else 1)
    return max(1.0, PLAYOUT_COST * playouts)


# ------------------------------------------------------------------ names

def is_ceiling(name: str, factory: object = None) -> bool:
    """Whether an agent reads hidden information (a clairvoyant ceiling: the playtest shows it
    and never judges by it): its factory says so with a ``clairvoyant = True`` attribute (as
    :func:`ismcts` marks its clairvoyant search), or its name says ``clairvoyant``.  The one home
    of the rule: :func:`parse_agent`, the playtest's agent list and its ladder all ask here.
    (Its examples are in tests/rules/test_agents.py: a compiled module carries no doctests.)"""
    return bool(getattr(factory, "clairvoyant", False)) or "clairvoyant" in name


@dataclass(frozen=True)
class AgentSpec:
    """A parsed agent name: the generic or engine agent and its budget."""

    name: str
    base: str
    budget: Budget | None
    factory: AgentFactory
    #: reads hidden cards (the clairvoyant ceiling): reported, never judged
    ceiling: bool = False


def generic_names() -> tuple[str, ...]:
    """The generic agent names with their default budgets, for listings."""
    return ("random", *(f"{b}[:N|Nms]" for b in GENERIC[1:]))


def _folded(names: Iterable[str]) -> list[str]:
    """Names with budgets folded: ``search:4`` and ``search:16`` read ``search[:4|16]``."""
    names = list(names)
    out = []
    for base in dict.fromkeys(n.split(":", 1)[0] for n in names):
        budgets = [n.split(":", 1)[1] for n in names if n.startswith(base + ":")]
        out.append(f"{base}[:{'|'.join(budgets)}]" if budgets else base)
    return out


def parse_agent(name: str, engine: Engine, card_set: CardSet) -> AgentSpec:
    """The agent a name asks for: one of ``engine.agents()`` by its exact name
    first, else a generic one (``random``, ``flat-mc[:N]``, ``mcts[:N]``,
    ``clairvoyant[:N]``, N playouts or a time such as ``50ms``).

    An unknown name is error G002 (as ever) and a bad budget G031, one line each naming
    what there is."""
    own: Mapping[str, AgentFactory] = engine.agents()
    if name in own:
        return AgentSpec(name, name, None, own[name], ceiling=is_ceiling(name, own[name]))
    base, sep, rest = name.partition(":")
    if base not in GENERIC:
        bases = {n.split(":", 1)[0] for n in own}
        known = ", ".join([*_folded(own), *(g for g in generic_names() if g.split("[", 1)[0] not in bases)])
        raise CardkitError(f"unknown agent '{name[:40]}' (agents: {known})", code="G002")
    if base == "random":
        if sep:
            raise CardkitError(f"agent '{name[:40]}': random takes no budget", code="G031")
        return AgentSpec(name, base, None, random_agent)
    try:
        budget = parse_budget(rest) if sep else Budget(playouts=DEFAULT_PLAYOUTS[base])
    except ValueError as exc:
        raise CardkitError(f"agent '{name[:40]}': {exc}", code="G031") from None
    info = engine.info(card_set)
    rollout = engine.rollout_policy()
    evaluator = engine if isinstance(engine, Evaluated) else None
    if base == "flat-mc":
        return AgentSpec(name, base, budget, flat_mc(info, budget, rollout, evaluator))
    factory = ismcts(info, budget, rollout, clairvoyant=base == "clairvoyant", evaluator=evaluator)
    return AgentSpec(name, base, budget, factory, ceiling=is_ceiling(name, factory))


def parse_agents(names: Sequence[str], engine: Engine, card_set: CardSet) -> list[AgentSpec]:
    """Every name parsed; every unknown name or bad budget reported in one error."""
    specs, problems = [], []
    for n in names:
        try:
            specs.append(parse_agent(n, engine, card_set))
        except CardkitError as exc:
            problems.extend(exc.issues)
    if problems:
        raise CardkitError(problems)
    return specs

