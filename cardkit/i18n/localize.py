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


class Localizer:
    """Translations of one locale for one set (plus the interface strings)."""

    def __init__(self, root: Path, locale: str, card_set: CardSet | None = None) -> None:
        self.root, self.locale, self.card_set = Path(root), locale, card_set
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
