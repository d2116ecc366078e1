"""CMYK for print shops: cardkit's RGB colours and artwork to DeviceCMYK, with
an ink limit, text and thin lines in black ink only and large dark floods in a
rich black (``--colour cmyk``; docs/print.md, "CMYK and PDF/X").

The transform is a documented formula, not colour management: no licence-clean
CMYK ICC profile ships with cardkit (see docs/print.md).  For an sRGB colour
with components r, g, b in 0..1:

* black generation with full grey-component replacement (GCR):
  ``k = 1 - max(r, g, b)``; ``c = (1 - r - k) / (1 - k)`` (likewise m, y), so
  a grey prints in K alone and no colour carries a grey of three inks;
* the ink limit: when ``c + m + y + k`` exceeds it, c, m and y are scaled by
  the same factor until the total equals it (K is kept, so text stays sharp);
* text, thin lines (under 1 pt) and neutral colours are drawn in K only
  (``k = 1 - luma``); a large neutral dark flood (at least
  :data:`RICH_BLACK_AREA`) gets :data:`RICH_BLACK` under its K.

Palette colours may also be given as CMYK in ``faces.yaml``:
``cmyk(0, 20, 100, 0)`` (percentages); they are used as given (the ink limit
still applies) and, for RGB output, shown through the inverse formula.
"""

from __future__ import annotations

import functools
import io
from dataclasses import dataclass
from typing import Literal

from PIL import Image, ImageMath

from cardkit.layout.colour import CMYK, parse_cmyk

ColourSpace = Literal["rgb", "cmyk"]
COLOUR_SPACES: tuple[ColourSpace, ...] = ("rgb", "cmyk")
DEFAULT_INK_LIMIT = 240.0  # per cent: DriveThruCards' limit, and a safe one for coated and uncoated stock
MIN_INK_LIMIT, MAX_INK_LIMIT = 100.0, 400.0
THIN_LINE = 1.0  # pt: strokes under this width print in K only (no misregistration fringe)
NEUTRAL = 0.06  # a colour whose r, g, b differ by at most this is grey: K only
RICH_BLACK = (0.40, 0.30, 0.30)  # C, M, Y under a 100 % K flood (200 % total; scaled with the flood's K)
RICH_BLACK_AREA = 400.0  # pt² (about 1.4 cm²): a dark neutral fill at least this large is a flood
RICH_BLACK_K = 0.80  # a neutral fill at least this dark is a "dark flood"

@dataclass(frozen=True)
class ColourOptions:
    """How a document's colours are written: ``rgb`` (the default, unchanged)
    or ``cmyk`` with a total ink limit in per cent."""
    space: ColourSpace = "rgb"
    ink_limit: float = DEFAULT_INK_LIMIT


RGB_OUTPUT = ColourOptions()


def hex_rgb(hex_colour: str) -> tuple[float, float, float]:
    return tuple(int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5))  # type: ignore[return-value]


def limit_ink(cmyk: CMYK, ink_limit: float) -> CMYK:
    """Scale C, M and Y so that the total is at most ``ink_limit`` per cent."""
    c, m, y, k = cmyk
    limit = ink_limit / 100
    cmy = c + m + y
    if k + cmy <= limit or cmy <= 0:
        return cmyk
    f = max(0.0, limit - k) / cmy
    return c * f, m * f, y * f, k


def rgb_to_cmyk(rgb: tuple[float, float, float]) -> CMYK:
    """Full GCR: the grey component all in K."""
    r, g, b = rgb
    mx = max(r, g, b)
    k = 1 - mx
    if mx <= 0:
        return 0.0, 0.0, 0.0, 1.0
    return (mx - r) / mx, (mx - g) / mx, (mx - b) / mx, k


def is_neutral(rgb: tuple[float, float, float]) -> bool:
    return max(rgb) - min(rgb) <= NEUTRAL


def luma(rgb: tuple[float, float, float]) -> float:
    r, g, b = rgb
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


Role = Literal["fill", "flood", "text", "line"]


def convert(colour: str, role: Role, ink_limit: float) -> CMYK:
    """A cardkit colour (``#rrggbb`` or ``cmyk(...)``) as DeviceCMYK for ``role``:
    ``text`` and ``line`` (a thin stroke) in K only when the colour is neutral or
    black; a neutral dark ``flood`` in rich black; everything ink-limited."""
    given = parse_cmyk(colour)
    if given is not None:
        return limit_ink(given, ink_limit)
    rgb = hex_rgb(colour)
    if is_neutral(rgb):
        k = round(1 - luma(rgb), 4)
        if role == "text" or role == "line":
            return 0.0, 0.0, 0.0, (1.0 if k >= RICH_BLACK_K else k)
        if role == "flood" and k >= RICH_BLACK_K:
            rc, rm, ry = RICH_BLACK
            return limit_ink((rc * k, rm * k, ry * k, k), ink_limit)
        return 0.0, 0.0, 0.0, k
    c, m, y, k = rgb_to_cmyk(rgb)
    return limit_ink((round(c, 4), round(m, 4), round(y, 4), round(k, 4)), ink_limit)


def image_to_cmyk(image: Image.Image, ink_limit: float) -> Image.Image:
    """An RGB image as CMYK through the same formula (full GCR, CMY scaled to
    the ink limit), computed per pixel with Pillow's ImageMath."""
    rgb = image.convert("RGB")
    r, g, b = (band.convert("F") for band in rgb.split())
    limit = ink_limit / 100 * 255
    env = {"r": r, "g": g, "b": b}
    mx = ImageMath.lambda_eval(lambda a: a["max"](a["max"](a["r"], a["g"]), a["b"]), **env)
    env["mx"] = mx
    k = ImageMath.lambda_eval(lambda a: 255 - a["mx"], **env)
    safe = ImageMath.lambda_eval(lambda a: a["max"](a["mx"], 1.0), **env)
    env.update(k=k, safe=safe)
    def chroma(ch: str) -> Image.Image:
        return ImageMath.lambda_eval(lambda a: (a["mx"] - a[ch]) * 255 / a["safe"], **env)  # type: ignore[no-any-return]

    c, m, y = (chroma(ch) for ch in "rgb")
    env.update(c=c, m=m, y=y)
    cmy = ImageMath.lambda_eval(lambda a: a["max"](a["c"] + a["m"] + a["y"], 0.001), **env)
    env["cmy"] = cmy
    # factor = min(1, max(0, limit - k) / cmy)
    factor = ImageMath.lambda_eval(
        lambda a: a["min"](a["max"](limit - a["k"], 0.0) / a["cmy"], 1.0), **env)
    env["f"] = factor
    def plane(ch: str) -> Image.Image:
        # F -> L conversion rounds to the nearest: half a level less, so that the sum never rounds above the limit
        return ImageMath.lambda_eval(lambda a: a["max"](a[ch] * a["f"] - 0.5, 0.0), **env).convert("L")  # type: ignore[no-any-return]

    planes = [plane(ch) for ch in "cmy"]
    return Image.merge("CMYK", (*planes, k.convert("L")))


@functools.lru_cache(maxsize=64)
def png_to_cmyk(png: bytes, ink_limit: float) -> Image.Image:
    with Image.open(io.BytesIO(png)) as im:
        return image_to_cmyk(im, ink_limit)
