"""Translation checks: small functions over catalog entries, each with a stable
code and severity (the Babel ``checkers`` habit).

=====  ========  ==========================================================
code   severity  finding
=====  ========  ==========================================================
T101   error     a card or interface string has no catalog entry
T102   error     empty translation
T103   error     fuzzy entry (source changed since it was translated)
T104   warning   obsolete entry (its card field no longer exists)
T105   error     catalog is stale against the cards (run ``l10n update``)
T201   warning   translation identical to the English (not an allowed name)
T301   error     icon tokens differ (``[skull]`` ...)
T302   error     placeholders differ (``{name}``)
T303   error     emphasis tags differ or are unbalanced
T401   error     a number of the source is missing from the translation
T501   error     a glossary term is not translated with an allowed form
T502   error     a forbidden term variant is used
T601   warning   Korean: a run of Hangul too long to be one word (lost spacing)
T701   error     Korean: particle does not agree with the word before it
T801   error     leading, trailing or double spaces
T802   warning   wrong quotation marks for the language
T803   warning   end punctuation differs from the source
T901   error     a character no font of the locale can print
T950   error     does not fit its card box at the minimum readable size
=====  ========  ==========================================================
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from cardkit.errors import Issue, Severity
from cardkit.i18n.korean import PAIRS, final_consonant, particle
from cardkit.layout.fonts import FontBook
from cardkit.load.schema import validate_doc
from cardkit.load.yamlsafe import YamlError, read_yaml_file
from cardkit.text import placeholders, tags, tokens

HANGUL = re.compile(r"[\uac00-\ud7a3]+")
MAX_HANGUL_RUN = 12
DIGITS = re.compile(r"\d+")


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
class Glossary:
    locale: str
    terms: tuple[Term, ...] = ()
    proper_names: frozenset[str] = frozenset()
    numbers: dict[int, tuple[str, ...]] = field(default_factory=dict, hash=False)


def load_glossary(root: Path, locale: str) -> tuple[Glossary, list[Issue]]:
    path = root / "locales" / locale / "glossary.yaml"
    rel = f"locales/{locale}/glossary.yaml"
    if not path.is_file():
        return Glossary(locale), []
    try:
        doc = read_yaml_file(path, rel)
    except YamlError as exc:
        return Glossary(locale), [exc.issue]
    problems = validate_doc(doc, "glossary.schema.json")
    if problems:
        return Glossary(locale), problems
    d = doc.data
    terms = tuple(Term(t["id"], tuple(t["en"]), t["term"], tuple(t["forms"]), tuple(t.get("stems", ())),
                       tuple(t.get("forbidden", ())), tuple(t.get("sets", ()))) for t in d["terms"])
    numbers = {n["value"]: tuple(n["words"]) for n in d.get("numbers", [])}
    return Glossary(locale, terms, frozenset(d.get("proper_names", [])), numbers), []


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
        return Issue(self.check, f"{self.msgctxt}: {self.message}", file=self.file, line=self.line, column=1,
                     severity=self.severity)


Check = Callable[[Entry, Glossary], Iterable[tuple[str, Severity, str]]]
ENTRY_CHECKS: list[Check] = []


def _check(fn: Check) -> Check:
    ENTRY_CHECKS.append(fn)
    return fn


E, W = Severity.ERROR, Severity.WARNING


@_check
def check_unchanged(e: Entry, g: Glossary) -> Iterable[tuple[str, Severity, str]]:
    t = e.translation.replace("\u00ad", "")
    if t == e.source and not _only_names(t, g) and re.search(r"[A-Za-z]{3}", _strip_markup(t)):
        yield "T201", W, "translation is identical to the English source"


def _only_names(text: str, g: Glossary) -> bool:
    if text in g.proper_names:
        return True
    rest = text
    for name in sorted(g.proper_names, key=len, reverse=True):
        rest = rest.replace(name, " ")
    return not re.search(r"[A-Za-z]{3}", rest)


@_check
def check_tokens(e: Entry, g: Glossary) -> Iterable[tuple[str, Severity, str]]:
    if sorted(tokens(e.source)) != sorted(tokens(e.translation)):
        yield "T301", E, f"icon tokens {sorted(tokens(e.source))} in the source, {sorted(tokens(e.translation))} in the translation"


@_check
def check_placeholders(e: Entry, g: Glossary) -> Iterable[tuple[str, Severity, str]]:
    if sorted(placeholders(e.source)) != sorted(placeholders(e.translation)):
        yield "T302", E, f"placeholders {sorted(placeholders(e.source))} in the source, {sorted(placeholders(e.translation))} in the translation"


@_check
def check_tags(e: Entry, g: Glossary) -> Iterable[tuple[str, Severity, str]]:
    from cardkit.text import markup_problems

    problems = markup_problems(e.translation)
    if sorted(tags(e.source)) != sorted(tags(e.translation)) or problems:
        detail = "; ".join(problems) or f"{tags(e.source)} in the source, {tags(e.translation)} in the translation"
        yield "T303", E, f"markup tags differ: {detail}"


@_check
def check_numbers(e: Entry, g: Glossary) -> Iterable[tuple[str, Severity, str]]:
    src = _strip_markup(e.source)
    dst = _strip_markup(e.translation)
    have = DIGITS.findall(dst)
    for num in DIGITS.findall(src):
        if num in have:
            have.remove(num)
            continue
        words = g.numbers.get(int(num), ())
        if not any(re.search(rf"(?<![\w]){re.escape(w)}", dst, re.IGNORECASE) for w in words):
            yield "T401", E, f"the number {num} of the source is missing"


def _strip_markup(text: str) -> str:
    return re.sub(r"\[[a-z-]+\]|</?[bi]>|\{[a-z_]+\}", " ", text)


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


def terms_in_source(terms: Iterable[Term], source: str, names: Iterable[str] = ()) -> set[str]:
    """IDs of the terms whose English occurs in ``source``, not counting an
    occurrence inside a longer term (``Fast Attack`` is not ``Attack``) or
    inside a proper name."""
    src = _strip_markup(source)
    for name in sorted(names, key=len, reverse=True):
        if re.search(r"[A-Za-z]", name):
            src = re.sub(rf"(?<![\w]){re.escape(name)}(?![\w])", lambda m: " " * len(m.group(0)), src)
    spans = []
    for t in terms:
        rx = _rx("en", t.en, True)
        if rx is not None:
            spans.extend((m.start(), m.end(), t.id) for m in rx.finditer(src))
    return {tid for s0, e0, tid in spans
            if not any(s1 <= s0 and e0 <= e1 and (e1 - s1) > (e0 - s0) for s1, e1, _ in spans)}


@_check
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


@_check
def check_hangul_runs(e: Entry, g: Glossary) -> Iterable[tuple[str, Severity, str]]:
    if not e.locale.startswith("ko"):
        return
    for run in HANGUL.findall(e.translation):
        if len(run) > MAX_HANGUL_RUN:
            yield "T601", W, f"'{run}' runs {len(run)} syllables without a space (word spacing lost?)"


# digits right after a Latin letter (D6) are read in English, so they are skipped
_PARTICLE_AFTER = re.compile(r"(\[[a-z-]+\]|(?<![A-Za-z\d])\d+|\{[a-z_]+\})(으로|이다|을|를|이|가|은|는|과|와|로)(?![\uac00-\ud7a3])")


@_check
def check_particles(e: Entry, g: Glossary) -> Iterable[tuple[str, Severity, str]]:
    if not e.locale.startswith("ko"):
        return
    text = e.translation
    for m in _PARTICLE_AFTER.finditer(text):
        word, part = m.group(1), m.group(2)
        if word.startswith("{"):
            continue  # filled at run time by cardkit.i18n.korean.fill_ko, which fixes the particle
        if final_consonant(word) is not None and particle(word, part) != part:
            yield "T701", E, f"'{word}{part}' should be '{word}{particle(word, part)}'"
    # glossary terms followed by a particle
    rx = _term_particle_rx(g)
    if rx is not None:
        for m in rx.finditer(text):
            base, part = m.group(1), m.group(2)
            if final_consonant(base) is not None and particle(base, part) != part:
                yield "T701", E, f"'{base}{part}' should be '{base}{particle(base, part)}'"


def _term_particle_rx(g: Glossary) -> re.Pattern[str] | None:
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


@_check
def check_spaces(e: Entry, g: Glossary) -> Iterable[tuple[str, Severity, str]]:
    t = e.translation
    if t != t.strip():
        yield "T801", E, "leading or trailing space"
    if "  " in t:
        yield "T801", E, "double space"


@_check
def check_quotes(e: Entry, g: Glossary) -> Iterable[tuple[str, Severity, str]]:
    t = e.translation
    t_no_inches = re.sub(r'(\d)"', r"\1", t)  # 12" is an inch mark, not a quote
    if e.locale.startswith("fi") and re.search("[\"“„«»]", t_no_inches):
        yield "T802", W, "Finnish quotations use ” ” (U+201D on both sides)"
    if e.locale.startswith("ko") and '"' in t_no_inches and '"' not in re.sub(r'(\d)"', r"\1", e.source):
        yield "T802", W, "straight quotes: use “ ” or 「 」"


@_check
def check_end_punctuation(e: Entry, g: Glossary) -> Iterable[tuple[str, Severity, str]]:
    def end(s: str) -> str:
        s = _strip_markup(s).rstrip()
        return s[-1] if s and s[-1] in ".!?:;" else ""

    if end(e.source) != end(e.translation):
        yield "T803", W, f"ends with {end(e.translation)!r}, the source with {end(e.source)!r}"


def check_glyphs(e: Entry, book: FontBook) -> Iterable[tuple[str, Severity, str]]:
    missing: set[str] = set()
    for role in ("body", "bold", "title"):
        missing.update(book.missing(_strip_markup(e.translation), book.chain(e.locale, role)))
    if missing:
        shown = ", ".join(f"U+{ord(c):04X} {c!r}" for c in sorted(missing))
        yield "T901", E, f"no font of the {e.locale} chain has {shown}"


def run_entry_checks(entries: list[Entry], glossary: Glossary, book: FontBook) -> list[Finding]:
    out = []
    for e in entries:
        if not e.translation:
            continue
        results = [r for fn in ENTRY_CHECKS for r in fn(e, glossary)] + list(check_glyphs(e, book))
        for code, sev, msg in results:
            out.append(Finding(code, sev, e.locale, e.domain, e.msgctxt, e.file, e.line, msg))
    return out

