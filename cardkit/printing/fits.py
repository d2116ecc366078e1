"""The fit of one text of the page furniture (calibration page, token page, footers),
as the furniture module that prints it reports it: what ``l10n check`` reads (T950) for
every paper and layout, without laying a page out itself."""

from __future__ import annotations

from dataclasses import dataclass

from cardkit.layout.compose import FieldFit


@dataclass(frozen=True)
class TextFit:
    """One text the furniture prints on one sheet, and whether it fits there.

    ``place`` says where (``calibration page, help box``, ``token page, token label``,
    ``page footer``, ...); ``keys`` are the strings behind it as layout keys
    (``ui:<id>`` for an interface string, else the set's msgctxt; several share the help
    box; empty for a label a game's plugin wrote without a string); ``detail`` is the fit
    as a sentence; ``sheet`` names the sheet (``a5 landscape gutterfold``, the duplex
    mode added when it changes the text); ``box``, for a box several strings share, is its
    fit as the cards' fields report theirs, so that one string can be blamed.

    >>> f = TextFit("page footer", ("set.title",), False, "'X · 3/3' fits in no footer band at 4 pt", "a5 portrait grid")
    >>> f.message()
    "page footer: 'X · 3/3' fits in no footer band at 4 pt (a5 portrait grid)"
    """

    place: str
    keys: tuple[str, ...]
    ok: bool
    detail: str
    sheet: str
    box: FieldFit | None = None

    def message(self) -> str:
        """The finding's text: where, how it fits, on which sheet."""
        return f"{self.place}: {self.detail} ({self.sheet})"
