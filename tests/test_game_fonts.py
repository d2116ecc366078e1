"""A game's own fonts (``fonts:`` of ``faces.yaml``): a starter game from
``cardkit init`` names a real OFL font file of its own for a role; the PDF
draws that role's text in it (read back with pypdf), a character the font lacks
gives the located coverage warning, and a bad path or file gives a located
error with nothing written."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

from cardkit.layout.fonts import FONT_DIR

CARDKIT = shutil.which("cardkit", path=str(Path(sys.executable).parent)) or shutil.which("cardkit")
FONTS = """
fonts:
  files:
    MyFace: fonts/MyFace.ttf
  roles:
    default:
      title: MyFace
"""


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    assert CARDKIT, "the cardkit console script is not installed"
    return subprocess.run([CARDKIT, *args], capture_output=True, text=True, cwd=cwd, timeout=600)


@pytest.fixture(scope="module")
def starter(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("fonts")
    result = run("init", str(base / "mygame"), cwd=base)
    assert result.returncode == 0, result.stderr
    return base / "mygame"


def _game(starter: Path, tmp_path: Path, fonts: str = FONTS) -> Path:
    game = tmp_path / "mygame"
    shutil.copytree(starter, game)
    (game / "cards/mygame/fonts").mkdir()
    shutil.copyfile(FONT_DIR / "noto/NotoSans-Italic.ttf", game / "cards/mygame/fonts/MyFace.ttf")
    faces = game / "cards/mygame/faces.yaml"
    faces.write_text(faces.read_text(encoding="utf-8") + fonts, encoding="utf-8")
    return game


def _fonts_of(pdf: Path, needle: str) -> set[str]:
    """The base fonts of the text runs that hold ``needle``."""
    found: set[str] = set()
    for page in PdfReader(pdf).pages:
        def visit(text: str, cm: object, tm: object, font: dict | None, size: float) -> None:
            if needle in text and font is not None:
                found.add(str(font.get("/BaseFont")).split("+")[-1])
        page.extract_text(visitor_text=visit)
    return found


def test_a_role_prints_in_the_games_own_font(starter: Path, tmp_path: Path):
    plain = run("build", "pdf", "--locale", "en", "--out", str(tmp_path / "plain.pdf"), cwd=starter)
    assert plain.returncode == 0, plain.stderr
    assert _fonts_of(tmp_path / "plain.pdf", "Ember") == {"NotoSans-Bold"}  # the vendored title font
    game = _game(starter, tmp_path)
    result = run("build", "pdf", "--locale", "en", cwd=game)
    assert result.returncode == 0, result.stderr
    assert "W040" not in result.stderr  # (every title character is in the font)
    pdf = game / "output/mygame-en-a4.pdf"
    assert _fonts_of(pdf, "Ember") == {"NotoSans-Italic"}  # the title role: the game's file
    assert _fonts_of(pdf, "When this hero") == {"NotoSans-Regular"}  # the body role keeps the vendored font
    again = run("build", "pdf", "--locale", "en", "--out", str(tmp_path / "again.pdf"), cwd=game)
    assert again.returncode == 0 and (tmp_path / "again.pdf").read_bytes() == pdf.read_bytes()


def test_a_character_the_font_lacks_is_a_located_warning(starter: Path, tmp_path: Path):
    game = _game(starter, tmp_path)
    heroes = game / "cards/mygame/heroes.yaml"
    heroes.write_text(heroes.read_text(encoding="utf-8").replace('"Ember Knight"', '"Ember 기사"'), encoding="utf-8")
    result = run("build", "pdf", "--locale", "en", cwd=game)
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stderr.splitlines() if "W040" in line]
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("cards/mygame/faces.yaml:") and ": warning[W040]: " in lines[0]
    line_no = int(lines[0].split(":")[1])
    assert (game / "cards/mygame/faces.yaml").read_text(encoding="utf-8").splitlines()[line_no - 1].strip() == "title: MyFace"
    assert "'기' (U+AE30)" in lines[0] and "'사' (U+C0AC)" in lines[0] and "MyFace (fonts/MyFace.ttf)" in lines[0]
    assert _fonts_of(game / "output/mygame-en-a4.pdf", "기사") == {"NanumGothicBold"}  # printed, in the stand-in


@pytest.mark.parametrize("path, code", [("../../../outside.ttf", "F002"), ("/etc/MyFace.ttf", "F002"),
                                        ("fonts/missing.ttf", "M090"), ("fonts/broken.ttf", "M090")])
def test_a_bad_font_file_is_a_located_error_and_nothing_is_written(starter: Path, tmp_path: Path, path: str, code: str):
    game = _game(starter, tmp_path, FONTS.replace("fonts/MyFace.ttf", path))
    (game / "cards/mygame/fonts/broken.ttf").write_bytes(b"not a font" * 100)
    shutil.copyfile(FONT_DIR / "noto/NotoSans-Italic.ttf", tmp_path / "outside.ttf")
    result = run("build", "pdf", "--locale", "en", cwd=game)
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if f"[{code}]" in line]
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("cards/mygame/faces.yaml:") and f"error[{code}]" in lines[0]
    assert not (game / "output").exists() or not any((game / "output").iterdir())


def test_a_role_naming_an_undeclared_font_is_a_located_error(starter: Path, tmp_path: Path):
    game = _game(starter, tmp_path, FONTS + "    fi:\n      body: [Missing]\n")
    result = run("validate", cwd=game)
    assert result.returncode != 0
    lines = [line for line in result.stderr.splitlines() if "[M091]" in line]
    assert len(lines) == 1 and lines[0].startswith("cards/mygame/faces.yaml:"), result.stderr


LONG_NAME = "Hiillosritari ja talven pitkän yön vartija sekä kuningas"


def _long_fi_name(game: Path) -> None:
    po = game / "locales/fi/LC_MESSAGES/mygame.po"
    text = po.read_text(encoding="utf-8")
    assert 'msgstr "Hiillosritari"' in text
    po.write_text(text.replace('msgstr "Hiillosritari"', f'msgstr "{LONG_NAME}"'), encoding="utf-8")


def _name_fit(game: Path) -> float:
    result = run("l10n", "check", "--locale", "fi", "--format", "json", cwd=game)
    assert result.returncode == 0, result.stderr
    rows = [r for r in json.loads(result.stdout)["fit"] if r["msgctxt"] == "ember_knight.name"]
    assert len(rows) == 1
    return float(rows[0]["size"])


def _printed(pdf: Path, needle: str) -> set[tuple[str, float]]:
    found: set[tuple[str, float]] = set()
    for page in PdfReader(pdf).pages:
        def visit(text: str, cm: object, tm: list[float], font: dict | None, size: float) -> None:
            if needle in text and font is not None:
                found.add((str(font.get("/BaseFont")).split("+")[-1], round(size * tm[0], 2)))
        page.extract_text(visitor_text=visit)
    return found


def test_the_fit_check_measures_with_the_fonts_that_print(starter: Path, tmp_path: Path):
    """A Finnish title that needs shrinking in the vendored bold fits at full size in the
    game's narrower font: l10n check says so, and the PDF prints it at the size the check gave."""
    plain = tmp_path / "plain"
    shutil.copytree(starter, plain)
    _long_fi_name(plain)
    game = _game(starter, tmp_path)
    _long_fi_name(game)
    sizes = {}
    for name, folder, font in (("plain", plain, "NotoSans-Bold"), ("game", game, "NotoSans-Italic")):
        sizes[name] = _name_fit(folder)
        result = run("build", "pdf", "--locale", "fi", cwd=folder)
        assert result.returncode == 0, result.stderr
        assert _printed(folder / "output/mygame-fi-a4.pdf", "Hiillosritari") == {(font, sizes[name])}
    assert sizes["plain"] < 12.0 == sizes["game"]  # (the text tells the two fonts apart)


def test_a_locale_entry_overrides_default(starter: Path, tmp_path: Path):
    game = _game(starter, tmp_path, FONTS + "    fi:\n      title: Other\n")
    shutil.copyfile(FONT_DIR / "nanum/NanumGothic.ttf", game / "cards/mygame/fonts/Other.ttf")
    faces = game / "cards/mygame/faces.yaml"
    faces.write_text(faces.read_text(encoding="utf-8").replace(
        "    MyFace: fonts/MyFace.ttf\n", "    MyFace: fonts/MyFace.ttf\n    Other: fonts/Other.ttf\n"), encoding="utf-8")
    for locale, font in (("en", "NotoSans-Italic"), ("fi", "NanumGothic")):
        result = run("build", "pdf", "--locale", locale, cwd=game)
        assert result.returncode == 0, result.stderr
        assert {f for f, _ in _printed(game / f"output/mygame-{locale}-a4.pdf", "Ember" if locale == "en" else "Hiillos")} == {font}


def test_the_review_page_shows_translations_in_the_games_own_fonts(starter: Path, tmp_path: Path):
    """`l10n review`: fonts.css carries the game's font file (read again, inline, its registered name as
    the family) and a rule per locale and role; the translation of a title prints under that rule."""
    import base64
    import re

    from cardkit.i18n.review import web_font, write_review
    from cardkit.load.project import load_project

    game = _game(starter, tmp_path)
    out = tmp_path / "review"
    write_review(game, load_project(game), out, ["fi"], dpi=72)
    css = (out / "fonts" / "fonts.css").read_text(encoding="ascii")
    own = web_font((game / "cards/mygame/fonts/MyFace.ttf").read_bytes())
    faces = dict(re.findall(r'@font-face\{font-family:"(cardkit-[0-9a-f]{16})";src:url\(data:font/ttf;base64,([^)]+)\)', css))
    assert len(faces) == 1 and base64.b64decode(next(iter(faces.values()))) == own
    family = next(iter(faces))
    rules = re.findall(r'html\[lang="fi"\] article\[data-set="mygame"\] td\.tr\.role-(\w+)\{font-family:"([^"]+)"', css)
    assert rules == [("title", family)]  # the title role only: body keeps the bundled fonts
    page = (out / "fi.html").read_text(encoding="utf-8")
    assert '<html lang="fi">' in page
    title_cells = re.findall(r'<td class="tr role-title">([^<]*)', page)
    assert title_cells and all(title_cells)
    assert re.search(r'<td class="tr role-body">', page)
    plain = tmp_path / "plain-review"
    write_review(starter, load_project(starter), plain, ["fi"], dpi=72)
    assert "cardkit-" not in re.sub(r"'cardkit-(sans|kr)'", "", (plain / "fonts" / "fonts.css").read_text(encoding="ascii"))
