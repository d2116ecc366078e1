"""Compound-aware hyphenation for pyphen languages (German) and soft hyphens as
the only breaks of their word: the breaks a German translator sees in print."""

from __future__ import annotations

import pytest

from cardkit.layout.fonts import FontBook
from cardkit.layout.hyphen import SOFT_HYPHEN, seam_ranks
from cardkit.layout.textfit import Style, break_lines

BOOK = FontBook()
CHAIN = BOOK.chain("de", "body")


def _texts(lines):
    return ["".join(p.value for p in ln.pieces) for ln in lines]


def _width_for(head: str) -> float:
    return BOOK.width(head, CHAIN, 9) + 0.5  # room for exactly this head, at 9 pt


@pytest.mark.parametrize("word, seam, syllable", [
    ("Flammenwerferangriff", "Flammenwerfer-", "Flammenwerferan-"),
    ("Symbiontenstapel", "Symbionten-", "Symbiontensta-"),
    ("Nahkampfangriff", "Nahkampf-", "Nahkampfan-"),
])
def test_german_compound_breaks_at_the_seam_when_a_later_syllable_also_fits(word, seam, syllable):
    # the line has room for the later syllable break; the seam wins all the same
    lines, wide = break_lines(f"Ein {word}", Style("de"), 9, _width_for(f"Ein {syllable}"), BOOK)
    assert not wide
    assert _texts(lines) == [f"Ein {seam}", word[len(seam) - 1:]]


def test_seam_ranks_score_both_parts_of_a_german_compound():
    ranks = seam_ranks("Flammenwerferangriff", "de")
    assert ranks[13] == 2 and ranks[7] == 2  # Flammen|werfer|angriff: both sides are words
    assert ranks.get(15, 0) < ranks[13]  # Flammenwerferan|griff: the head is no word
    assert ranks.get(7, 0) > ranks.get(4, 0)  # Flam|men...: a syllable, no seam
    assert seam_ranks("Symbiontenstapel", "de").get(10, 0) > seam_ranks("Symbiontenstapel", "de").get(7, 0)


def test_a_language_without_compound_data_ranks_no_seams():
    assert seam_ranks("Ventilationsunderhållsstation", "sv") == {}
    assert seam_ranks("Flammenwerferangriff", "en") == {}


def test_a_soft_hyphen_is_the_only_break_of_its_word():
    # "Symbion-" fits on the first line, "Symbionten-" does not: the word moves whole
    word = f"Symbionten{SOFT_HYPHEN}stapel"
    width = _width_for("Der kleine Symbion-")
    assert BOOK.width("Symbiontenstapel", CHAIN, 9) < width < BOOK.width("Der kleine Symbionten-", CHAIN, 9)
    lines, wide = break_lines(f"Der kleine {word}", Style("de"), 9, width, BOOK)
    assert _texts(lines) == ["Der kleine", "Symbiontenstapel"] and not wide


def test_a_soft_hyphen_breaks_its_word_where_it_fits():
    word = f"Symbionten{SOFT_HYPHEN}stapel"
    lines, _ = break_lines(f"Der {word}", Style("de"), 9, _width_for("Der Symbionten-"), BOOK)
    assert _texts(lines) == ["Der Symbionten-", "stapel"]


def test_a_word_wider_than_any_line_still_breaks_between_syllables_beside_its_soft_hyphen():
    word = f"Flammenwerferangriffs{SOFT_HYPHEN}symbiontenstapel"
    width = _width_for("Flammenwerferangriffs-") - 1  # not even the soft hyphen's head fits a line
    lines, wide = break_lines(word, Style("de"), 9, width, BOOK)
    # the seam first, then the translator's soft hyphen
    assert _texts(lines) == ["Flammenwerfer-", "angriffs-", "symbiontenstapel"] and not wide
