"""Adding a language: `cardkit l10n init`, locale names, coverage in the build.

One project copy gets Swedish through the real command, five strings are
translated as a translator would (in the PO file), and the commands a
translator runs next are checked on it.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

from cardkit.i18n.catalogs import read_catalog
from cardkit.i18n.checks import load_glossary
from cardkit.i18n.languages import normalize_locale
from tests.conftest import REPO

FIVE = {"set.teams.green.name": "Grön", "set.teams.yellow.name": "Gul", "set.teams.red.name": "Röd",
        "set.teams.blue.name": "Blå", "set.teams.purple.name": "Lila"}
DOMAINS = ("death-angel", "deep-strike", "ui")


def _translate(po: Path, strings: dict[str, str]) -> None:
    text = po.read_text(encoding="utf-8")
    for ctx, tr in strings.items():
        text, n = re.subn(rf'(msgctxt "{re.escape(ctx)}"\nmsgid "[^"\n]*"\nmsgstr )""', rf'\1"{tr}"', text)
        assert n == 1, ctx
    po.write_text(text, encoding="utf-8")


@pytest.fixture(scope="module")
def swedish(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A project copy after `cardkit l10n init --locale sv` with five strings
    translated, and what the command printed."""
    import subprocess
    import sys

    root = tmp_path_factory.mktemp("sv")
    for name in ("cards", "locales", "schemas"):
        shutil.copytree(REPO / name, root / name)
    done = subprocess.run([sys.executable, "-c", "from cardkit.cli import main; main()", "l10n", "init", "--locale", "sv", "--root", str(root)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    _translate(root / "locales/sv/LC_MESSAGES/death-angel.po", FIVE)
    return root, done.stdout


def test_init_writes_every_catalog_with_cldr_plural_forms_and_a_glossary(swedish):
    root, out = swedish
    for domain in DOMAINS:
        path = root / f"locales/sv/LC_MESSAGES/{domain}.po"
        assert f"wrote locales/sv/LC_MESSAGES/{domain}.po (" in out
        loaded = read_catalog(path, domain, "sv")
        assert loaded.header("Plural-Forms") == "nplurals=2; plural=(n != 1);"
        assert loaded.header("Language") == "sv"
        template = read_catalog(root / "locales" / f"{domain}.pot", domain)
        assert {e.context for e in loaded.active} == {e.context for e in template.active}
    glossary, problems = load_glossary(root, "sv")
    assert problems == [] and glossary.terms == ()  # the scaffold validates before any term is filled
    text = (root / "locales/sv/glossary.yaml").read_text(encoding="utf-8")
    assert "# - id: genestealer\n#   sets: [death-angel]\n#   en: [Genestealer, Genestealers]\n#   term: ''" in text
    assert re.search(r"^proper_names: \[.*Lorenzo", text, re.MULTILINE)
    assert "wrote locales/sv/glossary.yaml (" in out and "Plural-Forms from CLDR" in out


def test_a_language_with_three_plural_forms(project: Path, cli):
    result = cli("l10n", "init", "--locale", "pl", "--root", str(project))
    assert result.code == 0, result.err
    loaded = read_catalog(project / "locales/pl/LC_MESSAGES/ui.po", "ui.po", "pl")
    assert loaded.header("Plural-Forms").startswith("nplurals=3;")
    plural = next(e for e in loaded.active if e.plural is not None)
    assert len(plural.strings) == 3


def test_locale_names_are_normalized():
    assert normalize_locale("sv-se") == normalize_locale("SV_se") == "sv_SE"
    assert normalize_locale("pt-br") == "pt_BR"


@pytest.mark.parametrize("args, code, words", [
    (["l10n", "init", "--locale", "xx"], "L006", "unknown locale 'xx'"),
    (["l10n", "init", "--locale", "../x"], "L006", "is not a locale name"),
    (["l10n", "init", "--locale", "en"], "L006", "is English"),
    (["l10n", "init", "--locale", "fi"], "L008", "already has this catalog"),
    (["l10n", "update", "--locale", "zz_ZZ", "--create"], "L006", "unknown locale 'zz_ZZ'"),
    (["l10n", "update", "--locale", "zz_ZZ"], "L005", "--locale zz_ZZ: no catalogs"),  # a filter without --create (#32)
])
def test_bad_locale_names_are_one_clear_line_and_write_nothing(project: Path, cli, args, code, words):
    before = sorted(p.relative_to(project) for p in (project / "locales").rglob("*"))
    result = cli(*args, "--root", str(project))
    lines = result.err.splitlines()
    assert result.code == 1 and "Traceback" not in result.err
    assert all(f"error[{code}]" in ln for ln in lines) and words in lines[0], result.err
    assert len(lines) == (3 if code == "L008" else 1)  # L008: one line per existing catalog
    assert sorted(p.relative_to(project) for p in (project / "locales").rglob("*")) == before


def test_a_territory_beside_its_language_is_refused(swedish, cli):
    root, _ = swedish
    for name, cmd in (("sv_SE", "init"), ("sv-se", "update")):
        extra = ("--create",) if cmd == "update" else ()  # update --locale is a filter; --create adds one (#32)
        result = cli("l10n", cmd, "--locale", name, *extra, "--root", str(root))
        assert result.code == 1
        assert result.err.strip() == ("locales/sv: error[L007]: locale 'sv_SE' beside 'locales/sv': both would hold "
                                      "the Swedish catalogs; use --locale sv, or rename the folder locales/sv first")
    assert not (root / "locales/sv_SE").exists()


def test_check_summary_is_one_line_per_catalog(swedish, cli):
    root, _ = swedish
    result = cli("l10n", "check", "--locale", "sv", "--summary", "--root", str(root))
    assert result.code == 1
    lines = result.out.splitlines()
    assert lines[-1] == "failed: translation errors found"
    # the scaffold's language data is not filled yet: one line says which checks did not run (T190)
    assert lines[-2] == "sv glossary: 1 warning(s) (T190 1)"
    by_file = {ln.split(":")[0]: ln for ln in lines[:-2]}
    assert sorted(by_file) == [f"locales/sv/LC_MESSAGES/{d}.po" for d in DOMAINS]
    total = len(read_catalog(root / "locales/death-angel.pot", "x").active)
    assert by_file["locales/sv/LC_MESSAGES/death-angel.po"] == (
        f"locales/sv/LC_MESSAGES/death-angel.po: sv death-angel: 5/{total} translated ({500 // total} %); "
        f"{total - 5} error(s) (T102 {total - 5})")


def test_build_pdf_says_what_prints_in_english(swedish, cli):
    root, _ = swedish
    total = len(read_catalog(root / "locales/deep-strike.pot", "x").active)
    ui = len(read_catalog(root / "locales/ui.pot", "x").active)
    out = root / "output" / "ds-sv.pdf"
    result = cli("build", "pdf", "--locale", "sv", "--set", "deep-strike", "--out", str(out), "--root", str(root))
    assert result.code == 0, result.err
    assert result.out.splitlines()[:-1] == [
        (f"sv: deep-strike: 0 of {total} strings translated (0 %); the other {total} print in English "
         "(locales/sv/LC_MESSAGES/deep-strike.po)"),
        f"sv: ui: 0 of {ui} strings translated (0 %); the other {ui} print in English (locales/sv/LC_MESSAGES/ui.po)"]
    text = PdfReader(out).pages[2].extract_text()
    assert "Secure the Airhead" in text and "Player A" in text  # English stands in


def test_min_coverage_fails_with_one_line_and_writes_nothing(swedish, cli):
    root, _ = swedish
    out = root / "output" / "ds-sv-min.pdf"
    result = cli("build", "pdf", "--locale", "sv", "--set", "deep-strike", "--min-coverage", "0.9",
                 "--out", str(out), "--root", str(root))
    assert result.code == 1 and result.out == ""
    total = len(read_catalog(root / "locales/deep-strike.pot", "x").active)
    assert result.err.splitlines() == [
        (f"locales/sv/LC_MESSAGES/deep-strike.po: error[L009]: sv deep-strike: 0 of {total} strings translated "
         f"(0 %), below --min-coverage 0.9 (90 %); {total} would print in English")]
    assert not out.exists()
    # a fully translated set passes the same minimum, and says nothing about English
    ok = cli("build", "pdf", "--locale", "fi", "--set", "deep-strike", "--min-coverage", "0.9",
             "--out", str(root / "output" / "ds-fi.pdf"), "--root", str(root))
    assert ok.code == 0, ok.err
    assert len(ok.out.splitlines()) == 1 and ok.out.startswith(f"wrote {root / 'output' / 'ds-fi.pdf'} ("), ok.out
