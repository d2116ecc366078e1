"""Meaning checks beyond the anchors (numbers, tokens, terms): a swapped card
name, a lost or added negation, a translation pasted from another entry, a
dropped sentence or list item.

Each registers with :func:`cardkit.i18n.registry.check` with its codes
(T154, T155, T160-T163, T172, T190); ``docs/translation.md``, "Meaning checks".
"""

from __future__ import annotations

import functools
import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from cardkit.errors import Severity
from cardkit.i18n.registry import Code, Scope, check
from cardkit.text import PLACEHOLDER_RE, TOKEN_RE
from cardkit.i18n.checks import (
    EN_ONE_ARTICLES,
    Entry,
    Finding,
    Glossary,
    _en_words,
    _same,
    _strip_markup,
    _word_numbers,
    compare_numbers,
    missing_language_data,
    numbers_in,
    terms_in_source,
)

E, W = Severity.ERROR, Severity.WARNING
# English words that negate a clause (the source language's own list)
EN_NEGATION = ("not", "no", "never", "cannot", "can't", "don't", "doesn't", "isn't", "aren't", "won't", "nothing",
               "none", "neither", "nor", "without", "unless", "non")
# English words that carry a negative meaning without a negation word: where one stands, a negative verb in
# the translation is no extra negation (the attack misses: hyökkäys ei osu; undamaged: 손상되지 않은)
EN_NEGATIVE_MEANING = ("nobody", "miss", "misses", "missed", "undamaged", "untested", "unable", "unharmed",
                       "unaffected", "unused", "off", "otherwise", "instead", "too", "impassable", "impossible",
                       "at most", "up to", "only", "dead", "except", "fail*", "lack*", "ignore*", "prevent*",
                       "cancel*", "*less", "stop*", "refuse*", "forbid*", "lose*", "lost", "empty", "free",
                       # participles with un- of game text (a need still uncovered: kattamatta, 채워지지 않은)
                       "uncovered", "unrevealed", "unexplored", "unclaimed", "unoccupied", "unspent", "unexhausted",
                       "unblocked", "unopposed", "unmet", "unanswered", "unopened", "unfinished", "unpaid")
MIN_REUSED_WORDS = 4  # short labels (Move, Attack) may share a translation for different English


# ---------------------------------------------------------------- names

@dataclass(frozen=True)
class CardName:
    card: str
    english: str  # the card's English name
    anchor_en: str  # its distinctive word in English (Lorenzo)
    translated: str  # the card's translated name
    anchor: str  # its distinctive word in the translation (Lorenzo, 로렌조)


def _words(text: str) -> list[str]:
    return re.findall(r"[^\W\d_]+(?:['’-][^\W\d_]+)*", text)


def card_names(entries: Iterable[Entry], g: Glossary) -> list[CardName]:
    """The cards whose names can be followed into other strings: each card
    name (``<card>.name``) with a word that names no other card, in English a
    proper name of the glossary, in the translation the word of the
    translated name that no other card's name has."""
    names = {e.msgctxt[:-5]: e for e in entries if e.msgctxt.endswith(".name") and e.form is None
             and not e.msgctxt.startswith("set.")}
    en_count = Counter(w for e in names.values() for w in set(_words(e.source)))
    tr_count = Counter(w.casefold() for e in names.values() for w in set(_words(e.translation)))
    proper = {name for name in g.proper_names if len(_words(name)) == 1}  # a one-word name, not a word of a longer title
    out = []
    for card, e in sorted(names.items()):
        en = [w for w in _words(e.source) if en_count[w] == 1 and w in proper and len(w) >= 3]
        # a name that recurs across cards (the same hero on two faces): same English, same name
        tr = [w for w in _words(e.translation) if tr_count[w.casefold()] == 1 and len(w) >= 2]
        if len(en) == 1 and len(tr) >= 1:
            anchor = en[0] if en[0] in tr else max(tr, key=len)
            out.append(CardName(card, e.source, en[0], e.translation, anchor))
    return out


@functools.lru_cache(maxsize=1024)
def _name_rx(word: str, endings: tuple[str, ...], forms: tuple[str, ...]) -> re.Pattern[str]:
    alts = "|".join(re.escape(f) for f in sorted({word, *forms}, key=len, reverse=True))
    tail = "|".join(re.escape(x) for x in sorted(set(endings), key=len, reverse=True))
    return re.compile(rf"(?<![\w])(?:{alts})(?:{tail})?(?![\w])" if tail else rf"(?<![\w])(?:{alts})(?![\w])",
                      re.IGNORECASE)


def _declared_forms(word: str, g: Glossary) -> tuple[str, ...]:
    """The written forms a glossary term gives the name ``word`` (irregular
    inflections: Laumanherra, Laumanherroja)."""
    hit = _FORMS.get(id(g.terms))
    if hit is None or hit[0] is not g.terms:
        by_form: dict[str, set[str]] = defaultdict(set)
        for t in g.terms:
            forms = {f for f in (t.term, *t.forms) if " " not in f}
            for f in forms:
                by_form[f.casefold()] |= forms
        if len(_FORMS) >= 16:
            _FORMS.clear()
        hit = _FORMS[id(g.terms)] = (g.terms, {k: tuple(sorted(v)) for k, v in by_form.items()})
    return hit[1].get(word.casefold(), ())


_FORMS: dict[int, tuple[tuple[object, ...], dict[str, tuple[str, ...]]]] = {}


def _has_word(text: str, word: str, korean: bool, g: Glossary | None = None) -> bool:
    """``word`` in ``text`` as a whole word, or inflected as the glossary
    declares (``name_endings``: Finnish Deinon, Deinolle; the forms of a
    term that is the name), never by a bare prefix (German *deiner* is not
    Deino).  Korean particles are written on the name (로렌조가): Hangul
    names match inside a word."""
    if korean:
        return word in text
    endings = g.name_endings if g is not None else ()
    forms = _declared_forms(word, g) if g is not None else ()
    return _name_rx(word, endings, forms).search(text) is not None


@check(Scope.CATALOG,
       Code("T160", E, "a card the English names is not named in the translation, or another card is (see *Meaning checks*)"))
def check_names(entries: list[Entry], g: Glossary) -> list[Finding]:
    """T160 for every entry whose English names a card that the translation
    does not name, or whose translation names a card the English does not."""
    names = card_names(entries, g)
    if not names:
        return []
    korean = g.locale.startswith("ko")
    out = []
    for e in entries:
        if not e.translation or e.msgctxt.endswith(".name"):
            continue
        src = _strip_markup(e.source)
        said = [n for n in names if re.search(rf"(?<![\w]){re.escape(n.anchor_en)}(?![\w])", src)]
        said_anchors = {n.anchor for n in said}
        for n in said:
            if not _has_word(e.translation, n.anchor, korean, g):
                instead = [m for m in names if m.anchor not in said_anchors and _has_word(e.translation, m.anchor, korean, g)]
                other = f"; it names {instead[0].anchor} ('{instead[0].translated}') instead" if instead else ""
                out.append(Finding("T160", E, e.locale, e.domain, e.msgctxt, e.file, e.line,
                                   f"the English names {n.english}, but the translation has no '{n.anchor}' (the "
                                   f"card's name: '{n.translated}'){other}"))
        if not said:
            for m in names:
                if m.anchor not in said_anchors and _has_word(e.translation, m.anchor, korean, g) \
                        and m.anchor_en not in src and len(m.anchor) >= 3:
                    out.append(Finding("T160", E, e.locale, e.domain, e.msgctxt, e.file, e.line,
                                       f"the translation names '{m.anchor}' ({m.english}), the English does not"))
    return out


# ---------------------------------------------------------------- negation

def _negation_rx(words: Iterable[str], korean: bool) -> re.Pattern[str] | None:
    alts = []
    for w in sorted(set(words), key=len, reverse=True):
        if korean:
            alts.append(re.escape(w.strip("*")))
        elif w.startswith("*") and w.endswith("*"):
            alts.append(rf"\w*{re.escape(w[1:-1])}\w*")
        elif w.startswith("*"):
            alts.append(rf"\w*{re.escape(w[1:])}(?![\w])")
        elif w.endswith("*"):
            alts.append(rf"(?<![\w]){re.escape(w[:-1])}\w*")
        else:
            alts.append(rf"(?<![\w]){re.escape(w)}(?![\w])")
    return re.compile("|".join(alts), re.IGNORECASE) if alts else None


_EN_NEG = _negation_rx(EN_NEGATION, False)
_EN_NEGATIVE_MEANING = _negation_rx(EN_NEGATION + EN_NEGATIVE_MEANING, False)
_NEG_CACHE: dict[tuple[str, ...], tuple[re.Pattern[str] | None, re.Pattern[str] | None]] = {}


def negation_words(text: str, words: tuple[str, ...], korean: bool) -> list[str]:
    """The negation words of ``text`` (markup aside).  ``words`` is the
    glossary's ``negation`` list; an entry starting with ``!`` is a word that
    contains a negation but does not negate (Finnish *ehdoton* "strict",
    Korean 상관없이 "no matter", 동안 "during"): a match inside it is no
    negation.

    >>> negation_words("Hyökkäys ei osu, ehdoton käsky.", ("ei", "*ton", "!ehdot*"), False)
    ['ei']
    """
    key = (str(korean), *words)
    if key not in _NEG_CACHE:
        _NEG_CACHE[key] = (_negation_rx([w for w in words if not w.startswith("!")], korean),
                           _negation_rx([w[1:] for w in words if w.startswith("!") and len(w) > 1], korean))
    rx, idioms = _NEG_CACHE[key]
    if rx is None:
        return []
    plain = _strip_markup(text)
    spans = [m.span() for m in idioms.finditer(plain)] if idioms is not None else []
    return [m.group(0) for m in rx.finditer(plain)
            if not any(m.start() < b and a < m.end() for a, b in spans)]


def negates(text: str, words: tuple[str, ...], korean: bool) -> bool:
    return bool(negation_words(text, words, korean))


@check(Scope.ENTRY, Code("T161", E, "the English negates and the translation does not"))
def check_negation(e: Entry, g: Glossary) -> Iterable[tuple[str, Severity, str]]:
    """T161: a negation in the English and none in the translation, or one in
    the translation where the English negates neither in words nor in meaning.
    Only for a locale whose glossary lists its negation words."""
    if not g.negation or not e.translation:
        return
    plain = _strip_markup(e.source)
    src = _EN_NEG.search(plain) if _EN_NEG is not None else None
    dst = negation_words(e.translation, g.negation, g.locale.startswith("ko"))
    if src is not None and not dst:
        yield "T161", E, (f"the English negates ('{src.group(0)}') but the translation has none of the negation "
                          f"words of locales/{g.locale}/glossary.yaml")
    elif src is None and dst and _EN_NEGATIVE_MEANING is not None and _EN_NEGATIVE_MEANING.search(plain) is None:
        yield "T161", E, (f"the translation negates ('{dst[0].strip()}') but the English does not: a negation "
                          "added, or the meaning reversed?")


# ---------------------------------------------------------------- reused translations

def _fit_score(e: Entry, g: Glossary) -> int:
    """How badly a translation matches its own English: numbers missing or
    extra, and glossary terms of the English absent."""
    missing, extra = compare_numbers(e.source, e.translation, g)
    text = e.translation.casefold()
    terms = [t for t in g.terms if t.applies(e.domain)]
    present = terms_in_source(terms, e.source, g.proper_names)
    absent = sum(1 for t in terms if t.id in present
                 and not any(f.casefold() in text for f in (*t.forms, *t.stems)))
    return len(missing) + len(extra) + absent


@check(Scope.LOCALE, Code("T162", E, "the translation of another entry whose English differs (pasted)"))
def check_reused(entries: list[Entry], g: Glossary) -> list[Finding]:
    """T162: entries whose translations are the same (case, spacing, soft
    hyphens and end punctuation aside) while their English differs.  The entry
    whose translation matches its own English best (numbers, terms) keeps it;
    the others are reported with its file:line.  Short labels are left out."""
    groups: dict[str, list[Entry]] = defaultdict(list)
    for e in entries:
        if e.translation and not e.fuzzy and e.form is None and len(_words(e.translation)) >= MIN_REUSED_WORDS:
            groups[_same(e.translation)].append(e)
    out = []
    for items in groups.values():
        sources = {_same(e.source) for e in items}
        if len(sources) < 2:
            continue
        scored = sorted(items, key=lambda e: (_fit_score(e, g), e.domain, e.line))
        best = _fit_score(scored[0], g)
        if all(_fit_score(e, g) == best for e in items):
            continue  # nothing tells which one is pasted: the English is different words for one meaning
        owner = scored[0]
        for e in items:
            if _same(e.source) != _same(owner.source) and _fit_score(e, g) > best:
                out.append(Finding("T162", E, e.locale, e.domain, e.msgctxt, e.file, e.line,
                                   f"the translation is that of {owner.msgctxt} ({owner.file}:{owner.line}), whose "
                                   f"English differs: '{owner.source[:60]}'"))
    return out


# ---------------------------------------------------------------- clauses

# every way of writing an ellipsis (ASCII dots, the ellipsis character, the middle dots of Korean and
# Chinese typography): none ends a sentence inside a string, and each closes the last one alike
_ELLIPSIS = re.compile(r"\.{3,}|\u2026+|[\u2027\u30fb\u00b7]{3,}|\u22ef+|\u3002{3,}")
_CLOSERS = "\"'\u201d\u2019\u00bb\u00ab\u201c\u2018\u203a\u2039\u300d\u300f)\\]"
# an end mark, then closing quotes or brackets (French puts a space before them: « Courez ! »)
_SENTENCE_END = re.compile(rf"[.!?\u3002\uff01\uff1f](?:\s?[{_CLOSERS}])*(?=\s|$)")
# words written with a point that ends no sentence (titles, Latin and German abbreviations); one letter and a
# point (z. B., J. Smith) is one too
ABBREVIATIONS = frozenset({
    "dr", "mr", "mrs", "ms", "mt", "st", "sr", "jr", "prof", "sgt", "capt", "lt", "col", "gen", "vs", "cf", "approx",
    "e.g", "i.e", "ca", "bzw", "usw", "vgl", "ggf", "evtl", "inkl", "bspw", "sog", "z.b", "d.h", "u.a", "mme", "mlle",
    "env", "p.ex", "av", "nr", "hr", "fr"})
_WORD_BEFORE = re.compile(r"([^\W\d_]+(?:\.[^\W\d_]+)*)$")
_ITEM = re.compile(r"(?m)^\s*(?:[\u2022\u00b7*-]|\d+[.)])\s+")


_STANDS_FOR_WORD = re.compile(rf"{PLACEHOLDER_RE.pattern}|{TOKEN_RE.pattern}")


def _ends_sentence(plain: str, m: re.Match[str]) -> bool:
    after = plain[m.end():].lstrip()
    if not after:
        return False  # the last sentence is counted once, ended or not
    if after[0].islower():
        return False  # "e.g. from", "z. B. aus": the sentence goes on
    if m.group(0)[0] == ".":
        before = plain[:m.start()]
        if before[-1:].isdigit():
            return after[0].isalpha()  # "page 3. Then" ends; "1. 2." numbers a list
        word = _WORD_BEFORE.search(before)
        if word is not None and (len(word.group(1)) == 1 or word.group(1).casefold() in ABBREVIATIONS):
            return False
    return True


def sentences(text: str) -> int:
    """Sentences in a string (markup aside; 1.5 is no end, nor Dr., e.g. or
    an ellipsis inside a sentence; a closing quote after ! or ? is part of the
    end), the same whichever way a script writes its ellipsis and quotes.

    >>> sentences("Roll 1.5 dice. Then move!"), sentences("Heitä 1,5 noppaa. Liiku sitten!")
    (2, 2)
    >>> sentences('Dr. Milan shouts "Run!" Wait... then go.'), sentences("Dr. Milan ruft „Lauf!“ Warte … dann geh.")
    (2, 2)
    """
    # a placeholder or an icon starts a sentence as a word does ("Draw a card. {hero} moves.")
    plain = _ELLIPSIS.sub("\u2026", _strip_markup(_STANDS_FOR_WORD.sub("X", text))).strip()
    if not plain:
        return 0
    return 1 + sum(_ends_sentence(plain, m) for m in _SENTENCE_END.finditer(plain))


@check(Scope.ENTRY,
       Code("T163", E, "a sentence or list item dropped or added (ellipses, abbreviations and quotes read alike in every script)"))
def check_clauses(e: Entry, g: Glossary) -> Iterable[tuple[str, Severity, str]]:
    """T163: a sentence or list item dropped or added (two or more sentences
    in the English; a translator may join or split one)."""
    if not e.translation:
        return
    a, b = sentences(e.source), sentences(e.translation)
    ia, ib = len(_ITEM.findall(e.source)), len(_ITEM.findall(e.translation))
    if ia != ib:
        yield "T163", E, f"{ib} list item(s) in the translation, {ia} in the English"
    elif a >= 2 and abs(a - b) >= 1 and (b < a - 1 or b > a + 1 or b == 1):
        yield "T163", E, f"{b} sentence(s) in the translation, {a} in the English (a sentence dropped or added?)"


# ---------------------------------------------------------------- plural forms

def _values(text: str, g: Glossary, english: bool) -> Counter[int]:
    """Whole numbers a string writes: digits, and number words (the English
    ones and its articles, or the glossary's ``numbers``)."""
    found: Counter[int] = Counter(int(n.value) for n in numbers_in(text, "en" if english else g.locale, g.units)
                                  if n.value.denominator == 1 and n.value >= 0)
    if english:
        found += _en_words(text, g.locale, articles=False)
        found[1] += sum(w.lower() in EN_ONE_ARTICLES for w in re.findall(r"[A-Za-z]+", _strip_markup(text)))
    else:
        found += _word_numbers(_strip_markup(text), g)
    return found


def _numbers_of_form(locale: str, index: int, limit: int = 200) -> list[int]:
    from cardkit.strings.localize import plural_index

    return [n for n in range(limit) if plural_index(locale, n) == index]


def _shown(numbers: list[int]) -> str:
    return ", ".join(map(str, numbers[:4])) + (" ..." if len(numbers) > 4 else "") if numbers else "no number below 200"


def _extends(longer: str, shorter: str) -> bool:
    """``longer`` is ``shorter`` with an ending (Karten: Karte; geenivoroa: geenivoro)."""
    return len(longer) > len(shorter) and longer.casefold().startswith(shorter.casefold())


@check(Scope.LOCALE,
       Code("T154", E, "a plural form writes a number its locale's plural rule never selects it for (the singular in a plural form; see *Meaning checks*)"),
       Code("T155", W, "the form for 1 reads like the plural of the form for many (singular and plural swapped)"))
def check_plural_forms(entries: list[Entry], g: Glossary) -> list[Finding]:
    """T154 and T155: each form of a plural message against the numbers the
    locale's plural rule uses it for (Babel's CLDR rules, as the catalog's
    ``Plural-Forms``)."""
    from cardkit.strings.localize import plural_index

    forms: dict[tuple[str, str], dict[int, Entry]] = defaultdict(dict)
    for e in entries:
        if e.form is not None and e.translation:
            forms[(e.domain, e.msgctxt)][e.form] = e
    out = []
    for by_form in forms.values():
        for i, e in sorted(by_form.items()):
            used = _numbers_of_form(e.locale, i)
            extra = _values(e.translation, g, english=False) - _values(e.source, g, english=True)
            wrong = sorted(v for v in extra if plural_index(e.locale, v) != i)
            if wrong:
                v = wrong[0]
                out.append(Finding("T154", E, e.locale, e.domain, e.msgctxt, e.file, e.line,
                                   f"msgstr[{i}] is the form for {_shown(used)}, but it writes {v}, a number that "
                                   f"selects msgstr[{plural_index(e.locale, v)}] (the singular in a plural form?)"))
        if len(by_form) < 2:
            continue
        one = plural_index(next(iter(by_form.values())).locale, 1)
        single = by_form.get(one)
        for i, e in sorted(by_form.items()):
            if i == one or single is None:
                continue
            # (two forms with the same words are no finding: Finnish writes the singular after any number in
            # most cases, 1 pelistä and 5 pelistä; German keeps some nouns, 1 Zimmer and 2 Zimmer)
            a, b = _words(single.translation), _words(e.translation)
            pairs = [(x, y) for x, y in zip(a, b) if x.casefold() != y.casefold()]
            if len(a) == len(b) and pairs and all(_extends(x, y) for x, y in pairs):
                out.append(Finding("T155", Severity.WARNING, e.locale, e.domain, e.msgctxt, e.file, e.line,
                                   f"msgstr[{one}] (the form for 1: '{pairs[0][0]}') reads like the plural of "
                                   f"msgstr[{i}] (the form for {_shown(_numbers_of_form(e.locale, i))}: "
                                   f"'{pairs[0][1]}'): singular and plural swapped?"))
    return out


# ---------------------------------------------------------------- length

MIN_LENGTH = 40  # characters of English (markup aside) below which length says little (labels, names)
MIN_SAMPLE = 20  # strings of a locale needed to take its own median ratio
# Translation length over English length (markup aside, English of MIN_LENGTH characters or more) in the
# bundled catalogs, 2026-12-02 (the three bundled sets): fi median 1.10, lowest 0.78 (0.70
# of the median); ko median 0.54, lowest 0.28 (0.52 of the median: Korean labels are terse).  A translation
# below SHORT_FACTOR of its locale's median is reported: 0.6 for fi, 0.45 for ko (each 85 % of the lowest
# relative ratio there, no false alarm), DEFAULT_SHORT_FACTOR for a language without bundled catalogs.
TYPICAL_RATIO = {"fi": 1.10, "ko": 0.54, "ja": 0.5, "zh": 0.35}
SHORT_FACTOR = {"fi": 0.6, "ko": 0.45}
DEFAULT_SHORT_FACTOR = 0.5


def _length(text: str) -> int:
    return len(re.sub(r"\s+", " ", _strip_markup(text).replace("\u00ad", "")).strip())


@check(Scope.LOCALE,
       Code("T172", W, "a translation much shorter than its English against the locale's usual ratio (see *Meaning checks*)"))
def check_length(entries: list[Entry], g: Glossary) -> list[Finding]:
    """T172: a translation much shorter than its English compared with what
    is usual in the locale (its own median ratio over the strings checked, or
    the typical ratio of its language when there are too few): a clause
    dropped where the sentences still count the same."""
    long = [e for e in entries if e.translation and not e.fuzzy and _length(e.source) >= MIN_LENGTH]
    if not long:
        return []
    lang = g.locale.split("_")[0]
    ratios = sorted(_length(e.translation) / _length(e.source) for e in long)
    median = ratios[len(ratios) // 2] if len(ratios) >= MIN_SAMPLE else TYPICAL_RATIO.get(lang, 1.0)
    floor = median * SHORT_FACTOR.get(lang, DEFAULT_SHORT_FACTOR)
    out = []
    for e in long:
        n, m = _length(e.translation), _length(e.source)
        if n / m < floor:
            out.append(Finding("T172", Severity.WARNING, e.locale, e.domain, e.msgctxt, e.file, e.line,
                               (f"msgstr[{e.form}]: " if e.form is not None else "") +
                               f"{n} characters for {m} of English ({n / m:.0%}; {g.locale} usually runs "
                               f"{median:.0%} of the English): a clause dropped?"))
    return out


@check(Scope.LOCALE,
       Code("T190", W, "checks that did not run, or ran with less, for lack of the locale's language data (see *Language data*)"))
def check_language_data(entries: list[Entry], g: Glossary) -> list[Finding]:
    """T190: the checks that did not run, or ran with less, for lack of the
    locale's language data (one warning on its glossary)."""
    from cardkit.i18n.catalogs import PSEUDO

    lacking = missing_language_data(g)
    if not lacking or g.locale == PSEUDO:  # the pseudo-locale follows English rules
        return []
    path = f"locales/{g.locale}/glossary.yaml"
    return [Finding("T190", Severity.WARNING, g.locale, "glossary", "", path, 0,
                    f"for lack of language data in {path}: " + "; ".join(lacking))]
