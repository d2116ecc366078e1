"""Inserts mode: text-only overlays for owners of the published cards.

Each insert is a card-sized slip carrying only the translated text of the
card, placed in exactly the boxes the card layout uses, in black on white, to
slip into a sleeve in front of the printed card.  The texts are the very
``FieldFit`` ops of the card faces, so inserts and cards can never disagree.
"""

from __future__ import annotations

from dataclasses import replace

from cardkit.layout.compose import INK, Face, PrintItem
from cardkit.layout.ops import Icon, Op, Rect, Text


def insert_face(face: Face) -> Face | None:
    ops: list[Op] = [Rect(-20, -20, face.template.width + 40, face.template.height + 40, fill="#ffffff"),
                     Rect(0, 0, face.template.width, face.template.height, stroke="#9a9a9a", lw=0.3)]
    texts = 0
    for f in face.fits:
        if f.key.startswith("ui:"):
            continue  # labels such as card types are printed on the published card already
        for op in f.ops:
            if isinstance(op, Text):
                ops.append(replace(op, colour=INK))
                texts += 1
            elif isinstance(op, Icon):
                ops.append(replace(op, colour=INK))
    if not texts:
        return None
    return Face(f"insert:{face.id}", face.card, face.template, ops, list(face.fits), "#ffffff")


def insert_items(items: list[PrintItem]) -> list[PrintItem]:
    """One insert per physical card face that carries translated text."""
    out = []
    for it in items:
        texts_seen: set[tuple[str, ...]] = set()
        for face in (it.front, it.back if it.back is not None and it.back.id.split(":")[0] == it.front.card else None):
            if face is None:
                continue
            ins = insert_face(face)
            if ins is None:
                continue
            texts = tuple(op.text for op in ins.ops if isinstance(op, Text))
            if texts in texts_seen:  # the two sides of a double-faced card carry the same words
                continue
            texts_seen.add(texts)
            out.append(PrintItem(ins, None, it.deck))
    return out
