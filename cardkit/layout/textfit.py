"""Line breaking and shrink-to-fit: the text code path shared by print and the
translation fit check.

:func:`fit` lays a marked-up string into a box at the template's size and,
when it does not fit, at smaller sizes down to the field's minimum.  The
result says exactly what happened (fits, shrank to N %, fits only below the
minimum, or overflows by N lines) and carries the positioned lines the
renderer draws.

Breaking: lines break at spaces; a word that does not fit may break at the
locale's hyphenation points (:mod:`cardkit.layout.hyphen`); Korean breaks only
between words.  Icons (built in, or the set's own SVG icons named in ``icons``)
are inline boxes one em wide.

>>> from cardkit.layout.fonts import FontBook
>>> r = fit("Roll the die. On a [skull], discard this card.", Style("en"), 100, 40, 9, 6, FontBook())
>>> r.status, len(r.lines) > 1
('fits', True)
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass, field
from typing import Any, Literal, Sequence

from cardkit.errors import CardkitError
from cardkit.layout.fonts import FontBook
from cardkit.layout.hyphen import NOUN_CAPITALS, SOFT_HYPHEN, break_points, seam_points, split_at
from cardkit.text import parse_runs

ICON_EM = 1.05  # inline icon advance, in ems
HYPHENATE_BELOW_FILL = 0.72  # hyphenate only if the line would otherwise be filled less than this
NO_HYPHENATION_ROLES = frozenset({"title", "number"})  # card names and titles keep their words whole
Status = Literal["fits", "shrunk", "below_min", "overflow"]


@dataclass(frozen=True)
class Style:
    locale: str
    role: str = "body"
    leading: float = 1.18  # line height as a multiple of the size
    align: str = "left"  # left | center | right
    max_lines: int = 0  # 0 = as many as the box holds
    colour: str = "#000000"
    hyphenate: bool | None = None  # break words between syllables; None: every role but titles and numbers

    @property
    def hyphenates(self) -> bool:
        return self.hyphenate if self.hyphenate is not None else self.role not in NO_HYPHENATION_ROLES

    def role_for(self, bold: bool, italic: bool) -> str:
        if self.role in ("title", "number"):
            return self.role
        if bold and italic:
            return "bolditalic"
        if bold:
            return "bold"
        if italic:
            return "italic"
        return self.role


@dataclass(frozen=True)
class Piece:
    """A positioned fragment of one line: text in one style, or an icon."""

    kind: str  # "text" | "icon"
    value: str
    role: str
    x: float  # from the line's left edge
    width: float


@dataclass(frozen=True)
class Line:
    pieces: tuple[Piece, ...]
    width: float


@dataclass
class FitResult:
    status: Status
    size: float  # the size used (the smallest tried when nothing fits)
    nominal: float
    lines: list[Line] = field(default_factory=list)
    overflow_lines: int = 0
    too_wide: bool = False
    cut: bool = False  # only the first part of a text far too long for the box was laid out (:func:`most_chars`)

    @property
    def scale(self) -> float:
        return self.size / self.nominal if self.nominal else 1.0

    def describe(self) -> str:
        if self.status == "fits":
            return "fits"
        if self.status == "shrunk":
            return f"fits after shrinking to {self.scale:.0%}"
        if self.status == "below_min":
            return f"fits only at {self.scale:.0%} ({self.size:.2f}pt), below the minimum readable size"
        at_least = "at least " if self.cut else ""
        extra = f"overflows by {at_least}{self.overflow_lines} line(s)" if self.overflow_lines else "overflows"
        return extra + (" (a word is wider than the box)" if self.too_wide else "")


@dataclass(frozen=True)
class _Atom:
    kind: str  # "word" | "space" | "icon" | "newline"
    text: str
    bold: bool
    italic: bool


_SUFFIX_HYPHEN = re.compile(r" (-\w)")


def _atoms(text: str, icons: frozenset[str] = frozenset()) -> list[_Atom]:
    # a spaced hyphen suffix ("ohjauspaneeli -ominaisuus") never starts a line
    text = _SUFFIX_HYPHEN.sub("\u00a0\\1", text)
    out: list[_Atom] = []
    for run in parse_runs(text, icons):
        if run.kind == "icon":
            out.append(_Atom("icon", run.value, run.bold, run.italic))
            continue
        buf = ""
        for ch in run.value:
            if ch in " \n":
                if buf:
                    out.append(_Atom("word", buf, run.bold, run.italic))
                    buf = ""
                out.append(_Atom("newline" if ch == "\n" else "space", ch, run.bold, run.italic))
            else:
                buf += ch
        if buf:
            out.append(_Atom("word", buf, run.bold, run.italic))
    # a word glued to an icon or to a differently styled word stays glued (no break between)
    return out


class _Breaker:
    """Greedy breaker over *units*: runs of words and icons with no space between
    them (``[skull],`` is one unit).  Only a unit made of a single word may be
    hyphenated."""

    def __init__(self, book: FontBook, style: Style, size: float, width: float) -> None:
        self.book, self.style, self.size, self.width = book, style, size, width
        # pieces as [kind, value, role, x, width], grown in place as words are added; Pieces at the end
        self.lines: list[list[list[Any]]] = [[]]
        self.x = 0.0
        self.space: Piece | None = None
        self.too_wide = False
        self.name = False

    def measure(self, text: str, role: str) -> float:
        return self.book.width(text.replace(SOFT_HYPHEN, ""), self.book.chain(self.style.locale, role), self.size)

    def part_width(self, part: tuple[str, str, str]) -> float:
        kind, value, role = part
        return self.size * ICON_EM if kind == "icon" else self.measure(value, role)

    def newline(self) -> None:
        self.lines.append([])
        self.x = 0.0
        self.space = None

    def _put(self, kind: str, value: str, role: str, w: float) -> None:
        line = self.lines[-1]
        prev = line[-1] if line else None
        if kind == "text" and prev is not None and prev[0] == "text" and prev[2] == role:
            prev[1] += value
            prev[4] += w
        else:
            line.append([kind, value, role, self.x, w])
        self.x += w

    def _put_unit(self, parts: Sequence[tuple[str, str, str]], widths: list[float]) -> None:
        if self.space is not None and self.lines[-1]:
            self._put("text", " ", self.space.role, self.space.width)
        self.space = None
        for (kind, value, role), w in zip(parts, widths):
            self._put(kind, value.replace(SOFT_HYPHEN, "") if kind == "text" else value, role, w)

    def add_unit(self, parts: Sequence[tuple[str, str, str]], name: bool = False) -> None:
        """Add a unit at the end of the text; ``name``: a capitalized word inside
        a sentence, which breaks between syllables only when it is wider than
        a line (or at its own hyphens)."""
        self.name = name
        widths = [self.part_width(p) for p in parts]
        total = sum(widths)
        space_w = self.space.width if (self.space is not None and self.lines[-1]) else 0.0
        if self.x + space_w + total <= self.width + 1e-6:
            self._put_unit(parts, widths)
            return
        single_word = len(parts) == 1 and parts[0][0] == "text"
        # hyphenate at the end of a line only when moving the word would leave
        # the line ragged, or when the word is too long for any line
        ragged = self.x < self.width * HYPHENATE_BELOW_FILL
        if single_word and (ragged or total > self.width) and self._hyphenate(parts[0][1], parts[0][2], space_w):
            return
        if self.lines[-1]:
            self.newline()
            if total <= self.width + 1e-6:
                self._put_unit(parts, widths)
                return
            if single_word and self._hyphenate(parts[0][1], parts[0][2], 0.0):
                return
        self.too_wide = True
        self._put_unit(parts, widths)

    def _hyphenate(self, text: str, role: str, space_w: float) -> bool:
        lang = self.style.locale.split("_")[0]
        if lang == "ko":
            return False
        # titles and names keep their syllables together unless the word is wider than a line
        name = self.name and lang not in NOUN_CAPITALS
        wider = self.measure(text, role) > self.width + 1e-6
        # a word holding a soft hyphen breaks only there (as CSS Text 3 says), unless it is
        # wider than a whole line: the translator has marked where it may break
        syllables = ((self.style.hyphenates and not name) or wider) and (SOFT_HYPHEN not in text or wider)
        points = break_points(text, self.style.locale, syllables)
        # prefer the translator's soft hyphens and real hyphens, then compound seams (the
        # higher ranked first), to syllables
        explicit = [p for p in points if text[p - 1] in "-\u2010\u2013" or (p < len(text) and text[p] == SOFT_HYPHEN)]
        ranks = seam_points(text, self.style.locale) if syllables else {}
        seams = [p for p in points if p in ranks and p not in explicit]
        ordered = (sorted(explicit, reverse=True) + sorted(seams, key=lambda p: (-ranks[p], -p))
                   + sorted(set(points) - set(explicit) - set(seams), reverse=True))
        for p in ordered:
            head, tail = split_at(text, p)
            hw = self.measure(head, role)
            if self.x + space_w + hw <= self.width + 1e-6:
                self._put_unit([("text", head, role)], [hw])
                self.newline()
                self.add_unit([("text", tail, role)], self.name)
                return True
        return False

    def add_space(self, role: str) -> None:
        if self.lines[-1]:
            self.space = Piece("text", " ", role, 0.0, self.measure(" ", role))


Unit = tuple[tuple[str, str, str], ...]  # (kind, value, role) parts glued together


@functools.lru_cache(maxsize=8192)
def _tokens(text: str, role: str, icons: frozenset[str] = frozenset()) -> tuple[tuple[str, Unit | str], ...]:
    """What the breaker is fed for ``text`` in a style of ``role``, whatever the
    size and width: ``("unit", parts)`` (``("name", parts)`` for a capitalized word inside a sentence),
    ``("space", role)`` or ``("newline", "")``.
    A fit tries many sizes of the same text, so this is worked out once."""
    style = Style("", role)
    out: list[tuple[str, Unit | str]] = []
    unit: list[tuple[str, str, str]] = []
    start = True  # at the start of a sentence: a capital letter there marks no name

    def close() -> None:
        nonlocal start
        if unit:
            word = unit[0][1] if len(unit) == 1 and unit[0][0] == "text" else ""
            name = not start and word[:1].isupper() and not word.isupper()
            out.append(("name" if name else "unit", tuple(unit)))
            last = unit[-1][1] if unit[-1][0] == "text" else ""
            start = last.rstrip("\"”’)»").endswith((".", "!", "?", ":", "•"))
            unit.clear()

    for atom in _atoms(text, icons):
        r = style.role_for(atom.bold, atom.italic)
        if atom.kind in ("space", "newline"):
            close()
            if atom.kind == "newline":
                start = True
            out.append(("newline", "") if atom.kind == "newline" else ("space", r))
        else:
            unit.append(("icon" if atom.kind == "icon" else "text", atom.text, r))
    close()
    return tuple(out)


def break_lines(text: str, style: Style, size: float, width: float, book: FontBook,
                icons: frozenset[str] = frozenset()) -> tuple[list[Line], bool]:
    """Lines of ``text`` at ``size`` within ``width``; second value is True when
    some unit could not be made to fit the width.  ``icons``: the set's own icon
    names, inline tokens besides the built-in ones.  The result is kept in
    ``book`` (:attr:`FontBook.lines_memo`) for the same arguments again."""
    key = (text, style, size, width, icons)
    memo = book.lines_memo
    hit = memo.get(key)
    if hit is None:
        if len(memo) >= LINES_MEMO_MAX:
            memo.clear()
        hit = memo[key] = _break_lines(text, style, size, width, book, icons)
    return list(hit[0]), hit[1]


LINES_MEMO_MAX = 50_000  # line breakings a FontBook keeps


def _break_lines(text: str, style: Style, size: float, width: float, book: FontBook,
                 icons: frozenset[str]) -> tuple[tuple[Line, ...], bool]:
    br = _Breaker(book, style, size, width)
    for kind, value in _tokens(text, style.role, icons):
        if kind in ("unit", "name"):
            br.add_unit(value, kind == "name")  # type: ignore[arg-type]
        elif kind == "space":
            br.add_space(value)  # type: ignore[arg-type]
        else:
            br.newline()
    lines = [Line(tuple(Piece(*x) for x in p), sum(x[4] for x in p)) for p in br.lines]
    while len(lines) > 1 and not lines[-1].pieces:
        lines.pop()
    return tuple(lines), br.too_wide


EXTENT = 1.2  # ascent plus descent of one line, in ems (what the renderer occupies)
MAX_SIZE = 500.0  # points (cardkit.load.bounds.MAX_FONT_PT): a fit tries a bounded number of sizes whatever they are
BELOW_MIN_STEPS = 64  # sizes tried below the minimum: 0.25 pt apart, or wider when the gap is larger than 16 pt


def _check_sizes(size: float, min_size: float) -> None:
    for s in (size, min_size):
        if not (math.isfinite(s) and 0 < s <= MAX_SIZE):
            raise CardkitError(f"font size {s:.4g}pt; a size must be above 0 and at most {MAX_SIZE:.0f}pt", code="M010")


def _below_min(min_size: float, floor: float) -> list[float]:
    """The sizes tried below ``min_size`` down to ``floor``: every 0.25 pt, at most
    :data:`BELOW_MIN_STEPS` of them (evenly spread when the gap is wider)."""
    out: list[float] = []
    s = min_size
    step = max(0.25, (min_size - floor) / BELOW_MIN_STEPS)
    while s - step >= floor - 1e-9 and len(out) < BELOW_MIN_STEPS:
        s = round(s - step, 2)
        out.append(s)
    return out


def block_height(n_lines: int, size: float, leading: float) -> float:
    """Height that ``n_lines`` lines occupy when drawn: one full line extent plus
    one leading step per further line."""
    return 0.0 if n_lines == 0 else size * EXTENT + (n_lines - 1) * size * leading


def _fits(lines: list[Line], too_wide: bool, size: float, style: Style, height: float) -> tuple[bool, int]:
    capacity = 1 + max(0, int((height - size * EXTENT + 1e-6) // (size * style.leading))) if height >= size * EXTENT - 1e-6 else 0
    if style.max_lines:
        capacity = min(capacity, style.max_lines)
    over = max(0, len(lines) - capacity)
    return (over == 0 and not too_wide), over


NARROWEST_EM = 0.1  # no printing character is narrower than this (a thin space is 0.2 em); zero-width ones are why
                    # a cut text is only trusted when it overflows (below)


def most_chars(width: float, height: float, size: float, leading: float) -> int:
    """More characters than any text of visible glyphs could put into a
    ``width`` x ``height`` box at ``size`` (every line full of the narrowest
    glyphs): a text longer than twice this overflows at that size and every
    larger one, and a fit need never lay out more of it (#29: a 2 MB
    translation took a build 56 s).

    >>> most_chars(100, 30, 10, 1.2)
    201
    """
    lines = 1 + max(0, int((height - size * EXTENT) // (size * leading))) if height >= size * EXTENT else 1
    return int(lines * max(width, 0.0) / (NARROWEST_EM * size)) + 1


def _cut(text: str, style: Style, width: float, height: float, floor: float, book: FontBook,
         icons: frozenset[str]) -> str:
    """``text``, or, when it is far longer than the box holds even at ``floor`` and
    its first part already overflows there, that part: what the fit lays out and
    reports (an overflow either way; the line count is then a lower bound)."""
    limit = 2 * most_chars(width, height, max(floor, 0.01), style.leading)
    if len(text) <= limit:
        return text
    part = text[:limit]
    lines, wide = break_lines(part, style, floor, width, book, icons)
    return part if not _fits(lines, wide, floor, style, height)[0] else text


def fit(text: str, style: Style, width: float, height: float, size: float, min_size: float,
        book: FontBook, floor_ratio: float = 0.5, icons: frozenset[str] = frozenset()) -> FitResult:
    """Fit ``text`` into ``width`` x ``height`` points.

    Tries ``size``; if that overflows, the largest size between ``min_size`` and
    ``size`` that fits (0.1 pt resolution).  If even ``min_size`` overflows,
    looks below it (down to ``floor_ratio`` of the nominal size) only to say
    whether it would fit there (``below_min``) or not at all (``overflow``,
    with the line count missing at ``min_size``).  ``icons``: the set's own
    icon names (see :func:`break_lines`).  A size must be above 0 and at most
    :data:`MAX_SIZE` (else M010): the attempts are bounded whatever the sizes."""
    _check_sizes(size, min_size)
    whole = len(text)
    text = _cut(text, style, width, height, min(min_size, size * floor_ratio), book, icons)  # (bounded work)
    lines, wide = break_lines(text, style, size, width, book, icons)
    ok, _ = _fits(lines, wide, size, style, height)
    if ok:
        return FitResult("fits", size, size, lines)

    def attempt(s: float) -> tuple[bool, list[Line], bool, int]:
        ls, w = break_lines(text, style, s, width, book, icons)
        good, over = _fits(ls, w, s, style, height)
        return good, ls, w, over

    good, ls, w, over = attempt(min_size)
    if good:
        lo, hi = int(round(min_size * 10)), int(round(size * 10))
        best = (min_size, ls)
        while hi - lo > 1:  # invariant: lo fits, hi does not
            mid = (lo + hi) // 2
            g, l2, _, _ = attempt(mid / 10)
            if g:
                lo, best = mid, (mid / 10, l2)
            else:
                hi = mid
        return FitResult("shrunk", best[0], size, best[1])
    min_lines, min_wide, min_over = ls, w, over
    for s in _below_min(min_size, size * floor_ratio):
        g, l2, _, _ = attempt(s)
        if g:
            return FitResult("below_min", s, size, l2)
    return FitResult("overflow", min_size, size, min_lines, overflow_lines=min_over, too_wide=min_wide,
                     cut=len(text) < whole)


@dataclass
class Block:
    """One paragraph of a flowing column: a heading or body text."""

    text: str
    style: Style
    ratio: float = 1.0  # size relative to the column size (headings > 1)
    gap_after: float = 0.0  # in multiples of the size


@dataclass
class ColumnResult:
    status: Status
    size: float
    nominal: float
    blocks: list[tuple[Block, list[Line], float]]  # block, lines, size used
    overflow_height: float = 0.0

    @property
    def scale(self) -> float:
        return self.size / self.nominal if self.nominal else 1.0

    def describe(self) -> str:
        return FitResult(self.status, self.size, self.nominal).describe() if self.status != "overflow" \
            else f"overflows by {self.overflow_height / 2.835:.1f} mm"


def fit_column(blocks: list[Block], width: float, height: float, size: float, min_size: float,
               book: FontBook, floor_ratio: float = 0.5, icons: frozenset[str] = frozenset()) -> ColumnResult:
    """Fit a column of paragraphs sharing one size (headings scaled by their
    ratio) into ``width`` x ``height``; the same statuses as :func:`fit`."""
    floor = min(min_size, size * floor_ratio)
    blocks = [b if len(b.text) <= 2 * most_chars(width, height, max(floor * b.ratio, 0.01), b.style.leading)
              else Block(_cut(b.text, b.style, width, height, floor * b.ratio, book, icons), b.style, b.ratio, b.gap_after)
              for b in blocks]  # (a paragraph that alone overflows at the smallest size tried: its first part)

    def attempt(s: float) -> tuple[float, list[tuple[Block, list[Line], float]], bool]:
        used, laid, wide = 0.0, [], False
        for b in blocks:
            bs = s * b.ratio
            lines, w = break_lines(b.text, b.style, bs, width, book, icons)
            wide = wide or w
            laid.append((b, lines, bs))
            used += block_height(len(lines), bs, b.style.leading) + b.gap_after * s
        return used, laid, wide

    used, laid, wide = attempt(size)
    if used <= height + 1e-6 and not wide:
        return ColumnResult("fits", size, size, laid)
    used_min, laid_min, wide_min = attempt(min_size)
    if used_min <= height + 1e-6 and not wide_min:
        lo, hi, best = int(round(min_size * 10)), int(round(size * 10)), (min_size, laid_min)
        while hi - lo > 1:
            mid = (lo + hi) // 2
            u, l2, w2 = attempt(mid / 10)
            if u <= height + 1e-6 and not w2:
                lo, best = mid, (mid / 10, l2)
            else:
                hi = mid
        return ColumnResult("shrunk", best[0], size, best[1])
    for s in _below_min(min_size, size * floor_ratio):
        u, l2, w2 = attempt(s)
        if u <= height + 1e-6 and not w2:
            return ColumnResult("below_min", s, size, l2)
    return ColumnResult("overflow", min_size, size, laid_min, overflow_height=used_min - height)
