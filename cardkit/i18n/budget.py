"""Length budgets for translators: roughly how many characters fit at full
size where a string is printed, from the real English layout.

The budget is an estimate (average glyph width of half an em), and never less
than the English that already prints in that box (the same layout the fit
check uses, at the same place; a box several strings share is split by English
length, each share at least its English); the fit check is the authority.  It
goes into the catalogs' translator comments.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Hashable, TypeVar

from cardkit.layout.textfit import EXTENT
from cardkit.model import CardSet

AVG_EM = 0.5
K = TypeVar("K", bound=Hashable)


def box_capacity(w: float, h: float, size: float, leading: float, max_lines: int = 0) -> int:
    """About how many characters fit in a ``w`` x ``h`` box at ``size``.

    >>> box_capacity(100, 30, 10, 1.2)
    40
    """
    lines = 1 + max(0, int((h - size * EXTENT) // (size * leading)))
    if max_lines:
        lines = min(lines, max_lines)
    return int(lines * w / (AVG_EM * size))


def _plain(text: str) -> str:
    """The characters of a laid-out string a reader sees (markup and soft hyphens aside)."""
    return re.sub(r"</?[bi]>|\u00ad", "", text)


def split_by_english(capacity: float, english: dict[K, int]) -> dict[K, int]:
    """Each string's share of a box several strings share (a column of
    paragraphs, the back of a card): the box's capacity in characters split by
    the strings' English lengths.

    >>> split_by_english(400, {"a": 10, "b": 30})
    {'a': 100, 'b': 300}
    """
    total = sum(english.values()) or 1
    return {k: int(capacity * n / total) for k, n in english.items()}


def length_budgets(root: Path, card_set: CardSet) -> tuple[dict[str, int], dict[str, int]]:
    """Budgets for the set's strings and for the interface strings it prints."""
    from cardkit.printing import compose_set

    items, extras = compose_set(root, card_set, "en")
    from cardkit.strings.localize import ui_strings

    # the English of each string as its template comment counts it (placeholders unfilled)
    english_len = {s.msgctxt: len(s.text) for s in (*card_set.strings, *ui_strings())}
    budgets: dict[str, int] = {}
    ui: dict[str, int] = {}
    for item in items + extras:
        for face in (item.front, item.back):
            if face is None:
                continue
            for f in face.fits:
                x, y, w, h = f.box
                size = f.result.nominal
                field = face.template.fields.get(f.field)
                leading = field.leading if field is not None else 1.18
                # what fits at the nominal size: the budget to aim for (the fit check allows shrinking)
                capacity = box_capacity(w, h, size, leading, field.max_lines if field is not None else 0)
                keys = f.key.split(",")
                english = dict(zip(keys, f.text.split("\n"))) if len(keys) > 1 else {keys[0]: f.text}
                # the English already prints in this box (the fit check laid it out): the budget is never less
                capacity = max(capacity, sum(len(_plain(t)) for t in english.values()))
                if len(keys) > 1:  # a column shares its box: split by English length
                    shares = split_by_english(capacity, {k: len(_plain(t)) for k, t in english.items()})
                else:
                    shares = {keys[0]: capacity}
                for key, n in shares.items():
                    n = max(n, len(_plain(english.get(key, ""))), english_len.get(key.removeprefix("ui:"), 0))
                    ui_key = key.startswith("ui:") and key[3:] not in card_set.ui_ids  # else the set's own
                    table, k = (ui, key[3:]) if ui_key else (budgets, key.removeprefix("ui:"))
                    table[k] = min(table.get(k, n), n)
    return budgets, ui


def translation_domains(project) -> list[tuple[str, tuple, dict[str, int]]]:  # type: ignore[no-untyped-def]
    """Every catalog domain of a project: each set, then ``ui`` when the
    project keeps cardkit's own catalogs (the cardkit repository), with the
    strings and length budgets its template carries."""
    from cardkit.strings.localize import UI_DOMAIN, keeps_ui_catalogs, ui_strings

    out = []
    ui_budgets: dict[str, int] = {}
    for sid, ls in sorted(project.sets.items()):
        if ls.set is None:
            continue
        budgets, ui = length_budgets(project.root, ls.set)
        out.append((sid, ls.set.strings, budgets))
        for k, n in ui.items():
            ui_budgets[k] = min(ui_budgets.get(k, n), n)
    return out + ([(UI_DOMAIN, ui_strings(), ui_budgets)] if keeps_ui_catalogs(project.root) else [])
