"""Problems found in user data, and the one exception type cardkit raises.

Every problem cardkit reports is an :class:`Issue`: a stable code, a severity,
the file it concerns, where in that file, and a one-line message.  Loaders and
checkers *collect* issues instead of raising, so one run reports every problem.
:class:`CardkitError` carries a list of issues across the single exception
boundary in the CLI.

>>> Issue("Y003", "duplicate key 'id'", file="cards/x.yaml", line=4, column=3).format()
"cards/x.yaml:4:3: error[Y003]: duplicate key 'id'"
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field, replace
from typing import Iterable

JsonPath = tuple[str | int, ...]

# What a terminal or a page would act on instead of showing: C0 controls (ESC, BEL, backspace, CR, LF,
# tab), DEL and C1 controls, the bidi embeddings, overrides and isolates (U+202A-202E, U+2066-2069) and
# the line and paragraph separators, and lone surrogates (a YAML or PO escape can make one).
UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff]")
BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")


def neutral(text: str, keep: str = "") -> str:
    r"""``text`` with every character a terminal or a page would act on written
    as a visible escape (``\x1b``, ``\u202e``, ``\ud800``): the one helper
    every message goes through (:meth:`Issue.format`), so no line from cardkit
    moves the cursor, recolours the terminal or reorders what it shows.
    ``keep``: characters left as they are (a page keeps its line breaks).

    >>> neutral("saa \u202e1+\u202c voimaa"), neutral("\x1b[31mred\x07"), neutral("ok: äö 한국")
    ('saa \\u202e1+\\u202c voimaa', '\\x1b[31mred\\x07', 'ok: äö 한국')
    """
    if not UNSAFE.search(text):
        return text
    return UNSAFE.sub(lambda m: m.group() if m.group() in keep else _escape(m), text) if keep else UNSAFE.sub(_escape, text)


def _escape(m: re.Match[str]) -> str:
    n = ord(m.group())
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}"


def neutral_json(value: object, indent: int | None = 2) -> str:
    r"""``value`` as JSON text (non-ASCII letters kept) with every character of
    :data:`UNSAFE` written as a JSON ``\uXXXX`` escape: the same text to a JSON
    reader, nothing live on a terminal (``--format json`` output).

    >>> print(neutral_json({"m": "saa \u202e1+ \x7f ä\n"}))
    {
      "m": "saa \u202e1+ \u007f ä\n"
    }
    """
    import json

    text = json.dumps(value, ensure_ascii=False, indent=indent)
    # (JSON writes a control inside a string as an escape already; a line break here is the indent's)
    return UNSAFE.sub(lambda m: m.group() if m.group() == "\n" else f"\\u{ord(m.group()):04x}", text)


def quoted(value: str) -> str:
    r"""A value quoted in a message, neutral (:func:`neutral`).

    >>> print(quoted("gun_jam"), quoted("a\x1bb"))
    'gun_jam' 'a\x1bb'
    """
    return f"'{neutral(value)}'"


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True)
class Issue:
    """One problem in one place.

    ``path`` is the JSON path of the offending node inside the file (used to
    find a line when none is given, and shown in JSON output).
    """

    code: str
    message: str
    file: str = ""
    line: int = 0
    column: int = 0
    severity: Severity = Severity.ERROR
    path: JsonPath = field(default=())

    def format(self) -> str:
        """The one-line form, neutral (:func:`neutral`): a file name or message made
        from the data never reaches a terminal as a live control."""
        where = neutral(self.file) or "cardkit"
        if self.line:
            where += f":{self.line}:{self.column or 1}"
        return f"{where}: {self.severity.value}[{self.code}]: {neutral(self.message)}"

    def at(self, line: int, column: int) -> "Issue":
        return replace(self, line=line, column=column)

    def to_json(self) -> dict[str, object]:
        return {
            "file": neutral(self.file),
            "line": self.line,
            "column": self.column,
            "code": self.code,
            "severity": self.severity.value,
            "message": neutral(self.message),
        }


def sort_issues(issues: Iterable[Issue]) -> list[Issue]:
    """Issues in reading order: by file, then line, then column, then code."""
    return sorted(issues, key=lambda i: (i.file, i.line, i.column, i.code, i.message))


class CardkitError(Exception):
    """Raised when an operation cannot go on; carries every issue found."""

    def __init__(self, issues: Iterable[Issue] | Issue | str, code: str = "E000") -> None:
        if isinstance(issues, str):
            issues = [Issue(code, issues)]
        elif isinstance(issues, Issue):
            issues = [issues]
        self.issues: list[Issue] = list(issues)
        super().__init__("\n".join(i.format() for i in self.issues))

    def __reduce__(self) -> tuple[type["CardkitError"], tuple[list[Issue]]]:
        """Pickled with its issues (an error raised in a worker process keeps its codes and places)."""
        return (CardkitError, (self.issues,))
