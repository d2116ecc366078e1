"""Build hook: compile the rules engine with mypyc when asked to (``CARDKIT_COMPILE=1``).

The engine modules listed in ``cardkit/_compiled.py`` are typed Python; mypyc
turns them into C extension modules that play the same games about four to six
times faster.  Only large playtest sweeps need that, so a plain ``pip install``
builds no C and pulls in no compiler-only build requirement (mypy, setuptools:
:meth:`CompiledEngineHook.dependencies` asks for them only when compiling, as the
hatch-mypyc plugin does).  With ``CARDKIT_COMPILE=1`` the engine is compiled;
without a C compiler or Python headers, with ``CARDKIT_PURE=1``, or when
compiling fails for any reason, the install still goes on with the pure-Python
engine and says why (``pip install -v`` shows it).

Editable installs compile in place, next to the sources; ``cardkit/_compiled.json``
records the hash of every compiled source so that an engine edited afterwards
runs from its sources until the next install (see ``cardkit/_compiled.py``).

With GCC the build is profile-guided, as CPython's own release builds are: an
instrumented engine plays a few hundred training games (every agent and player
count, on seeds no benchmark uses) and GCC compiles again knowing which branches
and calls are hot (about 13 % faster games).  The C code is the same either way
and so are the games; ``CARDKIT_PGO=0``, another compiler, or any failure along
the way gives the plain ``-O3`` build.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


COMPILE = r"""
import sys
from setuptools import setup
from mypyc.build import mypycify

mode, out, c_dir, group, *sources = sys.argv[1:]
exts = mypycify(sources, opt_level="3", target_dir=c_dir, group_name=group)
where = ["--inplace"] if mode == "editable" else ["--build-lib", out]
setup(name="cardkit-engine", packages=[], py_modules=[], ext_modules=exts,
      script_args=["build_ext", "--build-temp", c_dir + "/temp", *where])
"""


# The training run of the profile-guided build: the games a playtest plays (every
# agent, every player count, some checked step by step, and the generic search
# agents), on seeds no benchmark uses.
TRAIN = r"""
import sys
from pathlib import Path
from cardkit._compiled import is_compiled
from cardkit.games.death_angel.agents import AGENTS, play
from cardkit.games.death_angel.engine import Game
from cardkit.games.death_angel.invariants import violations
from cardkit.load.project import load_project

if not is_compiled():
    sys.exit("the instrumented engine did not load")
cards = load_project(Path(sys.argv[1])).card_set("death-angel")
for agent, games, certified in (("heuristic", 40, 4), ("random", 20, 2), ("passive", 10, 1)):
    for players in range(1, 7):
        game = Game(cards, players)
        for seed in range(games):
            st = game.new_state(1_000_000 + seed)
            choose = AGENTS[agent](seed)
            if seed < certified:
                while st.decision is not None:
                    violations(st)
                    st.apply(choose(st, st.decision))
            else:
                play(st, choose)
# the generic search agents (cardkit.rules.agents) on the same engine, through the protocol
from cardkit.plugins import engine_for
from cardkit.rules.agents import parse_agent, play as play_generic
import random
engine = engine_for(cards.game, "train")
for name, players, games in (("mcts", 1, 3), ("mcts", 3, 2), ("flat-mc:3", 2, 1), ("clairvoyant:8", 1, 1)):
    factory = parse_agent(name, engine, cards).factory
    game = engine.new_game(cards, players)
    for seed in range(games):
        st = game.new_state(2_000_000 + seed)
        play_generic(st, [factory(seed)] * players, random.Random(seed))
"""
PGO_GENERATE = ("-fprofile-generate", "-fprofile-update=single")
PGO_USE = ("-fprofile-use", "-fprofile-partial-training", "-fprofile-correction",
           "-Wno-missing-profile", "-Wno-error=coverage-mismatch")
# With GCC: calls between the engine's C functions inside the one shared library
# need not allow for symbol interposition, so they may be direct and inlined (as in
# CPython's own build); 3.5 % fewer instructions a game
GCC_FLAGS = ("-fno-semantic-interposition",)


def _compiled_settings(root: Path) -> ModuleType:
    """cardkit/_compiled.py (MODULES, GROUP, MANIFEST, source_path, source_hashes),
    loaded by path: it needs only the standard library, the package may not import yet."""
    spec = importlib.util.spec_from_file_location("_cardkit_compiled", root / "cardkit" / "_compiled.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _artifacts(root: Path, c: ModuleType) -> list[Path]:
    """Compiled files of an earlier in-place build."""
    pkg = root / "cardkit"
    found = [pkg / c.MANIFEST]
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        found.append(root / f"{c.GROUP}__mypyc{suffix}")
        found += [c.source_path(m, pkg).with_suffix(suffix) for m in c.MODULES]
    return [p for p in found if p.exists()]


# what a compiled build needs in its build environment (pip installs these only
# when CARDKIT_COMPILE=1): mypyc comes with mypy, setuptools drives the C compiler,
# and the profile-guided build plays training games that load the cards (the loader
# reads a set's interface strings, checked against cardkit's own through Babel, and
# validates card files with kinds.yaml's patterns through the bounded regex engine)
COMPILE_REQUIREMENTS = ["mypy>=1.11", "setuptools>=69", "pyyaml>=6.0", "jsonschema>=4.18", "babel>=2.12", "regex>=2023.1"]


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no")


def compile_requested() -> bool:
    """``CARDKIT_COMPILE=1`` asks for the compiled engine; ``CARDKIT_PURE=1`` wins."""
    return _flag("CARDKIT_COMPILE") and not _flag("CARDKIT_PURE")


def why_not_compile() -> str | None:
    if _flag("CARDKIT_PURE"):
        return "CARDKIT_PURE is set"
    if not _flag("CARDKIT_COMPILE"):
        return "the default; CARDKIT_COMPILE=1 pip install ... compiles it for large playtest sweeps"
    if sys.implementation.name != "cpython":
        return f"{sys.implementation.name} is not CPython"
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return "mypyc is not installed in the build environment"
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if os.name != "nt" and shutil.which(cc) is None:  # (on Windows setuptools looks for MSVC itself)
        return f"no C compiler ({cc})"
    if not Path(sysconfig.get_paths()["include"], "Python.h").is_file():
        return "no Python headers (Python.h)"
    return None


def why_not_gcc() -> str | None:
    """GCC's flags (profile-guided optimisation, :data:`GCC_FLAGS`) only with GCC."""
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    try:
        proc = subprocess.run([cc, "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return f"cannot run {cc}"
    first = (proc.stdout.splitlines() or [""])[0].lower()  # "gcc (Debian 12.2.0-14) 12.2.0", "cc (GCC) 13.2.1"
    if proc.returncode != 0 or "gcc" not in first or "clang" in first:
        return f"{cc} is not GCC"
    return None


def _with_flags(env: dict[str, str], flags: tuple[str, ...]) -> dict[str, str]:
    """``env`` with ``flags`` added to the compile and link flags setuptools reads."""
    extra = " ".join(flags)
    return dict(env, CFLAGS=f"{env.get('CFLAGS', '')} {extra}".strip(),
                LDFLAGS=f"{env.get('LDFLAGS', '')} {extra}".strip())


def _manifest(c: ModuleType, pkg: Path, profile_guided: bool) -> str:
    """The build manifest ``cardkit/_compiled.py`` checks at import (see there)."""
    import mypy.version

    manifest = {"mypy": mypy.version.__version__, "sources": c.source_hashes(pkg), "profile_guided": profile_guided}
    return json.dumps(manifest, indent=1, sort_keys=True) + "\n"


def _entry_points(root: Path, target: Path) -> None:
    """Make the package's entry points (the game plugins the loader finds through
    ``importlib.metadata``) visible from ``target`` as an installed package's
    would be: a minimal ``.dist-info`` beside the copied sources."""
    import tomllib

    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    info = target / f"cardkit-{project['version']}.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: cardkit\nVersion: {project['version']}\n",
                                   encoding="utf-8")
    groups = project.get("entry-points", {})
    text = "".join(f"[{group}]\n" + "".join(f"{name} = {value}\n" for name, value in eps.items()) + "\n"
                   for group, eps in groups.items())
    (info / "entry_points.txt").write_text(text, encoding="utf-8")


def _failed(proc: subprocess.CompletedProcess[str]) -> str:
    return "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-15:])


class CompiledEngineHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        """Build requirements beyond hatchling, asked for only when compiling."""
        return list(COMPILE_REQUIREMENTS) if compile_requested() else []

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        root = Path(self.root)
        pkg = root / "cardkit"
        c = _compiled_settings(root)
        editable = version == "editable"
        if editable:  # never leave an old build beside new sources
            for p in _artifacts(root, c):
                p.unlink()
        reason = why_not_compile()
        if reason is not None:
            show = self.app.display_warning if compile_requested() else self.app.display_info
            show(f"cardkit: pure-Python rules engine ({reason})")
            return
        self.app.display_info("cardkit: compiling the rules engine with mypyc (two to three minutes)")
        work = Path(tempfile.mkdtemp(prefix="cardkit-mypyc-"))
        self._work = work
        out = work / "lib"
        sources = [str(c.source_path(m, pkg).relative_to(root)) for m in c.MODULES]
        env = dict(os.environ, MYPY_CACHE_DIR=str(work / "mypy-cache"))
        pgo = why_not_gcc()  # (asks the compiler once)
        if pgo is None:
            env = _with_flags(env, GCC_FLAGS)
            if os.environ.get("CARDKIT_PGO", "") == "0":
                pgo = "CARDKIT_PGO=0"
        if pgo is None:
            self.app.display_info("cardkit: profile-guided build: an instrumented build plays training games first")
            pgo = self._profile(root, c, work, sources, env)
        if pgo is not None:
            self.app.display_info(f"cardkit: no profile-guided optimisation ({pgo}); plain -O3 build")
        command = [sys.executable, "-c", COMPILE, version, str(out), str(work / "c"), c.GROUP, *sources]
        proc = subprocess.run(command, cwd=root, env=env if pgo else _with_flags(env, PGO_USE),
                              capture_output=True, text=True)
        if proc.returncode != 0 and pgo is None:
            pgo = "the profile-guided build failed"
            self.app.display_warning(f"cardkit: {pgo}; plain -O3 build\n{_failed(proc)}")
            proc = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True)
        if proc.returncode != 0:
            tail = _failed(proc)
            self.app.display_warning(f"cardkit: compiling the rules engine failed; using the pure-Python engine\n{tail}")
            if editable:
                for p in _artifacts(root, c):
                    p.unlink()
            return
        text = _manifest(c, pkg, profile_guided=pgo is None)
        if editable:
            (pkg / c.MANIFEST).write_text(text, encoding="utf-8")
            return
        (out / "cardkit" / c.MANIFEST).write_text(text, encoding="utf-8")
        for f in sorted(out.rglob("*")):
            if f.is_file():
                build_data["force_include"][str(f)] = f.relative_to(out).as_posix()
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def _profile(self, root: Path, c: ModuleType, work: Path, sources: list[str], env: dict[str, str]) -> str | None:
        """Build an instrumented engine beside the sources, play the training games
        with it and leave GCC's profile (``*.gcda``) where the real build looks for it
        (the same C files and object paths).  Returns why not, or None when done."""
        train = work / "train"
        proc = subprocess.run([sys.executable, "-c", COMPILE, "wheel", str(train), str(work / "c"), c.GROUP, *sources],
                              cwd=root, env=_with_flags(env, PGO_GENERATE), capture_output=True, text=True)
        if proc.returncode != 0:
            return f"the instrumented build failed:\n{_failed(proc)}"
        shutil.copytree(root / "cardkit", train / "cardkit", dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("*.so", "*.pyd", c.MANIFEST, "__pycache__"))
        shutil.copytree(root / "schemas", train / "cardkit" / "_data" / "schemas", dirs_exist_ok=True)  # as in a wheel
        (train / "cardkit" / c.MANIFEST).write_text(_manifest(c, train / "cardkit", profile_guided=False), encoding="utf-8")
        _entry_points(root, train)
        run_env = dict(env, PYTHONPATH=os.pathsep.join([str(train), env.get("PYTHONPATH", "")]).rstrip(os.pathsep))
        run_env.pop("CARDKIT_PURE", None)
        try:
            proc = subprocess.run([sys.executable, "-c", TRAIN, str(root)], cwd=work, env=run_env,
                                  capture_output=True, text=True, timeout=900)
        except subprocess.TimeoutExpired:
            return "the training games took too long"
        if proc.returncode != 0:
            return f"the training games failed:\n{_failed(proc)}"
        if not any((work / "c").rglob("*.gcda")):
            return "the training games wrote no profile"
        for obj in (work / "c").rglob("*.o"):  # compile again, with the profile
            obj.unlink()
        return None

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        work = getattr(self, "_work", None)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)
