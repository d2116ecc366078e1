"""Cards to spreadsheets and back: ``cardkit export`` and ``cardkit import``.

:func:`export_set` writes the cards of a loaded set as a workbook (``.xlsx``
or ``.ods``, one sheet per kind, named by its ``file_kind``) or as a folder of
``.csv`` files (``<file_kind>.csv`` each), in the column syntax that
:mod:`cardkit.load.sheets` reads, so that the sheet reads back to the same
cards.  The output is deterministic: the same cards give the same bytes (zip
entries carry a fixed time, the document properties a fixed date).

:func:`import_sheet` reads a spreadsheet against a set's kinds, checks every
card (the same located cell errors as ``cardkit validate``) and, only when all
passed, writes each kind's cards into the set's YAML card file of that kind,
with the ``yaml-language-server`` modeline, atomically.

>>> flow({"kind": "draw", "count": 2, "who": ["a b", "c"]})
'{kind: draw, count: 2, who: ["a b", c]}'
"""

from __future__ import annotations

import datetime as dt
import enum
import io
import json
import re
import zipfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from cardkit.errors import CardkitError, Issue, Severity
from cardkit.fsutil import atomic_write_bytes
from cardkit.load.kinds import FieldSpec, Kinds, KindSpec
from cardkit.load.sheets import MAX_CELL_CHARS, QUOTE, dotted, escape_unprintable, leaf_kind, quote_cell, read_sheet_file

MAX_EXACT_INT = 2 ** 53  # larger integers are written as text: a spreadsheet number is a 64-bit float
MAX_INDEXED = 8  # a list of up to this many scalars gets a column per item; longer ones one YAML cell
ZIP_TIME = (1980, 1, 1, 0, 0, 0)
DOC_DATE = "2000-01-01T00:00:00Z"
_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_./-]*")
_SPECIAL = {"y", "n", "yes", "no", "on", "off", "true", "false", "null", "nan", "inf"}


class SheetFormat(str, enum.Enum):
    xlsx = "xlsx"
    ods = "ods"
    csv = "csv"


Cell = str | int | bool


@dataclass(frozen=True)
class Sheet:
    """One kind's cards as a table: a header of column names, then a row a card."""

    name: str
    header: tuple[str, ...]
    rows: tuple[tuple[Cell | None, ...], ...]


# ------------------------------------------------------------------ YAML text

def scalar(value: Any) -> str:
    """A scalar as YAML flow text that reads back to the same value."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return json.dumps(value)
    text = str(value)
    if _PLAIN.fullmatch(text) and text.lower() not in _SPECIAL:
        return text
    return json.dumps(text, ensure_ascii=False)


def flow(value: Any) -> str:
    """A value as one line of YAML flow text (JSON-quoted strings where needed)."""
    if isinstance(value, list):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{scalar(k)}: {flow(v)}" for k, v in value.items()) + "}"
    return scalar(value)


# ------------------------------------------------------------------ flattening

def _scalar_like(value: Any) -> bool:
    return not isinstance(value, (list, dict))


def _flatten(value: Any, spec: FieldSpec | None, path: tuple[str | int, ...], key: tuple[int, ...],
             out: list[tuple[tuple[int, ...], tuple[str | int, ...], Any]]) -> None:
    """The cells of one value: (sort key, column path, cell value)."""
    if isinstance(value, dict) and value and spec is not None and spec.type == "text":
        order = ["text", "plural", "count"]
        for k, v in value.items():
            out.append((key + (order.index(k) if k in order else 9,), path + (k,), v))
        return
    if isinstance(value, dict) and value and spec is not None and spec.type == "record" and set(value) <= set(spec.fields):
        names = list(spec.fields)
        for k in names:
            if k in value:
                _flatten(value[k], spec.fields[k], path + (k,), key + (names.index(k),), out)
        return
    if (isinstance(value, list) and spec is not None and 1 <= len(value) <= MAX_INDEXED and all(map(_scalar_like, value))
            and (spec.type == "icons" or (spec.type == "list" and spec.items is not None and leaf_kind(spec.items) != "flow"))):
        for i, v in enumerate(value):
            item = spec.items if spec.type == "list" else None
            out.append((key + (i,), path + (i,), _cell(v, item, True)))
        return
    leaf = leaf_kind(spec) if spec is not None else "flow"
    if leaf == "flow" or isinstance(value, (list, dict)) or (leaf == "scalar" and isinstance(value, str)):
        out.append((key, path, flow(value)))
    else:
        out.append((key, path, _cell(value, spec, False)))


class _Null:
    """A null value in a cell of its own: written ``null``, never quoted."""


NULL = _Null()


def _cell(value: Any, spec: FieldSpec | None, item: bool) -> Any:
    if value is None:
        return NULL
    if item and spec is None and isinstance(value, str):  # an icon
        return value
    if spec is not None and leaf_kind(spec) == "scalar" and isinstance(value, str):
        return flow(value)
    return value


def _unwritable(text: str, xml: bool) -> str | None:
    """Why a text cannot be a cell of the format (None: it can)."""
    for ch in text:
        o = ord(ch)
        if 0xD800 <= o <= 0xDFFF:
            return f"holds a lone surrogate (U+{o:04X}), which no file can store"
        if xml and ((o < 0x20 and ch not in "\t\n\r") or o in (0xFFFE, 0xFFFF)):
            return f"holds the control character U+{o:04X}, which an .xlsx or .ods cell cannot store (export as csv)"
    return None


def _written(v: Any) -> Cell | None:
    """A cell value as the writers get it: a null as ``null``, an integer a
    spreadsheet's 64-bit float cannot hold exactly as its digits (read back
    exactly by an integer column), a text quoted by :func:`quote_cell`."""
    if v is NULL:
        return "null"
    if isinstance(v, int) and not isinstance(v, bool) and abs(v) > MAX_EXACT_INT:
        return str(v)
    if isinstance(v, str):
        return QUOTE + v if v == "null" else quote_cell(v)
    return v  # type: ignore[no-any-return]


def kind_sheet(kind: KindSpec, cards: Sequence[Mapping[str, Any]], where: Sequence[str],
               xml: bool = False) -> tuple[Sheet, list[Issue]]:
    """One kind's cards as a sheet; ``where`` names each card's source for errors;
    ``xml``: the cells go into an .xlsx or .ods file (no control characters)."""
    names = list(kind.fields)
    rows: list[dict[tuple[str | int, ...], Any]] = []
    keys: dict[tuple[str | int, ...], tuple[int, ...]] = {}
    issues: list[Issue] = []
    for card, origin in zip(cards, where):
        cells: list[tuple[tuple[int, ...], tuple[str | int, ...], Any]] = []
        for fname, value in card.items():
            rank = -1 if fname == "id" else names.index(fname) if fname in names else len(names)
            _flatten(value, kind.fields.get(fname), (fname,), (rank,), cells)
        row = {}
        for key, path, v in cells:
            if isinstance(v, str) and (v == "" or len(v) > MAX_CELL_CHARS):
                issues.append(Issue("W010", f"{dotted(path)}: {'an empty text' if v == '' else f'a text of {len(v)} characters'} "
                                            "cannot be a spreadsheet cell", file=origin))
                continue
            if isinstance(v, str) and (why := _unwritable(v, xml)):
                issues.append(Issue("W010", f"{dotted(path)}: the text {why}", file=origin))
                continue
            keys.setdefault(path, key)
            row[path] = _written(v)
        rows.append(row)
    columns = sorted(keys, key=lambda p: (keys[p], len(p)))
    return Sheet(kind.file_kind, tuple(dotted(p) for p in columns),
                 tuple(tuple(r.get(p) for p in columns) for r in rows)), issues


def set_sheets(loaded: Any, xml: bool = False) -> list[Sheet]:
    """The sheets of a loaded set (:class:`~cardkit.load.project.LoadedSet`): one
    per kind, in the order the set's cards first show each kind; the card data
    as written in its files (defaults are not filled in)."""
    card_set, kinds = loaded.set, loaded.kinds
    grouped: dict[str, list[tuple[Mapping[str, Any], str]]] = {}
    for card in card_set.cards.values():
        doc = loaded.docs[card.origin.file]
        raw: Any = doc.data
        for seg in card.origin.path:
            raw = raw[seg]
        grouped.setdefault(card.kind, []).append((raw, loaded.where(card.origin)))
    sheets, issues = [], []
    for kind_name, entries in grouped.items():
        sheet, problems = kind_sheet(kinds.kinds[kind_name], [c for c, _ in entries], [w for _, w in entries], xml)
        sheets.append(sheet)
        issues.extend(problems)
    if issues:
        raise CardkitError(issues)
    return sheets


# ------------------------------------------------------------------ writers

def _zip(entries: Sequence[tuple[str, bytes, int]]) -> bytes:
    """A zip with fixed times: the same entries give the same bytes."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data, method in entries:
            info = zipfile.ZipInfo(name, ZIP_TIME)
            info.compress_type = method
            info.external_attr = 0o644 << 16
            zf.writestr(info, data)
    return buf.getvalue()


def write_xlsx(sheets: Sequence[Sheet]) -> bytes:
    """An ``.xlsx`` workbook (openpyxl), normalised to fixed times."""
    from openpyxl import Workbook  # type: ignore[import-untyped]

    wb = Workbook()
    wb.remove(wb.active)
    for sheet in sheets:
        ws = wb.create_sheet(sheet.name)
        ws.append(list(sheet.header))
        for row in sheet.rows:
            ws.append(list(row))
        for cells in ws.iter_rows():
            for cell in cells:
                if isinstance(cell.value, str):
                    cell.data_type = "s"  # a text that starts with '=' stays a text, never a formula
        ws.freeze_panes = "B2"
    fixed = dt.datetime(2000, 1, 1)
    wb.properties.creator = "cardkit"
    wb.properties.created = fixed
    wb.properties.modified = fixed
    buf = io.BytesIO()
    wb.save(buf)
    src = zipfile.ZipFile(io.BytesIO(buf.getvalue()))
    entries = []
    for info in src.infolist():
        data = src.read(info)
        if info.filename == "docProps/core.xml":  # openpyxl stamps the save time
            data = re.sub(rb"(<dcterms:(?:created|modified)[^>]*>)[^<]*(<)", rb"\g<1>" + DOC_DATE.encode() + rb"\g<2>", data)
        entries.append((info.filename, data, zipfile.ZIP_DEFLATED))
    return _zip(entries)


_ODS_NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
           'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
           'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
           'xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" '
           'xmlns:dc="http://purl.org/dc/elements/1.1/"')


def _ods_text(text: str) -> str:
    """A cell's text as ODF paragraphs: a paragraph per line, runs of spaces
    kept (``text:s``); a tab stays a tab character, which calamine reads back
    (it drops ``text:tab``)."""
    paras = []
    for line in text.split("\n"):
        out = []
        for part in re.split(r"( {2,})", line):
            if part.startswith("  "):
                out.append(f' <text:s text:c="{len(part) - 1}"/>')
            else:
                out.append(escape(part).replace("\r", "&#13;"))  # a raw CR would be read back as a line end
        body = "".join(out)
        if body.startswith(" "):
            body = '<text:s/>' + body[1:]
        if body.endswith(" ") and not body.endswith("/> "):
            body = body[:-1] + "<text:s/>"
        paras.append(f"<text:p>{body}</text:p>")
    return "".join(paras)


def _ods_cell(value: Cell | None) -> str:
    if value is None:
        return "<table:table-cell/>"
    if isinstance(value, bool):
        v = "true" if value else "false"
        return f'<table:table-cell office:value-type="boolean" office:boolean-value="{v}"><text:p>{v.upper()}</text:p></table:table-cell>'
    if isinstance(value, int):
        return f'<table:table-cell office:value-type="float" office:value="{value}"><text:p>{value}</text:p></table:table-cell>'
    return f'<table:table-cell office:value-type="string">{_ods_text(value)}</table:table-cell>'


def write_ods(sheets: Sequence[Sheet]) -> bytes:
    """An OpenDocument spreadsheet, written with the standard library."""
    tables = []
    for sheet in sheets:
        rows = [sheet.header, *sheet.rows]
        body = "".join("<table:table-row>" + "".join(_ods_cell(v) for v in row) + "</table:table-row>" for row in rows)
        cols = f'<table:table-column table:number-columns-repeated="{max(1, len(sheet.header))}"/>'
        tables.append(f"<table:table table:name={quoteattr(sheet.name)}>{cols}{body}</table:table>")
    content = (f'<?xml version="1.0" encoding="UTF-8"?>\n<office:document-content {_ODS_NS} office:version="1.2">'
               f'<office:body><office:spreadsheet>{"".join(tables)}</office:spreadsheet></office:body>'
               '</office:document-content>')
    meta = (f'<?xml version="1.0" encoding="UTF-8"?>\n<office:document-meta {_ODS_NS} office:version="1.2"><office:meta>'
            f'<meta:generator>cardkit</meta:generator><meta:creation-date>{DOC_DATE[:-1]}</meta:creation-date>'
            f'<dc:date>{DOC_DATE[:-1]}</dc:date></office:meta></office:document-meta>')
    manifest = ('<?xml version="1.0" encoding="UTF-8"?>\n'
                '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
                '<manifest:file-entry manifest:full-path="/" manifest:version="1.2" '
                'manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>'
                '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
                '<manifest:file-entry manifest:full-path="meta.xml" manifest:media-type="text/xml"/>'
                '</manifest:manifest>')
    return _zip([("mimetype", b"application/vnd.oasis.opendocument.spreadsheet", zipfile.ZIP_STORED),
                 ("META-INF/manifest.xml", manifest.encode(), zipfile.ZIP_DEFLATED),
                 ("meta.xml", meta.encode(), zipfile.ZIP_DEFLATED),
                 ("content.xml", content.encode(), zipfile.ZIP_DEFLATED)])


def write_csv(sheet: Sheet) -> bytes:
    """One sheet as UTF-8 CSV (``TRUE``/``FALSE`` written ``true``/``false``),
    lines ending in LF; a field holding a comma, a quote or a line end (a lone
    CR included, which :mod:`csv` would leave bare) is quoted."""
    def field(v: Cell | None) -> str:
        text = "" if v is None else ("true" if v else "false") if isinstance(v, bool) else str(v)
        return '"' + text.replace('"', '""') + '"' if any(ch in text for ch in ',"\r\n') else text

    lines = [",".join(field(v) for v in row) + "\n" for row in (sheet.header, *sheet.rows)]
    return "".join(lines).encode("utf-8")


def one_sheet(sheets: Sequence[Sheet]) -> Sheet:
    """Several kinds' sheets as one, with a ``kind`` column first (what a single
    ``.csv`` file holds): the columns of every kind, in order of first use."""
    columns: list[str] = []
    for sheet in sheets:
        columns.extend(c for c in sheet.header if c not in columns)
    at = {c: i for i, c in enumerate(columns)}
    rows = []
    for sheet in sheets:
        for row in sheet.rows:
            cells: list[Cell | None] = [None] * len(columns)
            for c, v in zip(sheet.header, row):
                cells[at[c]] = v
            rows.append((sheet.name, *cells))
    return Sheet(sheets[0].name if sheets else "cards", ("kind", *columns), tuple(rows))


def export_set(loaded: Any, fmt: SheetFormat, out: Path) -> list[Path]:
    """Write the set's cards to ``out``: a workbook file; for csv, one ``.csv``
    file with a ``kind`` column when ``out`` ends in ``.csv``, else a folder of
    ``<file_kind>.csv`` files (what ``cardkit import`` takes back either way);
    return the files written."""
    if fmt is not SheetFormat.csv or out.suffix.lower() == ".csv":
        if out.is_dir():
            raise CardkitError(f"--out {out} is a folder; name the {fmt.value} file to write", code="F003")
    sheets = set_sheets(loaded, xml=fmt is not SheetFormat.csv)
    if fmt is SheetFormat.csv:
        if out.suffix.lower() == ".csv":
            atomic_write_bytes(out, write_csv(one_sheet(sheets)))
            return [out]
        if out.exists() and not out.is_dir():
            raise CardkitError(f"--out {out} is a file; csv export writes a folder of <file_kind>.csv files "
                               "(or name a .csv file to get one file with a kind column)", code="F003")
        written = []
        for sheet in sheets:
            atomic_write_bytes(out / f"{sheet.name}.csv", write_csv(sheet))
            written.append(out / f"{sheet.name}.csv")
        return written
    atomic_write_bytes(out, write_xlsx(sheets) if fmt is SheetFormat.xlsx else write_ods(sheets))
    return [out]


# ------------------------------------------------------------------ import

MODELINE = "# yaml-language-server: $schema=schemas/{}.schema.json"


def card_yaml(file_kind: str, cards: Sequence[Mapping[str, Any]], source: str) -> str:
    """A YAML card file: modeline, a comment naming the sheet, ``kind`` and a
    block per card (nested values as flow)."""
    lines = [MODELINE.format(file_kind), f"# Imported from {source} (cardkit import).", f"kind: {file_kind}", "cards:"]
    for card in cards:
        first = True
        for key, value in card.items():
            lines.append(f"{'  - ' if first else '    '}{scalar(key)}: {flow(value)}")
            first = False
        if first:
            lines.append("  - {}")
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Imported:
    path: Path
    kind: str
    cards: int
    note: str = ""  # for a file that is not a card file (set.yaml): what changed in it

    @property
    def what(self) -> str:
        return self.note or f"{self.cards} {self.kind} card entries"


_ITEM = re.compile(r"^(?P<indent>\s+)-\s+(?P<q>['\"]?)(?P<name>[^'\"#]+?)(?P=q)\s*(?P<comment>#.*)?$")


def relist_files(text: str, sheet: str | None, names: Sequence[str]) -> str | None:
    """``set.yaml``'s text with ``files:`` listing ``names`` (the YAML files
    import wrote) where it listed the spreadsheet ``sheet``, and the others of
    ``names`` it did not list added at the end of the list; every other line
    (comments, order, quoting) as it was.  None when the list is not a block
    of plain ``- name`` lines: then the user edits it (W012 says what)."""
    lines = text.splitlines(keepends=True)
    start = next((i for i, ln in enumerate(lines) if re.match(r"^files:\s*(#.*)?$", ln)), None)
    if start is None:
        return None
    items: list[int] = []
    end = start + 1
    while end < len(lines):
        ln = lines[end]
        if not ln.strip() or ln.lstrip().startswith("#"):
            end += 1
            continue
        if not _ITEM.match(ln.rstrip("\n")):
            break
        items.append(end)
        end += 1
    if not items:
        return None
    listed = [_ITEM.match(lines[i].rstrip("\n"))["name"] for i in items]  # type: ignore[index]
    missing = [n for n in names if n not in listed]
    indent = _ITEM.match(lines[items[0]].rstrip("\n"))["indent"]  # type: ignore[index]
    out = list(lines)
    if sheet in listed:
        at = items[listed.index(sheet)]
        out[at:at + 1] = [f"{indent}- {n}\n" for n in missing]
        after = [n if n != sheet else None for n in listed]
        expected = [x for n in after for x in ([n] if n is not None else missing)]
    else:
        last = items[-1]
        if not out[last].endswith("\n"):
            out[last] += "\n"
        out[last + 1:last + 1] = [f"{indent}- {n}\n" for n in missing]
        expected = listed + missing
    new = "".join(out)
    try:
        import yaml

        if (yaml.safe_load(new) or {}).get("files") != expected:
            return None
    except yaml.YAMLError:
        return None
    return new


def _card_docs(loaded: Any) -> Iterator[tuple[str, Any]]:
    from cardkit.load.sheets import SheetDoc

    for key, doc in loaded.docs.items():
        if not isinstance(doc, SheetDoc) and isinstance(doc.data, dict) and "cards" in doc.data:
            yield key, doc


def _sheet_files(sheet: Path, rel: str) -> list[Path]:
    """The files of what ``cardkit export`` wrote: a workbook, a ``.csv`` file,
    or a folder of ``<file_kind>.csv`` files."""
    if sheet.is_dir():
        files = sorted(p for p in sheet.iterdir() if p.suffix.lower() == ".csv" and p.is_file())
        if not files:
            raise CardkitError(Issue("F001", "the folder holds no .csv files to import", file=rel))
        return files
    if not sheet.is_file():
        raise CardkitError(Issue("F001", "file does not exist", file=rel))
    return [sheet]


def _card_id(card: Any, index: int) -> str:
    return str(card.get("id")) if isinstance(card, dict) and card.get("id") is not None else f"#{index + 1}"


_COMMENT = re.compile(r"""^(?:[^"'#]|"(?:[^"\\]|\\.)*"|'(?:[^']|'')*')*?(?:^|\s)(#.*)$""")


def _comment_of(line: str) -> str | None:
    """The comment on a YAML line, if any (a ``#`` outside quotes, at the start
    or after a space)."""
    m = _COMMENT.match(line.rstrip("\r\n"))
    return m.group(1) if m else None


def _card_lines(card: Mapping[str, Any], dash: int) -> list[str]:
    lines = []
    for n, (key, value) in enumerate(card.items()):
        lines.append(f"{' ' * dash}{'- ' if n == 0 else '  '}{scalar(key)}: {flow(value)}\n")
    return lines or [f"{' ' * dash}- {{}}\n"]


@dataclass(frozen=True)
class Spliced:
    """A card file's new text, and the comments that text no longer holds
    (line number and comment), each inside a card that changed."""

    text: str
    lost: tuple[tuple[int, str], ...]


def splice_cards(text: str, doc: Any, cards: Sequence[Mapping[str, Any]]) -> Spliced | None:
    """``text`` (a YAML card file, parsed as ``doc``) with its cards replaced by
    ``cards``, keeping every line of every card that did not change (comments
    included), the comments between cards and everything around the list; a
    changed card is rewritten (its own comments are reported lost), a new one
    added, a card no longer there dropped.  None when the cards are not a block
    list of one item a line start (then only a whole rewrite is possible)."""
    old = doc.data.get("cards") if isinstance(doc.data, dict) else None
    if not isinstance(old, list) or not old:
        return None
    lines = text.splitlines(keepends=True)
    starts: list[int] = []
    dash = -1
    for i in range(len(old)):
        line, col = doc.marks.get(("cards", i), (0, 0))
        if not 1 <= line <= len(lines):
            return None
        ln = lines[line - 1]
        at = len(ln) - len(ln.lstrip(" "))
        if ln[at:at + 2] != "- " or col - 1 <= at or (dash >= 0 and at != dash) or (starts and line - 1 <= starts[-1]):
            return None
        dash = at
        starts.append(line - 1)
    end = len(lines)
    for k in range(starts[-1] + 1, len(lines)):
        stripped = lines[k].strip()
        indent = len(lines[k]) - len(lines[k].lstrip(" "))
        if stripped and not stripped.startswith("#") and indent <= dash and not lines[k][indent:].startswith("- "):
            end = k
            break
    bounds = starts + [end]
    bodies: list[list[str]] = []
    leads: list[list[str]] = [[]]
    for i in range(len(old)):
        body = lines[bounds[i]:bounds[i + 1]]
        trail: list[str] = []
        while len(body) > 1 and (not body[-1].strip() or body[-1].lstrip().startswith("#")):
            trail.insert(0, body.pop())
        bodies.append(body)
        leads.append(trail)
    tail = leads.pop() + lines[end:]
    by_id = {_card_id(c, i): i for i, c in enumerate(old)}
    out = lines[:starts[0]]
    lost: list[tuple[int, str]] = []
    for n, card in enumerate(cards):
        j = by_id.get(_card_id(card, n))
        if j is None:
            out += _card_lines(card, dash)
            continue
        out += leads[j]
        if old[j] == card:
            out += bodies[j]
        else:
            out += _card_lines(card, dash)
            lost += [(starts[j] + 1 + k, c) for k, ln in enumerate(bodies[j]) if (c := _comment_of(ln))]
    out += tail
    if out and not out[-1].endswith("\n"):
        out[-1] += "\n"
    return Spliced("".join(out), tuple(lost))


@dataclass(frozen=True)
class ImportResult:
    """What an import wrote (or, when refused, would have written), what it
    says about each change, and its warnings."""

    written: list[Imported]
    notes: list[str]
    warnings: list[Issue]


def _diff(rel_file: str, old_doc: Any, old: Sequence[Any], new: Sequence[Any], prune: bool
          ) -> tuple[list[str], list[Issue]]:
    """Notes on what changes between the cards of a file and a sheet's, and a
    W013 issue for each card or field the sheet drops (unless ``prune``)."""
    notes: list[str] = []
    issues: list[Issue] = []
    old_ids = {_card_id(c, i): c for i, c in enumerate(old)}
    new_ids = {_card_id(c, i): c for i, c in enumerate(new)}

    def where(cid: str, key: str | None = None) -> str:
        if old_doc is None:
            return rel_file
        i = list(old_ids).index(cid)
        line, _ = old_doc.mark(("cards", i) + ((key,) if key else ()))
        return f"{rel_file}:{line}"

    def drop(cid: str, what: str, key: str | None = None) -> None:
        if prune:
            notes.append(f"{rel_file}: removes {what}")
        else:
            issues.append(Issue("W013", f"import would remove {what}: the sheet does not have it "
                                        "(run with --prune to remove it)", file=where(cid, key)))

    for cid in old_ids:
        if cid not in new_ids:
            drop(cid, f"card '{cid}'")
    for cid, card in new_ids.items():
        before = old_ids.get(cid)
        if before is None:
            notes.append(f"{rel_file}: adds card '{cid}'")
            continue
        if not isinstance(before, dict) or not isinstance(card, dict):
            continue
        for key in before:
            if key not in card:
                drop(cid, f"field '{key}' of card '{cid}'", key)
        added = [k for k in card if k not in before]
        changed = [k for k in card if k in before and before[k] != card[k]]
        if added:
            notes.append(f"{rel_file}: adds {', '.join(added)} to card '{cid}'")
        if changed:
            notes.append(f"{rel_file}: changes {', '.join(changed)} of card '{cid}'")
    return notes, issues


def import_sheet(root: Path, loaded: Any, sheet: Path, prune: bool = False, force: bool = False) -> ImportResult:
    """Check the cards of ``sheet`` (a workbook, a ``.csv`` file or a folder of
    them, as ``cardkit export`` wrote it) against the set's kinds and write
    them into the set's YAML files; raise :class:`CardkitError` with every
    problem and write nothing if any card fails, if the sheet drops a card or
    a field (W013, unless ``prune``) or if a comment would be lost (W014,
    unless ``force``).  A file whose cards did not change is not written at
    all; one that changed keeps every unchanged card's lines and comments."""
    from cardkit.load import kinds as kindsmod
    from cardkit.plugins import plugin_for
    from cardkit.load.files import project_rel
    from cardkit.load.project import KINDS_FILE, effect_kind_issues, game_schemas_of
    from cardkit.load.schema import validate_with, validator_for
    from cardkit.load.yamlsafe import parse_yaml

    kinds: Kinds = loaded.kinds
    rel = project_rel(root, sheet)
    docs = []
    issues: list[Issue] = []
    for path in _sheet_files(sheet, rel):
        got, problems = read_sheet_file(path, project_rel(root, path), kinds)
        docs.extend(got)
        issues.extend(problems)
    plugin_vocab = _vocabularies(loaded)
    game_schemas = game_schemas_of(plugin_for(loaded.set.game))
    seen_kinds: dict[str, str] = {}
    for doc in docs:
        kind = kinds.by_file[doc.data["kind"]]
        if kind.file_kind in seen_kinds:
            issues.append(Issue("W011", f"cards of kind '{kind.file_kind}' are in two files ({seen_kinds[kind.file_kind]}, "
                                        f"{doc.source}); import takes one", file=rel))
        seen_kinds[kind.file_kind] = doc.source
        issues.extend(p for p in validate_with(doc, validator_for(kind.file_kind, kindsmod.derive_schema(kind, KINDS_FILE),
                                                                  game_schemas))
                      if not doc.follow_on(p))
        issues.extend(effect_kind_issues(doc, kind, plugin_vocab))
    if issues:
        raise CardkitError(issues)
    set_dir = root / loaded.set.directory
    listed = [str(f) for f in loaded.set.manifest["files"]]
    existing: dict[str, list[str]] = {}
    for key, doc in _card_docs(loaded):
        existing.setdefault(doc.data["kind"], []).append(key)
    plans: list[tuple[Path, bytes, Imported]] = []
    notes: list[str] = []
    warnings: list[Issue] = []
    manifest_rel = f"{loaded.set.directory}/set.yaml"
    for kind_name in sorted(set(existing) - set(seen_kinds)):
        notes.append(f"{', '.join(existing[kind_name])}: left as it is (the sheet has no {kind_name} cards)")
    for doc in docs:
        fk = doc.data["kind"]
        cards = doc.data["cards"]
        targets = existing.get(fk, [])
        if len(targets) > 1:
            raise CardkitError(Issue("W011", f"the set has {len(targets)} YAML files of kind '{fk}' ({', '.join(targets)}); "
                                             "import writes one: merge them first", file=rel))
        target = root / targets[0] if targets else set_dir / f"{fk}.yaml"
        target_rel = targets[0] if targets else project_rel(root, target)
        old_doc = loaded.docs[targets[0]] if targets else None
        old_cards = old_doc.data["cards"] if old_doc is not None else []
        said, dropped = _diff(target_rel, old_doc, old_cards, cards, prune)
        issues.extend(dropped)
        if old_doc is not None and old_cards == cards:
            notes.append(f"{target_rel}: unchanged ({len(cards)} cards), not written")
            continue
        notes.extend(said)
        text = None
        if old_doc is not None:
            before = target.read_text(encoding="utf-8")
            spliced = splice_cards(before, old_doc, cards)
            if spliced is None:  # only a whole rewrite: every comment of the file goes
                lost = [(n + 1, c) for n, ln in enumerate(before.splitlines())
                        if (c := _comment_of(ln)) and not c.startswith("# yaml-language-server:")]
            else:
                lost = list(spliced.lost)
                text = spliced.text
            if not force:
                issues.extend(Issue("W014", f"import would drop this comment (its card changed): "
                                            f"{escape_unprintable(c[:80])} (run with --force to drop it)",
                                    file=f"{target_rel}:{n}") for n, c in lost)
        if text is None:
            text = card_yaml(fk, cards, rel)
        parsed = parse_yaml(text, "import").data
        if not isinstance(parsed, dict) or parsed.get("cards") != cards or parsed.get("kind") != fk:
            text = card_yaml(fk, cards, rel)  # the splice did not read back the same: the plain form does
            if parse_yaml(text, "import").data != doc.data:  # the writer's promise, checked
                raise CardkitError(Issue("W011", f"the cards of kind '{fk}' cannot be written as YAML that reads back the same",
                                         file=rel))
        plans.append((target, text.encode("utf-8"), Imported(target, fk, len(cards))))
    if issues:
        raise CardkitError(issues)
    single = sheet.is_file() and sheet.resolve().is_relative_to(set_dir.resolve())
    sheet_name = sheet.resolve().relative_to(set_dir.resolve()).as_posix() if single else None
    names = [target.relative_to(set_dir).as_posix() for target, _, _ in plans if target.parent == set_dir]
    manifest = set_dir / "set.yaml"
    if sheet_name in listed or any(n not in listed for n in names):
        before = manifest.read_text(encoding="utf-8")
        after = relist_files(before, sheet_name, names)
        if after is None:  # not a plain block list: say what to change
            warnings.extend(Issue("W012", f"{n} is not listed in files: add it so the set loads its cards",
                                  file=manifest_rel, severity=Severity.WARNING) for n in names if n not in listed)
            if sheet_name in listed:
                warnings.append(Issue("W012", f"files still lists {sheet_name}: its cards are now in YAML too; remove it "
                                              "from the list", file=manifest_rel, severity=Severity.WARNING))
        else:
            change = (f"files: lists {', '.join(n for n in names if n not in listed)}"
                      + (f" instead of {sheet_name}" if sheet_name in listed else ""))
            plans.append((manifest, after.encode("utf-8"), Imported(manifest, "set", 0, note=change)))
    for path, data, _ in plans:
        atomic_write_bytes(path, data)
    return ImportResult([p[2] for p in plans], notes, warnings)


def _vocabularies(loaded: Any) -> Mapping[str, frozenset[str]]:
    from cardkit.plugins import plugin_for

    plugin = plugin_for(loaded.set.game)
    return plugin.effect_vocabularies() if plugin and plugin.effect_vocabularies else {}


def sheet_values(path: Path, file: str, kinds: Kinds) -> dict[str, list[Mapping[str, Any]]]:
    """The cards a sheet file holds, by file kind (for tests and tools)."""
    docs, issues = read_sheet_file(path, file, kinds)
    if issues:
        raise CardkitError(issues)
    return {d.data["kind"]: d.data["cards"] for d in docs}

