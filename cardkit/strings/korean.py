"""Korean particles that depend on the final consonant (batchim) of the word
before them, for checks and for run-time formatting.

>>> particle("진스틸러", "을")
'를'
>>> particle("로렌조 중사", "이"), particle("지원 토큰", "가")
('가', '이')
>>> particle("스페이스마린", "로")
'으로'
>>> particle("[skull]", "가"), particle("4", "을"), particle("1", "으로")
('이', '를', '로')
>>> fill_ko("{hero}가 {count}을 얻는다.", hero="로렌조 중사", count="지원 토큰")
'로렌조 중사가 지원 토큰을 얻는다.'
"""

from __future__ import annotations

import re

# (form after a consonant, form after a vowel)
PAIRS: dict[str, tuple[str, str]] = {
    "을": ("을", "를"), "를": ("을", "를"),
    "이": ("이", "가"), "가": ("이", "가"),
    "은": ("은", "는"), "는": ("은", "는"),
    "과": ("과", "와"), "와": ("과", "와"),
    "으로": ("으로", "로"), "로": ("으로", "로"),
    "이다": ("이다", "다"),
}
# How digits and icon tokens are read aloud (Sino-Korean numerals; the skull icon is 해골).
READINGS = {"0": "영", "1": "일", "2": "이", "3": "삼", "4": "사", "5": "오", "6": "육", "7": "칠", "8": "팔",
            "9": "구", "10": "십", "[skull]": "해골", "[support]": "지원 토큰"}
_HANGUL_BASE, _HANGUL_END = 0xAC00, 0xD7A3
_RIEUL = 8  # index of ㄹ among final consonants


def _last_syllable(word: str) -> str | None:
    w = word.strip()
    if not w:
        return None
    if w in READINGS:
        return READINGS[w][-1]
    m = re.search(r"(\d+)$", w)
    if m:
        n = int(m.group(1))
        if n % 10:
            return READINGS[str(n % 10)][-1]
        if n == 0:
            return "영"
        return "십" if n % 100 else ("백" if n % 1000 else "천")
    for ch in reversed(w):
        if _HANGUL_BASE <= ord(ch) <= _HANGUL_END:
            return ch
        if ch.isalnum():
            return None  # Latin or other script: reading unknown
    return None


def final_consonant(word: str) -> int | None:
    """Index of the final consonant of the word's last syllable (0 = none), or
    None when the word does not end in something with a known reading."""
    syl = _last_syllable(word)
    if syl is None:
        return None
    return (ord(syl) - _HANGUL_BASE) % 28


def particle(word: str, given: str) -> str:
    """The form of ``given`` (either form of a pair) that agrees with ``word``.
    Unknown readings keep the given form."""
    pair = PAIRS.get(given)
    fc = final_consonant(word)
    if pair is None or fc is None:
        return given
    if pair[0] == "으로":
        return pair[1] if fc in (0, _RIEUL) else pair[0]
    return pair[1] if fc == 0 else pair[0]


def agrees(word: str, given: str) -> bool:
    return particle(word, given) == given


_FILL = re.compile(r"\{([a-z_][a-z0-9_]*)\}(으로|이다|을|를|이|가|은|는|과|와|로)?")


def fill_ko(template: str, **values: object) -> str:
    """Fill ``{name}`` placeholders and fix the particle written right after each
    one to agree with the inserted value."""

    def sub(m: re.Match[str]) -> str:
        name, part = m.group(1), m.group(2)
        if name not in values:
            return m.group(0)
        value = str(values[name])
        return value + (particle(value, part) if part else "")

    return _FILL.sub(sub, template)


# Native Korean numerals in the form they take before a counter (한 마리, 두 장, 세 번째).
NATIVE_NUMERALS: dict[str, int] = {"한": 1, "하나": 1, "두": 2, "둘": 2, "세": 3, "셋": 3, "네": 4, "넷": 4, "다섯": 5,
                                   "여섯": 6, "일곱": 7, "여덟": 8, "아홉": 9, "열": 10}
# Counters (classifiers) written after a number: 1마리, 2장, 3번, 세 번째 ...
COUNTERS = ("마리", "번째", "번", "장", "개", "명", "회", "칸", "곳", "가지", "차례", "배", "턴", "점")
_NATIVE = re.compile(
    r"(?<![\uac00-\ud7a3])(" + "|".join(sorted(NATIVE_NUMERALS, key=len, reverse=True)) + r") ?("
    + "|".join(COUNTERS) + r")(?=$|[^\uac00-\ud7a3]|씩|째|을|를|이|가|은|는|의|에|도|만|까지|부터|으로|로|과|와|나)")


def native_numbers(text: str) -> list[tuple[int, int, int]]:
    """``(value, start, end)`` of each native numeral followed by a counter.

    >>> [v for v, _, _ in native_numbers("진스틸러 두 마리를 놓고, 세 번째 무리는 한 장씩 뽑는다.")]
    [2, 3, 1]
    >>> native_numbers("공격한 뒤 열 수 있다")
    []
    """
    return [(NATIVE_NUMERALS[m.group(1)], m.start(), m.end()) for m in _NATIVE.finditer(text)]
