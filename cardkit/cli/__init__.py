"""The ``cardkit`` command line: thin commands over the library.

This is the only package that prints or exits.  Every command takes ``--root``
(the project folder holding ``cards/`` and ``locales/``).  Errors cross one
boundary, :func:`main`, which turns a :class:`CardkitError` into one line per
problem on stderr and exit status 1.

One module per command group: :mod:`.app` holds the Typer application and
:func:`main`, :mod:`.common` the pieces the commands share; importing this
package registers every command; :func:`main` mounts each game plugin's own group
(:func:`cardkit.cli.app._mount_game_commands`).
"""

from __future__ import annotations

# importing a command module registers its commands; the order here is their order in ``cardkit --help``
from cardkit.cli import init, validate, playtest, sheets, preview, l10n, build, rules  # noqa: F401
from cardkit.cli.app import app, main
from cardkit.cli.common import Format, RootOpt, _clean_project, _load, _set_id
from cardkit.cli.validate import _face_issues

__all__ = ["Format", "RootOpt", "_clean_project", "_face_issues", "_load", "_set_id", "app", "main"]
