"""The limits a project's data files are held to, in one place.

A face or kinds file is untrusted: whatever its numbers and structure, loading
and drawing it must end quickly in bounded memory.  The schemas bound what
JSON Schema can (ranges of plain numbers, list sizes); the loaders check the
rest against these limits (lengths written as expressions, depth and fan-out
of groups, repeat counts) and the composer enforces the ones that depend on
card data while it draws.

>>> finite_issues(parse_yaml("a: [1, .nan, {b: .inf}]\\n", "f.yaml"))[0].format()
'f.yaml:1:8: error[S008]: nan is not a finite number'
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from cardkit.errors import Issue, JsonPath
from cardkit.load.yamlsafe import YamlDoc, parse_yaml  # noqa: F401  (parse_yaml: the doctest)

MAX_LENGTH_PT = 14_400.0  # 200 in, the largest page a PDF viewer must show; any length, either sign
MAX_FONT_PT = 500.0  # a text or badge size
MAX_REPEAT = 1_000  # items one `repeat` draws
MAX_DEPTH = 32  # groups, `use`, column blocks and join parts nested in one another
MAX_ELEMENTS = 5_000  # elements one face draws (every `use` and `repeat` expanded) and ops it holds
REGEX_TIMEOUT_S = 0.05  # one match of a pattern from kinds.yaml against one value


def non_finite(data: Any, path: JsonPath = ()) -> Iterator[tuple[JsonPath, float]]:
    """``(path, value)`` of every float in ``data`` that is NaN or infinite."""
    if isinstance(data, float):
        if not math.isfinite(data):
            yield path, data
    elif isinstance(data, dict):
        for k, v in data.items():
            yield from non_finite(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from non_finite(v, path + (i,))


def finite_issues(doc: YamlDoc) -> list[Issue]:
    """An S008 for each NaN or infinity in the document (JSON Schema's ranges let NaN through)."""
    return [doc.issue("S008", f"{value} is not a finite number", path) for path, value in non_finite(doc.data)]


def with_finite(problems: list[Issue], doc: YamlDoc) -> list[Issue]:
    """Schema ``problems`` and the S008 of each NaN or infinity: one line for
    each such number (its range error, if any, is left out)."""
    extra = finite_issues(doc)
    bad = {i.path for i in extra}
    return [i for i in problems if i.path not in bad] + extra
