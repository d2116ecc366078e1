"""Translation checks: small functions over catalog entries, each with a stable
code and severity (the Babel ``checkers`` habit).

Each check registers with :func:`cardkit.i18n.registry.check`, naming its scope
and its codes (code, severity, doc line); the registry is the one table of codes
(``docs/translation.md``, "Checks", and ``l10n check --help`` are generated from
it).  :func:`run_entry_checks` runs the checks of one entry,
:func:`run_locale_checks` those over a locale's catalogs.
"""

from __future__ import annotations

import functools
import os
import re
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Iterable

from cardkit.errors import CardkitError, Issue, Severity
from cardkit.i18n.registry import Code, Scope, check, of_scope
from cardkit.strings.korean import PAIRS, final_consonant, native_numbers, particle
from cardkit.i18n.langrules import ALL_QUOTES, UnitWords, allowed_quotes, number_style, quote_marks, unit_words
from cardkit.layout.fonts import FontBook
from cardkit.load.schema import validate_doc
from cardkit.load.yamlsafe import YamlError, read_yaml_file
from cardkit.text import ICON_NAME, placeholders, raw_markup_problems, tags, tokens

HANGUL = re.compile(r"[\uac00-\ud7a3]+")
MAX_HANGUL_RUN = 12
# syllables per space-separated word: at most 4.5 in the shipped catalogs (a term and its particle); a string of
# MIN_SPACED_SYLLABLES or more for three English words or more that averages MAX_WORD_SYLLABLES has lost its spaces
MIN_SPACED_SYLLABLES, MAX_WORD_SYLLABLES = 7, 6.0


@dataclass(frozen=True)
class Term:
    id: str
    en: tuple[str, ...]
    term: str
    forms: tuple[str, ...]
    stems: tuple[str, ...]
    forbidden: tuple[str, ...]
    sets: tuple[str, ...] = ()  # empty: every set

    def applies(self, domain: str) -> bool:
        return not self.sets or domain == "ui" or domain in self.sets


@dataclass(frozen=True)
class Variant:
    """A deliberate difference: one English source translated in several ways
    on purpose (a rule keyword kept in English as a name, translated as a
    heading), declared once in the glossary with the reason."""

    en: str
    translations: tuple[str, ...]
    reason: str


@dataclass(frozen=True)
class Glossary:
    locale: str
    terms: tuple[Term, ...] = ()
    proper_names: frozenset[str] = frozenset()
    numbers: dict[int, tuple[str, ...]] = field(default_factory=dict, hash=False)
    variants: tuple[Variant, ...] = ()
    negation: tuple[str, ...] = ()  # words that negate a clause (the negation check)
    units_declared: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # inch words, cm words beyond CLDR's
    name_endings: tuple[str, ...] = ()  # endings a name takes when inflected (Finnish Deino-n, Deino-lle)
    declared: frozenset[str] = frozenset()  # the language-data keys the glossary file has (LANGUAGE_DATA)

    @property
    def units(self) -> UnitWords:
        return unit_words(self.locale, *self.units_declared)


# The language data of a glossary that checks need, and what each is for: the check that does not run
# without it, or runs with less.  `l10n init` scaffolds each (cardkit.i18n.languages.glossary_scaffold);
# `l10n check` says which are missing (T190).
LANGUAGE_DATA = {
    "negation": (True, "T161 (a negation lost or added) did not run: no `negation:` list of the words that negate "
                       "a clause"),
    "proper_names": (False, "T160 (names) did not run: no `proper_names` (the English names it follows into other "
                            "strings; write `proper_names: []` for a game without names)"),
    "numbers": (False, "T401/T402 read digits only: no `numbers:` (a number written as a word is reported)"),
    "name_endings": (False, "T160 knows names as whole words only: no `name_endings` (an inflected name, Deinon, "
                            "is not recognised; write `name_endings: []` for a language that does not inflect names)"),
}


def missing_language_data(g: Glossary) -> list[str]:
    """What the checks lack of ``g``'s language data: a line per key, for
    checks that did not run (an empty ``negation`` list; ``proper_names``
    never declared) or ran with less (``numbers`` or ``name_endings`` never
    declared; Korean writes its particles on the name, so it needs no
    endings)."""
    out = []
    for key, (needs_items, what) in LANGUAGE_DATA.items():
        if key == "name_endings" and g.locale.startswith("ko"):
            continue
        value = getattr(g, key)
        if (needs_items and not value) or (not needs_items and key not in g.declared and not value):
            out.append(what)
    return out


def load_glossary(root: Path, locale: str) -> tuple[Glossary, list[Issue]]:
    path = root / "locales" / locale / "glossary.yaml"
    rel = f"locales/{locale}/glossary.yaml"
    if not os.path.lexists(path):
        return Glossary(locale), []
    try:
        doc = read_yaml_file(path, rel, root=root)
    except YamlError as exc:
        if exc.issue.code in ("F004", "F005"):  # refused unread: not a translation finding, the run stops here
            raise CardkitError(exc.issue) from None
        return Glossary(locale), [exc.issue]
    problems = validate_doc(doc, "glossary.schema.json")
    if problems:
        return Glossary(locale), problems
    d = doc.data
    terms = tuple(Term(t["id"], tuple(t["en"]), t["term"], tuple(t["forms"]), tuple(t.get("stems", ())),
                       tuple(t.get("forbidden", ())), tuple(t.get("sets", ()))) for t in d["terms"])
    numbers = {n["value"]: tuple(n["words"]) for n in d.get("numbers", [])}
    variants = tuple(Variant(v["en"], tuple(v["translations"]), v["reason"]) for v in d.get("variants", []))
    units = d.get("units", {})
    return Glossary(locale, terms, frozenset(d.get("proper_names", [])), numbers, variants, tuple(d.get("negation", [])),
                    (tuple(units.get("inch", [])), tuple(units.get("cm", []))), tuple(d.get("name_endings", [])),
                    frozenset(k for k in LANGUAGE_DATA if k in d)), []


@dataclass
class Entry:
    """One catalog entry as the checks see it."""

    locale: str
    domain: str  # set id or "ui"
    msgctxt: str
    source: str
    translation: str
    file: str
    line: int
    fuzzy: bool = False
    form: int | None = None  # the msgstr[n] index of one form of a plural message
    icons: frozenset[str] = frozenset()  # the set's own icon names: inline tokens besides the built-in ones


@dataclass(frozen=True)
class Finding:
    check: str
    severity: Severity
    locale: str
    set: str
    msgctxt: str
    file: str
    line: int
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"check": self.check, "severity": self.severity.value, "locale": self.locale, "set": self.set,
                "msgctxt": self.msgctxt, "file": self.file, "line": self.line, "message": self.message}

    def issue(self) -> Issue:
        return Issue(self.check, f"{self.msgctxt}: {self.message}" if self.msgctxt else self.message, file=self.file, line=self.line, column=1,
                     severity=self.severity)


Check = Callable[[Entry, Glossary], Iterable[tuple[str, Severity, str]]]

E, W = Severity.ERROR, Severity.WARNING


@check(Scope.ENTRY, Code("T201", W, "translation identical to the English (names allowed by the glossary)"))
def check_unchanged(e: Entry, g: Glossary) -> Iterable[tuple[str, Severity, str]]:
    t = e.translation.replace("\u00ad", "")
    if t == e.source and not _only_names(t, g) and re.search(r"[A-Za-z]{3}", _strip_markup(t)):
        yield "T201", W, "translation is identical to the English source"


_LATIN_WORD = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)?")
_COMMAND = re.compile(r"\bcardkit(?: [a-z][\w-]*)+")  # a command line of this tool is not translated
ENGLISH_RUN = 3  # consecutive words of the English in the translation: a phrase left untranslated


def _kept_words(g: Glossary) -> frozenset[str]:
    """Latin words a translation may keep from the English: those of the
    proper names and of the glossary's own terms and forms (a name kept in English)."""
    hit = _KEPT.get(id(g))
    if hit is not None and hit[0] is g:
        return hit[1]
    words = {w.casefold() for name in g.proper_names for w in _LATIN_WORD.findall(name)}
    words.update(w.casefold() for t in g.terms for f in (t.term, *t.forms) for w in _LATIN_WORD.findall(f))
    if len(_KEPT) >= 16:
        _KEPT.clear()
    _KEPT[id(g)] = (g, frozenset(words))
    return _KEPT[id(g)][1]


_KEPT: dict[int, tuple[Glossary, frozenset[str]]] = {}


def english_left(source: str, translation: str, kept: frozenset[str]) -> str | None:
    """The first run of ``ENGLISH_RUN`` consecutive words of the English that
    the translation repeats (case aside), unless every word of it is one a
    translation keeps (names, glossary terms); or the whole translation when
    it is the English with other case or spacing.

    >>> english_left("Hold the sheet against a light.", "Pidä arkkia hold the sheet against.", frozenset())
    'hold the sheet'
    >>> english_left("Win rate", "Win Rate", frozenset()), english_left("Stay here", "Stay here", frozenset())
    ('Win Rate', None)
    """
    src = _COMMAND.sub(" ", _strip_markup(source))
    dst = _COMMAND.sub(" ", _strip_markup(translation.replace("\u00ad", "")))
    a = [w.casefold() for w in _LATIN_WORD.findall(src)]
    b = [w.casefold() for w in _LATIN_WORD.findall(dst)]
    if translation != source and " ".join(a) == " ".join(b) and any(len(w) >= 3 and w not in kept for w in a):
        return translation
    grams = {tuple(a[i:i + ENGLISH_RUN]) for i in range(len(a) - ENGLISH_RUN + 1)}
    for i in range(len(b) - ENGLISH_RUN + 1):
        run = tuple(b[i:i + ENGLISH_RUN])
        if run in grams and not all(w in kept for w in run):
            return " ".join(run)
    return None


@check(Scope.ENTRY,
       Code("T170", W, "English left in the translation: three consecutive words of the English (not all names or glossary terms), or the English with other case or spacing; on interface strings too"))
def check_english_left(e: Entry, g: Glossary) -> Iterable[tuple[str, Severity, str]]:
    """T170: English words left in a translation that is not the English
    (that one is T201)."""
    if e.translation.replace("\u00ad", "") == e.source:
        return
    run = english_left(e.source, e.translation, _kept_words(g))
    if run is not None:
        yield "T170", W, f"'{run}' is the English left untranslated"


def _only_names(text: str, g: Glossary) -> bool:
    if text in g.proper_names:
        return True
    rest = text
    for name in sorted(g.proper_names, key=len, reverse=True):
        rest = rest.replace(name, " ")
    return not re.search(r"[A-Za-z]{3}", rest)


@check(Scope.ENTRY, Code("T301", E, "icon tokens (`[skull]` ...) differ"))
def check_tokens(e: Entry, g: Glossary) -> Iterable[tuple[str, Severity, str]]:
    if sorted(tokens(e.source)) != sorted(tokens(e.translation)):
        yield "T301", E, f"icon tokens {sorted(tokens(e.source))} in the source, {sorted(tokens(e.translation))} in the translation"


@check(Scope.ENTRY, Code("T302", E, "`{placeholders}` differ"))
def check_placeholders(e: Entry, g: Glossary) -> Iterable[tuple[str, Severity, str]]:
    if e.form is None and sorted(placeholders(e.source)) != sorted(placeholders(e.translation)):
        yield "T302", E, f"placeholders {sorted(placeholders(e.source))} in the source, {sorted(placeholders(e.translation))} in the translation"


@check(Scope.ENTRY, Code("T303", E, "`<b>`/`<i>` tags differ or unbalanced"))
def check_tags(e: Entry, g: Glossary) -> Iterable[tuple[str, Severity, str]]:
    from cardkit.text import markup_problems

    problems = markup_problems(e.translation, icons=e.icons)
    if sorted(tags(e.source)) != sorted(tags(e.translation)) or problems:
        detail = "; ".join(problems) or f"{tags(e.source)} in the source, {tags(e.translation)} in the translation"
        yield "T303", E, f"markup tags differ: {detail}"


@check(Scope.ENTRY,
       Code("T304", E, "markup the layout does not interpret, which would print as it is: `[[Trait]]`, `[Bold]`, `<cite>`, `<u>`, `&amp;`, a `\\n` typed as two characters (the English is checked by `validate`, C013; [authoring.md](authoring.md#icons))"))
def check_raw_markup(e: Entry, g: Glossary) -> Iterable[tuple[str, Severity, str]]:
    """T304: markup the layout does not interpret (it would print as it is)."""
    for problem in raw_markup_problems(e.translation, icons=e.icons):
        yield "T304", E, problem


def catalog_markup_issues(root: Path, domain: str, locales: list[str], icons: frozenset[str] = frozenset()) -> list[Issue]:
    """T304 for ``validate``: markup in the translations of one domain's
    catalogs that the layout would print as it is, at the entry's line (a
    catalog that cannot be read is reported by the catalog checks)."""
    from cardkit.i18n.catalogs import po_path, read_catalog, rel

    out: list[Issue] = []
    for loc in locales:
        path = po_path(root, loc, domain)
        if not path.is_file():
            continue
        try:
            cat = read_catalog(path, rel(root, path), loc, root).catalog
        except CardkitError:
            continue
        for m in cat:
            if not m.id:
                continue
            forms = [m.string] if isinstance(m.string, str) else list(m.string or ())
            for i, text in enumerate(forms):
                form = f"msgstr[{i}]: " if not isinstance(m.string, str) else ""
                out.extend(Issue("T304", f"{m.context} ({loc}): {form}{problem}", file=rel(root, path),
                                 line=m.lineno or 0, column=1)
                           for problem in raw_markup_problems(text or "", icons=icons))
    return out


@dataclass(frozen=True)
class Number:
    """A number as written in a string: its exact value, the text it was read
    from and its unit when the unit changes how it compares (inches, cm)."""

    value: Fraction
    text: str
    unit: str = ""  # "inch", "cm" or ""


# English words that carry a number (the translation may write them as digits, and they may
# take a glossary number word of the translation)
EN_NUMBER_WORDS = {"one": 1, "once": 1, "single": 1, "first": 1, "two": 2, "twice": 2, "second": 2, "both": 2,
                   "three": 3, "third": 3, "four": 4, "fourth": 4, "five": 5, "fifth": 5, "six": 6, "sixth": 6,
                   "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}
# English words Korean renders as one + counter (a dragon: 드래곤 1마리, a knight: 기사 한 명)
EN_ONE_ARTICLES = ("a", "an", "each", "another")
_NUMBER_RX: dict[tuple[str, UnitWords], re.Pattern[str]] = {}
MAX_DIGITS = 60


def _number_rx(locale: str, units: UnitWords) -> re.Pattern[str]:
    rx = _NUMBER_RX.get((locale, units))
    if rx is None:
        style = number_style(locale)
        groups = "|".join(re.escape(g) for g in style.groups)
        inch = "|".join(re.escape(w) for w in units.inch)
        cm = "|".join(re.escape(w) for w in units.cm)
        if len(_NUMBER_RX) > 64:
            _NUMBER_RX.clear()
        rx = _NUMBER_RX[(locale, units)] = re.compile(
            rf"(?<![\d{re.escape(style.decimal)}])(?P<sign>(?<![\w)])[{SIGNS}])?"
            rf"(?P<int>\d{{1,3}}(?:(?:{groups})\d{{3}})+(?!\d)|\d+)(?:{re.escape(style.decimal)}(?P<frac>\d+))?"
            rf"(?:(?P<inch>[\"″”]|\s?(?:{inch})(?![^\W\d_]))|(?P<cm>\s?(?:{cm})(?![^\W\d_])))?")
    return rx


# a minus is typed as any of these (hyphen-minus, the Unicode hyphens and dashes, the minus sign; French
# typography writes -2 with an en dash)
SIGNS = "\\-\u2010-\u2015\u2212\ufe63\uff0d"
# a number with a leading point and no digit before it names something (a calibre: .45 Automatic, .38 Special):
# read as the same value whatever the locale's decimal mark
_NAMED_DECIMAL = re.compile(r"(?<![\w.,])\.(\d{1,6})(?![\d])")


def numbers_in(text: str, locale: str, units: UnitWords | None = None) -> list[Number]:
    """Every number written with digits in ``text`` as the locale writes them:
    CLDR's decimal and grouping symbols (Babel), lengths in the locale's CLDR
    words for inches and centimetres plus ``units`` from its glossary (markup,
    icon tokens and placeholders are skipped).  Digits glued to a Korean
    counter (1마리, 2장) or to a letter (D6) still count.

    >>> [str(n.value) for n in numbers_in("Tapa 1 000 geenivoroa 2,5 kertaa 6 tuuman päästä, D6:n 3-4.", "fi")]
    ['1000', '5/2', '6', '6', '3', '4']
    >>> [(str(n.value), n.unit) for n in numbers_in('Warhammer 40,000: 1.5 and 12" or 30 cm', "en")]
    [('40000', ''), ('3/2', ''), ('12', 'inch'), ('30', 'cm')]
    >>> [str(n.value) for n in numbers_in("진스틸러 1마리와 2장, 3번", "ko")]
    ['1', '2', '3']
    >>> [(str(n.value), n.unit) for n in numbers_in("40 000 poäng, 1,5 gånger, 12 tum", "sv")]
    [('40000', ''), ('3/2', ''), ('12', 'inch')]
    >>> [(str(n.value), n.unit) for n in numbers_in("40.000 Punkte, 1,5-mal, 12 Zoll, 30 Zentimeter", "de")]
    [('40000', ''), ('3/2', ''), ('12', 'inch'), ('30', 'cm')]
    """
    out: list[Number] = []
    plain = _strip_markup(text)
    named = list(_NAMED_DECIMAL.finditer(plain))
    if named:
        out.extend(Number(Fraction(int(m.group(1)), 10 ** len(m.group(1))), m.group(0)) for m in named)
        plain = _NAMED_DECIMAL.sub(lambda m: " " * len(m.group(0)), plain)
    for m in _number_rx(locale, units or unit_words(locale)).finditer(plain):
        digits = re.sub(r"\D", "", m.group("int"))[:MAX_DIGITS]  # int() refuses thousands of digits
        frac = (m.group("frac") or "")[:MAX_DIGITS]
        value = Fraction(int(digits)) + (Fraction(int(frac), 10 ** len(frac)) if frac else 0)
        if m.group("sign"):
            value = -value
        unit = "inch" if m.group("inch") else "cm" if m.group("cm") else ""
        out.append(Number(value, m.group(0).strip(), unit))
    return out


def _word_numbers(text: str, g: Glossary) -> Counter[int]:
    """Values of the glossary's number words (and, in Korean, native numerals
    before a counter) written in a translation, longest match first."""
    korean = g.locale.startswith("ko")
    spans: list[tuple[int, int, int]] = []
    for value, words in g.numbers.items():
        for w in words:
            # a one-syllable Korean prenominal (한, 두) only before a space: 한다 is a verb
            tail = r"(?=\s)" if korean and len(w) == 1 else "" if korean else r"(?![\w])"
            spans.extend((m.start(), m.end(), value) for m in re.finditer(rf"(?<![\w]){re.escape(w)}{tail}", text, re.IGNORECASE))
    if korean:
        spans.extend((s, e, v) for v, s, e in native_numbers(text))
    taken: list[tuple[int, int]] = []
    found: Counter[int] = Counter()
    for s, e, v in sorted(spans, key=lambda x: (x[0], x[0] - x[1])):
        if not any(s < te and ts < e for ts, te in taken):
            taken.append((s, e))
            found[v] += 1
    return found


def _en_words(source: str, locale: str, articles: bool = True) -> Counter[int]:
    """Values of the English number words in a source; for Korean (with
    ``articles``) the article counts as one, since Korean counts the noun (a
    knight: 기사 한 명)."""
    words = [w.lower() for w in re.findall(r"[A-Za-z]+", _strip_markup(source))]
    found = Counter(EN_NUMBER_WORDS[w] for w in words if w in EN_NUMBER_WORDS)
    if articles and locale.startswith("ko"):
        found[1] += sum(w in EN_ONE_ARTICLES for w in words)
    return found


_EN_LENGTH_WORDS = re.compile(rf"(?<![A-Za-z])({'|'.join(EN_NUMBER_WORDS)})[- ](?:inch|inches)(?![A-Za-z])", re.IGNORECASE)
CM_PER_INCH = Fraction(254, 100)


def _en_lengths(source: str) -> list[Number]:
    """Lengths the English writes in words: "twelve-inch", "six inches"."""
    return [Number(Fraction(EN_NUMBER_WORDS[m.group(1).lower()]), m.group(0), "inch")
            for m in _EN_LENGTH_WORDS.finditer(_strip_markup(source))]


def _same_length(inch: Number, d: Number) -> bool:
    """``d`` is the inch length ``inch`` again: in inches, or in centimetres
    rounded as metric players measure (18" = 46 cm, not 45; 12" = 30 cm or 30,5 cm)."""
    if d.unit == "inch":
        return d.value == inch.value
    return d.unit == "cm" and abs(d.value - inch.value * CM_PER_INCH) <= Fraction(1, 2)


def compare_numbers(source: str, translation: str, g: Glossary) -> tuple[list[Number], list[Number]]:
    """Numbers of the source missing from the translation and numbers only in
    the translation, compared as multisets of values (so "1" changed to "5" is
    found even when another 1 stays).  A source number may be written as a
    glossary number word; a translation number may stand for an English number
    word (one, twice; in Korean also the article: a dragon, 드래곤
    1마리); a number word of the translation that stands for an English number
    word cannot also stand for a digit; the glossary's number words stand for
    the digits before the Korean article takes any; an inch length (18", or
    "twelve-inch" in words) may be given in whole centimetres.

    The glossary's number words stand for the source's digits first (Korean
    하나 for "1 horror from a monster"); only when a digit of the translation
    is then left unexplained (a digit changed: "a knight and 1 dragon" as
    한 명 ... 2마리) do the words go to the article first."""
    missing, extra = _compare_numbers(source, translation, g, words_first=True)
    if extra:
        return _compare_numbers(source, translation, g, words_first=False)
    return missing, extra


def _compare_numbers(source: str, translation: str, g: Glossary, words_first: bool) -> tuple[list[Number], list[Number]]:
    src = numbers_in(source, "en")
    dst = numbers_in(translation, g.locale, g.units)
    missing, extra = [], list(dst)
    for n in src:
        hit = next((d for d in extra if d.value == n.value and not (n.unit == "inch" and d.unit == "cm")), None)
        if hit is not None:
            extra.remove(hit)
        else:
            missing.append(n)
    said = _word_numbers(translation, g)  # number words of the translation
    used: Counter[int] = Counter()  # ... that stand for a digit of the source
    if missing:  # a digit written as a number word; words matching English number words (not articles) are theirs
        spare = said - _en_words(source, g.locale, articles=not words_first)
        kept = []
        for n in missing:
            if n.value.denominator == 1 and spare[int(n.value)] > 0:
                spare[int(n.value)] -= 1
                used[int(n.value)] += 1
            else:
                kept.append(n)
        missing = kept
    for n in [*missing, *_en_lengths(source)]:  # 12" given as 30 cm; "twelve-inch" as 30 cm or 12 Zoll
        if n.unit == "inch":
            same = next((d for d in extra if _same_length(n, d)), None)
            if same is not None:
                extra.remove(same)
                if n in missing:
                    missing.remove(n)
    if extra:
        words = _en_words(source, g.locale) - (said - used)
        kept = []
        for d in extra:
            if d.value.denominator == 1 and words[int(d.value)] > 0:
                words[int(d.value)] -= 1
            else:
                kept.append(d)
        extra = kept
    return missing, extra


@check(Scope.ENTRY,
       Code("T401", E, "a number of the source is missing from the translation (see *Numbers* below)"),
       Code("T402", E, "a number is only in the translation"))
def check_numbers(e: Entry, g: Glossary) -> Iterable[tuple[str, Severity, str]]:
    missing, extra = compare_numbers(e.source, e.translation, g)
    dst = numbers_in(e.translation, e.locale, g.units)
    seen = ", ".join(n.text for n in dst) or "none"
    src_all = numbers_in(e.source, "en")
    for text, k in Counter(n.text for n in missing).items():
        value = next(n.value for n in missing if n.text == text)
        a, b = sum(n.value == value for n in src_all), sum(n.value == value for n in dst)
        count = f" (the source has it {a} times, the translation {b})" if b else f" ({k} times)" if k > 1 else ""
        yield "T401", E, f"the number {text} of the source is missing{count}; numbers in the translation: {seen}"
    src = ", ".join(n.text for n in src_all) or "none"
    for text, k in Counter(n.text for n in extra).items():
        yield "T402", E, f"the number {text}{f' ({k} times)' if k > 1 else ''} is only in the translation (numbers in the source: {src})"


_MARKUP = re.compile(rf"\[{ICON_NAME}\]|</?[bi]>|\{{[a-z_]+\}}")


def _strip_markup(text: str) -> str:
    return _MARKUP.sub(" ", text)


_RX: dict[tuple[str, ...], re.Pattern[str]] = {}


def _rx(kind: str, words: tuple[str, ...], whole: bool) -> re.Pattern[str] | None:
    """One compiled alternation per word list (cached: the checks run per entry)."""
    if not words:
        return None
    key = (kind, str(whole), *words)
    rx = _RX.get(key)
    if rx is None:
        alt = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
        tail = r"(?![\w])" if whole else ""
        rx = _RX[key] = re.compile(rf"(?<![\w])(?:{alt}){tail}", re.IGNORECASE)
    return rx


def _source_has(term: Term, source: str) -> bool:
    rx = _rx("en", term.en, True)
    return rx is not None and rx.search(_strip_markup(source)) is not None


def _has_term(term: Term, text: str, korean: bool) -> bool:
    forms = _rx("forms", term.forms, not korean)
    if forms is not None and forms.search(text):
        return True
    stems = _rx("stems", term.stems, False)
    return stems is not None and stems.search(text) is not None


@functools.lru_cache(maxsize=16)
def _name_patterns(names: frozenset[str]) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """The proper names with a Latin letter, longest first, each with its whole-word pattern."""
    return tuple((name, re.compile(rf"(?<![\w]){re.escape(name)}(?![\w])"))
                 for name in sorted(names, key=len, reverse=True) if re.search(r"[A-Za-z]", name))


def terms_in_source(terms: Iterable[Term], source: str, names: Iterable[str] = ()) -> set[str]:
    """IDs of the terms whose English occurs in ``source``, not counting an
    occurrence inside a longer term (``Fast Attack`` is not ``Attack``) or
    inside a proper name."""
    src = _strip_markup(source)
    for name, name_rx in _name_patterns(names if isinstance(names, frozenset) else frozenset(names)):
        if name in src:
            src = name_rx.sub(lambda m: " " * len(m.group(0)), src)
    spans: list[tuple[int, int, str]] = []
    for t in terms:
        rx = _rx("en", t.en, True)
        if rx is not None:
            spans.extend((m.start(), m.end(), t.id) for m in rx.finditer(src))
    return {tid for s0, e0, tid in spans
            if not any(s1 <= s0 and e0 <= e1 and (e1 - s1) > (e0 - s0) for s1, e1, _ in spans)}


@check(Scope.ENTRY,
       Code("T501", E, "a glossary term not translated with an allowed form"),
       Code("T502", E, "a forbidden variant"))
def check_terms(e: Entry, g: Glossary) -> Iterable[tuple[str, Severity, str]]:
    text = e.translation.replace("\u00ad", "")
    korean = e.locale.startswith("ko")
    terms = [t for t in g.terms if t.applies(e.domain)]
    present = terms_in_source(terms, e.source, g.proper_names)
    for term in terms:
        if term.id in present and not _has_term(term, text, korean):
            yield "T501", E, f"'{term.en[0]}' should be translated as '{term.term}' (an allowed form of it)"
        bad = _rx("forbidden", term.forbidden, not korean)
        m = bad.search(_strip_markup(text)) if bad is not None else None  # {name} is a placeholder, not a word
        if m:
            yield "T502", E, f"'{m.group(0)}' is a forbidden variant; use '{term.term}'"


@check(Scope.ENTRY,
       Code("T601", W, "Korean: more than 12 Hangul syllables without a space (spacing lost, as in the Korean seed), or a short string (an interface label: 7 syllables or more, three English words or more) averaging 6 syllables or more per word; the shipped catalogs average at most 4.5"))
def check_hangul_runs(e: Entry, g: Glossary) -> Iterable[tuple[str, Severity, str]]:
    if not e.locale.startswith("ko"):
        return
    long = [run for run in HANGUL.findall(e.translation) if len(run) > MAX_HANGUL_RUN]
    for run in long:
        yield "T601", W, f"'{run}' runs {len(run)} syllables without a space (word spacing lost?)"
    if long:
        return
    # a short string (an interface label) whose spaces were all removed has no run that long: count syllables per word
    words = [w for w in _strip_markup(e.translation).split() if HANGUL.search(w)]
    syllables = sum(len(run) for run in HANGUL.findall(e.translation))
    english = len(_LATIN_WORD.findall(_strip_markup(e.source)))
    if words and syllables >= MIN_SPACED_SYLLABLES and english >= 3 and syllables / len(words) >= MAX_WORD_SYLLABLES:
        yield "T601", W, (f"{syllables} syllables in {len(words)} word(s) for {english} English words "
                          "(word spacing lost?)")


# digits right after a Latin letter (D6) are read in English, so they are skipped
_PARTICLE_AFTER = re.compile(rf"(\[{ICON_NAME}\]|(?<![A-Za-z\d])\d+|\{{[a-z_]+\}})(으로|이다|을|를|이|가|은|는|과|와|로)(?![\uac00-\ud7a3])")


@check(Scope.ENTRY,
       Code("T701", E, "Korean: a particle after a term, an icon token or a number does not agree with the final consonant (을/를, 이/가, 은/는, 과/와, 으로/로); numbers are read in Sino-Korean (6 = 육 -> 6을), digits after a Latin letter (D6) are skipped"))
def check_particles(e: Entry, g: Glossary) -> Iterable[tuple[str, Severity, str]]:
    if not e.locale.startswith("ko"):
        return
    text = e.translation
    for m in _PARTICLE_AFTER.finditer(text):
        word, part = m.group(1), m.group(2)
        if word.startswith("{"):
            continue  # filled at run time by cardkit.strings.korean.fill_ko, which fixes the particle
        if final_consonant(word) is not None and particle(word, part) != part:
            yield "T701", E, f"'{word}{part}' should be '{word}{particle(word, part)}'"
    # glossary terms followed by a particle
    rx = _term_particle_rx(g)
    if rx is not None:
        for m in rx.finditer(text):
            base, part = m.group(1), m.group(2)
            if final_consonant(base) is not None and particle(base, part) != part:
                yield "T701", E, f"'{base}{part}' should be '{base}{particle(base, part)}'"


# glossary terms -> their particle pattern: worked out once per glossary, not per entry
_TERM_PARTICLES: dict[int, tuple[tuple[Term, ...], re.Pattern[str] | None]] = {}


def _term_particle_rx(g: Glossary) -> re.Pattern[str] | None:
    hit = _TERM_PARTICLES.get(id(g.terms))
    if hit is not None and hit[0] is g.terms:
        return hit[1]
    if len(_TERM_PARTICLES) >= 16:
        _TERM_PARTICLES.clear()
    rx = _term_particle_rx_of(g)
    _TERM_PARTICLES[id(g.terms)] = (g.terms, rx)
    return rx


def _term_particle_rx_of(g: Glossary) -> re.Pattern[str] | None:
    bases = {t.term for t in g.terms if HANGUL.search(t.term)}
    for t in g.terms:
        bases.update(f for f in t.forms if HANGUL.fullmatch(f.replace(" ", "")) and not f.endswith(tuple(PAIRS)))
    if not bases:
        return None
    key = ("particles", *sorted(bases))
    rx = _RX.get(key)
    if rx is None:
        alt = "|".join(re.escape(b) for b in sorted(bases, key=len, reverse=True))
        rx = _RX[key] = re.compile(rf"({alt})(으로|이다|을|를|이|가|은|는|과|와|로)(?![\uac00-\ud7a3])")
    return rx


@check(Scope.ENTRY,
       Code("T801", E, "leading, trailing or double spaces, and any run of spaces of any kind: a no-break space beside a space (`2\\u00a0 Karten`), a narrow no-break space, a tab"))
def check_spaces(e: Entry, g: Glossary) -> Iterable[tuple[str, Severity, str]]:
    t = e.translation
    if t != t.strip():
        yield "T801", E, "leading or trailing space"
    for run in dict.fromkeys(_SPACE_RUN.findall(t)):
        named = " + ".join(SPACE_NAMES.get(c, f"U+{ord(c):04X}") for c in run)
        yield "T801", E, "double space" if run == "  " else f"a run of spaces ({named})"


# two or more spaces of any kind in a row (a no-break space beside a space prints as a wide gap); line breaks aside
_SPACE_RUN = re.compile(r"[^\S\n]{2,}")
SPACE_NAMES = {" ": "space", "\u00a0": "no-break space", "\u202f": "narrow no-break space", "\t": "tab",
               "\u2009": "thin space", "\u2007": "figure space", "\u3000": "ideographic space"}


@check(Scope.ENTRY, Code("T802", W, "quotation marks wrong for the language (Finnish ” ”); inch marks (12\") are not quotes"))
def check_quotes(e: Entry, g: Glossary) -> Iterable[tuple[str, Severity, str]]:
    allowed = allowed_quotes(e.locale)
    marks = quote_marks(e.locale)
    if not allowed or marks is None:
        return  # CLDR gives this language no quotation marks to compare with
    t_no_inches = re.sub(r'(\d)["″”]', r"\1", e.translation)  # 12" is an inch mark, not a quote
    source_straight = '"' in re.sub(r'(\d)"', r"\1", e.source)
    bad = sorted({c for c in t_no_inches if c in ALL_QUOTES and c not in allowed and not (c == '"' and source_straight)})
    if bad:
        alt = f" (inside a quotation {marks[2]}…{marks[3]})" if marks[2] != marks[0] or marks[3] != marks[1] else ""
        also = "".join(c for c in allowed if c not in marks)
        yield "T802", W, (f"quotation marks {' '.join(bad)}: {e.locale} quotes as {marks[0]}…{marks[1]}{alt}"
                          f"{f', or with {also}' if also else ''} (CLDR)")


@check(Scope.ENTRY, Code("T803", W, "end punctuation differs from the source"))
def check_end_punctuation(e: Entry, g: Glossary) -> Iterable[tuple[str, Severity, str]]:
    def end(s: str) -> str:
        # (a string that ends with a placeholder or an icon has no end punctuation of its own:
        # "{metric}: {kind}; {aggregate}" ends with the aggregate, not with ';')
        s = re.sub(rf"(\{{[a-z_]+\}}|\[{ICON_NAME}\])$", "x", s.rstrip())
        s = _strip_markup(s).rstrip()
        return s[-1] if s and s[-1] in ".!?:;" else ""

    if end(e.source) != end(e.translation):
        yield "T803", W, f"ends with {end(e.translation)!r}, the source with {end(e.source)!r}"


# ---------------------------------------------------------------- plurals
# A placeholder is counted when the English puts a noun in the plural right
# after it: "{players} players", "{games} games per player count", "{points} pts",
# "{count} support token(s)".  The noun is recognised by a "(s)" ending; or by an
# "s" ending when it abbreviates the placeholder's name or extends it ("pts" for
# {points}, "players" for {player}), so "{unit} holds" and "{hero} moves" are
# not counts; or, after a placeholder named for a number (count, n, number,
# total), by an "s" ending on one of the next two words.
_COUNT_NAMES = frozenset({"count", "n", "number", "total"})
_AFTER_PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)\}\s+([A-Za-z][A-Za-z-]*)(?:\s+([A-Za-z][A-Za-z-]*))?")


def _abbreviates(short: str, name: str) -> bool:
    it = iter(name)
    return all(ch in it for ch in short)  # ``short`` is a subsequence of ``name``


def counted_placeholders(text: str) -> list[str]:
    """Names of the placeholders that ``text`` uses as a count.

    >>> counted_placeholders("{players} players"), counted_placeholders("{count} support token(s).")
    (['players'], ['count'])
    >>> counted_placeholders("{points} pts"), counted_placeholders("{total} strings translated")
    (['points'], ['total'])
    >>> counted_placeholders("{unit} holds the box"), counted_placeholders("{hero} moves to {row}.")
    ([], [])
    """
    out = []
    for m in _AFTER_PLACEHOLDER.finditer(text):
        name, first = m.group(1), m.group(2).lower()
        words = [w.lower() for w in m.groups()[1:] if w]
        plural_s = lambda w: w.endswith("s") and len(w) > 2  # noqa: E731
        if (text[m.end():].startswith("(s)")
                or plural_s(first) and (_abbreviates(first, name) or first.startswith(name.rstrip("s")))
                or name in _COUNT_NAMES and any(plural_s(w) for w in words)):
            out.append(name)
    return out


@check(Scope.ENTRY, Code("T152", E, "the placeholders of a plural form differ from its English form"))
def check_plural_placeholders(e: Entry, g: Glossary) -> Iterable[tuple[str, Severity, str]]:
    if e.form is not None and sorted(placeholders(e.source)) != sorted(placeholders(e.translation)):
        yield "T152", E, (f"placeholders {sorted(placeholders(e.source))} in the English form, "
                          f"{sorted(placeholders(e.translation))} in this form")


@check(Scope.ENTRY, Code("T153", W, "a counted placeholder in a message that is not plural (see below)"))
def check_counted_not_plural(e: Entry, g: Glossary) -> Iterable[tuple[str, Severity, str]]:
    if e.form is None:
        for name in counted_placeholders(e.source):
            yield "T153", W, (f"{{{name}}} is a count but the message is not plural: declare 'plural' and "
                              f"'count: {name}' for it so each language can choose the form")


@check(Scope.FONTS, Code("T901", E, "a character that no font in the locale's fallback chain has"))
def check_glyphs(e: Entry, book: FontBook) -> Iterable[tuple[str, Severity, str]]:
    missing: set[str] = set()
    for role in ("body", "bold", "title"):
        missing.update(book.missing(_strip_markup(e.translation), book.chain(e.locale, role)))
    if missing:
        shown = ", ".join(f"U+{ord(c):04X} {c!r}" for c in sorted(missing))
        yield "T901", E, f"no font of the {e.locale} chain has {shown}"


def _same(text: str) -> str:
    """What two strings must share to count as the same: case, spacing, soft
    hyphens and end punctuation aside (a heading and a name differ in case only)."""
    return re.sub(r"[\s.:;!?]+$", "", re.sub(r"\s+", " ", text.replace("\u00ad", ""))).strip().casefold()


@check(Scope.LOCALE,
       Code("T503", W, "the same English source translated differently in one locale, across all its catalogs (see *Consistency*)"))
def check_consistency(entries: Iterable[Entry], g: Glossary) -> list[Finding]:
    """T503: the same English source translated differently within a locale,
    across every catalog given (set catalogs and ``ui``).  Differences declared
    under ``variants`` in the glossary are not reported.  When no declared
    translation is used, the most common translation is the reference and the
    others are reported; on a tie every entry is reported."""
    groups: dict[str, dict[str, list[Entry]]] = {}
    for e in entries:
        if e.translation and not e.fuzzy:
            groups.setdefault(_same(e.source), {}).setdefault(_same(e.translation), []).append(e)
    declared = {_same(v.en): {_same(t) for t in v.translations} for v in g.variants}
    out = []
    for src, by_text in groups.items():
        if len(by_text) < 2:
            continue
        ok = declared.get(src, set()) & set(by_text)
        if not ok:
            ranked = sorted(by_text.items(), key=lambda kv: -len(kv[1]))
            if len(ranked[0][1]) > len(ranked[1][1]):
                ok = {ranked[0][0]}
        for text, items in by_text.items():
            if text in ok:
                continue
            others = [x for t, xs in by_text.items() if t != text for x in xs]
            ref = next((x for x in others if _same(x.translation) in ok), others[0])
            more = len(others) - 1
            for e in items:
                out.append(Finding("T503", W, e.locale, e.domain, e.msgctxt, e.file, e.line,
                                   f"'{e.source}' is translated '{e.translation}' here but '{ref.translation}' in {ref.msgctxt} "
                                   f"({ref.file}:{ref.line}){f' and {more} more' if more else ''}; if deliberate, declare it "
                                   f"under 'variants' in locales/{e.locale}/glossary.yaml"))
    return out


def run_entry_checks(entries: list[Entry], glossary: Glossary, book: FontBook) -> list[Finding]:
    """The registered checks of each translated entry (:data:`Scope.ENTRY <cardkit.i18n.registry.Scope>` with
    the glossary, ``FONTS`` with the font book); a plural form's findings name it (``msgstr[1]: ...``)."""
    given = {Scope.ENTRY: glossary, Scope.FONTS: book}
    runs = [(c.run, given[c.scope]) for c in of_scope(Scope.ENTRY) + of_scope(Scope.FONTS) if c.run is not None]
    out = []
    for e in entries:
        if not e.translation:
            continue
        for run, given_too in runs:
            for code, sev, msg in run(e, given_too):
                if e.form is not None:
                    msg = f"msgstr[{e.form}]: {msg}"
                out.append(Finding(code, sev, e.locale, e.domain, e.msgctxt, e.file, e.line, msg))
    return out


def run_locale_checks(entries: list[Entry], glossary: Glossary) -> list[Finding]:
    """The registered checks over the catalogs of one locale: ``CATALOG`` ones on each catalog's
    entries (a set's, or ``ui``), ``LOCALE`` ones on them all."""
    out: list[Finding] = []
    by_domain: dict[str, list[Entry]] = {}
    for e in entries:
        by_domain.setdefault(e.domain, []).append(e)
    for c in of_scope(Scope.CATALOG):
        assert c.run is not None
        for domain_entries in by_domain.values():
            out.extend(c.run(domain_entries, glossary))
    for c in of_scope(Scope.LOCALE):
        assert c.run is not None
        out.extend(c.run(entries, glossary))
    return out
