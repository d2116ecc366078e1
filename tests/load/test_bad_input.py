"""Every kind of bad input gets a located one-line error, exit 1, no traceback.

Each case is a folder under ``tests/fixtures/bad``: replacement files and a
``case.yaml`` sidecar naming which project files they replace and the issues
expected (code, file, and line where the case pins it), or, for a case that
only warns (``exit: 0``), the exact lines ``validate`` prints on stderr.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml

from tests.conftest import FIXTURES

CASES = sorted(p.name for p in (FIXTURES / "bad").iterdir() if (p / "case.yaml").is_file())
LINE_RE = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+): error\[(?P<code>[A-Z]\d{3})\]: .+$")


def _apply(case_dir: Path, project: Path) -> dict:
    case = yaml.safe_load((case_dir / "case.yaml").read_text())
    for target, source in case["replace"].items():
        data = (case_dir / source).read_bytes()
        if "pad_to_bytes" in case:
            data += b"#" * case["pad_to_bytes"] + b"\n"
        (project / target).write_bytes(data)
    return case


def test_every_case_is_used():
    assert len(CASES) >= 20


@pytest.mark.parametrize("name", CASES)
def test_bad_input_is_reported(name: str, project: Path, cli):
    case = _apply(FIXTURES / "bad" / name, project)
    before = {p: p.read_bytes() for p in (project / "locales").rglob("*") if p.is_file()}
    result = cli("validate", "--root", str(project))
    if case.get("exit", 1) == 0:  # a warning: reported exactly, and nothing fails
        assert result.code == 0, result.err
        assert result.err.splitlines() == case["lines"]
        assert result.out.startswith("ok: ")
        assert cli("l10n", "update", "--root", str(project), "--check").code == 0
        return
    assert result.code == 1, result.err
    assert "Traceback" not in result.err + result.out
    lines = [ln for ln in result.err.splitlines() if ln and not ln.endswith("error(s)")]
    parsed = [LINE_RE.match(ln) for ln in lines]
    assert all(parsed), f"unformatted line in: {result.err}"
    for want in case["expect"]:
        hits = [m for m in parsed if m["code"] == want["code"] and m["file"] == want["file"]
                and ("line" not in want or int(m["line"]) == want["line"])]
        assert hits, f"expected {want} in:\n{result.err}"
    # the same broken project makes `l10n update` refuse and write nothing
    update = cli("l10n", "update", "--root", str(project))
    assert update.code == 1
    after = {p: p.read_bytes() for p in (project / "locales").rglob("*") if p.is_file()}
    assert after == before
    assert not list(project.rglob("*.tmp"))


def test_python_tag_is_not_executed(project: Path, cli, tmp_path: Path):
    marker = Path("/tmp/cardkit-pwned")
    marker.unlink(missing_ok=True)
    _apply(FIXTURES / "bad" / "python-tag", project)
    assert cli("validate", "--root", str(project)).code == 1
    assert not marker.exists()


def test_every_problem_in_one_run(project: Path, cli):
    """Problems in three different files are all reported at once."""
    d = project / "cards" / "death-angel"
    shutil.copy(FIXTURES / "bad" / "unknown-key" / "marines.yaml", d / "marines.yaml")
    shutil.copy(FIXTURES / "bad" / "negative-quantity" / "genestealers.yaml", d / "genestealers.yaml")
    shutil.copy(FIXTURES / "bad" / "syntax" / "terrain.yaml", d / "terrain.yaml")
    result = cli("validate", "--root", str(project))
    codes = sorted(set(re.findall(r"error\[(\w+)\]", result.err)))
    assert codes == ["S001", "S005", "Y001"]


def test_oversized_values_get_short_error_lines(project: Path, cli):
    """A file with more cards than the schema allows and a pasted 10 KB text:
    each error names the count or length and the limit, never the value."""
    events = project / "cards" / "death-angel" / "events.yaml"
    doc = yaml.safe_load(events.read_text(encoding="utf-8"))
    doc["cards"] = [dict(c, id=f"{c['id']}_{i}") for i in range(40) for c in doc["cards"]][:630]
    doc["cards"][3]["text"] = "Lorem ipsum dolor. " * 530
    events.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    result = cli("validate", "--root", str(project))
    assert result.code == 1
    lines = [ln for ln in result.err.splitlines() if "error[" in ln]
    assert lines and all(len(ln) < 200 for ln in lines), max(lines, key=len)[:400]
    assert any("error[S006]: 630 cards in one file; at most 500: split the file" in ln for ln in lines), lines
    assert any(f"a text of {len(doc['cards'][3]['text'])} characters; at most" in ln for ln in lines), lines
    assert "Lorem" not in result.err
