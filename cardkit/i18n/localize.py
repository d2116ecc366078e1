"""Localized strings for layout and reports: card strings from a set's catalog,
interface strings from the ``ui`` catalog, English when a locale lacks one.

>>> fill("{a} and {b}", a=1, b="x")
'1 and x'
"""

from __future__ import annotations

import functools
import io
import re
from pathlib import Path

from babel.messages.pofile import read_po

from cardkit.errors import CardkitError
from cardkit.load.schema import load_validated
from cardkit.model import CardSet, SourceString

UI_FILE = Path(__file__).resolve().parent / "ui.yaml"
UI_DOMAIN = "ui"
SOURCE_LOCALE = "en"
_PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)\}")
LOCALE_NAME = re.compile(r"[a-z]{2,3}(?:[_-][A-Za-z0-9]{2,8})*")


def fill(template: str, **values: object) -> str:
    """Replace ``{name}`` placeholders; unknown names stay as they are (the
    translation checks catch them), and nothing else is interpreted."""
    return _PLACEHOLDER.sub(lambda m: str(values[m.group(1)]) if m.group(1) in values else m.group(0), template)


@functools.lru_cache(maxsize=1)
def ui_strings() -> tuple[SourceString, ...]:
    """The interface strings shipped with cardkit, as extraction records."""
    rel = "cardkit/i18n/ui.yaml"
    doc = load_validated(UI_FILE, rel, "ui.schema.json")
    out = []
    for i, entry in enumerate(doc.data["strings"]):
        line, col = doc.mark(("strings", i, "text"))
        out.append(SourceString(entry["id"], entry["text"], rel, line, entry["comment"], col))
    return tuple(out)


@functools.lru_cache(maxsize=64)
def _catalog(path: str, mtime: float, locale: str) -> dict[str, tuple[str, int]]:
    with open(path, "rb") as fh:
        cat = read_po(io.BytesIO(fh.read()), locale=locale)
    return {m.context: (m.string, m.lineno or 0) for m in cat
            if m.id and isinstance(m.string, str) and m.string and not m.fuzzy and m.context}


def available_locales(root: Path, domain: str) -> list[str]:
    """English and every locale with a catalog for ``domain`` (a set id or ``ui``)."""
    base = Path(root) / "locales"
    found = sorted(p.name for p in base.iterdir() if (p / "LC_MESSAGES" / f"{domain}.po").is_file()) if base.is_dir() else []
    return [SOURCE_LOCALE] + [loc for loc in found if loc != SOURCE_LOCALE]


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

    def __init__(self, root: Path, locale: str, card_set: CardSet | None = None) -> None:
        self.root, self.locale, self.card_set = Path(root), locale, card_set
        require_locale(self.root, locale, card_set.id if card_set else UI_DOMAIN)
        self.english = {s.msgctxt: s.text for s in (card_set.strings if card_set else ())}
        self.ui_english = {s.msgctxt: s.text for s in ui_strings()}
        self.set_po = self._path(card_set.id) if card_set else None
        self.ui_po = self._path(UI_DOMAIN)
        self.table = self._load(self.set_po)
        self.ui_table = self._load(self.ui_po)

    def _path(self, domain: str) -> Path | None:
        if self.locale == SOURCE_LOCALE:
            return None
        path = self.root / "locales" / self.locale / "LC_MESSAGES" / f"{domain}.po"
        return path if path.is_file() else None

    def _load(self, path: Path | None) -> dict[str, tuple[str, int]]:
        if path is None:
            return {}
        try:
            return _catalog(str(path), path.stat().st_mtime, self.locale)
        except Exception as exc:  # Babel raises assorted errors on broken files
            raise CardkitError(f"cannot read catalog {path}: {exc} (run: cardkit validate)", code="L001") from None

    def card(self, msgctxt: str) -> str:
        """A card string by context (``gun_jam.text``); English if untranslated."""
        if msgctxt in self.table:
            return self.table[msgctxt][0]
        if msgctxt not in self.english:
            raise KeyError(msgctxt)
        return self.english[msgctxt]

    def has(self, msgctxt: str) -> bool:
        return msgctxt in self.english

    def ui(self, key: str, **values: object) -> str:
        text = self.ui_table[key][0] if key in self.ui_table else self.ui_english[key]
        if not values:
            return text
        if self.locale.split("_")[0] == "ko":
            from cardkit.i18n.korean import fill_ko

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
        if self.ui_po is not None and key in self.ui_table:
            return self._rel(self.ui_po), self.ui_table[key][1]
        src = {s.msgctxt: s for s in ui_strings()}[key]
        return src.file, src.line
