"""Where a word may break at a line end.

* Soft hyphens (U+00AD) from the catalogs are always break points.
* Finnish: syllable rules (pyphen has no Finnish dictionary).  A syllable
  boundary falls before a consonant followed by a vowel (*ta-lo*, *kis-sa*,
  *kont-ti*) and between two vowels that are neither a long vowel nor a
  diphthong (*ko-e*, *tapah-tu-ma*).  No break leaves fewer than two letters on
  either side.  Existing hyphens break after themselves.
* English: only soft hyphens and existing hyphens.
* Korean: words never break inside (lines break between words only).

>>> finnish_breaks("tukipelimerkki")
[2, 4, 6, 8, 12]
>>> hyphenate("tukipelimerkki", "fi")
'tu-ki-pe-li-merk-ki'
>>> hyphenate("geenivoroparvi", "fi")
'gee-ni-vo-ro-par-vi'
"""

from __future__ import annotations

SOFT_HYPHEN = "\u00ad"
VOWELS = set("aeiouyåäöAEIOUYÅÄÖ")
_DIPHTHONGS = {"ai", "ei", "oi", "ui", "yi", "äi", "öi", "au", "eu", "iu", "ou", "ey", "iy", "äy", "öy",
               "ie", "uo", "yö"}
MIN_PART = 2


def _is_letter(ch: str) -> bool:
    return ch.isalpha()


def finnish_breaks(word: str) -> list[int]:
    """Indices ``i`` such that ``word[:i] + '-'`` / ``word[i:]`` is a valid split."""
    w = word.lower()
    n = len(w)
    out = []
    for i in range(1, n):
        a, b = w[i - 1], w[i]
        if not (_is_letter(a) and _is_letter(b)):
            continue
        ok = False
        if b not in VOWELS and i + 1 < n and w[i + 1] in VOWELS and _is_letter(w[i + 1]):
            # consonant followed by a vowel starts a syllable, unless it is the word's first letters
            ok = any(c in VOWELS for c in w[:i])
        elif a in VOWELS and b in VOWELS and a != b and (a + b) not in _DIPHTHONGS:
            # a vowel pair that is not a diphthong; a diphthong after the first syllable
            # (ie/uo/yö) splits as well
            ok = True
        elif a in VOWELS and b in VOWELS and (a + b) in {"ie", "uo", "yö"} and _syllables_before(w, i - 1) >= 1:
            ok = True
        if ok and i >= MIN_PART and n - i >= MIN_PART:
            out.append(i)
    return out


def _syllables_before(w: str, i: int) -> int:
    """Rough count of vowel groups before index ``i`` (ie/uo/yö are diphthongs only in a first syllable)."""
    groups, prev = 0, False
    for ch in w[:i]:
        v = ch in VOWELS
        if v and not prev:
            groups += 1
        prev = v
    return groups


def break_points(word: str, locale: str) -> list[int]:
    """Break indices in ``word`` (which may contain soft hyphens; indices refer to
    the word *with* them, and a break at a soft hyphen removes it)."""
    points: set[int] = set()
    for i, ch in enumerate(word):
        if ch == SOFT_HYPHEN:
            points.add(i)
        elif ch in "-\u2010\u2013" and 0 < i < len(word) - 1:
            points.add(i + 1)
    if locale.split("_")[0] == "fi":
        # compute on the word without soft hyphens and map indices back
        plain_to_orig = [i for i, ch in enumerate(word) if ch != SOFT_HYPHEN]
        plain = "".join(word[i] for i in plain_to_orig)
        for start, part in _letter_runs(plain):
            for b in finnish_breaks(part):
                points.add(plain_to_orig[start + b])
    return sorted(p for p in points if 0 < p < len(word))


def _letter_runs(text: str) -> list[tuple[int, str]]:
    runs, start = [], None
    for i, ch in enumerate(text + " "):
        if ch.isalpha():
            if start is None:
                start = i
        elif start is not None:
            runs.append((start, text[start:i]))
            start = None
    return runs


def split_at(word: str, index: int) -> tuple[str, str]:
    """Head (with a visible hyphen where needed) and tail of a break."""
    head, tail = word[:index], word[index:]
    if tail.startswith(SOFT_HYPHEN):
        tail = tail[1:]
    head_clean = head.replace(SOFT_HYPHEN, "")
    if not head_clean.endswith(("-", "\u2010", "\u2013")):
        head_clean += "-"
    return head_clean, tail


def hyphenate(word: str, locale: str) -> str:
    """The word with every break point shown as '-' (for tests and debugging)."""
    pts = break_points(word, locale)
    out, last = [], 0
    for p in pts:
        out.append(word[last:p].replace(SOFT_HYPHEN, ""))
        last = p
    out.append(word[last:].replace(SOFT_HYPHEN, ""))
    return "-".join(out)
