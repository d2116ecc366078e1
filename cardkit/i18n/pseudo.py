"""Pseudo-localization: a locale made from the English by rule, through which
``l10n check`` and ``build pdf`` lay out every string before a translator
starts (the ``qps`` locale, ICU's pseudo-locale name).

Each string keeps its icon tokens, placeholders, markup, digits and end
punctuation; its letters are accented, it grows by :data:`GROWTH` (the
usual allowance for a translation from English: Finnish and German run 30-40 %
longer) and is bracketed, so a string cut short or a string that is not
translatable at all shows at once.

>>> pseudo_text("Kill {n} [skull] <b>Goblins</b>.")
'«Ķíłł {n} [skull] <b>Ĝóbłíñš ~~~~»</b>.'
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardkit.i18n.catalogs import (
    PSEUDO,
    merge,
    po_path,
    read_catalog,
    rel,
    render,
    template_for,
)

GROWTH = 0.4
OPEN, CLOSE = "«", "»"
_ACCENTS = str.maketrans("aceghiklnorstuyzACEGHIKLNORSTUYZ", "áçéĝĥíķłñóŕšţúýžÁÇÉĜĤÍĶŁÑÓŔŠŢÚÝŽ")
_KEEP = re.compile(r"(\[[a-z][a-z0-9_-]*\]|\{[a-z_][a-z0-9_]*\}|</?[a-z]+>|\u00ad|\n)")


def pseudo_text(text: str) -> str:
    """The pseudo-translation of one English string."""
    masked = _KEEP.sub(lambda m: "\0" * len(m.group(0)), text)
    last = max((i for i, ch in enumerate(masked) if ch.isalnum()), default=len(text) - 1)
    body, tail = text[: last + 1], text[last + 1:]  # the end punctuation, tokens and markup stay at the end
    parts = _KEEP.split(body)
    out = "".join(p if _KEEP.fullmatch(p) else p.translate(_ACCENTS) for p in parts)
    visible = len(_KEEP.sub("", body))
    pad = max(1, math.ceil(visible * GROWTH) - 2)  # the brackets count as growth
    words = [("~" * 6)] * (pad // 6) + (["~" * (pad % 6)] if pad % 6 else [])
    return f"{OPEN}{out} {' '.join(words)}{CLOSE}{tail}"


@dataclass(frozen=True)
class PseudoResult:
    locale: str
    catalogs: tuple[tuple[str, int], ...]  # (relative path, entries)


def write_pseudo(root: Path, project: Any) -> PseudoResult:
    """Write ``locales/qps/LC_MESSAGES/<domain>.po`` for every domain of the
    project, every entry pseudo-translated (replacing any earlier pseudo
    catalogs: they are made, not edited)."""
    from cardkit.fsutil import atomic_write_bytes
    from cardkit.i18n.budget import translation_domains
    from cardkit.strings.localize import plural_forms

    out = []
    planned = []
    for domain, strings, budgets in translation_domains(project):
        doc = merge(template_for(domain, strings, budgets), None, PSEUDO)
        n = plural_forms(PSEUDO)
        for m in doc.catalog:
            if not m.id:
                continue
            if isinstance(m.id, (tuple, list)):
                m.string = tuple(pseudo_text(m.id[0] if i == 0 else m.id[1]) for i in range(n))
            else:
                m.string = pseudo_text(m.id)
        path = po_path(root, PSEUDO, domain)
        planned.append((path, render(doc)))
        out.append((rel(root, path), len(strings)))
    for path, data in planned:
        atomic_write_bytes(path, data)
        read_catalog(path, rel(root, path), PSEUDO)  # what was written reads back
    return PseudoResult(PSEUDO, tuple(out))
