"""Every sheet a set's cards may print on, and the fits of the page furniture's texts
there (calibration page, token page, footers), as the furniture modules report them:
what ``l10n check`` reads (T950), for every paper, orientation, layout and duplex mode,
without laying a page out itself."""

from __future__ import annotations

from dataclasses import dataclass

from cardkit.errors import CardkitError
from cardkit.layout.fonts import FontBook
from cardkit.layout.sheet import DUPLEX, LAYOUTS, PAPERS, Sheet, plan_sheet
from cardkit.model import CardSet
from cardkit.printing.calibration import calibration_fits
from cardkit.printing.fits import TextFit
from cardkit.printing.footer import LANGUAGE_NAMES, footer_fit
from cardkit.printing.tokens import game_tokens, slot_token_fits, slot_tokens, token_fits, token_heading
from cardkit.strings.localize import Localizer

#: what ``cardkit build`` prints by default, checked first (so a finding names it when it fails there)
DEFAULT_SHEET = ("a4", "portrait", "grid")


@dataclass(frozen=True)
class SheetPlan:
    """One way the project's cards print: a paper, an orientation and a layout, with the
    sheet of each card size (in print order)."""

    paper: str
    orientation: str
    layout: str
    sheets: tuple[Sheet, ...]

    @property
    def name(self) -> str:
        return f"{self.paper} {self.orientation} {self.layout}"


def sheet_plans(sizes: list[tuple[float, float]], papers: tuple[str, ...] = ()) -> list[SheetPlan]:
    """The sheets of every named paper, and of the custom ``papers`` a user asked for
    (``WxH``, :func:`cardkit.layout.sheet.paper_size`), in every orientation and layout for
    cards of ``sizes`` (trim width, height), the default build's first; a plan where a
    size does not fit is left out."""
    named = list(PAPERS) + [p for p in dict.fromkeys(q.strip().lower() for q in papers) if p not in PAPERS]
    combos: list[tuple[str, str, str]] = [(p, o, lay) for lay in LAYOUTS for p in named for o in ("portrait", "landscape")]
    combos.remove(DEFAULT_SHEET)
    out = []
    for paper, orientation, layout in [DEFAULT_SHEET, *combos]:
        try:
            sheets = tuple(plan_sheet(paper, w, h, None, layout=layout, orientation=orientation) for w, h in sizes)
        except CardkitError:  # a card too large for this paper: nothing of it prints there
            continue
        out.append(SheetPlan(paper, orientation, layout, sheets))
    return out


def sheet_title(card_set: CardSet, loc: Localizer) -> str:
    """The title a sheet's footer prints (``sheet.title``: the set's title and the language)."""
    return loc.ui("sheet.title", title=loc.card("set.title"), language=LANGUAGE_NAMES.get(loc.locale, loc.locale))


def plan_fits(card_set: CardSet, loc: Localizer, book: FontBook, plan: SheetPlan, counts: list[int],
              duplexes: tuple[str, ...] = DUPLEX, tokens: bool = True) -> list[TextFit]:
    """The fit of every text the furniture prints on the sheets of ``plan`` (``counts``:
    the number of cards of each size): each size's calibration page for each of
    ``duplexes`` the sheet prints (a folded sheet: one, fronts only), every page footer
    (at the widest page number), and with ``tokens`` the token page and its footer on the
    first size's sheet (in the last sheet's free slots, :func:`slot_tokens`, when they go there).  What a PDF build reports (:attr:`BuildResult.furniture`) and
    ``l10n check`` reads."""
    title = sheet_title(card_set, loc)
    out: list[TextFit] = []
    total = sum((n + sh.per_page - 1) // sh.per_page for n, sh in zip(counts, plan.sheets))
    for sheet in plan.sheets:
        for duplex in (("none",) if sheet.fold else duplexes):
            name = plan.name if sheet.fold else f"{plan.name} {duplex}"
            out += calibration_fits(sheet, loc, duplex, book, name)
        out.append(footer_fit(book, sheet, f"{title} · {total}/{total}", loc.locale, ("set.title",), name=plan.name))
    if tokens and plan.sheets and (game_tokens(card_set, loc) or card_set.teams):
        last = plan.sheets[-1]
        placed = slot_tokens(last, counts[-1] % last.per_page or last.per_page, card_set, loc, book, title) \
            if counts else None
        if placed is not None:  # in the last sheet's free slots: no token page, no footer of its own
            return out + slot_token_fits(book, card_set, loc, placed, plan.name)
        heading_key, heading = token_heading(card_set, loc, title)
        first = plan.sheets[0]
        out += token_fits(book, card_set, loc, first.page_w, title, plan.name)
        out.append(footer_fit(book, first, f"{title} · {heading}", loc.locale, (heading_key,),
                              "token page footer", plan.name))
    return out


def furniture_fits(card_set: CardSet, loc: Localizer, book: FontBook, groups: list[tuple[float, float, int]],
                   papers: tuple[str, ...] = ()) -> list[TextFit]:
    """The fit of every text the furniture prints around cards of ``groups`` (trim
    width, height, number of cards per size) on every sheet of :func:`sheet_plans`
    (the named papers and the custom ``papers`` asked for; :func:`plan_fits`, every
    duplex mode)."""
    counts = [n for _, _, n in groups]
    return [f for plan in sheet_plans([(w, h) for w, h, _ in groups], papers)
            for f in plan_fits(card_set, loc, book, plan, counts)]
