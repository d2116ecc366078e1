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

    def visible(s: str) -> int:
        return len(re.sub(r"\[[a-z-]+\]|\{[a-z_]+\}|</?[bi]>", "", s))

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


def _entries(po: Path, prefix: str) -> dict[str, str]:
    return {e.context: e.id for e in read_catalog(po, "x", "qps").active if e.context and e.context.startswith(prefix)}


def test_pseudo_build_of_both_sets_prints_too_long_strings_in_english(project: Path, cli):
    """The pseudo-locale is a preview of fit: a box whose pseudo text cannot fit
    at its minimum size prints its English source on that card, with a W030 on
    each string's own entry, and the build exits 0."""
    assert cli("l10n", "pseudo", "--root", str(project)).code == 0
    po = project / "locales/qps/LC_MESSAGES/deep-strike.po"
    lines = po.read_text(encoding="utf-8").splitlines()
    msgid_line = lines.index('msgctxt "set.glossary.night_fighting.name"') + 2  # 1-based, the line after msgctxt
    for set_id in ("death-angel", "deep-strike"):
        built = cli("build", "pdf", "--root", str(project), "--locale", "qps", "--set", set_id)
        assert built.code == 0, built.err
        warnings = [line for line in built.err.splitlines() if "warning[W030]" in line]
        if set_id == "death-angel":
            assert warnings == []
    assert (f"locales/qps/LC_MESSAGES/deep-strike.po:{msgid_line}:1: warning[W030]: set.glossary.night_fighting.name "
            "(qps) prints in English on ds5_hammer_blow, field 'rules'") in built.err
    assert all(line.startswith("locales/qps/LC_MESSAGES/deep-strike.po:") for line in warnings)
    assert "error" not in built.err
    names = _entries(po, "set.glossary.")
    names = {k: v for k, v in names.items() if k.endswith(".name") and k in built.err}
    assert len(names) == len(warnings) >= 2  # one line per string of the box, each on its own entry
    pages = [p.extract_text() for p in PdfReader(project / "output/deep-strike-qps-a4.pdf").pages]
    titles = {k: pseudo_text(v) for k, v in _entries(po, "ds").items() if k.endswith(".name")}
    briefing = pseudo_text(_entries(po, "ds5_hammer_blow.briefing")["ds5_hammer_blow.briefing"])
    (front,) = [t for t in pages if titles["ds5_hammer_blow.name"] in t and briefing.split()[0] in t]
    # the page draws the fronts in order: the scenario's own text runs from its title to the next card's
    start = front.index(titles["ds5_hammer_blow.name"])
    end = min((i for i in (front.find(t[:10], start + 1) for t in titles.values()) if i > start), default=len(front))
    card, others = front[start:end], front[:start] + front[end:] + "\n".join(t for t in pages if t is not front)
    assert briefing.split()[0] in card  # the card is in pseudo text ...
    for english in names.values():
        assert english in card and pseudo_text(english) not in card  # ... but for its rules line
    assert any(pseudo_text(english) in others for english in names.values())  # the same strings elsewhere


def test_a_real_locale_still_refuses_a_string_that_does_not_fit(project: Path, cli):
    from babel.messages.pofile import read_po, write_po

    po = project / "locales/fi/LC_MESSAGES/deep-strike.po"
    with po.open("rb") as f:
        catalog = read_po(f)
    catalog.get("Night Fighting", context="set.glossary.night_fighting.name").string = "Yötaistelu " * 12
    with po.open("wb") as f:
        write_po(f, catalog)
    built = cli("build", "pdf", "--root", str(project), "--locale", "fi", "--set", "deep-strike")
    assert built.code == 1
    assert "error[P010]: set.glossary.night_fighting.name" in built.err and "does not fit field 'rules'" in built.err
    assert "W030" not in built.err and not (project / "output/deep-strike-fi-a4.pdf").exists()
    for command in (("png",), ("shop", "--preset", "generic"), ("tts",)):  # the same rule in every build
        other = cli("build", *command, "--root", str(project), "--locale", "fi", "--set", "deep-strike")
        assert (other.code, other.err) == (1, built.err), command
    assert not (project / "output").exists()


def test_cardkit_build_goes_past_the_pseudo_locales_fit_errors(project: Path, cli):
    """`cardkit build` with locales/qps present: the T950 of the pseudo-locale
    does not stop it; its PDF is written with the same W030 lines."""
    import shutil

    shutil.rmtree(project / "cards/death-angel")  # one small set, English and qps only
    for name in ("fi", "ko", "death-angel.pot"):
        path = project / "locales" / name
        shutil.rmtree(path) if path.is_dir() else path.unlink()
    assert cli("l10n", "pseudo", "--root", str(project)).code == 0
    built = cli("build", "--root", str(project))
    assert built.code == 0, built.err
    assert "warning[W030]: set.glossary.night_fighting.name (qps) prints in English on ds5_hammer_blow" in built.err
    assert (project / "output/deep-strike-qps-a4.pdf").is_file() and (project / "output/deep-strike-en-a4.pdf").is_file()


HAMMER_BLOW_W030 = "warning[W030]: set.glossary.night_fighting.name (qps) prints in English on ds5_hammer_blow, field 'rules'"


def _pseudo_w030(project: Path, cli, *command: str):
    """``cardkit build COMMAND`` of deep-strike in qps, after ``l10n pseudo``: it
    exits 0 with the same W030 lines as ``build pdf`` (one per string, on its entry)."""
    assert cli("l10n", "pseudo", "--root", str(project)).code == 0
    pdf = cli("build", "pdf", "--root", str(project), "--locale", "qps", "--set", "deep-strike")
    built = cli("build", *command, "--root", str(project), "--locale", "qps", "--set", "deep-strike")
    assert built.code == 0, built.err
    warnings = [line for line in built.err.splitlines() if "warning[W030]" in line]
    assert HAMMER_BLOW_W030 in built.err and "error" not in built.err
    assert warnings == [line for line in pdf.err.splitlines() if "warning[W030]" in line]
    return built


def test_pseudo_png_build_prints_too_long_strings_in_english(project: Path, cli):
    built = _pseudo_w030(project, cli, "png", "--dpi", "72")
    folder = project / "output/png/deep-strike-qps"
    assert f"to {folder}" in built.out and any(p.name.startswith("ds5_hammer_blow") for p in folder.glob("*.png"))


def test_pseudo_shop_build_prints_too_long_strings_in_english(project: Path, cli):
    built = _pseudo_w030(project, cli, "shop", "--preset", "generic")
    pdf = project / "output/shop/generic/deep-strike-qps/deep-strike-qps.pdf"
    assert "wrote 1 PDF and 12 PNG files (6 cards)" in built.out
    text = "\n".join(p.extract_text() for p in PdfReader(pdf).pages)
    names = _entries(project / "locales/qps/LC_MESSAGES/deep-strike.po", "ds5_hammer_blow.name")
    assert "Night Fighting" in text  # the box that does not fit, in English ...
    assert pseudo_text(names["ds5_hammer_blow.name"]) in text  # ... on a card otherwise in pseudo text


def test_pseudo_tts_build_prints_too_long_strings_in_english(project: Path, cli):
    built = _pseudo_w030(project, cli, "tts")
    assert list((project / "output/tts/deep-strike-qps").glob("*.png")) and "deck images" in built.out
