"""Lengths with units, converted to PDF points once, here.

>>> to_pt("63mm")
178.58267716535434
>>> to_pt("0.125in"), to_pt("9pt"), to_pt(12)
(9.0, 9.0, 12.0)
"""

from __future__ import annotations

import re

from cardkit.errors import CardkitError

MM = 72 / 25.4
INCH = 72.0
_UNITS = {"mm": MM, "cm": 10 * MM, "in": INCH, "pt": 1.0}
_RE = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(mm|cm|in|pt)\s*$")


def to_pt(value: str | float | int) -> float:
    """Convert ``"63mm"``, ``"0.125in"``, ``"9pt"`` or a bare number (points)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    m = _RE.match(str(value))
    if not m:
        raise CardkitError(f"bad length {value!r}: use a number with mm, cm, in or pt", code="U001")
    return float(m.group(1)) * _UNITS[m.group(2)]


def pt_to_mm(value: float) -> float:
    return value / MM
