"""A workbook checked as its reader will read it, then read under a memory guard.

:mod:`cardkit.load.sheets` reads ``.xlsx`` and ``.ods`` card files with
python-calamine, which builds every sheet as a dense grid from A1 to its last
cell, copies a shared string into every cell that shows it, expands ODS
repeats, and sizes its tables by what the file declares.  Before it runs,
:func:`check_workbook` walks the same parts of the zip that it will read and
refuses, with one ``W0xx`` problem, anything that would make it allocate more
than a legal card file needs:

* the format is fixed by the suffix: an ``.xlsx`` must be an Office Open XML
  workbook (``xl/workbook.xml``), an ``.ods`` an OpenDocument spreadsheet
  (``mimetype`` and ``content.xml``); content of the other kind is refused, so
  the reader never guesses;
* every sheet the workbook links to (``xl/workbook.xml`` through
  ``xl/_rels/workbook.xml.rels``, wherever the part is stored, and anything
  under ``xl/worksheets/``), every sheet of ``content.xml``;
* cell references strictly in ``A1`` form (capitals, no ``$``, no leading
  zero), within :data:`MAX_ROWS` rows and :data:`MAX_COLUMNS` columns; the
  ``<dimension>`` the sheet declares, likewise;
* ``uniqueCount`` and ``count`` of the shared strings: numbers, bounded, and
  ``uniqueCount`` no more than the strings the table really holds;
* ODS ``number-rows-repeated`` / ``number-columns-repeated`` and ``text:s``
  counts: numbers, multiplied out;
* over the whole workbook, the cells of the grids the reader will build
  (:data:`MAX_AREA`), the cells that hold something (:data:`MAX_FILLED`) and
  the characters of text they hold once every shared string and repeat is
  copied out (:data:`MAX_TEXT`).

The limits are chosen so that a workbook at every one of them validates in
a few seconds and a few hundred megabytes (``python bench/bench_sheets.py``).

The pre-check is the first line of defence; :func:`read_guarded` is the
second.  The reader runs in a child process (the same interpreter, isolated
mode, no project code on its path) whose address space is capped at
:data:`READER_MEMORY` above what it uses at start, with a time limit: a
reader that still runs out of memory fails in the child (an allocation
failure in Rust aborts the process it is in), and cardkit reports one
``W002`` line instead of dying.  Where the cap cannot be set (not Linux), the
reader runs in the process, behind the pre-check alone.
"""

from __future__ import annotations

import io
import pickle
import posixpath
import re
import subprocess
import sys
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any
from xml.parsers import expat

from cardkit.load.kinds import MAX_CARDS_LIMIT

MAX_SHEETS = 64
MAX_ROWS = 1 + MAX_CARDS_LIMIT  # the header row and the most cards a file may hold (cardkit.load.kinds)
MAX_COLUMNS = 256
MAX_AREA = MAX_ROWS * MAX_COLUMNS  # cells of the dense grids of all sheets together (rows x columns each)
MAX_FILLED = 100_000  # cells holding something, all sheets together (5000 cards of 20 fields)
MAX_TEXT = 16 << 20  # characters of text in all cells, every shared string and repeat copied out
READER_MEMORY = 768 << 20  # address space the reader may add to its child process
READER_SECONDS = 60.0

ODS_MIMETYPE = b"application/vnd.oasis.opendocument.spreadsheet"
_REF = re.compile(r"([A-Z]{1,3})([1-9][0-9]{0,6})")
_NUMBER = re.compile(r"[0-9]{1,12}")
_COUNT = re.compile(r"[1-9][0-9]{0,11}")


class Refused(Exception):
    """The workbook is refused: one code and message (the caller adds the file)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


def column_number(letters: str) -> int:
    """``A`` -> 1, ``IV`` -> 256, ``XFD`` -> 16384.

    >>> [column_number(s) for s in ("A", "Z", "AA", "IV", "XFD")]
    [1, 26, 27, 256, 16384]
    """
    n = 0
    for ch in letters:
        n = n * 26 + (ord(ch) - 64)
    return n


def _letters(col: int) -> str:
    out = ""
    while col:
        col, rem = divmod(col - 1, 26)
        out = chr(65 + rem) + out
    return out


_COLUMNS = {_letters(c): c for c in range(1, MAX_COLUMNS + 1)}
_BOUNDS = f"within column {_letters(MAX_COLUMNS)} and row {MAX_ROWS}"


def _shown(text: str) -> str:
    """An attribute value as a message shows it: at most 24 characters, control
    characters escaped (the message goes to a terminal)."""
    cut = text[:24]
    return "".join(ch if ch.isprintable() else f"\\x{ord(ch):02x}" if ord(ch) < 256 else f"\\u{ord(ch):04x}" for ch in cut) + (
        "..." if len(text) > 24 else "")


def cell_ref(text: str, what: str = "cell reference") -> tuple[int, int]:
    """The (row, column) of a strict ``A1`` reference within the bounds, 1-based;
    :class:`Refused` otherwise.

    >>> cell_ref("IV5001")
    (5001, 256)
    """
    m = _REF.fullmatch(text)
    col = _COLUMNS.get(m.group(1)) if m else None
    if m is None or col is None or int(m.group(2)) > MAX_ROWS:
        raise Refused("W002", f"{what} '{_shown(text)}' is not an A1 reference {_BOUNDS} "
                              "(cardkit reads references in capitals, like A1)")
    return int(m.group(2)), col


_LOCALS: dict[str, str] = {}  # "namespace local" -> local (few distinct names: a cache)


def _local(name: str) -> str:
    local = _LOCALS.get(name)
    if local is None:
        local = _LOCALS[name] = name.rsplit(" ", 1)[-1]
    return local


def _attr(attrs: dict[str, str], local: str) -> str | None:
    """The value of the attribute named ``local`` in any namespace; a name given
    twice (in two namespaces) is refused, since a reader may take either."""
    found = None
    for key, value in attrs.items():
        if key == local or _local(key) == local:
            if found is not None:
                raise Refused("W001", f"an element carries the attribute '{local}' twice, in two namespaces")
            found = value
    return found


def _parse(data: bytes, what: str, start: Callable[[str, dict[str, str]], None],
           end: Callable[[str], None] | None = None, chars: Callable[[str], None] | None = None) -> None:
    """Stream ``data`` through expat (no DTD, no entities, ever)."""
    if b"<!DOCTYPE" in data or b"<!ENTITY" in data:
        raise Refused("W001", f"the workbook's {what} declares a DOCTYPE or entities")
    parser = expat.ParserCreate(namespace_separator=" ")
    parser.buffer_text = True

    def no_dtd(*_: object) -> None:
        raise Refused("W001", f"the workbook's {what} declares a DOCTYPE or entities")

    parser.StartDoctypeDeclHandler = no_dtd
    parser.EntityDeclHandler = no_dtd
    parser.StartElementHandler = start
    if end is not None:
        parser.EndElementHandler = end
    if chars is not None:
        parser.CharacterDataHandler = chars
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        raise Refused("W001", f"the workbook's {what} is not well-formed XML ({exc})") from None


@dataclass
class _Totals:
    """What the reader will build, summed over the workbook."""

    area: int = 0
    filled: int = 0
    text: int = 0

    def add(self, area: int = 0, filled: int = 0, text: int = 0, sheet: str = "") -> None:
        self.area += area
        self.filled += filled
        self.text += text
        where = f"sheet {sheet}: " if sheet else ""
        if self.area > MAX_AREA:
            raise Refused("W002", f"{where}the sheets span {self.area} cells (rows x columns, from A1 to each sheet's last "
                                  f"cell); the limit is {MAX_AREA} for a workbook")
        if self.filled > MAX_FILLED:
            raise Refused("W002", f"{where}the workbook holds more than {MAX_FILLED} filled cells, the limit "
                                  f"({self.filled} so far, repeats counted)")
        if self.text > MAX_TEXT:
            raise Refused("W002", f"{where}the cells hold more than {MAX_TEXT} characters of text, the limit "
                                  "(every shared string and repeat counted where it shows)")


def check_workbook(zf: zipfile.ZipFile, suffix: str) -> None:
    """Refuse a workbook the reader would read as something else, or would
    build larger than the bounds (:class:`Refused`).  ``suffix`` is ``.xlsx``
    or ``.ods``."""
    names = set(zf.namelist())
    xlsx_marks = sorted(n for n in ("xl/workbook.xml", "xl/workbook.bin", "[Content_Types].xml") if n in names)
    ods_marks = sorted(n for n in ("content.xml", "mimetype") if n in names)
    if suffix == ".xlsx":
        if ods_marks and "xl/workbook.xml" not in names:
            raise Refused("W001", "the file is named .xlsx but holds an OpenDocument spreadsheet "
                                  f"({', '.join(ods_marks)}); name it .ods")
        if ods_marks or "xl/workbook.bin" in names:
            raise Refused("W001", "the file is named .xlsx but also holds the parts of another format "
                                  f"({', '.join(ods_marks + (['xl/workbook.bin'] if 'xl/workbook.bin' in names else []))})")
        if "xl/workbook.xml" not in names:
            raise Refused("W001", "not an .xlsx workbook: the zip has no xl/workbook.xml")
        _check_xlsx(zf, names)
    else:
        if xlsx_marks:
            raise Refused("W001", "the file is named .ods but holds the parts of an Office Open XML workbook "
                                  f"({', '.join(xlsx_marks)}); name it .xlsx")
        if "content.xml" not in names or "mimetype" not in names:
            raise Refused("W001", "not an OpenDocument spreadsheet: the zip has no "
                                  + " and no ".join(n for n in ("mimetype", "content.xml") if n not in names))
        if zf.read("mimetype").strip() != ODS_MIMETYPE:
            raise Refused("W001", f"not an OpenDocument spreadsheet: its mimetype is not {ODS_MIMETYPE.decode()}")
        _check_ods(zf.read("content.xml"))


# ------------------------------------------------------------------ xlsx

def _targets(target: str) -> set[str]:
    """Every zip member a relationship target may name, however a reader resolves
    it (absolute, relative to ``xl/``, or taken as given)."""
    target = target.replace("\\", "/")
    out = {posixpath.normpath(target.lstrip("/")), posixpath.normpath(posixpath.join("xl", target.lstrip("/"))),
           target.lstrip("/"), target}
    return {t for t in out if t and t != "."}


def _check_xlsx(zf: zipfile.ZipFile, names: set[str]) -> None:
    sheets: list[tuple[str, str | None]] = []  # (name, relationship id)

    def workbook_start(name: str, attrs: dict[str, str]) -> None:
        if _local(name) == "sheet":
            sheets.append((_attr(attrs, "name") or "", _attr(attrs, "id")))
            if len(sheets) > MAX_SHEETS:
                raise Refused("W002", f"the workbook holds more than {MAX_SHEETS} sheets, the limit")

    _parse(zf.read("xl/workbook.xml"), "xl/workbook.xml", workbook_start)
    rels: dict[str, str] = {}
    string_parts = {"xl/sharedStrings.xml"}

    def rels_start(name: str, attrs: dict[str, str]) -> None:
        if _local(name) == "Relationship":
            rid, target, kind = attrs.get("Id"), attrs.get("Target"), attrs.get("Type") or ""
            if rid is not None and target is not None:
                rels[rid] = target
                if kind.endswith("/sharedStrings"):
                    string_parts.update(_targets(target))

    rels_name = "xl/_rels/workbook.xml.rels"
    if rels_name in names:
        _parse(zf.read(rels_name), rels_name, rels_start)
    parts: dict[str, str] = {}  # zip member -> the sheet name it holds, for messages
    uses: dict[str, int] = {}  # zip member -> how many sheets the reader builds from it
    for sheet_name, rid in sheets:
        for member in _targets(rels.get(rid or "", "")):
            if member in names:
                parts.setdefault(member, sheet_name)
                uses[member] = uses.get(member, 0) + 1
    for member in sorted(names):
        if member.startswith("xl/worksheets/") and member.endswith(".xml"):
            parts.setdefault(member, "")
    lengths: list[int] = []
    for member in sorted(string_parts & names):
        lengths = _check_shared_strings(zf.read(member), member)
    totals = _Totals()
    for member, sheet_name in sorted(parts.items()):
        _check_xlsx_sheet(zf.read(member), member, sheet_name, lengths, totals, max(1, uses.get(member, 0)))


def _check_shared_strings(data: bytes, member: str) -> list[int]:
    """The length of every shared string; the declared counts checked."""
    declared: dict[str, int] = {}
    lengths: list[int] = []
    depth = {"si": 0, "t": 0}

    def start(name: str, attrs: dict[str, str]) -> None:
        local = _local(name)
        if local == "sst":
            for key in ("uniqueCount", "count"):
                value = _attr(attrs, key)
                if value is None:
                    continue
                if not _NUMBER.fullmatch(value):
                    raise Refused("W001", f"the shared strings' {key} '{_shown(value)}' is not a number")
                if int(value) > MAX_AREA:
                    raise Refused("W002", f"the shared strings declare {key}=\"{value}\"; a workbook within the "
                                          f"bounds has at most {MAX_AREA}")
                declared[key] = int(value)
        elif local == "si":
            lengths.append(0)
            depth["si"] += 1
            if len(lengths) > MAX_AREA:
                raise Refused("W002", f"the shared strings hold more than {MAX_AREA} strings, the limit")
        elif local == "t":
            depth["t"] += 1

    def end(name: str) -> None:
        local = _local(name)
        if local in depth:
            depth[local] -= 1

    def chars(text: str) -> None:
        if depth["si"] and lengths:
            lengths[-1] += len(text)
            if lengths[-1] > MAX_TEXT:
                raise Refused("W002", f"a shared string of more than {MAX_TEXT} characters")

    _parse(data, member, start, end, chars)
    if declared.get("uniqueCount", 0) > len(lengths):
        raise Refused("W002", f"the shared strings declare uniqueCount=\"{declared['uniqueCount']}\" but hold "
                              f"{len(lengths)} strings")
    return lengths


def _check_xlsx_sheet(data: bytes, member: str, sheet: str, shared: Sequence[int], totals: _Totals, uses: int = 1) -> None:
    """One worksheet part, which ``uses`` sheets of the workbook name (each is built)."""
    label = f"'{_shown(sheet)}'" if sheet else member
    state = {"row": 0, "col": 0, "max_row": 0, "max_col": 0, "in_cell": 0, "in_v": 0, "text": 0, "filled": 0}
    cell_type: list[str] = [""]
    value: list[str] = []
    dims = [0, 0]

    def start(name: str, attrs: dict[str, str]) -> None:
        local = _local(name)
        if local == "row":
            r = _attr(attrs, "r")
            if r is None:
                state["row"] += 1
            elif not _COUNT.fullmatch(r):
                raise Refused("W002", f"sheet {label}: row number '{_shown(r)}' is not a number from 1 to {MAX_ROWS}")
            else:
                state["row"] = int(r)
            if state["row"] > MAX_ROWS:
                raise Refused("W002", f"sheet {label}: a row {state['row']}; the limit is {MAX_ROWS} rows")
            state["col"] = 0
        elif local == "c":
            r = _attr(attrs, "r")
            if r is None:
                state["col"] += 1
                row = max(state["row"], 1)
                if state["col"] > MAX_COLUMNS:
                    raise Refused("W002", f"sheet {label}: a cell in column {state['col']}; the limit is "
                                          f"{MAX_COLUMNS} columns")
            else:
                try:
                    row, state["col"] = cell_ref(r)
                except Refused as exc:
                    raise Refused(exc.code, f"sheet {label}: {exc.message}") from None
            state["max_row"] = max(state["max_row"], row)
            state["max_col"] = max(state["max_col"], state["col"])
            state["in_cell"] = 1
            state["filled"] += 1
            cell_type[0] = _attr(attrs, "t") or ""
            value.clear()
        elif local == "v" and state["in_cell"]:
            state["in_v"] = 1
        elif local == "dimension":
            ref = _attr(attrs, "ref") or ""
            for part in ref.split(":", 1):
                try:
                    row, col = cell_ref(part, "the sheet's dimension")
                except Refused:
                    raise Refused("W002", f"sheet {label}: the dimension '{_shown(ref)}' it declares is not a range "
                                          f"{_BOUNDS}") from None
                dims[0], dims[1] = max(dims[0], row), max(dims[1], col)

    def end(name: str) -> None:
        local = _local(name)
        if local == "v":
            state["in_v"] = 0
        elif local == "c" and state["in_cell"]:
            state["in_cell"] = 0
            if cell_type[0] == "s":
                text = "".join(value)
                index = int(text) if _NUMBER.fullmatch(text.strip()) else -1
                state["text"] += shared[index] if 0 <= index < len(shared) else len(text)
            if state["text"] > MAX_TEXT:
                totals.add(text=state["text"], sheet=label)

    def chars(text: str) -> None:
        if state["in_cell"]:
            if cell_type[0] == "s" and state["in_v"]:
                if len(value) < 64:
                    value.append(text)
            else:
                state["text"] += len(text)

    _parse(data, member, start, end, chars)
    area = max(state["max_row"] * state["max_col"], dims[0] * dims[1])
    totals.add(area=area * uses, filled=state["filled"] * uses, text=state["text"] * uses, sheet=label)


# ------------------------------------------------------------------ ods

_TABLE_NS = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
_TEXT_NS = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"


def _repeat(attrs: dict[str, str], key: str) -> int:
    value = attrs.get(f"{_TABLE_NS} {key}")
    if value is None:
        return 1
    if not _COUNT.fullmatch(value):
        raise Refused("W001", f"table:{key} '{_shown(value)}' is not a count")
    return int(value)


def _check_ods(data: bytes) -> None:
    totals = _Totals()
    s: dict[str, Any] = {"tables": 0, "in_table": 0, "name": "", "row": 0, "row_rep": 1, "col": 0, "max_row": 0,
                         "max_col": 0, "cell": 0, "cell_col": 0, "cell_rep": 1, "filled": False, "text": 0}

    def label() -> str:
        return f"'{_shown(s['name'])}'"

    def start(name: str, attrs: dict[str, str]) -> None:
        ns, _, local = name.rpartition(" ")
        if ns == _TABLE_NS and local == "table":
            if s["in_table"]:
                raise Refused("W001", f"sheet {label()} holds a table inside a table")
            s["tables"] += 1
            if s["tables"] > MAX_SHEETS:
                raise Refused("W002", f"the workbook holds more than {MAX_SHEETS} sheets, the limit")
            s.update(in_table=1, name=attrs.get(f"{_TABLE_NS} name", ""), row=0, max_row=0, max_col=0)
        elif ns == _TABLE_NS and local == "table-row":
            s["row_rep"] = _repeat(attrs, "number-rows-repeated")
            s["col"] = 0
        elif ns == _TABLE_NS and local in ("table-cell", "covered-table-cell"):
            if s["cell"]:
                s["cell"] += 1  # a cell inside an annotation or a frame: its text counts with the outer cell
                return
            s["cell_rep"] = _repeat(attrs, "number-columns-repeated")
            s.update(cell=1, cell_col=s["col"], text=0,
                     filled=any(_local(k) in ("value-type", "value", "string-value") for k in attrs))
            s["text"] = sum(len(v) for k, v in attrs.items() if _local(k) in ("value", "string-value"))
            s["col"] += s["cell_rep"]
        elif s["cell"] and ns == _TEXT_NS and local == "s":
            count = attrs.get(f"{_TEXT_NS} c")
            if count is not None and not _COUNT.fullmatch(count):
                raise Refused("W001", f"sheet {label()}: text:c '{_shown(count)}' is not a count")
            s["text"] += int(count or 1)
            s["filled"] = True
            if s["text"] > MAX_TEXT:
                raise Refused("W002", f"sheet {label()}: a cell of {s['text']} characters or more; the limit for "
                                      f"the workbook is {MAX_TEXT} characters")
        elif s["cell"] and ns == _TEXT_NS and local in ("tab", "line-break", "p"):
            s["text"] += 1

    def end(name: str) -> None:
        ns, _, local = name.rpartition(" ")
        if ns != _TABLE_NS:
            return
        if local in ("table-cell", "covered-table-cell") and s["cell"]:
            s["cell"] -= 1
            if s["cell"] or not (s["filled"] or s["text"]):
                return
            last_col, last_row = s["cell_col"] + s["cell_rep"], s["row"] + s["row_rep"]
            if last_col > MAX_COLUMNS:
                raise Refused("W002", f"sheet {label()}: a filled cell in column {last_col}; the limit is "
                                      f"{MAX_COLUMNS} columns")
            if last_row > MAX_ROWS:
                raise Refused("W002", f"sheet {label()}: a filled cell in row {last_row}; the limit is {MAX_ROWS} rows")
            s["max_row"], s["max_col"] = max(s["max_row"], last_row), max(s["max_col"], last_col)
            copies = s["cell_rep"] * s["row_rep"]
            totals.add(filled=copies, text=s["text"] * copies, sheet=label())
        elif local == "table-row":
            s["row"] += s["row_rep"]
        elif local == "table":
            s["in_table"] = 0
            totals.add(area=s["max_row"] * s["max_col"], sheet=label())

    def chars(text: str) -> None:
        if s["cell"]:
            s["text"] += len(text)
            if s["text"] > MAX_TEXT:
                raise Refused("W002", f"sheet {label()}: a cell of more than {MAX_TEXT} characters")

    _parse(data, "content.xml", start, end, chars)


# ------------------------------------------------------------------ the guarded read

_CHILD = r"""
import io, pickle, resource, sys
limit, nrows = int(sys.argv[1]), int(sys.argv[2])
raw = sys.stdin.buffer.read()
import python_calamine
soft, hard = resource.getrlimit(resource.RLIMIT_AS)
with open("/proc/self/statm") as fh:
    used = int(fh.read().split()[0]) * resource.getpagesize()
cap = used + limit
if soft != resource.RLIM_INFINITY:
    cap = min(cap, soft)
if hard != resource.RLIM_INFINITY:
    cap = min(cap, hard)
resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
try:
    book = python_calamine.CalamineWorkbook.from_filelike(io.BytesIO(raw))
    out = []
    for name in book.sheet_names:
        skip = name.startswith("_")
        out.append((name, None if skip else book.get_sheet_by_name(name).to_python(skip_empty_area=False, nrows=nrows)))
    result = ("ok", out)
except MemoryError:
    result = ("memory", "")
except Exception as exc:
    result = ("error", (str(exc).splitlines() or [type(exc).__name__])[0][:200])
sys.stdout.buffer.write(b"CARDKIT-SHEETS\n")
pickle.dump(result, sys.stdout.buffer, protocol=4)
"""


def _read_here(raw: bytes, nrows: int) -> list[tuple[str, Any]]:
    import python_calamine

    try:
        book = python_calamine.CalamineWorkbook.from_filelike(io.BytesIO(raw))
        return [(name, None if name.startswith("_") else book.get_sheet_by_name(name).to_python(
            skip_empty_area=False, nrows=nrows)) for name in book.sheet_names]
    except Exception as exc:  # noqa: BLE001 - calamine's errors (CalamineError, XmlError, ZipError, ...) share no base class
        raise Refused("W001", f"cannot read the workbook: {(str(exc).splitlines() or [type(exc).__name__])[0][:200]}") from None


def guard_available() -> bool:
    """Whether :func:`read_guarded` can cap the reader's memory here."""
    try:
        import resource  # noqa: F401
    except ImportError:
        return False
    return sys.platform.startswith("linux")


def read_guarded(raw: bytes, nrows: int = MAX_ROWS) -> list[tuple[str, Any]]:
    """Every sheet of a checked workbook as ``(name, rows)`` (rows None for a
    notes sheet, ``_name``), read by python-calamine in a child process under
    the memory and time caps; :class:`Refused` when the reader fails, runs out
    of memory or of time."""
    if not guard_available():
        return _read_here(raw, nrows)
    cmd = [sys.executable, "-I", "-c", _CHILD, str(READER_MEMORY), str(nrows)]
    try:
        proc = subprocess.run(cmd, input=raw, capture_output=True, timeout=READER_SECONDS, check=False)
    except subprocess.TimeoutExpired:
        raise Refused("W002", f"reading the workbook took longer than {READER_SECONDS:.0f} s; it was stopped") from None
    except OSError:
        return _read_here(raw, nrows)
    head, _, body = proc.stdout.partition(b"\n")
    result: Any = None
    if proc.returncode == 0 and head == b"CARDKIT-SHEETS":
        try:
            result = pickle.loads(body)  # noqa: S301 - written by our own child process, not taken from the file
        except Exception:  # noqa: BLE001 - a truncated stream is a failed read
            result = None
    if result is None or result[0] == "memory":
        raise Refused("W002", f"reading the workbook needs more than {READER_MEMORY >> 20} MiB of memory; it was "
                              "stopped (a workbook built to exhaust memory?)")
    if result[0] == "error":
        raise Refused("W001", f"cannot read the workbook: {result[1]}")
    return list(result[1])
