"""A set's own SVG icons (faces.yaml ``icons:``) written inline in its text:
parsed as icons only where the set has them, laid out one em wide like the
built-in ones, drawn through svglib into a real PDF, and checked by the load
and translation checks.  Works on a copy of the example game Tidelights."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from cardkit.strings.localize import Localizer
from cardkit.layout.compose import Composer
from cardkit.layout.faces import load_faces
from cardkit.layout.fonts import FontBook
from cardkit.layout.ops import Group
from cardkit.layout.textfit import ICON_EM, Style, break_lines
from cardkit.load.project import load_project
from cardkit.printing import face_pdf
from cardkit.render.images import load_art, rasterize
from cardkit.text import markup_problems, parse_runs

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "tidelights"
LAMP = frozenset({"lamp"})
BOOK = FontBook()


@pytest.fixture
def game(tmp_path: Path) -> Path:
    root = tmp_path / "tidelights"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns("output"))
    return root


def test_a_set_icon_token_is_an_icon_only_where_the_set_has_it():
    text = "One [lamp] counts as <b>two</b> [skull]"
    assert [(r.kind, r.value) for r in parse_runs(text)] == [
        ("text", "One [lamp] counts as "), ("text", "two"), ("text", " "), ("icon", "skull")]
    assert [(r.kind, r.value) for r in parse_runs(text, icons=LAMP)] == [
        ("text", "One "), ("icon", "lamp"), ("text", " counts as "), ("text", "two"), ("text", " "), ("icon", "skull")]
    assert markup_problems(text) == ["unknown icon token '[lamp]'"]
    assert markup_problems(text, icons=LAMP) == []
    assert markup_problems("[lamp] [rope]", icons=LAMP) == ["unknown icon token '[rope]'"]


def test_an_inline_set_icon_takes_one_em_in_the_line():
    lines, _ = break_lines("Trim a [lamp] now", Style("en"), 10, 500, BOOK, icons=LAMP)
    pieces = lines[0].pieces
    icon = next(p for p in pieces if p.kind == "icon")
    after = pieces[pieces.index(icon) + 1]
    assert icon.value == "lamp" and icon.width == pytest.approx(10 * ICON_EM)
    assert after.x == pytest.approx(icon.x + icon.width)
    plain, _ = break_lines("Trim a [lamp] now", Style("en"), 10, 500, BOOK)
    assert [p.kind for p in plain[0].pieces] == ["text"]  # without the set's icons the token stays text


def _keeper_face(root: Path, locale: str):
    card_set = load_project(root).card_set("tidelights")
    comp = Composer(card_set, Localizer(root, locale, card_set), load_faces(root, card_set),
                    art=lambda rel: load_art(root / rel, rel))
    for item in comp.items():
        for fit in item.front.fits:
            if "ottilie_brann.ability" in fit.key.split(","):
                return item.front, fit
    raise AssertionError("no face shows ottilie_brann.ability")


@pytest.mark.parametrize("locale", ["en", "fi", "ko"])
def test_inline_set_icons_are_drawn_in_the_text_colour_into_a_real_pdf(game: Path, locale: str):
    face, fit = _keeper_face(game, locale)
    assert "[lamp]" in fit.text
    groups = [op for op in fit.ops if isinstance(op, Group) and type(op.ops[0]).__name__ == "SvgOp"]
    assert [g.ops[0].name for g in groups] == ["lamp", "lamp"]
    svg = groups[0].ops[0]
    texts = [op for op in fit.ops if type(op).__name__ == "Text"]
    assert svg.colour == texts[-1].colour  # one-colour, like the text around it
    assert svg.size == pytest.approx(texts[-1].size)  # scaled with the text
    x0, y0, w, h = fit.box
    assert all(x0 <= g.dx and g.dx + g.ops[0].size <= x0 + w + 0.01 for g in groups)
    # the PDF, opened again by pdfium: the icon's square holds the ink colour
    dpi = 300
    image = rasterize(face_pdf(face, 0), dpi / 72)
    k = dpi / 72
    ink = tuple(int(svg.colour[i:i + 2], 16) for i in (1, 3, 5))
    height = face.template.height
    box = (int(groups[0].dx * k), int((height - groups[0].dy - svg.size) * k),
           int((groups[0].dx + svg.size) * k), int((height - groups[0].dy) * k))
    inked = [px for px in image.crop(box).get_flattened_data() if sum(abs(a - b) for a, b in zip(px, ink)) < 60]
    assert len(inked) > 0.05 * (box[2] - box[0]) * (box[3] - box[1])


def _edit(path: Path, old: str, new: str) -> int:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return text[:text.index(old)].count("\n") + 1


def test_an_unknown_token_is_reported_against_the_sets_own_icons(game: Path, cli):
    keepers = game / "cards" / "tidelights" / "keepers.yaml"
    line = _edit(keepers, "one [lamp] you play counts as two [lamp].", "one [lamp] you play counts as two [lantern].")
    result = cli("validate", "--root", str(game))
    assert result.code == 1 and "Traceback" not in result.err
    errors = [ln for ln in result.err.splitlines() if "error[" in ln]
    assert errors == [f"cards/tidelights/keepers.yaml:{line}:1: error[C013]: ottilie_brann.ability: unknown icon token '[lantern]'"]


def test_a_set_icon_named_in_a_set_without_it_stays_an_error(project: Path, cli):
    """The bundled Death Angel set has no 'lamp' icon: the token is unknown there."""
    for path in sorted((project / "cards" / "death-angel").glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        m = re.search(r'^(\s+text: ")', text, re.M)
        if m:
            break
    line = _edit(path, m.group(1), m.group(1) + "[lamp] ")
    result = cli("validate", "--root", str(project))
    assert result.code == 1 and "Traceback" not in result.err
    assert re.search(rf"^cards/death-angel/{path.name}:{line}:1: error\[C013\]: .*unknown icon token '\[lamp\]'$",
                     result.err, re.M), result.err


def _po(game: Path, locale: str) -> Path:
    return game / "locales" / locale / "LC_MESSAGES" / "tidelights.po"


@pytest.mark.parametrize("locale, old, new, code", [
    ("fi", "lasketaan kahdeksi [lamp].", "lasketaan kahdeksi lyhdyksi.", "T301"),  # drops one
    ("ko", "[lamp] 두 개로 센다.", "[lamp] [rope] 두 개로 센다.", "T301"),  # adds one
    ("fi", "lasketaan kahdeksi [lamp].", "lasketaan kahdeksi [lampp].", "T303"),  # unknown to the set
])
def test_a_translation_that_changes_an_inline_set_icon_is_reported(game: Path, cli, locale: str, old: str,
                                                                    new: str, code: str):
    po = _po(game, locale)
    _edit(po, old, new)
    text = po.read_text(encoding="utf-8")
    line = text[:text.index('msgctxt "ottilie_brann.ability"')].count("\n") + 2  # findings point at the msgid line
    result = cli("l10n", "check", "--root", str(game), "--locale", locale, "--no-fit")
    assert result.code == 1 and "Traceback" not in result.err
    found = [ln for ln in (result.out + result.err).splitlines() if "ottilie_brann.ability" in ln and f"[{code}]" in ln]
    assert found and all(f"locales/{locale}/LC_MESSAGES/tidelights.po:{line}:1: error[{code}]: ottilie_brann.ability: " in ln for ln in found), \
        result.out + result.err


def test_the_example_as_shipped_checks_clean_with_its_inline_icons(game: Path, cli):
    result = cli("l10n", "check", "--root", str(game), "--locale", "fi", "--locale", "ko", "--no-fit")
    assert result.code == 0, result.out + result.err
    assert "[lamp]" in _po(game, "fi").read_text(encoding="utf-8")
