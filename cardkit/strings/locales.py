"""Facts about locales and catalog files that every reader of strings shares: the
pseudo-locale's code, the locale Babel is given for a code, and the largest catalog
file cardkit reads.  The string lookup (:mod:`cardkit.strings.localize`), the printer
and the catalog tools (:mod:`cardkit.i18n.catalogs`) read them from here.

>>> babel_locale(PSEUDO), babel_locale("fi")
('en', 'fi')
"""

from __future__ import annotations

import re

from cardkit.errors import Issue

#: the largest catalog file (``.po``) cardkit reads (L001 above it)
MAX_PO_BYTES = 4 << 20

#: the pseudo-locale of `cardkit l10n pseudo` (ICU's qps-ploc): English rules wherever Babel is asked
PSEUDO = "qps"


def babel_locale(locale: str) -> str:
    """The locale Babel is given for ``locale`` (English for the pseudo-locale)."""
    return "en" if locale == PSEUDO else locale


LONG_FACTOR, LONG_FLOOR = 20, 10_000  # a translation longer than both (x its English, characters) is refused unread


def length_issue(context: str | None, msgid: object, strings: object, file: str, line: int) -> Issue | None:
    """L011 when a translation is far over any length a card could print:
    longer than :data:`LONG_FACTOR` times its English and than
    :data:`LONG_FLOOR` characters.  Refused when a catalog is read (here, and by
    the Localizer that prints), so neither the checks nor a layout ever see it
    (#29: a 4 MB msgstr kept ``l10n check`` busy past a minute, a 2 MB one a
    build 56 s); a string merely too long for its box is the fit check's T950.

    >>> length_issue("a.text", "Go", "x" * 10_001, "fi.po", 7).format()[:60]
    "fi.po:7:1: error[L011]: translation of 'a.text' is 10,001 ch"
    >>> length_issue("a.text", "Go", ("x" * 9_000, "y"), "fi.po", 7) is None
    True
    """
    ids = msgid if isinstance(msgid, (tuple, list)) else (msgid,)
    forms = strings if isinstance(strings, (tuple, list)) else (strings,)
    english = max((len(i) for i in ids if isinstance(i, str)), default=0)
    longest = max((len(f) for f in forms if isinstance(f, str)), default=0)
    if longest <= max(LONG_FACTOR * english, LONG_FLOOR):
        return None
    name = context or (ids[0][:40] if ids and isinstance(ids[0], str) else "")
    return Issue("L011", f"translation of {name!r} is {longest:,} characters, more than {LONG_FACTOR} times its "
                         f"English ({english:,}) and {LONG_FLOOR:,}: refused before any check or layout",
                 file=file, line=line, column=1)


def charset_issues(headers: list[tuple[str, str]], text: str, file: str, line: int) -> list[Issue]:
    """L001 when the catalog's ``Content-Type`` declares a charset its bytes are not
    in: cardkit reads catalogs as UTF-8 (bytes that are not are refused before),
    so a catalog declaring ISO-8859-1 or ASCII over non-ASCII UTF-8 text is one a
    PO editor or gettext would read differently (``ä`` as ``Ã¤``).  ``CHARSET``
    (a template's placeholder) and any name for UTF-8 pass; so does any charset
    over pure ASCII text, which reads the same in all of them.

    >>> [i.message[:60] for i in charset_issues([("Content-Type", "text/plain; charset=ISO-8859-1")], "ä", "x.po", 3)]
    ["catalog declares charset 'ISO-8859-1' but its text is UTF-8 "]
    """
    import codecs

    content_type = next((v for k, v in reversed(headers) if k.lower() == "content-type"), "")
    m = re.search(r"charset\s*=\s*([^\s;]+)", content_type, re.IGNORECASE)
    if m is None or m.group(1).upper() == "CHARSET" or text.isascii():
        return []
    declared = m.group(1)
    try:
        name = codecs.lookup(declared).name
    except LookupError:
        name = ""
    if name == "utf-8":
        return []
    first = next(n for n, ln in enumerate(text.split("\n"), 1) if not ln.isascii())
    return [Issue("L001", f"catalog declares charset '{declared[:40]}' but its text is UTF-8 (the first non-ASCII "
                          f"character on line {first}): a PO editor would read it as other letters; declare "
                          "charset=UTF-8", file=file, line=line or 1, column=1)]


def bytes_issues(raw: bytes, file: str) -> list[Issue]:
    """L001 for a catalog's bytes read by another reader (the Localizer's, Babel's
    ``read_po``, which decodes by the declared charset): bytes that are not
    UTF-8, or a declared charset they are not in (:func:`charset_issues`)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        return [Issue("L001", "catalog is not valid UTF-8", file=file, line=line, column=1)]
    m = re.search(r'^"Content-Type:([^"\n]*)', text[:8192], re.MULTILINE)
    line = text[: m.start()].count("\n") + 1 if m else 1
    return charset_issues([("Content-Type", m.group(1).replace("\\n", ""))], text, file, line) if m else []
