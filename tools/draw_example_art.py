"""Draw the artwork of the example game Tidelights (examples/tidelights) with Pillow.

Every picture is drawn from fixed shapes and fixed numbers (no randomness, no fonts,
no input files), so running this script again rewrites the committed PNGs byte for
byte with the same Pillow version:

    python tools/draw_example_art.py            # writes examples/tidelights/cards/tidelights/art/*.png
    python tools/draw_example_art.py --check    # exit 1 if a committed PNG differs

Pictures: four keeper portraits (one per station colour) and three ships (one per rig).
They are drawn at 4x and scaled down for smooth edges, then stored as 64-colour PNGs
(each well under 100 KB).
"""

from __future__ import annotations

import argparse
import io
import math
import sys
from pathlib import Path

from PIL import Image, ImageDraw

ART = Path(__file__).resolve().parent.parent / "examples" / "tidelights" / "cards" / "tidelights" / "art"
# 300 ppi and more in the faces' boxes, which crop the picture to fill them (fit: cover):
# the keepers' 54 x 37 mm at 316 ppi, the ships' 54 x 38.5 mm at 305 ppi (validate's Q003)
SIZE = (672, 462)
SS = 4  # supersampling factor
PX = SS * SIZE[0] / 480  # one pixel of the first, 480-pixel drawing: strokes and waves keep their proportions

Colour = tuple[int, int, int]

# station -> (sky top, sky bottom, coat, hat style)
KEEPERS: dict[str, tuple[Colour, Colour, Colour, str]] = {
    "north": ((18, 30, 58), (70, 104, 148), (40, 62, 96), "cap"),
    "east": ((52, 30, 28), (196, 128, 70), (120, 70, 34), "brim"),
    "south": ((44, 18, 32), (178, 88, 78), (118, 42, 38), "hood"),
    "west": ((14, 40, 44), (86, 150, 138), (36, 92, 82), "scarf"),
}
# rig -> number of masts, hull colour, sail colour
SHIPS: dict[str, tuple[int, Colour, Colour]] = {
    "skiff": (1, (92, 58, 40), (236, 226, 200)),
    "ketch": (2, (58, 46, 52), (226, 214, 184)),
    "brig": (3, (34, 34, 48), (240, 232, 214)),
}


def _mix(a: Colour, b: Colour, t: float) -> Colour:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def _canvas(top: Colour, bottom: Colour) -> tuple[Image.Image, ImageDraw.ImageDraw, int, int]:
    w, h = SIZE[0] * SS, SIZE[1] * SS
    img = Image.new("RGB", (w, h), top)
    d = ImageDraw.Draw(img)
    for y in range(0, h, SS):  # the sky, a vertical gradient in bands of one output pixel
        d.rectangle([0, y, w, y + SS], fill=_mix(top, bottom, y / h))
    return img, d, w, h


def _sea(d: ImageDraw.ImageDraw, w: int, h: int, horizon: float, deep: Colour, crest: Colour) -> None:
    y0 = int(h * horizon)
    d.rectangle([0, y0, w, h], fill=deep)
    for row in range(7):  # rows of wave crests, wider and lower towards the viewer
        y = y0 + int((h - y0) * (0.12 + row * 0.14))
        amp = 6 * PX * (1 + row * 0.4)
        period = 90 * PX * (1 + row * 0.25)
        pts = [(x, y + amp * math.sin(2 * math.pi * (x / period + row * 0.37))) for x in range(0, w + round(8 * PX), round(8 * PX))]
        d.line(pts, fill=_mix(deep, crest, 0.35 + row * 0.06), width=int(2 * PX * (1 + row * 0.3)))


def _stars(d: ImageDraw.ImageDraw, w: int, h: int, colour: Colour) -> None:
    for k in range(28):  # a fixed scatter (golden-angle steps), not random
        x = (k * 0.618034 % 1.0) * w
        y = ((k * 0.381966 + k * k * 0.013) % 1.0) * h * 0.42
        r = PX * (1.2 + (k % 3) * 0.6)
        d.ellipse([x - r, y - r, x + r, y + r], fill=colour)


def _lighthouse(d: ImageDraw.ImageDraw, x: float, base: float, height: float, body: Colour, lamp: Colour,
                beam_to: float) -> None:
    top = base - height
    half_b, half_t = height * 0.13, height * 0.08
    beam = [(x, top + height * 0.06), (beam_to, top - height * 0.25), (beam_to, top + height * 0.35)]
    d.polygon(beam, fill=_mix(lamp, (255, 255, 255), 0.35))
    d.polygon([(x - half_b, base), (x + half_b, base), (x + half_t, top + height * 0.12), (x - half_t, top + height * 0.12)],
              fill=body)
    for band in (0.35, 0.62):  # red bands round the tower
        yb = top + height * band
        hb = height * 0.08
        wb = half_t + (half_b - half_t) * band
        d.rectangle([x - wb, yb, x + wb, yb + hb], fill=(168, 52, 44))
    d.rectangle([x - half_t * 1.1, top, x + half_t * 1.1, top + height * 0.12], fill=lamp)
    d.polygon([(x - half_t * 1.4, top), (x + half_t * 1.4, top), (x, top - height * 0.1)], fill=body)


def keeper(station: str) -> Image.Image:
    sky_top, sky_bottom, coat, hat = KEEPERS[station]
    img, d, w, h = _canvas(sky_top, sky_bottom)
    _stars(d, w, h, _mix(sky_bottom, (255, 255, 255), 0.7))
    _lighthouse(d, w * 0.8, h * 0.62, h * 0.5, (236, 230, 214), (255, 217, 90), w * 0.42)
    d.polygon([(w * 0.6, h * 0.62), (w * 0.98, h * 0.62), (w, h * 0.58), (w, h * 0.66), (w * 0.58, h * 0.66)],
              fill=_mix(sky_top, (0, 0, 0), 0.3))
    _sea(d, w, h, 0.64, _mix(sky_top, (0, 20, 40), 0.3), sky_bottom)
    # the keeper: shoulders, neck, head and a hat by station
    skin, dark = (222, 184, 150), _mix(coat, (0, 0, 0), 0.45)
    cx, cy = w * 0.32, h * 0.48
    d.ellipse([cx - w * 0.26, h * 0.7, cx + w * 0.26, h * 1.35], fill=coat)
    if hat == "hood":  # behind the head, framing the face
        d.rounded_rectangle([cx - w * 0.12, cy - h * 0.22, cx + w * 0.12, cy + h * 0.26], radius=w * 0.1, fill=dark)
    d.rectangle([cx - w * 0.035, cy + h * 0.1, cx + w * 0.035, h * 0.76], fill=_mix(skin, (0, 0, 0), 0.15))
    d.ellipse([cx - w * 0.085, cy - h * 0.14, cx + w * 0.085, cy + h * 0.14], fill=skin)
    d.ellipse([cx - w * 0.04, cy - h * 0.02, cx - w * 0.02, cy + h * 0.01], fill=dark)
    d.ellipse([cx + w * 0.02, cy - h * 0.02, cx + w * 0.04, cy + h * 0.01], fill=dark)
    d.arc([cx - w * 0.035, cy + h * 0.02, cx + w * 0.035, cy + h * 0.08], 20, 160, fill=dark, width=round(2 * PX))
    if hat == "cap":
        d.chord([cx - w * 0.095, cy - h * 0.2, cx + w * 0.095, cy - h * 0.0], 180, 360, fill=dark)
        d.rectangle([cx - w * 0.11, cy - h * 0.11, cx + w * 0.13, cy - h * 0.08], fill=dark)
    elif hat == "brim":
        d.ellipse([cx - w * 0.16, cy - h * 0.14, cx + w * 0.16, cy - h * 0.07], fill=dark)
        d.rectangle([cx - w * 0.075, cy - h * 0.24, cx + w * 0.075, cy - h * 0.1], fill=dark)
    elif hat == "hood":
        d.chord([cx - w * 0.09, cy - h * 0.17, cx + w * 0.09, cy - h * 0.03], 180, 360, fill=dark)
    else:  # scarf and bare head with tied-back hair
        d.chord([cx - w * 0.09, cy - h * 0.16, cx + w * 0.09, cy + h * 0.02], 180, 360, fill=(70, 44, 30))
        d.ellipse([cx + w * 0.06, cy - h * 0.08, cx + w * 0.12, cy + h * 0.0], fill=(70, 44, 30))
        d.rectangle([cx - w * 0.1, h * 0.68, cx + w * 0.1, h * 0.74], fill=(200, 160, 60))
    # a lantern held up: its glow, frame and flame
    lx, ly = w * 0.58, h * 0.78
    for k in range(6, 0, -1):
        r = w * 0.02 * k
        d.ellipse([lx - r, ly - r, lx + r, ly + r], fill=_mix(coat, (255, 217, 90), 0.12 * (7 - k)))
    d.rectangle([lx - w * 0.025, ly - h * 0.06, lx + w * 0.025, ly + h * 0.05], fill=(255, 226, 130), outline=dark, width=round(2 * PX))
    d.line([(lx, ly - h * 0.06), (lx, ly - h * 0.1)], fill=dark, width=round(2 * PX))
    return img.resize(SIZE, Image.LANCZOS)


def ship(rig: str) -> Image.Image:
    masts, hull, sail = SHIPS[rig]
    img, d, w, h = _canvas((34, 56, 86), (196, 186, 170))
    d.ellipse([w * 0.04, h * 0.08, w * 0.14, h * 0.08 + w * 0.1], fill=(250, 236, 196))  # the moon
    _sea(d, w, h, 0.66, (30, 64, 88), (150, 190, 200))
    # hull, longer with each mast
    length = w * (0.34 + 0.12 * masts)
    x0, x1, yw = (w - length) / 2, (w + length) / 2, h * 0.74
    d.polygon([(x0 - w * 0.04, yw - h * 0.12), (x1 + w * 0.06, yw - h * 0.14), (x1 - w * 0.03, yw + h * 0.03),
               (x0 + w * 0.03, yw + h * 0.03)], fill=hull)
    d.line([(x0 - w * 0.03, yw - h * 0.08), (x1 + w * 0.04, yw - h * 0.1)], fill=(220, 200, 150), width=round(2 * PX))
    step = length / (masts + 1)
    for m in range(masts):
        mx = x0 + step * (m + 1)
        top = h * (0.1 + 0.05 * (m % 2))
        d.rectangle([mx - PX * 1.5, top, mx + PX * 1.5, yw - h * 0.12], fill=(60, 44, 36))
        sail_h = (yw - h * 0.16) - top
        for k in range(2 if masts > 1 else 1):  # square sails on brigs and ketches, one big sail on a skiff
            sy0 = top + h * 0.02 + k * sail_h * 0.5
            sy1 = sy0 + sail_h * (0.46 if masts > 1 else 0.9)
            bulge = step * 0.35
            d.polygon([(mx - bulge, sy0), (mx + bulge, sy0), (mx + bulge * 1.15, sy1), (mx - bulge * 0.85, sy1)], fill=sail)
        d.polygon([(mx, top - h * 0.06), (mx + w * 0.05, top - h * 0.04), (mx, top - h * 0.02)], fill=(168, 52, 44))
    # a lamp on the bow
    bx, by = x1 + w * 0.02, yw - h * 0.17
    d.ellipse([bx - w * 0.02, by - w * 0.02, bx + w * 0.02, by + w * 0.02], fill=(255, 217, 90))
    return img.resize(SIZE, Image.LANCZOS)


def _png(img: Image.Image) -> bytes:
    out = io.BytesIO()
    img.quantize(colors=64, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(out, "PNG", optimize=True)
    return out.getvalue()


def pictures() -> dict[str, bytes]:
    """File name -> PNG bytes of every picture of the game."""
    out = {f"keeper-{s}.png": _png(keeper(s)) for s in KEEPERS}
    out.update({f"ship-{r}.png": _png(ship(r)) for r in SHIPS})
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed files instead of writing")
    args = parser.parse_args(argv)
    differ = []
    for name, data in pictures().items():
        path = ART / name
        if args.check:
            if not path.is_file() or path.read_bytes() != data:
                differ.append(name)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            print(f"{path.relative_to(ART.parents[3])}: {len(data)} bytes")
    if differ:
        print("differs from the drawing: " + ", ".join(differ), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
