"""Language rules from data, for any language: how numbers are written (CLDR
decimal and grouping symbols through Babel), the words for inches and
centimetres after a number (CLDR unit names through Babel, plus what a
glossary declares), and the quotation marks (CLDR delimiters, kept in
``quotes.json`` by ``tools/cldr_quotes.py``).

>>> number_style("sv"), number_style("de").decimal, number_style("ko")
(NumberStyle(decimal=',', groups=(' ', '.', '\\xa0', '\\u202f')), ',', NumberStyle(decimal='.', groups=(',',)))
>>> "tum" in unit_words("sv").inch, "Zoll" in unit_words("de").inch, "Zentimeter" in unit_words("de").cm
(True, True, True)
>>> quote_marks("de"), quote_marks("fi")
(('„', '“', '‚', '‘'), ('”', '”', '’', '’'))
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path

from babel import Locale, UnknownLocaleError
from babel.numbers import get_decimal_symbol, get_group_symbol

SPACES = (" ", "\u00a0", "\u202f")  # a space-like group separator is typed as any of them
QUOTES_FILE = Path(__file__).resolve().parent / "quotes.json"
# Korean game text also quotes card names in corner brackets (as Japanese does)
EXTRA_QUOTES = {"ko": ("「", "」", "『", "』")}


@dataclass(frozen=True)
class NumberStyle:
    """How a locale writes numbers: the decimal mark and the thousands separators."""

    decimal: str
    groups: tuple[str, ...]


@dataclass(frozen=True)
class UnitWords:
    """Words that make the number before them a length in inches or centimetres."""

    inch: tuple[str, ...]
    cm: tuple[str, ...]


def _locale(locale: str) -> Locale | None:
    try:
        return Locale.parse(locale.replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        return None


@functools.lru_cache(maxsize=64)
def number_style(locale: str) -> NumberStyle:
    """CLDR's decimal and grouping symbols of ``locale`` (English for a locale
    Babel does not know).  A space-like group separator accepts every space
    (typed text has a plain space where CLDR says no-break space), and where
    the decimal mark is a comma a dot and a space also group thousands
    (40.000, 40 000)."""
    if _locale(locale) is None:
        return NumberStyle(".", (",",))
    decimal = get_decimal_symbol(locale)
    group = get_group_symbol(locale)
    groups = set(SPACES) if group in SPACES else {group}
    if decimal == ",":  # 40.000 and 40 000 both group where the comma is decimal (German DIN 5008 too)
        groups |= {".", *SPACES}
    groups.discard(decimal)
    return NumberStyle(decimal, tuple(sorted(groups)))


def _pattern_words(loc: Locale, unit: str) -> set[str]:
    out = set()
    for forms in (loc._data.get("unit_patterns", {}).get(unit, {}) or {}).values():
        for kind, pattern in forms.items():
            if kind == "per" or not pattern.startswith("{0}"):
                continue
            word = pattern[3:].strip(" \u00a0\u202f")
            # two ASCII letters ("in") are an English word too often; symbols are read apart
            if re.fullmatch(r"[^\W\d_]+", word) and (len(word) > 2 or not word.isascii()):
                out.add(word)
    return out


@functools.lru_cache(maxsize=64)
def unit_words(locale: str, inch: tuple[str, ...] = (), cm: tuple[str, ...] = ()) -> UnitWords:
    """The CLDR words for inches and centimetres of ``locale`` and the English
    ones, plus ``inch``/``cm`` from the locale's glossary (``units``: case forms
    CLDR does not list, "18 tuuman")."""
    words = {"inch": set(inch), "cm": set(cm)}
    for name in {locale, "en"}:
        loc = _locale(name)
        if loc is not None:
            words["inch"] |= _pattern_words(loc, "length-inch")
            words["cm"] |= _pattern_words(loc, "length-centimeter")
    words["cm"].add("cm")
    def order(ws: set[str]) -> tuple[str, ...]:  # longest first
        return tuple(sorted(ws, key=lambda w: (-len(w), w)))

    return UnitWords(order(words["inch"]), order(words["cm"]))


@functools.lru_cache(maxsize=1)
def _quotes() -> dict[str, list[str]]:
    data: dict[str, list[str]] = json.loads(QUOTES_FILE.read_text(encoding="utf-8"))["locales"]
    return data


def quote_marks(locale: str) -> tuple[str, ...] | None:
    """CLDR's quotation marks of ``locale`` (start, end, alternate start,
    alternate end), the region's own where it differs; None when CLDR has none."""
    table = _quotes()
    name = locale.replace("-", "_")
    found = table.get(name) or table.get(name.split("_")[0])
    return tuple(found) if found else None


ALL_QUOTES = "\"“”„‟«»‹›「」『』"  # marks that open or close a quotation (single ones double as apostrophes)


def allowed_quotes(locale: str) -> str:
    """The double quotation marks a translation in ``locale`` may use."""
    marks = quote_marks(locale) or ()
    extra = EXTRA_QUOTES.get(locale.split("_")[0], ())
    return "".join(m for m in (*marks, *extra) if m in ALL_QUOTES)
