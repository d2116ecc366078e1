"""Language rules from CLDR data for any language: numbers, units, quotation marks."""

from __future__ import annotations

import pytest

from cardkit.i18n.checks import (
    Entry,
    Glossary,
    check_numbers,
    check_quotes,
    load_glossary,
    numbers_in,
)
from tests.conftest import REPO

SOURCE = 'Score 40,000 points, roll 1.5 times as often, and stay 12" away (30 cm).'


@pytest.mark.parametrize("locale, translation", [
    ("sv", "Få 40 000 poäng, slå 1,5 gånger så ofta och håll dig 12 tum bort (30 cm)."),
    ("sv", "Få 40\u00a0000 poäng, slå 1,5 gånger så ofta och håll dig 12\" bort (30 centimeter)."),
    ("de", "Erziele 40.000 Punkte, würfle 1,5-mal so oft und bleib 12 Zoll entfernt (30 cm)."),
    ("de", "Erziele 40 000 Punkte, würfle 1,5-mal so oft und bleib 12\u2033 entfernt (30 Zentimeter)."),
    ("fr", "Marquez 40\u202f000 points, lancez 1,5 fois plus souvent et restez à 12 pouces (30 cm)."),
])
def test_decimal_commas_and_space_groups_raise_no_number_finding(locale, translation):
    e = Entry(locale, "s", "c.text", SOURCE, translation, "x.po", 1)
    assert list(check_numbers(e, Glossary(locale))) == []


def test_english_reading_of_a_swedish_number_is_found():
    # 1.5 in Swedish is not one and a half: 1 and 5, both reported
    e = Entry("sv", "s", "c.text", "Roll 1.5 times.", "Slå 1.5 gånger.", "x.po", 1)
    assert sorted(code for code, _, _ in check_numbers(e, Glossary("sv"))) == ["T401", "T402", "T402"]


def test_units_declared_in_the_glossary():
    glossary, problems = load_glossary(REPO, "fi")
    assert problems == [] and "tuuman" in glossary.units.inch
    assert [(str(n.value), n.unit) for n in numbers_in("18 tuuman päässä", "fi", glossary.units)] == [("18", "inch")]
    assert [n.unit for n in numbers_in("18 tuuman päässä", "fi")] == [""]  # not a CLDR word: the glossary's


@pytest.mark.parametrize("locale, translation, found", [
    ("de", "Der Kapitän ruft „Vorwärts!“", False),
    ("de", "Der Kapitän ruft “Vorwärts!”", True),
    ("de", "Der Kapitän ruft »Vorwärts!«", True),
    ("sv", "Kaptenen ropar ”Framåt!”", False),
    ("sv", "Kaptenen ropar „Framåt!“", True),
    ("fi", "Kapteeni huutaa ”Eteenpäin!”", False),
    ("fi", "Kapteeni huutaa \"Eteenpäin!\"", True),
    ("fr", "Le capitaine crie « En avant ! »", False),
    ("ko", "함장이 「전진!」이라고 외친다", False),
    ("ko", "함장이 \"전진!\"이라고 외친다", True),
    ("de", 'Bleib 12" entfernt.', False),  # an inch mark
])
def test_quotation_marks_come_from_cldr(locale, translation, found):
    e = Entry(locale, "s", "c.text", "The captain shouts: Forward!", translation, "x.po", 1)
    hits = list(check_quotes(e, Glossary(locale)))
    assert bool(hits) is found, hits
    if found:
        assert hits[0][0] == "T802" and "(CLDR)" in hits[0][2]
