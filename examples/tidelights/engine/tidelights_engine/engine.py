"""Tidelights' :class:`cardkit.rules.protocol.Engine`: the static facts, the game per player
count and the switched-off abilities, the game's own agent and its rollout policy."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from cardkit.plugins import declared_players
from cardkit.model import CardSet
from cardkit.rules.protocol import (
    AgentFactory,
    Aggregate,
    ChanceMode,
    Cooperation,
    Engine,
    EngineInfo,
    Information,
    Metric,
    MetricKind,
    State,
)
from tidelights_engine.cards import WRECK_LIMIT, Deck, ability_cards, read_deck
from tidelights_engine.state import Night

GAME = "tidelights"
#: the rules' player range (README: "for 1-4 players"); fewer keepers in a set lower the top
PLAYERS = (1, 4)
#: the README's "15 is a fair night, 20 a good one, 25 a legend"
SCORE_TARGETS = (15.0, 20.0, 25.0)

#: per-game numbers the playtest tallies; each label is an id of the set's strings.yaml
METRICS = (
    Metric("berthed", MetricKind.COUNT, Aggregate.HISTOGRAM, "metric.berthed"),
    Metric("wrecks", MetricKind.COUNT, Aggregate.MEAN, "metric.wrecks"),
    Metric("rounds", MetricKind.COUNT, Aggregate.MEAN, "metric.rounds"),
    Metric("extra_reveals", MetricKind.COUNT, Aggregate.MEAN, "metric.extra_reveals"),
    Metric("ignored", MetricKind.COUNT, Aggregate.MEAN, "metric.ignored"),
    Metric("reshuffled", MetricKind.FLAG, Aggregate.SHARE, "metric.reshuffled"),
)


@dataclass(frozen=True)
class TidelightsGame:
    """The set at one player count with some abilities switched off: deals seeded nights."""

    deck: Deck
    players: int

    def new_state(self, seed: int) -> Night:
        return Night(self.deck, self.players, seed)


class TidelightsEngine:
    """The rules engine the ``tidelights`` plugin hands out."""

    def info(self, card_set: CardSet) -> EngineInfo:
        """The player range is the one ``set.yaml`` states (``players: {min, max}``), else the rules'
        1-4, never more than the set has keepers (one each)."""
        low, high = declared_players(card_set) or PLAYERS
        high = max(low, min(high, len(read_deck(card_set).keepers)))
        return EngineInfo(game=GAME, min_players=low, max_players=high,
                          cooperation=Cooperation.COOPERATIVE, information=Information.IMPERFECT,
                          chance=ChanceMode.SAMPLED, metrics=METRICS, score_targets=SCORE_TARGETS)

    def new_game(self, card_set: CardSet, players: int, disabled: frozenset[str] = frozenset()) -> TidelightsGame:
        info = self.info(card_set)
        if not info.min_players <= players <= info.max_players:
            raise ValueError(f"Tidelights is for {info.min_players}-{info.max_players} players, not {players}")
        return TidelightsGame(read_deck(card_set, frozenset(disabled)), players)

    def abilities(self, card_set: CardSet, players: Sequence[int]) -> frozenset[str]:
        # keepers are dealt at random, so every card's rule can take effect at every player count
        return ability_cards(card_set) if players else frozenset()

    def agents(self) -> Mapping[str, AgentFactory]:
        from tidelights_engine.agents import keeper_agent

        return {"heuristic": keeper_agent}

    def rollout_policy(self) -> AgentFactory | None:
        from tidelights_engine.agents import keeper_agent

        return keeper_agent

    # the optional Evaluated hook (cardkit.rules.protocol.Evaluated)
    def evaluate(self, state: State, seat: int) -> float:
        """What an unfinished night is worth, on the scale generic search values a finished one
        (a won/lost game with score targets: 0.8 the win, 0.2 the score over the top target): the
        win read as the ships still safe from the wreck limit times the share of the tide deck
        already played through, the score as it stands.  A hand-made estimate, not a fitted one."""
        assert isinstance(state, Night)
        total = len(state.deck.tide_cards()) + len(state.deck.finals())
        played = 1.0 - len(state.tide) / max(1, total)
        safe = 1.0 - len(state.wrecked) / WRECK_LIMIT
        win = safe * (0.25 + 0.75 * played)
        return min(1.0, max(0.0, 0.8 * win + 0.2 * min(1.0, state.score / SCORE_TARGETS[-1])))

    def playout_limit(self) -> int | None:
        """None: a night is short (about 45 decisions at one player), so search plays its playouts to
        the end (measured in docs/benchmarks.md); :meth:`evaluate` values only a playout stopped
        by search's own bound."""
        return None

    def narrate(self, state: State, localizer: object, players: int, seed: int) -> Sequence[str]:
        """``cardkit rules play``: the night told in the reader's language (the Narrated hook)."""
        from tidelights_engine.narrate import story

        assert isinstance(state, Night)
        return story(state, localizer, players, seed)


def engine() -> Engine:
    """The plugin's ``engine`` hook."""
    return TidelightsEngine()
