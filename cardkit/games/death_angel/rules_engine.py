"""Death Angel's rules engine as the playtest and ``cardkit rules`` see it: the
:class:`DeathAngelEngine` of the engine protocol (:mod:`cardkit.rules.protocol`).

It declares the game (1-6 players from the set's ``rules`` section, co-operative,
hidden piles, chance drawn from the game's own stream), its metrics, its own
agents and rollout policy, and the optional hooks: the setup audit (A001-A008),
the rulebook's reference figures, narration and rule scenarios.  ``disabled``
card ids lose their ability steps (:func:`ablated`), the one place an ability
is switched off.

Not compiled (see ``cardkit/_compiled.py``): it only wires the compiled engine
to the protocol.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import fields, replace
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

from cardkit.errors import CardkitError, Issue
from cardkit.model import Card, CardSet
from cardkit.rules.protocol import (
    AgentFactory,
    Aggregate,
    ChanceMode,
    Cooperation,
    EngineInfo,
    Information,
    Metric,
    MetricKind,
    State,
)

if TYPE_CHECKING:
    from cardkit.games.death_angel.cards import DeathAngelSet
    from cardkit.games.death_angel.engine import Game

GAME: Final = "death-angel"

#: the per-game numbers of :meth:`cardkit.games.death_angel.engine.State.report`
METRICS: Final = (
    Metric("casualties", MetricKind.COUNT, Aggregate.MEAN, "metric.casualties", paired=True, share_with="survivors"),
    Metric("survivors", MetricKind.COUNT, Aggregate.MEAN, "metric.survivors"),
    Metric("locations", MetricKind.COUNT, Aggregate.HISTOGRAM, "metric.locations"),
    Metric("support_shortage", MetricKind.FLAG, Aggregate.SHARE, "metric.support_shortage"),
    Metric("reshuffles", MetricKind.COUNT, Aggregate.MEAN, "metric.reshuffles"),
)

# what the game's own material says about a game (facts dossier, rulebook flavour text)
REFERENCE: Final = {
    "solo_game_rounds": 15,  # the hand-refereed solo game of the facts dossier, won in round 15
    "mission_success": 0.44,  # rulebook flavour: "mission success 44 %"
    "casualties": 0.86,  # rulebook flavour: "casualties 86 %" of the squad
}


def ability_of(card: Card) -> tuple[object, ...]:
    """The ability steps a card record carries as data (its ``effects``, a Brood Lord's
    ``defence_modifier`` and ``killed_last`` included); empty when the card has none, or when
    its kind has no ``effects`` field."""
    names = {f.name for f in fields(card)}
    return tuple(getattr(card, "effects")) if "effects" in names else ()  # noqa: B009 (not every kind has it)


def ablated(card_set: DeathAngelSet, card_ids: Iterable[str]) -> DeathAngelSet:
    """A copy of ``card_set`` in which the cards ``card_ids`` have no ability: their effect steps
    are removed, everything else (kind, quantity, icons, spawn boxes, win condition) stays."""
    cards = dict(card_set.cards)
    for card_id in card_ids:
        card = cards.get(card_id)
        if card is None:
            raise ValueError(f"cannot switch off card '{card_id}': the set has no such card")
        if not ability_of(card):
            raise ValueError(f"cannot switch off card '{card_id}': it has no ability steps in its data")
        cards[card_id] = replace(card, effects=())  # type: ignore[call-arg]
    return replace(card_set, cards=MappingProxyType(cards))


def ability_cards(card_set: CardSet, counts: Iterable[int]) -> set[str]:
    """Cards whose ability can take effect in games at these player counts: actions,
    events, Genestealers and terrain with an ability (the Brood Lords), and the locations
    that a setup card for one of the counts deals (a location of another tier cannot appear)."""
    from cardkit.games.death_angel.cards import (
        Action,
        Event,
        Genestealer,
        Location,
        SetupCard,
        Terrain,
    )

    wanted = set(counts)
    dealt = {tier for s in card_set.of_kind(SetupCard) if set(s.players) & wanted for tier in s.deck}
    return {c.id for c in card_set.cards.values()
            if isinstance(c, (Action, Event)) or (isinstance(c, Terrain) and c.effects)
            or (isinstance(c, Genestealer) and c.effects) or (isinstance(c, Location) and c.tier in dealt)}


#: a game of each own agent in games of random play (bench/bench_agent_cost.py, pure Python, 1 and 3
#: players: heuristic 7x and 4x; search 334x and 753x, ``search`` being 8 rollouts per option, so 60
#: a rollout; clairvoyant plays the same search)
_PER_ROLLOUT = 60.0
AGENT_COSTS: Final[Mapping[str, float]] = MappingProxyType(
    {"heuristic": 5.0, "search": 8 * _PER_ROLLOUT, "clairvoyant": 8 * _PER_ROLLOUT}
    | {f"{name}:{n}": n * _PER_ROLLOUT for name in ("search", "clairvoyant") for n in (4, 16, 32, 64)})


class DeathAngelEngine:
    """The engine protocol's :class:`~cardkit.rules.protocol.Engine` for Death Angel, with the
    optional hooks :class:`~cardkit.rules.protocol.Audited`, ``Evaluated``, ``Referenced``, ``Switchable``,
    ``Narrated`` and ``Scenarios``."""

    def info(self, card_set: CardSet) -> EngineInfo:
        from cardkit.plugins import declared_players

        rules = getattr(card_set, "rules", None)
        stated = declared_players(card_set)
        # its own rules section first (what its Game enforces, E002), else the generic field
        lo, hi = (rules.min_players, rules.max_players) if rules is not None else stated or (1, 6)
        return EngineInfo(GAME, lo, hi, Cooperation.COOPERATIVE, Information.IMPERFECT, ChanceMode.SAMPLED,
                          metrics=METRICS)

    def new_game(self, card_set: CardSet, players: int, disabled: frozenset[str] = frozenset()) -> Game:
        from cardkit.games.death_angel.engine import Game

        cs = _typed(card_set)
        return Game(ablated(cs, sorted(disabled)) if disabled else cs, players)

    def abilities(self, card_set: CardSet, players: Sequence[int]) -> frozenset[str]:
        return frozenset(ability_cards(_typed(card_set), players))

    def switchable(self, card_set: CardSet, players: Sequence[int]) -> frozenset[str]:
        cs = _typed(card_set)
        return frozenset(c for c in ability_cards(cs, players) if ability_of(cs.cards[c]))

    def unswitchable_note(self) -> str:
        return "no ability steps in the card data: the engine applies this card's rule itself"

    def agents(self) -> Mapping[str, AgentFactory]:
        from cardkit.games.death_angel.agents import AGENTS

        return AGENTS

    def rollout_policy(self) -> AgentFactory | None:
        from cardkit.games.death_angel.agents import AGENTS

        return AGENTS["heuristic"]

    def agent_costs(self) -> Mapping[str, float]:
        """The Costed hook: what a game of each own agent costs in random games, so the playtest's
        batches of ``search`` are not sized as random play's (250 games a batch)."""
        return AGENT_COSTS

    # ------------------------------------------------------------ optional hooks
    def evaluate(self, state: State, seat: int) -> float:
        """The Evaluated hook: the estimated chance that the squad wins from ``state``
        (:func:`cardkit.games.death_angel.evaluation.evaluate`; every seat shares it)."""
        if not _EVALUATE:  # (imported at the first call, then kept: search asks once a playout)
            from cardkit.games.death_angel.evaluation import evaluate

            _EVALUATE.append(evaluate)
        return _EVALUATE[0](state)

    def playout_limit(self) -> int | None:
        """Generic search cuts a playout off after :data:`~cardkit.games.death_angel.evaluation.PLAYOUT_LIMIT`
        decisions and evaluates it (about two solo rounds, as the game's own ``search`` agent does)."""
        from cardkit.games.death_angel.evaluation import PLAYOUT_LIMIT

        return PLAYOUT_LIMIT

    def audit(self, card_set: CardSet, players: Sequence[int]) -> list[Issue]:
        from cardkit.games.death_angel.audit import audit

        cs = _typed(card_set)
        return [Issue(p.code, f"{p.card}: {p.message}" + (f" ({p.players} players)" if p.players else ""),
                      file=str(cs.directory)) for p in audit(cs, list(players))]

    def reference(self, card_set: CardSet, players: int) -> Mapping[str, float]:
        return REFERENCE

    def narrate(self, state: State, localizer: object, players: int, seed: int) -> Sequence[str]:
        from cardkit.games.death_angel.narrate import Narrator
        from cardkit.strings.localize import Localizer

        assert isinstance(localizer, Localizer)
        narrator = Narrator(localizer)
        events = getattr(state, "events", [])
        return [localizer.ui("play.title", players=narrator.num(players), seed=seed), *narrator.story(events)]

    def run_scenarios(self, card_set: CardSet, paths: Sequence[Path]) -> tuple[str, list[Issue], bool]:
        from cardkit.games.death_angel.scenario import render, run_scenario

        cs = _typed(card_set)
        results, problems = [], []
        for path in paths:
            try:
                results.append(run_scenario(cs, path, path.as_posix()))
            except CardkitError as exc:
                problems.extend(exc.issues)
        return render(results), list(problems), all(r.passed for r in results)


#: :func:`cardkit.games.death_angel.evaluation.evaluate` once :meth:`DeathAngelEngine.evaluate` has imported it
_EVALUATE: list[Callable[[Any], float]] = []


def _typed(card_set: CardSet) -> DeathAngelSet:
    """The Death Angel set the engine plays, as the plugin's views made it (E001 for another game's set)."""
    from cardkit.games.death_angel.cards import DeathAngelSet

    if not isinstance(card_set, DeathAngelSet) or card_set.game != GAME or card_set.rules is None:
        raise CardkitError(f"set '{getattr(card_set, 'id', card_set)}' is not a Death Angel set", code="E001")
    return card_set


ENGINE: Final = DeathAngelEngine()
