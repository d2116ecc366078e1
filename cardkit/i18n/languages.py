"""Adding a language: locale names normalized and validated against CLDR, and
``cardkit l10n init --locale LL`` (catalogs for every domain from the
templates, plural forms from CLDR through Babel, a glossary scaffold).

A locale name is normalized the way Babel prints it (``sv``, ``pt_BR``,
``zh_Hant_TW``): ``sv-SE``, ``sv_se`` and ``SV_se`` all name ``sv_SE``.  Two
catalog folders for one language, one with a territory and one without
(``sv`` beside ``sv_SE``), are refused: gettext would read one and the
translator fill the other.

>>> normalize_locale("sv-se"), normalize_locale("PT_br"), normalize_locale("de")
('sv_SE', 'pt_BR', 'de')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from babel import Locale, UnknownLocaleError

from cardkit.errors import CardkitError, Issue
from cardkit.i18n.catalogs import (
    plan_update,
    po_path,
    project_locales,
    read_catalog,
    rel,
)
from cardkit.strings.localize import SOURCE_LOCALE
from cardkit.load.yamlsafe import YamlError, read_yaml_file

GLOSSARY_FILE = "glossary.yaml"
_SHAPE = re.compile(r"[A-Za-z]{2,3}(?:[_-][A-Za-z0-9]{2,8}){0,3}")


def normalize_locale(name: str) -> str:
    """The CLDR form of a locale name, or :class:`CardkitError` ``L006`` for a
    name CLDR does not know (one line, with examples)."""
    if not _SHAPE.fullmatch(name):
        raise CardkitError(f"'{name[:40]}' is not a locale name (a CLDR language code such as sv, de, pt_BR)",
                           code="L006")
    try:
        return str(Locale.parse(name.replace("-", "_")))
    except (UnknownLocaleError, ValueError):
        raise CardkitError(f"unknown locale '{name}': CLDR has no such language or territory (for example sv, de, "
                           "pt_BR)", code="L006") from None


def language_of(locale: str) -> str:
    return locale.split("_")[0]


def sibling_issue(locale: str, existing: list[str]) -> Issue | None:
    """``L007`` when the project already has a catalog folder for the same
    language under another name (``sv`` beside ``sv_SE``)."""
    for other in existing:
        if other != locale and language_of(other) == language_of(locale) and ("_" not in other or "_" not in locale):
            return Issue("L007", f"locale '{locale}' beside 'locales/{other}': both would hold the "
                                 f"{Locale.parse(language_of(other)).english_name} catalogs; use --locale {other}, or rename the "
                                 f"folder locales/{other} first", file=f"locales/{other}")
    return None


def checked_locales(root: Path, names: list[str]) -> list[str]:
    """The normalized names of new or existing locales, every problem reported
    at once (``L006``, ``L007``; English is the source, ``L006`` too)."""
    existing = project_locales(root)
    out: list[str] = []
    issues: list[Issue] = []
    for name in names:
        try:
            loc = normalize_locale(name)
        except CardkitError as exc:
            issues.extend(exc.issues)
            continue
        if language_of(loc) == SOURCE_LOCALE:
            issues.append(Issue("L006", f"'{name}' is English, the language of the source strings; it needs no "
                                        "catalogs"))
            continue
        problem = sibling_issue(loc, existing + out)
        if problem is not None:
            issues.append(problem)
        elif loc not in out:
            out.append(loc)
    if issues:
        raise CardkitError(issues)
    return out


def locale_issues(root: Path, names: list[str]) -> tuple[list[str], list[Issue]]:
    """``--locale`` as every ``l10n`` command reads it (check, update, review, accept, import): a
    filter of the locales that have catalogs here, normalized as Babel writes them (``sv-se`` is
    ``sv_SE``), and every problem at once, coded as docs/errors.md says: ``L003`` for a name that
    is not shaped like a locale at all (``../x``), ``L005`` for a locale name with no catalogs here
    (``xx``, ``zz_QQ``, or English, the source).

    >>> import tempfile
    >>> locale_issues(Path(tempfile.mkdtemp()), ["../x", "xx", "en"])[1][0].code
    'L003'
    >>> [i.code for i in locale_issues(Path(tempfile.mkdtemp()), ["../x", "xx", "en"])[1]]
    ['L003', 'L005', 'L005']
    """
    from cardkit.i18n.catalogs import PSEUDO

    have = [loc for loc in project_locales(root) if loc != SOURCE_LOCALE]
    there = ", ".join(have) or "none"
    out: list[str] = []
    issues: list[Issue] = []
    for name in names:
        if name != PSEUDO and not _SHAPE.fullmatch(name):
            issues.append(Issue("L003", f"--locale {name[:40]!r} is not a locale name (locales here: {there})"))
            continue
        try:
            loc = name if name == PSEUDO else normalize_locale(name)
        except CardkitError:  # shaped like one but unknown to CLDR: no catalogs either
            loc = name
        if loc == SOURCE_LOCALE:
            issues.append(Issue("L005", f"--locale {loc}: English is the source (locales here: {there})"))
        elif loc not in have:
            near = [h for h in have if language_of(h) == language_of(loc)]
            hint = f"did you mean --locale {near[0]}?" if near else f"add it: cardkit l10n init --locale {loc}"
            issues.append(Issue("L005", f"--locale {loc}: no catalogs under locales/{loc}/LC_MESSAGES (locales here: "
                                        f"{there}; {hint})"))
        elif loc not in out:
            out.append(loc)
    return out, issues


@dataclass(frozen=True)
class InitResult:
    locale: str
    name: str  # the language's English name, from CLDR
    plural_forms: str  # the Plural-Forms header written
    catalogs: tuple[tuple[str, int], ...]  # (relative path, entries to translate)
    glossary: str | None  # relative path of the scaffold written, None if one existed
    terms: int  # terms in the scaffold to fill


def new_locale(root: Path, name: str) -> str:
    """The normalized name of a locale to add, or every reason it cannot be
    (``L006``, ``L007``; ``L008`` for each catalog it already has).  Reads no
    cards, so a mistyped name fails at once."""
    locale = checked_locales(root, [name])[0]
    there = sorted((root / "locales" / locale / "LC_MESSAGES").glob("*.po"))
    if there:
        raise CardkitError([Issue("L008", f"locale '{locale}' already has this catalog; run: cardkit l10n update "
                                          "(it merges new strings into catalogs that exist)", file=rel(root, p))
                            for p in there])
    return locale


def init_locale(root: Path, project: Any, name: str) -> InitResult:
    """Write empty catalogs of ``name`` for every domain of the project and a
    glossary scaffold; nothing is written when any catalog of the locale already
    exists (``L008``) or the name is refused (``L006``, ``L007``)."""
    from babel.messages.plurals import get_plural

    from cardkit.fsutil import atomic_write_bytes
    from cardkit.i18n.budget import translation_domains

    locale = new_locale(root, name)
    domains = translation_domains(project)
    plans = []
    catalogs = []
    for domain, strings, budgets in domains:
        plan = plan_update(root, domain, strings, [locale], budgets)[1]
        plans.append(plan)
        catalogs.append((rel(root, plan.path), len(strings)))
    glossary_path = root / "locales" / locale / GLOSSARY_FILE
    scaffold = None
    terms = 0
    if not glossary_path.exists():
        scaffold, terms = glossary_scaffold(root, project, locale)
    for p in plans:
        atomic_write_bytes(p.path, p.data)
    if scaffold is not None:
        atomic_write_bytes(glossary_path, scaffold.encode("utf-8"))
    plural = get_plural(locale)
    return InitResult(locale, Locale.parse(locale).english_name or locale,
                      f"nplurals={plural.num_plurals}; plural={plural.plural_expr};", tuple(catalogs),
                      rel(root, glossary_path) if scaffold is not None else None, terms)


def _known_terms(root: Path, locale: str) -> tuple[list[dict[str, Any]], list[str]]:
    """The terms (id, English words, sets, note) and proper names of the
    project's other glossaries, in the order the first glossary lists them."""
    terms: dict[str, dict[str, Any]] = {}
    names: list[str] = []
    for other in project_locales(root):
        path = root / "locales" / other / GLOSSARY_FILE
        if other == locale or not path.is_file():
            continue
        try:
            doc = read_yaml_file(path, f"locales/{other}/{GLOSSARY_FILE}")
        except YamlError:
            continue  # l10n check reports it for its own locale
        data = doc.data if isinstance(doc.data, dict) else {}
        for t in data.get("terms", []) or []:
            if isinstance(t, dict) and isinstance(t.get("id"), str) and isinstance(t.get("en"), list):
                entry = terms.setdefault(t["id"], {"id": t["id"], "en": [], "sets": t.get("sets") or []})
                entry["en"] += [w for w in t["en"] if isinstance(w, str) and w not in entry["en"]]
        names += [n for n in data.get("proper_names", []) or [] if isinstance(n, str) and n not in names]
    return list(terms.values()), names


def _flow(items: list[str]) -> str:
    return "[" + ", ".join(_quote(i) for i in items) + "]"


def _quote(s: str) -> str:
    return s if re.fullmatch(r"[A-Za-z][A-Za-z0-9 ._-]*", s) and not s.endswith(" ") else "'" + s.replace("'", "''") + "'"


def glossary_scaffold(root: Path, project: Any, locale: str) -> tuple[str, int]:
    """The text of a new locale's ``glossary.yaml``: every term of the
    project's other glossaries (or, with none, every card title) as a
    commented entry whose ``term`` and ``forms`` the translator fills and
    uncomments; proper names that may stay English; an empty ``numbers``
    list."""
    terms, names = _known_terms(root, locale)
    if not terms:  # no glossary to learn from: the card titles are the first terms
        seen: set[str] = set()
        for sid, ls in sorted(project.sets.items()):
            for s in (ls.set.strings if ls.set is not None else ()):
                if s.msgctxt.endswith((".name", ".title")) and not s.msgctxt.startswith("set.") and s.text not in seen:
                    seen.add(s.text)
                    term_id = re.sub(r"[^a-z0-9]+", "_", s.text.lower()).strip("_") or "term"
                    terms.append({"id": term_id if term_id[0].isalpha() else f"term_{term_id}",  # an id starts with a letter
                                  "en": [s.text], "sets": [sid]})
    english = Locale.parse(locale).english_name
    lines = [
        "# yaml-language-server: $schema=../../schemas/glossary.schema.json",
        f"# {english} glossary, written by `cardkit l10n init --locale {locale}`.",
        "# Each commented entry below is a game term of the sets: fill in `term` (the required word)",
        "# and `forms` (every written form the translation may use: cases, plurals, compounds),",
        "# optionally `stems` and `forbidden`, then remove the '# ' in front of its lines.",
        "# `l10n check` then requires the term wherever its English occurs (T501).",
        "kind: glossary",
        f"locale: {locale}",
        "terms: []",
    ]
    for t in terms:
        lines += [f"# - id: {t['id']}"]
        if t["sets"]:
            lines += [f"#   sets: {_flow(t['sets'])}"]
        lines += [f"#   en: {_flow(t['en'])}", "#   term: ''", "#   forms: []"]
    lines += ["# Names that may stay as in English (T201 does not report them); a one-word name here is also",
              "# followed into other strings (T160: where the English says Deino, the translation must name him).",
              f"proper_names: {_flow(names)}" if names else "# proper_names: []  (the names of the cards, e.g. [Deino, Lorenzo])",
              "#",
              "# Language data the checks need. Until a list is filled and its '# ' removed, `l10n check` says",
              "# which checks did not run, or ran with less, for lack of it (T190).",
              f"# Words that negate a clause in {english} (T161: the English says not, no, never, cannot ...; '*' at",
              "# either end matches the start or end of a word, '!word' a word that holds a negation but does not",
              "# negate). For example, German: [nicht, kein*, nie, niemals, nichts, ohne, niemand, weder]",
              "# negation: []",
              "# Number words accepted where the English has digits (T401/T402), every form the translation uses:",
              "# numbers:",
              "# - {value: 1, words: []}",
              "# - {value: 2, words: []}",
              f"# Endings a card name takes when {english} inflects names (T160 knows names as whole words or with",
              "# these endings, never by a bare prefix: Finnish [n, lle, lla] for Deinon, Deinolle); write",
              "# `name_endings: []` for a language that does not inflect names.",
              "# name_endings: []",
              "# Words for inches and centimetres after a number beyond CLDR's (T401/T402: 18 tuuman):",
              "# units: {inch: [], cm: []}",
              ""]
    return "\n".join(lines), len(terms)


@dataclass(frozen=True)
class Coverage:
    """How much of one catalog of a locale is translated (fuzzy entries print
    in English, so they do not count)."""

    locale: str
    domain: str
    file: str
    translated: int
    total: int

    @property
    def ratio(self) -> float:
        return self.translated / self.total if self.total else 1.0

    @property
    def english(self) -> int:
        return self.total - self.translated

    @property
    def percent(self) -> str:
        """Rounded down, so that 89.6 % below a 90 % minimum never reads "90 %"."""
        return f"{int(self.ratio * 100)} %"


def catalog_coverage(root: Path, locale: str, domain: str, strings: tuple[Any, ...]) -> Coverage:
    """Coverage of a locale's catalog for one domain (0 when it is missing or
    unreadable: every string prints in English)."""
    from cardkit.strings.localize import plural_forms

    path = po_path(root, locale, domain)
    wanted = {s.msgctxt for s in strings}
    done = 0
    if path.is_file():
        try:
            cat = read_catalog(path, rel(root, path), locale, root=root).catalog
        except CardkitError:
            cat = None
        n = plural_forms(locale)
        for m in cat or ():
            if not m.id or m.context not in wanted or m.fuzzy:
                continue
            s = m.string
            forms = [s] if isinstance(s, str) else list(s or ())
            done += len(forms) >= (1 if isinstance(s, str) else n) and all(forms)
    return Coverage(locale, domain, rel(root, path), done, len(strings))


def coverage_line(c: Coverage) -> str:
    """The build's line for one set: how much is translated, what prints in English."""
    if c.english == 0:
        return f"{c.locale}: {c.domain}: all {c.total} strings translated"
    return (f"{c.locale}: {c.domain}: {c.translated} of {c.total} strings translated ({c.percent}); "
            f"the other {c.english} print in English ({c.file})")


def coverage_issue(c: Coverage, minimum: float) -> Issue | None:
    """``L009`` when the coverage is below ``minimum`` (0..1)."""
    if c.ratio >= minimum:
        return None
    return Issue("L009", f"{c.locale} {c.domain}: {c.translated} of {c.total} strings translated ({c.percent}), "
                         f"below --min-coverage {minimum:g} ({int(minimum * 100)} %); {c.english} would print in English", file=c.file)
