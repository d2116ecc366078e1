"""Checks that read real typography the same way in source and translation
(issue 32, "What to build" 1): the false alarms a community translation of a
card database raised, each on a string in the style of such a translation, and
the real slip each rule must still find."""

from __future__ import annotations

import pytest

from cardkit.i18n.checks import Entry, Glossary, check_numbers, load_glossary
from cardkit.i18n.meaning import check_clauses, check_names, sentences
from tests.conftest import REPO

DE = Glossary("de")
FR = Glossary("fr")
KO = load_glossary(REPO, "ko")[0]


def number_codes(source: str, translation: str, g: Glossary) -> list[str]:
    e = Entry(g.locale, "core", "x.text", source, translation, "x.po", 1)
    return sorted(code for code, _, _ in check_numbers(e, g))


@pytest.mark.parametrize("source, translation, g, expected", [
    # calibres in card names: the same name in every language, whatever its decimal mark
    (".45 Automatic. Uses (4 ammo).", ".45 Automatik. Verwendet (4 Munition).", DE, []),
    ("Fight with your .38 Special: you get +1 [combat] for this attack.",
     "Kämpfe mit deinem .38 Special: du erhältst +1 [combat] für diesen Angriff.", DE, []),
    ("Fight with your .38 Special.", "Combattez avec votre .38 Special.", FR, []),
    (".45 Automatic", ".38 Automatik", DE, ["T401", "T402"]),  # a changed calibre is still a changed number
    # a minus written with any dash or minus sign is the same signed number
    ("You get -2 [intellect] for this test.", "Vous subissez –2 [intellect] pour ce test.", FR, []),
    ("You get -2 [intellect] for this test.", "Vous subissez −2 [intellect] pour ce test.", FR, []),
    ("You get −1 for each card.", "Du erhältst -1 für jede Karte.", DE, []),
    ("You get -2 [intellect] for this test.", "Vous subissez 2 [intellect] pour ce test.", FR, ["T401", "T402"]),
    ("Between 3–4 players.", "Für 3–4 Spieler.", DE, []),  # a range: no sign
    # lengths written as words, converted to centimetres
    ("A twelve-inch blade, wickedly sharp.", "Eine 30 Zentimeter lange Klinge, teuflisch scharf.", DE, []),
    ("A twelve-inch blade, wickedly sharp.", "Une lame de 30 cm, terriblement tranchante.", FR, []),
    ("A twelve-inch blade.", "Eine 12-Zoll-Klinge.", DE, []),
    ("A twelve-inch blade.", "Eine 40 Zentimeter lange Klinge.", DE, ["T402"]),
    ("Range 6 inches.", "Reichweite 15 cm.", DE, []),
    ("Range 6 inches.", "Reichweite 18 cm.", DE, ["T401", "T402"]),
    # Korean native numerals from the glossary stand for a digit before the English article takes them
    ("Take 1 horror from a monster.", "괴물에게서 공포 하나를 받는다.", KO, []),
    ("Place 1 clue on a location.", "장소 한 곳에 단서 하나를 놓는다.", KO, []),
    ("Take 1 horror from a monster.", "괴물에게서 공포 둘을 받는다.", KO, ["T401"]),
    ("Place a clue on your location.", "당신의 장소에 단서 1개를 놓는다.", KO, []),  # the article still counts as one
])
def test_numbers_read_alike(source, translation, g, expected):
    assert number_codes(source, translation, g) == expected


@pytest.mark.parametrize("english, translation", [
    # ellipses end nothing mid-sentence, in any script, and close the string alike
    ("Wait... then run.", "Warte … dann lauf."),
    ("Wait... then run.", "기다려‧‧‧ 그리고 달려."),
    ("Wait… then run.", "Attends... puis cours."),
    ("Something moves in the dark...", "Etwas bewegt sich im Dunkeln …"),
    ("Something moves in the dark...", "어둠 속에서 무언가 움직인다‧‧‧"),
    # abbreviations are not sentence ends
    ("Dr. Milan Christopher helps you. Gain 1 resource.", "Dr. Milan Christopher hilft dir. Erhalte 1 Ressource."),
    ("Draw 2 cards, e.g. from your deck. Then discard one.", "Ziehe 2 Karten, z. B. aus deinem Deck. Lege dann eine ab."),
    ("St. Mary's Hospital. Heal 1 damage.", "Hôpital St. Mary. Soignez 1 dégât."),
    # closing quotes after ! and ? end one sentence
    ('He shouts: "Run!" Then he falls.', "Er ruft: „Lauf!“ Dann fällt er."),
    ('He shouts: "Run!" Then he falls.', "Il crie : « Courez ! » Puis il tombe."),
    ('"Who is there?" Nobody answers.', "»Wer ist da?« Niemand antwortet."),
])
def test_sentence_ends_read_alike(english, translation):
    assert sentences(english) == sentences(translation)
    e = Entry("de", "core", "x.text", english, translation, "x.po", 1)
    assert list(check_clauses(e, DE)) == []


def test_sentence_counts_are_the_real_ones():
    assert sentences("Dr. Milan Christopher helps you. Gain 1 resource.") == 2
    assert sentences('He shouts: "Run!" Then he falls.') == 2
    assert sentences("Wait... then run.") == 1
    assert sentences("Something moves in the dark…") == 1
    assert sentences("Ziehe z. B. 2 Karten. Lege dann eine ab.") == 2
    # a placeholder or an icon starts a sentence as a word does
    assert sentences("Draw a card. {hero} moves.") == sentences("Nosta kortti. {hero} liikkuu.") == 2
    assert sentences("Roll the die. [skull] kills the hero.") == 2
    # a dropped sentence is still found
    e = Entry("de", "core", "x.text", "Dr. Milan helps you. Gain 1 resource. Draw 1 card.",
              "Dr. Milan hilft dir.", "x.po", 1)
    assert [c for c, _, _ in check_clauses(e, DE)] == ["T163"]


def _names(locale: str, pairs: list[tuple[str, str, str]], **glossary) -> list[str]:
    g = Glossary(locale, **glossary)
    entries = [Entry(locale, "core", ctx, en, tr, "x.po", i + 1) for i, (ctx, en, tr) in enumerate(pairs)]
    return [f.message for f in check_names(entries, g)]


DEINO = ("brother_deino.name", "Brother Deino", "Bruder Deino")


def test_a_name_is_a_whole_word_not_a_prefix():
    # 'deiner', 'deinen', 'deine' (your) are not Brother Deino
    pairs = [DEINO, ("gun_jam.name", "Gun Jam", "Ladehemmung"),
             ("gun_jam.text", "Discard a card from your hand.", "Wirf eine Karte aus deiner Hand ab."),
             ("move.text", "Move your units.", "Bewege deine Einheiten und deinen Anführer.")]
    assert _names("de", pairs, proper_names=frozenset({"Deino"})) == []
    # adding a weapon to the proper names does not make a verb a name
    pairs = [("machete.name", "Machete", "Machete"), ("gun_jam.name", "Gun Jam", "Ladehemmung"),
             ("test.text", "You must make a test.", "Du musst eine Probe machen.")]
    assert _names("de", pairs, proper_names=frozenset({"Machete"})) == []
    # the name itself is still recognised, and a swapped name still found
    pairs = [DEINO, ("brother_leon.name", "Brother Leon", "Bruder Leon"),
             ("x.text", "Deino may attack.", "Deino darf angreifen."),
             ("y.text", "Deino may move.", "Leon darf sich bewegen.")]
    found = _names("de", pairs, proper_names=frozenset({"Deino", "Leon"}))
    assert len(found) == 1 and "no 'Deino'" in found[0] and "Leon" in found[0]


def test_declared_name_endings_recognise_inflected_names():
    pairs = [("brother_deino.name", "Brother Deino", "Veli Deino"), ("brother_leon.name", "Brother Leon", "Veli Leon"),
             ("x.text", "Give Deino 1 support token.", "Anna Deinolle 1 tukipelimerkki."),
             ("y.text", "Deino's swarm moves.", "Deinon parvi liikkuu.")]
    names = frozenset({"Deino", "Leon"})
    assert len(_names("fi", pairs, proper_names=names)) == 2  # undeclared: an inflected name is not recognised
    assert _names("fi", pairs, proper_names=names, name_endings=("n", "lle", "lla")) == []
    # a declared ending makes no prefix: 'Leonard' is not Leon + an ending
    pairs[3] = ("y.text", "Deino's swarm moves.", "Leonardin parvi liikkuu.")
    assert len(_names("fi", pairs, proper_names=names, name_endings=("n", "lle", "lla"))) == 1
