"""The meaning checks (names, negation, reused translations, clauses) on planted
slips in the shipped Finnish and Korean catalogs, and on the catalogs as shipped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from cardkit.i18n.checks import Entry, load_glossary
from cardkit.i18n.meaning import check_clauses, check_negation, sentences
from tests.conftest import FIXTURES, REPO
from tests.i18n.test_l10n_check import _mutate

MEANING = ("T160", "T161", "T162", "T163")


@pytest.mark.parametrize("fixture", ["meaning-fi.yaml", "meaning-ko.yaml"])
def test_each_slip_is_found_on_its_entry_and_nothing_else(fixture, project: Path, cli):
    spec = yaml.safe_load((FIXTURES / "l10n" / fixture).read_text(encoding="utf-8"))
    planted = set(_mutate(project, spec))
    result = cli("l10n", "check", "--root", str(project), "--locale", spec["locale"], "--format", "json", "--no-fit")
    assert result.code == 1
    findings = json.loads(result.out)["findings"]
    errors = {(f["check"], f["msgctxt"]) for f in findings if f["severity"] == "error" and f["check"] != "T105"}
    assert errors == planted
    reused = next(f for f in findings if f["check"] == "T162")
    assert "surrounded.text" in reused["message"] and reused["line"] > 0  # names the entry it was taken from


def test_no_meaning_finding_on_the_shipped_catalogs():
    from cardkit.i18n.report import check_translations
    from cardkit.load.project import load_project

    report = check_translations(REPO, load_project(REPO), ["fi", "ko"], fit=False)
    assert [f for f in report.findings if f.check in MEANING] == []


def test_negation_words_are_glossary_data():
    fi, _ = load_glossary(REPO, "fi")
    e = Entry("fi", "s", "x.text", "It cannot attack.", "Se voi hyökätä.", "f.po", 1)
    assert [c for c, _, _ in check_negation(e, fi)] == ["T161"]
    e.translation = "Se ei voi hyökätä."
    assert list(check_negation(e, fi)) == []
    e.translation = "Hyökkää liikkumatta."  # the abessive -matta is a Finnish negation too
    e.source = "Attack without moving."
    assert list(check_negation(e, fi)) == []


def test_an_added_negation_is_found_unless_the_english_negates_in_meaning():
    fi, _ = load_glossary(REPO, "fi")
    ko, _ = load_glossary(REPO, "ko")
    e = Entry("fi", "s", "x.text", "Discard this card.", "Älä poista tätä korttia.", "f.po", 1)
    assert [m for _, _, m in check_negation(e, fi)] == [
        "the translation negates ('Älä') but the English does not: a negation added, or the meaning reversed?"]
    e.source = "The attack misses him."  # no negation word, a negative meaning: Finnish says it with ei
    e.translation = "Hyökkäys ei osu häneen."
    assert list(check_negation(e, fi)) == []
    e.source, e.translation = "Strict orders.", "Ehdoton käsky."  # '*ton' inside a glossary '!' word: no negation
    assert list(check_negation(e, fi)) == []
    k = Entry("ko", "s", "x.text", "Spawn 1 during the event phase.", "이벤트 페이즈 동안 1마리 출현한다.", "k.po", 1)
    assert list(check_negation(k, ko)) == []  # 동안 (during) holds '안 ' but does not negate
    k.translation = "이벤트 페이즈 동안 출현하지 않는다."
    assert [c for c, _, _ in check_negation(k, ko)] == ["T161"]


def test_sentences_and_list_items():
    assert sentences("Roll 1.5 dice. Then move 2.") == 2
    e = Entry("fi", "s", "x.text", "• Move.\n• Attack.", "• Liiku.", "f.po", 1)
    assert [m for _, _, m in check_clauses(e, load_glossary(REPO, "fi")[0])] == [
        "1 list item(s) in the translation, 2 in the English"]
