"""cardkit's own interface strings (``cardkit/i18n/ui.yaml``: sheet notes, the build
summary, the playtest report), read like any other source file of strings: schema-checked,
every plural message checked (C020), as extraction records.

The loader reads them (a set's ``strings.yaml`` may not reuse one of their ids: C014), and
so does the string lookup (:mod:`cardkit.strings.localize`), a floor above it.  The file
stays beside the translator tools: ``ui.pot`` points translators at this path.
"""

from __future__ import annotations

import functools
from pathlib import Path

from cardkit.errors import CardkitError, Issue
from cardkit.load.schema import load_validated
from cardkit.model import SourceString
from cardkit.text import plural_problems

UI_FILE = Path(__file__).resolve().parents[1] / "i18n" / "ui.yaml"


@functools.lru_cache(maxsize=1)
def ui_strings() -> tuple[SourceString, ...]:
    """The interface strings shipped with cardkit, as extraction records."""
    rel = "cardkit/i18n/ui.yaml"
    doc = load_validated(UI_FILE, rel, "ui.schema.json")
    out = []
    problems: list[Issue] = []
    for i, entry in enumerate(doc.data["strings"]):
        line, col = doc.mark(("strings", i, "text"))
        s = SourceString(entry["id"], entry["text"], rel, line, entry["comment"], col,
                         entry.get("plural"), entry.get("count"))
        problems.extend(Issue("C020", msg, file=rel, line=line, column=col)
                        for msg in plural_problems(s.msgctxt, s.text, s.plural, s.count))
        out.append(s)
    if problems:
        raise CardkitError(problems)
    return tuple(out)
