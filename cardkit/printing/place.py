"""A composed face placed on a page: at its trim, clipped to its bleed, turned, or fitted
to a print product's trim.
"""

from __future__ import annotations

from cardkit.layout.compose import Face
from cardkit.layout.ops import Group, Op
from cardkit.layout.sizes import Fitted

Edges = tuple[float, float, float, float]  # bleed beyond the trim: left, bottom, right, top


def place_face(face: Face, x: float, y: float, bleed: float | Edges, turned: bool) -> Group:
    """``face`` with its trim's bottom-left corner at (x, y), clipped to its
    bleed (one width all round, or per edge on the page), turned 180° about its
    centre when ``turned``."""
    t = face.template
    left, bottom, right, top = (bleed,) * 4 if isinstance(bleed, (int, float)) else bleed
    if turned:  # the page's left edge is the face's right edge
        left, bottom, right, top = right, top, left, bottom
    clip = (-left, -bottom, t.width + left + right, t.height + bottom + top)
    if turned:
        return Group((Group(tuple(face.ops), clip=clip),), dx=x + t.width, dy=y + t.height, rotate=180)
    return Group(tuple(face.ops), dx=x, dy=y, clip=clip)



def fitted_face(face: Face, fit: Fitted | None, x: float, y: float, bleed: tuple[float, float, float, float]) -> Op:
    """``face`` on the trim of ``fit`` (its product's size) whose bottom-left
    corner is (x, y), clipped to that trim plus ``bleed`` (left, bottom, right,
    top): as it is, scaled about its centre, or centred unscaled."""
    t = face.template
    if fit is None or fit.mode == "exact":
        return place_face(face, x, y, bleed, False)
    s = fit.scale
    ox, oy = x + (fit.width - t.width * s) / 2, y + (fit.height - t.height * s) / 2
    left, bottom, right, top = bleed
    clip = ((x - left - ox) / s, (y - bottom - oy) / s, (fit.width + left + right) / s, (fit.height + bottom + top) / s)
    return Group(tuple(face.ops), dx=ox, dy=oy, clip=clip, scale=s)

