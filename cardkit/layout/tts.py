"""A Tabletop Simulator saved object: every deck sheet of a ``build tts`` run
as one custom deck, ready for TTS's Saved Objects folder.

Plumbing: pure values in, a JSON-ready dict out; :func:`cardkit.printing.build_tts`
writes the images and this file beside them.

The structure is TTS's save format (the Knowledge Base's "Save File Format"
page, its serialized classes ``SaveState``, ``ObjectState``,
``CustomDeckState``; the sources are listed in
``tests/print/schemas/tts_saved_object.schema.json``, which a test reads the
output back against): a saved object is a save file whose ``ObjectStates``
hold the objects; a custom deck is an object named ``DeckCustom`` with
``DeckIDs`` (the ``CardID`` of each card, in the order of its
``ContainedObjects``) and a ``CustomDeck`` table whose key is the deck's
number and whose value names the face sheet (``FaceURL``), the back
(``BackURL``), the sheet's grid (``NumWidth`` x ``NumHeight``), whether each
card has its own back (``UniqueBack``: the back image is then a sheet of the
same grid) and ``BackIsHidden`` (a hidden card shows its back; without it TTS
takes the sheet's last image for that, so a full 10 x 7 sheet needs it); each
card (``ContainedObjects``) is a ``Card`` with ``CardID`` = deck number x 100 +
its place on the sheet ("the hundreth place of the id").  A one-card "deck" is
a lone ``Card`` (TTS has no deck of one).

>>> deck = TtsDeck("Heroes", "file:///t/h-1.png", "file:///t/h-back.png", False, 2, 1, ("Ada", "Ben"))
>>> obj = saved_object("My game", [deck])
>>> state = obj["ObjectStates"][0]
>>> state["Name"], state["DeckIDs"], state["CustomDeck"]["1"]["NumWidth"]
('DeckCustom', [100, 101], 2)
>>> [c["Nickname"] for c in state["ContainedObjects"]]
['Ada', 'Ben']
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

CARDS_PER_DECK_ID = 100  # CardID = deck number x 100 + the card's place on its sheet
DECK_SPACING = 2.5  # table units between two decks laid out in a row


@dataclass(frozen=True)
class TtsDeck:
    """One deck sheet: its images (URLs, file:/// for local files), its grid
    and the names of its cards in sheet order (row by row)."""

    nickname: str
    face_url: str
    back_url: str
    unique_back: bool  # the back image is a sheet of the same grid, a back per card
    cols: int
    rows: int
    names: tuple[str, ...]


def unique_names(names: Sequence[str]) -> list[str]:
    """Each name once: a second copy of ``Ada`` is ``Ada (2)``.

    >>> unique_names(["A", "B", "A", "A"])
    ['A', 'B', 'A (2)', 'A (3)']
    """
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name} ({seen[name]})")
    return out


def _guid(*parts: object) -> str:
    """A stable six-hex-digit GUID (TTS writes six hex digits) from the object's identity."""
    return hashlib.sha1("\x1f".join(map(str, parts)).encode("utf-8")).hexdigest()[:6]


def _transform(x: float) -> dict[str, float]:
    # face down (rotZ 180), as a deck lies on the table
    return {"posX": x, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}


def _card(name: str, card_id: int, custom: dict[str, Any], x: float, guid: str) -> dict[str, Any]:
    return {"Name": "Card", "Transform": _transform(x), "Nickname": name, "Description": "", "CardID": card_id,
            "SidewaysCard": False, "CustomDeck": custom, "GUID": guid}


def saved_object(title: str, decks: Sequence[TtsDeck]) -> dict[str, Any]:
    """The saved-object file's content: one custom deck (or lone card) per sheet, laid out in a row."""
    states = []
    for n, deck in enumerate(decks, 1):
        custom = {str(n): {"FaceURL": deck.face_url, "BackURL": deck.back_url, "NumWidth": deck.cols,
                           "NumHeight": deck.rows, "BackIsHidden": True, "UniqueBack": deck.unique_back, "Type": 0}}
        x = (n - 1) * DECK_SPACING
        ids = [n * CARDS_PER_DECK_ID + i for i in range(len(deck.names))]
        cards = [_card(name, cid, custom, x, _guid(title, n, cid)) for name, cid in zip(deck.names, ids)]
        if len(cards) == 1:
            states.append(cards[0])
            continue
        states.append({"Name": "DeckCustom", "Transform": _transform(x), "Nickname": deck.nickname, "Description": "",
                       "Locked": False, "Grid": True, "Snap": True, "Autoraise": True, "Sticky": True,
                       "Tooltip": True, "HideWhenFaceDown": True, "Hands": False, "SidewaysCard": False,
                       "DeckIDs": ids, "CustomDeck": custom, "ContainedObjects": cards, "GUID": _guid(title, n)})
    return {"SaveName": title, "GameMode": "", "Date": "", "Table": "", "Sky": "", "Note": "", "Rules": "",
            "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "ObjectStates": states, "TabStates": {},
            "VersionNumber": ""}
