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

from cardkit.errors import CardkitError, Issue
from cardkit.layout.sizes import Fitted as Fitted  # the type lives with the card sizes, below printing
from cardkit.layout.units import INCH, MM

PageOrder = Literal["front-back", "back-front"]
Output = Literal["pdf", "png"]
FitMode = Literal["none", "scale", "pad"]
FIT_MODES: tuple[FitMode, ...] = ("none", "scale", "pad")
SCALE_TOLERANCE = 0.03  # --fit scale: a card is scaled by at most 3 %...
ASPECT_TOLERANCE = 0.02  # ...and its proportions may differ from the product's by at most 2 % (cut with the bleed)
PAD_TOLERANCE = 1.5 * MM  # --fit pad: at most this much of the card's own bleed shown, or of its edge cut, per side


@dataclass(frozen=True)
class Product:
    """A card size a service sells (portrait width x height, points)."""

    name: str
    width: float
    height: float

    def turned(self, landscape: bool) -> tuple[float, float]:
        return (self.height, self.width) if landscape and self.height > self.width else (self.width, self.height)


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
    # the products (card sizes) the service prints; None: any size
    sizes: tuple[Product, ...] | None = None
    safe: float = 3 * MM  # the service's safe zone: nothing important this close to the trim
    min_bleed: float = 3 * MM  # the least bleed a sheet for this service plans for

    def pixels(self, width: float, height: float) -> tuple[int, int]:
        """The exact pixel size of a card of ``width`` x ``height`` points with this bleed."""
        return (round((width + 2 * self.bleed) * self.ppi / INCH), round((height + 2 * self.bleed) * self.ppi / INCH))

    def check_size(self, width: float, height: float) -> str | None:
        """Why the service cannot print this card size as it is, or None."""
        if self.sizes is None or self._exact(width, height) is not None:
            return None
        names = ", ".join(f"{p.name} ({p.width / MM:g} x {p.height / MM:g} mm)" for p in self.sizes)
        return f"{self.title} prints {names}; this card is {width / MM:g} x {height / MM:g} mm"

    def _exact(self, width: float, height: float) -> Product | None:
        for p in self.sizes or ():
            if {round(width, 1), round(height, 1)} == {round(p.width, 1), round(p.height, 1)}:
                return p
        return None

    def fit(self, width: float, height: float, mode: FitMode) -> Fitted | str:
        """How a card of ``width`` x ``height`` goes to this service with
        ``--fit mode``, or why it cannot.

        >>> tgc = PRESETS["thegamecrafter"]
        >>> f = tgc.fit(63 * MM, 88 * MM, "scale")
        >>> (f.product, round(f.scale, 4))
        ('poker', 1.0102)
        >>> tgc.fit(63 * MM, 88 * MM, "pad").mode
        'pad'
        >>> tgc.fit(63 * MM, 88 * MM, "none")[:40]
        'The Game Crafter prints poker (63.5 x 88'
        """
        landscape = width > height
        if self.sizes is None:
            return Fitted(width, height, width, height, "exact")
        exact = self._exact(width, height)
        if exact is not None:
            w, h = exact.turned(landscape)
            return Fitted(width, height, w, h, "exact", product=exact.name)
        why = self.check_size(width, height) or ""
        if mode == "none":
            return why

        def distance(p: Product) -> float:
            w, h = p.turned(landscape)
            return max(abs(w / width - 1), abs(h / height - 1))

        near = min(self.sizes, key=distance)
        w, h = near.turned(landscape)
        if mode == "scale":
            s = max(w / width, h / height)
            if abs(s - 1) > SCALE_TOLERANCE + 1e-9 or abs((w / width) / (h / height) - 1) > ASPECT_TOLERANCE + 1e-9:
                return self.no_product(width, height, f"within --fit scale's {100 * (1 - SCALE_TOLERANCE):g}-"
                                       f"{100 * (1 + SCALE_TOLERANCE):g} % and {100 * ASPECT_TOLERANCE:g} % in "
                                       "proportions")
            return Fitted(width, height, w, h, "scale", s, near.name)
        if max(abs(w - width), abs(h - height)) / 2 > PAD_TOLERANCE + 1e-9:
            return self.no_product(width, height, f"within --fit pad's {PAD_TOLERANCE / MM:g} mm a side", pad=True)
        return Fitted(width, height, w, h, "pad", 1.0, near.name)

    def no_product(self, width: float, height: float, rule: str, pad: bool = False) -> str:
        """Why no product takes a card of ``width`` x ``height`` under ``rule``, naming
        the products nearest in size and in proportions (two each), with the scale and
        the difference in proportions each would need (``pad``: how much larger or
        smaller it is a side), so that the user can choose one.

        >>> print(PRESETS["drivethrucards"].no_product(95 * MM, 135 * MM, "within 3 %"))
        DriveThruCards prints no product within 3 % for this 95 x 135 mm card; nearest in size: tarot (69.85 x 120.65 mm: scale 89.4 %, proportions 17.7 % off), poker (63.5 x 88.9 mm: scale 66.8 %, proportions 1.5 % off); nearest in proportions: mini (44.45 x 63.5 mm: scale 47.0 %, proportions 0.5 % off)
        """
        landscape = width > height

        def sides(p: Product) -> tuple[float, float]:
            return p.turned(landscape)

        def size_off(p: Product) -> float:
            w, h = sides(p)
            return max(abs(w / width - 1), abs(h / height - 1))

        def shape_off(p: Product) -> float:
            w, h = sides(p)
            return abs((w / width) / (h / height) - 1)

        def named(p: Product) -> str:
            w, h = sides(p)
            if pad:
                dw, dh = (w - width) / 2 / MM, (h - height) / 2 / MM
                return (f"{p.name} ({w / MM:g} x {h / MM:g} mm: {abs(dw):.2f} mm a side {'wider' if dw >= 0 else 'narrower'}, "
                        f"{abs(dh):.2f} mm at top and bottom {'longer' if dh >= 0 else 'shorter'})")
            return (f"{p.name} ({w / MM:g} x {h / MM:g} mm: scale {100 * max(w / width, h / height):.1f} %, "
                    f"proportions {100 * shape_off(p):.1f} % off)")

        products = self.sizes or ()
        by_size = sorted(products, key=size_off)[:2]
        by_shape = [p for p in sorted(products, key=shape_off)[:2] if p not in by_size]
        line = (f"{self.title} prints no product {rule} for this {width / MM:g} x {height / MM:g} mm card; "
                f"nearest in size: {', '.join(named(p) for p in by_size)}")
        return line + (f"; nearest in proportions: {', '.join(named(p) for p in by_shape)}" if by_shape else "")


_POKER = Product("poker", 2.5 * INCH, 3.5 * INCH)
_BRIDGE = Product("bridge", 2.25 * INCH, 3.5 * INCH)
_TAROT = Product("tarot", 2.75 * INCH, 4.75 * INCH)
_SQUARE = Product("square", 3.5 * INCH, 3.5 * INCH)
_MINI = Product("mini", 1.75 * INCH, 2.5 * INCH)
_JUMBO = Product("jumbo", 3.5 * INCH, 5.75 * INCH)
_SMALL_SQUARE = Product("small-square", 2.5 * INCH, 2.5 * INCH)

PRESETS: dict[str, ShopPreset] = {
    "generic": ShopPreset("generic", "Generic print shop", 3 * MM, 300, ("pdf", "png"), "front-back", False),
    "thegamecrafter": ShopPreset("thegamecrafter", "The Game Crafter", 0.125 * INCH, 300, ("png",), "front-back",
                                 False, png_name="{deck}/{n:03d}-{side}-{face}.png",
                                 sizes=(_POKER, _BRIDGE, _MINI, _TAROT, _SQUARE, _SMALL_SQUARE, _JUMBO),
                                 safe=0.125 * INCH, min_bleed=0.125 * INCH),
    "drivethrucards": ShopPreset("drivethrucards", "DriveThruCards", 0.125 * INCH, 300, ("pdf",), "back-front", True,
                                 sizes=(_POKER, _BRIDGE, _MINI, _TAROT, _SQUARE), safe=0.125 * INCH,
                                 min_bleed=0.125 * INCH),
}


def fit_issue(fit: str) -> Issue | None:
    """B014 when ``fit`` is not one of :data:`FIT_MODES`."""
    if fit in FIT_MODES:
        return None
    return Issue("B014", f"unknown --fit '{fit}' (use {', '.join(FIT_MODES)})")


def preset(name: str) -> ShopPreset:
    if name not in PRESETS:
        raise CardkitError(f"unknown --preset '{name}' (use {', '.join(PRESETS)})", code="B010")
    return PRESETS[name]
