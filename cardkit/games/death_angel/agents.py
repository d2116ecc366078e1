"""Agents choose through one callback: ``agent(state, decision) -> Option``.

* ``random``: a uniformly random legal option (its own seeded stream, so games
  stay reproducible and the game's dice are untouched);
* ``passive``: always the first legal option;
* ``heuristic``: plays by a small risk model of the board
  (:mod:`~cardkit.games.death_angel.heuristic`, :mod:`~cardkit.games.death_angel.risk`), with the
  weights it trades off kept as data (:mod:`~cardkit.games.death_angel.weights`);
* ``search`` / ``search:<n>``: determinized Monte Carlo over the action choice with heuristic
  rollouts cut off after two rounds and scored, ``n`` rollouts per option (8 by default;
  :mod:`~cardkit.games.death_angel.search`);
* ``clairvoyant`` / ``clairvoyant:<n>``: the same search reading the hidden piles and the coming
  dice, an upper bound and no player.

The heuristic agent reads card behaviour from the effect kinds of the card
data, never from card names, so it plays a modified set as written.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Final

from cardkit.games.death_angel.engine import State
from cardkit.rules.core import Decision, Option, Outcome

Agent = Callable[[Any, Decision], Option]


def random_agent(seed: int) -> Agent:
    r = random.Random(seed ^ 0x5EED)

    def choose(state: object, d: Decision) -> Option:
        return d.options[r.randrange(len(d.options))]

    return choose


def passive_agent(seed: int = 0) -> Agent:
    def choose(state: object, d: Decision) -> Option:
        return d.options[0]

    return choose


AGENTS: Final[dict[str, Callable[[int], Agent]]] = {"random": random_agent, "passive": passive_agent}


def play(state: State, agent: Agent, max_steps: int = 100_000) -> Outcome | None:
    """Run a game to its end with one agent for every player."""
    steps = 0
    while state.decision is not None:
        state.apply(agent(state, state.decision))
        steps += 1
        if steps > max_steps:
            raise AssertionError("game did not finish")
    return state.outcome


def _heuristic(seed: int) -> Agent:
    from cardkit.games.death_angel.heuristic import heuristic_agent

    return heuristic_agent(seed)


AGENTS["heuristic"] = _heuristic


def _search(rollouts: int, clairvoyant: bool) -> Callable[[int], Agent]:
    def make(seed: int) -> Agent:
        from cardkit.games.death_angel.search import clairvoyant_agent, search_agent

        return clairvoyant_agent(seed, rollouts) if clairvoyant else search_agent(seed, rollouts)
    return make


# the search budget is part of the name: "search" (8 rollouts per option), "search:<n>"
AGENTS["search"] = _search(8, False)
AGENTS["clairvoyant"] = _search(8, True)  # sees hidden cards and coming dice: a ceiling, not a player
for _n in (4, 16, 32, 64):
    AGENTS[f"search:{_n}"] = _search(_n, False)
    AGENTS[f"clairvoyant:{_n}"] = _search(_n, True)
