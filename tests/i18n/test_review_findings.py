"""The review page (issue 24, point 8): a finding on a string several faces show
is written out once with the list of faces it affects, the outlines and badges
leave the text of the box clear, and a finding about spaces shows the spaces.
Checked in Chromium through playwright."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cardkit.i18n.review import write_review
from cardkit.load.project import load_project
from cardkit.printing import compose_set
from tests.conftest import REPO
from tests.i18n.test_l10n_check import _mutate
from tests.i18n.test_review import CHROMIUM, CHROMIUM_ARGS

SHARED = "set.glossary.deep_strike.name"  # printed in the special-rules line of several scenarios
SPACED = "ds1_secure_the_airhead.briefing"


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("review-findings")
    for name in ("cards", "locales"):
        shutil.copytree(REPO / name, root / name)
    _mutate(root, {"locale": "fi", "mutations": [
        {"domain": "deep-strike", "msgctxt": SHARED, "append": " 5", "expect": ["T402"]},
        {"domain": "deep-strike", "msgctxt": SPACED, "replace": [" ", "  "], "expect": ["T801"]}]})
    out = root / "review"
    write_review(root, load_project(root), out, ["fi"], ["deep-strike"], dpi=72)
    return root, out


def _faces_showing(root: Path, msgctxt: str) -> list[str]:
    items, extras = compose_set(root, load_project(root).card_set("deep-strike"), "fi")
    return sorted({f"deep-strike--{face.id}" for it in items + extras for face in (it.front, it.back) if face is not None
                   and any(msgctxt in f.key.split(",") for f in face.fits)})


def test_shared_finding_once_outlines_clear_spaces_shown(reviewed: tuple[Path, Path]) -> None:
    from playwright.sync_api import sync_playwright

    root, out = reviewed
    showing = _faces_showing(root, SHARED)
    assert len(showing) >= 2
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto((out / "fi.html").as_uri())
            page.wait_for_load_state("load")
            items = page.evaluate("""ctx => Array.from(document.querySelectorAll('article.card li'))
                .filter(li => li.querySelector('.ctx') && li.querySelector('.ctx').textContent === ctx && li.textContent.includes('T402'))
                .map(li => [li.closest('article').id, li.textContent,
                            Array.from(li.querySelectorAll('.affects a')).map(a => a.getAttribute('href')),
                            Array.from(li.querySelectorAll('.same a')).map(a => a.getAttribute('href'))])""", SHARED)
            assert sorted(i[0] for i in items) == showing  # marked on every face that prints it
            full = [i for i in items if "only in the translation" in i[1]]
            assert len(full) == 1  # the message written out once
            first = full[0]
            assert first[2] == [f"#{a}" for a in sorted(showing, key=[i[0] for i in items].index)]  # with every face
            assert all(i[3] == [f"#{first[0]}"] for i in items if i is not first)  # the others point to it

            # outlines and badges: nothing drawn over the text box itself
            geometry = page.evaluate("""() => Array.from(document.querySelectorAll('.box')).map(b => {
                const s = getComputedStyle(b), r = b.getBoundingClientRect(), n = b.querySelector('span').getBoundingClientRect();
                return [s.borderTopWidth, s.borderLeftWidth, parseFloat(s.outlineOffset), parseFloat(s.outlineWidth),
                        [r.left, r.top, r.right, r.bottom], [n.left, n.top, n.right, n.bottom]]; })""")
            assert geometry
            for top, left, offset, width, (x0, y0, x1, y1), (a0, b0, a1, b1) in geometry:
                assert top == left == "0px" and offset >= 0 and width > 0
                assert a1 <= x0 or a0 >= x1 or b1 <= y0 or b0 >= y1  # the badge is outside the box

            # the double space is visible in the entry's translation
            cell = page.evaluate("""ctx => { const row = Array.from(document.querySelectorAll('table.entries tr'))
                .find(tr => tr.querySelector('td.ctx') && tr.querySelector('td.ctx').textContent === ctx);
                const td = row.querySelectorAll('td')[2]; return [td.innerText, td.querySelectorAll('.ws').length]; }""", SPACED)
            text, marks = cell
            assert "··" in text and marks == text.split("\n")[0].count("·")
            card = page.locator("article.card", has=page.locator("td.ctx", has_text=SPACED)).first
            card.screenshot(path=str(out.parent / "review-spaces.png"))
            # a translation without a whitespace finding keeps its plain spaces
            assert page.evaluate("() => document.querySelectorAll('.ws').length") == marks
        finally:
            browser.close()
