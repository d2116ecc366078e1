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

import csv
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
from cardkit.load.sheets import MAX_CELL_CHARS, _dotted, _leaf, read_sheet_file

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
            and (spec.type == "icons" or (spec.type == "list" and spec.items is not None and _leaf(spec.items) != "flow"))):
        for i, v in enumerate(value):
            item = spec.items if spec.type == "list" else None
            out.append((key + (i,), path + (i,), _cell(v, item, True)))
        return
    leaf = _leaf(spec) if spec is not None else "flow"
    if leaf == "flow" or isinstance(value, (list, dict)) or (leaf == "scalar" and isinstance(value, str)):
        out.append((key, path, flow(value)))
    else:
        out.append((key, path, _cell(value, spec, False)))


def _cell(value: Any, spec: FieldSpec | None, item: bool) -> Any:
    if value is None:
        return "null"
    if item and spec is None and isinstance(value, str):  # an icon
        return value
    if spec is not None and _leaf(spec) == "scalar" and isinstance(value, str):
        return flow(value)
    return value


def kind_sheet(kind: KindSpec, cards: Sequence[Mapping[str, Any]], where: Sequence[str]) -> tuple[Sheet, list[Issue]]:
    """One kind's cards as a sheet; ``where`` names each card's source for errors."""
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
                issues.append(Issue("W010", f"{_dotted(path)}: {'an empty text' if v == '' else f'a text of {len(v)} characters'} "
                                            "cannot be a spreadsheet cell", file=origin))
                continue
            keys.setdefault(path, key)
            row[path] = v
        rows.append(row)
    columns = sorted(keys, key=lambda p: (keys[p], len(p)))
    return Sheet(kind.file_kind, tuple(_dotted(p) for p in columns),
                 tuple(tuple(r.get(p) for p in columns) for r in rows)), issues


def set_sheets(loaded: Any) -> list[Sheet]:
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
        sheet, problems = kind_sheet(kinds.kinds[kind_name], [c for c, _ in entries], [w for _, w in entries])
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
                out.append(escape(part))
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
    """One sheet as UTF-8 CSV (``TRUE``/``FALSE`` written ``true``/``false``)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(sheet.header)
    for row in sheet.rows:
        w.writerow(["" if v is None else ("true" if v else "false") if isinstance(v, bool) else v for v in row])
    return buf.getvalue().encode("utf-8")


def export_set(loaded: Any, fmt: SheetFormat, out: Path) -> list[Path]:
    """Write the set's cards to ``out`` (a file; for csv a folder of
    ``<file_kind>.csv``); return the files written."""
    sheets = set_sheets(loaded)
    if fmt is SheetFormat.csv:
        if out.exists() and not out.is_dir():
            raise CardkitError(f"--out {out} is a file; csv export writes a folder of <file_kind>.csv files", code="F003")
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


def import_sheet(root: Path, loaded: Any, sheet: Path) -> tuple[list[Imported], list[Issue]]:
    """Check the cards of ``sheet`` against the set's kinds and write them into
    the set's YAML files; raise :class:`CardkitError` with every problem and
    write nothing if any card fails.  Returns what was written and warnings."""
    from cardkit.load import kinds as kindsmod
    from cardkit.plugins import plugin_for
    from cardkit.load.project import KINDS_FILE, _effect_kind_issues, _rel, game_schemas_of
    from cardkit.load.schema import validate_with, validator_for
    from cardkit.load.yamlsafe import parse_yaml

    kinds: Kinds = loaded.kinds
    rel = _rel(root, sheet)
    if not sheet.is_file():
        raise CardkitError(Issue("F001", "file does not exist", file=rel))
    docs, issues = read_sheet_file(sheet, rel, kinds)
    plugin_vocab = _vocabularies(loaded)
    game_schemas = game_schemas_of(plugin_for(loaded.set.game))
    for doc in docs:
        kind = kinds.by_file[doc.data["kind"]]
        issues.extend(p for p in validate_with(doc, validator_for(kind.file_kind, kindsmod.derive_schema(kind, KINDS_FILE),
                                                                  game_schemas))
                      if not doc.follow_on(p))
        issues.extend(_effect_kind_issues(doc, kind, plugin_vocab))
    if issues:
        raise CardkitError(issues)
    set_dir = root / loaded.set.directory
    listed = [str(f) for f in loaded.set.manifest["files"]]
    existing: dict[str, list[str]] = {}
    for key, doc in _card_docs(loaded):
        existing.setdefault(doc.data["kind"], []).append(key)
    plans: list[tuple[Path, bytes, Imported]] = []
    warnings: list[Issue] = []
    manifest_rel = f"{loaded.set.directory}/set.yaml"
    for doc in docs:
        fk = doc.data["kind"]
        targets = existing.get(fk, [])
        if len(targets) > 1:
            raise CardkitError(Issue("W011", f"the set has {len(targets)} YAML files of kind '{fk}' ({', '.join(targets)}); "
                                             "import writes one: merge them first", file=rel))
        target = root / targets[0] if targets else set_dir / f"{fk}.yaml"
        text = card_yaml(fk, doc.data["cards"], rel)
        if parse_yaml(text, "import").data != doc.data:  # the writer's promise, checked
            raise CardkitError(Issue("W011", f"the cards of kind '{fk}' cannot be written as YAML that reads back the same", file=rel))
        plans.append((target, text.encode("utf-8"), Imported(target, fk, len(doc.data["cards"]))))
    sheet_name = sheet.resolve().relative_to(set_dir.resolve()).as_posix() if sheet.resolve().is_relative_to(set_dir.resolve()) else None
    names = [target.relative_to(set_dir).as_posix() for target, _, _ in plans]
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
    return [p[2] for p in plans], warnings


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

