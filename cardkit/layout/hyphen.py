"""Where a word may break at a line end.

* Soft hyphens (U+00AD) from the catalogs and real hyphens are always break
  points (a real hyphen breaks after itself).
* Syllables: pyphen's dictionaries (LibreOffice's hyphenation patterns) for
  every language that has one (Swedish, German, French, ...).  pyphen has no
  Finnish dictionary, so Finnish keeps its syllable rules: a boundary before a
  consonant followed by a vowel (*ta-lo*, *kis-sa*, *kont-ti*) and between two
  vowels that form neither a long vowel nor a diphthong (*ko-e*, *ta-pah-tu-ma*).
* Compound seams: where a language's word list (``hyphenation/<lang>.txt``)
  names a part found inside a word (*Prometium-säiliö*, *tutka-pinon*), the
  seam before it is preferred to any syllable.
* For a pyphen language, compound seams are also read from the dictionary
  itself: LibreOffice's two-level dictionaries (German's ``hyph_de_*.dic``)
  list, before their ``NEXTLEVEL`` line, some 57,000 compounds and stems with
  their seams (pyphen merges both levels and so loses the difference).  Their
  parts of four or more letters form a lexicon, and :func:`seam_ranks` scores
  each syllable point by how many of its sides are lexicon words: the head
  ends with one (after an optional linking element, German *-s-*, *-en-*, ...),
  the tail starts with one.  *Flammenwerfer|angriff* scores 2,
  *Flammenwerferan|griff* 1 (no word ends the head), *Flam|menwerfer...* 0;
  the breaker tries higher ranks first.  A language whose dictionary has no
  such level ranks no seams, so its breaks are unchanged.
* No syllable break leaves fewer than :data:`MIN_LEFT` letters before it or
  :data:`MIN_RIGHT` after it (no *Laumanher-ra*).
* English, the source language, breaks only at soft and real hyphens, as it
  always has; Korean never breaks inside a word.

>>> finnish_breaks("tukipelimerkki")
[4, 6, 8]
>>> hyphenate("tukipelimerkki", "fi")
'tuki-pe-li-merkki'
>>> hyphenate("Ventilationsunderhållsstation", "sv")
'Ven-ti-la-tions-un-der-hålls-sta-tion'
>>> compound_seams("Prometiumsäiliö", "fi"), compound_seams("Laumanherra", "fi")
([9], [6])
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

SOFT_HYPHEN = "\u00ad"
VOWELS = set("aeiouyåäöAEIOUYÅÄÖ")
_DIPHTHONGS = {"ai", "ei", "oi", "ui", "yi", "äi", "öi", "au", "eu", "iu", "ou", "ey", "iy", "äy", "öy",
               "ie", "uo", "yö"}
MIN_LEFT = 3  # letters a syllable break leaves before it
MIN_RIGHT = 3  # letters a syllable break leaves after it
WORD_LISTS = Path(__file__).resolve().parent / "hyphenation"
NO_SYLLABLES = frozenset({"en", "ko", "ja", "zh"})  # the source language, and scripts that break otherwise
# languages that capitalize every noun: a capital letter there does not mark a name
NOUN_CAPITALS = frozenset({"de", "lb"})
HYPHENS = "-\u2010\u2013"


def _is_letter(ch: str) -> bool:
    return ch.isalpha()


def finnish_breaks(word: str) -> list[int]:
    """Indices ``i`` such that ``word[:i] + '-'`` / ``word[i:]`` is a valid
    syllable split, compound seams of the word list included."""
    w = word.lower()
    n = len(w)
    out = set(compound_seams(word, "fi"))
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
        if ok and i >= MIN_LEFT and n - i >= MIN_RIGHT:
            out.add(i)
    return sorted(out)


def _syllables_before(w: str, i: int) -> int:
    """Rough count of vowel groups before index ``i`` (ie/uo/yö are diphthongs only in a first syllable)."""
    groups, prev = 0, False
    for ch in w[:i]:
        v = ch in VOWELS
        if v and not prev:
            groups += 1
        prev = v
    return groups


@functools.lru_cache(maxsize=16)
def _word_list(lang: str) -> tuple[str, ...]:
    """Compound parts of a language (one per line, ``#`` comments), longest first."""
    path = WORD_LISTS / f"{lang}.txt"
    if not path.is_file():
        return ()
    parts = {ln.split("#")[0].strip().lower() for ln in path.read_text(encoding="utf-8").splitlines()}
    return tuple(sorted((p for p in parts if len(p) >= MIN_RIGHT), key=lambda p: (-len(p), p)))


def compound_seams(word: str, locale: str) -> list[int]:
    """Seams of a compound: before each listed part found in the word at
    least :data:`MIN_LEFT` letters in, with :data:`MIN_RIGHT` letters from
    there on (``word`` is letters only)."""
    parts = _word_list(locale.split("_")[0])
    w = word.lower()
    n = len(w)
    out = set()
    for p in parts:
        at = w.find(p, MIN_LEFT)
        while at >= 0:
            if n - at >= MIN_RIGHT:
                out.add(at)
            at = w.find(p, at + 1)
    return sorted(out)


@functools.lru_cache(maxsize=16)
def _dictionary(lang: str):  # type: ignore[no-untyped-def]  # -> pyphen.Pyphen | None
    import pyphen  # type: ignore[import-untyped]

    if lang in NO_SYLLABLES or lang == "fi":
        return None
    name = pyphen.language_fallback(lang)
    return pyphen.Pyphen(lang=name, left=MIN_LEFT, right=MIN_RIGHT) if name else None


def has_syllables(locale: str) -> bool:
    """Whether words of ``locale`` break between syllables (else at hyphens only)."""
    lang = locale.split("_")[0]
    return lang == "fi" or _dictionary(lang) is not None


# linking elements (Fugenelemente) a compound's head may end with after its last word
_LINKS: dict[str, tuple[str, ...]] = {"de": ("s", "es", "n", "en", "e", "er", "ns"),
                                      "nl": ("s", "en", "e")}
MIN_PART = 4  # letters of a lexicon part (shorter ones, "an", "ein", match almost anywhere)


@functools.lru_cache(maxsize=16)
def _lexicon(lang: str) -> frozenset[str]:
    """Word parts of a pyphen dictionary's compound level (empty without one)."""
    import pyphen

    if lang in NO_SYLLABLES or lang == "fi":
        return frozenset()
    name = pyphen.language_fallback(lang)
    if not name:
        return frozenset()
    raw = Path(pyphen.LANGUAGES[name]).read_bytes()
    first, _, body = raw.partition(b"\n")
    encoding = first.decode("ascii", "replace").strip()
    try:
        text = body.decode("cp1251" if encoding.lower() == "microsoft-cp1251" else encoding)
    except (LookupError, UnicodeDecodeError):
        return frozenset()
    if "\nNEXTLEVEL" not in "\n" + text:
        return frozenset()
    parts: set[str] = set()
    for line in text.split("\n"):
        line = line.strip()
        if line == "NEXTLEVEL":
            break
        # a level-one entry is a word with its seams as digits ("flammen1werfer"); keywords
        # (COMPOUNDLEFTHYPHENMIN 2), word-edge patterns (".ab1"), alternatives ("/") are no words
        if not line or not line[0].isalpha() or " " in line or "/" in line or "." in line or line.isupper():
            continue
        pieces = [p for p in re.split(r"\d", line) if p]
        for piece in pieces + ["".join(pieces)]:
            if len(piece) >= MIN_PART and piece.isalpha():
                parts.add(piece.lower())
    return frozenset(parts)


def _ends_with_part(head: str, lexicon: frozenset[str], links: tuple[str, ...]) -> bool:
    for link in ("",) + links:
        if not head.endswith(link):
            continue
        core = head[: len(head) - len(link)]
        if any(core[-k:] in lexicon for k in range(MIN_PART, len(core) + 1)):
            return True
    return False


@functools.lru_cache(maxsize=4096)
def _ranks(word: str, lang: str) -> tuple[tuple[int, int], ...]:
    if lang == "fi":
        return tuple((p, 2) for p in compound_seams(word, lang))
    listed = set(compound_seams(word, lang))
    lexicon = _lexicon(lang)
    dic = _dictionary(lang)
    if dic is None or not (lexicon or listed):
        return ()
    w = word.lower()
    links = _LINKS.get(lang, ())
    out = []
    for p in sorted(set(dic.positions(word)) | listed):
        rank = 2 if p in listed else (int(_ends_with_part(w[:p], lexicon, links))
                                      + int(any(w[p:p + k] in lexicon for k in range(MIN_PART, len(w) - p + 1))))
        if rank:
            out.append((int(p), rank))
    return tuple(out)


def seam_ranks(word: str, locale: str) -> dict[int, int]:
    """Compound-seam rank of the break points of ``word`` (letters only) that
    look like seams: 2 when the parts on both sides are words (or a word list
    names the part), 1 when one side is; points not listed are plain syllables.

    >>> seam_ranks("Flammenwerferangriff", "de")
    {7: 2, 13: 2, 15: 1}
    """
    return dict(_ranks(word, locale.split("_")[0]))


def syllable_breaks(word: str, locale: str) -> list[int]:
    """Syllable break indices of a word of letters, by the language's rules or dictionary."""
    lang = locale.split("_")[0]
    if lang == "fi":
        return finnish_breaks(word)
    dic = _dictionary(lang)
    if dic is None:
        return []
    return sorted(set(dic.positions(word)) | set(compound_seams(word, lang)))


def break_points(word: str, locale: str, syllables: bool = True) -> list[int]:
    """Break indices in ``word`` (which may contain soft hyphens; indices refer to
    the word *with* them, and a break at a soft hyphen removes it).  With
    ``syllables`` false, only soft and real hyphens."""
    points: set[int] = set()
    for i, ch in enumerate(word):
        if ch == SOFT_HYPHEN:
            points.add(i)
        elif ch in HYPHENS and 0 < i < len(word) - 1:
            points.add(i + 1)
    if syllables and has_syllables(locale):
        # compute on the word without soft hyphens and map indices back
        plain_to_orig = [i for i, ch in enumerate(word) if ch != SOFT_HYPHEN]
        plain = "".join(word[i] for i in plain_to_orig)
        for start, part in _letter_runs(plain):
            for b in syllable_breaks(part, locale):
                points.add(plain_to_orig[start + b])
    return sorted(p for p in points if 0 < p < len(word))


def seam_points(word: str, locale: str) -> dict[int, int]:
    """The break points of ``word`` that are compound seams, with their rank
    (:func:`seam_ranks`; higher ranks are tried first, all before syllables)."""
    plain_to_orig = [i for i, ch in enumerate(word) if ch != SOFT_HYPHEN]
    plain = "".join(word[i] for i in plain_to_orig)
    return {plain_to_orig[start + b]: r for start, part in _letter_runs(plain)
            for b, r in seam_ranks(part, locale).items()}


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
    if not head_clean.endswith(tuple(HYPHENS)):
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
