"""`cardkit build --locale LL` for a language the project just added (`l10n init --locale LL`) but
cardkit's own interface does not speak: the summary in English with one W031 line, the LL PDFs built.
(Issue 32: a correct German catalog must not stop the build.)"""

from __future__ import annotations

from pathlib import Path


def test_build_with_a_new_language_builds_its_pdfs_and_says_the_summary_is_english(tmp_path: Path, cli):
    root = tmp_path / "game"
    assert cli("init", str(root)).code == 0
    assert cli("l10n", "init", "--locale", "de", "--root", str(root)).code == 0
    result = cli("build", "--root", str(root), "--locale", "de")
    assert result.code == 0, result.err
    warnings = [ln for ln in result.err.splitlines() if "[W031]" in ln]
    assert len(warnings) == 1 and "'de'" in warnings[0] and "summary is in English" in warnings[0]
    assert (root / "output" / "game-de-a4.pdf").read_bytes().startswith(b"%PDF")
    assert "translations de:" in (root / "output" / "build-summary.txt").read_text(encoding="utf-8")


def test_a_locale_nobody_translates_still_stops_before_anything_is_written(tmp_path: Path, cli):
    root = tmp_path / "game"
    assert cli("init", str(root)).code == 0
    result = cli("build", "--root", str(root), "--locale", "sv")
    assert result.code == 1
    assert "error[L005]" in result.err and not (root / "output" / "build-summary.txt").exists()
