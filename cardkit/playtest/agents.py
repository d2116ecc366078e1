"""The agents a playtest may name for an engine: the one place the names are looked up."""

from __future__ import annotations

from collections.abc import Iterable

from cardkit.model import CardSet
from cardkit.rules.protocol import AgentFactory, Costed, Engine


def agents_for(engine: Engine, card_set: CardSet | None = None, names: Iterable[str] = ()) -> dict[str, AgentFactory]:
    """The engine's own agents by name (a game may register a heuristic, a search...), and
    the generic agents among ``names`` (``random``, ``flat-mc[:N]``, ``mcts[:N]``,
    ``clairvoyant[:N]``: :func:`cardkit.rules.agents.parse_agent`, which needs the card set).
    An unknown name among ``names`` is left out, for the caller to report."""
    from cardkit.errors import CardkitError
    from cardkit.rules.agents import parse_agent

    found = dict(engine.agents())
    if card_set is not None:
        for name in names:
            if name not in found:
                try:
                    found[name] = parse_agent(name, engine, card_set).factory
                except CardkitError:
                    continue
    return found


def ceilings(agents: dict[str, AgentFactory]) -> frozenset[str]:
    """The agents that see hidden information (a clairvoyant ceiling): shown, never judged,
    by the rule of :func:`cardkit.rules.agents.is_ceiling`."""
    from cardkit.rules.agents import is_ceiling

    return frozenset(n for n, f in agents.items() if is_ceiling(n, f))


def agent_cost(engine: Engine, name: str) -> float:
    """The expected CPU cost of one game of agent ``name``, in games of random play: what the engine
    declares for its own agents (the optional :class:`~cardkit.rules.protocol.Costed` hook), else the
    generic rule of :func:`cardkit.rules.agents.expected_cost` (a search by its budget, anything else 1)."""
    from cardkit.rules.agents import expected_cost

    declared = engine.agent_costs().get(name) if isinstance(engine, Costed) else None
    return max(1.0, float(declared)) if declared is not None else expected_cost(name)


def agent_costs(engine: Engine, names: Iterable[str]) -> dict[str, float]:
    """:func:`agent_cost` of each name: what a sweep's plan sizes its batches by."""
    return {n: agent_cost(engine, n) for n in names}
