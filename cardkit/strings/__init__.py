"""The string lookup, a ground-floor service: what the loader, the layout, the printer,
the playtest report and the games read to word things in the reader's language.

- :mod:`cardkit.strings.localize`: card strings from a set's catalog, interface strings
  (the set's ``strings.yaml``, else cardkit's ``ui`` catalog), plural forms (``Localizer``).
- :mod:`cardkit.strings.korean`: Korean particles and native numbers.
- :mod:`cardkit.strings.locales`: the pseudo-locale, the locale Babel is given, the
  catalog size limit.

The translator's tools (catalogs, checks, the fit report, the review page) are
:mod:`cardkit.i18n`, a floor above the printer; nothing here imports them.
"""
