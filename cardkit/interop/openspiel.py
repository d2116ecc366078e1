"""Any cardkit engine as an OpenSpiel game (``pip install 'cardkit[rl]'``).

Loading one (``tests/interop`` runs ``random_sim_test`` on every bundled engine)::

    import pyspiel
    from cardkit.interop.openspiel import load

    game = load("path/to/project", "my-set", players=2)  # the project folder, the set, the player count
    pyspiel.random_sim_test(game, num_sims=10, serialize=False, verbose=False)

A cardkit game becomes a sequential OpenSpiel game with explicit chance: the deal is the first chance
node (one of :data:`~cardkit.interop.table.DEAL_SEEDS` equally likely seeds), an engine's chance
decisions are chance nodes with their listed probabilities, and an engine that draws its dice and
shuffles from its own seeded stream is deterministic once dealt.  Utility is *identical* for a
co-operative game, *zero-sum* for a two-seat competitive game won or lost, else *general-sum*;
rewards are terminal, from the declared outcome (:mod:`cardkit.interop.table`).

Observations: the observation string is the engine's ``information_state(seat)``; the information
state string adds the seat's own past actions (perfect recall of its own moves; of what it saw only as
far as the engine's text remembers it).  Both tensors are the table's vector.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

try:
    import numpy as np
    import pyspiel
except ImportError as exc:  # pragma: no cover - the runtime-only install
    raise ImportError(f"cardkit.interop.openspiel needs the rl extra: pip install 'cardkit[rl]' ({exc})") from exc

from cardkit.interop.table import DEAL_SEEDS, MAX_DECISIONS, Table, open_table, seat_of, table_for
from cardkit.model import CardSet
from cardkit.rules.protocol import CHANCE, Cooperation, Engine, Information, Outcome, State

__all__ = ["CardkitGame", "CardkitState", "load", "load_for"]


def _game_type(table: Table) -> Any:
    info = table.info
    if info.cooperation is Cooperation.COOPERATIVE:
        utility = pyspiel.GameType.Utility.IDENTICAL
    elif table.players == 2 and info.outcome is Outcome.WIN_LOSS:
        utility = pyspiel.GameType.Utility.ZERO_SUM
    else:
        utility = pyspiel.GameType.Utility.GENERAL_SUM
    return pyspiel.GameType(
        short_name=f"cardkit_{table.set_id}_{table.players}p".replace("-", "_"),
        long_name=f"cardkit {table.set_id} ({table.players} players)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(pyspiel.GameType.Information.PERFECT_INFORMATION if info.information is Information.PERFECT
                     else pyspiel.GameType.Information.IMPERFECT_INFORMATION),
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=table.players,
        min_num_players=table.players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={},
        default_loadable=False)


class CardkitGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel's stubs do not cover subclassing
    """An OpenSpiel game over one :class:`~cardkit.interop.table.Table`."""

    def __init__(self, table: Table) -> None:
        lo, hi = table.utility_range
        zero_sum = _game_type(table).utility == pyspiel.GameType.Utility.ZERO_SUM
        super().__init__(_game_type(table), pyspiel.GameInfo(
            num_distinct_actions=table.num_actions,
            max_chance_outcomes=max(DEAL_SEEDS, table.max_chance_outcomes),
            num_players=table.players,
            min_utility=lo,
            max_utility=hi,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=MAX_DECISIONS), {})
        self.table = table
        self._engine_game = table.new_game()

    def new_initial_state(self) -> CardkitState:
        return CardkitState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return Observer(self.table, recall)


class _Held:
    """The engine's state, held so that OpenSpiel's clone (a deep copy of each attribute of the Python
    state) copies it with the protocol's own ``clone`` and shares the table and the game."""

    __slots__ = ("st", "table", "game")

    def __init__(self, st: State | None, table: Table, game: Any) -> None:
        self.st, self.table, self.game = st, table, game

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(self.st.clone() if self.st is not None else None, self.table, self.game)


class CardkitState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: CardkitGame) -> None:
        super().__init__(game)
        self._held = _Held(None, game.table, game._engine_game)
        self.moves: list[list[str]] = [[] for _ in range(game.table.players)]
        self.steps = 0

    @property
    def st(self) -> State | None:
        """The engine's state (None until dealt)."""
        return self._held.st

    @property
    def _table(self) -> Table:
        return self._held.table

    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if self.st is None:
            return int(pyspiel.PlayerId.CHANCE)
        seat = seat_of(self.st.decision)
        return int(pyspiel.PlayerId.CHANCE) if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        assert self.st is not None
        return self._table.legal_actions(self.st)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        assert self.is_chance_node()
        if self.st is None:
            return [(k, 1.0 / DEAL_SEEDS) for k in range(DEAL_SEEDS)]
        return self._table.chance(self.st)

    def _apply_action(self, action: int) -> None:
        if self.st is None:
            self._held.st = self._held.game.new_state(int(action))
            return
        d = self.st.decision
        assert d is not None
        if d.player == CHANCE:
            self.st.apply(d.options[int(action)])
        else:
            option = self._table.option(self.st, int(action))
            self.moves[int(d.player)].append(option.text())
            self.st.apply(option)
        self.steps += 1

    def _action_to_string(self, player: int, action: int) -> str:
        if self.st is None:
            return f"deal:{action}"
        d = self.st.decision
        if d is not None and d.player == CHANCE and player == CHANCE:
            return d.options[int(action)].text() if 0 <= action < len(d.options) else f"chance:{action}"
        return self._table.action_text(self.st, int(action))

    def is_terminal(self) -> bool:
        return self.st is not None and (self.st.decision is None or self.steps >= MAX_DECISIONS)

    def returns(self) -> list[float]:
        if self.st is None:
            return [0.0] * self._table.players
        return self._table.returns(self.st)

    def __str__(self) -> str:
        if self.st is None:
            return "(not dealt)"
        d = self.st.decision
        return "game over" if d is None else f"seat {d.player} ({d.kind}): " + ", ".join(o.text() for o in d.options)


class Observer:
    """OpenSpiel's observer interface: ``tensor``, ``dict``, ``set_from`` and ``string_from``."""

    def __init__(self, table: Table, recall: bool) -> None:
        self.table = table
        self.recall = recall
        self.tensor = np.zeros(table.observation_size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: CardkitState, player: int) -> None:
        self.tensor[:] = 0.0 if state.st is None else self.table.observe(state.st, player)

    def string_from(self, state: CardkitState, player: int) -> str:
        if state.st is None:
            return f"seat {player}: not dealt"
        text = state.st.information_state(player)
        return f"{text} | my moves: {' '.join(state.moves[player])}" if self.recall else text


def load(root: Path | str, set_id: str, players: int) -> CardkitGame:
    """The OpenSpiel game of a set in the project at ``root``, played by its game's installed engine."""
    return CardkitGame(open_table(root, set_id, players))


def load_for(engine: Engine, card_set: CardSet, set_id: str, players: int) -> CardkitGame:
    """The OpenSpiel game of a given engine and card set (an engine registered in-process, a test game)."""
    return CardkitGame(table_for(engine, card_set, set_id, players))
