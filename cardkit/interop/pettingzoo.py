"""Any cardkit engine as a PettingZoo AEC environment (``pip install 'cardkit[rl]'``).

A play loop (``docs/engines.md``, section 7, runs one on the example game)::

    e = env("path/to/project", "my-set", players=2)  # the project folder, the set, the player count
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are ``player_0`` ... ``player_{n-1}`` (the engine's seats).  An observation is a dict of
``observation`` (the table's vector, :mod:`cardkit.interop.table`) and ``action_mask`` (1 for each
legal action of the agent to act, all 0 for the others).  Chance (the deal, and an engine's chance
decisions) is drawn from the environment's own generator, seeded by ``reset(seed=...)``, so a seed
replays a game exactly.  Rewards come at the end, from the declared outcome; ``infos[agent]`` holds
``action_texts``, the names of the legal actions.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as exc:  # pragma: no cover - the runtime-only install
    raise ImportError(f"cardkit.interop.pettingzoo needs the rl extra: pip install 'cardkit[rl]' ({exc})") from exc

from cardkit.interop.table import MAX_DECISIONS, Table, open_table, seat_of, table_for
from cardkit.rules.agents import sample_chance
from cardkit.model import CardSet
from cardkit.rules.protocol import Engine, State

__all__ = ["CardkitAEC", "env", "env_for"]


class CardkitAEC(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """A PettingZoo AEC environment over one :class:`~cardkit.interop.table.Table`."""

    metadata = {"render_modes": ["ansi"], "name": "cardkit_v0", "is_parallelizable": False}

    def __init__(self, table: Table, render_mode: str | None = None) -> None:
        super().__init__()
        self.table = table
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(table.players)]
        self.agents = self.possible_agents[:]
        self.metadata = {**self.metadata, "name": f"cardkit_{table.set_id}_{table.players}p_v0"}
        n = table.observation_size
        self._spaces = {a: spaces.Dict({
            "observation": spaces.Box(low=0.0, high=np.inf, shape=(n,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(table.num_actions,), dtype=np.int8),
        }) for a in self.possible_agents}
        self._actions = {a: spaces.Discrete(table.num_actions) for a in self.possible_agents}
        self._state: State | None = None
        self._rng = np.random.default_rng()
        self._steps = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._actions[agent]

    # ------------------------------------------------------------------ play
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._rng = np.random.default_rng(seed)
        deal = int(self._rng.integers(0, 2**31 - 1))
        self._state = self.table.new_game().new_state(deal)
        self._steps = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._advance()

    def _chance_rng(self) -> Any:
        import random

        return random.Random(int(self._rng.integers(0, 2**63 - 1)))

    def _advance(self) -> None:
        """Play chance decisions until a seat must act or the game ends; then set the selection and, at
        the end, the rewards."""
        st = self._state
        assert st is not None
        while (d := st.decision) is not None and seat_of(d) is None and self._steps < MAX_DECISIONS:
            st.apply(sample_chance(st, self._chance_rng()))
            self._steps += 1
        seat = seat_of(st.decision)
        if st.decision is None or self._steps >= MAX_DECISIONS:
            stopped = st.decision is not None
            for a, r in zip(self.agents, self.table.returns(st)):
                self.rewards[a] = r
                if stopped:
                    self.truncations[a] = True
                else:
                    self.terminations[a] = True
            self._accumulate_rewards()
            self.agent_selection = self.agents[0]
            return
        assert seat is not None
        self.agent_selection = self.possible_agents[seat]
        legal = self.table.legal_actions(st)
        self.infos[self.agent_selection] = {"action_texts": [self.table.action_text(st, k) for k in legal]}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        st = self._state
        assert st is not None and action is not None
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        st.apply(self.table.option(st, int(action)))
        self._steps += 1
        self._advance()

    def observe(self, agent: str) -> dict[str, Any]:
        st = self._state
        assert st is not None
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.table.num_actions, dtype=np.int8)
        if seat_of(st.decision) == seat and agent == self.agent_selection:
            mask[self.table.legal_actions(st)] = 1
        return {"observation": np.asarray(self.table.observe(st, seat), dtype=np.float32), "action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self._state is None:
            return None
        d = self._state.decision
        return "game over" if d is None else f"{self.agent_selection} to choose ({d.kind}): " + ", ".join(
            o.text() for o in d.options)

    def close(self) -> None:
        pass


def env(root: Path | str, set_id: str, players: int, render_mode: str | None = None) -> CardkitAEC:
    """The environment of a set in the project at ``root``, played by its game's installed engine."""
    return CardkitAEC(open_table(root, set_id, players), render_mode)


def env_for(engine: Engine, card_set: CardSet, set_id: str, players: int, render_mode: str | None = None) -> CardkitAEC:
    """The environment of a given engine and card set (an engine registered in-process, a test game)."""
    return CardkitAEC(table_for(engine, card_set, set_id, players), render_mode)
