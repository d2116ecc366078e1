"""Imposition: where each card sits on a printed sheet, front and back.

Cards sit in a centred grid with a gutter of twice the bleed, so every card
carries its own bleed and cuts cleanly.  Back pages mirror the grid for the
printer's flip edge:

* long-edge flip: a card at column ``c`` has its back at column ``cols-1-c``;
* short-edge flip: the back sits in row ``rows-1-r`` and is turned 180°, so
  that it reads upright when the card is turned over left to right.

Without ``--bleed`` the bleed is the largest up to 3 mm that leaves room for
crop marks on every side (A4: 2 mm, Letter: 1 mm).

>>> s = plan_sheet("a4", 63 * MM, 88 * MM, None)
>>> (s.cols, s.rows, round(s.bleed / MM, 2))
(3, 3, 2.0)
>>> round(plan_sheet("letter", 63 * MM, 88 * MM, None).bleed / MM, 2)
1.0
>>> back_slot(s, 0, "long-edge"), back_slot(s, 0, "short-edge")
((2, False), (6, True))
"""

from __future__ import annotations

from dataclasses import dataclass

from cardkit.errors import CardkitError
from cardkit.layout.ops import Line
from cardkit.layout.units import INCH, MM

PAPERS: dict[str, tuple[float, float]] = {"a4": (210 * MM, 297 * MM), "letter": (8.5 * INCH, 11 * INCH)}
DEFAULT_BLEED = 3 * MM
MARK_GAP = 1.0 * MM  # crop marks start this far from the bleed edge
MARK_LEN = 4.0 * MM
DUPLEX = ("long-edge", "short-edge", "none")


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

    @property
    def pitch_x(self) -> float:
        return self.card_w + 2 * self.bleed

    @property
    def pitch_y(self) -> float:
        return self.card_h + 2 * self.bleed

    @property
    def grid_w(self) -> float:
        return self.cols * self.pitch_x

    @property
    def grid_h(self) -> float:
        return self.rows * self.pitch_y

    @property
    def left(self) -> float:
        return (self.page_w - self.grid_w) / 2

    @property
    def bottom(self) -> float:
        return (self.page_h - self.grid_h) / 2

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    def trim_xy(self, slot: int) -> tuple[float, float]:
        """Bottom-left corner of the trim box of ``slot`` (row-major from top-left)."""
        r, c = divmod(slot, self.cols)
        x = self.left + c * self.pitch_x + self.bleed
        y = self.bottom + (self.rows - 1 - r) * self.pitch_y + self.bleed
        return x, y

    def trim_box(self, slots: int) -> tuple[float, float, float, float]:
        """Box (x0, y0, x1, y1) around the trims of the first ``slots`` slots."""
        pts = [self.trim_xy(i) for i in range(slots)]
        xs = [p[0] for p in pts]
        ys = [p[1] for p in pts]
        return (min(xs), min(ys), max(xs) + self.card_w, max(ys) + self.card_h)


def plan_sheet(paper: str, card_w: float, card_h: float, bleed: float | None, max_grid: tuple[int, int] = (3, 3)) -> Sheet:
    """The largest grid up to ``max_grid`` that fits; ``bleed=None`` takes 3 mm,
    or the largest bleed in 0.5 mm steps that still fits the grid."""
    if paper not in PAPERS:
        raise CardkitError(f"unknown paper '{paper}' (use {' or '.join(PAPERS)})", code="B001")
    pw, ph = PAPERS[paper]
    cols, rows = max_grid
    while cols > 1 and cols * card_w > pw:
        cols -= 1
    while rows > 1 and rows * card_h > ph:
        rows -= 1

    def fits(b: float, margin: float = 0.0) -> bool:
        return (cols * (card_w + 2 * b) + 2 * margin <= pw + 1e-6
                and rows * (card_h + 2 * b) + 2 * margin <= ph + 1e-6)

    if bleed is None:
        # the largest bleed up to 3 mm that leaves room for crop marks on every side
        b = DEFAULT_BLEED
        while b > 0 and not fits(b, MARK_GAP + MARK_LEN - 1 * MM):
            b = round((b / MM - 0.5), 1) * MM
        bleed = max(b, 0.0)
    elif not fits(bleed):
        need_w = cols * (card_w + 2 * bleed) / MM
        need_h = rows * (card_h + 2 * bleed) / MM
        raise CardkitError(
            f"{cols} x {rows} cards of {card_w / MM:.0f} x {card_h / MM:.0f} mm with {bleed / MM:g} mm bleed need "
            f"{need_w:.1f} x {need_h:.1f} mm; {paper} is {pw / MM:.1f} x {ph / MM:.1f} mm: use a smaller --bleed", code="B002")
    if bleed < 0 or bleed > 10 * MM:
        raise CardkitError(f"bleed {bleed / MM:g} mm is outside 0-10 mm", code="B002")
    return Sheet(paper, pw, ph, card_w, card_h, bleed, cols, rows)


def back_slot(sheet: Sheet, slot: int, duplex: str) -> tuple[int, bool]:
    """Where the back of the card in front ``slot`` goes, and whether it is turned 180°."""
    r, c = divmod(slot, sheet.cols)
    if duplex == "long-edge":
        return r * sheet.cols + (sheet.cols - 1 - c), False
    if duplex == "short-edge":
        return (sheet.rows - 1 - r) * sheet.cols + c, True
    raise CardkitError(f"unknown duplex mode '{duplex}' (use {', '.join(DUPLEX)})", code="B003")


def crop_marks(sheet: Sheet, slots: int, colour: str = "#000000") -> list[Line]:
    """Marks outside the grid, on the extension of every trim line."""
    if slots == 0:
        return []
    ops: list[Line] = []
    used_rows = (slots + sheet.cols - 1) // sheet.cols
    used_cols = min(slots, sheet.cols)
    top = sheet.bottom + sheet.grid_h
    bottom = sheet.bottom + (sheet.rows - used_rows) * sheet.pitch_y
    left = sheet.left
    right = sheet.left + used_cols * sheet.pitch_x
    room_x = min(MARK_LEN, sheet.left - MARK_GAP)
    room_y = min(MARK_LEN, sheet.bottom - MARK_GAP)
    for c in range(used_cols):
        for x in (left + c * sheet.pitch_x + sheet.bleed, left + c * sheet.pitch_x + sheet.bleed + sheet.card_w):
            if room_y > 0.5 * MM:
                ops.append(Line(x, top + MARK_GAP, x, top + MARK_GAP + room_y, colour, 0.25))
                ops.append(Line(x, bottom - MARK_GAP, x, bottom - MARK_GAP - room_y, colour, 0.25))
    for r in range(used_rows):
        y0 = sheet.bottom + (sheet.rows - 1 - r) * sheet.pitch_y + sheet.bleed
        for y in (y0, y0 + sheet.card_h):
            if room_x > 0.5 * MM:
                ops.append(Line(left - MARK_GAP, y, left - MARK_GAP - room_x, y, colour, 0.25))
                ops.append(Line(right + MARK_GAP, y, right + MARK_GAP + room_x, y, colour, 0.25))
    return ops
