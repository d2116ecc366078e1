"""T950 on a box several catalog strings share (a Deep Strike card back):
the strings that grew most over their share are named, each on its own line."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po

from cardkit.i18n.report import check_translations
from cardkit.load.project import load_project

DEPLOYMENT = "ds3_black_box_recovery.deployment.text"
RESERVES = "ds3_black_box_recovery.reserves.text"


def grow(project: Path, times: int) -> None:
    path = project / "locales" / "fi" / "LC_MESSAGES" / "deep-strike.po"
    cat = read_po(io.BytesIO(path.read_bytes()), locale="fi")
    for m in cat:
        if m.context in (DEPLOYMENT, RESERVES):
            m.string = " ".join([m.string] * times)
    buf = io.BytesIO()
    write_po(buf, cat, width=78)
    path.write_bytes(buf.getvalue())


@pytest.mark.parametrize("times, status, named", [
    (6, "fits only at", [DEPLOYMENT]),  # the larger growth alone accounts for it
    (20, "overflows by", [DEPLOYMENT, RESERVES]),  # neither alone does
])
def test_overflow_names_the_grown_strings(project: Path, times, status, named):
    grow(project, times)
    report = check_translations(project, load_project(project), ["fi"], ["deep-strike"])
    t950 = [f for f in report.findings if f.check == "T950"]
    assert [f.msgctxt for f in t950] == named
    po = (project / "locales/fi/LC_MESSAGES/deep-strike.po").read_text(encoding="utf-8").splitlines()
    for f in t950:
        assert f.file == "locales/fi/LC_MESSAGES/deep-strike.po"
        assert po[f.line - 2] == f'msgctxt "{f.msgctxt}"'  # Babel's line is the msgid's
        assert f"field 'rules': {status}" in f.message and "strings sharing this box" in f.message
    assert "grew most over its share" in t950[0].message
    row = next(r for r in report.fit if r.card == "ds3_black_box_recovery" and r.field == "rules" and r.status != "fits")
    assert row.msgctxt == DEPLOYMENT  # the fit matrix names it too, not the box's first entry (scenario.deployment)
