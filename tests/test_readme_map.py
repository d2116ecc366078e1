"""The README's map of the box stays current: every page of docs/ in its table of pages, every
part of the package (top-level module or subpackage of cardkit/) in its tree."""

from __future__ import annotations

import re

from tests.conftest import REPO
from tests.test_floors import units

README = (REPO / "README.md").read_text(encoding="utf-8")


def box() -> str:
    return README[README.index("## What is in the box"):README.index("Data flows one way:")]


def test_every_docs_page_is_in_the_table_of_pages():
    pages = {p.name for p in (REPO / "docs").glob("*.md")}
    linked = set(re.findall(r"^\| \[([\w.-]+\.md)\]\(docs/\1\) \| ", box(), re.MULTILINE))
    assert pages - linked == set(), f"docs pages the README does not list: {sorted(pages - linked)}"
    assert linked - pages == set(), f"listed pages that are gone: {sorted(linked - pages)}"


def test_every_part_of_the_package_is_on_the_map():
    tree = box()
    missing = [u for u in sorted(units(REPO) - {"cardkit"})
               if not re.search(rf"(?<![\w/]){re.escape(u)}(/|\.py)(?=[\s,;)])", tree)]
    assert missing == [], f"parts of cardkit/ the README's box does not show: {missing}"
