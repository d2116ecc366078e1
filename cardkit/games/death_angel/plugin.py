"""Death Angel's game plugin (entry point ``cardkit.games: death-angel``).

Every hook imports its modules when called, so that ``cardkit validate`` loads
the typed views and checks, never the engine.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Mapping, Sequence

from cardkit.errors import Issue
from cardkit.plugins import GamePlugin, ManifestKeys, PlayabilityFact, Token, Ui
from cardkit.model import CardSet
from cardkit.rules.protocol import Engine


def _views(card_set: CardSet) -> CardSet:
    from cardkit.games.death_angel.cards import views

    return views(card_set)


def _checks() -> Sequence[Callable[..., list[Issue]]]:
    from cardkit.games.death_angel.checks import CHECKS

    return CHECKS


def _vocabularies() -> Mapping[str, frozenset[str]]:
    from cardkit.games.death_angel.vocabulary import EFFECTS, WIN_KINDS

    return {"effect": frozenset(EFFECTS), "win": frozenset(WIN_KINDS)}


def _effect_schema() -> str:
    from cardkit.games.death_angel.vocabulary import effect_schema_text

    return effect_schema_text()


def _manifest_schema() -> Mapping[str, object]:
    from cardkit.games.death_angel.manifest import RULES_SCHEMA

    return RULES_SCHEMA


def _manifest_keys() -> ManifestKeys:
    from cardkit.games.death_angel.manifest import COMBAT_DIE_SCHEMA, COMPONENT_SCHEMAS

    return ManifestKeys(keys={"combat_die": COMBAT_DIE_SCHEMA}, components=COMPONENT_SCHEMAS)


def _tokens(card_set: CardSet, ui: Ui) -> Sequence[Token]:
    """The support tokens the manifest counts (``components.support_tokens``), each with the support icon."""
    count = int(card_set.components.get("support_tokens", 0))
    return [Token(count, ui("tokens.support"), fill="#e9e2cf", icon="support", icon_colour="#7a1e16")]


def _engine() -> Engine:
    from cardkit.games.death_angel.rules_engine import ENGINE

    return ENGINE


def _playability(root: Path, card_set: CardSet) -> PlayabilityFact:
    """100 seeded games per player count with the heuristic agent, after the
    setup audit (the build summary words the facts in the reader's language)."""
    from cardkit.games.death_angel.facts import AuditFailed, DeathAngelFacts
    from cardkit.games.death_angel.audit import audit
    from cardkit.playtest import PlaytestRequest, run

    rules = getattr(card_set, "rules", None)
    counts = list(range(rules.min_players, rules.max_players + 1)) if rules else []
    problems = audit(card_set, counts)
    if problems:
        return AuditFailed(card_set.id, problems[0].card, problems[0].message)
    result = run(PlaytestRequest(root, card_set.id, tuple(counts), ("heuristic",), 100, seed=1, band="0,1",
                                 certify_every=0)).result.summary
    complete = all(s.completed == s.games and not s.violations for s in result.setups)
    return DeathAngelFacts(card_set.id, 100, complete, tuple((s.players, s.win_rate) for s in result.setups),
                           len(result.coverage.never_fired))


PLUGIN = GamePlugin(name="death-angel", views=_views, checks=_checks, effect_vocabularies=_vocabularies,
                    effect_schema=_effect_schema, manifest_schema=_manifest_schema, manifest_keys=_manifest_keys, tokens=_tokens, playability=_playability, engine=_engine)
