"""Untrusting YAML reader that remembers where every value came from.

PyYAML's ``safe_load`` still accepts duplicate keys (last wins), expands alias
bombs without limit and forgets line numbers.  This module composes the node
tree with the safe loader and converts it itself, so that it can

* reject duplicate keys, non-core tags (``!!python/...``), merge keys and
  non-string mapping keys;
* bound file size, node count (aliases included) and nesting depth;
* record the 1-based line and column of every node, keyed by JSON path.

>>> doc = parse_yaml("a:\\n  - 1\\n  - {b: x}\\n", "f.yaml")
>>> doc.data
{'a': [1, {'b': 'x'}]}
>>> doc.mark(("a", 1, "b"))
(3, 9)
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from yaml.constructor import SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from cardkit.errors import Issue, JsonPath

MAX_FILE_BYTES = 1 << 20  # one card file; the whole base set is ~60 KiB
MAX_NODES = 100_000  # after alias expansion
MAX_DEPTH = 48

_CORE = "tag:yaml.org,2002:"
_SCALAR_TAGS = {_CORE + t for t in ("str", "int", "float", "bool", "null")}


@dataclass
class YamlDoc:
    """A parsed document: plain data plus the position of every node."""

    file: str
    data: Any
    marks: dict[JsonPath, tuple[int, int]] = field(default_factory=dict)
    key_marks: dict[JsonPath, tuple[int, int]] = field(default_factory=dict)
    digest: bytes = b""  # of the file's bytes, when read while parses are remembered (see remember_parses)

    def mark(self, path: JsonPath, key: bool = False) -> tuple[int, int]:
        """Line and column of the node at ``path`` (or of its key), falling back to
        the nearest ancestor that exists."""
        table = self.key_marks if key else self.marks
        p = tuple(path)
        while p:
            if p in table:
                return table[p]
            if p in self.marks:
                return self.marks[p]
            p = p[:-1]
        return self.marks.get((), (1, 1))

    def place(self, path: JsonPath, key: bool = False) -> tuple[str, int, int]:
        """Where the node at ``path`` is, as an issue names it: file, line, column
        (a spreadsheet's :class:`~cardkit.load.sheets.SheetDoc` names the cell
        in the file part and gives no line)."""
        line, col = self.mark(path, key)
        return self.file, line, col

    def issue(self, code: str, message: str, path: JsonPath = (), key: bool = False) -> Issue:
        file, line, col = self.place(path, key)
        return Issue(code, message, file=file, line=line, column=col, path=tuple(path))


class YamlError(Exception):
    def __init__(self, issue: Issue) -> None:
        super().__init__(issue.format())
        self.issue = issue


def _mark(node: Node) -> tuple[int, int]:
    m = node.start_mark
    return (m.line + 1, m.column + 1)


class _Converter:
    def __init__(self, file: str) -> None:
        self.file = file
        self.count = 0
        self.constructor = SafeConstructor()
        self.doc = YamlDoc(file, None)

    def fail(self, code: str, message: str, node: Node | None = None, at: tuple[int, int] | None = None) -> None:
        line, col = at or (_mark(node) if node is not None else (1, 1))
        raise YamlError(Issue(code, message, file=self.file, line=line, column=col))

    def convert(self, node: Node, path: JsonPath, depth: int) -> Any:
        self.count += 1
        if self.count > MAX_NODES:
            self.fail("Y005", f"document expands to more than {MAX_NODES} nodes (alias bomb?)", node)
        if depth > MAX_DEPTH:
            self.fail("Y005", f"document nests deeper than {MAX_DEPTH} levels", node)
        self.doc.marks.setdefault(path, _mark(node))
        if isinstance(node, ScalarNode):
            if node.tag not in _SCALAR_TAGS:
                self.fail("Y004", f"tag {_short(node.tag)} is not allowed (only plain strings, numbers, booleans and null)", node)
            try:
                return self.constructor.construct_object(node, deep=True)
            except (yaml.YAMLError, ValueError) as exc:  # pragma: no cover - resolver guarantees shape
                self.fail("Y001", f"bad scalar: {exc}", node)
        if isinstance(node, SequenceNode):
            if node.tag != _CORE + "seq":
                self.fail("Y004", f"tag {_short(node.tag)} is not allowed", node)
            return [self.convert(child, path + (i,), depth + 1) for i, child in enumerate(node.value)]
        if isinstance(node, MappingNode):
            if node.tag != _CORE + "map":
                self.fail("Y004", f"tag {_short(node.tag)} is not allowed", node)
            out: dict[str, Any] = {}
            for key_node, value_node in node.value:
                if key_node.tag == _CORE + "merge":
                    self.fail("Y004", "merge keys ('<<') are not supported; write the keys out", key_node)
                if not isinstance(key_node, ScalarNode) or key_node.tag != _CORE + "str":
                    self.fail("Y006", "mapping keys must be plain strings", key_node)
                key = key_node.value
                if key in out:
                    first = self.doc.key_marks.get(path + (key,), (0, 0))[0]
                    self.fail("Y003", f"duplicate key '{key}' (first defined on line {first})", key_node)
                self.doc.key_marks[path + (key,)] = _mark(key_node)
                out[key] = self.convert(value_node, path + (key,), depth + 1)
            return out
        self.fail("Y001", "unsupported YAML node", node)  # pragma: no cover


def _short(tag: str) -> str:
    if tag.startswith(_CORE):
        return "!!" + tag[len(_CORE):]
    return tag


def parse_yaml(text: str, file: str) -> YamlDoc:
    """Parse one YAML document from ``text``; raise :class:`YamlError` on the first
    problem (a file with broken syntax has no meaningful second error)."""
    for lineno, line in enumerate(text.splitlines(), 1):
        stripped = line.lstrip(" ")
        if stripped.startswith("\t"):
            raise YamlError(Issue("Y002", "tab character in indentation; YAML indents with spaces",
                                  file=file, line=lineno, column=len(line) - len(stripped) + 1))
    node = _fast_node(text)
    if node is not None:
        conv = _Converter(file)
        conv.doc.data = conv.convert(node, (), 0)
        return conv.doc
    try:
        loader = yaml.SafeLoader(text)
    except yaml.reader.ReaderError as exc:  # a control character: PyYAML checks the whole text up front
        before = text[: exc.position]
        at_line, at_col = before.count("\n") + 1, exc.position - (before.rfind("\n") + 1) + 1
        code = exc.character if isinstance(exc.character, int) else ord(str(exc.character)[:1] or "\0")
        raise YamlError(Issue("Y001", f"character U+{code:04X} is not allowed in YAML (a control character)",
                              file=file, line=at_line, column=at_col)) from None
    try:
        node = loader.get_single_node()
    except RecursionError:  # (PyYAML composes recursively: thousands of nested brackets exhaust the stack)
        raise YamlError(_too_deep(text, file)) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        at_line, at_col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = (exc.problem or exc.context or "syntax error").strip()
        raise YamlError(Issue("Y001", f"YAML syntax error: {problem}", file=file, line=at_line, column=at_col)) from None
    except yaml.YAMLError as exc:
        raise YamlError(Issue("Y001", f"YAML error: {exc}", file=file, line=1, column=1)) from None
    finally:
        loader.dispose()
    if node is None:
        raise YamlError(Issue("Y007", "file is empty", file=file, line=1, column=1))
    conv = _Converter(file)
    conv.doc.data = conv.convert(node, (), 0)
    return conv.doc


def _too_deep(text: str, file: str) -> Issue:
    """Y005 at the first collection nested deeper than :data:`MAX_DEPTH`, found
    with PyYAML's token stream (yaml.parse), which keeps no stack of its own."""
    depth = 0
    try:
        for item in yaml.parse(text, Loader=yaml.SafeLoader):
            if isinstance(item, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > MAX_DEPTH:
                    mark = item.start_mark
                    line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
                    return Issue("Y005", f"document nests deeper than {MAX_DEPTH} levels", file=file, line=line, column=column)
            elif isinstance(item, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
    except yaml.YAMLError:
        pass
    return Issue("Y005", f"document nests deeper than {MAX_DEPTH} levels", file=file, line=1, column=1)


def _fast_node(text: str) -> Node | None:
    """The node tree through libyaml where PyYAML has it (the same resolver,
    so the same tags; five times faster on a large glossary), or None: then
    the pure-Python parser runs and gives its own error messages and marks for
    whatever libyaml refused (an error is never reported from here)."""
    loader_class = getattr(yaml, "CSafeLoader", None)
    if loader_class is None:
        return None
    try:
        yaml.reader.Reader(text)  # PyYAML's check of the characters, which libyaml does not make
        loader = loader_class(text)
    except yaml.YAMLError:
        return None
    try:
        node: Node | None = loader.get_single_node()
    except (yaml.YAMLError, RecursionError):
        return None
    finally:
        loader.dispose()
    return node


def decode_utf8(raw: bytes, file: str) -> str:
    """Strict UTF-8 (a leading BOM is allowed); the error names the line of the first bad byte."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise YamlError(Issue("Y008", f"file is not valid UTF-8 (byte 0x{raw[exc.start]:02x})",
                              file=file, line=line, column=col)) from None
    return text[1:] if text.startswith("\ufeff") else text


_MEMO: dict[str, YamlDoc] | None = None


def remember_parses(on: bool = True) -> None:
    """In a long-lived process that rereads a project on every change
    (``cardkit preview``): a file whose bytes have not changed since it was last
    parsed is not parsed again (its data is copied, its marks shared).  Only the
    last version of each file is kept; a file that fails is never remembered."""
    global _MEMO
    _MEMO = {} if on else None


def read_yaml_file(path: Path, file: str, max_bytes: int = MAX_FILE_BYTES, root: Path | None = None) -> YamlDoc:
    """Read, bound, decode and parse one YAML file.  With ``root`` (the project
    folder) a file that resolves outside it is refused unread (F004); only a
    regular file is ever opened (F005), see :mod:`cardkit.load.files`."""
    from cardkit.errors import CardkitError
    from cardkit.load.files import read_project_file

    try:
        raw = read_project_file(path, file, root=root, max_bytes=max_bytes, too_large="Y009")
    except CardkitError as exc:
        raise YamlError(exc.issues[0]) from None
    if _MEMO is None:
        return parse_yaml(decode_utf8(raw, file), file)
    digest = hashlib.sha1(raw).digest()
    key = f"{path}\0{file}"
    seen = _MEMO.get(key)
    if seen is None or seen.digest != digest:
        seen = parse_yaml(decode_utf8(raw, file), file)
        seen.digest = digest
        _MEMO[key] = seen
    return YamlDoc(file, _plain_copy(seen.data), seen.marks, seen.key_marks, digest)


def _plain_copy(value: Any) -> Any:
    """A deep copy of parsed YAML (dicts, lists and immutable scalars only)."""
    if isinstance(value, dict):
        return {k: _plain_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain_copy(v) for v in value]
    return value
