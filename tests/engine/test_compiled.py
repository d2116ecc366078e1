"""The compiled and the pure-Python engine are one engine: the same games, to the
byte (the game's own agents and the generic search agents alike), and a compiled
build never runs once its sources have changed."""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import json
import os
import random
import subprocess
import sys
from pathlib import Path

from cardkit import _compiled
from cardkit.games.death_angel.agents import AGENTS, play
from cardkit.games.death_angel.engine import Game
from cardkit.load.project import load_project
from cardkit.rules.core import Option, Rng
from cardkit.rules.protocol import Engine
from tests.conftest import REPO

def games_digest(games: int) -> str:
    """One hash over ``games`` seeds of every agent at every player count (each
    decision kind and most card effects come up): events, decisions, outcome, stats."""
    s = load_project(REPO).card_set("death-angel")
    h = hashlib.sha256()
    for agent in ("random", "passive", "heuristic"):
        for players in range(1, 7):
            game = Game(s, players)
            for seed in range(games):
                st = game.new_state(seed)
                play(st, AGENTS[agent](seed))
                h.update(repr((st.events, [o.text() for o in st.decisions], st.outcome, st.stats)).encode())
    return h.hexdigest()


#: the generic search agents' games hashed pure and compiled: (engine, set folder, set, agent, players, seeds)
SEARCH_GAMES = (
    ("death-angel", REPO, "death-angel", "mcts:8", 1, 3),
    ("death-angel", REPO, "death-angel", "mcts:6", 3, 2),
    ("death-angel", REPO, "death-angel", "flat-mc:2", 2, 1),
    ("death-angel", REPO, "death-angel", "clairvoyant:4", 1, 1),
    ("death-angel", REPO, "death-angel", "random", 4, 3),
    ("duel", REPO / "tests" / "games" / "duel", "duel", "mcts:12", 2, 4),
    ("duel", REPO / "tests" / "games" / "duel", "duel", "flat-mc:3", 2, 2),
    ("tidelights", REPO / "examples" / "tidelights", "tidelights", "mcts:6", 2, 1),
)
#: decisions played per game of SEARCH_GAMES (many search decisions, short of whole long games)
SEARCH_DECISIONS = 60


def _search_engine(name: str) -> Engine:
    """Death Angel (compiled with cardkit) and two pure-Python outside engines."""
    if name == "duel":
        from tests.games.duel.engine import ENGINE

        return ENGINE
    if name == "tidelights":
        path = str(REPO / "examples" / "tidelights" / "engine")
        if path not in sys.path:
            sys.path.insert(0, path)
        return importlib.import_module("tidelights_engine.engine").engine()  # type: ignore[no-any-return]
    from cardkit.games.death_angel.rules_engine import DeathAngelEngine

    return DeathAngelEngine()


def search_digest() -> str:
    """One hash over seeded games of the generic agents (:mod:`cardkit.rules.agents`: IS-MCTS,
    flat Monte Carlo, the clairvoyant ceiling, random) on Death Angel and on two outside engines:
    every decision's seat, kind and chosen option, and the state reached (its report)."""
    from cardkit.rules.agents import parse_agent, sample_chance
    from cardkit.rules.protocol import CHANCE

    h = hashlib.sha256()
    for engine_name, root, set_id, agent, players, seeds in SEARCH_GAMES:
        engine = _search_engine(engine_name)
        card_set = load_project(root).card_set(set_id)
        factory = parse_agent(agent, engine, card_set).factory
        game = engine.new_game(card_set, players)
        for seed in range(seeds):
            st = game.new_state(seed)
            choose, chance = factory(seed), random.Random(seed)
            for _ in range(SEARCH_DECISIONS):
                d = st.decision
                if d is None:
                    break
                option = sample_chance(st, chance) if d.player == CHANCE else choose(st, d)
                h.update(f"{d.player} {d.kind} {option.text()}\n".encode())
                st.apply(option)
            report = st.report()  # (sets sorted: their order changes with the process's string hashes)
            h.update(repr((report.result, sorted(report.metrics.items()), sorted(report.fired), report.violations,
                           report.groups)).encode())
    return h.hexdigest()


def run_games(pure: bool, games: int = 6, digest: str = "games_digest") -> tuple[str, str]:
    """(whether the engine was compiled, ``digest(games)``) from a fresh process."""
    env = dict(os.environ)
    env.pop("CARDKIT_PURE", None)
    if pure:
        env["CARDKIT_PURE"] = "1"
    call = f"{digest}({games})" if digest == "games_digest" else f"{digest}()"
    code = (f"from cardkit._compiled import is_compiled; from tests.engine.test_compiled import {digest};"
            f"d = {call}; print(is_compiled(), d)")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env,
                         capture_output=True, text=True, check=True).stdout.split()
    return out[0], out[1]


def test_pure_and_installed_builds_play_the_same_games():
    pure_build, pure = run_games(pure=True)
    build, installed = run_games(pure=False)
    assert pure_build == "False"  # CARDKIT_PURE really ran the sources
    assert build == str(_compiled.is_compiled())
    assert installed == pure


def test_pure_and_installed_builds_search_alike():
    """The generic search agents, compiled with the engine when it is (cardkit/_compiled.py), choose
    as their pure-Python sources do: the same decisions on Death Angel and on outside engines."""
    pure_build, pure = run_games(pure=True, digest="search_digest")
    build, installed = run_games(pure=False, digest="search_digest")
    assert pure_build == "False"
    assert build == str(_compiled.is_compiled())
    assert installed == pure


def test_in_process_games_match_another_process():
    # the same hash computed here, with whatever build this process imported
    assert run_games(pure=True, games=2)[1] == games_digest(2)


def fake_build(tmp_path: Path, **extra: object) -> Path:
    """A package tree with the engine sources, an extension file per module and a manifest."""
    pkg = tmp_path / "cardkit"
    for m in _compiled.MODULES:
        src = _compiled.source_path(m, pkg)
        src.parent.mkdir(parents=True, exist_ok=True)
        src.write_bytes(_compiled.source_path(m).read_bytes())
        src.with_name(src.stem + importlib.machinery.EXTENSION_SUFFIXES[0]).write_bytes(b"")
    (tmp_path / f"{_compiled.GROUP}__mypyc{importlib.machinery.EXTENSION_SUFFIXES[0]}").write_bytes(b"")
    manifest = {"mypy": "test", "sources": _compiled.source_hashes(pkg), **extra}
    (pkg / _compiled.MANIFEST).write_text(json.dumps(manifest))
    return pkg


def test_a_fresh_build_is_used(tmp_path):
    assert _compiled.decide(fake_build(tmp_path), {}) == (True, "mypyc test")


def test_a_profile_guided_build_says_so(tmp_path):
    assert _compiled.decide(fake_build(tmp_path, profile_guided=True), {}) == (True, "mypyc test, profile-guided")
    assert _compiled.decide(fake_build(tmp_path / "plain", profile_guided=False), {}) == (True, "mypyc test")


def test_an_edited_source_falls_back_to_the_sources(tmp_path):
    pkg = fake_build(tmp_path)
    src = _compiled.source_path("cardkit.games.death_angel.phases", pkg)
    src.write_text(src.read_text() + "\n# edited\n")
    use, why = _compiled.decide(pkg, {})
    assert not use and "sources changed" in why


def test_pure_on_request_missing_manifest_or_partial_build(tmp_path):
    pkg = fake_build(tmp_path)
    assert _compiled.decide(pkg, {"CARDKIT_PURE": "1"}) == (False, "CARDKIT_PURE is set")
    assert _compiled.decide(pkg, {"CARDKIT_PURE": "0"})[0]
    (pkg / _compiled.MANIFEST).write_text("{not json")
    assert "manifest" in _compiled.decide(pkg, {})[1]
    (pkg / _compiled.MANIFEST).write_text(json.dumps({"mypy": "test", "sources": _compiled.source_hashes(pkg)}))
    assert _compiled.decide(pkg, {})[0]
    shared = tmp_path / f"{_compiled.GROUP}__mypyc{importlib.machinery.EXTENSION_SUFFIXES[0]}"
    shared.unlink()  # the modules' shared library gone
    assert "incomplete" in _compiled.decide(pkg, {})[1]
    shared.write_bytes(b"")
    src = _compiled.source_path("cardkit.rules.core", pkg)
    src.with_name(src.stem + importlib.machinery.EXTENSION_SUFFIXES[0]).unlink()
    assert "incomplete" in _compiled.decide(pkg, {})[1]


def test_option_text_round_trip_and_seeded_rng():
    for opt in (Option("marine", "sergeant_gideon"), Option("swarm", "3:left"), Option("move", "stay")):
        assert Option.parse(opt.text()) == opt
    assert Option("swarm", "3:left").text() == "swarm:3:left"
    a, b, c = Rng(7), Rng(7), Rng(8)
    seq = [a.roll(6) for _ in range(20)]
    assert seq == [b.roll(6) for _ in range(20)]
    assert seq != [c.roll(6) for _ in range(20)]


def test_rng_draws_the_stream_of_the_random_module():
    # Rng draws its own way (faster, and fixed should the random module change);
    # the games of a seed must stay those that random.Random would have dealt
    import random

    for seed in range(50):
        ours, theirs = Rng(seed), random.Random(seed)
        assert [ours.roll(n) for n in (6, 2, 7, 12, 64, 65, 1000)] == [theirs.randrange(n) for n in (6, 2, 7, 12, 64, 65, 1000)]
        deck, same = list(range(30)), list(range(30))
        ours.shuffle(deck, "deck")
        theirs.shuffle(same)
        assert deck == same
        assert ours.choice("abcdefg", "pick") == theirs.choice("abcdefg")


def test_engine_sources_type_check_for_mypyc(tmp_path):
    """mypyc compiles only code that type-checks without a single message; one
    would quietly leave every install with the slower pure-Python engine."""
    sources = [str(_compiled.source_path(m)) for m in _compiled.MODULES]
    out = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache"), *sources],
                         cwd=REPO, capture_output=True, text=True)
    assert out.stdout.startswith("Success: no issues found"), out.stdout[-3000:]


def test_compiled_modules_have_no_doctests():
    """pytest collects doctests by importing the module file's name, and an in-place compiled build
    leaves an extension module beside the source: the collection would fail on it. A compiled
    module's examples go in a test file."""
    with_examples = [m for m in _compiled.MODULES if ">>>" in _compiled.source_path(m).read_text(encoding="utf-8")]
    assert with_examples == []


def test_a_failed_compile_still_builds_the_pure_engine(tmp_path):
    """Compiling asked for (CARDKIT_COMPILE=1) on a machine whose C compiler
    fails (CC=false): the build hook says so and
    builds a pure-Python wheel; the install never fails for want of a compiler."""
    import zipfile

    env = dict(os.environ, CC="false", CARDKIT_COMPILE="1")
    env.pop("CARDKIT_PURE", None)
    out = subprocess.run([sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "-w", str(tmp_path), str(REPO)],
                         capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr[-2000:]
    said = out.stdout + out.stderr
    assert "no profile-guided optimisation (false is not GCC)" in said  # (GCC's profile flags only)
    assert "compiling the rules engine failed; using the pure-Python rules engine" in said
    wheel = next(tmp_path.glob("cardkit-*.whl"))
    assert wheel.name.endswith("-py3-none-any.whl"), wheel.name
    with zipfile.ZipFile(wheel) as zf:
        assert not [n for n in zf.namelist() if n.endswith((".so", ".pyd", "_compiled.json"))]


def _build_requirements(env_extra: dict[str, str]) -> list[str]:
    """What hatchling's build backend asks pip to install before building a wheel."""
    env = {k: v for k, v in os.environ.items() if k not in ("CARDKIT_PURE", "CARDKIT_COMPILE")}
    code = "import json, hatchling.build as b; print(json.dumps(b.get_requires_for_build_wheel()))"
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, env={**env, **env_extra},
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_a_plain_build_asks_for_no_compiler_requirement():
    """A plain install builds no C and downloads no mypy; CARDKIT_COMPILE=1 asks
    for mypyc's build requirements, and CARDKIT_PURE=1 wins over it."""
    plain = _build_requirements({})
    compiled = _build_requirements({"CARDKIT_COMPILE": "1"})
    both = _build_requirements({"CARDKIT_COMPILE": "1", "CARDKIT_PURE": "1"})
    assert not [r for r in plain if r.startswith(("mypy", "setuptools"))], plain
    assert {r.split(">=")[0] for r in compiled} >= {"mypy", "setuptools"}, compiled
    assert both == plain
