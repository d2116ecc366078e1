"""`l10n update` after one English change: only that entry's lines change, at the
width the catalog was written at (cardkit's 78, msgcat's 79, or no wrapping)."""

from __future__ import annotations

import difflib
import subprocess
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

PO = "locales/fi/LC_MESSAGES/death-angel.po"


@pytest.mark.parametrize("rewrap", [None, ["msgcat"], ["msgcat", "--no-wrap"]])
def test_one_english_change_touches_one_entry(project: Path, cli, rewrap):
    po = project / PO
    if rewrap:
        subprocess.run([*rewrap, "-o", str(po), str(po)], check=True)
    before = po.read_text(encoding="utf-8").splitlines()
    with po.open("rb") as fh:  # every entry but the one changed stays as it was
        unchanged = sum(1 for m in read_po(fh) if m.id) - 1
    cards = project / "cards/death-angel/actions.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("Until the end of the round it cannot attack",
                                                               "Until the end of the game it cannot attack"),
                     encoding="utf-8")
    result = cli("l10n", "update", "--root", str(project))
    assert result.code == 0, result.err
    assert f"updated {PO}: 0 new, 1 fuzzy, 0 obsolete, {unchanged} unchanged" in result.out.splitlines()
    after = po.read_text(encoding="utf-8").splitlines()
    changed = [ln for ln in difflib.unified_diff(before, after, lineterm="", n=0)
               if ln[:1] in "+-" and not ln.startswith(("+++", "---"))]
    if rewrap is None:  # a file cardkit wrote: the entry's msgid lines, its flag and its #| lines
        assert len(changed) <= 12, "\n".join(changed)
        assert all("round" in ln or "game" in ln or "fuzzy" in ln or ln.startswith(("+#|", "-\"", "+\"", "-#. Length", "+#. Length"))
                   for ln in changed), "\n".join(changed)
    else:  # the width is kept: far from the whole file rewrapped
        assert len(changed) < 40, "\n".join(changed)
