"""The playtest knows no game: a small competitive engine written here against the
protocol (cardkit.rules.protocol), registered for a starter set made by
``cardkit init``, is audited, swept, tallied per seat, judged, switched off card
by card and reported by the same commands as Death Angel."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

import cardkit.plugins
from cardkit.plugins import GamePlugin
from cardkit.rules.core import Decision, Option
from cardkit.rules import protocol as P
from cardkit.scaffold import init_project

GAME = "racegame"
TOKENS = 7


class RaceState:
    """Seats take 1 or 2 tokens in turn from a pile of 7; who takes the last one wins.
    The haste card lets the second seat take 3 (its ability; it fires when used)."""

    def __init__(self, players: int, haste: str | None) -> None:
        self.players, self.haste = players, haste
        self.pile, self.turn, self.moves = TOKENS, 0, 0
        self.taken = [0] * players
        self.fired: set[str] = set()
        self.winner: int | None = None

    @property
    def decision(self) -> Decision | None:
        if self.winner is not None:
            return None
        most = 3 if self.haste and self.turn == 1 else 2
        return Decision(self.turn, "take", tuple(Option("take", str(n)) for n in range(1, min(most, self.pile) + 1)))

    def apply(self, option: Option) -> None:
        n = int(option.value)
        if n == 3 and self.haste:
            self.fired.add(self.haste)
        self.pile -= n
        self.taken[self.turn] += n
        self.moves += 1
        if self.pile == 0:
            self.winner = self.turn
        self.turn = (self.turn + 1) % self.players

    def clone(self) -> RaceState:
        copy = RaceState(self.players, self.haste)
        copy.pile, copy.turn, copy.moves, copy.taken = self.pile, self.turn, self.moves, list(self.taken)
        copy.fired, copy.winner = set(self.fired), self.winner
        return copy

    def chance_outcomes(self) -> Sequence[tuple[Option, float]]:
        return ()

    def result(self) -> P.GameResult | None:
        if self.winner is None:
            return None
        seats = tuple(P.SeatResult(P.Result.WIN if i == self.winner else P.Result.LOSS, float(t))
                      for i, t in enumerate(self.taken))
        return P.GameResult(P.End.COMPLETE, "last_token", self.moves // self.players + 1, seats)

    def report(self) -> P.GameReport:
        result = self.result() or P.GameResult(P.End.ABANDONED, "unfinished", 0)
        return P.GameReport(result, {"moves": self.moves}, frozenset(self.fired))

    def violations(self) -> Sequence[str]:
        return [] if self.pile + sum(self.taken) == TOKENS else ["tokens not conserved"]

    def information_state(self, player: int) -> str:
        return f"{player} {self.pile} {self.turn} {self.taken}"

    def determinize(self, player: int, rng: random.Random) -> RaceState:
        return self.clone()  # nothing is hidden


class RaceGame:
    def __init__(self, players: int, haste: str | None) -> None:
        self.players, self.haste = players, haste

    def new_state(self, seed: int) -> RaceState:
        return RaceState(self.players, self.haste)


def _random(seed: int) -> P.Agent:
    r = random.Random(seed)
    return lambda st, d: d.options[r.randrange(len(d.options))]


def _greedy(seed: int) -> P.Agent:
    """Leaves the pile at a multiple of 3 when it can: the winning strategy of the plain game."""
    def choose(st: P.State, d: Decision) -> Option:
        pile = getattr(st, "pile", 0)
        return next((o for o in d.options if (pile - int(o.value)) % 3 == 0), d.options[0])
    return choose


class RaceEngine:
    """No optional hooks: no audit, no reference figures, no narration, no scenarios."""

    def info(self, card_set: object) -> P.EngineInfo:
        lo, hi = cardkit.plugins.declared_players(card_set) or (2, 2)  # set.yaml's generic players field
        return P.EngineInfo(GAME, lo, hi, P.Cooperation.COMPETITIVE, P.Information.PERFECT, P.ChanceMode.DETERMINISTIC,
                            seats=("first", "second", "third"),
                            metrics=(P.Metric("moves", P.MetricKind.COUNT, P.Aggregate.MEAN, paired=True),),
                            score_targets=(4.0,))

    def _haste(self, card_set: object) -> str:
        return sorted(card_set.cards)[0]  # type: ignore[attr-defined]

    def new_game(self, card_set: object, players: int, disabled: frozenset[str] = frozenset()) -> RaceGame:
        haste = self._haste(card_set)
        return RaceGame(players, None if haste in disabled else haste)

    def abilities(self, card_set: object, players: Sequence[int]) -> frozenset[str]:
        return frozenset({self._haste(card_set)})

    def agents(self) -> Mapping[str, P.AgentFactory]:
        return {"random": _random, "greedy": _greedy}

    def rollout_policy(self) -> P.AgentFactory | None:
        return None


@pytest.fixture()
def race(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, str]:
    project = init_project(tmp_path / GAME, GAME)
    manifest = project.path / "cards" / GAME / "set.yaml"
    text = manifest.read_text(encoding="utf-8")
    assert "\nplayers: {min: 2, max: 2}\n" in text  # the starter states its players in the generic field
    manifest.write_text(text.replace("\nplayers: {min: 2, max: 2}\n", "\nplayers: {min: 2, max: 3}\n"), encoding="utf-8")
    registry = dict(cardkit.plugins.plugins())
    registry[GAME] = GamePlugin(name=GAME, engine=RaceEngine)
    monkeypatch.setattr(cardkit.plugins, "plugins", lambda: registry)
    from cardkit.playtest import sweep

    monkeypatch.setattr(sweep, "_CACHE", {})
    monkeypatch.setattr(sweep, "_GAMES", {})
    return project.path, project.set_id


def test_the_protocol_types_hold_for_the_test_engine():
    engine = RaceEngine()
    assert isinstance(engine, P.Engine) and not isinstance(engine, (P.Audited, P.Referenced, P.Scenarios))
    assert isinstance(RaceState(2, None), P.State)


def test_a_competitive_game_is_swept_per_seat_with_its_score_targets(race, cli, tmp_path: Path):
    root, _ = race
    out = tmp_path / "r.pdf"
    result = cli("playtest", "--root", str(root), "--players", "2-3", "--games", "40", "--agent", "random",
                 "--agent", "greedy", "--impact", "--format", "json", "--jobs", "1", "--report", str(out),
                 "--locale", "fi")
    assert result.err == "" and result.code in (0, 1)
    rep = json.loads(result.out)
    assert rep["reference"] == {}
    setups = {(s["players"], s["agent"]): s for s in rep["setups"]}
    assert set(setups) == {(2, "random"), (2, "greedy"), (3, "random"), (3, "greedy")}
    for (players, _), s in setups.items():
        assert s["completed"] == s["games"] == 40 and s["violations"] == 0
        seats = s["seats"]
        assert [r["seat"] for r in seats] == list(range(1, players + 1)) and seats[0]["name"] == "first"
        assert sum(r["wins"] for r in seats) == 40 and s["wins"] == seats[0]["wins"]  # one winner a game
        assert all(r["ci95"][0] <= r["win_rate"] <= r["ci95"][1] for r in seats)
        (target,) = s["score"]["targets"]
        assert target["target"] == 4.0 and 0 <= target["games"] <= 40
        assert s["moves_mean"] > 0
    # with the greedy agent on both seats, the first seat of the plain 7-token game always wins
    # (it leaves 6); the second seat's haste card turns some of those games
    g2 = setups[(2, "greedy")]["seats"]
    assert g2[0]["wins"] + g2[1]["wins"] == 40
    # the haste card is an ability: impact switches it off for the judged agent
    rows = [r for r in rep["impact"] if r.get("agent") == "greedy"]
    assert rows and all(r["fired_when_ablated"] == 0 and "moves_delta" in r for r in rows)
    assert {e["players"] for e in rep["ladder"]} == {2, 3}
    from pypdf import PdfReader

    assert len(PdfReader(out).pages) >= 3


def test_the_players_must_be_in_the_declared_range(race, cli):
    root, _ = race
    result = cli("playtest", "--root", str(root), "--players", "1-2", "--games", "5")
    assert result.code == 1 and result.out == ""
    assert result.err.strip().splitlines() == ["cardkit: error[G011]: --players 1: the game plays 2-3"]


def test_rules_commands_need_the_hooks_and_play_any_game(race, cli):
    root, _ = race
    result = cli("rules", "scenario", str(root), "--root", str(root))
    assert result.code == 1 and "error[G010]" in result.err and "Traceback" not in result.err
    result = cli("rules", "play", "--root", str(root), "--players", "2", "--agent", "greedy")
    assert result.code == 0, result.err
    lines = result.out.strip().splitlines()
    assert lines[0] == "0: take take:1" and lines[-1].startswith("complete (last_token)")
