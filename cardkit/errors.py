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
from dataclasses import dataclass, field, replace
from typing import Iterable

JsonPath = tuple[str | int, ...]


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
        where = self.file or "cardkit"
        if self.line:
            where += f":{self.line}:{self.column or 1}"
        return f"{where}: {self.severity.value}[{self.code}]: {self.message}"

    def at(self, line: int, column: int) -> "Issue":
        return replace(self, line=line, column=column)

    def to_json(self) -> dict[str, object]:
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
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
