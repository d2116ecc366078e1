"""The agents a playtest may name for an engine: the one place the names are looked up."""

from __future__ import annotations

from cardkit.rules.protocol import AgentFactory, Engine


def agents_for(engine: Engine) -> dict[str, AgentFactory]:
    """The engine's own agents by name (a game may register a heuristic, a search...)."""
    return dict(engine.agents())


def ceilings(agents: dict[str, AgentFactory]) -> frozenset[str]:
    """The agents that see hidden information (a clairvoyant ceiling): shown, never judged.
    A factory says so with a ``clairvoyant = True`` attribute, or its name says ``clairvoyant``."""
    return frozenset(n for n, f in agents.items() if getattr(f, "clairvoyant", False) or "clairvoyant" in n)
