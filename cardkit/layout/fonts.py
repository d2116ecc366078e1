"""Fonts by role and locale, and the one font-metrics function.

Templates name a *role* (``title``, ``body``, ``bold``, ``italic``,
``bolditalic``, ``number``); :data:`ROLE_CHAINS` maps each role, per locale, to
a chain of vendored TrueType files.  A character is drawn with the first font
of the chain whose cmap has it, so nothing prints as a box while any font in
the chain covers it.  Only metrics and cmaps are read here; the renderer embeds
the same files.

>>> book = FontBook()
>>> book.chain("ko", "body")[0]
'NanumGothic'
>>> [f for f, _ in book.segments("Gideon 진스틸러", book.chain("fi", "body"))]
['NotoSans', 'NanumGothic']
"""

from __future__ import annotations

import functools
import hashlib
import io
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from cardkit.errors import CardkitError

FONT_DIR = Path(__file__).resolve().parents[1] / "fonts"
FONT_DIR_ENV = "CARDKIT_FONT_DIR"  # a folder with the same layout overrides the vendored fonts

FONT_FILES: dict[str, str] = {
    "NotoSans": "noto/NotoSans-Regular.ttf",
    "NotoSans-Bold": "noto/NotoSans-Bold.ttf",
    "NotoSans-Italic": "noto/NotoSans-Italic.ttf",
    "NotoSans-BoldItalic": "noto/NotoSans-BoldItalic.ttf",
    "NanumGothic": "nanum/NanumGothic.ttf",
    "NanumGothic-Bold": "nanum/NanumGothicBold.ttf",
}

_LATIN = {
    "title": ("NotoSans-Bold", "NanumGothic-Bold"),
    "body": ("NotoSans", "NanumGothic"),
    "bold": ("NotoSans-Bold", "NanumGothic-Bold"),
    "italic": ("NotoSans-Italic", "NotoSans", "NanumGothic"),
    "bolditalic": ("NotoSans-BoldItalic", "NotoSans-Bold", "NanumGothic-Bold"),
    "number": ("NotoSans-Bold",),
}
_HANGUL = {
    "title": ("NanumGothic-Bold", "NotoSans-Bold"),
    "body": ("NanumGothic", "NotoSans"),
    "bold": ("NanumGothic-Bold", "NotoSans-Bold"),
    # Hangul has no italic: the regular face stands in (bold would make a flavour text louder
    # than the rules beside it); bold italic stays bold
    "italic": ("NanumGothic", "NotoSans-Italic"),
    "bolditalic": ("NanumGothic-Bold", "NotoSans-BoldItalic"),
    "number": ("NotoSans-Bold",),
}
ROLE_CHAINS: dict[str, dict[str, tuple[str, ...]]] = {"default": _LATIN, "ko": _HANGUL}
ROLES = tuple(_LATIN)
MAX_FONT_BYTES = 64 << 20  # a game's own font file (a full CJK font is about 20 MB)


@dataclass(frozen=True)
class FontTable:
    """A game's own fonts (``fonts:`` of a set's ``faces.yaml``): per locale
    (``default``, a language such as ``fi``, or a full locale) and role, the
    chain of the game's fonts, by the names :func:`register_font` gave them.
    A role a locale does not name keeps the vendored chain."""

    chains: tuple[tuple[str, tuple[tuple[str, tuple[str, ...]], ...]], ...] = ()
    sources: tuple[tuple[str, str], ...] = ()  # registered name -> the project file it was read from

    def own(self, locale: str, role: str) -> tuple[str, ...]:
        """The game's chain for ``role`` in ``locale`` (``()``: none): the
        locale's own entry, then its language's, then ``default``."""
        table = dict(self.chains)
        for key in (locale, locale.split("_")[0], "default"):
            chain = dict(table.get(key, ())).get(role)
            if chain:
                return chain
        return ()

    def source(self, name: str) -> str:
        return dict(self.sources).get(name, name)


_GAME_FONTS: dict[str, FontInfo] = {}  # registered name -> a game's font, read once per process


def register_font(data: bytes, rel: str) -> str:
    """Register a game's TrueType/OpenType font (its bytes, ``rel`` naming the
    file in messages) with reportlab; return its name, made from a hash of the
    contents, so the same file gives the same name (and the same PDF) in every
    run and two files never share one.  Raise T001 for a file reportlab
    cannot read."""
    name = "cardkit-" + hashlib.sha256(data).hexdigest()[:16]
    if name in _GAME_FONTS:
        return name
    try:
        font = TTFont(name, io.BytesIO(data))
    except Exception as exc:  # reportlab raises plain Exceptions (TTFError) for bad files
        raise CardkitError(f"cannot read font {rel}: {str(exc)[:120]}", code="T001") from None
    pdfmetrics.registerFont(font)
    face = font.face
    _GAME_FONTS[name] = FontInfo(name, Path(rel), face.ascent / 1000.0, face.descent / 1000.0, frozenset(face.charToGlyph))
    return name


def game_font_file(name: str) -> Path | None:
    """The project file (relative to the project root, as :func:`register_font`
    was told) a game's font registered as ``name`` was read from; None for a
    vendored or unknown name."""
    info = _GAME_FONTS.get(name)
    return info.path if info is not None else None


@dataclass(frozen=True)
class FontInfo:
    name: str
    path: Path
    ascent: float  # per 1pt of size
    descent: float
    cmap: frozenset[int]


class FontBook:
    """Registers vendored fonts with reportlab (once per process) and measures text."""

    def __init__(self, font_dir: Path | None = None, table: FontTable | None = None) -> None:
        self.table = table or FontTable()
        self.font_dir = font_dir or Path(os.environ.get(FONT_DIR_ENV) or FONT_DIR)
        self._dir = str(self.font_dir)
        # line breaking's results by its arguments (cardkit.layout.textfit.break_lines): the same
        # text in the same box again (a card's copies, a column's blocks at each size tried)
        self.lines_memo: dict[tuple[Any, ...], tuple[tuple[Any, ...], bool]] = {}

    def chain(self, locale: str, role: str) -> tuple[str, ...]:
        """The game's own fonts for the role first (its table), then the vendored chain
        (so a character the game's fonts lack still prints: :meth:`uncovered` tells)."""
        builtin = _chain(locale, role)
        own = self.table.own(locale, role) if self.table.chains else ()
        return own + tuple(f for f in builtin if f not in own) if own else builtin

    def uncovered(self, text: str, locale: str, role: str) -> list[str]:
        """The characters of ``text`` that none of the game's own fonts for the
        role has (``[]`` when the role uses the vendored fonts)."""
        own = self.table.own(locale, role) if self.table.chains else ()
        return self.missing(text, own) if own else []

    def info(self, name: str) -> FontInfo:
        return _load(name, self._dir)

    def has(self, font: str, char: str) -> bool:
        return ord(char) in self.info(font).cmap

    def font_for(self, char: str, chain: tuple[str, ...]) -> str | None:
        code = ord(char)
        for font in chain:
            if code in self.info(font).cmap:
                return font
        return None

    def segments(self, text: str, chain: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
        """Split ``text`` into (font, substring) runs along the fallback chain.
        Characters no font has go to the first font (and are reported by the
        glyph-coverage check)."""
        return _segments(self._dir, text, chain)

    def width(self, text: str, chain: tuple[str, ...], size: float) -> float:
        """The one metrics function: advance width of ``text`` at ``size`` points."""
        return _width_cached(self._dir, text, chain, size)

    def missing(self, text: str, chain: tuple[str, ...]) -> list[str]:
        return sorted({ch for ch in set(text) if ch not in "\n\u00ad" and self.font_for(ch, chain) is None})


@functools.lru_cache(maxsize=256)
def _chain(locale: str, role: str) -> tuple[str, ...]:
    table = ROLE_CHAINS.get(locale.split("_")[0], ROLE_CHAINS["default"])
    if role not in table:
        raise CardkitError(f"unknown font role '{role}' (roles: {', '.join(table)})", code="T002")
    return table[role]


# Text is measured and split many times over with the same arguments (each
# shrink step of a fit, every copy of a card): both are pure functions of their
# arguments, cached per process.  Every font a result names was registered with
# reportlab on the way (``font_for`` loads it), so a cache hit needs no check.
@functools.lru_cache(maxsize=65536)
def _segments(font_dir: str, text: str, chain: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    book = FontBook(Path(font_dir))
    if not text:
        return ()
    first, cmap = chain[0], book.info(chain[0]).cmap  # (the first font is asked first for every character)
    if cmap.issuperset(map(ord, text)):  # (the usual case: one run)
        return ((first, text),)
    runs: list[tuple[str, list[str]]] = []
    for ch in text:
        font = first if ord(ch) in cmap else book.font_for(ch, chain) or first
        if runs and runs[-1][0] == font:
            runs[-1][1].append(ch)
        else:
            runs.append((font, [ch]))
    return tuple((font, "".join(chars)) for font, chars in runs)


@functools.lru_cache(maxsize=65536)
def _width_cached(font_dir: str, text: str, chain: tuple[str, ...], size: float) -> float:
    return sum(pdfmetrics.stringWidth(s, f, size) for f, s in _segments(font_dir, text, chain))


@functools.lru_cache(maxsize=None)
def _load(name: str, font_dir: str) -> FontInfo:
    if name in _GAME_FONTS:
        return _GAME_FONTS[name]
    if name not in FONT_FILES:
        raise CardkitError(f"unknown font '{name}'", code="T001")
    path = Path(font_dir) / FONT_FILES[name]
    if not path.is_file():
        raise CardkitError(f"font file missing: {path} (reinstall cardkit; fonts are vendored in cardkit/fonts)", code="T001")
    try:
        font = TTFont(name, str(path))
    except Exception as exc:  # reportlab raises plain Exceptions (TTFError) for bad files
        raise CardkitError(f"cannot read font {path}: {exc}", code="T001") from None
    pdfmetrics.registerFont(font)
    face = font.face
    return FontInfo(name, path, face.ascent / 1000.0, face.descent / 1000.0, frozenset(face.charToGlyph))
