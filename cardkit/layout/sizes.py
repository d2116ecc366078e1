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

from typing import Any

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
