"""Pseudo-localization: `cardkit l10n pseudo`, then check and build through it."""

from __future__ import annotations

import json
import re
from pathlib import Path

from pypdf import PdfReader

from cardkit.i18n.catalogs import read_catalog
from cardkit.i18n.pseudo import GROWTH, pseudo_text
from cardkit.text import placeholders, tags, tokens


def test_pseudo_text_keeps_what_a_translation_must_keep():
    src = "When {hero} rolls a [skull] while <b>defending</b>, kill 1 Genestealer:"
    out = pseudo_text(src)
    assert out.startswith("«") and out.endswith(":")
    assert tokens(out) == tokens(src) and placeholders(out) == placeholders(src) and tags(out) == tags(src)
    assert "1" in out and "Ĝéñéšţéáłéŕ" in out and "Genestealer" not in out
    visible = lambda s: len(re.sub(r"\[[a-z-]+\]|\{[a-z_]+\}|</?[bi]>", "", s))
    assert visible(out) >= visible(src) * (1 + GROWTH)


def test_pseudo_locale_runs_through_check_and_build(project: Path, cli):
    made = cli("l10n", "pseudo", "--root", str(project))
    assert made.code == 0, made.err
    assert "wrote locales/qps/LC_MESSAGES/deep-strike.po (" in made.out
    # a string made far too long for its box: reported on its own entry
    po = project / "locales/qps/LC_MESSAGES/deep-strike.po"
    entry = next(e for e in read_catalog(po, "x", "qps").active if e.context == "ds1_secure_the_airhead.briefing")
    text = po.read_text(encoding="utf-8")
    head = 'msgctxt "ds1_secure_the_airhead.briefing"'
    start = text.index(head)
    end = text.index("\n\n", start)
    block = text[start:end]
    long = (entry.strings[0] + " ") * 8
    text = text[:start] + block[: block.index("msgstr")] + f'msgstr "{long}"' + text[end:]
    po.write_text(text, encoding="utf-8")
    result = cli("l10n", "check", "--root", str(project), "--locale", "qps", "--set", "deep-strike", "--format", "json")
    findings = json.loads(result.out)["findings"]
    assert result.code == 1
    assert any(f["check"] == "T950" and f["msgctxt"] == "ds1_secure_the_airhead.briefing" for f in findings)
    # elsewhere nothing but fit: tokens, placeholders, markup, numbers survive pseudo-translation
    assert {f["check"] for f in findings if f["msgctxt"] != "ds1_secure_the_airhead.briefing"} <= {"T950"}
    built = cli("build", "pdf", "--root", str(project), "--locale", "qps", "--set", "death-angel")
    assert built.code == 0, built.err
    pdf = PdfReader(project / "output/death-angel-qps-a4.pdf")
    assert "«" in pdf.pages[4].extract_text() and "«Bŕóţĥéŕ Ómñíó ~~~~»" in pdf.pages[4].extract_text()
