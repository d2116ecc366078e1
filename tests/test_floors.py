"""The floors of the package: which part of ``cardkit/`` may import which.

Every top-level module and subpackage of ``cardkit/`` (a *unit*; ``cardkit`` is the
package's own ``__init__.py``) stands on one floor of :data:`FLOORS`, and imports only
units on floors below its own: services low (errors, the card model, the rules core, the
plugin registry, the loader, the string lookup), applications high (the translator's tools,
the CLI, the bundled games).  Imports are read from the AST, at module level and inside
functions alike (``TYPE_CHECKING`` blocks included).  An import that goes up or sideways
is an *arrow back up*; the few that are justified are listed in :data:`EXCEPTIONS`, each
with its reason, and the list may not grow past two.  No knot either: the units' import
graph has no cycle.  ``docs/contributing.md`` shows the same table (checked here).
"""

from __future__ import annotations

import ast
import shutil
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from tests.conftest import REPO

#: (name, units) from the ground floor up; a unit imports only units of lower floors
FLOORS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("ground", ("_compiled", "errors", "effects", "text")),
    ("values", ("cardkit", "compiling", "fsutil", "model")),
    ("rules core", ("controls", "rules")),
    ("plugin registry", ("plugins",)),
    ("loading", ("load", "workers")),
    ("string lookup", ("strings",)),
    ("layout", ("layout",)),
    ("rendering", ("render",)),
    ("output", ("buildsummary", "printing", "sheetio")),
    ("tools", ("i18n", "interop", "playtest", "print")),
    ("applications", ("preview", "scaffold")),
    ("command line", ("cli",)),
    ("bundled games", ("games",)),
)

#: the arrows back up that stay, as (importing file, imported module): reason
EXCEPTIONS: dict[tuple[str, str], str] = {}

MAX_EXCEPTIONS = 2

#: imports of another unit's private names (``_name``) that remain, as (importing file, "module.name"):
#: each in files other work of this session rewrites; the list may only shrink
PRIVATE_LEFT: dict[tuple[str, str], str] = {}


@dataclass(frozen=True, order=True)
class Arrow:
    """One import of another unit: ``where`` (file:line) imports ``module``."""

    source: str  # the importing unit
    target: str  # the imported unit
    file: str
    line: int
    module: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.source} -> {self.target} ({self.module})"


def unit_of(module: str) -> str:
    """``cardkit.load.project`` -> ``load``; ``cardkit`` (the package root) -> ``cardkit``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def _module_name(root: Path, path: Path) -> tuple[list[str], bool]:
    parts = list(path.relative_to(root).with_suffix("").parts)
    is_package = parts[-1] == "__init__"
    return (parts[:-1] if is_package else parts), is_package


def imports_of(root: Path, path: Path) -> list[tuple[int, str]]:
    """``(line, module)`` for every import of a ``cardkit`` module in one file, at any depth;
    ``from cardkit.x import y`` names ``cardkit.x`` (``from cardkit import x``: ``cardkit.x``),
    relative imports resolved."""
    parts, is_package = _module_name(root, path)
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, a.name) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = parts if is_package else parts[:-1]
                base = base[:len(base) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if node.module is None or module == "cardkit":  # from cardkit import x: the module x
                out.extend((node.lineno, f"{module}.{a.name}") for a in node.names)
            else:
                out.append((node.lineno, module))
    return [(line, m) for line, m in out if m == "cardkit" or m.startswith("cardkit.")]


def arrows(root: Path) -> list[Arrow]:
    """Every import of one unit by another under ``root/cardkit``."""
    out = []
    for path in sorted((root / "cardkit").rglob("*.py")):
        parts, _ = _module_name(root, path)
        source = unit_of(".".join(parts))
        for line, module in imports_of(root, path):
            target = unit_of(module)
            if target != source:
                out.append(Arrow(source, target, path.relative_to(root).as_posix(), line, module))
    return sorted(out)


def private_imports(root: Path) -> list[tuple[str, int, str]]:
    """``(file, line, "module.name")`` for every import of a private name (``_name``, not a module)
    of another unit: a name private to its module may be shared inside its own unit (a package's
    modules), never across units."""
    out = []
    for path in sorted((root / "cardkit").rglob("*.py")):
        parts, is_package = _module_name(root, path)
        source = unit_of(".".join(parts))
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level:
                base = parts if is_package else parts[:-1]
                module = ".".join(base[:len(base) - (node.level - 1)] + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if not module.startswith("cardkit") or unit_of(module) == source and module != "cardkit":
                continue
            folder = root.joinpath(*module.split("."))
            for a in node.names:
                is_module = (folder / f"{a.name}.py").is_file() or (folder / a.name).is_dir()
                if a.name.startswith("_") and not a.name.startswith("__") and not is_module:
                    out.append((path.relative_to(root).as_posix(), node.lineno, f"{module}.{a.name}"))
    return out


def units(root: Path) -> set[str]:
    """The units of ``root/cardkit``: its top-level modules and packages, and the root itself."""
    pkg = root / "cardkit"
    found = {"cardkit"} if (pkg / "__init__.py").is_file() else set()
    found |= {p.stem for p in pkg.glob("*.py") if p.name != "__init__.py"}
    found |= {p.name for p in pkg.iterdir() if p.is_dir() and any(p.rglob("*.py"))}
    return found


def floor_of(floors: tuple[tuple[str, tuple[str, ...]], ...] = FLOORS) -> dict[str, int]:
    return {u: i for i, (_, members) in enumerate(floors) for u in members}


def arrows_up(found: list[Arrow], floors: tuple[tuple[str, tuple[str, ...]], ...] = FLOORS) -> list[Arrow]:
    """The imports of a unit on the same floor or a higher one (a unit on no floor: every import of or by it)."""
    level = floor_of(floors)
    return [a for a in found if level.get(a.target, len(floors)) >= level.get(a.source, -1)]


def knots(found: list[Arrow]) -> list[list[str]]:
    """The cycles of the units' import graph, as strongly connected components of two or more units."""
    graph: dict[str, set[str]] = defaultdict(set)
    for a in found:
        graph[a.source].add(a.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's algorithm (the graph has a few dozen nodes)
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


def floors_table(floors: tuple[tuple[str, tuple[str, ...]], ...] = FLOORS) -> str:
    """The table ``docs/contributing.md`` shows, top floor first."""
    rows = ["| floor | units (`cardkit/...`) |", "|---|---|"]
    for i, (name, members) in reversed(list(enumerate(floors))):
        rows.append(f"| {i} {name} | {', '.join(f'`{m}`' for m in members)} |")
    return "\n".join(rows)


# ---------------------------------------------------------------- the package keeps its floors


def test_every_unit_stands_on_one_floor():
    placed = [u for _, members in FLOORS for u in members]
    assert len(placed) == len(set(placed)), "a unit on two floors"
    assert units(REPO) == set(placed), (
        f"not on a floor: {sorted(units(REPO) - set(placed))}; gone: {sorted(set(placed) - units(REPO))}")


def test_no_arrow_back_up_but_the_listed_ones():
    up = arrows_up(arrows(REPO))
    unlisted = [str(a) for a in up if (a.file, a.module) not in EXCEPTIONS]
    assert unlisted == [], ("imports against the floors (docs/contributing.md, 'Floors'); import from a lower "
                            "floor, move the shared thing down, or argue for an exception:\n" + "\n".join(unlisted))
    assert len(EXCEPTIONS) <= MAX_EXCEPTIONS
    used = {(a.file, a.module) for a in up}
    assert [e for e in EXCEPTIONS if e not in used] == [], "an exception no import needs any more: remove it"


def test_no_knot():
    assert knots(arrows(REPO)) == []


def test_no_private_name_crosses_units_but_the_listed_ones():
    found = private_imports(REPO)
    new = [f"{f}:{line}: {name}" for f, line, name in found if (f, name) not in PRIVATE_LEFT]
    assert new == [], ("private names imported from another unit: make them public (with a docstring) "
                       "in the lowest module that shares them:\n" + "\n".join(new))
    assert [k for k in PRIVATE_LEFT if k not in {(f, name) for f, _, name in found}] == [], "fixed: remove it from the list"


def test_the_contributors_guide_shows_the_table():
    guide = (REPO / "docs" / "contributing.md").read_text(encoding="utf-8")
    assert floors_table() in guide, "docs/contributing.md's floors table differs from tests/test_floors.py:\n" + floors_table()
    for (file, module), reason in EXCEPTIONS.items():
        assert f"`{file}` imports `{module}`" in guide and reason in guide


# ---------------------------------------------------------------- the checker finds what it is for


def _tree(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


SMALL = (("low", ("errors",)), ("middle", ("load",)), ("high", ("cli",)))


def test_an_arrow_up_inside_a_function_or_relative_is_found(tmp_path: Path):
    root = _tree(tmp_path, {
        "cardkit/__init__.py": "",
        "cardkit/errors.py": "def f():\n    from cardkit.cli.app import main\n",
        "cardkit/load/__init__.py": "",
        "cardkit/load/project.py": "from ..errors import E\nfrom . import files\nfrom .. import cli\n",
        "cardkit/load/files.py": "import cardkit.errors\n",
        "cardkit/cli/app.py": "from cardkit.load.project import load\nfrom cardkit import errors\n",
    })
    found = arrows(root)
    assert [str(a) for a in arrows_up(found, SMALL)] == [
        "cardkit/errors.py:2: errors -> cli (cardkit.cli.app)",
        "cardkit/load/project.py:3: load -> cli (cardkit.cli)"]
    assert {(a.source, a.target) for a in found} == {("errors", "cli"), ("load", "errors"), ("load", "cli"),
                                                      ("cli", "load"), ("cli", "errors")}
    assert knots(found) == [["cli", "errors", "load"]]


def test_a_sideways_import_and_a_unit_on_no_floor_are_arrows_up(tmp_path: Path):
    root = _tree(tmp_path, {"cardkit/load/a.py": "from cardkit.newthing import x\n",
                            "cardkit/newthing.py": "from cardkit.errors import E\n"})
    floors = (("low", ("errors",)), ("middle", ("load", "cli")))
    assert [f"{a.source}->{a.target}" for a in arrows_up(arrows(root), floors)] == ["load->newthing",
                                                                                    "newthing->errors"]
    assert units(root) == {"load", "newthing"}


def test_a_planted_arrow_in_a_copy_of_the_package_fails_the_floors(tmp_path: Path):
    """The real package, copied, with one lazy import of the CLI planted in the card model."""
    shutil.copytree(REPO / "cardkit", tmp_path / "cardkit", ignore=shutil.ignore_patterns("*.so", "__pycache__", "fonts"))
    assert arrows_up(arrows(tmp_path)) == arrows_up(arrows(REPO))
    model = tmp_path / "cardkit" / "model.py"
    model.write_text(model.read_text(encoding="utf-8") + "\n\ndef _planted():\n    from cardkit.cli.common import SET_HELP\n",
                     encoding="utf-8")
    planted = [a for a in arrows_up(arrows(tmp_path)) if a not in arrows_up(arrows(REPO))]
    assert [(a.file, a.source, a.target, a.module) for a in planted] == [
        ("cardkit/model.py", "model", "cli", "cardkit.cli.common")]
    assert knots(arrows(tmp_path)) != []  # the CLI reaches the model: a knot as well


def test_a_private_name_across_units_is_found_and_within_a_unit_is_not(tmp_path: Path):
    root = _tree(tmp_path, {
        "cardkit/__init__.py": "from cardkit import _compiled\n",
        "cardkit/_compiled.py": "",
        "cardkit/cli/common.py": "def _helper(): ...\n",
        "cardkit/cli/app.py": "from cardkit.cli.common import _helper\nfrom .common import _helper as h\n",
        "cardkit/games/g/commands.py": "def f():\n    from cardkit.cli.common import SET_HELP, _helper\n",
        "cardkit/load/x.py": "from ..cli.common import _helper\nfrom __future__ import annotations\n",
    })
    assert private_imports(root) == [("cardkit/games/g/commands.py", 2, "cardkit.cli.common._helper"),
                                     ("cardkit/load/x.py", 1, "cardkit.cli.common._helper")]


def test_the_table_is_rendered_top_floor_first():
    assert floors_table(SMALL).splitlines()[2:] == ["| 2 high | `cli` |", "| 1 middle | `load` |",
                                                    "| 0 low | `errors` |"]
