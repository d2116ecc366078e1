"""An outside plugin package compiled with cardkit's helper (:mod:`cardkit.compiling`): the
Tidelights engine (``examples/tidelights/engine``, ``CARDKIT_COMPILE=1 pip install -e``) plays the
same games compiled and from its sources, and its build is chosen at import as cardkit's own is
(a compiled module runs only while its source is the one compiled).

Without a compiled build of the engine present the first test compares the sources with
themselves, as ``test_compiled.py`` does for cardkit's engine; CI (``.ci/run``) builds it compiled
and runs this file there, and compares a playtest's JSON pure and compiled."""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import os
import random
import subprocess
import sys
from pathlib import Path

from cardkit import _compiled
from tests.conftest import REPO

ENGINE = REPO / "examples" / "tidelights" / "engine"
PACKAGE = ENGINE / "tidelights_engine"
#: the engine's compiled modules (its hatch_build.py lists them)
MODULES = ("tidelights_engine.cards", "tidelights_engine.state", "tidelights_engine.agents")

#: (agent, players, seeds): the game's own heuristic at every player count and generic search
#: with the heuristic as rollout policy
GAMES = (("heuristic", 1, 6), ("heuristic", 2, 6), ("heuristic", 3, 4), ("heuristic", 4, 4),
         ("mcts:6", 1, 2), ("mcts:4", 2, 1), ("mcts:3", 4, 1), ("flat-mc:2", 3, 1))


def games_digest() -> str:
    """One hash over seeded Tidelights games: every decision's seat, kind, options and the option
    chosen, and each game's report."""
    if str(ENGINE) not in sys.path:
        sys.path.insert(0, str(ENGINE))
    from tidelights_engine.engine import engine as make_engine

    from cardkit.load.project import load_project
    from cardkit.rules.agents import parse_agent

    engine = make_engine()
    card_set = load_project(REPO / "examples" / "tidelights").card_set("tidelights")
    h = hashlib.sha256()
    for agent, players, seeds in GAMES:
        factory = parse_agent(agent, engine, card_set).factory
        game = engine.new_game(card_set, players)
        for seed in range(seeds):
            st = game.new_state(seed)
            choose = factory(seed)
            while (d := st.decision) is not None:
                option = choose(st, d)
                h.update(f"{d.player} {d.kind} {' '.join(o.text() for o in d.options)} > {option.text()}\n".encode())
                st.apply(option)
            report = st.report()  # (sets sorted: their order changes with the process's string hashes)
            h.update(repr((report.result, sorted(report.metrics.items()), sorted(report.fired), report.violations,
                           report.groups)).encode())
    return h.hexdigest()


def run_games(pure: bool) -> tuple[str, str]:
    """(the engine package's build, :func:`games_digest`) from a fresh process."""
    env = dict(os.environ)
    env.pop("CARDKIT_PURE", None)
    if pure:
        env["CARDKIT_PURE"] = "1"
    code = ("from tests.engine.test_plugin_compiled import games_digest; from cardkit.compiling import package_build;"
            "d = games_digest(); print(repr(package_build('tidelights_engine'))); print(d)")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env,
                         capture_output=True, text=True, check=True).stdout.splitlines()
    return out[-2], out[-1]


def compiled_present() -> bool:
    return any((PACKAGE / ("state" + suffix)).is_file() for suffix in importlib.machinery.EXTENSION_SUFFIXES)


def test_pure_and_installed_builds_of_the_plugin_play_the_same_games():
    pure_build, pure = run_games(pure=True)
    build, installed = run_games(pure=False)
    assert pure_build.startswith("'pure Python (") and ("CARDKIT_PURE is set" in pure_build or not compiled_present())
    # what this checkout holds: a compiled build beside the sources runs (unless they changed since)
    assert build.startswith("'compiled (mypyc") == (compiled_present() and "sources changed" not in build), build
    assert installed == pure


def fake_build(tmp_path: Path, manifest: bool = True) -> Path:
    """A copy of the engine package with an extension file per compiled module, the group's shared
    library beside the package and the manifest a compiled build writes."""
    pkg = tmp_path / "tidelights_engine"
    pkg.mkdir(parents=True)
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    for src in PACKAGE.glob("*.py"):
        (pkg / src.name).write_bytes(src.read_bytes())
    for m in MODULES:
        _compiled.source_path(m, pkg).with_suffix(suffix).write_bytes(b"")
    (tmp_path / f"tidelights_engine__mypyc{suffix}").write_bytes(b"")
    if manifest:
        (pkg / _compiled.MANIFEST).write_text(json.dumps({"mypy": "test", "group": "tidelights_engine",
                                                          "sources": _compiled.source_hashes(pkg, MODULES)}))
    return pkg


def _activate(pkg: Path, environ: dict[str, str]) -> tuple[bool, str | None, list[object]]:
    """activate_package on a copy, in this process: (compiled?, its build text, finders it added)."""
    name = f"plugin_{abs(hash(str(pkg)))}"
    before = list(sys.meta_path)
    try:
        used = _compiled.activate_package(name, str(pkg / "__init__.py"), environ)
        added = [f for f in sys.meta_path if f not in before]
        return used, _compiled.package_build(name), added
    finally:
        sys.meta_path[:] = before
        _compiled._PACKAGES.pop(name, None)


def test_a_fresh_plugin_build_is_used_and_named_in_the_engine_build(tmp_path):
    used, build, added = _activate(fake_build(tmp_path), {})
    assert used and build == "compiled (mypyc test)" and added == []


def test_an_edited_plugin_source_runs_from_its_source(tmp_path):
    pkg = fake_build(tmp_path)
    (pkg / "state.py").write_text((pkg / "state.py").read_text() + "\n# edited\n")
    used, build, added = _activate(pkg, {})
    assert not used and "sources changed" in str(build)
    # the sources win over the extension modules beside them: the finder imports state.py
    spec = added[0].find_spec("tidelights_engine.state", [str(pkg)])  # type: ignore[attr-defined]
    assert spec is not None and spec.origin == str(pkg / "state.py")
    assert added[0].find_spec("tidelights_engine.engine", [str(pkg)]) is None  # type: ignore[attr-defined]


def test_a_plugin_build_without_manifest_or_on_request_runs_from_its_sources(tmp_path):
    used, build, added = _activate(fake_build(tmp_path / "a", manifest=False), {})
    assert not used and "reinstall" in str(build) and len(added) == 1
    used, build, added = _activate(fake_build(tmp_path / "b"), {"CARDKIT_PURE": "1"})
    assert not used and build == "pure Python (CARDKIT_PURE is set)" and len(added) == 1


def test_a_plugin_without_a_build_says_how_to_get_one(tmp_path):
    pkg = tmp_path / "tidelights_engine"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    used, build, added = _activate(pkg, {})
    assert not used and "CARDKIT_COMPILE=1" in str(build) and added == []


def test_the_engine_sources_type_check_for_mypyc(tmp_path):
    """mypyc compiles only sources without a single type message (one would quietly leave every
    compiled install of the engine running its sources)."""
    sources = [str(_compiled.source_path(m, PACKAGE)) for m in MODULES]
    out = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache"), *sources],
                         cwd=ENGINE, capture_output=True, text=True)
    assert out.stdout.startswith("Success: no issues found"), out.stdout[-3000:]


def test_the_hook_and_the_package_list_the_same_modules():
    text = (ENGINE / "hatch_build.py").read_text(encoding="utf-8")
    listed = text.split("MODULES = (", 1)[1].split(")", 1)[0]
    assert tuple(m.strip().strip('"') for m in listed.split(",") if m.strip()) == MODULES


def test_a_copy_field_by_field_is_the_clone_of_dict():
    """A compiled Night has no ``__dict__``: its clone copies field by field (``Night._copy``); from
    the sources it copies ``__dict__``.  Both give the same state, on states from every decision
    kind of a few seeded games."""
    if str(ENGINE) not in sys.path:
        sys.path.insert(0, str(ENGINE))
    from tidelights_engine.engine import engine as make_engine
    from tidelights_engine.state import Night

    from cardkit.load.project import load_project

    engine = make_engine()
    card_set = load_project(REPO / "examples" / "tidelights").card_set("tidelights")
    kinds = set()
    for players in (1, 2, 4):
        game = engine.new_game(card_set, players)
        for seed in range(3):
            st = game.new_state(seed)
            rng = random.Random(seed)
            while (d := st.decision) is not None:
                kinds.add(d.kind)
                if not hasattr(st, "__dict__"):
                    return  # a compiled Night: the field-by-field copy is the clone (the games test above)
                copy = Night(st.deck, st.players, 0, st.round_limit, copy_of=st)
                assert vars(copy).keys() == vars(st).keys()
                assert {k: v for k, v in vars(copy).items() if k != "bay"} == \
                       {k: v for k, v in vars(st).items() if k != "bay"}
                assert [vars(s) if hasattr(s, "__dict__") else (s.id, s.crew, s.weathered) for s in copy.bay] == \
                       [vars(s) if hasattr(s, "__dict__") else (s.id, s.crew, s.weathered) for s in st.bay]
                st.apply(rng.choice(d.options))
    assert kinds >= {"tide", "guide", "berth"}


def test_a_report_names_the_build_of_the_engine_that_played_not_of_every_plugin_imported(tmp_path):
    """A process that imported another plugin package (a test worker, a notebook) writes the same
    Death Angel report as a fresh one: ``engine`` names cardkit's build and the playing engine's."""
    from cardkit.playtest import PlaytestRequest, run

    pkg = tmp_path / "other_engine"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    request = PlaytestRequest(root=REPO, players=(1,), agents=("random",), games=2, jobs=1)
    fresh = run(request).result.engine
    before = list(sys.meta_path)
    try:
        _compiled.activate_package("other_engine", str(pkg / "__init__.py"), {})
        assert "other_engine: pure Python" in _compiled.engine_build()  # the benchmarks' view: every package
        assert run(request).result.engine == fresh and "other_engine" not in fresh
    finally:
        sys.meta_path[:] = before
        _compiled._PACKAGES.pop("other_engine", None)
