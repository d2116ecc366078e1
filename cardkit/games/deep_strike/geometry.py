"""Table geometry of a Deep Strike scenario, in inches.

The table's origin is its bottom-left corner; player A deploys at the bottom
(long edges) or in the bottom-left quarter (quarters), player B opposite.
Print maps and the deployment checker both read this module.

>>> g = table_geometry({"table": {"width": 72, "depth": 48}, "deployment": {"zones": "quarters",
...     "zone_depth": None, "min_distance_centre": 12, "min_distance_enemy": None}, "terrain": []})
>>> g.zones["a"], g.zones["b"], g.centre_exclusion
((0.0, 0.0, 36.0, 24.0), (36.0, 24.0, 72.0, 48.0), 12.0)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

Box = tuple[float, float, float, float]  # x0, y0, x1, y1


@dataclass(frozen=True)
class Footprint:
    id: str
    part: str
    box: Box
    movement: str
    blocks_los: bool


@dataclass(frozen=True)
class TableGeometry:
    width: float
    depth: float
    zone_kind: str  # quarters | long_edges
    zones: dict[str, Box]
    side_quarters: tuple[Box, ...]
    centre_exclusion: float | None
    enemy_gap: float | None
    footprints: tuple[Footprint, ...] = field(default=())
    markers: tuple[tuple[str, float, float], ...] = field(default=())

    @property
    def centre(self) -> tuple[float, float]:
        return (self.width / 2, self.depth / 2)


def table_geometry(scenario: Mapping[str, Any], width: float | None = None, depth: float | None = None) -> TableGeometry:
    t = scenario["table"]
    w = float(width if width is not None else t["width"])
    d = float(depth if depth is not None else t["depth"])
    dep = scenario["deployment"]
    sides: tuple[Box, ...] = ()
    if dep["zones"] == "quarters":
        zones = {"a": (0.0, 0.0, w / 2, d / 2), "b": (w / 2, d / 2, w, d)}
        sides = ((0.0, d / 2, w / 2, d), (w / 2, 0.0, w, d / 2))
    else:
        depth_in = float(dep["zone_depth"])
        zones = {"a": (0.0, 0.0, w, depth_in), "b": (0.0, d - depth_in, w, d)}
    footprints = []
    markers = []
    cx, cy = w / 2, d / 2
    for piece in scenario.get("terrain") or []:
        for part in piece.get("parts") or []:
            if part.get("shape") == "rectangle":
                pw, pd = float(part["width"]), float(part["depth"])
                footprints.append(Footprint(piece["id"], part["id"], (cx - pw / 2, cy - pd / 2, cx + pw / 2, cy + pd / 2),
                                            part.get("movement", "open"), bool(part.get("blocks_line_of_sight"))))
            else:
                markers.append((piece["id"], cx, cy))
        if not piece.get("parts"):
            markers.append((piece["id"], cx, cy))
    return TableGeometry(w, d, dep["zones"], zones, sides,
                         float(dep["min_distance_centre"]) if dep.get("min_distance_centre") else None,
                         float(dep["min_distance_enemy"]) if dep.get("min_distance_enemy") else None,
                         tuple(footprints), tuple(markers))
