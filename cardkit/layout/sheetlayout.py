"""The sheet layouts (``--layout``) as one registry, declared as data: one YAML file per
layout in ``cardkit/layout/sheetlayouts/`` (like Squib's sprues).  The planner
(:mod:`cardkit.layout.sheet`), the PDF writer, the command line's help and the layout table
of ``docs/print.md`` all read it, so a new layout that combines the known properties is one
new file (docs/contributing.md, "Adding a sheet layout").

A layout says how its cards share cut lines (``edges``: ``own`` bleed per card, or
``shared`` cut lines between neighbours), whether fronts and backs print on one side about a
fold (``fold``), what goes in the free slots of the last sheet (``free_slots``: ``none``, or
``tokens`` when the sheet is printed on one side), its words in ``--layout``'s help and its
paragraph in the docs.

>>> [lay.name for lay in sheet_layouts()]
['grid', 'shared-edge', 'gutterfold']
>>> sheet_layout("shared-edge").shared, sheet_layout("gutterfold").fold
(True, True)
>>> layout_help()
'grid (each card with its own bleed), shared-edge (cards share cut lines) or gutterfold (fronts and backs on one side, folded)'
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import yaml

from cardkit.errors import CardkitError, Issue

FOLDER = Path(__file__).parent / "sheetlayouts"
EDGES = ("own", "shared")
FREE_SLOTS = ("none", "tokens")
_KEYS = {"name": str, "order": int, "default": bool, "help": str, "edges": str, "fold": bool, "free_slots": str,
         "doc": str}
_REQUIRED = ("name", "order", "help", "edges", "fold", "doc")


@dataclass(frozen=True)
class SheetLayout:
    """One sheet layout, as its file declares it."""

    name: str
    order: int
    help: str
    edges: Literal["own", "shared"]
    fold: bool
    doc: str
    free_slots: Literal["none", "tokens"] = "none"
    default: bool = False
    file: str = ""

    @property
    def shared(self) -> bool:
        """Neighbours share one cut line (the bleed runs around the block only)."""
        return self.edges == "shared"


def _read(path: Path) -> tuple[SheetLayout | None, list[Issue]]:
    """One layout file, or every problem of it (M100-M102), located at the file."""
    where = path.as_posix()
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        return None, [Issue("M100", f"sheet layout file cannot be read: {str(exc).splitlines()[0]}", file=where, line=1, column=1)]
    if not isinstance(data, dict):
        return None, [Issue("M100", "sheet layout file is not a mapping", file=where, line=1, column=1)]
    lines = path.read_text(encoding="utf-8").splitlines()

    def at(key: str) -> int:  # the line of a top-level key (1 for a key that is missing)
        return next((n for n, ln in enumerate(lines, 1) if ln.startswith(f"{key}:")), 1)

    issues = []
    for key in data:
        if key not in _KEYS:
            issues.append(Issue("M101", f"unknown key '{key}' (use {', '.join(_KEYS)})", file=where, line=at(key),
                                column=1))
    for key in _REQUIRED:
        if key not in data:
            issues.append(Issue("M101", f"missing key '{key}'", file=where, line=1, column=1))
    for key, kind in _KEYS.items():
        if key in data and not isinstance(data[key], kind):
            issues.append(Issue("M102", f"'{key}' must be a {kind.__name__}", file=where, line=at(key), column=1))
    for key, allowed in (("edges", EDGES), ("free_slots", FREE_SLOTS)):
        if isinstance(data.get(key), str) and data[key] not in allowed:
            issues.append(Issue("M102", f"'{key}' is '{data[key]}' (use {' or '.join(allowed)})", file=where,
                                line=at(key), column=1))
    if data.get("free_slots") == "tokens" and data.get("fold") is not True:
        issues.append(Issue("M102", "'free_slots: tokens' needs a one-sided sheet ('fold: true'): on a duplex sheet "
                                    "the free slots have backs", file=where, line=at("free_slots"), column=1))
    if isinstance(data.get("name"), str) and data["name"] != path.stem:
        issues.append(Issue("M102", f"name '{data['name']}' is not the file's name '{path.stem}'", file=where,
                            line=at("name"), column=1))
    if issues:
        return None, issues
    fields: dict[str, Any] = {k: " ".join(v.split()) if isinstance(v, str) else v for k, v in data.items()}
    return SheetLayout(file=where, **fields), []


def load_layouts(folder: Path) -> tuple[SheetLayout, ...]:
    """Every layout file of ``folder`` in their ``order``; raises with every problem of
    every file at once (M100-M102; M103: not exactly one default, or two with one order)."""
    found: list[SheetLayout] = []
    issues: list[Issue] = []
    for path in sorted(folder.glob("*.yaml")):
        layout, problems = _read(path)
        issues += problems
        if layout is not None:
            found.append(layout)
    if not issues and sum(lay.default for lay in found) != 1:
        issues.append(Issue("M103", f"{sum(lay.default for lay in found)} sheet layouts say 'default: true': "
                                    "exactly one must", file=folder.as_posix()))
    orders = [lay.order for lay in found]
    if len(set(orders)) != len(orders):
        issues.append(Issue("M103", "two sheet layouts have the same 'order'", file=folder.as_posix()))
    if issues:
        raise CardkitError(issues)
    return tuple(sorted(found, key=lambda lay: lay.order))


@functools.cache
def sheet_layouts() -> tuple[SheetLayout, ...]:
    """The registry: cardkit's sheet layouts, in their order."""
    return load_layouts(FOLDER)


def sheet_layout(name: str) -> SheetLayout:
    """The layout called ``name`` (B008 for an unknown one)."""
    for lay in sheet_layouts():
        if lay.name == name:
            return lay
    raise CardkitError(f"unknown --layout '{name}' (use {', '.join(layout_names())})", code="B008")


def layout_names() -> tuple[str, ...]:
    return tuple(lay.name for lay in sheet_layouts())


def default_layout() -> str:
    return next(lay.name for lay in sheet_layouts() if lay.default)


def layout_help() -> str:
    """``--layout``'s help: each layout with its words, in order."""
    parts = [f"{lay.name} ({lay.help})" for lay in sheet_layouts()]
    return ", ".join(parts[:-1]) + f" or {parts[-1]}" if len(parts) > 1 else parts[0]


TABLE_START = "<!-- sheet layouts: generated from cardkit/layout/sheetlayouts/*.yaml (cardkit.layout.sheetlayout.layout_table) -->"
TABLE_END = "<!-- end of sheet layouts -->"


def layout_table() -> str:
    """The layout table of ``docs/print.md`` (between :data:`TABLE_START` and :data:`TABLE_END`)."""
    rows = ["| `--layout` | cut lines | backs | free slots of the last sheet | what it is |", "|---|---|---|---|---|"]
    for lay in sheet_layouts():
        name = f"`{lay.name}`" + (" (default)" if lay.default else "")
        edges = "shared with neighbours" if lay.shared else "each card its own bleed"
        backs = "behind a fold, on the same side" if lay.fold else "on back pages (duplex)"
        rows.append(f"| {name} | {edges} | {backs} | {lay.free_slots} | {lay.doc} |")
    return "\n".join(rows)
