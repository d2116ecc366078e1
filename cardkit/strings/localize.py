"""Localized strings for layout and reports: card strings from a set's catalog,
interface strings from the set's own ``strings.yaml`` (in the set's catalog) or
else cardkit's ``ui`` catalog, English when a locale lacks one.

A message whose wording depends on a number is a plural message (gettext
``msgid_plural``, ``msgstr[n]``); code asks for it with the number, in the
style of ``ngettext``: ``loc.ui_n("report.legend", 2, players="2")``.  The form
is chosen by the locale's gettext plural rule as Babel knows it.

>>> fill("{a} and {b}", a=1, b="x")
'1 and x'
>>> [plural_index("fi", n) for n in (0, 1, 2)], plural_index("ko", 1)
([1, 0, 1], 0)
"""

from __future__ import annotations

import copy
import functools
import gettext
import io
import os
import re
from importlib import resources
from pathlib import Path
from typing import Callable, Iterable, Union

from babel.core import UnknownLocaleError
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from cardkit.errors import CardkitError
from cardkit.strings.locales import MAX_PO_BYTES, babel_locale, bytes_issues, length_issue
from cardkit.load.interface import UI_FILE, ui_strings  # noqa: F401 (UI_FILE: read from here too)
from cardkit.model import CardSet, SourceString

UI_DOMAIN = "ui"
SOURCE_LOCALE = "en"
_PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)\}")
LOCALE_NAME = re.compile(r"[a-z]{2,3}(?:[_-][A-Za-z0-9]{2,8})*")


def fill(template: str, **values: object) -> str:
    """Replace ``{name}`` placeholders; unknown names stay as they are (the
    translation checks catch them), and nothing else is interpreted."""
    return _PLACEHOLDER.sub(lambda m: str(values[m.group(1)]) if m.group(1) in values else m.group(0), template)


@functools.lru_cache(maxsize=64)
def _plural_rule(locale: str) -> tuple[int, Callable[[int], int]]:
    try:
        nplurals, expr = get_plural(locale.replace("-", "_"))
    except (ValueError, UnknownLocaleError):  # a locale Babel does not know: gettext's default
        nplurals, expr = 2, "(n != 1)"
    return nplurals, gettext.c2py(expr)  # Babel's own expression, never a catalog's header


def plural_index(locale: str, n: int) -> int:
    """Which ``msgstr[i]`` of a plural message the number ``n`` selects in ``locale``."""
    nplurals, rule = _plural_rule(locale)
    return min(int(rule(abs(int(n)))), nplurals - 1)


def plural_forms(locale: str) -> int:
    """How many forms a plural message has in ``locale`` (gettext ``nplurals``)."""
    return _plural_rule(locale)[0]


def form_example(locale: str, index: int) -> int:
    """The smallest number that selects form ``index`` (to fill a form when
    checking it), or 2 when no number below 1000 does."""
    return next((n for n in range(1000) if plural_index(locale, n) == index), 2)


# a catalog entry: translation (one string, or one per plural form) and line
Translation = tuple[Union[str, tuple[str, ...]], int]


@functools.lru_cache(maxsize=64)
def _catalog(path: str, mtime: float, locale: str, root: str | None = None, file: str = "") -> dict[str, Translation]:
    from cardkit.load.files import read_project_file

    raw = read_project_file(Path(path), file or path, root=Path(root) if root else None, max_bytes=MAX_PO_BYTES,
                            too_large="L001")
    if undecodable := bytes_issues(raw, file or path):  # L001: never read by a charset the bytes are not in (#29)
        raise CardkitError(undecodable)
    cat = read_po(io.BytesIO(raw), locale=babel_locale(locale))
    out: dict[str, Translation] = {}
    for m in cat:
        if not m.id or not m.context or m.fuzzy:
            continue
        if (too_long := length_issue(m.context, m.id, m.string, file or path, m.lineno or 0)) is not None:
            raise CardkitError(too_long)  # L011: refused before any layout (#29)
        if isinstance(m.string, str) and m.string:
            out[m.context] = (m.string, m.lineno or 0)
        elif isinstance(m.string, tuple) and m.string and all(m.string):
            out[m.context] = (tuple(m.string), m.lineno or 0)
    return out


def shipped_locales() -> Path:
    """The folder holding cardkit's own ``ui`` catalogs in this installation:
    packaged in the wheel (``cardkit/_data/locales``), else the source
    checkout's ``locales``."""
    packaged = Path(str(resources.files("cardkit"))) / "_data" / "locales"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "locales"


def keeps_ui_catalogs(root: Path) -> bool:
    """Whether a project maintains cardkit's ``ui`` catalogs itself (the cardkit
    repository does: ``locales/ui.pot`` or a ``ui.po``); any other project uses
    the shipped ones, and ``l10n update``/``check`` neither write nor demand them."""
    base = Path(root) / "locales"
    return (base / f"{UI_DOMAIN}.pot").is_file() or any(base.glob(f"*/LC_MESSAGES/{UI_DOMAIN}.po"))


def ui_catalog(root: Path, locale: str) -> Path | None:
    """The ``ui`` catalog of ``locale``: the project's own when it has one, else
    the one shipped with cardkit (None for English or a locale with neither)."""
    if locale == SOURCE_LOCALE:
        return None
    for base in (Path(root) / "locales", shipped_locales()):
        path = base / locale / "LC_MESSAGES" / f"{UI_DOMAIN}.po"
        if os.path.lexists(path):
            return path
    return None


def _locales_with(base: Path, domain: str) -> set[str]:
    return {p.name for p in base.iterdir() if os.path.lexists(p / "LC_MESSAGES" / f"{domain}.po")} if base.is_dir() else set()


def available_locales(root: Path, domain: str) -> list[str]:
    """English and every locale with a catalog for ``domain`` (a set id, or
    ``ui``: the project's catalogs and those shipped with cardkit)."""
    found = _locales_with(Path(root) / "locales", domain)
    if domain == UI_DOMAIN:
        found |= _locales_with(shipped_locales(), domain)
    return [SOURCE_LOCALE] + sorted(found - {SOURCE_LOCALE})


def require_locale(root: Path, locale: str, domain: str) -> None:
    """Raise a located error unless ``locale`` is English or has a catalog for
    ``domain``: a made-up locale must not quietly print English."""
    if locale == SOURCE_LOCALE:
        return
    known = available_locales(root, domain)
    if not LOCALE_NAME.fullmatch(locale):
        raise CardkitError(f"'{locale[:40]}' is not a locale name (locales: {', '.join(known)})", code="L003")
    if locale not in known:
        what = "the interface strings" if domain == UI_DOMAIN else f"set '{domain}'"
        raise CardkitError(f"no '{locale}' catalog for {what} (locales: {', '.join(known)})", code="L005")


class Localizer:
    """Translations of one locale for one set (plus the interface strings)."""

    def __init__(self, root: Path, locale: str, card_set: CardSet | None = None, strict: bool = True) -> None:
        """``strict``: a locale the set (or, without a set, cardkit) has no
        catalog for is an error; otherwise its strings stay English."""
        self.root, self.locale, self.card_set = Path(root), locale, card_set
        if strict:
            require_locale(self.root, locale, card_set.id if card_set else UI_DOMAIN)
        self.english = {s.msgctxt: s.text for s in (card_set.strings if card_set else ())}
        self.ui_english = {s.msgctxt: s.text for s in ui_strings()}
        self.plurals = {s.msgctxt: s for s in (card_set.strings if card_set else ()) if s.plural is not None}
        self.ui_plurals = {s.msgctxt: s for s in ui_strings() if s.plural is not None}
        self.set_ui = card_set.ui_ids if card_set else frozenset()
        self.set_po = self._path(card_set.id) if card_set else None
        self.ui_po = ui_catalog(self.root, locale)
        self.table = self._load(self.set_po)
        self.ui_table = self._load(self.ui_po)

    def without(self, keys: Iterable[str]) -> Localizer:
        """A copy that leaves the translations of ``keys`` out, so that those
        strings come out in English (msgctxts; ``ui:<id>`` for interface
        strings).  The copy's :meth:`where` no longer finds them: ask this one."""
        card_keys = {k for k in keys if not k.startswith("ui:")}
        ui_keys = {k[3:] for k in keys if k.startswith("ui:")}
        out = copy.copy(self)
        out.table = {k: v for k, v in self.table.items() if k not in card_keys and k not in ui_keys}
        out.ui_table = {k: v for k, v in self.ui_table.items() if k not in ui_keys}
        return out

    def _path(self, domain: str) -> Path | None:
        if self.locale == SOURCE_LOCALE:
            return None
        path = self.root / "locales" / self.locale / "LC_MESSAGES" / f"{domain}.po"
        return path if os.path.lexists(path) else None

    def _load(self, path: Path | None) -> dict[str, Translation]:
        if path is None:
            return {}
        from cardkit.load.files import guard_for

        guard = guard_for(self.root, path)
        try:
            file = Path(os.path.relpath(path, self.root)).as_posix() if guard else str(path)
            return _catalog(str(path), os.lstat(path).st_mtime, self.locale, str(guard) if guard else None, file)
        except CardkitError:
            raise
        except Exception as exc:  # Babel raises assorted errors on broken files
            raise CardkitError(f"cannot read catalog {path}: {exc} (run: cardkit validate)", code="L001") from None

    def _pick(self, table: dict[str, Translation], source: SourceString | None, key: str,
              english: str, n: int | None) -> str:
        """The text of ``key`` for the number ``n`` (``None``: the first form).
        A translation of the wrong shape (plural for a plain message or the
        reverse) is not used: the checks report it, the English stands in."""
        found = table[key][0] if key in table else None
        if source is None or source.plural is None:
            return found if isinstance(found, str) else english
        if isinstance(found, tuple):
            i = 0 if n is None else plural_index(self.locale, n)
            if i < len(found):
                return found[i]
        return source.plural if n is not None and n != 1 else source.text

    def card(self, msgctxt: str) -> str:
        """A card string by context (``gun_jam.text``); English if untranslated.
        For a plural message, its first form (as gettext's ``gettext`` does)."""
        if msgctxt not in self.english and msgctxt not in self.table:
            raise KeyError(msgctxt)
        return self._pick(self.table, self.plurals.get(msgctxt), msgctxt, self.english.get(msgctxt, ""), None)

    def card_n(self, msgctxt: str, n: int, **values: object) -> str:
        """A card string in the form the number ``n`` takes (``ngettext``), its
        placeholders filled; the count placeholder gets ``n`` unless given."""
        if msgctxt not in self.english:
            raise KeyError(msgctxt)
        src = self.plurals.get(msgctxt)
        if src is not None and src.count:
            values.setdefault(src.count, n)
        return self._fill(self._pick(self.table, src, msgctxt, self.english[msgctxt], n), values)

    def has(self, msgctxt: str) -> bool:
        return msgctxt in self.english

    def ui_domain(self, key: str) -> str:
        """The catalog domain of an interface string: the set's id when the set
        defines it (its ``strings.yaml``), else cardkit's ``ui``."""
        return self.card_set.id if self.card_set is not None and key in self.set_ui else UI_DOMAIN

    def ui_lookup(self, key: str) -> tuple[dict[str, Translation], SourceString | None, str]:
        """Translations, plural source (if a plural message) and English of an
        interface string: the set's own strings first, then cardkit's."""
        if key in self.set_ui:
            return self.table, self.plurals.get(key), self.english[key]
        return self.ui_table, self.ui_plurals.get(key), self.ui_english[key]

    def ui(self, key: str, **values: object) -> str:
        """An interface message, its placeholders filled.  For a plural message
        whose count is given as a whole number the form follows that number, so a
        caller cannot print "2 pelaaja" by asking without :meth:`ui_n`."""
        table, src, english = self.ui_lookup(key)
        count = values.get(src.count) if src is not None and src.count else None
        if isinstance(count, int) and not isinstance(count, bool):
            return self.ui_n(key, count, **values)
        return self._fill(self._pick(table, src, key, english, None), values)

    def ui_n(self, key: str, n: int, **values: object) -> str:
        """An interface message in the form the number ``n`` takes, in the style of
        ``ngettext``: ``ui_n("report.legend", 1, players="1")`` is "1 pelaaja" in
        Finnish.  The count placeholder is filled with ``n`` unless given (callers
        pass it formatted by Babel)."""
        table, src, english = self.ui_lookup(key)
        if src is not None and src.count:
            values.setdefault(src.count, n)
        return self._fill(self._pick(table, src, key, english, n), values)

    def _fill(self, text: str, values: dict[str, object]) -> str:
        if not values:
            return text
        if self.locale.split("_")[0] == "ko":
            from cardkit.strings.korean import fill_ko

            return fill_ko(text, **values)
        return fill(text, **values)

    def _rel(self, path: Path) -> str:
        try:
            return path.relative_to(self.root).as_posix()
        except ValueError:
            return path.as_posix()

    def where(self, msgctxt: str) -> tuple[str, int]:
        """Catalog file and line of a card string's translation ("" if none)."""
        if self.set_po is not None and msgctxt in self.table:
            return self._rel(self.set_po), self.table[msgctxt][1]
        return "", 0

    def where_ui(self, key: str) -> tuple[str, int]:
        """Catalog file and line of an interface string's translation, else its
        English source (the set's ``strings.yaml`` or cardkit's ``ui.yaml``)."""
        if key in self.set_ui:
            found = self.where(key)
            if found[0]:
                return found
            src = next(s for s in self.card_set.strings if s.msgctxt == key)  # type: ignore[union-attr]
            return src.file, src.line
        if self.ui_po is not None and key in self.ui_table:
            return self._rel(self.ui_po), self.ui_table[key][1]
        src = {s.msgctxt: s for s in ui_strings()}[key]
        return src.file, src.line
