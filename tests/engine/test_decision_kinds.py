"""Decision kinds: every kind the engine asks is a named constant of ``kinds.ALL``,
and the heuristic answers each one by a handler or deliberately by its default; every game
ends for a reason of ``kinds.REASONS``."""

from __future__ import annotations

import re

from cardkit.games.death_angel import kinds as K
from cardkit.games.death_angel.agents import random_agent
from cardkit.games.death_angel.engine import Game
from cardkit.games.death_angel.heuristic import _BY_KIND, DEFAULTED
from cardkit.load.project import load_project
from tests.conftest import REPO

ENGINE = REPO / "cardkit" / "games" / "death_angel"
ASKING = ("board.py", "combat.py", "effects.py", "phases.py", "support.py")


def test_every_kind_is_handled_or_deliberately_defaulted():
    handled, defaulted = set(_BY_KIND), set(DEFAULTED)
    assert not handled & defaulted, f"both handled and defaulted: {sorted(handled & defaulted)}"
    missing = set(K.ALL) - handled - defaulted
    assert not missing, f"kinds the heuristic answers by accident: {sorted(missing)}"
    assert not (handled | defaulted) - set(K.ALL), "handlers for kinds the engine never asks"
    assert len(set(K.ALL)) == len(K.ALL)


def test_the_engine_asks_by_constant_and_uses_every_constant():
    used: set[str] = set()
    for name in ASKING:
        src = (ENGINE / name).read_text(encoding="utf-8")
        literal = re.findall(r'(?:\.ask|\.ask_in|\.pick_swarm|_yes_no)\((?:st, )?[^,()]+(?:\([^()]*\))?, "', src)
        assert not literal, f"{name}: a decision kind given as a string literal: {literal}"
        used |= set(re.findall(r"\bK\.([A-Z_]+)\b", src))
    assert {getattr(K, u) for u in used} == set(K.ALL)


def test_played_games_ask_only_listed_kinds():
    cards = load_project(REPO).card_set("death-angel")
    seen: set[str] = set()
    reasons: set[str] = set()
    for players in range(1, 7):
        game = Game(cards, players)
        for seed in range(40):
            st, agent = game.new_state(seed), random_agent(seed)
            while st.decision is not None:
                seen.add(st.decision.kind)
                st.apply(agent(st, st.decision))
            result = st.result()
            assert result is not None
            reasons.add(result.reason)
    assert seen <= set(K.ALL), sorted(seen - set(K.ALL))
    assert len(seen) >= 25  # the random agent reaches most of the rules code
    # every game ends for a reason of the game's own vocabulary (``kinds.Reason``)
    assert reasons <= set(K.REASONS) and "all_marines_dead" in reasons, sorted(reasons)
