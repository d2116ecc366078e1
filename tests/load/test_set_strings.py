"""A set's own interface strings (``cards/<set>/strings.yaml``): loaded and
checked, extracted into the set's catalogs, found by the Localizer before
cardkit's own, and given the checks card strings get (fit included)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cardkit.strings.localize import Localizer
from cardkit.load.project import load_project
from tests.conftest import REPO, set_translation

SET = "deep-strike"
STRINGS = f"cards/{SET}/strings.yaml"


@pytest.fixture
def ds(tmp_path: Path) -> Path:
    """A project holding only the Deep Strike set and its catalogs."""
    shutil.copytree(REPO / "cards" / SET, tmp_path / "cards" / SET)
    (tmp_path / "locales").mkdir()
    shutil.copy(REPO / "locales" / f"{SET}.pot", tmp_path / "locales")
    for loc in ("fi", "ko"):
        (tmp_path / "locales" / loc / "LC_MESSAGES").mkdir(parents=True)
        for domain in (SET, "ui"):
            shutil.copy(REPO / "locales" / loc / "LC_MESSAGES" / f"{domain}.po", tmp_path / "locales" / loc / "LC_MESSAGES")
    shutil.copy(REPO / "locales" / "ui.pot", tmp_path / "locales")
    return tmp_path


def _append(project: Path, *lines: str) -> int:
    """Add entries to the set's strings.yaml; the line number of the first."""
    path = project / STRINGS
    text = path.read_text(encoding="utf-8")
    path.write_text(text + "".join(f"{ln}\n" for ln in lines), encoding="utf-8")
    return text.count("\n") + 1



def test_taken_ids_are_located_errors(ds: Path, cli):
    first = _append(ds,
                    '  - {id: set.title, text: "Title", comment: "clashes with the manifest string"}',
                    '  - {id: summary.built, text: "Built", comment: "clashes with cardkit"}',
                    '  - {id: back.scenario, text: "Again", comment: "defined twice"}',
                    '  - {id: ds1_secure_the_airhead.name, text: "X", comment: "a card string"}')
    result = cli("validate", "--root", str(ds))
    assert result.code == 1
    lines = [ln for ln in result.out.splitlines() + result.err.splitlines() if "[C014]" in ln]
    assert lines == [
        f"{STRINGS}:{first}:10: error[C014]: interface string 'set.title' has the msgctxt of a card string "
        f"(cards/{SET}/set.yaml:8); choose another id",
        f"{STRINGS}:{first + 1}:10: error[C014]: interface string 'summary.built' is one of cardkit's own interface "
        "strings (cardkit/i18n/ui.yaml); choose another id",
        f"{STRINGS}:{first + 2}:10: error[C014]: interface string 'back.scenario' is defined twice (first at line 6)",
        f"{STRINGS}:{first + 3}:10: error[C014]: interface string 'ds1_secure_the_airhead.name' has the msgctxt of a "
        f"card string (cards/{SET}/scenarios.yaml:10); choose another id",
    ]
    assert "Traceback" not in result.err


def test_schema_errors_are_located(ds: Path, cli):
    line = _append(ds, '  - {id: label.cost, text: "Cost"}', '  - {id: Bad Id, text: "x", comment: "y"}')
    result = cli("validate", "--root", str(ds))
    assert result.code == 1
    out = result.out + result.err
    assert f"{STRINGS}:{line}:5: error[S002]" in out and "comment" in out
    assert f"{STRINGS}:{line + 1}:" in out and "Bad Id" in out


def test_plural_count_checked(ds: Path, cli):
    line = _append(ds, '  - {id: label.cards, text: "{n} card", plural: "{n} cards", count: k, comment: "c"}')
    result = cli("validate", "--root", str(ds))
    assert result.code == 1
    assert f"{STRINGS}:{line}:29: error[C020]" in result.out + result.err


def test_set_strings_go_to_the_set_catalog_and_the_localizer_finds_them(ds: Path, cli):
    line = _append(ds, '  - {id: label.fortune, text: "Fortune {n}", comment: "Label of a test badge; {n} is a number"}')
    result = cli("l10n", "update", "--root", str(ds))
    assert result.code == 0, result.err
    pot = (ds / "locales" / f"{SET}.pot").read_text(encoding="utf-8")
    assert ("#. Label of a test badge; {n} is a number\n"
            f"#: {STRINGS}:{line}\n#, python-brace-format\nmsgctxt \"label.fortune\"\nmsgid \"Fortune {{n}}\"\n") in pot
    assert "label.fortune" not in (ds / "locales" / "ui.pot").read_text(encoding="utf-8")
    assert "label.fortune" in (ds / "locales/fi/LC_MESSAGES" / f"{SET}.po").read_text(encoding="utf-8")
    card_set = load_project(ds).card_set(SET)
    assert "label.fortune" in card_set.ui_ids and "ds1_secure_the_airhead.name" not in card_set.ui_ids
    # untranslated: English, located at its source
    loc = Localizer(ds, "fi", card_set)
    assert loc.ui("label.fortune", n=3) == "Fortune 3"
    assert loc.where_ui("label.fortune") == (STRINGS, line)
    set_translation(ds, "fi", SET, "label.fortune", "Onni {n}")
    loc = Localizer(ds, "fi", card_set)
    assert loc.ui("label.fortune", n=3) == "Onni 3" and loc.ui_domain("label.fortune") == SET
    po = f"locales/fi/LC_MESSAGES/{SET}.po"
    file, n = loc.where_ui("label.fortune")
    assert file == po and (ds / po).read_text(encoding="utf-8").splitlines()[n - 1] == 'msgid "Fortune {n}"'
    # cardkit's own interface strings still come from the ui catalog
    assert loc.ui_domain("summary.built") == "ui" and loc.ui_n("summary.built", 2, seconds="1") == "koottu 2 korttia 1 sekunnissa"
    # without the set, its strings are unknown
    with pytest.raises(KeyError):
        Localizer(ds, "fi").ui("label.fortune", n=3)


def test_a_set_string_that_does_not_fit_is_found_in_the_set_catalog(ds: Path, cli):
    """A face prints scenario.deployment (a `ui:` source heading a column of
    blocks): an overlong Finnish heading is the fit error, blamed on that
    string and located in the set's own catalog."""
    set_translation(ds, "fi", SET, "scenario.deployment", " ".join(["Joukkojen sijoittaminen"] * 60))
    result = cli("l10n", "check", "--root", str(ds), "--locale", "fi", "--format", "json")
    assert result.code == 1
    fit = [f for f in json.loads(result.out)["findings"] if f["check"] == "T950"]
    po = f"locales/fi/LC_MESSAGES/{SET}.po"
    mine = [f for f in fit if f["msgctxt"] == "scenario.deployment"]
    assert mine and all(f["file"] == po and f["set"] == SET for f in mine), fit
    assert all("this one grew most" in f["message"] for f in mine), mine
    lines = (ds / po).read_text(encoding="utf-8").splitlines()
    assert 'msgctxt "scenario.deployment"' in lines[mine[0]["line"] - 3:mine[0]["line"]], mine[0]
