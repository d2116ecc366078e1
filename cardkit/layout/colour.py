"""Colour syntax of face files: ``#rrggbb`` or ``cmyk(c, m, y, k)`` (per cent
inks, for print: docs/print.md, "CMYK and PDF/X"), and how a CMYK colour
shows in RGB output."""

from __future__ import annotations

import re

CMYK = tuple[float, float, float, float]
PAPER = "#f6f1e4"  # a face without a background
INK = "#1d1b18"  # text and strokes that name no colour
_CMYK_RE = re.compile(r"^cmyk\(\s*([0-9]+(?:\.[0-9]+)?)\s*,\s*([0-9]+(?:\.[0-9]+)?)\s*,"
                      r"\s*([0-9]+(?:\.[0-9]+)?)\s*,\s*([0-9]+(?:\.[0-9]+)?)\s*\)$")


def parse_cmyk(text: str) -> CMYK | None:
    """``cmyk(c, m, y, k)`` in per cent as fractions, or None when ``text`` is not that form
    (or a component is above 100)."""
    m = _CMYK_RE.match(text.strip())
    if m is None:
        return None
    values = tuple(float(v) / 100 for v in m.groups())
    if any(v > 1 for v in values):
        return None
    return values[0], values[1], values[2], values[3]


def cmyk_to_rgb(cmyk: CMYK) -> tuple[float, float, float]:
    """The inverse of the naive formula: how a CMYK palette colour shows in RGB output."""
    c, m, y, k = cmyk
    return (1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k)


def display_hex(colour: str) -> str:
    """A ``cmyk(...)`` colour as the ``#rrggbb`` RGB output shows it (a hex colour unchanged)."""
    given = parse_cmyk(colour)
    if given is None:
        return colour
    return "#{:02x}{:02x}{:02x}".format(*(round(v * 255) for v in cmyk_to_rgb(given)))
