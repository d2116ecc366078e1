"""Print-service presets: trim sizes, bleed, resolution, page order and file
naming bundled per service.  Sources are listed in ``docs/print.md``
("Print services"); a size a service's specification does not state is
computed from its bleed rule and said so there.

>>> p = PRESETS["thegamecrafter"]
>>> p.pixels(63.5 * MM, 88.9 * MM)
(825, 1125)
>>> PRESETS["drivethrucards"].page_order
'back-front'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from cardkit.errors import CardkitError
from cardkit.layout.units import INCH, MM

PageOrder = Literal["front-back", "back-front"]
Output = Literal["pdf", "png"]


@dataclass(frozen=True)
class ShopPreset:
    """What one print service asks for."""

    name: str
    title: str
    bleed: float  # points beyond the trim on every side
    ppi: int  # raster resolution
    outputs: tuple[Output, ...]
    page_order: PageOrder  # in the one-card-per-page PDF
    pdf_per_deck: bool  # one PDF per deck, or one for the set
    # file names: {set} {locale} {deck} {n} (1-based card number) {side} (front/back) {face} (face id, safe)
    png_name: str = "{deck}/{n:03d}-{side}-{face}.png"
    # sizes (width, height in points, portrait) the service prints; None: any size
    sizes: tuple[tuple[str, float, float], ...] | None = None

    def pixels(self, width: float, height: float) -> tuple[int, int]:
        """The exact pixel size of a card of ``width`` x ``height`` points with this bleed."""
        return (round((width + 2 * self.bleed) * self.ppi / INCH), round((height + 2 * self.bleed) * self.ppi / INCH))

    def check_size(self, width: float, height: float) -> str | None:
        """Why the service cannot print this card size, or None."""
        if self.sizes is None:
            return None
        for _, w, h in self.sizes:
            if {round(width, 1), round(height, 1)} == {round(w, 1), round(h, 1)}:
                return None
        names = ", ".join(f"{n} ({w / MM:g} x {h / MM:g} mm)" for n, w, h in self.sizes)
        return f"{self.title} prints {names}; this card is {width / MM:g} x {height / MM:g} mm"


_POKER = ("poker", 2.5 * INCH, 3.5 * INCH)
_BRIDGE = ("bridge", 2.25 * INCH, 3.5 * INCH)
_TAROT = ("tarot", 2.75 * INCH, 4.75 * INCH)
_SQUARE = ("square", 3.5 * INCH, 3.5 * INCH)
_MINI_TGC = ("mini", 1.75 * INCH, 2.5 * INCH)

PRESETS: dict[str, ShopPreset] = {
    "generic": ShopPreset("generic", "Generic print shop", 3 * MM, 300, ("pdf", "png"), "front-back", False),
    "thegamecrafter": ShopPreset("thegamecrafter", "The Game Crafter", 0.125 * INCH, 300, ("png",), "front-back",
                                 False, png_name="{deck}/{n:03d}-{side}-{face}.png",
                                 sizes=(_POKER, _BRIDGE, _MINI_TGC, _TAROT, _SQUARE)),
    "drivethrucards": ShopPreset("drivethrucards", "DriveThruCards", 0.125 * INCH, 300, ("pdf",), "back-front", True,
                                 sizes=(_POKER, _BRIDGE, _TAROT, _SQUARE)),
}


def preset(name: str) -> ShopPreset:
    if name not in PRESETS:
        raise CardkitError(f"unknown --preset '{name}' (use {', '.join(PRESETS)})", code="B010")
    return PRESETS[name]
