"""Defects a translator's held-out corpus found the checks missed (issue 32,
"What to build" 5): a plural form holding the singular, singular and plural
swapped, a no-break space beside a space, a dropped clause."""

from __future__ import annotations

import pytest

from cardkit.i18n.checks import Entry, Glossary, check_spaces, load_glossary
from cardkit.i18n.meaning import check_length, check_plural_forms
from tests.conftest import REPO

FI = load_glossary(REPO, "fi")[0]
DE = Glossary("de", numbers={1: ("ein", "eine", "einen"), 2: ("zwei",)})
FR = Glossary("fr")
SPAWN = ("{count} Genestealer spawns at position {row}, {side}.", "{count} Genestealers spawn at position {row}, {side}.")
DRAW = ("Draw {n} card.", "Draw {n} cards.")


def plural(g: Glossary, english: tuple[str, str], forms: list[str]) -> list[tuple[str, str]]:
    """Findings of the plural check on one message, as the report makes its entries
    (msgstr[0] against the English singular when the locale has two forms or more)."""
    entries = [Entry(g.locale, "core", "x.text", english[0] if i == 0 else english[1], f, "x.po", 7, form=i)
               for i, f in enumerate(forms)]
    return [(f.check, f.message) for f in check_plural_forms(entries, g)]


@pytest.mark.parametrize("g, english, forms", [
    (FI, SPAWN, ["Kohtaan {row} ({side} puoli) sikiää {count} geenivoro.",
                 "Kohtaan {row} ({side} puoli) sikiää {count} geenivoroa."]),
    (FI, ("{games} game per player count", "{games} games per player count"),
     ["{games} peli pelaajamäärää kohden", "{games} peliä pelaajamäärää kohden"]),
    # the same words for 1 and for many are correct Finnish after a number in the elative
    (FI, ("over {games} game", "over {games} games"), ["{games} pelistä", "{games} pelistä"]),
    (DE, DRAW, ["Ziehe {n} Karte.", "Ziehe {n} Karten."]),
    (DE, ("Draw {n} card for a player.", "Draw {n} cards for a player."),
     ["Ziehe {n} Karte für einen Spieler.", "Ziehe {n} Karten für einen Spieler."]),  # 'einen' is the English 'a'
    (FR, DRAW, ["Piochez {n} carte.", "Piochez {n} cartes."]),
])
def test_correct_plural_forms_pass(g, english, forms):
    assert plural(g, english, forms) == []


@pytest.mark.parametrize("g, english, forms, code, form", [
    # the singular (its number) held in the form for 2, 3, 4 ...
    (FI, SPAWN, ["Kohtaan {row} ({side} puoli) sikiää {count} geenivoro.",
                 "Kohtaan {row} ({side} puoli) sikiää yksi geenivoro."], "T154", "msgstr[1]"),
    (DE, DRAW, ["Ziehe {n} Karte.", "Ziehe eine Karte."], "T154", "msgstr[1]"),
    (DE, DRAW, ["Ziehe {n} Karte.", "Ziehe 1 Karte."], "T154", "msgstr[1]"),
    # a number in the form for 1 that the rule never sends there
    (DE, DRAW, ["Ziehe zwei Karten.", "Ziehe {n} Karten."], "T154", "msgstr[0]"),
    # singular and plural swapped
    (FI, SPAWN, ["Kohtaan {row} ({side} puoli) sikiää {count} geenivoroa.",
                 "Kohtaan {row} ({side} puoli) sikiää {count} geenivoro."], "T155", "msgstr[0]"),
    (DE, DRAW, ["Ziehe {n} Karten.", "Ziehe {n} Karte."], "T155", "msgstr[0]"),
    (FR, DRAW, ["Piochez {n} cartes.", "Piochez {n} carte."], "T155", "msgstr[0]"),
])
def test_plural_forms_are_checked_against_the_numbers_they_are_used_for(g, english, forms, code, form):
    found = plural(g, english, forms)
    assert [c for c, _ in found] == [code]
    assert form in found[0][1]


@pytest.mark.parametrize("translation, expected", [
    ("Heitä noppaa ja siirrä 2 kohtaa.", []),
    ("Heitä noppaa ja siirrä 2\u00a0kohtaa.", []),  # one no-break space binds the number to its noun
    ("Heitä noppaa ja siirrä 2\u00a0 kohtaa.", ["a run of spaces (no-break space + space)"]),
    ("Heitä noppaa ja siirrä 2 \u202fkohtaa.", ["a run of spaces (space + narrow no-break space)"]),
    ("Heitä noppaa  ja siirrä 2 kohtaa.", ["double space"]),
    ("Heitä noppaa ja siirrä 2 kohtaa.\u00a0", ["leading or trailing space"]),
    ("Heitä noppaa.\nSiirrä 2 kohtaa.", []),
])
def test_whitespace_runs_with_no_break_spaces(translation, expected):
    e = Entry("fi", "core", "x.text", "Roll a die and move 2 positions.", translation, "x.po", 1)
    assert [m for _, _, m in check_spaces(e, FI)] == expected


SOURCE = "Deal 2 damage to a hero. If that hero is exhausted, deal 1 more damage to it instead."


def test_a_translation_much_shorter_than_its_english():
    full = Entry("de", "core", "x.text", SOURCE,
                 "Füge einem Helden 2 Schaden zu. Ist er erschöpft, füge ihm stattdessen 1 Schaden mehr zu.", "x.po", 3)
    dropped = Entry("de", "core", "y.text", SOURCE, "Füge einem Helden 2 Schaden zu.", "x.po", 9)
    found = check_length([full, dropped], DE)
    assert [(f.check, f.msgctxt) for f in found] == [("T172", "y.text")]
    assert "31 characters for 85 of English" in found[0].message
    # a terse language is measured against its own usual length: the same ratio is Korean's normal
    ko = Entry("ko", "core", "x.text", SOURCE, "영웅에게 피해 2를 준다. 그 영웅이 소진되었다면, 대신 피해를 1 더 준다.", "k.po", 3)
    assert check_length([ko], Glossary("ko")) == []
    ko.translation = "영웅에게 피해 2를 준다."
    assert [f.check for f in check_length([ko], Glossary("ko"))] == ["T172"]
