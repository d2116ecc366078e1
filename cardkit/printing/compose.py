"""Compose and fit: every physical card of a set composed in a locale, the fit rule every
build applies (P010, the pseudo-locale's W030), and the cards grouped by size.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from pathlib import Path

from cardkit.errors import CardkitError, Issue, Severity
from cardkit.layout.compose import Composer, Face, FieldFit, PrintItem, bad_fits
from cardkit.layout.faces import load_faces
from cardkit.layout.units import MM
from cardkit.model import CardSet, SourceString
from cardkit.strings.locales import PSEUDO
from cardkit.strings.localize import Localizer

UNITS = ("inch", "cm")


def units_message(units: str) -> str:
    """B006's message: ``units`` is not one of :data:`UNITS`."""
    return f"unknown --units '{units}' (inch or cm)"


def compose_set(root: Path, card_set: CardSet, locale: str, units: str = "inch",
                variant: str | None = None) -> tuple[list[PrintItem], list[PrintItem]]:
    """Every physical card of the set (and the extras) composed in ``locale``
    from the set's face file (with the overrides of ``variant``); ``units``
    (inch or cm) is passed to plugin elements that label distances (a table map)."""
    if units not in UNITS:
        raise CardkitError(units_message(units), code="B006")
    key = (Path(root), id(card_set), locale, units, variant)
    if _COMPOSED is not None and key in _COMPOSED:
        return _COMPOSED[key][1]
    comp = _composer(root, card_set, Localizer(root, locale, card_set), units, variant)
    result = comp.items(), comp.extras()
    if _COMPOSED is not None:
        _COMPOSED[key] = (card_set, result)  # the set is kept so that its id stays its own
    return result


# compositions kept while a composed_once block runs: key -> (the set, its items and extras)
_COMPOSED: dict[tuple[Path, int, str, str, str | None], tuple[CardSet, tuple[list[PrintItem], list[PrintItem]]]] | None = None


@contextlib.contextmanager
def composed_once() -> Iterator[None]:
    """Within the block, :func:`compose_set` composes each set, locale, units and
    variant once and gives every later call the same items (the review page
    lays out each face for its fit check, its length budgets and its images);
    callers must not change them.  The files are not read again inside the
    block, so it should span one command's run, no more."""
    global _COMPOSED
    outer = _COMPOSED
    _COMPOSED = {} if outer is None else outer
    try:
        yield
    finally:
        _COMPOSED = outer


def entry_of(loc: Localizer, english: Mapping[str, SourceString], key: str, locale: str) -> tuple[str, int]:
    """Where a string of a fit is written: its catalog entry, else its English source."""
    if key.startswith("ui:"):
        return loc.where_ui(key[3:])
    if locale != "en" and loc.where(key)[0]:
        return loc.where(key)
    if key in english:
        return english[key].file, english[key].line
    return "", 0


def fit_issues(root: Path, card_set: CardSet, locale: str, fits: list[FieldFit]) -> list[Issue]:
    """Build errors for strings that do not fit, located at their source."""
    loc = Localizer(root, locale, card_set)
    english = {s.msgctxt: s for s in card_set.strings}
    out = []
    for f in fits:
        file, line = entry_of(loc, english, f.key.split(",")[0], locale)
        out.append(Issue("P010", f"{f.key} ({locale}) does not fit field '{f.field}' of {f.card}: {f.result.describe()}",
                         file=file, line=line, column=1))
    return out


def _composer(root: Path, card_set: CardSet, loc: Localizer, units: str, variant: str | None) -> Composer:
    from cardkit.render.images import art_loader  # (the artwork as the faces' `images:` asks)

    book = load_faces(root, card_set, variant)
    return Composer(card_set, loc, book, art=art_loader(root, book.images), options={"units": units})


def english_where_too_long(root: Path, card_set: CardSet, locale: str, units: str, variant: str | None,
                           items: list[PrintItem], extras: list[PrintItem]
                           ) -> tuple[list[PrintItem], list[PrintItem], list[Issue]]:
    """The pseudo-locale's way with a box whose text does not fit even at its
    minimum size: on that card the box's strings print as their English source
    (no brackets, no accents, so the designer sees the place on the sheet), and
    each such string is a W030 warning on its own catalog entry.  Only the
    faces of the cards concerned are composed again; the other cards keep their
    pseudo text.  What still does not fit in English is left for the P010 check."""
    bad = bad_fits(all_faces(items + extras))
    if not bad:
        return items, extras, []
    keys_of: dict[str, set[str]] = {}
    for f in bad:
        keys_of.setdefault(f.card, set()).update(k for k in f.key.split(",") if k)
    cards_of: dict[frozenset[str], set[str]] = {}  # one composition per distinct set of strings
    for card, keys in keys_of.items():
        cards_of.setdefault(frozenset(keys), set()).add(card)
    loc = Localizer(root, locale, card_set)
    english = {s.msgctxt: s for s in card_set.strings}

    def swap(mine: PrintItem, alt: PrintItem, cards: set[str]) -> PrintItem:
        front = alt.front if mine.front.card in cards else mine.front
        back = alt.back if mine.back is not None and mine.back.card in cards else mine.back
        return mine if front is mine.front and back is mine.back else PrintItem(front, back, mine.deck)

    for english_keys, cards in sorted(cards_of.items(), key=lambda kv: sorted(kv[1])):
        comp = _composer(root, card_set, loc.without(english_keys), units, variant)
        alt_items, alt_extras = comp.items(), comp.extras()
        items = [swap(a, b, cards) for a, b in zip(items, alt_items)]
        extras = [swap(a, b, cards) for a, b in zip(extras, alt_extras)]
    warnings = []
    for f in bad:
        for key in dict.fromkeys(k for k in f.key.split(",") if k):
            file, line = entry_of(loc, english, key, locale)
            warnings.append(Issue("W030", f"{key} ({locale}) prints in English on {f.card}, field '{f.field}': "
                                  f"the pseudo text {f.result.describe()}", file=file, line=line, column=1,
                                  severity=Severity.WARNING))
    return items, extras, warnings



def size_groups(items: list[PrintItem]) -> list[list[PrintItem]]:
    """The cards grouped by trim size (width and height, so orientation too),
    each group in print order, the groups in the order their first card comes."""
    groups: dict[tuple[float, float], list[PrintItem]] = {}
    for it in items:
        t = it.front.template
        groups.setdefault((round(t.width, 3), round(t.height, 3)), []).append(it)
    return list(groups.values())


def check_back_sizes(items: list[PrintItem]) -> None:
    """A back must be its front's size to sit behind it."""
    bad: dict[tuple[str, str], Issue] = {}
    for it in items:
        if it.back is None:
            continue
        f, b = it.front.template, it.back.template
        if abs(f.width - b.width) > 0.01 or abs(f.height - b.height) > 0.01:
            key = (it.front.card, it.back.id)
            bad.setdefault(key, Issue(
                "B009", f"the back {it.back.id} is {size_text(b.width)} x {size_text(b.height)} mm but the card "
                f"{it.front.id} it goes behind is {size_text(f.width)} x {size_text(f.height)} mm: give the back "
                "face the front's size"))
    if bad:
        raise CardkitError(list(bad.values()))



def faces_by_id(items: list[PrintItem]) -> list[Face]:
    """Every distinct face (fronts, then backs) in print order."""
    seen: dict[str, Face] = {}
    for it in items:
        for face in (it.front, it.back):
            if face is not None and face.id not in seen:
                seen[face.id] = face
    return list(seen.values())


def all_faces(items: list[PrintItem]) -> list[Face]:
    return [i.front for i in items] + [i.back for i in items if i.back is not None]


def printable_set(root: Path, card_set: CardSet, locale: str, units: str = "inch", variant: str | None = None
                  ) -> tuple[list[PrintItem], list[PrintItem], list[Issue]]:
    """The set's items and extras as every build prints them, with the warnings
    to show: composed in ``locale``, then for the pseudo-locale (a preview of
    fit, not for print: the build goes on, docs/translation.md) a box that does
    not fit even at its minimum size in English (W030); raises P010 with every
    string that still does not fit.  The one home of the fit rule for the PDF,
    PNG, print-shop and Tabletop Simulator builds."""
    items, extras = compose_set(root, card_set, locale, units, variant)
    warnings: list[Issue] = []
    if locale == PSEUDO:
        items, extras, warnings = english_where_too_long(root, card_set, locale, units, variant, items, extras)
    _check_fits(root, card_set, locale, items + extras)
    return items, extras, warnings


def _check_fits(root: Path, card_set: CardSet, locale: str, items: list[PrintItem]) -> None:
    bad = bad_fits(all_faces(items))
    if bad:
        raise CardkitError(fit_issues(root, card_set, locale, bad))


def size_text(v: float) -> str:
    """A length in mm as a ruler shows it: 63, 63.5, 88.9."""
    return f"{round(v / MM, 1):g}"
