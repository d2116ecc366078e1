"""Fuzzing the spreadsheet reader and the export/import writers (issue 29, point 8).

1. Workbook structure: the example game's ships, exported by ``cardkit
   export`` as ``.xlsx`` and ``.ods``, then mutated as an attacker would: a zip
   member dropped, renamed or cut; an XML attribute (cell and row references,
   dimensions, counts, repeats, relationship targets) given another value; an
   element repeated.  Whatever the workbook, reading it as a card file ends
   with cards or one-line issues, never an exception, within a time bound.
2. Round trips: generated cards (texts with leading ``= + - @ '``, error
   values, line ends, tabs, odd unicode; integers past 2^53; lists, flow
   values, booleans) written by the export writers in each format and read back
   by the reader give exactly the same cards.

``CARDKIT_FUZZ_EXAMPLES`` sets the number of examples of each (default 30:
well under a minute here); docs/errors.md records a longer run.
"""

from __future__ import annotations

import io
import os
import re
import time
import zipfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from cardkit.load.project import load_project
from cardkit.load.sheets import read_sheet_file
from cardkit.sheetio import _zip, kind_sheet, one_sheet, set_sheets, sheet_values, write_csv, write_ods, write_xlsx
from tests.conftest import REPO

EXAMPLES = int(os.environ.get("CARDKIT_FUZZ_EXAMPLES", "30"))
EXAMPLE = REPO / "examples" / "tidelights"
_LOADED = load_project(EXAMPLE).sets["tidelights"]
KINDS = _LOADED.kinds
SEEDS = {"xlsx": write_xlsx(set_sheets(_LOADED, xml=True)), "ods": write_ods(set_sheets(_LOADED, xml=True))}
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, derandomize=False,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                           HealthCheck.data_too_large])
ATTRIBUTE = re.compile(rb'(\s[\w:]+=")([^"]*)(")')

ODD_VALUES = st.one_of(
    st.sampled_from([b"iv400000", b"A1:XFD1048576", b"XFD1048576", b"A99999999", b"4000000000", b"0", b"-1", b"1e9",
                     b"", b"A1", b"IV5001", b"IW1", b"$A$1", b"../../etc/passwd", b"/xl/worksheets/sheet1.xml",
                     b"worksheets/sheet2.xml", b"s", b"inlineStr", b"e", b"1048576", b"99999999999999999999", b"&#65;1"]),
    st.integers(-10, 10**12).map(lambda n: str(n).encode()),
    st.binary(max_size=12).map(lambda b: re.sub(rb'[<&"\x00-\x1f\x80-\xff]', b"x", b)),
)


def _mutate(raw: bytes, draw: st.DrawFn) -> bytes:
    src = zipfile.ZipFile(io.BytesIO(raw))
    entries = [(i.filename, src.read(i), i.compress_type) for i in src.infolist()]
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(entries) - 1))
        name, data, method = entries[at]
        action = draw(st.sampled_from(["attribute", "attribute", "attribute", "repeat", "drop", "rename", "cut"]))
        found = list(ATTRIBUTE.finditer(data))
        if action == "attribute" and found:
            m = draw(st.sampled_from(found))
            data = data[:m.start(2)] + draw(ODD_VALUES) + data[m.end(2):]
        elif action == "repeat":
            elements = list(re.finditer(rb"<(?:c|row|si|table:table-row|table:table-cell)\b[^>]*?(?:/>|>.*?</(?:c|row|si|"
                                        rb"table:table-row|table:table-cell)>)", data, re.S))
            if elements:
                m = draw(st.sampled_from(elements))
                data = data[:m.end()] + m.group() * draw(st.integers(1, 400)) + data[m.end():]
        elif action == "drop":
            entries.pop(at)
            continue
        elif action == "rename":
            name = draw(st.sampled_from(["xl/elsewhere/data.xml", "content.xml", "mimetype", "xl/workbook.xml",
                                         "xl/sharedStrings.xml", "xl/worksheets/sheet9.xml", name.upper()]))
        elif action == "cut":
            data = data[:draw(st.integers(0, max(0, len(data) - 1)))]
        entries[at] = (name, data, method)
    seen: set[str] = set()
    unique = [(n, d, m) for n, d, m in entries if not (n in seen or seen.add(n))]  # type: ignore[func-returns-value]
    return _zip(unique)


def test_a_mutated_workbook_gives_cards_or_one_line_issues(tmp_path: Path):
    @SETTINGS
    @given(st.sampled_from(["xlsx", "ods"]), st.sampled_from(["xlsx", "ods"]), st.data())
    def check(seed: str, suffix: str, data: st.DataObject) -> None:
        raw = _mutate(SEEDS[seed], data.draw)
        path = tmp_path / f"ships.{suffix}"
        path.write_bytes(raw)
        t0 = time.perf_counter()
        docs, issues = read_sheet_file(path, f"cards/x/ships.{suffix}", KINDS)
        assert time.perf_counter() - t0 < 30
        for issue in issues:
            line = issue.format()
            assert line.startswith(f"cards/x/ships.{suffix}") and "\n" not in line and len(line) < 400, line
            assert all(ch.isprintable() for ch in line), line

    check()


TEXT = st.one_of(
    st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00\x0b\x0c\ufffe\uffff"
                          + "".join(chr(c) for c in range(1, 32) if chr(c) not in "\t\n\r")), min_size=1, max_size=40),
    st.sampled_from(["=1+1", "+x", "-y", "@SUM(A1)", "'quoted", "''", "'", "#N/A", " #REF! ", "\ttab", "\rcr", "a\r\nb",
                     "null", "true", "3", "-3", "1e5", "[not, a, list]", "{a: 1}", "  two  spaces  ", "x\n\ny", "\u202e"]),
).filter(lambda t: t.strip(" ") != "" or "\t" in t or "\n" in t or "\r" in t)
INT = st.one_of(st.integers(-10, 10), st.integers(-(10**25), 10**25))


@st.composite
def ship_cards(draw: st.DrawFn) -> list[dict]:
    n = draw(st.integers(1, 6))
    cards = []
    for i in range(n):
        card: dict = {"id": f"ship_{i}", "name": draw(TEXT), "registry": draw(TEXT), "rig": draw(st.sampled_from(["skiff", "ketch", "brig"])),
                      "needs": draw(st.lists(st.sampled_from(["lamp", "rope", "bell", "oar"]), min_size=1, max_size=4)),
                      "cargo": draw(INT)}
        if draw(st.booleans()):
            card["final"] = draw(st.booleans())
        if draw(st.booleans()):
            card["text"] = draw(TEXT)
        card["art"] = draw(TEXT)
        cards.append(card)
    return cards


def test_export_then_import_is_the_identity_on_generated_cards(tmp_path: Path):
    kind = KINDS.by_file["ships"]

    @SETTINGS
    @given(ship_cards(), st.sampled_from(["xlsx", "ods", "csv", "one.csv"]))
    def check(cards: list[dict], fmt: str) -> None:
        sheet, issues = kind_sheet(kind, cards, ["ships.yaml"] * len(cards), xml=fmt in ("xlsx", "ods"))
        assert issues == []
        path = tmp_path / ("ships." + fmt if fmt != "one.csv" else "one.csv")
        writer = {"xlsx": lambda: write_xlsx([sheet]), "ods": lambda: write_ods([sheet]), "csv": lambda: write_csv(sheet),
                  "one.csv": lambda: write_csv(one_sheet([sheet]))}[fmt]
        path.write_bytes(writer())
        assert sheet_values(path, path.name, KINDS) == {"ships": cards}

    check()
