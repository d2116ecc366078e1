"""The review page's bundled fonts, search box and severity filter, in Chromium."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from cardkit.i18n.review import write_review
from cardkit.load.project import load_project
from tests.conftest import REPO
from tests.i18n.test_l10n_check import _mutate
from tests.i18n.test_review import CHROMIUM, CHROMIUM_ARGS


@pytest.fixture(scope="module")
def korean(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Deep Strike reviewed in Korean, with a trailing space planted (a T801 error on one face)."""
    root = tmp_path_factory.mktemp("review-ko")
    for name in ("cards", "locales"):
        shutil.copytree(REPO / name, root / name)
    _mutate(root, {"locale": "ko", "mutations": [
        {"domain": "deep-strike", "msgctxt": "ds1_secure_the_airhead.briefing", "append": " ", "expect": ["T801"]}]})
    out = root / "review"
    write_review(root, load_project(root), out, ["ko"], ["deep-strike"], dpi=72)
    return out


def test_korean_shows_in_the_bundled_font_and_filters_work(korean: Path) -> None:
    from playwright.sync_api import sync_playwright

    assert sorted(p.name for p in (korean / "fonts").iterdir()) == ["fonts.css"]
    assert '<link rel="stylesheet" href="fonts/fonts.css">' in (korean / "ko.html").read_text(encoding="utf-8")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.goto((korean / "ko.html").as_uri())
            # the Korean face loads when text needs it; wait for it as a reader's browser does
            page.evaluate("document.fonts.load('16px cardkit-kr', '진스틸러').then(() => document.fonts.ready).then(() => true)")
            # the font Chromium drew a Korean table cell with: the bundled Nanum Gothic, not a system
            # font, and every glyph from it (tofu would be glyphs of a fallback or none)
            cdp = page.context.new_cdp_session(page)
            cdp.send("DOM.enable")
            cdp.send("CSS.enable")
            # the first translation cell whose own text is Korean
            cell = page.evaluate("""() => { const td = Array.from(document.querySelectorAll('table.entries td:nth-child(3)'))
                .find(t => /[\\uac00-\\ud7a3]{3}/.test(t.firstChild && t.firstChild.textContent || ''));
                td.id = 'korean-cell'; return td.firstChild.textContent; }""")
            doc = cdp.send("DOM.getDocument", {"depth": 0})
            node = cdp.send("DOM.querySelector", {"nodeId": doc["root"]["nodeId"], "selector": "#korean-cell"})
            fonts = {f["familyName"]: f for f in cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node["nodeId"]})["fonts"]}
            hangul = len(re.findall(r"[\uac00-\ud7a3]", cell))
            assert "NanumGothic" in fonts and fonts["NanumGothic"]["isCustomFont"], fonts  # the page's own @font-face
            assert fonts["NanumGothic"]["glyphCount"] >= hangul, (fonts, cell)  # every syllable drawn from it
            page.screenshot(path=str(korean.parent / "review-ko.png"))

            def visible() -> list[str]:
                return page.evaluate("Array.from(document.querySelectorAll('article.card'))"
                                     ".filter(a => a.offsetParent !== null).map(a => a.id)")

            every = visible()
            page.select_option("#severity", "error")
            errors = visible()
            assert errors == page.evaluate("Array.from(document.querySelectorAll('article.card'))"
                                           ".filter(a => a.dataset.errors !== '0').map(a => a.id)")
            assert 0 < len(errors) < len(every)
            page.select_option("#severity", "")
            page.fill("#search", "ds3_black_box_recovery.briefing")
            assert visible() and all("ds3_black_box_recovery" in a for a in visible()), visible()
            page.fill("#search", "진스틸러없는말")
            assert visible() == []
            page.fill("#search", "")
            assert visible() == every
        finally:
            browser.close()
