"""Card files that are spreadsheets: ``.csv``, ``.xlsx`` and ``.ods``.

A set may list a workbook in ``set.yaml`` ``files:`` beside its YAML card
files.  Each sheet holds the cards of one kind (the sheet is named after the
kind's ``file_kind`` or the kind's name), or has a ``kind`` column naming the
kind of each row.  A ``.csv`` file is one sheet, named by its file stem.  Row 1
holds field names as ``kinds.yaml`` declares them; each further row is a card.
The column syntax (docs/authoring.md, "Cards in a spreadsheet"):

* ``name``: a field; the cell is the value, converted by the field's type
  (an integer field takes ``3`` or ``3.0``; a boolean ``TRUE``/``true``);
* ``name.text``, ``blips.left``: a key of a record (or of a plural text:
  ``text``, ``plural``, ``count``);
* ``needs[0]``, ``needs[1]``: the items of a list, in order, with no gaps;
* a cell of a list, record or effect field holds a YAML flow value
  (``[oar, lamp]``, ``{kind: draw, count: 2}``), read with cardkit's
  untrusting YAML reader.

An empty cell is an absent key (the field's default applies); a cell ``null``
of a ``nullable`` field is null.  Sheets whose name starts with ``_`` are notes
and are skipped.  Formulas are never evaluated: the value the spreadsheet
program saved with the file is what counts.  Translations never live here:
text cells are the English source strings, whose translations are in the
catalogs.

Reading produces :class:`SheetDoc` records, the sheet's twin of
:class:`~cardkit.load.yamlsafe.YamlDoc` (``{"kind": ..., "cards": [...]}`` and
a position for every value), so that the loader's schema validation, checks
and catalog extraction run unchanged; every issue and every catalog reference
names the cell, ``cards/x/ships.xlsx:ships!C4``.

Nothing is trusted: the file size, the zip's entries and their uncompressed
sizes are checked with :mod:`zipfile` before the workbook is opened (a zip bomb
is refused with one line); :mod:`cardkit.load.workbook` then checks the
workbook as python_calamine will read it (the format its suffix names, every
sheet it links to, strict cell references, declared counts, repeats, the cells
and text of the whole workbook) and runs the reader in a child process under a
memory cap, so a lone cell at ``XFD1048576`` or a lying shared-string count
cannot make it allocate gigabytes.
"""

from __future__ import annotations

import csv
import datetime as dt
import functools
import io
import math
import re
import zipfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from cardkit.errors import Issue, JsonPath
from cardkit.load.kinds import MAX_CARDS_LIMIT, FieldSpec, Kinds, KindSpec
from cardkit.load.workbook import MAX_COLUMNS, MAX_FILLED, MAX_ROWS, MAX_SHEETS, Refused, check_workbook, read_guarded
from cardkit.load.yamlsafe import YamlDoc, YamlError, parse_yaml

SHEET_SUFFIXES = (".csv", ".xlsx", ".ods")
MAX_FILE_BYTES = 16 << 20  # the workbook file itself
MAX_ZIP_ENTRIES = 256
MAX_UNCOMPRESSED = 64 << 20  # all entries together, as the zip declares them and as they inflate
MAX_CELL_CHARS = 10_000
MAX_FLOW_BYTES = 64 << 10  # a YAML flow value in one cell

Scalar = str | int | float | bool | None
LeafKind = Literal["str", "int", "bool", "flow", "scalar"]
_PATH = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*|\[\d{1,4}\])*")
_SEGMENT = re.compile(r"\.?([A-Za-z_][A-Za-z0-9_]*)|\[(\d{1,4})\]")
_INT = re.compile(r"[+-]?\d{1,100}")  # as text: an integer too long for a spreadsheet's number
ERROR_VALUE = re.compile(r"#(?:DIV/0!|N/A|NAME\?|NULL!|NUM!|REF!|VALUE!|GETTING_DATA)")
_PLAIN_NUMBER = re.compile(r"[+-]?\d+(?:\.\d+)?")
QUOTE = "'"


def quote_cell(text: str) -> str:
    """A text as ``cardkit export`` writes it in a cell: with a ``'`` before it
    when it starts with ``= + - @``, a tab, a CR or ``'`` itself, or reads as a
    spreadsheet error value (``#N/A``), so that no spreadsheet program takes it
    for a formula (OWASP's advice on CSV injection) and the reader, which takes
    one leading ``'`` off every text cell, gets the text back exactly.  A plain
    number (``-3``) carries no formula and stays as it is.

    >>> [quote_cell(t) for t in ("=HYPERLINK(1)", "-3", "'quoted", "#N/A", "plain")]
    ["'=HYPERLINK(1)", '-3', "''quoted", "'#N/A", 'plain']
    """
    if (text[:1] in ("=", "+", "-", "@", "\t", "\r", QUOTE) and not _PLAIN_NUMBER.fullmatch(text)) \
            or ERROR_VALUE.fullmatch(text.strip()):
        return QUOTE + text
    return text
_PLURAL_KEYS = ("text", "plural", "count")
_MISSING_KEY = re.compile(r"missing required key '([^']+)'")


class SheetError(Exception):
    """A workbook that cannot be read at all: one issue."""

    def __init__(self, issue: Issue) -> None:
        super().__init__(issue.format())
        self.issue = issue


def column_letters(col: int) -> str:
    """``0`` -> ``A``, ``25`` -> ``Z``, ``26`` -> ``AA``.

    >>> [column_letters(i) for i in (0, 25, 26, 701, 702)]
    ['A', 'Z', 'AA', 'ZZ', 'AAA']
    """
    out = ""
    col += 1
    while col:
        col, rem = divmod(col - 1, 26)
        out = chr(65 + rem) + out
    return out



@functools.lru_cache(maxsize=1024)
def _letters_of(col: int) -> str:
    return column_letters(col)


@dataclass(frozen=True)
class Table:
    """One sheet as read: its name (None for a CSV file) and its rows from A1,
    cell values as the file holds them (str, float, int, bool, dates)."""

    name: str | None
    rows: Sequence[Sequence[Any]]

    def cell(self, row: int, col: int) -> str:
        """The A1 name of a cell, with its sheet: ``ships!C4`` (0-based row and column)."""
        return f"{self._prefix}{_letters_of(col)}{row + 1}"

    @functools.cached_property
    def _prefix(self) -> str:
        if self.name is None:
            return ""
        name = self.name if re.fullmatch(r"[A-Za-z0-9_.-]+", self.name) else \
            "'" + escape_unprintable(self.name).replace("'", "''") + "'"
        return f"{name}!"


@dataclass
class SheetDoc(YamlDoc):
    """The cards of one kind read from a spreadsheet file: ``data`` is what a
    YAML card file would hold; ``cells`` names the cell of every value (its JSON
    path), so issues and catalog references point at ``file:Sheet!C4``.
    ``file`` is the key the loader files it under (the path, with ``#kind`` when
    one workbook holds several kinds); ``source`` the project-relative path."""

    source: str = ""
    cells: dict[JsonPath, str] = field(default_factory=dict)
    empty: dict[tuple[int, str], str] = field(default_factory=dict)  # (card index, field) -> its empty cell
    failed: bool = False  # a cell could not be read: the file fails, its other rows are still checked
    unread: set[JsonPath] = field(default_factory=set)  # the values of cells that could not be read

    def follow_on(self, issue: Issue) -> bool:
        """Whether a schema issue only repeats a cell problem already reported
        (the value of an unreadable cell is missing from the card)."""
        path = tuple(issue.path)
        if any(path[:len(u)] == u for u in self.unread):
            return True
        m = _MISSING_KEY.fullmatch(issue.message)
        return bool(issue.code == "S002" and m and path + (m.group(1),) in self.unread)

    def place(self, path: JsonPath, key: bool = False) -> tuple[str, int, int]:
        p = tuple(path)
        while p and p not in self.cells:
            p = p[:-1]
        cell = self.cells.get(p)
        return (f"{self.source}:{cell}" if cell else self.source, 0, 0)

    def issue(self, code: str, message: str, path: JsonPath = (), key: bool = False) -> Issue:
        where = tuple(path)
        m = _MISSING_KEY.fullmatch(message)
        if code == "S002" and m and len(where) == 2 and (where[1], m.group(1)) in self.empty:
            # a required field left empty: name its empty cell, not the row
            return Issue(code, message, file=f"{self.source}:{self.empty[(where[1], m.group(1))]}", path=where)  # type: ignore[index]
        file, _, _ = self.place(where, key)
        return Issue(code, message, file=file, path=where)


# ------------------------------------------------------------------ reading files

def _fail(code: str, message: str, file: str, cell: str = "") -> SheetError:
    return SheetError(Issue(code, message, file=f"{file}:{cell}" if cell else file))


def _read_bytes(path: Path, file: str, root: Path | None) -> bytes:
    """The workbook's bytes through the project's one door (:mod:`cardkit.load.files`):
    inside ``root``, a regular file, bounded."""
    from cardkit.errors import CardkitError
    from cardkit.load.files import read_project_file

    try:
        return read_project_file(path, file, root=root, max_bytes=MAX_FILE_BYTES, too_large="W002")
    except CardkitError as exc:
        raise SheetError(exc.issues[0]) from None


def check_zip(raw: bytes, file: str) -> zipfile.ZipFile:
    """The workbook's zip, once its entry count and sizes are within bounds:
    first as the central directory declares them, then as they really inflate
    (a header that lies is caught when the data runs past it)."""
    try:
        zf = zipfile.ZipFile(io.BytesIO(raw))
        infos = zf.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        raise _fail("W001", f"not a workbook: the file is not a valid zip archive ({exc})", file) from None
    if len(infos) > MAX_ZIP_ENTRIES:
        raise _fail("W002", f"the workbook's zip holds {len(infos)} entries; the limit is {MAX_ZIP_ENTRIES}", file)
    declared = sum(i.file_size for i in infos)
    if declared > MAX_UNCOMPRESSED:
        raise _fail("W002", f"the workbook unpacks to {declared} bytes; the limit is {MAX_UNCOMPRESSED} (a zip bomb?)", file)
    total = 0
    try:
        for info in infos:
            with zf.open(info) as fh:
                while chunk := fh.read(1 << 16):
                    total += len(chunk)
                    if total > MAX_UNCOMPRESSED:
                        raise _fail("W002", f"the workbook unpacks to more than {MAX_UNCOMPRESSED} bytes (a zip bomb?)", file)
    except SheetError:
        raise
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError, RuntimeError) as exc:
        raise _fail("W001", f"the workbook's zip is damaged or encrypted ({exc})", file) from None
    return zf


def too_many_cards(sheet: str | None, max_cards: int) -> str:
    """The refusal of a sheet holding more card rows than a file may hold: the words of the
    schema's ``S006`` for a YAML file of too many cards, so both say the same bound alike.

    >>> too_many_cards("ships", 500)
    "sheet 'ships': more than 500 cards in one file; at most 500: split the file"
    """
    where = f"sheet '{sheet}': " if sheet else ""
    return f"{where}more than {max_cards} cards in one file; at most {max_cards}: split the file"


def _filled(row: Sequence[Any]) -> bool:
    return any(v is not None and v != "" for v in row)


def read_tables(path: Path, file: str, root: Path | None = None, max_cards: int = MAX_CARDS_LIMIT) -> list[Table]:
    """Every sheet of a ``.csv``, ``.xlsx`` or ``.ods`` file, bounded; raise
    :class:`SheetError` for a file that cannot be read at all.  A workbook is
    checked as its reader will read it (:func:`cardkit.load.workbook.check_workbook`),
    then read under the memory guard (:func:`cardkit.load.workbook.read_guarded`).

    ``max_cards`` bounds the card rows (filled rows below the header) of one sheet: the loader
    passes the most its kinds allow in one file (``max_cards``, default
    :data:`~cardkit.load.kinds.MAX_CARDS`), so a sheet of too many is refused with the ``S006``
    line a YAML file of too many cards gets, however far over it is."""
    raw = _read_bytes(path, file, root)
    suffix = path.suffix.lower()
    max_cards = min(max_cards, MAX_CARDS_LIMIT)
    if suffix == ".csv":
        return [_read_csv(raw, file, path.stem, max_cards)]
    zf = check_zip(raw, file)
    try:
        check_workbook(zf, suffix)
        sheets = read_guarded(raw, MAX_ROWS)  # the whole grid check_workbook allows: nothing cut off unseen
    except Refused as exc:
        raise _fail(exc.code, exc.message, file) from None
    if len(sheets) > MAX_SHEETS:
        raise _fail("W002", f"the workbook holds {len(sheets)} sheets; the limit is {MAX_SHEETS}", file)
    for name, rows in sheets:
        if rows is not None and sum(1 for r in rows[1:] if _filled(r)) > max_cards:
            raise _fail("S006", too_many_cards(name, max_cards), file)
    return [Table(name, rows) for name, rows in sheets if rows is not None]


def _read_csv(raw: bytes, file: str, stem: str, max_cards: int = MAX_CARDS_LIMIT) -> Table:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise _fail("W001", f"a CSV file must be UTF-8; byte 0x{raw[exc.start]:02x} on line {line} is not", file) from None
    text = text.removeprefix("\ufeff")
    rows: list[list[str]] = []
    filled = 0
    cards = 0
    try:
        for row in csv.reader(io.StringIO(text, newline=""), strict=True):
            if rows and _filled(row):
                cards += 1
                if cards > max_cards:
                    raise _fail("S006", too_many_cards(None, max_cards), file)
            if len(rows) >= MAX_ROWS:  # blank lines between the cards, past the grid a workbook may have
                raise _fail("W002", f"more than {MAX_ROWS} rows; the limit is {MAX_ROWS}", file)
            if len(row) > MAX_COLUMNS:
                raise _fail("W002", f"row {len(rows) + 1} has {len(row)} columns; the limit is {MAX_COLUMNS}", file)
            filled += sum(1 for v in row if v)
            if filled > MAX_FILLED:
                raise _fail("W002", f"more than {MAX_FILLED} filled cells (at row {len(rows) + 1}); the limit is "
                                    f"{MAX_FILLED}", file)
            rows.append(row)
    except csv.Error as exc:
        raise _fail("W001", f"not a valid CSV file: {exc}", file) from None
    return Table(None, rows)


# ------------------------------------------------------------------ interpreting sheets

@dataclass(frozen=True)
class Column:
    """One header cell: its index, its text and its parsed path."""

    index: int
    text: str
    path: tuple[str | int, ...]


def parse_column(text: str) -> tuple[str | int, ...] | None:
    """``berths[0].label`` -> ``('berths', 0, 'label')``; None if not the syntax.

    >>> parse_column("berths[0].label"), parse_column("name"), parse_column("a..b")
    (('berths', 0, 'label'), ('name',), None)
    """
    if not _PATH.fullmatch(text):
        return None
    return tuple(int(m.group(2)) if m.group(2) is not None else m.group(1) for m in _SEGMENT.finditer(text))


_ID_SPEC = FieldSpec(type="label", where=())


def leaf_of(kind: KindSpec, path: tuple[str | int, ...]) -> tuple[LeafKind, FieldSpec | None] | str:
    """How a column's cells are read for ``kind``, or why the column does not apply."""
    top = path[0]
    if top == "id":
        return ("str", _ID_SPEC) if len(path) == 1 else "an id has no parts"
    spec = kind.fields.get(str(top))
    if spec is None:
        return f"unknown key '{top}'"
    for seg in path[1:]:
        if spec.type == "text" and isinstance(seg, str):
            if seg not in _PLURAL_KEYS:
                return f"a text has no part '{seg}' (a plural text has: {', '.join(_PLURAL_KEYS)})"
            return "str", None
        if spec.type == "record" and isinstance(seg, str):
            sub = spec.fields.get(seg)
            if sub is None:
                return f"unknown key '{seg}' in {'.'.join(map(str, path))} (allowed: {', '.join(spec.fields)})"
            spec = sub
        elif spec.type == "list" and isinstance(seg, int) and spec.items is not None:
            spec = spec.items
        elif spec.type == "icons" and isinstance(seg, int):
            return ("str" if all(isinstance(v, str) for v in spec.values) else "scalar"), None
        elif spec.type == "effects" and isinstance(seg, int):
            spec = FieldSpec(type="effect", where=())
        else:
            what = "an item number" if isinstance(seg, int) else f"a key '{seg}'"
            return f"a {spec.type} field has no {what}; write the value as a YAML flow value in one cell"
    return leaf_kind(spec), spec


def leaf_kind(spec: FieldSpec) -> LeafKind:
    """How one cell holds a value of field type ``spec``: ``str`` (text, label, ref, image, an
    enum of strings), ``int``, ``bool``, ``scalar`` (an enum of other values) or ``flow`` (anything
    else: a YAML flow value).  The reader and the writer (:mod:`cardkit.sheetio`) agree through it."""
    if spec.type in ("text", "label", "ref", "image"):
        return "str"
    if spec.type == "enum":
        return "str" if all(isinstance(v, str) for v in spec.values) else "scalar"
    if spec.type == "integer":
        return "int"
    if spec.type == "boolean":
        return "bool"
    return "flow"


def _number_text(value: float) -> str:
    return str(int(value)) if value.is_integer() else repr(value)


class _Reader:
    """Turn the tables of one file into a :class:`SheetDoc` per kind."""

    def __init__(self, file: str, kinds: Kinds) -> None:
        self.file = file
        self.kinds = kinds
        self.issues: list[Issue] = []
        self.docs: dict[str, SheetDoc] = {}  # file_kind -> doc
        self.leaves: dict[tuple[str, tuple[str | int, ...]], tuple[LeafKind, FieldSpec | None] | str] = {}
        # a sheet (or a kind cell) names a kind by file_kind or kind name, in any case: "Ships" is ships
        self.by_name = {**{k.name.lower(): k for k in kinds.kinds.values()},
                        **{fk.lower(): k for fk, k in kinds.by_file.items()}}

    def leaf(self, kind: KindSpec, path: tuple[str | int, ...]) -> tuple[LeafKind, FieldSpec | None] | str:
        """:func:`leaf_of`, once per kind and column (a sheet asks it for every cell)."""
        key = (kind.name, path)
        if key not in self.leaves:
            self.leaves[key] = leaf_of(kind, path)
        return self.leaves[key]

    def issue(self, code: str, message: str, table: Table, row: int, col: int) -> None:
        self.issues.append(Issue(code, message, file=f"{self.file}:{table.cell(row, col)}"))

    def doc(self, kind: KindSpec) -> SheetDoc:
        if kind.file_kind not in self.docs:
            self.docs[kind.file_kind] = SheetDoc(file=self.file, data={"kind": kind.file_kind, "cards": []},
                                                 source=self.file)
        return self.docs[kind.file_kind]

    def table(self, table: Table, stem: str) -> None:
        rows = table.rows
        header = list(rows[0]) if rows else []
        columns: list[Column] = []
        seen: dict[str, int] = {}
        width = max((len(r) for r in rows), default=0)
        for ci in range(width):
            raw = header[ci] if ci < len(header) else ""
            text = raw.strip() if isinstance(raw, str) else raw
            if text == "":
                if any(ci < len(r) and not _blank(r[ci]) for r in rows[1:]):
                    self.issue("W004", f"column {column_letters(ci)} holds values but its header cell is empty", table, 0, ci)
                continue
            if not isinstance(text, str) or (path := parse_column(text)) is None:
                self.issue("W004", f"header {_quote(text)} is not a field name (name, name.part or name[0])", table, 0, ci)
                continue
            if text in seen:
                self.issue("W004", f"column '{text}' appears twice (first in column {column_letters(seen[text])})", table, 0, ci)
                continue
            seen[text] = ci
            columns.append(Column(ci, text, path))
        kind_col = next((c for c in columns if c.path == ("kind",)), None)
        fixed = None if kind_col else self.by_name.get((table.name or stem).lower())
        if kind_col is None and fixed is None:
            self.issues.append(Issue("W005", f"sheet {_quote(table.name or stem)} is not a kind of the set "
                                             f"({', '.join(sorted(self.kinds.by_file))}) and has no 'kind' column; "
                                             "name it after a kind, or start its name with _ to keep notes",
                                     file=f"{self.file}:{table.cell(0, 0)}" if table.name else self.file))
            return
        data_columns = [c for c in columns if c is not kind_col]
        if fixed is not None:
            bad = set()
            for c in data_columns:
                how = self.leaf(fixed, c.path)
                if isinstance(how, str):
                    code = "S001" if how.startswith("unknown key") else "W004"
                    allowed = ", ".join(["id", *fixed.fields]) if code == "S001" and len(c.path) == 1 else ""
                    message = f"{how} (allowed here: {allowed})" if allowed else f"column '{c.text}': {how}"
                    self.issue(code, message, table, 0, c.index)
                    bad.add(c.index)
            data_columns = [c for c in data_columns if c.index not in bad]
        for ri in range(1, len(rows)):
            row = rows[ri]
            if all(_blank(v) for v in row):
                continue
            kind = fixed
            if kind_col is not None:
                value = row[kind_col.index] if kind_col.index < len(row) else ""
                if _blank(value):
                    self.issue("S002", "missing required key 'kind'", table, ri, kind_col.index)
                    continue
                kind = self.by_name.get(str(value).strip().lower())
                if kind is None:
                    self.issue("S004", f"'kind' must be one of: {', '.join(sorted(self.kinds.by_file))} (found {_quote(value)})",
                               table, ri, kind_col.index)
                    continue
            assert kind is not None
            self.card(table, ri, row, kind, data_columns, check_columns=kind_col is not None)

    def card(self, table: Table, ri: int, row: Sequence[Any], kind: KindSpec, columns: list[Column],
             check_columns: bool) -> None:
        doc = self.doc(kind)
        cards = doc.data["cards"]
        index = len(cards)
        base: JsonPath = ("cards", index)
        values: list[tuple[tuple[str | int, ...], Any, int]] = []
        ok = True
        for c in columns:
            raw = row[c.index] if c.index < len(row) else ""
            if _blank(raw) and not check_columns:
                if len(c.path) == 1:
                    doc.empty[(index, str(c.path[0]))] = table.cell(ri, c.index)
                continue
            how = self.leaf(kind, c.path)
            if isinstance(how, str):
                if check_columns and not _blank(raw):
                    code = "S001" if how.startswith("unknown key") else "W004"
                    self.issue(code, f"column '{c.text}' does not apply to a {kind.name} card: {how}", table, ri, c.index)
                    ok = False
                continue
            if _blank(raw):
                if len(c.path) == 1:
                    doc.empty[(index, str(c.path[0]))] = table.cell(ri, c.index)
                continue
            leaf, spec = how
            try:
                value = self.convert(raw, leaf, spec, table, ri, c.index)
            except _CellError as exc:
                self.issue(exc.code, exc.message, table, ri, c.index)
                doc.unread.add(base + c.path[:1])
                ok = False
                continue
            values.append((c.path, value, c.index))
        card: dict[str, Any] = {}
        id_col = next((c.index for c in columns if c.path == ("id",)), columns[0].index if columns else 0)
        doc.cells[base] = table.cell(ri, id_col)
        doc.marks[base] = (ri + 1, id_col + 1)
        for path, value, col in values:
            problem = _insert(card, path, value)
            if problem:
                self.issue("W007", problem, table, ri, col)
                doc.unread.add(base + path[:1])
                ok = False
                continue
            for n in range(1, len(path) + 1):
                doc.cells.setdefault(base + path[:n], table.cell(ri, col))
                doc.marks.setdefault(base + path[:n], (ri + 1, col + 1))
        for where, problem in _lists(card):
            self.issues.append(Issue("W007", problem, file=doc.place(base + where)[0]))
            doc.unread.add(base + where[:1])
            ok = False
        cards.append(card)  # a card with a bad cell keeps its place, so later rows keep their numbers
        if not ok:
            doc.failed = True

    def convert(self, raw: Any, leaf: LeafKind, spec: FieldSpec | None, table: Table, ri: int, ci: int) -> Any:
        quoted = isinstance(raw, str) and raw.startswith(QUOTE)
        if quoted:
            raw = raw[1:]  # a text written with a leading ' (quote_cell): exactly what follows, never an error value
        if isinstance(raw, str) and len(raw) > MAX_CELL_CHARS:
            raise _CellError("W003", f"a cell of {len(raw)} characters; the limit is {MAX_CELL_CHARS}")
        if isinstance(raw, (dt.date, dt.time, dt.datetime, dt.timedelta)):
            raw = raw.isoformat() if not isinstance(raw, dt.timedelta) else str(raw)
        if isinstance(raw, float) and not math.isfinite(raw):
            raise _CellError("W008", "a cell holds a number that is not finite")
        if not quoted and isinstance(raw, str) and ERROR_VALUE.fullmatch(raw.strip()):
            raise _CellError("W008", f"a cell holds the spreadsheet error {raw.strip()} (its formula failed)")
        if spec is not None and spec.nullable and raw == "null" and leaf != "flow":
            return None
        if leaf == "str":
            if isinstance(raw, bool):
                return "true" if raw else "false"
            if isinstance(raw, float):
                return _number_text(raw)
            return raw if isinstance(raw, str) else str(raw)
        if leaf == "int":
            if isinstance(raw, float) and raw.is_integer():
                return int(raw)
            if isinstance(raw, str) and _INT.fullmatch(raw.strip()):
                return int(raw.strip())
            return raw  # the schema says what it should be
        if leaf == "bool":
            if isinstance(raw, str) and raw.strip().lower() in ("true", "false"):
                return raw.strip().lower() == "true"
            return raw
        if leaf == "scalar":
            if isinstance(raw, float) and raw.is_integer():
                return int(raw)
            if isinstance(raw, str):
                return self.flow(raw)
            return raw
        # a list, record or effect: a YAML flow value
        if isinstance(raw, float) and raw.is_integer():
            return int(raw)
        if not isinstance(raw, str):
            return raw
        return self.flow(raw)

    def flow(self, text: str) -> Any:
        if len(text.encode("utf-8")) > MAX_FLOW_BYTES:
            raise _CellError("W003", f"a YAML value of more than {MAX_FLOW_BYTES} bytes in one cell")
        try:
            return parse_yaml(text, "cell").data
        except YamlError as exc:
            msg = exc.issue.message
            raise _CellError("W006", f"the cell is not a YAML flow value ({exc.issue.code}: {msg}, at "
                                     f"character {exc.issue.column} of line {exc.issue.line})") from None


class _CellError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and value == "")


def escape_unprintable(text: str) -> str:
    """``text`` with every character a terminal could act on written as an escape
    (``\\x1b``, ``\\u202e``): a sheet name or header quoted in a message
    cannot move the cursor, recolour the terminal or reorder the line.

    >>> escape_unprintable("ships\\x1b[2J\\u202e")
    'ships\\\\x1b[2J\\\\u202e'
    """
    if text.isprintable():
        return text
    out = []
    for ch in text:
        if ch.isprintable():
            out.append(ch)
        elif ord(ch) < 0x100:
            out.append(f"\\x{ord(ch):02x}")
        elif ord(ch) < 0x10000:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(f"\\U{ord(ch):08x}")
    return "".join(out)


def _quote(value: Any) -> str:
    text = repr(value) if not isinstance(value, str) else f"'{escape_unprintable(value)}'"
    return text if len(text) <= 42 else text[:40] + "...'"


class _Items(dict[int, Any]):
    """A list being built from indexed columns."""


def _insert(card: dict[str, Any], path: tuple[str | int, ...], value: Any) -> str | None:
    node: Any = card
    for i, seg in enumerate(path):
        last = i == len(path) - 1
        nxt = path[i + 1] if not last else None
        if last:
            if seg in node:
                return f"'{dotted(path)}' is given both whole and in parts"
            node[seg] = value
            return None
        child = node.get(seg)
        if child is None and seg not in node:
            child = _Items() if isinstance(nxt, int) else {}
            node[seg] = child
        elif isinstance(nxt, int) != isinstance(child, _Items) or not isinstance(child, dict):
            return f"'{dotted(path[:i + 1])}' is given both whole and in parts"
        node = child
    return None  # pragma: no cover - the loop returns


def dotted(path: Sequence[str | int]) -> str:
    """A field path as a column heading names it: ``("a", 0, "b")`` -> ``a[0].b``.

    >>> dotted(("objectives", 1, "label"))
    'objectives[1].label'
    """
    return "".join(f"[{s}]" if isinstance(s, int) else (f".{s}" if i else s) for i, s in enumerate(path))


def _lists(node: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[tuple[str | int, ...], str]]:
    """Turn the ``_Items`` of indexed columns into lists, in place; yield the
    path and message of each gap (the items are kept in order all the same)."""
    items = node.items() if isinstance(node, dict) else []
    for key, child in list(items):
        if isinstance(child, _Items):
            order = sorted(child)
            if order != list(range(len(child))):
                gap = next(i for i in range(order[-1] + 1) if i not in child)
                after = next(i for i in order if i > gap)
                message = (f"'{dotted(path + (key, after))}' is filled but '{dotted(path + (key, gap))}' "
                           "is empty: list items run from [0] without gaps")
                yield path + (key, after), message
            node[key] = [child[i] for i in order]
            for j, sub in enumerate(node[key]):
                if isinstance(sub, dict):
                    yield from _lists(sub, path + (key, order[j]))
        elif isinstance(child, dict):
            yield from _lists(child, path + (key,))


def read_sheet_file(path: Path, file: str, kinds: Kinds, root: Path | None = None) -> tuple[list[SheetDoc], list[Issue]]:
    """The cards of a spreadsheet card file, one :class:`SheetDoc` per kind it
    holds, and every problem found (cell-located).  A doc with problems is
    still returned with ``failed`` set, so its other rows are checked too."""
    try:
        # a sheet holds at most the cards its kinds allow in one file (the schema's bound, S006 alike)
        tables = read_tables(path, file, root, max((k.max_cards for k in kinds.kinds.values()), default=MAX_CARDS_LIMIT))
    except SheetError as exc:
        return [], [exc.issue]
    reader = _Reader(file, kinds)
    for table in tables:
        reader.table(table, path.stem)
    docs = list(reader.docs.values())
    if len(docs) > 1:
        for d in docs:
            d.file = f"{file}#{d.data['kind']}"
    return docs, reader.issues


def is_sheet(name: str) -> bool:
    return name.lower().endswith(SHEET_SUFFIXES)
