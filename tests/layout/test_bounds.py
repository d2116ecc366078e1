"""Budgets kept while drawing, for what only card data decides: repeat counts,
lengths over the repeat's ``n``, elements per face, colours and strings read
from the cards.  ``validate`` cannot see them (the face file is fine); ``build``
reports each as one line located at the element in ``faces.yaml``.  And the
bounded parts of the engines: the fit loop and data patterns."""

from __future__ import annotations

import math
import re
import time
from pathlib import Path

import pytest

from cardkit.errors import CardkitError
from cardkit.layout.fonts import FontBook
from cardkit.layout.textfit import BELOW_MIN_STEPS, Style, _below_min, fit
from cardkit.load.schema import bounded_validator
from cardkit.scaffold import init_project

FACES = "cards/starter/faces.yaml"
ANCHOR = "      - {type: use, group: border}\n      - {type: text, name: name"
LOCATED = re.compile(r"^cards/starter/faces\.yaml:(\d+):\d+: error\[([A-Z]\d{3})\]: face 'hero' of \w+[: ].+$")


@pytest.fixture
def starter(tmp_path: Path) -> Path:
    root = tmp_path / "game"
    init_project(root, "starter")
    return root


def _edit(root: Path, rel: str, old: str, new: str) -> None:
    p = root / rel
    text = p.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    p.write_text(text.replace(old, new), encoding="utf-8")


def _with_element(root: Path, element: str, power: int | None = None) -> int:
    """Add ``element`` to the hero face (the line it is on), and give the first hero that power."""
    _edit(root, FACES, ANCHOR, ANCHOR.replace("\n", f"\n      - {element}\n", 1))
    if power is not None:
        _edit(root, "cards/starter/kinds.yaml", "power: {type: integer, min: 0, max: 9}", "power: {type: integer, min: 0, max: 100000}")
        text = (root / "cards/starter/heroes.yaml").read_text(encoding="utf-8")
        (root / "cards/starter/heroes.yaml").write_text(re.sub(r"power: \d+", f"power: {power}", text, count=1), encoding="utf-8")
    lines = (root / FACES).read_text(encoding="utf-8").splitlines()
    return next(i for i, ln in enumerate(lines, 1) if ln.strip() == f"- {element}")


@pytest.mark.parametrize("element, power, code", [
    ("{type: circle, repeat: power, centre: [1mm, 1mm], r: 1mm}", 5000, "M017"),
    ("{type: circle, repeat: power, centre: [1mm/(n - 2), 1mm], r: 1mm}", 2, "M009"),
    ("{type: group, repeat: power, elements: [{type: circle, repeat: power, centre: [1mm, 1mm], r: 1mm}]}", 1000, "M014"),
    ("{type: circle, repeat: power, centre: [i*1000mm, 1mm], r: 1mm}", 9, "M011"),
    ("{type: circle, centre: [1mm, 1mm], r: 1mm, fill: {from: element}}", None, "M015"),
    ("{type: text, name: extra, style: body, box: [1mm, 1mm, 20mm, 5mm], string: 'nowhere.{id}'}", None, "M016"),
], ids=["repeat-count", "divide-by-n", "elements-per-face", "length-over-i", "colour-from-card", "string-key"])
def test_a_budget_that_card_data_breaks_is_one_located_line(starter: Path, cli, element: str, power: int | None, code: str):
    """The face file itself is fine; a card's data breaks a budget while drawing: `validate`
    (which composes every face for its print-quality checks) and `build` each give the one
    located line, in time, and no PDF is written."""
    line = _with_element(starter, element, power)
    for command in ("validate", "build"):
        start = time.perf_counter()
        result = cli(command, "--root", str(starter))
        assert time.perf_counter() - start < 10, command
        assert result.code == 1, (command, result.err)
        errors = [ln for ln in result.err.splitlines() if "error[" in ln]
        assert len(errors) == 1, (command, errors)
        m = LOCATED.match(errors[0])
        assert m and (int(m[1]), m[2]) == (line, code), (command, errors[0])
    assert not list((starter / "output").glob("*.pdf"))


def test_the_fit_loop_tries_a_bounded_number_of_sizes():
    assert len(_below_min(500.0, 0.5)) == BELOW_MIN_STEPS
    assert _below_min(9.0, 4.5) == [8.75 - 0.25 * k for k in range(18)]  # (every 0.25 pt, as always, when the gap is small)
    start = time.perf_counter()
    r = fit("word " * 400, Style("en"), 20, 20, 500, 500, FontBook())
    assert r.status == "overflow" and time.perf_counter() - start < 10
    for size in (0.0, -9.0, math.nan, math.inf, 1e9):
        with pytest.raises(CardkitError) as exc:
            fit("x", Style("en"), 20, 20, size, 6, FontBook())
        assert exc.value.issues[0].code == "M010"


def test_data_patterns_are_matched_in_bounded_time():
    start = time.perf_counter()
    nested = list(bounded_validator({"pattern": "^(a+)+$"}).iter_errors("a" * 60 + "!"))  # re backtracks for hours
    assert [e.validator for e in nested] == ["pattern"] and time.perf_counter() - start < 2
    start = time.perf_counter()
    (slow,) = bounded_validator({"pattern": "^(a|aa)+$"}).iter_errors("a" * 60 + "!")  # the regex engine too: timed out
    assert type(slow.cause).__name__ == "PatternTimeout" and time.perf_counter() - start < 2
