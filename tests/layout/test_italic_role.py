"""The italic role never prints in a bold face: a script without an italic
(Hangul) gets its regular face, so a flavour text is not louder than the rules."""

from __future__ import annotations

import pytest

from cardkit.layout.fonts import ROLE_CHAINS, FontBook
from cardkit.layout.textfit import Style, break_lines

BOOK = FontBook()
SAMPLES = {"latin": "Gideon", "hangul": "진스틸러가 다가온다"}


@pytest.mark.parametrize("locale", sorted(set(ROLE_CHAINS) - {"default"}) + ["fi", "en"])
@pytest.mark.parametrize("script", sorted(SAMPLES))
def test_italic_draws_each_script_in_the_body_weight(locale, script):
    text = SAMPLES[script]
    italic = {f for f, _ in BOOK.segments(text, BOOK.chain(locale, "italic"))}
    bold = {f for f, _ in BOOK.segments(text, BOOK.chain(locale, "bold"))}
    assert not italic & bold, f"{locale} italic uses a bold face for {script}: {italic}"


def test_korean_flavour_text_is_laid_in_the_regular_hangul_face():
    style = Style("ko")
    flavour, _ = break_lines("<i>진스틸러가 다가온다</i>", style, 9, 500, BOOK)
    piece = flavour[0].pieces[0]
    assert piece.role == "italic"
    fonts = [f for f, _ in BOOK.segments(piece.value, BOOK.chain("ko", piece.role))]
    assert fonts == ["NanumGothic"]
