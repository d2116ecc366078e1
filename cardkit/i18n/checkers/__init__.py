"""Translation checks added as modules: each module of this package registers one check
(:func:`cardkit.i18n.registry.check`) and is found by :func:`cardkit.i18n.registry.checks`;
see ``docs/contributing.md``, "Adding a translation check".  The long-standing checks live in
:mod:`cardkit.i18n.checks` and :mod:`cardkit.i18n.meaning` and register the same way.
"""
