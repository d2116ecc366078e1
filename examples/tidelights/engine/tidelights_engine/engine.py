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
from tidelights_engine.cards import Deck, ability_cards, read_deck
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

    def narrate(self, state: State, localizer: object, players: int, seed: int) -> Sequence[str]:
        """``cardkit rules play``: the night told in the reader's language (the Narrated hook)."""
        from tidelights_engine.narrate import story

        assert isinstance(state, Night)
        return story(state, localizer, players, seed)


def engine() -> Engine:
    """The plugin's ``engine`` hook."""
    return TidelightsEngine()
