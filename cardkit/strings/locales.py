"""Facts about locales and catalog files that every reader of strings shares: the
pseudo-locale's code, the locale Babel is given for a code, and the largest catalog
file cardkit reads.  The string lookup (:mod:`cardkit.strings.localize`), the printer
and the catalog tools (:mod:`cardkit.i18n.catalogs`) read them from here.

>>> babel_locale(PSEUDO), babel_locale("fi")
('en', 'fi')
"""

from __future__ import annotations

#: the largest catalog file (``.po``) cardkit reads (L001 above it)
MAX_PO_BYTES = 4 << 20

#: the pseudo-locale of `cardkit l10n pseudo` (ICU's qps-ploc): English rules wherever Babel is asked
PSEUDO = "qps"


def babel_locale(locale: str) -> str:
    """The locale Babel is given for ``locale`` (English for the pseudo-locale)."""
    return "en" if locale == PSEUDO else locale
