"""The conformance suite (cardkit/rules/conformance.py): the competitive test
game conforms, and each check finds the breakage it is for, in a copy of the
test game broken in that one way; the CLI command driven in-process with the
test game registered through the plugin registry (cardkit.plugins.register)."""

from __future__ import annotations

import json

import random
import shutil
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any

import pytest

from cardkit.plugins import GamePlugin, register, unregister
from cardkit.load.project import load_project
from cardkit.rules.conformance import assert_conforms, check, hidden_independence, run
from cardkit.rules.core import Decision, Option
from cardkit.rules.protocol import (
    Cooperation,
    EngineInfo,
    GameReport,
    GameResult,
    Result,
    SeatResult,
)
from tests.conftest import REPO
from tests.games.duel.engine import ENGINE, DuelEngine, DuelGame, DuelState

DUEL = REPO / "tests" / "games" / "duel"


@lru_cache(maxsize=1)
def duel_set() -> Any:
    return load_project(DUEL).card_set("duel")


def test_the_test_game_keeps_current_copies_of_the_generic_schemas():
    """Its schemas/ are the editor's copies of cardkit's (no stale set schema without the generic
    ``players`` field); the example game's too."""
    from cardkit.load.project import core_schemas

    assert core_schemas(DUEL) == [] and core_schemas(REPO / "examples" / "tidelights") == []
    assert "players" in json.loads((DUEL / "schemas" / "set.schema.json").read_text(encoding="utf-8"))["properties"]


class Rigged(DuelEngine):
    """The test game with one thing broken: its states, its game or its facts."""

    def __init__(self, state: type[DuelState] = DuelState, game: type[DuelGame] = DuelGame, **facts: Any) -> None:
        self.state, self.game, self.facts = state, game, facts

    def info(self, card_set: object) -> EngineInfo:
        return replace(super().info(card_set), **self.facts)

    def new_game(self, card_set: object, players: int, disabled: frozenset[str] = frozenset()) -> DuelGame:
        base = super().new_game(card_set, players, disabled)
        game = self.game(base.cards, base.disabled)
        game.state_class = self.state
        return game


class CloneReversesDeck(DuelState):
    def clone(self) -> DuelState:
        c = super().clone()
        c.deck.reverse()
        return c


class CloneSharesHands(DuelState):
    def clone(self) -> DuelState:
        c = super().clone()
        c.hands = self.hands
        return c


class ColonInKind(DuelState):
    def _ask(self) -> Decision:
        d = super()._ask()
        return Decision(d.player, d.kind, tuple(Option("pl:ay", o.value) if o.kind == "play" else o for o in d.options))


class UnseededDeal(DuelGame):
    def new_state(self, seed: int) -> DuelState:
        return super().new_state(random.randrange(1 << 30))  # type: ignore[return-value]


class OneSeatResult(DuelState):
    def result(self) -> GameResult | None:
        r = super().result()
        return None if r is None else replace(r, seats=r.seats[:1])


class ChanceShort(DuelState):
    def chance_outcomes(self) -> Sequence[tuple[Option, float]]:
        return [(o, p * 0.9) for o, p in super().chance_outcomes()]


class RedealsOwnHand(DuelState):
    def determinize(self, player: int, rng: random.Random) -> DuelState:
        c = super().determinize(player, rng)
        pool = sorted(c.hands[player] + c.deck)
        rng.shuffle(pool)
        n = len(c.hands[player])
        c.hands[player], c.deck = sorted(pool[:n]), pool[n:]
        return c


class NoOptionsMidway(DuelState):
    def _ask(self) -> Decision:
        d = super()._ask()
        return Decision(d.player, d.kind, ()) if self.tricks == 3 and self.trick else d


class DropsMetric(DuelState):
    def report(self) -> GameReport:
        r = super().report()
        return replace(r, metrics={k: v for k, v in r.metrics.items() if k != "margin"})


class FiresStranger(DuelState):
    def report(self) -> GameReport:
        r = super().report()
        return replace(r, fired=r.fired | {"joker"})


class LosesCards(DuelState):
    def violations(self) -> Sequence[str]:
        return ["cards are not conserved"] if self.tricks >= 2 else []


class SeatTwo(DuelState):
    def _ask(self) -> Decision:
        d = super()._ask()
        return Decision(2, d.kind, d.options) if self.tricks == 4 and self.trick else d


class ThreePlayers(DuelGame):
    @property
    def players(self) -> int:
        return 3


class LeakyDeterminize(DuelState):
    """Redeals the unseen cards in the order it finds them (deck order included): it leaks."""

    def determinize(self, player: int, rng: random.Random) -> DuelState:
        c = self.clone()
        other = 1 - player
        unseen = c.hands[other] + c.deck
        rng.shuffle(unseen)
        n = len(c.hands[other])
        c.hands[other], c.deck, c._decision = sorted(unseen[:n]), unseen[n:], None
        return c


class OptionTwice(DuelState):
    def _ask(self) -> Decision:
        d = super()._ask()
        return Decision(d.player, d.kind, d.options + d.options[:1]) if d.kind == "lead" else d


class IgnoresSwitch(DuelState):
    def __init__(self, cards: Mapping[str, Any], disabled: frozenset[str]) -> None:
        super().__init__(cards, frozenset())  # type: ignore[arg-type]


class MisCosted(Rigged):
    """Declares costs for an agent it does not have and an infinite one for its own."""

    def agent_costs(self) -> Mapping[str, float]:
        return {"greedy": float("inf"), "heuristic": 5.0}


class RaisesLate(DuelState):
    def apply(self, option: Option) -> None:
        if self.tricks == 5:
            raise RuntimeError("trick five is not written yet")
        super().apply(option)


BROKEN: list[tuple[str, Rigged]] = [
    ("N001", Rigged(RaisesLate)),
    ("N002", Rigged(CloneReversesDeck)),
    ("N003", Rigged(CloneSharesHands)),
    ("N004", Rigged(ColonInKind)),
    ("N005", Rigged(game=UnseededDeal)),
    ("N006", Rigged(OneSeatResult)),
    ("N007", Rigged(cooperation=Cooperation.COOPERATIVE)),
    ("N008", Rigged(ChanceShort)),
    ("N009", Rigged(RedealsOwnHand)),
    ("N010", Rigged(NoOptionsMidway)),
    ("N012", Rigged(DropsMetric)),
    ("N013", Rigged(FiresStranger)),
    ("N014", Rigged(LosesCards)),
    ("N015", Rigged(SeatTwo)),
    ("N016", Rigged(min_players=3)),
    ("N017", Rigged(game=ThreePlayers)),
    ("N018", Rigged(LeakyDeterminize)),
    ("N019", Rigged(OptionTwice)),
    ("N020", Rigged(IgnoresSwitch)),
    ("N025", MisCosted()),
]


def test_the_test_game_conforms():
    result = run(ENGINE, duel_set(), games=30, seed=5)
    assert result.issues == [] and result.findings == 0
    assert result.games == 30 + 7 and result.players == (2,)
    assert result.decisions == 37 * 15  # a coin and fourteen cards per game
    assert_conforms(ENGINE, duel_set())


@pytest.mark.parametrize(("code", "engine"), BROKEN, ids=[c for c, _ in BROKEN])
def test_each_check_finds_its_breakage(code: str, engine: Rigged):
    """(The agents' hidden-information check, which a broken engine breaks too, is tested below.)"""
    issues = check(engine, duel_set(), games=12, agents=False)
    # the shared hands run out in the original too; a broken clone breaks clones of determinized states too
    also = {"N002": {"R005"}, "N003": {"N010"}}.get(code, set())
    assert code in {i.code for i in issues} <= {code} | also, [i.format() for i in issues]
    assert all(i.file == "cards/duel" for i in issues)
    with pytest.raises(AssertionError, match=rf"error\[{code}\]"):
        assert_conforms(engine, duel_set(), games=12, agents=False)


# ------------------------------------------------------------------ determinizations that cheat, agents that peek

class ReturnsTheTruth(DuelState):
    """Its determinization is a plain copy: search would see the other hand and the deck as they are."""

    def determinize(self, player: int, rng: random.Random) -> DuelState:
        return self.clone()


class RedealsFromItsOwnSeed(DuelState):
    """Redeals the unseen cards, but from a stream fixed by the state, never the one it is given."""

    def determinize(self, player: int, rng: random.Random) -> DuelState:
        return super().determinize(player, random.Random(len(self.history)))


class DealsADoubledCard(DuelState):
    """Redeals honestly, then puts a copy of one unseen card in place of another (the sizes stay)."""

    def determinize(self, player: int, rng: random.Random) -> DuelState:
        c = super().determinize(player, rng)
        if len(c.deck) >= 2:
            c.deck[0] = c.deck[1]
        return c


def peeking(seed: int) -> Any:
    """An engine's own agent that reads the other hand (its choice depends on the other player's cards)."""
    def agent(state: Any, decision: Decision) -> Option:
        other = state.hands[1 - decision.player] if decision.player >= 0 else []
        return decision.options[sum(state.cards[c].rank for c in other) % len(decision.options)]
    return agent


class WithPeeker(DuelEngine):
    def agents(self) -> Mapping[str, Any]:
        return {**super().agents(), "peeker": peeking}


def test_a_determinization_that_returns_the_true_state_is_a_finding():
    """N022, once per run: over every sampled decision two streams gave the same world (and it is the true
    one); the agents' check then compares no two deals that differ, N024 for each agent, never a silent pass."""
    result = run(Rigged(ReturnsTheTruth), duel_set(), games=6)
    assert set(result.counts) == {"N022", "N024"}, [i.format() for i in result.issues]
    assert result.counts["N022"] == 1
    n022 = next(i for i in result.issues if i.code == "N022").format()
    assert n022.startswith("cards/duel: error[N022]: determinize never varied what a seat cannot see: at ")
    assert "every one showed the true state" in n022
    assert {i.message.split(",")[0] for i in result.issues if i.code == "N024"} == {
        "agent 'greedy'", "agent 'random'", "agent 'flat-mc'", "agent 'mcts'"}
    # the honest game: the same run finds nothing, and compared deals for every agent
    honest = run(ENGINE, duel_set(), games=6)
    assert honest.findings == 0 and {c.agent for c in honest.agent_checks} == {"greedy", "random", "flat-mc", "mcts"}
    assert all(c.compared >= 4 for c in honest.agent_checks) and honest.ceilings == ("clairvoyant",)


def test_a_determinization_that_ignores_its_stream_is_a_finding():
    issues = check(Rigged(RedealsFromItsOwnSeed), duel_set(), games=6, agents=False)
    assert [i.code for i in issues] == ["N022"]
    assert "true state" not in issues[0].message  # another world, but always the same one


def test_a_determinization_that_breaks_the_invariants_is_a_finding():
    """N023: the true states keep their invariants (no N014), the determinized ones do not."""
    issues = check(Rigged(DealsADoubledCard), duel_set(), games=4, agents=False)
    # (determinizing such a world again gives other cards, N018, too)
    assert "N023" in {i.code for i in issues} <= {"N023", "N018"}, [i.format() for i in issues]
    issues = [i for i in issues if i.code == "N023"]
    assert issues[0].message.endswith("breaks the state's invariants: cards are not conserved")


def test_no_pair_compared_is_a_finding_not_a_pass():
    issues, compared = hidden_independence(ENGINE, duel_set(), 2, peeking, games=3, per_game=0, name="peeker")
    assert compared == 0 and [i.code for i in issues] == ["N024"]
    assert issues[0].message.startswith("agent 'peeker', 2 players: the hidden-information check compared no two deals")


def test_cli_conformance_checks_every_agent_the_engine_registers(cli):
    """The engine's own agent that reads the other hand is caught from the command line (N021, named);
    --no-agents leaves that part out."""
    register(GamePlugin(name="duel", engine=lambda: WithPeeker()))  # type: ignore[arg-type,return-value]
    try:
        r = cli("rules", "conformance", "--root", str(DUEL), "--games", "4")
        quiet = cli("rules", "conformance", "--root", str(DUEL), "--games", "4", "--no-agents")
    finally:
        unregister("duel")
    assert r.code == 1
    lines = r.err.strip().splitlines()
    assert lines and all(line.startswith("cards/duel: error[N021]: agent 'peeker', 2 players, seed ") for line in lines)
    assert "hidden cards: 5 agent(s)" in r.out and "[N021 x" in r.out
    assert quiet.code == 0 and quiet.err == "" and "hidden cards" not in quiet.out


def test_an_endless_game_is_stopped_at_the_bound():
    issues = check(ENGINE, duel_set(), games=2, limit=5, agents=False)
    assert {i.code for i in issues} == {"N011"}
    assert "cards/duel: error[N011]: 2 players, seed 1: no end after 5 decisions" in [i.format() for i in issues]


def test_findings_are_one_line_each_with_where_they_happened():
    issues = check(Rigged(CloneSharesHands), duel_set(), games=3, agents=False)
    assert issues[0].format() == "cards/duel: error[N003]: 2 players, seed 1, decision 0 (coin): playing a clone changed the original"
    result = run(Rigged(LosesCards), duel_set(), games=40, agents=False)
    assert len([i for i in result.issues if i.code == "N014"]) == 5  # shown
    assert result.counts["N014"] > 5  # counted


# ------------------------------------------------------------------ the CLI, with the game registered in-process

@pytest.fixture
def duel_plugin() -> Iterator[None]:
    """The test game as an installed plugin would be, registered in this process only."""
    register(GamePlugin(name="duel", engine=lambda: ENGINE))  # type: ignore[arg-type,return-value]
    yield
    unregister("duel")


def test_cli_conformance_passes_for_the_test_game(cli, duel_plugin):
    r = cli("rules", "conformance", "--root", str(DUEL), "--games", "8", "--seed", "3")
    assert r.code == 0, r.err
    assert r.err == ""
    # its three decision kinds: the chance coin, a lead and a follow
    assert r.out.strip() == ("conformance duel: conforms; 10 games, 150 decisions, players 2, clones at 3 decision kind(s), "
                             "hidden cards: 4 agent(s), 16 pair(s) of deals compared, ceiling(s) not checked: clairvoyant")


def test_cli_conformance_prints_every_finding_and_exits_1(cli):
    register(GamePlugin(name="duel", engine=lambda: Rigged(LosesCards)))  # type: ignore[arg-type,return-value]
    try:
        r = cli("rules", "conformance", "--root", str(DUEL), "--games", "4")
    finally:
        unregister("duel")
    assert r.code == 1
    lines = r.err.strip().splitlines()
    assert lines[0] == "cards/duel: error[N014]: 2 players, seed 1, decision 7 (lead): invariant violated: cards are not conserved"
    assert all(line.startswith("cards/duel: error[N014]: ") for line in lines) and len(lines) == 5
    assert r.out.startswith("conformance duel: ") and "[N014 x" in r.out


def test_cli_conformance_bad_players_and_engines(cli, duel_plugin, tmp_path):
    r = cli("rules", "conformance", "--root", str(DUEL), "--players", "2-3", "--games", "2")
    assert r.code == 1
    assert "cards/duel: error[N016]: player count(s) 3 outside the engine's 2-2" in r.err
    r = cli("rules", "conformance", "--root", str(DUEL), "--players", "x")
    assert r.code == 1 and "error[G001]" in r.err
    # a game no plugin serves: the duel project copied with another game id (the example game's own
    # engine may be installed or not, so it cannot stand for "no engine" here)
    shutil.copytree(DUEL, tmp_path / "duel", ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    manifest = tmp_path / "duel" / "cards" / "duel" / "set.yaml"
    manifest.write_text(manifest.read_text().replace("game: duel\n", "game: unplugged\n"))
    r = cli("rules", "conformance", "--root", str(tmp_path / "duel"))
    assert r.code == 1 and "Traceback" not in r.err
    assert "error[G008]: game 'unplugged' has no rules engine" in r.err and "duel" in r.err  # the engines there are


def test_a_plugin_whose_engine_is_not_the_protocol(cli):
    register(GamePlugin(name="duel", engine=lambda: (DuelGame, {})))  # the old (Game class, agents) hook
    try:
        r = cli("rules", "conformance", "--root", str(DUEL))
    finally:
        unregister("duel")
    assert r.code == 1
    assert r.err.startswith("cardkit: error[G032]: the rules engine of game 'duel' does not implement the typed engine protocol")


def test_seat_results_of_a_finished_game_are_what_the_suite_reads():
    """The per-seat outcome the suite validates: one win and one loss, scores adding up to 37."""
    st = ENGINE.new_game(duel_set(), 2).new_state(11)
    from cardkit.rules.agents import play, random_agent

    play(st, [random_agent(1), random_agent(2)], random.Random(3))
    r = st.result()
    assert r is not None and r.complete
    assert {s.result for s in r.seats} == {Result.WIN, Result.LOSS}
    assert sum(s.score for s in r.seats) == 37 and isinstance(r.seats[0], SeatResult)


def test_the_playtest_plays_generic_agents_by_name(cli, duel_plugin):
    """cardkit playtest looks generic names up with the engine's own (cardkit.playtest.agents):
    mcts and the clairvoyant ceiling, labelled as one; a bad budget is one G031 line."""
    import json

    r = cli("playtest", "--root", str(DUEL), "--players", "2", "--games", "4", "--jobs", "1", "--format", "json",
            "--agent", "random", "--agent", "mcts:5", "--agent", "clairvoyant:5")
    assert r.code in (0, 1), r.err  # exit 1 is the verdict's (self-play of a competitive game), not an error
    out = json.loads(r.out)
    rows = {a["agent"]: a for a in out["ladder"][0]["agents"]}
    assert set(rows) == {"random", "mcts:5", "clairvoyant:5"} and all(a["games"] == 4 for a in rows.values())
    assert [n for n, a in rows.items() if a["ceiling"]] == ["clairvoyant:5"]
    r = cli("playtest", "--root", str(DUEL), "--players", "2", "--games", "4", "--agent", "mcts:0", "--agent", "wizard")
    assert r.code == 1
    assert r.err.splitlines() == [  # in code order, as the CLI prints every problem
        ("cardkit: error[G002]: unknown agent 'wizard' (agents: greedy, random, flat-mc[:N|Nms], mcts[:N|Nms], "
        "clairvoyant[:N|Nms])"),
        "cardkit: error[G031]: agent 'mcts:0': not a budget: '0' (playouts are a whole number from 1 to 1,000,000)"]


# ------------------------------------------------------------------ clones of a determinization (R005, R006)

class KeepsTheOldDeck(DuelState):
    """Its determinization redeals the deck, but goes on drawing from the deck as it was before the
    redeal (as rules code that read the pile before the redeal would); a clone, a copy of the board,
    draws from the redealt deck."""

    def determinize(self, player: int, rng: random.Random) -> DuelState:
        c = super().determinize(player, rng)
        c.old_deck = list(self.deck)  # type: ignore[attr-defined]  # (not a slot: clone() leaves it behind)
        return c

    def _score(self) -> None:
        old = self.__dict__.pop("old_deck", None)
        if old is not None:
            self.deck = old
        super()._score()


class ClonesRewindTheDeck(DuelState):
    """A clone of a determinized state puts the deck back as it was dealt: exact right after
    determinizing, wrong once the determinized state has drawn."""

    def determinize(self, player: int, rng: random.Random) -> DuelState:
        c = super().determinize(player, rng)
        c.dealt = list(c.deck)  # type: ignore[attr-defined]
        return c

    def clone(self) -> DuelState:
        c = super().clone()
        dealt = self.__dict__.get("dealt")
        if dealt is not None:
            c.dealt, c.deck = dealt, list(dealt)  # type: ignore[attr-defined]
        return c


class WorldClonesShareHands(DuelState):
    """A clone of a determinized state shares its hands (a clone of the true state is a copy)."""

    def determinize(self, player: int, rng: random.Random) -> DuelState:
        c = super().determinize(player, rng)
        c.world = True  # type: ignore[attr-defined]
        return c

    def clone(self) -> DuelState:
        c = super().clone()
        if self.__dict__.get("world"):
            c.hands = self.hands
        return c


def test_the_clone_of_a_determinization_check_runs_on_the_honest_game():
    """Every seat's determinization is cloned at every sampled decision (the honest game: no finding)."""
    result = run(ENGINE, duel_set(), games=6, agents=False)
    assert result.findings == 0 and result.worlds_cloned >= 2 * 6 * 4


@pytest.mark.parametrize(("state", "code", "when"), [
    (KeepsTheOldDeck, "R005", "taken right after determinizing"),
    (ClonesRewindTheDeck, "R005", "taken 3 decisions after determinizing"),
    (WorldClonesShareHands, "R006", "(taken right after determinizing): playing the clone changed the determinized state"),
])
def test_a_clone_of_a_determinization_that_plays_on_differently_is_a_finding(state: type[DuelState], code: str,
                                                                            when: str):
    """The true game's clones are exact (no N002, N003): only the determinized states' are not, and
    only R005/R006 finds them, one line each, saying where and when the clone was taken."""
    issues = check(Rigged(state), duel_set(), games=6, agents=False)
    assert {i.code for i in issues} == {code}, [i.format() for i in issues]
    lines = [i.format() for i in issues]
    assert all(line.startswith(f"cards/duel: error[{code}]: 2 players, seed ") for line in lines)
    assert all(when in line for line in lines), lines
    if code == "R005":
        assert all("played on differently from the determinized state (" in line for line in lines)
    with pytest.raises(AssertionError, match=rf"error\[{code}\]"):
        assert_conforms(Rigged(state), duel_set(), games=6, agents=False)


def test_declared_agent_costs_are_checked_one_line_each():
    """Both faults of MisCosted are found, each on its own line; a sound declaration is none."""
    lines = [i.message for i in check(MisCosted(), duel_set(), games=2, agents=False) if i.code == "N025"]
    assert len(lines) == 2, lines
    assert any("'heuristic', not one of the engine's own agents (greedy" in m for m in lines)
    assert any("gives 'greedy' the cost inf" in m for m in lines)

    class WellCosted(Rigged):
        def agent_costs(self) -> Mapping[str, float]:
            return {"greedy": 3}

    assert [i for i in check(WellCosted(), duel_set(), games=2, agents=False) if i.code == "N025"] == []
