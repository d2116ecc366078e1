"""Imposition: where each card sits on a printed sheet, front and back.

Three layouts (``--layout``):

* ``grid``: a centred grid with a gutter of twice the bleed, so every card
  carries its own bleed and cuts cleanly;
* ``shared-edge``: cards butted against each other, so neighbours share one
  cut line; the bleed runs only around the outside of the block (and along an
  edge whose neighbour slot is empty);
* ``gutterfold``: fronts on one half of the sheet, their backs mirrored on the
  other half about a fold line, for printers without duplex: fold, glue, cut.

Back pages mirror the grid for the printer's flip edge:

* long-edge flip: a card at column ``c`` has its back at column ``cols-1-c``;
* short-edge flip: the back sits in row ``rows-1-r`` and is turned 180°, so
  that it reads upright when the card is turned over left to right.

A gutterfold sheet folds along a vertical line (backs mirrored left to right,
like a long-edge flip) or a horizontal one (backs mirrored top to bottom and
turned, like a short-edge flip), whichever holds more cards.

Nothing is drawn within the printer margin (``--margin``, 4 mm by default):
every trim lies at least the margin plus its bleed from the paper edge, and
every crop mark is at least :data:`MIN_MARK` long inside the printable area
(it starts :data:`MARK_GAP` outside the bleed, or, when that leaves no room,
:data:`MARK_TRIM_GAP` outside the trim, over the bleed that is cut away).
The planner takes as many columns and rows as fit with at least the minimum
bleed (:data:`MIN_BLEED` at home, :data:`MIN_BLEED_PRESS` for CMYK); without
``--bleed`` the bleed is then the largest up to 3 mm (in 0.5 mm steps) that
keeps that grid.  Papers: :data:`PAPERS` or a custom ``WxH``, portrait,
landscape or whichever holds more cards.

>>> s = plan_sheet("a4", 63 * MM, 88 * MM, None)
>>> (s.cols, s.rows, round(s.bleed / MM, 2))
(3, 3, 2.0)
>>> l = plan_sheet("letter", 63 * MM, 88 * MM, None)  # 1 mm at least: a row less than 0.5 mm would keep
>>> (l.cols, l.rows, round(l.bleed / MM, 2))
(3, 2, 3.0)
>>> a = plan_sheet("letter", 63 * MM, 88 * MM, None, orientation="auto")
>>> (a.landscape, a.cols, a.rows, round(a.bleed / MM, 2))
(True, 4, 2, 2.0)
>>> back_slot(s, 0, "long-edge"), back_slot(s, 0, "short-edge")
((2, False), (6, True))
>>> p = plan_sheet("letter", 63.5 * MM, 88.9 * MM, 0.125 * INCH, layout="shared-edge", margin=3 * MM)
>>> (p.cols, p.rows)
(3, 3)
>>> g = plan_sheet("a4", 63 * MM, 41 * MM, None, layout="gutterfold")
>>> (g.fold, g.cols, g.rows)
('horizontal', 3, 3)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from cardkit.errors import CardkitError, Issue
from cardkit.layout.ops import Line
from cardkit.layout.sheetlayout import layout_names, sheet_layout
from cardkit.layout.units import INCH, MM

PAPERS: dict[str, tuple[float, float]] = {  # portrait: width, height
    "a3": (297 * MM, 420 * MM), "a4": (210 * MM, 297 * MM), "a5": (148 * MM, 210 * MM),
    "letter": (8.5 * INCH, 11 * INCH), "legal": (8.5 * INCH, 14 * INCH), "tabloid": (11 * INCH, 17 * INCH)}
CUSTOM_PAPER = (50 * MM, 1200 * MM)  # the shortest and longest side of a custom `WxH` paper
_CUSTOM = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(mm|cm|in)?\s*x\s*(\d+(?:\.\d+)?)\s*(mm|cm|in)?\s*$")
_PAPER_UNITS = {"mm": MM, "cm": 10 * MM, "in": INCH}
Orientation = Literal["auto", "portrait", "landscape"]
ORIENTATIONS: tuple[Orientation, ...] = ("auto", "portrait", "landscape")
MIN_BLEED = 1 * MM  # the least bleed a sheet plans for at home...
MIN_BLEED_PRESS = 3 * MM  # ...and for a print shop (CMYK)
Layout = str  # a name of the registry (cardkit.layout.sheetlayout)
LAYOUTS: tuple[Layout, ...] = layout_names()
DEFAULT_BLEED = 3 * MM
DEFAULT_MARGIN = 4 * MM
MAX_MARGIN = 25 * MM
MAX_BLEED = 10 * MM
MARK_GAP = 1.0 * MM  # a crop mark starts this far outside the bleed edge...
MARK_TRIM_GAP = 0.5 * MM  # ...or, when there is no room for it there, this far outside the trim
MARK_LEN = 4.0 * MM
MIN_MARK = 1.5 * MM
MARK_ROOM = MARK_TRIM_GAP + MIN_MARK  # the least room between a trim and the printer margin
FOLD_GAP = 2.0 * MM  # gutterfold: from the fold line to the bleed edge on either side
DUPLEX = ("long-edge", "short-edge", "none")
_EPS = 1e-6


@dataclass(frozen=True)
class Sheet:
    paper: str
    page_w: float
    page_h: float
    card_w: float
    card_h: float
    bleed: float
    cols: int
    rows: int
    margin: float = DEFAULT_MARGIN
    layout: Layout = "grid"
    fold: Literal["", "vertical", "horizontal"] = ""  # gutterfold only

    @property
    def landscape(self) -> bool:
        return self.page_w > self.page_h + _EPS

    @property
    def shared(self) -> bool:
        return sheet_layout(self.layout).shared

    @property
    def pitch_x(self) -> float:
        return self.card_w + (0 if self.shared else 2 * self.bleed)

    @property
    def pitch_y(self) -> float:
        return self.card_h + (0 if self.shared else 2 * self.bleed)

    @property
    def grid_w(self) -> float:
        """Width of the (fronts) block, bleed included."""
        return self.cols * self.pitch_x + (2 * self.bleed if self.shared else 0)

    @property
    def grid_h(self) -> float:
        return self.rows * self.pitch_y + (2 * self.bleed if self.shared else 0)

    @property
    def left(self) -> float:
        """x of the left bleed edge of the (fronts) block."""
        if self.fold == "vertical":
            return self.page_w / 2 - FOLD_GAP - self.grid_w
        return (self.page_w - self.grid_w) / 2

    @property
    def bottom(self) -> float:
        """y of the bottom bleed edge of the (fronts) block."""
        if self.fold == "horizontal":
            return self.page_h / 2 + FOLD_GAP
        return (self.page_h - self.grid_h) / 2

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    def trim_xy(self, slot: int) -> tuple[float, float]:
        """Bottom-left corner of the trim box of ``slot`` (row-major from top-left)."""
        r, c = divmod(slot, self.cols)
        x = self.left + self.bleed + c * self.pitch_x
        y = self.bottom + self.bleed + (self.rows - 1 - r) * self.pitch_y
        return x, y

    def fold_xy(self, slot: int) -> tuple[float, float, bool]:
        """Gutterfold: the trim corner of the back of ``slot``, mirrored about
        the fold, and whether it is turned 180°."""
        x, y = self.trim_xy(slot)
        if self.fold == "vertical":
            return self.page_w - x - self.card_w, y, False
        if self.fold == "horizontal":
            return x, self.page_h - y - self.card_h, True
        raise ValueError("not a gutterfold sheet")

    def trim_box(self, slots: int) -> tuple[float, float, float, float]:
        """Box (x0, y0, x1, y1) around the trims of the first ``slots`` slots
        (and, on a gutterfold sheet, of their backs)."""
        pts = [self.trim_xy(i) for i in range(slots)]
        if self.fold:
            pts += [self.fold_xy(i)[:2] for i in range(slots)]
        xs = [p[0] for p in pts]
        ys = [p[1] for p in pts]
        return (min(xs), min(ys), max(xs) + self.card_w, max(ys) + self.card_h)

    def slots_box(self, slots: list[int]) -> tuple[float, float, float, float]:
        """Box (x0, y0, x1, y1) around the trims of the ``slots`` named (a
        back page's: the slots its backs fill, mirroring its front)."""
        pts = [self.trim_xy(i) for i in slots]
        xs = [p[0] for p in pts]
        ys = [p[1] for p in pts]
        return (min(xs), min(ys), max(xs) + self.card_w, max(ys) + self.card_h)

    def bleeds(self, slot: int, filled: int) -> tuple[float, float, float, float]:
        """The bleed (left, bottom, right, top) of ``slot`` when the first
        ``filled`` slots hold cards: all round, except in ``shared-edge``,
        where an edge shared with a card has none."""
        b = self.bleed
        if not self.shared:
            return (b, b, b, b)
        r, c = divmod(slot, self.cols)

        def card_at(rr: int, cc: int) -> bool:
            return 0 <= rr < self.rows and 0 <= cc < self.cols and rr * self.cols + cc < filled

        return (0.0 if card_at(r, c - 1) else b, 0.0 if card_at(r + 1, c) else b,
                0.0 if card_at(r, c + 1) else b, 0.0 if card_at(r - 1, c) else b)


def _extent(n: int, card: float, bleed: float, shared: bool) -> float:
    return n * card + (2 * bleed if shared else 2 * n * bleed)


def _fits(n: int, page: float, card: float, bleed: float, margin: float, shared: bool, fold_axis: bool) -> bool:
    """Whether ``n`` cards fit along one axis: every outer trim at least the
    margin plus the larger of the bleed and the room for a crop mark from the
    paper edge (on a fold axis, within half the page, clear of the fold)."""
    if n < 1:
        return True
    need = margin + max(bleed, MARK_ROOM)
    extent = _extent(n, card, bleed, shared)
    if fold_axis:
        outer = page / 2 - FOLD_GAP - extent + bleed
    else:
        outer = (page - extent) / 2 + bleed
    return outer >= need - _EPS


def _count(page: float, card: float, bleed: float, margin: float, shared: bool, fold_axis: bool, cap: int) -> int:
    n = 0
    while n < cap and _fits(n + 1, page, card, bleed, margin, shared, fold_axis):
        n += 1
    return n


def _grid(pw: float, ph: float, w: float, h: float, b: float, margin: float, layout: Layout,
          cap: tuple[int, int]) -> tuple[int, int, Literal["", "vertical", "horizontal"]]:
    lay = sheet_layout(layout)
    shared = lay.shared
    if not lay.fold:
        return (_count(pw, w, b, margin, shared, False, cap[0]), _count(ph, h, b, margin, shared, False, cap[1]), "")
    vertical = (_count(pw, w, b, margin, shared, True, cap[0]), _count(ph, h, b, margin, shared, False, cap[1]))
    horizontal = (_count(pw, w, b, margin, shared, False, cap[0]), _count(ph, h, b, margin, shared, True, cap[1]))
    if horizontal[0] * horizontal[1] > vertical[0] * vertical[1]:
        return (*horizontal, "horizontal")
    return (*vertical, "vertical")


def paper_size(paper: str) -> tuple[float, float] | None:
    """The portrait size (width <= height, points) of a paper name or of a
    custom ``WxH`` (millimetres unless a unit follows a number), None when
    ``paper`` is neither.

    >>> [round(v / MM, 1) for v in paper_size("letter")]
    [215.9, 279.4]
    >>> [round(v / MM, 1) for v in paper_size("300x200")], [round(v / MM, 1) for v in paper_size("8.5x14in")]
    ([200.0, 300.0], [215.9, 355.6])
    """
    key = paper.strip().lower()
    if key in PAPERS:
        return PAPERS[key]
    m = _CUSTOM.match(key)
    if not m:
        return None
    unit_w = m.group(2) or m.group(4) or "mm"
    unit_h = m.group(4) or unit_w
    w, h = float(m.group(1)) * _PAPER_UNITS[unit_w], float(m.group(3)) * _PAPER_UNITS[unit_h]
    return (min(w, h), max(w, h))


def paper_issue(paper: str) -> Issue | None:
    """B001 when ``paper`` is neither a named paper nor a custom ``WxH`` within
    :data:`CUSTOM_PAPER`, else None."""
    size = paper_size(paper)
    if size is None:
        return Issue("B001", f"unknown paper '{paper}' (use {', '.join(PAPERS)} or a size WxH such as 300x200mm)")
    lo, hi = CUSTOM_PAPER
    if size[0] < lo - _EPS or size[1] > hi + _EPS:
        return Issue("B001", f"paper '{paper}' is {size[0] / MM:.1f} x {size[1] / MM:.1f} mm: each side must be "
                             f"{lo / MM:g}-{hi / MM:g} mm")
    return None


def custom_papers(papers: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """Of ``papers`` (as ``--paper`` takes them), the custom ``WxH`` ones, as the sheets
    name them (stripped, lower case): what a fit check adds to the named papers.

    >>> custom_papers(["A4", " 200x280mm", "letter"])
    ('200x280mm',)
    """
    return tuple(dict.fromkeys(p.strip().lower() for p in papers if p.strip().lower() not in PAPERS))


def check_sheet_options(paper: str, bleed: float | None, margin: float, layout: str,
                        orientation: str = "portrait") -> None:
    """Raise with every bad sheet option at once (before anything is composed)."""
    issues = []
    bad_paper = paper_issue(paper)
    if bad_paper is not None:
        issues.append(bad_paper)
    if orientation not in ORIENTATIONS:
        issues.append(Issue("B012", f"unknown --orientation '{orientation}' (use {', '.join(ORIENTATIONS)})"))
    if layout not in layout_names():
        issues.append(Issue("B008", f"unknown --layout '{layout}' (use {', '.join(layout_names())})"))
    if not 0 <= margin <= MAX_MARGIN:
        issues.append(Issue("B007", f"--margin {margin / MM:g} mm is outside 0-{MAX_MARGIN / MM:g} mm"))
    if bleed is not None and not 0 <= bleed <= MAX_BLEED:
        issues.append(Issue("B002", f"bleed {bleed / MM:g} mm is outside 0-{MAX_BLEED / MM:g} mm"))
    if issues:
        raise CardkitError(issues)


def plan_sheet(paper: str, card_w: float, card_h: float, bleed: float | None, max_grid: tuple[int, int] = (12, 12),
               margin: float = DEFAULT_MARGIN, layout: str = "grid", min_bleed: float = MIN_BLEED,
               orientation: str = "portrait") -> Sheet:
    """The largest grid up to ``max_grid`` that fits inside the printable area;
    ``bleed=None`` plans for at least ``min_bleed`` (taking fewer columns or
    rows when it does not fit) and then takes the largest bleed up to 3 mm, in
    0.5 mm steps, that keeps that grid; when not even one card fits with
    ``min_bleed``, the grid a zero bleed gives, with the largest bleed that
    keeps it (below the minimum: the build says so).  ``orientation`` auto
    takes whichever of portrait and landscape holds more cards (portrait on a
    tie; one that keeps the minimum bleed before one that does not).  A card that does not fit even alone is an error saying what it needs."""
    check_sheet_options(paper, bleed, margin, layout, orientation)
    lay: Layout = layout  # type: ignore[assignment]
    size = paper_size(paper)
    assert size is not None
    pw, ph = size
    name = paper.strip().lower()
    if orientation == "landscape":
        turned = _plan(name, ph, pw, card_w, card_h, bleed, max_grid, margin, lay, min_bleed)
        assert turned is not None  # (it raises when nothing fits)
        return turned
    portrait = _plan(name, pw, ph, card_w, card_h, bleed, max_grid, margin, lay, min_bleed,
                     raise_=orientation == "portrait")
    if orientation == "portrait":
        assert portrait is not None
        return portrait
    landscape = _plan(name, ph, pw, card_w, card_h, bleed, max_grid, margin, lay, min_bleed, raise_=portrait is None)
    if landscape is None:
        assert portrait is not None
        return portrait
    if portrait is None:
        return landscape

    def rank(s: Sheet) -> tuple[bool, int]:  # the minimum bleed first, then the most cards
        return (bleed is not None or s.bleed >= min_bleed - _EPS, s.per_page)

    return landscape if rank(landscape) > rank(portrait) else portrait


def _plan(paper: str, pw: float, ph: float, card_w: float, card_h: float, bleed: float | None,
          max_grid: tuple[int, int], margin: float, lay: Layout, min_bleed: float, raise_: bool = True) -> Sheet | None:
    floor = min_bleed if bleed is None else bleed
    cols, rows, fold = _grid(pw, ph, card_w, card_h, floor, margin, lay, max_grid)
    if (cols == 0 or rows == 0) and bleed is None and floor > 0:
        floor = 0.0  # not even one card with the minimum: as little bleed as it takes
        cols, rows, fold = _grid(pw, ph, card_w, card_h, floor, margin, lay, max_grid)
    if cols == 0 or rows == 0:
        if not raise_:
            return None
        raise CardkitError(_no_fit(paper, pw, ph, card_w, card_h, floor, margin, lay), code="B002")
    b = floor
    if bleed is None:
        b = max(DEFAULT_BLEED, floor)
        while b > floor and _grid(pw, ph, card_w, card_h, b, margin, lay, max_grid) != (cols, rows, fold):
            b = round(b / MM - 0.5, 1) * MM
        b = max(b, floor)
    return Sheet(paper, pw, ph, card_w, card_h, b, cols, rows, margin, lay, fold)


def _no_fit(paper: str, pw: float, ph: float, w: float, h: float, b: float, margin: float, layout: Layout) -> str:
    """What one card needs: its trim at least the margin plus the larger of
    the bleed and a crop mark's room from every edge (a gutterfold sheet
    holds its back across the fold, the way that needs less paper)."""
    edge = margin + max(b, MARK_ROOM)
    need_w, need_h = w + 2 * edge, h + 2 * edge
    if sheet_layout(layout).fold:
        side_by_side = (2 * (edge + w + b + FOLD_GAP), need_h)
        stacked = (need_w, 2 * (edge + h + b + FOLD_GAP))
        need_w, need_h = min(side_by_side, stacked, key=lambda s: s[0] * s[1])
    fix = "use a smaller --bleed or --margin"
    if w + 2 * MARK_ROOM > pw + _EPS or h + 2 * MARK_ROOM > ph + _EPS:  # (cards are not turned to fit)
        fix = "the card is too large for this paper even without bleed and margin"
    return (f"a {w / MM:g} x {h / MM:g} mm card with {b / MM:g} mm bleed, a {margin / MM:g} mm printer margin and "
            f"crop marks needs {need_w / MM:.1f} x {need_h / MM:.1f} mm in the {layout} layout; {paper} is "
            f"{pw / MM:.1f} x {ph / MM:.1f} mm: {fix}")


def back_slot(sheet: Sheet, slot: int, duplex: str) -> tuple[int, bool]:
    """Where the back of the card in front ``slot`` goes, and whether it is turned 180°.

    The flip edge is the paper's: on a landscape sheet the long edge runs
    across the page, so a long-edge flip mirrors its rows (and turns the
    backs), a short-edge flip its columns."""
    r, c = divmod(slot, sheet.cols)
    if sheet.landscape and duplex in ("long-edge", "short-edge"):
        duplex = "short-edge" if duplex == "long-edge" else "long-edge"
    if duplex == "long-edge":
        return r * sheet.cols + (sheet.cols - 1 - c), False
    if duplex == "short-edge":
        return (sheet.rows - 1 - r) * sheet.cols + c, True
    raise CardkitError(f"unknown duplex mode '{duplex}' (use {', '.join(DUPLEX)})", code="B003")


def mark_span(bleed: float, room: float) -> tuple[float, float] | None:
    """From where to where (distances outward from the trim line) a crop mark
    runs when ``room`` separates the trim from the printer margin: outside the
    bleed when a mark of :data:`MIN_MARK` fits there, else from just outside
    the trim to the margin (over the bleed, which is cut away); None when
    neither fits.

    >>> [round(v / MM, 2) for v in mark_span(2 * MM, 2.5 * MM)]
    [0.5, 2.5]
    >>> [round(v / MM, 2) for v in mark_span(2 * MM, 12 * MM)]
    [3.0, 7.0]
    """
    end = min(room, bleed + MARK_GAP + MARK_LEN)
    start = bleed + MARK_GAP
    if end - start < MIN_MARK - _EPS:
        start = MARK_TRIM_GAP  # as long as the room allows
    return (start, end) if end - start >= MIN_MARK - _EPS else None


def _block_marks(sheet: Sheet, xs: list[float], ys: list[float], box: tuple[float, float, float, float],
                 sides: str, colour: str) -> list[Line]:
    """Marks on the extension of the vertical cut lines ``xs`` above and below
    the trim ``box`` and of the horizontal ones ``ys`` left and right of it, on
    the ``sides`` named (a subset of "lbrt")."""
    x0, y0, x1, y1 = box
    m, b = sheet.margin, sheet.bleed
    ops: list[Line] = []
    for side, room in (("t", sheet.page_h - m - y1), ("b", y0 - m), ("l", x0 - m), ("r", sheet.page_w - m - x1)):
        span = mark_span(b, room) if side in sides else None
        if span is None:
            continue
        s, e = span
        if side == "t":
            lines = [(x, y1 + s, x, y1 + e) for x in xs]
        elif side == "b":
            lines = [(x, y0 - s, x, y0 - e) for x in xs]
        elif side == "l":
            lines = [(x0 - s, y, x0 - e, y) for y in ys]
        else:
            lines = [(x1 + s, y, x1 + e, y) for y in ys]
        for pts in lines:
            if s < b - _EPS:  # over the bleed: a white casing keeps the mark visible on dark art
                ops.append(Line(*pts, "#ffffff", 1.0))
            ops.append(Line(*pts, colour, 0.25))
    return ops


def _cut_lines(sheet: Sheet, trims: list[tuple[float, float]]) -> tuple[list[float], list[float]]:
    """The x of every vertical cut line and the y of every horizontal one (top first)."""
    xs = sorted({round(v, 6) for x, _ in trims for v in (x, x + sheet.card_w)})
    ys = sorted({round(v, 6) for _, y in trims for v in (y, y + sheet.card_h)}, reverse=True)
    return xs, ys


def crop_marks(sheet: Sheet, slots: int, colour: str = "#000000") -> list[Line]:
    """Marks outside the cards, on the extension of every cut line, inside the
    printable area; on a gutterfold sheet for the fronts and their backs
    (none along the fold)."""
    if slots == 0:
        return []
    blocks: list[tuple[list[tuple[float, float]], str]]
    fronts = [sheet.trim_xy(i) for i in range(slots)]
    if sheet.fold == "vertical":
        blocks = [(fronts, "tbl"), ([sheet.fold_xy(i)[:2] for i in range(slots)], "tbr")]
    elif sheet.fold == "horizontal":
        blocks = [(fronts, "tlr"), ([sheet.fold_xy(i)[:2] for i in range(slots)], "blr")]
    else:
        blocks = [(fronts, "tblr")]
    ops: list[Line] = []
    for trims, sides in blocks:
        xs, ys = _cut_lines(sheet, trims)
        box = (xs[0], ys[-1], xs[-1], ys[0])
        ops += _block_marks(sheet, xs, ys, box, sides, colour)
    return ops


def fold_line(sheet: Sheet, colour: str = "#000000") -> list[Line]:
    """The dashed fold line of a gutterfold sheet, from margin to margin."""
    m = sheet.margin
    if sheet.fold == "vertical":
        return [Line(sheet.page_w / 2, m, sheet.page_w / 2, sheet.page_h - m, colour, 0.4, (3.0, 2.0))]
    if sheet.fold == "horizontal":
        return [Line(m, sheet.page_h / 2, sheet.page_w - m, sheet.page_h / 2, colour, 0.4, (3.0, 2.0))]
    return []


def footer_bands(sheet: Sheet) -> list[tuple[float, float, float, float, bool]]:
    """Where a page footer may go, best first, as (x0, y0, x1, y1, turned):
    below the lowest cards, above the top ones, or turned along the left or
    right side, always between the printer margin and the bleed and across one
    card's span, so clear of the crop marks.  A turned band reads bottom to top."""
    b, m = sheet.bleed, sheet.margin
    x, top_y = sheet.trim_xy(0)
    x_last = sheet.trim_xy(sheet.cols - 1)[0]
    low_y = sheet.trim_xy(sheet.per_page - 1)[1]
    if sheet.fold == "horizontal":
        low_y = sheet.fold_xy(0)[1]  # the backs' lowest row mirrors the fronts' top row
    if sheet.fold == "vertical":
        x_last = sheet.fold_xy(0)[0]  # the backs' rightmost column mirrors the fronts' first
    gap = b + MARK_TRIM_GAP
    along_x = (x + 1 * MM, x + sheet.card_w - 1 * MM)
    along_y = (top_y + 1 * MM, top_y + sheet.card_h - 1 * MM)
    bands = [(along_x[0], m, along_x[1], low_y - gap, False),
             (along_x[0], top_y + sheet.card_h + gap, along_x[1], sheet.page_h - m, False),
             (m, along_y[0], x - gap, along_y[1], True),
             (x_last + sheet.card_w + gap, along_y[0], sheet.page_w - m, along_y[1], True)]
    return [band for band in bands if (band[2] - band[0] if band[4] else band[3] - band[1]) > 0]
