"""docs/errors.md lists every code the program can print, each once."""

from __future__ import annotations

import ast
import re
from collections import Counter

from tests.conftest import REPO

CODE = re.compile(r"[A-Z]\d{3}")


def source_codes() -> set[str]:
    """Every string constant in the package that has the form of an error code."""
    found = set()
    for path in (REPO / "cardkit").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and CODE.fullmatch(node.value):
                found.add(node.value)
    return found


def documented_codes() -> Counter[str]:
    text = (REPO / "docs" / "errors.md").read_text(encoding="utf-8")
    return Counter(m.group(1) for m in re.finditer(r"^\| ([A-Z]\d{3}) \|", text, re.M))


def test_every_code_in_the_source_is_documented_and_no_more():
    doc = documented_codes()
    src = source_codes()
    assert sorted(src - set(doc)) == [], "codes the program prints that docs/errors.md does not list"
    assert sorted(set(doc) - src) == [], "codes docs/errors.md lists that the program never prints"


def test_no_code_is_listed_twice():
    assert [c for c, n in documented_codes().items() if n > 1] == []
