"""Hyphenation, line breaking, shrink-to-fit and the Korean particle helper, on real card words."""

from __future__ import annotations

import pytest

from cardkit.strings.korean import agrees, fill_ko, particle
from cardkit.layout.fonts import FontBook
from cardkit.layout.hyphen import break_points, hyphenate
from cardkit.layout.textfit import Style, break_lines, fit

BOOK = FontBook()


@pytest.mark.parametrize("word, expected", [
    ("tukipelimerkki", "tuki-pe-li-merkki"),  # no two-letter fragment at either end
    ("geenivoroparvi", "gee-ni-vo-ro-parvi"),
    ("taisteluparimerkki", "tais-te-lu-pa-ri-merkki"),
    ("tapahtumakortti", "tapah-tu-ma-kortti"),
    ("muodostelma", "muo-dos-telma"),
    ("hyökkäys", "hyök-käys"),
    ("Laumanherra", "Lau-man-herra"),  # not Laumanher-ra
    ("tutkapinosta", "tut-ka-pi-nosta"),
    ("koe", "koe"),
])
def test_finnish_syllables(word, expected):
    assert hyphenate(word, "fi") == expected


@pytest.mark.parametrize("word, seam", [("Prometiumsäiliö", "Prometium-säiliö"), ("tutkapinoon", "tutka-pinoon"),
                                        ("Laumanherra", "Lauman-herra"), ("tukipelimerkin", "tukipeli-merkin")])
def test_finnish_compounds_break_at_the_seam_first(word, seam):
    head = seam.split("-")[0]
    chain = BOOK.chain("fi", "body")
    width = BOOK.width(f"xx {head}-", chain, 9) + 1  # room for the seam's head, not the whole word
    lines, _ = break_lines(f"xx {word}", Style("fi"), 9, width, BOOK)
    assert _text_of(lines)[:2] == [f"xx {head}-", word[len(head):]]


def test_swedish_compound_of_29_letters_hyphenates_by_the_dictionary():
    word = "Ventilationsunderhållsstation"
    assert len(word) == 29 and hyphenate(word, "sv") == "Ven-ti-la-tions-un-der-hålls-sta-tion"
    width = BOOK.width(word, BOOK.chain("sv", "body"), 9) * 0.6
    result = fit(word, Style("sv"), width, 40, 9, 6, BOOK)
    assert result.status == "fits" and result.size == 9  # at full size, not shrunk to 55 %
    assert len(result.lines) == 2 and _text_of(result.lines)[0].endswith("-")
    assert "".join(_text_of(result.lines)).replace("-", "") == word


def test_titles_and_names_keep_their_words_whole():
    # a title moves the word to the next line rather than break it ...
    lines, _ = break_lines("Sankarillinen rynnäkkö", Style("fi", "title"), 9, BOOK.width(
        "Sankarillinen rynnä-", BOOK.chain("fi", "title"), 9) + 1, BOOK)
    assert _text_of(lines) == ["Sankarillinen", "rynnäkkö"]
    # ... unless it is wider than any line
    word = "Ventilationsunderhållsstation"
    lines, wide = break_lines(word, Style("sv", "title"), 9, BOOK.width(word, BOOK.chain("sv", "title"), 9) * 0.6, BOOK)
    assert len(lines) == 2 and not wide
    # a capitalized word inside a sentence is a name: moved whole
    body = Style("fi")
    width = BOOK.width("Aina kun Lexicanium Calista-", BOOK.chain("fi", "body"), 9) + 1
    assert _text_of(break_lines("Aina kun Lexicanium Calistarius heittää", body, 9, width, BOOK)[0])[0] == \
        "Aina kun Lexicanium"
    # German capitalizes every noun: there a capital marks no name
    width = BOOK.width("Die Ventilations-", BOOK.chain("de", "body"), 9) + 1
    assert _text_of(break_lines("Die Ventilationsstation", Style("de"), 9, width, BOOK)[0])[0].endswith("-")


def test_soft_hyphen_is_a_break_and_english_has_no_syllable_breaks():
    assert break_points("Ilmanvaihto\u00adkanava", "en") == [11]
    assert break_points("Genestealers", "en") == []
    assert 11 in break_points("Ilmanvaihto\u00adkanava", "fi")
    assert break_points("Ilmanvaihto\u00adkanava", "fi", syllables=False) == [11]


def _text_of(lines):
    return ["".join(p.value if p.kind == "text" else f"[{p.value}]" for p in line.pieces) for line in lines]


def test_korean_breaks_only_between_words():
    text = "스페이스마린 한 명을 선택한다. 그의 배후에 진스틸러 2마리를 출현시킨다."
    lines, wide = break_lines(text, Style("ko"), 9, 90, BOOK)
    assert not wide and len(lines) > 1
    words = text.split(" ")
    for line in _text_of(lines):
        for w in line.strip().split(" "):
            assert w in words  # no word was cut


def test_finnish_prefers_compound_seam_over_syllables():
    chain = BOOK.chain("fi", "bold")
    width = BOOK.width("Kolme Ilmanvaihto-", chain, 6.5) + 3  # room for the seam, not for the whole word
    assert BOOK.width("Kolme Ilmanvaihtokanava", chain, 6.5) > width
    lines, _ = break_lines("Kolme Ilmanvaihto\u00adkanava", Style("fi", "bold"), 6.5, width, BOOK)
    assert _text_of(lines) == ["Kolme Ilmanvaihto-", "kanava"]


def test_spaced_hyphen_suffix_never_starts_a_line():
    text = "suorita nykyisen paikan Aktivoi ohjauspaneeli -ominaisuus"
    for width in range(60, 200, 7):
        for line in _text_of(break_lines(text, Style("fi"), 9, width, BOOK)[0]):
            assert not line.lstrip().startswith("-")


def test_icons_glue_to_their_punctuation():
    lines, _ = break_lines("On a [skull], discard it.", Style("en"), 9, 40, BOOK)
    assert any("[skull]," in t for t in _text_of(lines))


def test_fit_statuses_in_order():
    text = "Choose a Space Marine. Every swarm in the formation moves to his position."
    roomy = fit(text, Style("en"), 200, 100, 9, 6, BOOK)
    assert roomy.status == "fits" and roomy.size == 9
    tight = fit(text, Style("en"), 120, 30, 9, 6, BOOK)
    assert tight.status == "shrunk" and 6 <= tight.size < 9
    # the shrunk size is the largest that fits: 0.1 pt more overflows
    bigger = fit(text, Style("en"), 120, 30, round(tight.size + 0.1, 1), round(tight.size + 0.1, 1), BOOK)
    assert bigger.status != "fits"
    tiny = fit(text, Style("en"), 120, 14, 9, 8, BOOK)
    assert tiny.status in ("below_min", "overflow")
    hopeless = fit(text * 5, Style("en"), 60, 10, 9, 8, BOOK)
    assert hopeless.status == "overflow" and hopeless.overflow_lines > 0
    assert "overflows by" in hopeless.describe()


@pytest.mark.parametrize("word, given, expected", [
    ("진스틸러", "을", "를"), ("지원 토큰", "가", "이"), ("스페이스마린", "로", "으로"),
    ("브루드로드", "은", "는"), ("[skull]", "가", "이"), ("6", "를", "을"), ("2", "을", "를"),
    ("1", "으로", "로"), ("10", "를", "을"), ("무리", "과", "와"),
])
def test_korean_particles(word, given, expected):
    assert particle(word, given) == expected
    assert agrees(word, expected)


def test_fill_ko_fixes_particles_at_run_time():
    assert fill_ko("{m}가 {n}을 잃는다.", m="로렌조 중사", n="지원 토큰") == "로렌조 중사가 지원 토큰을 잃는다."
    assert fill_ko("{m}가 {n}을 잃는다.", m="브라더 레온", n="무리") == "브라더 레온이 무리를 잃는다."
