"""Translation checks: one way to register, one table.

Every code ``cardkit l10n check`` reports is declared once, here or beside the
function that finds it, as a :class:`Code` (code, severity, one doc line) of a
:class:`TranslationCheck`.  A check function registers with the decorator
:func:`check`, naming its scope (what it is given) and its codes::

    @check(Scope.ENTRY, Code("T801", E, "leading, trailing or double spaces ..."))
    def check_spaces(e: Entry, g: Glossary) -> Iterable[tuple[str, Severity, str]]: ...

The codes found on the way rather than by a check function (reading a catalog,
the fit, the acceptances) are declared with :func:`declare` and the place that
raises them.  :func:`checks` is the table: the built-in checks
(:mod:`cardkit.i18n.checks`, :mod:`cardkit.i18n.meaning`) and every module of
:mod:`cardkit.i18n.checkers` (where a new check goes: ``docs/contributing.md``,
"Adding a translation check").  The runners (:func:`cardkit.i18n.checks.run_entry_checks`,
:func:`cardkit.i18n.checks.run_locale_checks`) call the functions by scope; the
checks table of ``docs/translation.md`` (:func:`docs_table`, written by
``python tools/registries.py``) and ``l10n check --help`` (:func:`help_text`) are
generated from it; ``tests/i18n/test_check_registry.py`` checks it against
``docs/errors.md``.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any, TypeVar

from cardkit.errors import Severity

E, W = Severity.ERROR, Severity.WARNING
_CODE = re.compile(r"^T\d{3}$")


class Scope(Enum):
    """What a check function is given, and so when it runs."""

    ENTRY = "entry"  # (Entry, Glossary) -> Iterable[(code, severity, message)]: each translated entry (each plural form)
    FONTS = "fonts"  # (Entry, FontBook) -> the same: each translated entry, with the fonts of the build
    CATALOG = "catalog"  # (entries of one catalog, Glossary) -> list[Finding]: a set's strings (or ui) in one locale
    LOCALE = "locale"  # (entries of every catalog of a locale, Glossary) -> list[Finding]
    ELSEWHERE = "elsewhere"  # found on the way, not by a check function: ``where`` names the place


@dataclass(frozen=True)
class Code:
    """One finding code: its severity and its line of the docs table."""

    code: str
    severity: Severity
    doc: str

    @property
    def summary(self) -> str:
        """The doc line up to its first aside (for ``--help``)."""
        parts = re.split(r"(: |; )", re.sub(r" \([^()]*\)", "", self.doc))
        text = parts[0]
        for sep, more in zip(parts[1::2], parts[2::2]):
            if len(text.split()) > 1:  # ("Korean: ..." goes on)
                break
            text += sep + more
        return text


@dataclass(frozen=True)
class TranslationCheck:
    """A check: its name (the function's), scope, codes, and the function (or, found elsewhere, the place)."""

    name: str
    scope: Scope
    codes: tuple[Code, ...]
    run: Callable[..., Any] | None = None
    where: str = ""


_REGISTRY: dict[str, TranslationCheck] = {}
_OWNER: dict[str, str] = {}  # code -> the check that declares it

F = TypeVar("F", bound=Callable[..., Any])


def register(record: TranslationCheck) -> TranslationCheck:
    """Add a check to the table; ValueError for a malformed code, a code another check declares,
    a second check of the same name, a check function missing (or given for ``ELSEWHERE``)."""
    if not record.codes:
        raise ValueError(f"translation check {record.name!r} declares no code")
    if (record.run is None) != (record.scope is Scope.ELSEWHERE) or (record.scope is Scope.ELSEWHERE and not record.where):
        raise ValueError(f"translation check {record.name!r}: a function, or (found elsewhere) the place that raises its codes")
    for c in record.codes:
        if not _CODE.match(c.code):
            raise ValueError(f"translation check {record.name!r}: {c.code!r} is not a code T000-T999")
        if _OWNER.get(c.code, record.name) != record.name:
            raise ValueError(f"{c.code} is declared by {_OWNER[c.code]!r} and {record.name!r}")
    if record.name in _REGISTRY and _REGISTRY[record.name] != record:
        raise ValueError(f"two translation checks are named {record.name!r}")
    _REGISTRY[record.name] = record
    _OWNER.update((c.code, record.name) for c in record.codes)
    return record


def check(scope: Scope, *codes: Code) -> Callable[[F], F]:
    """Register the decorated function as a check of ``scope`` reporting ``codes``."""
    def deco(fn: F) -> F:
        register(TranslationCheck(fn.__name__, scope, tuple(codes), fn))
        return fn
    return deco


def declare(name: str, where: str, *codes: Code) -> TranslationCheck:
    """Declare codes found on the way, not by a check function, with the place that raises them."""
    return register(TranslationCheck(name, Scope.ELSEWHERE, tuple(codes), where=where))


BUILT_IN = ("cardkit.i18n.checks", "cardkit.i18n.meaning")
PACKAGE = "cardkit.i18n.checkers"


def checks() -> tuple[TranslationCheck, ...]:
    """Every translation check, in the order registered (the modules that register them imported)."""
    for name in BUILT_IN:
        importlib.import_module(name)
    package = importlib.import_module(PACKAGE)
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        importlib.import_module(f"{PACKAGE}.{info.name}")
    return tuple(_REGISTRY.values())


def of_scope(scope: Scope) -> tuple[TranslationCheck, ...]:
    return tuple(c for c in checks() if c.scope is scope)


def codes() -> dict[str, tuple[Code, TranslationCheck]]:
    """Every code, in code order, with the check that declares it."""
    return dict(sorted((c.code, (c, record)) for record in checks() for c in record.codes))


def docs_table() -> str:
    """The checks table of ``docs/translation.md``."""
    rows = ["| code | severity | what |", "|---|---|---|"]
    rows += [f"| {c.code} | {c.severity.value} | {c.doc} |" for c, _ in codes().values()]
    return "\n".join(rows)


def help_text() -> str:
    """The codes for ``cardkit l10n check --help``, one line each."""
    lines = [f"{c.code} {c.severity.value}: {c.summary}" for c, _ in codes().values()]
    return "Codes (docs/translation.md, \"Checks\"):\n\n" + "\n".join(lines)


# ---------------------------------------------------------------- codes found on the way

declare("catalog completeness", "cardkit/i18n/report.py (`_entries`, `_plural_entries`: reading each catalog against the English)",
        Code("T101", E, "a string has no catalog entry"),
        Code("T102", E, "empty translation"),
        Code("T103", E, "fuzzy entry: says whether the English changed, with the word diff from the English the translation was made from (`Until the end of the [-round-] {+game+}`), or the flag was set by hand"),
        Code("T104", W, "obsolete entry"),
        Code("T105", E, "catalog stale against the cards (entries, not bytes: see *Catalog files*)"),
        Code("T106", E, "entries without `msgctxt` (an XLIFF round trip dropped it): how many, how many `l10n update` restores by their English, and the repair for the rest (see *Catalogs that lost their msgctxt*)"),
        Code("T150", E, "a form (`msgstr[n]`) of a plural message is not translated"),
        Code("T151", E, "plural forms in the catalog for a message that has none, or none for a plural message"),
)
declare("fit", "cardkit/i18n/report.py (`_fit` and the page furniture's fits: laying the translated strings out as the PDF prints them)",
        Code("T950", E, "the string does not fit its card box at the minimum readable size (each form of a plural message); in a box several strings share, the strings that grew most (see *Fit*); the calibration page's help box and slot labels, the team names across their markers on the token page and the token page's labels (shrunk as the printer shrinks them, *Token page*), its heading and `tokens.cut` (one line each, not shrunk), and `set.title` in the page footer (left out below 4 pt), each as the printing code reports its fit (`cardkit.printing.furniture`) on every named paper (and a custom `WxH` paper that `cardkit build --paper` or `l10n check --paper` asks for), orientation, layout and duplex mode; in a one-sided sheet's free slots (gutterfold), the token heading (shrunk to 8 pt at most) and `tokens.cut` across the slot; a text is the translation's to fix on a sheet where its English fits, and the finding names the first such sheet, e.g. `(a5 portrait grid long-edge)`"),
)
declare("acceptances", "cardkit/i18n/accepted.py (`apply_acceptances`) and `cardkit l10n accept`",
        Code("T980", W, "an accepted finding lapsed: the English or the translation changed since it was accepted; the finding is reported again (see *Accepted findings*)"),
        Code("T981", W, "an acceptance accepts nothing: the check no longer finds its code on the entry"),
        Code("T982", E, "an acceptance comment that cannot be read, or accepts a code that cannot be accepted"),
)
