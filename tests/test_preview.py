"""`cardkit preview` in a real browser (Debian's Chromium through playwright):
edit a card file of a temporary project and see the face change; break it and
see the error line with the old picture kept; fix it and see the error go.
Then the page's escaping, a folder that disappears, and a browser that
reconnects, against the real server."""

from __future__ import annotations

import json
import shutil
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from cardkit.preview import Preview, PreviewServer
from tests.conftest import REPO

EXAMPLE = REPO / "examples" / "tidelights"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
WAIT_MS = 30_000  # a loaded CI machine; the bench measures the speed (bench/bench_preview.py)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory):
    """One server for the module (its first drawing is the slow part); each
    test puts back what it changed (see ``page``)."""
    root = tmp_path_factory.mktemp("preview")
    for name in ("cards", "locales", "schemas"):
        shutil.copytree(EXAMPLE / name, root / name)
    server = PreviewServer(Preview(root, "tidelights", dpi=72), poll=5)
    server.start()
    yield root, server
    server.close()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(served, browser):
    root, server = served
    ships = root / "cards" / "tidelights" / "ships.yaml"
    text = ships.read_text(encoding="utf-8")
    pg = browser.new_page()
    pg.goto(server.url)
    pg.wait_for_selector('figure[data-id="kestrel"] img', timeout=WAIT_MS)
    yield pg
    pg.close()
    if ships.read_text(encoding="utf-8") != text:
        ships.write_text(text, encoding="utf-8")
        server.preview.rebuild()


def _src(page, face: str) -> str:
    return page.get_attribute(f'figure[data-id="{face}"] img', "src")


def _wait_src_change(page, face: str, old: str) -> str:
    page.wait_for_function(
        "([f, old]) => { const i = document.querySelector(`figure[data-id=\"${f}\"] img`);"
        " return i && i.getAttribute('src') !== old && i.complete && i.naturalWidth > 0; }",
        arg=[face, old], timeout=WAIT_MS)
    return _src(page, face)


def _issues(page) -> list[str]:
    return page.eval_on_selector_all("#issues li", "els => els.map(e => e.textContent)")


def test_edit_break_and_fix_a_card_file_in_the_page(served, page):
    root, _ = served
    ships = root / "cards" / "tidelights" / "ships.yaml"
    text = ships.read_text(encoding="utf-8")
    old, other = _src(page, "kestrel"), _src(page, "little_wren")
    assert _issues(page) == []
    ships.write_text(text.replace('"Kestrel"', '"Kittiwake"'), encoding="utf-8")
    new = _wait_src_change(page, "kestrel", old)
    assert _src(page, "little_wren") == other  # only the edited card was redrawn
    png = urllib.request.urlopen(page.url.split("?")[0] + new.lstrip("/")).read()
    assert png.startswith(b"\x89PNG")
    # break it: the error line in the CLI's form, the last good picture kept
    ships.write_text(text.replace('"Kestrel"', '"Kittiwake"') + "  - {id: broken, name: [\n", encoding="utf-8")
    page.wait_for_function("document.querySelectorAll('#issues li').length > 0", timeout=WAIT_MS)
    lines = _issues(page)
    assert len(lines) == 1 and lines[0].startswith("cards/tidelights/ships.yaml:") and "error[Y001]" in lines[0], lines
    assert _src(page, "kestrel") == new
    assert page.text_content("#status").startswith("broken")
    # fix it: the error goes, the face shows the fixed text
    ships.write_text(text, encoding="utf-8")
    page.wait_for_function("document.querySelectorAll('#issues li').length === 0", timeout=WAIT_MS)
    assert _wait_src_change(page, "kestrel", new) == old  # the same drawing as at the start, the same digest
    assert page.text_content("#status") == "ok"


def test_card_text_reaches_the_page_as_text_never_as_markup(served, page):
    root, _ = served
    ships = root / "cards" / "tidelights" / "ships.yaml"
    ships.write_text(ships.read_text(encoding="utf-8").replace("rig: skiff", "rig: <img src=x onerror=alert(1)>", 1),
                     encoding="utf-8")
    page.wait_for_function("document.querySelectorAll('#issues li').length > 0", timeout=WAIT_MS)
    lines = _issues(page)
    assert any("'<img src=x onerror=alert(1)>' is not one of: skiff, ketch, brig" in ln for ln in lines), lines
    assert page.query_selector("#issues img") is None


def test_locale_switch_front_back_and_zoom(served, page):
    fronts = page.eval_on_selector_all("figure[data-side=front]", "els => els.length")
    backs = page.eval_on_selector_all("figure[data-side=back]", "els => els.length")
    assert fronts > 0 and backs > 0
    page.select_option("#side", "back")
    assert page.is_hidden('figure[data-id="kestrel"]')
    page.select_option("#side", "all")
    en = _src(page, "kestrel")
    page.select_option("#locale", "fi")
    page.wait_for_function("() => { const i = document.querySelector('figure[data-id=\"kestrel\"] img');"
                           " return i && i.getAttribute('src').startsWith('/face/fi/') && i.complete; }", timeout=WAIT_MS)
    assert _src(page, "kestrel").split("?d=")[1] != en.split("?d=")[1]  # the Finnish face draws other text
    page.click('figure[data-id="kestrel"]')
    assert page.is_visible("#zoom img")
    assert page.get_attribute("#zoom img", "src").endswith(_src(page, "kestrel"))


def test_a_folder_that_disappears_and_a_browser_that_reconnects(served):
    root, server = served
    url = server.url

    def state(since: int = -1) -> dict:
        with urllib.request.urlopen(f"{url}state?locale=en&since={since}", timeout=30) as r:
            return json.loads(r.read())

    first = state()
    assert first["faces"] and not first["issues"]
    moved = root.parent / "moved-cards"
    (root / "cards").rename(moved)
    gone = state(first["version"])
    while not gone["issues"]:
        gone = state(gone["version"])
    assert gone["broken"] and "error[H002]" in gone["issues"][0]
    assert [f["digest"] for f in gone["faces"]] == [f["digest"] for f in first["faces"]]  # the last good faces stay
    moved.rename(root / "cards")
    back = state(gone["version"])
    while back["issues"]:
        back = state(back["version"])
    assert not back["broken"] and len(back["faces"]) == len(first["faces"])
    # a browser that went away mid-poll and comes back asks again from scratch
    assert state()["version"] >= back["version"]
    # a card file that disappears is the loader's F001, with the last good faces kept
    ships = root / "cards" / "tidelights" / "ships.yaml"
    text = ships.read_text(encoding="utf-8")
    ships.unlink()
    try:
        lost = state(back["version"])
        while not lost["issues"]:
            lost = state(lost["version"])
        assert any("error[F001]" in line and "ships.yaml" in line for line in lost["issues"]), lost["issues"]
        assert len(lost["faces"]) == len(first["faces"])
    finally:
        ships.write_text(text, encoding="utf-8")
    fixed = state(lost["version"])
    while fixed["issues"]:
        fixed = state(fixed["version"])
    assert not fixed["broken"]


def test_a_catalog_change_redraws_the_faces_of_that_translation_only(served):
    root, server = served
    preview = server.preview
    before = {f.id: f.digest for f in preview.view("fi").faces.values()}
    po = root / "locales" / "fi" / "LC_MESSAGES" / "tidelights.po"
    text = po.read_text(encoding="utf-8")
    at = text.index('msgctxt "kestrel.name"')
    msgstr = text.index("msgstr", at)
    end = text.index("\n", msgstr)
    po.write_text(text[:msgstr] + 'msgstr "Tuulihaukka II"' + text[end:], encoding="utf-8")
    try:
        preview.rebuild(["fi"])
        after = {f.id: f.digest for f in preview.views["fi"].faces.values()}
        assert [k for k in before if after[k] != before[k]] == ["kestrel"]
        assert preview.views["fi"].drawn == 1
    finally:
        po.write_text(text, encoding="utf-8")
        preview.rebuild(["fi"])


def test_the_server_answers_only_to_its_own_address(served):
    _, server = served
    req = urllib.request.Request(server.url + "state", headers={"Host": "evil.example:80"})
    with pytest.raises(urllib.error.HTTPError) as exc:
        urllib.request.urlopen(req, timeout=10)
    assert exc.value.code == 403


def test_a_port_that_is_taken_is_one_line(tmp_path: Path):
    import socket

    from cardkit.errors import CardkitError

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        with pytest.raises(CardkitError) as exc:
            PreviewServer(Preview(tmp_path, None), port)
    assert [i.code for i in exc.value.issues] == ["H003"]
    assert f"127.0.0.1:{port}" in exc.value.issues[0].format()
