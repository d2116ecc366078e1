"""The number check (T401/T402): numbers compared as multisets of values,
read the way each locale writes them, against the shipped glossaries."""

from __future__ import annotations

import pytest

from cardkit.i18n.checks import Entry, Glossary, check_numbers, compare_numbers, load_glossary, numbers_in
from tests.conftest import REPO

FI = load_glossary(REPO, "fi")[0]
KO = load_glossary(REPO, "ko")[0]
STRATEGIZE = "After placing the support token, you may move one swarm 1 position up or down, to the other side of the formation, or both."


def codes(source: str, translation: str, g: Glossary) -> list[str]:
    e = Entry(g.locale, "death-angel", "x.text", source, translation, "f.po", 1)
    return sorted(code for code, _, _ in check_numbers(e, g))


@pytest.mark.parametrize("source, translation, g, expected", [
    # the case: the word for 'one swarm' used to stand in for the changed digit
    (STRATEGIZE, "지원 토큰을 놓은 후, 무리 하나를 위나 아래로 1 포지션 이동시키거나, 포메이션의 반대쪽으로 옮기거나, 둘 다 할 수 있다.", KO, []),
    (STRATEGIZE, "지원 토큰을 놓은 후, 무리 하나를 위나 아래로 5 포지션 이동시키거나, 포메이션의 반대쪽으로 옮기거나, 둘 다 할 수 있다.", KO, ["T401", "T402"]),
    (STRATEGIZE, "Tukipelimerkin asettamisen jälkeen voit siirtää yhtä parvea 5 kohdan ylös tai alas.", FI, ["T401", "T402"]),
    # a repeated digit: one of the two changed
    ("Discard 1 support token and kill 1 Genestealer.", "Poista 1 tukipelimerkki ja tapa 1 geenivoro.", FI, []),
    ("Discard 1 support token and kill 1 Genestealer.", "Poista 1 tukipelimerkki ja tapa 2 geenivoroa.", FI, ["T401", "T402"]),
    ("Kill 2 Genestealers.", "Tapa 2 geenivoroa ja vielä 2.", FI, ["T402"]),
    # a glossary number word still stands for a digit (the existing rule)
    ("Kill 2 Genestealers.", "Tapa kaksi geenivoroa.", FI, []),
    ("Kill 2 Genestealers.", "진스틸러 두 마리를 죽인다.", KO, []),
    # Finnish decimal comma and thousands separators; a dot is not the Finnish decimal mark
    ("Move 1.5 positions in Warhammer 40,000.", "Siirrä 1,5 kohtaa Warhammer 40\u00a0000 -pelissä.", FI, []),
    ("Move 1.5 positions in Warhammer 40,000.", "Siirrä 1,5 kohtaa Warhammer 40 000 -pelissä.", FI, []),
    ("Move 1.5 positions in Warhammer 40,000.", "Siirrä 1,5 kohtaa Warhammer 40.000 -pelissä.", FI, []),
    ("Move 1.5 positions.", "Siirrä 1.5 kohtaa.", FI, ["T401", "T402", "T402"]),  # read as 1 and 5
    ("Warhammer 40,000", "워해머 40,000", KO, []),
    # Korean counters glued to the digit
    ("Kill 2 Genestealers and draw 3 cards.", "진스틸러 2마리를 죽이고 카드 3장을 뽑는다.", KO, []),
    ("Kill 2 Genestealers and draw 3 cards.", "진스틸러 2마리를 죽이고 카드 4장을 뽑는다.", KO, ["T401", "T402"]),
    # Korean counts what English marks with the article; Finnish does not
    ("Place a Genestealer.", "진스틸러 1마리를 놓는다.", KO, []),
    ("Place a Genestealer.", "Aseta 1 geenivoro.", FI, ["T402"]),
    # the article's 한 명 cannot also stand for a missing digit
    ("Choose a Space Marine and kill 1 Genestealer.", "스페이스마린 한 명을 선택하고 진스틸러 2마리를 죽인다.", KO, ["T401", "T402"]),
    # inch marks as the catalogs write them, spelled out, or as whole centimetres
    ('at least 18" from enemy units', 'vähintään 18" päässä', FI, []),
    ('at least 18" from enemy units', "vähintään 18″ päässä", FI, []),
    ('at least 18" from enemy units', "vähintään 18 tuuman päässä", FI, []),
    ('at least 18" from enemy units', "적 유닛에서 18인치 이상", KO, []),
    ('at least 18" from enemy units', "vähintään 46 cm päässä", FI, []),
    ('at least 18" from enemy units', "vähintään 45 cm päässä", FI, ["T401", "T402"]),
    # markup, icons and placeholders are not numbers; D6 is
    ("Roll a D6: on a [skull] or {count}, <b>kill</b> 2.", "Heitä D6: tuloksella [skull] tai {count} <b>tapa</b> 2.", FI, []),
    ("Roll a D6.", "Heitä noppaa.", FI, ["T401"]),
])
def test_numbers(source, translation, g, expected):
    assert codes(source, translation, g) == expected


def test_messages_name_the_numbers():
    e = Entry("ko", "death-angel", "strategize.text", STRATEGIZE,
              "지원 토큰을 놓은 후, 무리 하나를 위나 아래로 5 포지션 이동시키거나, 둘 다 할 수 있다.", "f.po", 1)
    msgs = {code: msg for code, _, msg in check_numbers(e, KO)}
    assert msgs["T401"] == "the number 1 of the source is missing; numbers in the translation: 5"
    assert msgs["T402"] == "the number 5 is only in the translation (numbers in the source: 1)"


def test_values_are_exact():
    assert [(str(n.value), n.unit) for n in numbers_in("1 000 ja 2,25 ja 6 tuumaa ja -3", "fi")] == [
        ("1000", ""), ("9/4", ""), ("6", "inch"), ("-3", "")]
    missing, extra = compare_numbers("Move 2 positions.", "두 칸 이동한다.", Glossary("ko"))  # no glossary words: native numeral + counter
    assert (missing, extra) == ([], [])
    missing, _ = compare_numbers("Move 2 positions.", "두 칸 이동한다.", Glossary("fi"))
    assert [str(n.value) for n in missing] == ["2"]


def test_a_repeated_number_says_how_often():
    e = Entry("fi", "death-angel", "x.text", "Discard 1 support token and kill 1 Genestealer.",
              "Poista 1 tukipelimerkki ja tapa 2 geenivoroa.", "f.po", 1)
    msgs = [msg for code, _, msg in check_numbers(e, FI) if code == "T401"]
    assert msgs == ["the number 1 of the source is missing (the source has it 2 times, the translation 1); numbers in the translation: 1, 2"]
