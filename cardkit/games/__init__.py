"""The game plugins bundled with cardkit, on the top floor: ``death_angel`` and
``deep_strike``, each a package shaped like an outside plugin (the Tidelights engine,
``examples/tidelights/engine``): its ``plugin.py`` holds the :class:`~cardkit.plugins.GamePlugin`
registered under the entry point group ``cardkit.games`` (``pyproject.toml``).

The registry itself (``GamePlugin``, ``plugin_for``, ``engine_for``, ``register``) is
:mod:`cardkit.plugins`, a ground-floor service; nothing below this package imports it.
"""
