"""``cardkit init``: the starter game folder validates, translates and builds at
once, run through the installed console script as a newcomer runs it; a folder
that is not empty is refused with nothing written."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

from cardkit.scaffold import LAYOUT, STARTER

CARDKIT = shutil.which("cardkit", path=str(Path(sys.executable).parent)) or shutil.which("cardkit")


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    assert CARDKIT, "the cardkit console script is not installed"
    return subprocess.run([CARDKIT, *args], capture_output=True, text=True, cwd=cwd, timeout=600)


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``cardkit init <tmp>/mygame``, once for the module."""
    base = tmp_path_factory.mktemp("init")
    result = run("init", str(base / "mygame"))
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout.startswith(f"wrote {base / 'mygame'} (set 'mygame', ")
    assert sorted(p.name for p in base.iterdir()) == ["mygame"]  # the staging folder was renamed, none left
    return base / "mygame"


def _pdf_text(path: Path) -> str:
    return " ".join(" ".join(page.extract_text().split()) for page in PdfReader(path).pages)


def test_the_starter_has_every_promised_file(game: Path):
    files = {p.relative_to(game).as_posix() for p in game.rglob("*") if p.is_file()}
    for src, dst in LAYOUT.items():
        assert dst.format(set="mygame") in files, src
    assert {"locales/mygame.pot", "cards/mygame/schemas/heroes.schema.json", "cards/mygame/schemas/spells.schema.json",
            "schemas/set.schema.json", "schemas/kinds.schema.json", "schemas/face.schema.json",
            "schemas/strings.schema.json", "schemas/glossary.schema.json"} <= files
    set_yaml = (game / "cards/mygame/set.yaml").read_text(encoding="utf-8")
    assert "\nid: mygame\n" in set_yaml and "\ngame: mygame\n" in set_yaml
    assert "__SET_ID__" not in "".join(p.read_text(encoding="utf-8") for p in game.rglob("*") if p.is_file())


def test_validate_is_clean_and_catalogs_are_current(game: Path):
    result = run("validate", "--root", str(game))
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.startswith("ok: 1 set(s) (mygame 5 cards)")
    check = run("l10n", "update", "--check", "--root", str(game))
    assert check.returncode == 0, check.stderr


@pytest.mark.parametrize("locale", ["fi", "ko"])
def test_translations_are_complete_and_fit(game: Path, locale: str):
    result = run("l10n", "check", "--root", str(game), "--locale", locale)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{locale}: translated mygame 17/17" in result.stdout
    assert "0 error(s), 0 warning(s)" in result.stdout
    fit = re.search(rf"^{locale}: fit (\d+) strings: (\d+) at full size, (\d+) shrunk, 0 below the minimum size, "
                    r"0 overflowing$", result.stdout, re.M)
    assert fit and int(fit[1]) >= 9, result.stdout


@pytest.mark.parametrize("locale, words", [
    ("fi", ["Hiillosritari", "Kun tämä sankari hyökkää, se saa +1 voimaa.", "Sankari", "Loitsu", "Voima", "Hinta"]),
    ("ko", ["불씨 기사", "이 영웅이 공격할 때 힘 +1을", "영웅", "주문", "비용"]),
])
def test_a_translated_pdf(game: Path, locale: str, words: list[str]):
    result = run("build", "pdf", "--root", str(game), "--locale", locale)
    assert result.returncode == 0, result.stderr
    pdf = game / "output" / f"mygame-{locale}-a4.pdf"
    assert result.stdout.strip() == f"wrote {pdf} (5 cards, 4 pages)"
    text = _pdf_text(pdf)
    for w in words:
        assert w in text, (w, text[-800:])
    assert "Ember Knight" not in text


def test_the_main_build_job(game: Path):
    result = run("build", "--root", str(game))
    assert result.returncode == 0, result.stderr
    for loc in ("en", "fi", "ko"):
        assert (game / "output" / f"mygame-{loc}-a4.pdf").is_file()
    summary = (game / "output" / "build-summary.txt").read_text(encoding="utf-8")
    assert summary == result.stdout
    assert "mygame" in summary


def test_playtest_says_there_is_no_engine(game: Path):
    result = run("playtest", "--root", str(game))
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "error[G008]: game 'mygame' has no rules engine" in lines[0], result.stderr


def test_a_folder_that_is_not_empty_is_refused(tmp_path: Path):
    target = tmp_path / "busy"
    target.mkdir()
    (target / "notes.txt").write_text("mine", encoding="utf-8")
    result = run("init", str(target))
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"{target.as_posix()}: error[P004]: cannot write the starter into a folder that is not empty (nothing was written)"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["busy"]
    assert [p.name for p in target.iterdir()] == ["notes.txt"]


def test_set_id_from_the_folder_name_or_the_option(tmp_path: Path):
    empty = tmp_path / "My Game"
    empty.mkdir()  # an empty folder is fine
    assert run("init", str(empty)).returncode == 0
    assert "\nid: my-game\n" in (empty / "cards/my-game/set.yaml").read_text(encoding="utf-8")
    named = run("init", str(tmp_path / "other"), "--set-id", "duel")
    assert named.returncode == 0, named.stderr
    assert (tmp_path / "other/locales/ko/LC_MESSAGES/duel.po").is_file()
    bad = run("init", str(tmp_path / "third"), "--set-id", "Bad_Id")
    assert bad.returncode == 1 and "error[P005]" in bad.stderr and len(bad.stderr.splitlines()) == 1
    taken = run("init", str(tmp_path / "fourth"), "--set-id", "death-angel")
    assert taken.returncode == 1 and "error[P005]" in taken.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["My Game", "other"]  # no staging folder left behind


def test_starter_sources_are_what_init_copies():
    """Every starter file is placed by the layout (none forgotten in the package)."""
    shipped = {p.relative_to(STARTER).as_posix() for p in STARTER.rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    assert shipped == set(LAYOUT)
