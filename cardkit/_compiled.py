"""The compiled rules engine: which build of the engine this process runs.

The rules engine, the agents (the game's own and the generic search of
:mod:`cardkit.rules.agents`) and the card model they read (:data:`MODULES`) are
plain, typed Python.  ``CARDKIT_COMPILE=1 pip install ...`` has ``hatch_build.py``
compile them with mypyc into C extension modules (when a C compiler is at hand);
a plain install, or one without a compiler, runs the same sources as they are.  Both builds play the same games, to
the byte (the test suite compares them).

An extension module wins over its ``.py`` source in Python's import system, so a
source edited after the build (an editable install) would silently run old code.
The build writes a manifest with the hash of every compiled source; at import,
before any engine module loads, :func:`activate` compares it with the sources on
disk and falls back to the sources when they differ, when the manifest is
missing, or when ``CARDKIT_PURE=1`` asks for the pure-Python engine.

An outside plugin package compiles its own modules the same way
(:mod:`cardkit.compiling`, ``docs/engines.md``) and calls :func:`activate_package`
from its ``__init__.py``: the same checks, its modules and group read from its own
manifest.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

# compiled together as one mypyc group: all or none of them run compiled
MODULES = (
    "cardkit.model",
    "cardkit.games.death_angel.cards",
    "cardkit.games.deep_strike.cards",  # its Scenario subclasses the compiled Card: it must be compiled too
    "cardkit.rules.core",
    "cardkit.games.death_angel.kinds",
    "cardkit.games.death_angel.state",
    "cardkit.games.death_angel.board",
    "cardkit.games.death_angel.engine",
    "cardkit.games.death_angel.phases",
    "cardkit.games.death_angel.combat",
    "cardkit.games.death_angel.effects",
    "cardkit.games.death_angel.support",
    "cardkit.games.death_angel.weights",
    "cardkit.games.death_angel.risk",
    "cardkit.games.death_angel.heuristic",
    "cardkit.games.death_angel.invariants",
    "cardkit.games.death_angel.agents",
    "cardkit.games.death_angel.search",
    "cardkit.games.death_angel.evaluation",  # generic search values every cut-off playout by it
    # the generic agents (random, flat-mc, mcts, clairvoyant): search on any engine, compiled with the
    # engine; outside engines (pure Python) are driven through the protocol's Python calls alike
    "cardkit.rules.agents",
)
GROUP = "cardkit_engine"  # mypyc's shared library: cardkit_engine__mypyc.<abi>.so beside the package
MANIFEST = "_compiled.json"
PACKAGE_DIR = Path(__file__).resolve().parent

_STATUS: dict[str, str] = {"build": "pure", "reason": "not checked"}


def source_path(module: str, package_dir: Path = PACKAGE_DIR) -> Path:
    """``cardkit.rules.core`` -> ``<package_dir>/rules/core.py``."""
    parts = module.split(".")[1:]
    return package_dir.joinpath(*parts[:-1], parts[-1] + ".py")


def source_hashes(package_dir: Path = PACKAGE_DIR, modules: Sequence[str] = MODULES) -> dict[str, str]:
    return {m: hashlib.sha256(source_path(m, package_dir).read_bytes()).hexdigest() for m in modules}


def has_extension(module: str, package_dir: Path = PACKAGE_DIR) -> bool:
    src = source_path(module, package_dir)
    return any(src.with_name(src.stem + suffix).is_file() for suffix in importlib.machinery.EXTENSION_SUFFIXES)


def decide(package_dir: Path, environ: Mapping[str, str], modules: Sequence[str] = MODULES,
           group: str = GROUP) -> tuple[bool, str]:
    """Whether to run the compiled modules (of the package in ``package_dir``, compiled as the
    mypyc group ``group``), and why (or why not)."""
    if environ.get("CARDKIT_PURE", "") not in ("", "0"):
        return False, "CARDKIT_PURE is set"
    present = [m for m in modules if has_extension(m, package_dir)]
    if not present:
        return False, "not compiled: install with CARDKIT_COMPILE=1 for the compiled engine"
    shared = [package_dir.parent / f"{group}__mypyc{suffix}" for suffix in importlib.machinery.EXTENSION_SUFFIXES]
    if len(present) != len(modules) or not any(p.is_file() for p in shared):
        return False, "the compiled build is incomplete; reinstall"
    try:
        manifest: Any = json.loads((package_dir / MANIFEST).read_text(encoding="utf-8"))
        built = manifest["sources"]
        ok = isinstance(built, dict)
    except (OSError, ValueError, KeyError, TypeError):
        return False, f"the build manifest {MANIFEST} is missing or unreadable; reinstall"
    if not ok or built != source_hashes(package_dir, modules):
        return False, "sources changed since the engine was compiled; reinstall to compile again"
    return True, f"mypyc {manifest.get('mypy', '?')}" + (", profile-guided" if manifest.get("profile_guided") else "")


class _SourceFinder:
    """Imports the listed modules from their ``.py`` sources, ahead of any
    compiled extension module beside them."""

    def __init__(self, modules: Sequence[str]) -> None:
        self.modules = frozenset(modules)

    def find_spec(self, fullname: str, path: Sequence[str] | None = None, target: object = None) -> Any:
        if fullname not in self.modules:
            return None
        name = fullname.rpartition(".")[2] + ".py"
        for entry in path or sys.path:
            src = os.path.join(entry, name)
            if os.path.isfile(src):
                return importlib.util.spec_from_file_location(fullname, src)
        return None


def activate(environ: Mapping[str, str] = os.environ) -> None:
    """Choose the build once per process, before any engine module is imported."""
    if _STATUS["reason"] != "not checked":
        return
    use, reason = decide(PACKAGE_DIR, environ)
    _STATUS["build"], _STATUS["reason"] = ("compiled" if use else "pure"), reason
    if not use and any(has_extension(m) for m in MODULES):
        sys.meta_path.insert(0, _SourceFinder(MODULES))  # type: ignore[arg-type]


def _build_text(build: str, reason: str) -> str:
    return f"compiled ({reason})" if build == "compiled" else f"pure Python ({reason})"


def engine_build(packages: Iterable[str] | None = None) -> str:
    """``"compiled (mypyc …)"`` or ``"pure Python (why)"``, for benchmarks and reports; then, for
    every plugin package that activated a build of its own (:func:`activate_package`), ``"; name:
    compiled (…)"`` or ``"; name: pure Python (why)"``.  ``packages``: name only these plugin
    packages (a report names the engine that played its games, whatever else the process imported)."""
    activate()
    text = _build_text(_STATUS["build"], _STATUS["reason"])
    wanted = None if packages is None else set(packages)
    return text + "".join(f"; {name}: {_build_text(*status)}" for name, status in sorted(_PACKAGES.items())
                          if wanted is None or name in wanted)


#: the build each plugin package runs (activate_package), by package name: (build, reason)
_PACKAGES: dict[str, tuple[str, str]] = {}


def _extension_modules(package: str, package_dir: Path) -> list[str]:
    """The modules of ``package`` that have an extension module file beside their source."""
    found = []
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        for ext in package_dir.rglob("*" + suffix):
            src = ext.with_name(ext.name[:-len(suffix)] + ".py")
            if src.is_file():
                rel = src.relative_to(package_dir).with_suffix("").parts
                found.append(".".join((package, *rel)))
    return sorted(set(found))


def activate_package(package: str, init_file: str, environ: Mapping[str, str] = os.environ) -> bool:
    """Choose the build of an outside plugin package once per process; call it from the package's
    ``__init__.py`` as ``activate_package(__name__, __file__)``, before any compiled module of it is
    imported.  The modules and the mypyc group are the ones its build manifest (``_compiled.json``
    beside ``__init__.py``, written by :func:`cardkit.compiling.build_compiled`) lists; they run
    compiled when all of them are, the manifest's hashes match their sources and ``CARDKIT_PURE``
    is not set, else from their sources.  Returns whether they run compiled."""
    if package in _PACKAGES:
        return _PACKAGES[package][0] == "compiled"
    package_dir = Path(init_file).resolve().parent
    built = _extension_modules(package, package_dir)
    if not built:
        _PACKAGES[package] = ("pure", "not compiled: install with CARDKIT_COMPILE=1 for the compiled build")
        return False
    modules: Sequence[str] = built
    group = package
    try:
        manifest: Any = json.loads((package_dir / MANIFEST).read_text(encoding="utf-8"))
        modules, group = sorted(manifest["sources"]), str(manifest["group"])
    except (OSError, ValueError, KeyError, TypeError):
        pass  # decide() says why
    use, reason = decide(package_dir, environ, modules, group)
    _PACKAGES[package] = ("compiled" if use else "pure"), reason
    if not use:
        sys.meta_path.insert(0, _SourceFinder(sorted(set(built) | set(modules))))  # type: ignore[arg-type]
    return use


def package_build(package: str) -> str | None:
    """``"compiled (mypyc …)"`` or ``"pure Python (why)"`` for a plugin package that called
    :func:`activate_package`, None for one that did not."""
    status = _PACKAGES.get(package)
    return None if status is None else _build_text(*status)


def is_compiled() -> bool:
    """What actually got imported (the engine's modules, compiled all or none, are extension
    modules: the shared rules core is one of them), asked of the import system by name (the
    module imported, or the one an import would load), so that this bootstrap module,
    imported first by the package, imports nothing of cardkit's."""
    activate()
    spec = importlib.util.find_spec("cardkit.rules.core")
    return spec is not None and not str(spec.origin or "").endswith(".py")
