"""Control and bidi characters in strings a card prints (#29).

A translator's tool, a terminal, the review page and the PDF do not agree on
what an ESC, a backspace, a U+0001 or a bidi override shows: with
``saa \\u202e1+\\u202c voimaa`` the printed card reads ``1+`` where a browser
shows ``+1``.  Neither belongs in card text, so both sides are checked:

* C021 (``cardkit validate``): an English source string of a set;
* T310 (``cardkit l10n check``, and so ``build``): a translation, registered
  with the other entry checks of :mod:`cardkit.i18n.checks`.

It imports nothing but :mod:`cardkit.errors`, so the loader (C021) and the
translation checks (T310) share it from the ground floor.

A line break, a tab and a carriage return are white space (multi-line strings, CR LF line ends); every other C0 or C1 control,
DEL, the bidi embeddings, overrides and isolates (U+202A-202E, U+2066-2069)
and a lone surrogate (a YAML ``\\ud800`` escape) is a finding, named by its
code point and column, never shown live (:func:`cardkit.errors.neutral`).

>>> control_problems("saa \\u202e1+\\u202c voimaa")
['bidi control U+202E (RIGHT-TO-LEFT OVERRIDE) at column 5, U+202C (POP DIRECTIONAL FORMATTING) at column 8: a browser and the printed card would show the text in different orders']
>>> control_problems("Roll\\x1b[2J a die\\x08"), control_problems("two\\nlines")
(['control character U+001B (ESC) at column 5, U+0008 (BACKSPACE) at column 15: it prints as nothing or a box, and acts on a terminal or an editor'], [])
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from cardkit.errors import BIDI_CONTROLS, Issue, Severity

if TYPE_CHECKING:
    from cardkit.model import SourceString

_CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")  # (a line break, a tab and a CR are white space)
_NAMES = {0x00: "NUL", 0x07: "BEL", 0x08: "BACKSPACE", 0x09: "TAB", 0x0B: "VERTICAL TAB", 0x0C: "FORM FEED",
          0x0D: "CARRIAGE RETURN", 0x1B: "ESC", 0x7F: "DELETE", 0x85: "NEXT LINE",
          0x202A: "LEFT-TO-RIGHT EMBEDDING", 0x202B: "RIGHT-TO-LEFT EMBEDDING", 0x202C: "POP DIRECTIONAL FORMATTING",
          0x202D: "LEFT-TO-RIGHT OVERRIDE", 0x202E: "RIGHT-TO-LEFT OVERRIDE", 0x2066: "LEFT-TO-RIGHT ISOLATE",
          0x2067: "RIGHT-TO-LEFT ISOLATE", 0x2068: "FIRST STRONG ISOLATE", 0x2069: "POP DIRECTIONAL ISOLATE"}
SHOWN = 3  # characters named in one message; the rest are counted


def _named(matches: list[re.Match[str]]) -> str:
    parts = []
    for m in matches[:SHOWN]:
        n = ord(m.group())
        name = _NAMES.get(n, "lone surrogate" if 0xD800 <= n <= 0xDFFF else "")
        parts.append(f"U+{n:04X}{f' ({name})' if name else ''} at column {m.start() + 1}")
    if len(matches) > SHOWN:
        parts.append(f"and {len(matches) - SHOWN} more")
    return ", ".join(parts)


def control_problems(text: str) -> list[str]:
    """What in ``text`` a card must not print: control characters, then bidi controls (one message each)."""
    out = []
    controls = list(_CONTROLS.finditer(text))
    if controls:
        out.append(f"control character {_named(controls)}: it prints as nothing or a box, and acts on a terminal "
                   "or an editor")
    bidi = list(BIDI_CONTROLS.finditer(text))
    if bidi:
        out.append(f"bidi control {_named(bidi)}: a browser and the printed card would show the text in different "
                   "orders")
    return out


def source_issues(strings: Iterable[SourceString]) -> list[Issue]:
    """C021 per English string of a set (its text and plural) that holds one."""
    out = []
    for s in strings:
        for text in (s.text, s.plural or ""):
            for problem in control_problems(text):
                out.append(Issue("C021", f"{s.msgctxt}: {problem}", file=s.file, line=s.line, column=s.column))
    return out


def check_controls(entry: Any, glossary: Any) -> Iterable[tuple[str, Severity, str]]:
    """T310: a translation (one form of a plural message) that holds one; an entry
    check of :mod:`cardkit.i18n.checks` (``Entry``, ``Glossary``)."""
    for problem in control_problems(entry.translation):
        yield "T310", Severity.ERROR, problem
