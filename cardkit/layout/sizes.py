"""Named card sizes, usable wherever ``faces.yaml`` takes a face ``size``.

A face size is either two lengths (``[63mm, 88mm]``) or a preset name, with
``landscape`` after it to lay the card on its side (``"mini landscape"``):

>>> preset_size("poker")
('63.5mm', '88.9mm')
>>> preset_size("mini landscape")
('63mm', '41mm')
>>> preset_size("jumbo") is None
True

The dimensions and their sources are listed in ``docs/print.md`` ("Card sizes").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from cardkit.layout.units import MM

# width x height of the portrait card, as written in the sources (docs/print.md)
PRESETS: dict[str, tuple[str, str]] = {
    "poker": ("63.5mm", "88.9mm"),       # 2.5 x 3.5 in
    "bridge": ("57.15mm", "88.9mm"),     # 2.25 x 3.5 in
    "mini": ("41mm", "63mm"),            # "mini American"
    "mini-euro": ("44mm", "68mm"),
    "euro": ("59mm", "92mm"),
    "american": ("56mm", "87mm"),
    "tarot": ("70mm", "120mm"),
    "square": ("70mm", "70mm"),
}
ORIENTATIONS = ("portrait", "landscape")


def preset_size(spec: str) -> tuple[str, str] | None:
    """``(width, height)`` of ``"<preset>"`` or ``"<preset> landscape"``
    (``portrait`` may be written too), or None when the name is unknown."""
    words = spec.split()
    if not words or len(words) > 2 or (len(words) == 2 and words[1] not in ORIENTATIONS):
        return None
    size = PRESETS.get(words[0].lower())
    if size is None:
        return None
    return (size[1], size[0]) if words[-1] == "landscape" else size


def resolve_size(value: Any) -> Any:
    """A face's ``size`` as two lengths: a preset name is looked up, anything
    else is returned unchanged (the schema and the checks judge it)."""
    if isinstance(value, str):
        size = preset_size(value)
        return list(size) if size is not None else value
    return value


def size_problem(value: Any) -> str | None:
    """Why ``value`` is not a face size, or None when it is one."""
    if isinstance(value, str) and preset_size(value) is None:
        quoted = repr(value) if len(repr(value)) <= 22 else repr(value)[:18] + "...'"  # (a line stays under 200)
        return f"unknown card size {quoted}: [width, height] or a preset ({', '.join(PRESETS)}; add 'landscape')"
    return None


@dataclass(frozen=True)
class Fitted:
    """How cards of one size go to a service: as they are (``exact``; any
    size for a service without a product list), scaled (``scale``: the factor
    fills the product's trim, the excess of the other side is cut with the
    bleed) or centred unscaled (``pad``: the card's own bleed art fills a
    larger trim, or its edge is cut for a smaller one)."""

    card_w: float
    card_h: float
    width: float  # the trim printed (the product's, in the card's orientation)
    height: float
    mode: Literal["exact", "scale", "pad"]
    scale: float = 1.0
    product: str = ""

    def describe(self, title: str) -> str:
        size = f"{self.card_w / MM:g} x {self.card_h / MM:g} mm cards"
        target = f"{title} {self.product} ({self.width / MM:.2f} x {self.height / MM:.2f} mm)"
        if self.mode == "exact":
            return f"{size}: {target}" if self.product else f"{size}: printed at their size"
        if self.mode == "scale":
            cut_w = (self.card_w * self.scale - self.width) / 2 / MM
            cut_h = (self.card_h * self.scale - self.height) / 2 / MM
            return (f"{size}: scaled {100 * self.scale:.1f} % to {target}; {cut_w:.2f} mm of each side and "
                    f"{cut_h:.2f} mm of the top and bottom go into the bleed")
        dw, dh = (self.width - self.card_w) / 2 / MM, (self.height - self.card_h) / 2 / MM

        def part(d: float, where: str) -> str:
            return f"{abs(d):.2f} mm of {where} {'added from the card bleed' if d >= 0 else 'cut'}"

        return f"{size}: centred unscaled on {target}; {part(dw, 'each side')}, {part(dh, 'top and bottom')}"
