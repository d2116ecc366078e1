"""Everything that touches Pillow: reading user artwork safely, PNG export and
Tabletop Simulator deck sheets.

Artwork is untrusted: the path must stay inside the project, the file must be a
real PNG/JPEG/WebP, its pixel count is bounded before decoding (decompression
bombs), and it is re-encoded as a plain RGB PNG before anything else sees it.
"""

from __future__ import annotations

import functools
import io
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PIL import Image, UnidentifiedImageError

from cardkit.errors import CardkitError, Issue

if TYPE_CHECKING:
    from cardkit.layout.faces import ImageTreatment

MAX_ART_PIXELS = 40_000_000
MAX_ART_BYTES = 32 << 20
MAX_ART_SIDE = 1600
FORMATS = {"PNG", "JPEG", "WEBP"}


@dataclass(frozen=True)
class Art:
    png: bytes
    width: int
    height: int


def load_art(path: Path, rel: str, root: Path | None = None) -> Art:
    """Decode, bound and re-encode one artwork file (read through
    :func:`cardkit.load.files.read_project_file`: inside ``root``, a regular file)."""
    return _load_art(str(path), path.stat().st_mtime if path.exists() else 0.0, rel, str(root) if root else None)


@functools.lru_cache(maxsize=256)
def _load_art(path: str, mtime: float, rel: str, root: str | None = None) -> Art:
    from cardkit.load.files import read_project_file

    p = Path(path)
    if not p.exists():
        raise CardkitError(Issue("F001", "artwork file does not exist", file=rel))
    raw = read_project_file(p, rel, root=Path(root) if root else None, max_bytes=MAX_ART_BYTES, too_large="I002")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(raw)) as im:
                if im.format not in FORMATS:
                    raise CardkitError(Issue("I001", f"artwork must be PNG, JPEG or WebP, not {im.format}", file=rel))
                if im.width * im.height > MAX_ART_PIXELS:
                    raise CardkitError(Issue("I002", f"artwork has {im.width} x {im.height} pixels; the limit is {MAX_ART_PIXELS:,} (decompression bomb?)", file=rel))
                im.load()
                rgb = im.convert("RGB")
    except CardkitError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise CardkitError(Issue("I002", f"artwork rejected as a decompression bomb: {exc}", file=rel)) from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        raise CardkitError(Issue("I001", f"not a readable image: {exc}", file=rel)) from None
    rgb.thumbnail((MAX_ART_SIDE, MAX_ART_SIDE))
    out = io.BytesIO()
    rgb.save(out, format="PNG", optimize=False)
    return Art(out.getvalue(), rgb.width, rgb.height)


def art_loader(root: Path, treatment: ImageTreatment) -> Callable[[str], Art | None]:
    """The artwork loader a composer draws with: :func:`load_art` for a path
    relative to ``root``, then the face file's ``images:`` treatment (None
    for ``omit``: the element draws nothing).  Plain artwork is returned as
    loaded, so a face file without ``images:`` prints the same bytes."""
    def load(rel: str) -> Art | None:
        if treatment.omit:
            return None
        art = load_art(root / rel, rel, root)
        return art if treatment.plain else treated_art(art, treatment.lighten, treatment.greyscale)
    return load


@functools.lru_cache(maxsize=256)
def treated_art(art: Art, lighten: float, greyscale: bool) -> Art:
    """``art`` in greyscale and/or moved ``lighten`` of the way to white, re-encoded as plain RGB PNG."""
    with Image.open(io.BytesIO(art.png)) as im:
        rgb = im.convert("RGB")
    if greyscale:
        rgb = rgb.convert("L").convert("RGB")
    if lighten > 0:
        rgb = Image.blend(rgb, Image.new("RGB", rgb.size, (255, 255, 255)), min(lighten, 1.0))
    out = io.BytesIO()
    rgb.save(out, format="PNG", optimize=False)
    return Art(out.getvalue(), rgb.width, rgb.height)


# ---------------------------------------------------------------- raster output
TTS_MAX_COLS, TTS_MAX_ROWS, TTS_MAX_WIDTH = 10, 7, 4096


def rasterize(pdf: bytes, scale: float) -> Image.Image:
    """The first page of a PDF as an RGB image (pdfium renders exactly what prints)."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        page = doc[0]
        bitmap = page.render(scale=scale, draw_annots=False)
        image = bitmap.to_pil().convert("RGB")
        page.close()
    finally:
        doc.close()
    return image


def rasterize_pages(pdf: bytes, scale: float) -> Iterator[Image.Image]:
    """Every page of a PDF as an RGB image, in page order: one document parsed
    once (its fonts and images shared by the pages), the same pixels as
    :func:`rasterize` gives for each page alone."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        for i in range(len(doc)):
            page = doc[i]
            try:
                yield page.render(scale=scale, draw_annots=False).to_pil().convert("RGB")
            finally:
                page.close()
    finally:
        doc.close()


def png_bytes(image: Image.Image, dpi: int | None = None, compress_level: int | None = None) -> bytes:
    """``image`` as PNG; ``compress_level`` 0-9 (zlib's, default 6) trades
    size for time, never pixels."""
    out = io.BytesIO()
    kwargs: dict[str, object] = {"dpi": (dpi, dpi)} if dpi else {}
    if compress_level is not None:
        kwargs["compress_level"] = compress_level
    image.save(out, format="PNG", **kwargs)
    return out.getvalue()


def srgb_png_bytes(image: Image.Image, ppi: int) -> bytes:
    """A PNG tagged as sRGB (sRGB, gAMA and cHRM chunks, as the PNG
    specification recommends) with its resolution in the pHYs chunk."""
    from PIL.PngImagePlugin import PngInfo

    info = PngInfo()
    info.add(b"sRGB", b"\x00")  # rendering intent: perceptual
    info.add(b"gAMA", (45455).to_bytes(4, "big"))
    info.add(b"cHRM", b"".join(v.to_bytes(4, "big") for v in (31270, 32900, 64000, 33000, 30000, 60000, 15000, 6000)))
    out = io.BytesIO()
    image.save(out, format="PNG", dpi=(ppi, ppi), pnginfo=info)
    return out.getvalue()


def rasterize_exact(pdf: bytes, size: tuple[int, int], ppi: int) -> Image.Image:
    """The first page of a PDF at ``ppi``, exactly ``size`` pixels (pdfium
    rounds a page size up, so a float's last bit can add a row)."""
    image = rasterize(pdf, ppi / 72)
    if image.size != size:
        image = image.crop((0, 0, *size)) if image.width >= size[0] and image.height >= size[1] \
            else image.resize(size, Image.Resampling.LANCZOS)
    return image


def crop_to_trim(image: Image.Image, bleed_px: int) -> Image.Image:
    if bleed_px <= 0:
        return image
    return image.crop((bleed_px, bleed_px, image.width - bleed_px, image.height - bleed_px))


def tts_sheets(cards: list[Image.Image]) -> list[Image.Image]:
    """Tabletop Simulator deck sheets: at most 10 x 7 cards and 4096 px wide, RGB."""
    if not cards:
        return []
    w0, h0 = cards[0].size
    cw = min(w0, TTS_MAX_WIDTH // TTS_MAX_COLS)
    ch = round(h0 * cw / w0)
    per = TTS_MAX_COLS * TTS_MAX_ROWS
    sheets = []
    for start in range(0, len(cards), per):
        chunk = cards[start:start + per]
        cols = min(TTS_MAX_COLS, len(chunk))
        rows = (len(chunk) + cols - 1) // cols
        sheet = Image.new("RGB", (cols * cw, rows * ch), (0, 0, 0))
        for i, im in enumerate(chunk):
            cell = im if im.size == (cw, ch) else im.resize((cw, ch), Image.Resampling.LANCZOS)
            sheet.paste(cell, ((i % cols) * cw, (i // cols) * ch))
        assert sheet.width <= TTS_MAX_WIDTH
        sheets.append(sheet)
    return sheets
