"""Build hook: compile the engine's hot modules with mypyc when asked to (``CARDKIT_COMPILE=1``),
through cardkit's helper :mod:`cardkit.compiling` (``docs/engines.md``, "A compiled engine").

A plain ``pip install`` builds no C and asks for nothing beyond hatchling.  With
``CARDKIT_COMPILE=1 pip install [-e] examples/tidelights/engine`` the modules of :data:`MODULES`
are compiled (profile-guided with GCC: the instrumented build plays the :data:`TRAIN` games first),
and ``tidelights_engine/__init__.py`` runs them when they match their sources.  The install needs
cardkit already installed where the engine goes (the engine is typed against it).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: compiled together as one mypyc group (the rules and the heuristic that search plays out with)
MODULES = ("tidelights_engine.cards", "tidelights_engine.state", "tidelights_engine.agents")

#: the profile-guided build's training games (argv[1]: this folder; the set is beside it), on seeds
#: no benchmark uses: the generic search with the engine's rollout policy and the heuristic alone
TRAIN = r"""
import random, sys
from pathlib import Path
from cardkit.compiling import package_build
from cardkit.load.project import load_project
from cardkit.plugins import engine_for, plugins, register
from cardkit.rules.agents import parse_agent, play
from tidelights_engine.plugin import PLUGIN
if PLUGIN.name not in plugins():
    register(PLUGIN)
cards = load_project(Path(sys.argv[1]).parent).card_set("tidelights")
if not str(package_build("tidelights_engine")).startswith("compiled"):
    sys.exit(f"the instrumented engine did not load: {package_build('tidelights_engine')}")
engine = engine_for(cards.game, "train")
for agent, players, games in (("mcts", 1, 3), ("mcts", 4, 2), ("heuristic", 2, 20), ("flat-mc:3", 3, 1)):
    factory = parse_agent(agent, engine, cards).factory
    game = engine.new_game(cards, players)
    for seed in range(games):
        play(game.new_state(3_000_000 + seed), [factory(seed)] * players, random.Random(seed))
"""


def _compiling() -> ModuleType | None:
    """cardkit's build helper; in pip's isolated build environment cardkit is not installed, so it
    is taken from the interpreter the engine is installed for.  None when cardkit is nowhere."""
    try:
        import cardkit.compiling
    except ImportError:
        out = subprocess.run([sys.executable, "-I", "-c", "import cardkit, os; print(os.path.dirname(cardkit.__path__[0]))"],
                             capture_output=True, text=True)
        if out.returncode != 0:
            return None
        sys.path.append(out.stdout.strip())
        import cardkit.compiling
    return cardkit.compiling


class CompiledEngineHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def _spec(self, c: ModuleType) -> Any:
        return c.CompileSpec(root=Path(self.root), package="tidelights_engine", modules=MODULES,
                             group="tidelights_engine", label="Tidelights engine", train=TRAIN)

    def dependencies(self) -> list[str]:
        c = _compiling() if os.environ.get("CARDKIT_COMPILE") else None  # a plain install asks for nothing
        return [] if c is None else list(c.compile_requirements(self._spec(c)))

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        c = _compiling()
        if c is None:
            if os.environ.get("CARDKIT_COMPILE"):
                self.app.display_warning("tidelights_engine: cardkit is not installed: nothing compiled")
            return
        c.build_compiled(self, version, build_data, self._spec(c))

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        c = _compiling()
        if c is not None:
            c.cleanup(self)
