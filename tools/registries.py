"""Write what cardkit's registries generate: run after adding or changing an element kind, a
translation check or a sheet layout (docs/contributing.md, "Adding an element kind", "Adding a
translation check", "Adding a sheet layout").

    python tools/registries.py          # rewrite the generated parts
    python tools/registries.py --check  # write nothing; exit 1 when a part is out of date

* ``schemas/face.schema.json``: ``$defs.element``, the element kinds and their keys
  (:func:`cardkit.layout.elements.element_schema`);
* ``docs/authoring.md``, "Elements": the table of element kinds
  (:func:`cardkit.layout.elements.docs_table`);
* ``docs/translation.md``, "Checks": the table of translation checks
  (:func:`cardkit.i18n.registry.docs_table`);
* ``docs/print.md``, "Sheets": the table of sheet layouts, between its two markers
  (:func:`cardkit.layout.sheetlayout.layout_table`).

``tests/layout/test_element_kinds.py``, ``tests/i18n/test_check_registry.py`` and
``tests/layout/test_sheet_layouts.py`` fail while a part is out of date.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from cardkit.i18n import registry as checks  # noqa: E402
from cardkit.layout import elements, sheetlayout  # noqa: E402


def splice_table(text: str, heading: str, table: str) -> str:
    """``text`` with the first table after the line ``heading`` replaced by ``table``."""
    head = text.index(f"\n{heading}\n") + len(heading) + 2
    start = text.index("\n|", head - 1) + 1
    end = start
    while end < len(text) and text.startswith("|", end):
        end = text.index("\n", end) + 1
    return text[:start] + table + "\n" + text[end:]


def splice_marked(text: str, start: str, end: str, table: str) -> str:
    """``text`` with what lies between the lines ``start`` and ``end`` replaced by ``table``."""
    head = text.index(start) + len(start)
    return text[:head] + "\n" + table + "\n" + text[text.index(end, head):]


def face_schema_text(text: str) -> str:
    schema = json.loads(text)
    schema["$defs"]["element"] = elements.element_schema()
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def outputs() -> dict[Path, str]:
    """Every generated file as it should be."""
    face = REPO / "schemas" / "face.schema.json"
    authoring = REPO / "docs" / "authoring.md"
    translation = REPO / "docs" / "translation.md"
    print_md = REPO / "docs" / "print.md"
    return {
        face: face_schema_text(face.read_text(encoding="utf-8")),
        authoring: splice_table(authoring.read_text(encoding="utf-8"), "### Elements", elements.docs_table()),
        translation: splice_table(translation.read_text(encoding="utf-8"), "## Checks", checks.docs_table()),
        print_md: splice_marked(print_md.read_text(encoding="utf-8"), sheetlayout.TABLE_START, sheetlayout.TABLE_END,
                                sheetlayout.layout_table()),
    }


def main(argv: list[str]) -> int:
    stale = 0
    for path, text in outputs().items():
        if path.read_text(encoding="utf-8") == text:
            continue
        stale += 1
        if "--check" in argv:
            print(f"{path.relative_to(REPO)}: out of date (python tools/registries.py)")
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(REPO)}")
    return 1 if stale and "--check" in argv else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
