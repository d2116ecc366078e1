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
The machinery is :mod:`cardkit.compiling`, the one outside plugin packages use for
their own engines (``docs/engines.md``); this file says what cardkit compiles.

With GCC the build is profile-guided, as CPython's own release builds are: an
instrumented engine plays a few hundred training games (every agent and player
count, on seeds no benchmark uses) and GCC compiles again knowing which branches
and calls are hot (about 13 % faster games).  The C code is the same either way
and so are the games; ``CARDKIT_PGO=0``, another compiler, or any failure along
the way gives the plain ``-O3`` build.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))  # cardkit.compiling and cardkit._compiled need the standard library alone

from cardkit import _compiled  # noqa: E402
from cardkit.compiling import COMPILE_REQUIREMENTS, CompileSpec, build_compiled, cleanup, compile_requirements  # noqa: E402


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


def _prepare_train(root: Path) -> Any:
    def prepare(train: Path) -> None:
        shutil.copytree(root / "schemas", train / "cardkit" / "_data" / "schemas", dirs_exist_ok=True)  # as in a wheel
        _entry_points(root, train)

    return prepare


def spec(root: Path) -> CompileSpec:
    """What cardkit compiles: the modules of ``cardkit/_compiled.py``; the profile-guided build
    plays games that load the cards (the loader reads a set's interface strings, checked against
    cardkit's own through Babel, and validates card files with kinds.yaml's patterns through the
    bounded regex engine)."""
    return CompileSpec(root=root, package="cardkit", modules=_compiled.MODULES, group=_compiled.GROUP,
                       label="rules engine", train=TRAIN, prepare_train=_prepare_train(root), outside=False,
                       requirements=(*COMPILE_REQUIREMENTS, "pyyaml>=6.0", "jsonschema>=4.18", "babel>=2.12",
                                     "regex>=2023.1"))


class CompiledEngineHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        """Build requirements beyond hatchling, asked for only when compiling."""
        return compile_requirements(spec(Path(self.root)))

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        build_compiled(self, version, build_data, spec(Path(self.root)))

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        cleanup(self)
