"""A project folder outside the cardkit repository carries its sets and their
catalogs, and no ``ui.po``: cardkit's own interface strings come from the
catalogs shipped with cardkit, and the l10n commands neither write nor demand
them there."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cardkit.strings.localize import Localizer, shipped_locales, ui_catalog
from tests.conftest import REPO

SET = "deep-strike"


@pytest.fixture
def outside(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """cards/deep-strike, its catalogs and the glossaries only, in a folder outside the repository."""
    root = tmp_path_factory.mktemp("mygame")
    assert not root.resolve().is_relative_to(REPO.resolve())
    shutil.copytree(REPO / "cards" / SET, root / "cards" / SET)
    (root / "locales").mkdir()
    shutil.copy(REPO / "locales" / f"{SET}.pot", root / "locales")
    for loc in ("fi", "ko"):
        (root / "locales" / loc / "LC_MESSAGES").mkdir(parents=True)
        shutil.copy(REPO / "locales" / loc / "LC_MESSAGES" / f"{SET}.po", root / "locales" / loc / "LC_MESSAGES")
        shutil.copy(REPO / "locales" / loc / "glossary.yaml", root / "locales" / loc)
    return root


def _ui_files(root: Path) -> list[Path]:
    return sorted(root.rglob("ui.po")) + sorted(root.rglob("ui.pot"))


def test_build_summary_is_finnish_without_a_ui_catalog(outside: Path, cli):
    result = cli("build", "--root", str(outside), "--locale", "fi")
    assert result.code == 0, result.err[-2000:]
    summary = (outside / "output" / "build-summary.txt").read_text(encoding="utf-8").splitlines()
    assert summary == result.out.splitlines()
    assert summary[0] == "tarkistettu: deep-strike 6 korttia"
    assert summary[1].startswith("käännökset fi: käännetty 158/158 merkkijonoa;"), summary[1]
    assert summary[3] == "kirjoitettu output/deep-strike-en-a4.pdf (6 korttia, 6 sivua)", summary[3]
    # the set's own playability line, from its strings.yaml, in Finnish too
    assert summary[6].startswith("pelattavuus deep-strike: 6/6 skenaariota"), summary[6]
    assert summary[-1].startswith("koottu 18 korttia ") and summary[-1].endswith(" sekunnissa")  # 3 PDFs
    assert _ui_files(outside) == []


def test_l10n_commands_leave_the_ui_catalogs_alone(outside: Path, cli):
    result = cli("l10n", "update", "--root", str(outside))
    assert result.code == 0, result.err
    assert _ui_files(outside) == []
    result = cli("l10n", "update", "--root", str(outside), "--check")
    assert result.code == 0, result.out + result.err
    result = cli("l10n", "check", "--root", str(outside), "--no-fit")
    assert result.code == 0, result.out[-2000:]
    assert "fi: translated deep-strike 158/158; 0 error(s), 0 warning(s)" in result.out
    assert cli("validate", "--root", str(outside)).code == 0
    assert _ui_files(outside) == []


def test_the_projects_own_ui_catalog_comes_first(outside: Path):
    """A project that keeps a ui.po (the cardkit repository does) is read from it."""
    shipped = ui_catalog(outside, "fi")
    assert shipped == shipped_locales() / "fi" / "LC_MESSAGES" / "ui.po"
    assert Localizer(outside, "fi").ui("tokens.cut") == "Leikkaa ääriviivoja pitkin."
    own = outside / "locales" / "fi" / "LC_MESSAGES" / "ui.po"
    own.write_text(shipped.read_text(encoding="utf-8").replace('"Leikkaa ääriviivoja pitkin."', '"Leikkaa."'),
                   encoding="utf-8")
    assert ui_catalog(outside, "fi") == own
    assert Localizer(outside, "fi").ui("tokens.cut") == "Leikkaa."
