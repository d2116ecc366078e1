"""Batches are sized by what a game of each agent costs: an engine declares its own agents' costs
(the optional ``Costed`` hook: Death Angel's ``search`` is hundreds of random games), the generic
rule costs the rest (a search by its budget, anything else as random play).  The size decides which
batch plays a game, never the game: the same report for any ``--jobs`` and batch size."""

from __future__ import annotations

import json
from collections.abc import Mapping

from cardkit.playtest.agents import agent_cost, agent_costs
from cardkit.playtest.sweep import BATCH, _card_set, batch_games, plan, run_sweep, summarize
from cardkit.plugins import engine_for
from cardkit.rules.agents import expected_cost
from cardkit.rules.protocol import Costed
from tests.conftest import REPO
from tests.games.trumps.engine import PLUGIN as TRUMPS


def test_an_engine_declares_what_its_own_agents_cost():
    engine = engine_for("death-angel", "playtest")
    assert isinstance(engine, Costed)
    costs = agent_costs(engine, ["random", "heuristic", "search", "search:64", "mcts", "mcts:4", "passive"])
    assert costs["search"] == 480.0 and costs["search:64"] == 8 * costs["search"] and costs["heuristic"] == 5.0
    # names it does not declare keep the generic rule: the search agents by their budget, the rest as random play
    assert (costs["mcts"], costs["mcts:4"], costs["passive"], costs["random"]) == (
        expected_cost("mcts"), expected_cost("mcts:4"), 1.0, 1.0)
    assert batch_games("search", cost=costs["search"]) == 1 and batch_games("heuristic", cost=5.0) == 50
    assert batch_games("search") == BATCH  # what it was sized as before: random play's batch


def test_without_the_hook_an_own_agent_costs_as_random_play():
    assert TRUMPS.engine is not None
    engine = TRUMPS.engine()
    assert not isinstance(engine, Costed)
    assert agent_cost(engine, "planner") == 1.0 and agent_cost(engine, "mcts") == expected_cost("mcts")


def _cheap(self: object) -> Mapping[str, float]:
    return {"greedy": 0.2}


def test_a_declared_cost_is_at_least_one_random_game():
    """A declaration below one random game counts as one; a name it leaves out keeps the generic rule."""
    assert TRUMPS.engine is not None
    plain = TRUMPS.engine()
    e = type("Declaring", (type(plain),), {"agent_costs": _cheap})()
    assert isinstance(e, Costed)
    assert agent_cost(e, "greedy") == 1.0 and agent_cost(e, "planner") == 1.0
    assert agent_cost(e, "mcts:8") == expected_cost("mcts:8")


def test_search_batches_are_one_game_each_and_play_the_same_games(cli):
    """Death Angel's ``search`` in batches of one game (its declared cost) against one batch of all
    three (random play's size): the same merged sweep; and the command gives the same JSON for one
    process and two workers."""
    engine = engine_for("death-angel", "playtest")
    costs = agent_costs(engine, ["search", "random"])
    sized = plan(REPO, "death-angel", [1], ["search", "random"], 3, 1, costs=costs)
    generic = plan(REPO, "death-angel", [1], ["search", "random"], 3, 1)
    assert [(b.agent, b.seeds) for b in sized] == [("search", (1, 2)), ("search", (2, 3)), ("search", (3, 4)),
                                                  ("random", (1, 4))]
    assert [(b.agent, b.seeds) for b in generic] == [("search", (1, 4)), ("random", (1, 4))]
    cards = engine.abilities(_card_set(str(REPO), "death-angel"), [1])
    assert summarize(run_sweep(sized), (0.2, 0.8), cards) == summarize(run_sweep(generic), (0.2, 0.8), cards)

    def run(*args: str) -> dict:
        result = cli("playtest", "--root", str(REPO), "--format", "json", "--players", "1", "--games", "3",
                     "--agent", "search", "--agent", "random", *args)
        assert result.code in (0, 1), result.err
        out = json.loads(result.out)
        out.pop("elapsed_s")
        return out

    one, two = run("--jobs", "1"), run("--jobs", "2")
    assert one == two
    assert [(s["agent"], s["games"]) for s in one["setups"]] == [("random", 3), ("search", 3)]


def test_impact_batches_are_sized_by_the_same_costs():
    """An impact run's batches (the base games and every ablated card's) are sized by the declared
    cost too: Death Angel's ``search`` one seed a batch, where random play's size held them all."""
    from cardkit.playtest.impact import plan_impact

    engine = engine_for("death-angel", "playtest")
    cards = sorted(engine.abilities(_card_set(str(REPO), "death-angel"), [1]))[:3]
    costs = agent_costs(engine, ["search", "heuristic"])
    sized = plan_impact(REPO, "death-angel", [1], ["search", "heuristic"], 4, 1, cards, costs=costs)
    generic = plan_impact(REPO, "death-angel", [1], ["search", "heuristic"], 4, 1, cards)
    assert [b.seeds for b in sized if b.agent == "search"] == [(1, 2), (2, 3), (3, 4), (4, 5)]
    assert [b.seeds for b in generic if b.agent == "search"] == [(1, 5)]
    assert all(len(b.variants) == 3 for b in sized)  # every batch still plays each ablated card
