"""`cardkit l10n review`: the static review page, read back as HTML and opened
in a real browser (Debian's Chromium driven by playwright)."""

from __future__ import annotations

import io
import shutil
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po

from cardkit.i18n.review import MARKER, image_name, write_review
from cardkit.load.project import load_project
from cardkit.printing import compose_set
from tests.conftest import REPO

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
# planted in the Finnish catalogs: a changed number, and a briefing that cannot fit its box
NUMBER = ("death-angel", "secret_route.text", "2 tukipelimerkkiä", "5 tukipelimerkkiä")
OVERFLOW = ("deep-strike", "ds2_probing_advance.briefing")
OFF_CARD = ("ui", "tokens.cut", ".", ".  ")  # printed on the token page, on no card face: a T801 double space


@dataclass
class Article:
    id: str
    attrs: dict[str, str]
    imgs: list[str] = field(default_factory=list)
    boxes: list[dict[str, str]] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)  # text of each finding item
    contexts: list[str] = field(default_factory=list)  # msgctxt cells of the entries table


class _Page(HTMLParser):
    """The cards of a review page as the browser would see them (no script run)."""

    def __init__(self) -> None:
        super().__init__()
        self.articles: list[Article] = []
        self.summary_rows: list[list[str]] = []
        self._stack: list[str] = []
        self._text: list[str] | None = None
        self._in_summary = False
        self._row: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "article":
            self.articles.append(Article(a["id"], a))
        elif tag == "img" and self.articles:
            self.articles[-1].imgs.append(a["src"])
        elif tag == "div" and "box" in a.get("class", "").split() and self.articles:
            self.articles[-1].boxes.append(a)
        elif tag == "li" and "data-severity" in a:
            self._text = []
        elif tag == "td" and "ctx" in a.get("class", "") and self.articles:
            self._text = []
        elif tag == "table" and a.get("id") == "summary":
            self._in_summary = True
        elif tag == "tr" and self._in_summary:
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._text = []
        self._stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        text = "".join(self._text).strip() if self._text is not None else None
        if tag == "li" and text is not None:
            self.articles[-1].findings.append(text)
            self._text = None
        elif tag in ("td", "th") and self._row is not None and text is not None:
            self._row.append(text)
            self._text = None
        elif tag == "td" and text is not None:
            self.articles[-1].contexts.append(text)
            self._text = None
        elif tag == "tr" and self._row is not None:
            self.summary_rows.append(self._row)
            self._row = None
        elif tag == "table":
            self._in_summary = False

    def handle_data(self, data: str) -> None:
        if self._text is not None:
            self._text.append(data)


def parse(path: Path) -> _Page:
    p = _Page()
    p.feed(path.read_text(encoding="utf-8"))
    return p


def _plant(project: Path) -> None:
    for domain, ctx, *change in (NUMBER, OVERFLOW, OFF_CARD):
        path = project / "locales" / "fi" / "LC_MESSAGES" / f"{domain}.po"
        cat = read_po(io.BytesIO(path.read_bytes()), locale="fi")
        msg = next(m for m in cat if m.context == ctx)
        if change:
            assert change[0] in msg.string
            msg.string = msg.string.replace(change[0], change[1], 1)
        else:
            msg.string = " ".join([msg.string] * 8)
        buf = io.BytesIO()
        write_po(buf, cat, width=78)
        path.write_bytes(buf.getvalue())


@pytest.fixture(scope="module")
def review(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Both sets reviewed in Finnish with two planted faults (72 dpi: enough to look at)."""
    root = tmp_path_factory.mktemp("review")
    for name in ("cards", "locales"):
        shutil.copytree(REPO / name, root / name)
    _plant(root)
    out = root / "out" / "review"
    write_review(root, load_project(root), out, ["fi"], dpi=72)
    return root, out


def _faces_showing(root: Path, set_id: str, msgctxt: str) -> set[str]:
    """Face ids whose laid-out text includes ``msgctxt`` (from the layout itself)."""
    items, extras = compose_set(root, load_project(root).card_set(set_id), "fi")
    return {face.id for it in items + extras for face in (it.front, it.back) if face is not None
            and any(msgctxt in f.key.split(",") for f in face.fits)}


def test_every_face_is_on_the_page_with_both_images(review: tuple[Path, Path]) -> None:
    root, out = review
    page = parse(out / "fi.html")
    project = load_project(root)
    for set_id in ("death-angel", "deep-strike"):
        items, extras = compose_set(root, project.card_set(set_id), "fi")
        ids = list(dict.fromkeys(f.id for it in items + extras for f in (it.front, it.back) if f is not None))
        on_page = [a.id.split("--", 1)[1] for a in page.articles if a.attrs["data-set"] == set_id]
        assert on_page == ids  # print order, each distinct face once
    for a in page.articles:
        face = a.id.split("--", 1)[1]
        assert a.imgs == [f"img/{a.attrs['data-set']}/en/{image_name(face)}", f"img/{a.attrs['data-set']}/fi/{image_name(face)}"]
        for src in a.imgs:
            assert (out / src).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (out / MARKER).is_file() and (out / "index.html").is_file()
    assert not list(out.parent.glob(".review.*"))  # no staging folder left behind


def test_planted_faults_are_marked_on_the_faces_that_show_them(review: tuple[Path, Path]) -> None:
    root, out = review
    page = parse(out / "fi.html")
    by_id = {a.id: a for a in page.articles}
    for (set_id, ctx, *_), code in ((NUMBER, "T401"), (OVERFLOW, "T950")):
        showing = _faces_showing(root, set_id, ctx)
        assert showing
        for face in showing:
            a = by_id[f"{set_id}--{face}"]
            hits = [t for t in a.findings if code in t and ctx in t]
            assert hits, (face, a.findings)
            assert "error" in hits[0]
            assert ctx in a.contexts  # the entry itself is listed with the card
            assert any("error" in b["class"] for b in a.boxes)  # and its text box outlined in red
    # the briefing that does not fit: its outlined box says why
    a = by_id[f"deep-strike--{next(iter(_faces_showing(root, *OVERFLOW)))}"]
    assert any("T950" in b["title"] and "briefing" in b["title"] for b in a.boxes if "error" in b["class"])


def test_findings_on_no_face_are_listed_at_the_top(review: tuple[Path, Path]) -> None:
    root, out = review
    assert not any(_faces_showing(root, set_id, "ui:tokens.cut") for set_id in ("death-angel", "deep-strike"))
    text = (out / "fi.html").read_text(encoding="utf-8")
    top = text.split('id="catalog-findings"', 1)[1].split("</ul>", 1)[0]
    assert "T801" in top and "tokens.cut" in top and "locales/fi/LC_MESSAGES/ui.po:" in top
    assert all("tokens.cut" not in t for a in parse(out / "fi.html").articles for t in a.findings)
    index = (out / "index.html").read_text(encoding="utf-8")
    row = index.split('<a href="fi.html">fi</a>', 1)[1].split("</tr>", 1)[0]
    assert row.endswith(f'<td class="n">{top.count("<li>")}</td>')  # the index counts them too


def test_faces_without_findings_carry_none(review: tuple[Path, Path]) -> None:
    """A face is marked only for its own entries: those of the shipped catalogs
    that `l10n check` passes show no error, only shrink notes."""
    root, out = review
    page = parse(out / "fi.html")
    planted = _faces_showing(root, NUMBER[0], NUMBER[1]) | _faces_showing(root, *OVERFLOW)
    clean = [a for a in page.articles if a.id.split("--", 1)[1] not in planted]
    assert clean
    for a in clean:
        assert not any("error" in t.split()[0] for t in a.findings), (a.id, a.findings)
        assert int(a.attrs["data-findings"]) == len(a.findings)
        assert all("shrink" in t for t in a.findings)
        assert len(a.boxes) == len(a.findings)  # each shrunk box outlined once


def test_summary_counts_the_faces_below_it(review: tuple[Path, Path]) -> None:
    root, out = review
    page = parse(out / "fi.html")
    body = [r for r in page.summary_rows[1:] if r[0] != "total"]
    assert {(r[0], r[1]) for r in body} == {(a.attrs["data-set"], a.attrs["data-kind"]) for a in page.articles}
    for set_id, kind, faces, with_findings, entries, translated, *_ in body:
        arts = [a for a in page.articles if a.attrs["data-set"] == set_id and a.attrs["data-kind"] == kind]
        assert int(faces) == len(arts)
        assert int(with_findings) == sum(a.attrs["data-findings"] != "0" for a in arts)
        assert int(entries) == len({c for a in arts for c in a.contexts})
        assert int(translated) <= int(entries)
    planted = {f"{d}--{f}" for d, ctx, *_ in (NUMBER, OVERFLOW) for f in _faces_showing(root, d, ctx)}
    kinds = {(a.attrs["data-set"], a.attrs["data-kind"]) for a in page.articles if a.id in planted}
    assert {(r[0], r[1]) for r in body if int(r[6])} == kinds  # errors only where the faults were planted


def test_page_in_chromium_images_load_and_filters_work(review: tuple[Path, Path]) -> None:
    from playwright.sync_api import sync_playwright

    _, out = review
    page_html = parse(out / "fi.html")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.goto((out / "fi.html").as_uri())
            page.wait_for_load_state("load")
            imgs = page.evaluate("Array.from(document.images).map(i => [i.getAttribute('src'), i.complete, i.naturalWidth])")
            assert len(imgs) == 2 * len(page_html.articles)
            assert all(done and width > 0 for _, done, width in imgs), [s for s, d, w in imgs if not (d and w > 0)]

            def visible() -> set[str]:
                return set(page.evaluate("Array.from(document.querySelectorAll('article.card'))"
                                         ".filter(a => a.offsetParent !== null).map(a => a.id)"))

            everything = {a.id for a in page_html.articles}
            assert visible() == everything
            page.check("#only-findings")
            with_findings = {a.id for a in page_html.articles if a.attrs["data-findings"] != "0"}
            assert with_findings and with_findings != everything
            assert visible() == with_findings
            assert page.text_content("#shown") == str(len(with_findings))
            page.uncheck("#only-findings")
            assert visible() == everything
            for kind in ("location", "scenario"):
                page.select_option("#kind", kind)
                assert visible() == {a.id for a in page_html.articles if a.attrs["data-kind"] == kind}
            page.check("#only-findings")
            assert visible() == {a.id for a in page_html.articles if a.attrs["data-kind"] == "scenario"} & with_findings
            page.screenshot(path=str(out.parent / "review-fi.png"))
        finally:
            browser.close()


def test_same_inputs_same_bytes_whatever_the_workers(tmp_path: Path) -> None:
    project = load_project(REPO)
    a, b = tmp_path / "a", tmp_path / "b"
    write_review(REPO, project, a, ["ko"], ["deep-strike"], dpi=72, jobs=1)
    write_review(REPO, project, b, ["ko"], ["deep-strike"], dpi=72, jobs=2)
    files = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file())
    assert len(files) > 20
    for f in files:
        assert (a / f).read_bytes() == (b / f).read_bytes(), f


def test_bad_arguments_are_all_reported_and_nothing_written(project: Path, cli) -> None:
    out = project / "review"
    r = cli("l10n", "review", "--root", str(project), "--out", str(out), "--locale", "de", "--locale", "zz_QQ",
            "--locale", "en", "--locale", "../x", "--set", "nope", "--dpi", "5")
    assert r.code == 1
    lines = r.err.strip().splitlines()
    # zz_QQ is a locale name without catalogs (L005, as in every l10n command); ../x is no locale name (L003)
    assert sorted(line.split("error[")[1][:4] for line in lines) == ["B005", "L003", "L005", "L005", "L005", "P002"]
    assert "Traceback" not in r.err and not out.exists()


def test_out_that_is_not_a_review_folder_is_left_alone(project: Path, cli) -> None:
    (project / "notes").mkdir()
    (project / "notes" / "keep.txt").write_text("mine")
    (project / "afile").write_text("x")
    for target, code in ((project / "notes", "V002"), (project / "afile", "V002"), (project / "afile" / "sub", "V001")):
        r = cli("l10n", "review", "--root", str(project), "--out", str(target), "--set", "deep-strike", "--dpi", "72")
        assert r.code == 1 and f"error[{code}]" in r.err and "Traceback" not in r.err, r.err
    assert (project / "notes" / "keep.txt").read_text() == "mine"
    assert (project / "afile").read_text() == "x"
    assert sorted(p.name for p in project.iterdir()) == ["afile", "cards", "locales", "notes", "schemas"]


def test_a_failed_run_leaves_the_previous_review_untouched(project: Path, cli) -> None:
    out = project / "output" / "review"  # the default --out
    r = cli("l10n", "review", "--root", str(project), "--set", "deep-strike", "--locale", "ko", "--dpi", "72")
    assert r.code == 0, r.err
    assert f"wrote {out / 'index.html'}" in r.out
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    (project / "locales" / "ko" / "LC_MESSAGES" / "deep-strike.po").write_text('msgid "broken\n', encoding="utf-8")
    r = cli("l10n", "review", "--root", str(project), "--out", str(out), "--set", "deep-strike", "--locale", "ko", "--dpi", "72")
    assert r.code == 1 and "error[L001]" in r.err and "Traceback" not in r.err, r.err
    assert {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    assert [p.name for p in out.parent.iterdir()] == ["review"]  # no staging folder left behind
