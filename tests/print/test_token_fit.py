"""Issue 32, point 6: one fit rule for the token page's texts across their discs,
shared by ``l10n check`` and the PDF build.  A token label that does not fit even
at its minimum size is a T950 in the check and a P010 in the build (one located
line, exit 1, nothing written), where it used to print across the token's
outline with exit 0; one a little too wide shrinks and prints inside the outline;
the pseudo-locale prints it in English with a W030."""

from __future__ import annotations

import json
from pathlib import Path

from babel.messages.pofile import read_po, write_po
from pypdf import PdfReader

from cardkit.layout.fonts import FontBook
from cardkit.layout.sheet import plan_sheet
from cardkit.layout.units import MM
from cardkit.printing import TOKEN_LABEL, TOKEN_MARGIN, TOKEN_R, TokenText, token_text_fit

FAR_TOO_WIDE = "Merijalkaväen tukimerkki ja suojapoletti"  # about 2.5 times the token's width at 6 pt
A_LITTLE_TOO_WIDE = "Tukimerkkejä"  # a little wider than the token at 6 pt, fits at 5.7 pt
PO = "locales/fi/LC_MESSAGES/death-angel.po"


def _set_label(project: Path, label: str) -> int:
    """Put ``label`` as the Finnish support token's label; the line of its entry."""
    path = project / PO
    with path.open("rb") as f:
        cat = read_po(f, locale="fi")
    msg = next(m for m in cat if m.context == "tokens.support")
    msg.string = label
    with path.open("wb") as f:
        write_po(f, cat, width=0)
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if line == 'msgctxt "tokens.support"')


def _support_findings(project: Path, cli) -> list[dict]:
    result = cli("l10n", "check", "--root", str(project), "--locale", "fi", "--format", "json")
    return [f for f in json.loads(result.out)["findings"] if f["msgctxt"] == "tokens.support" and f["check"] == "T950"]


def test_the_rule_shrinks_to_its_minimum_and_no_further():
    book = FontBook()
    role, nominal, _ = TOKEN_LABEL
    wide = book.width(A_LITTLE_TOO_WIDE, book.chain("fi", role), nominal)
    little = token_text_fit(book, "fi", A_LITTLE_TOO_WIDE, TokenText.TOKEN_LABEL)
    assert wide > little.room  # too wide at its nominal size ...
    assert little.ok and little.min_size <= little.size < nominal and little.width <= little.room  # ... fits shrunk
    assert book.width(A_LITTLE_TOO_WIDE, book.chain("fi", role), little.size + 0.1) > little.room  # the largest step
    far = token_text_fit(book, "fi", FAR_TOO_WIDE, TokenText.TOKEN_LABEL)
    assert not far.ok and far.size == far.min_size and far.width > far.room
    assert "at its minimum 4.8pt" in far.describe()
    short = token_text_fit(book, "fi", "Tuki", TokenText.TOKEN_LABEL)
    assert short.ok and short.size == nominal


def test_a_label_far_too_wide_is_refused_by_check_and_build_alike(project: Path, cli):
    entry = _set_label(project, FAR_TOO_WIDE)
    findings = _support_findings(project, cli)
    assert [(f["check"], f["file"].endswith(PO)) for f in findings] == [("T950", True)], findings
    line = findings[0]["line"]
    assert line in (entry, entry + 1)  # the entry's msgctxt or msgid line
    assert findings[0]["message"].startswith("token page, token label: ")
    result = cli("build", "pdf", "--root", str(project), "--set", "death-angel", "--locale", "fi")
    assert result.code == 1
    lines = result.err.strip().splitlines()
    assert len(lines) == 1, result.err
    assert lines[0].startswith(f"{PO}:{line}:1: error[P010]: tokens.support (fi) does not fit the token page's "
                               f"token label: '{FAR_TOO_WIDE}' is "), lines[0]
    assert "Traceback" not in result.err
    assert not list(project.glob("output/*.pdf"))  # nothing written


def _label_on_pdf(path: Path, label: str) -> list[tuple[float, float, float]]:
    """(x, baseline y, size) of each run of ``label`` on the token page (the last page
    with text: a duplex build ends on the token page's blank back)."""
    page = next(p for p in reversed(PdfReader(str(path)).pages) if p.extract_text().strip())
    found: list[tuple[float, float, float]] = []

    def visit(text: str, cm: list[float], tm: list[float], font: object, size: float) -> None:
        if text.strip() == label:
            scale = (tm[0] * tm[0] + tm[1] * tm[1]) ** 0.5 * (cm[0] * cm[0] + cm[1] * cm[1]) ** 0.5
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            found.append((x, y, size * scale))

    page.extract_text(visitor_text=visit)
    return found


def test_a_label_a_little_too_wide_shrinks_and_prints_inside_the_token(project: Path, cli):
    _set_label(project, A_LITTLE_TOO_WIDE)
    assert _support_findings(project, cli) == []  # the check passes what the printer shrinks
    result = cli("build", "pdf", "--root", str(project), "--set", "death-angel", "--locale", "fi")
    assert result.code == 0, result.err
    runs = _label_on_pdf(project / "output" / "death-angel-fi-a4.pdf", A_LITTLE_TOO_WIDE)
    assert runs, "the label is not on the token page"
    book = FontBook()
    role, nominal, dy = TOKEN_LABEL
    sheet = plan_sheet("a4", 63 * MM, 88 * MM, None)
    cx, cy = TOKEN_MARGIN + TOKEN_R, sheet.page_h - 30 * MM - TOKEN_R  # the first token's centre
    x, y, size = min(runs, key=lambda r: (-r[1], r[0]))  # the first token: top row, leftmost
    assert abs(y - (cy + dy)) < 0.01 and size < nominal
    width = book.width(A_LITTLE_TOO_WIDE, book.chain("fi", role), size)
    half_chord = (TOKEN_R ** 2 - dy ** 2) ** 0.5
    assert cx - half_chord - 0.01 <= x and x + width <= cx + half_chord + 0.01, (x, width, cx, half_chord)


def test_the_pseudo_locale_prints_the_label_in_english_with_a_warning(project: Path, cli):
    assert cli("l10n", "pseudo", "--root", str(project)).code == 0
    path = project / "locales" / "qps" / "LC_MESSAGES" / "death-angel.po"
    with path.open("rb") as f:
        cat = read_po(f, locale="fi")
    next(m for m in cat if m.context == "tokens.support").string = FAR_TOO_WIDE
    with path.open("wb") as f:
        write_po(f, cat, width=0)
    result = cli("build", "pdf", "--root", str(project), "--set", "death-angel", "--locale", "qps")
    assert result.code == 0, result.err
    warned = [x for x in result.err.splitlines() if "tokens.support" in x]
    assert len(warned) == 1 and "warning[W030]: tokens.support (qps) prints in English on the token page" in warned[0]
    pdf = project / "output" / "death-angel-qps-a4.pdf"
    assert len(_label_on_pdf(pdf, "Support")) > 0 and _label_on_pdf(pdf, FAR_TOO_WIDE) == []


def test_an_instruction_wider_than_the_page_is_refused_as_the_check_reports_it(project: Path, cli):
    """The token page's cutting instruction is one line between the page's margins
    (not shrunk): the check's T950 and the build's P010 name the same entry."""
    path = project / "locales" / "fi" / "LC_MESSAGES" / "ui.po"
    with path.open("rb") as f:
        cat = read_po(f, locale="fi")
    next(m for m in cat if m.context == "tokens.cut").string = "Leikkaa merkit irti ääriviivoja pitkin. " * 5
    with path.open("wb") as f:
        write_po(f, cat, width=0)
    result = cli("l10n", "check", "--root", str(project), "--locale", "fi", "--format", "json")
    found = [f for f in json.loads(result.out)["findings"] if f["msgctxt"] == "tokens.cut" and f["check"] == "T950"]
    assert len(found) == 1 and found[0]["message"].startswith("token page, instruction: "), found
    result = cli("build", "pdf", "--root", str(project), "--set", "death-angel", "--locale", "fi")
    assert result.code == 1
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        f"{found[0]['file']}:{found[0]['line']}:1: error[P010]: tokens.cut (fi) does not fit the token page's "
        "instruction: "), result.err
    assert "between its margins" in lines[0] and not list(project.glob("output/*.pdf"))
