"""The Typer application and its command groups, the game plugins' command groups
mounted through the registry, and :func:`main`, the single exception boundary."""

from __future__ import annotations

import inspect
import os
import sys

import typer

from cardkit.errors import CardkitError, Issue, Severity, neutral
from cardkit.cli.common import _echo_issues

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Card data, localization and print-and-play toolkit.")
l10n_app = typer.Typer(no_args_is_help=True, help="Extract, update and check translation catalogs.")
app.add_typer(l10n_app, name="l10n")
build_app = typer.Typer(help="Build print-and-play output (with no subcommand: every set and locale as A4 PDFs).",
                        invoke_without_command=True)
app.add_typer(build_app, name="build")
rules_app = typer.Typer(no_args_is_help=True, help="A game's rules engine: rule scenarios, a narrated game.")
app.add_typer(rules_app, name="rules")


_MOUNTED: set[str] = set()  # the game plugins whose command groups are on ``app``


def _command_names(group: typer.Typer) -> set[str]:
    """The names ``group`` answers to: its commands' and its subgroups'."""
    names = {c.name or (c.callback.__name__.lower().replace("_", "-") if c.callback else "")
             for c in group.registered_commands}
    return names | {g.name or "" for g in group.registered_groups}


def _mount_game_commands() -> None:
    """Each game plugin's own command group (``cardkit <name> ...``), through the registry;
    :func:`main` calls it before every run, so a plugin registered in-process since is
    mounted too, and a plugin's command module may import :mod:`cardkit.cli.common`.
    A group named like a cardkit command (or an earlier game's group) is not mounted,
    with a warning (P020): a plugin never replaces a command."""
    from cardkit.plugins import plugins

    for game, plugin in sorted(plugins().items()):
        if plugin.commands is not None and game not in _MOUNTED:
            _MOUNTED.add(game)
            name, group = plugin.commands()
            if not isinstance(group, typer.Typer):
                continue
            if name in _command_names(app):
                typer.echo(Issue("P020", f"game plugin '{game}' names its command group '{name}', which "
                                         f"`cardkit {name}` already is: the group is not mounted",
                                 severity=Severity.WARNING).format(), err=True)
                continue
            app.add_typer(group, name=name)


def reflow(text: str) -> str:
    """A docstring as help text: each paragraph on one line (the help wraps it to the
    terminal), paragraphs kept apart, a paragraph marked ``\\b`` (click's "do not
    rewrap") kept as written."""
    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(p if p.startswith("\b") else " ".join(p.split("\n")) for p in paragraphs)


def _reflow_help(group: typer.Typer) -> None:
    """Every command's help in ``group`` and its subgroups, from its docstring, reflowed:
    Typer's command listing (``cardkit --help``) otherwise keeps a docstring's line breaks
    and the listing wraps raggedly.  Help given as ``help=`` is taken as written."""
    for command in group.registered_commands:
        if command.help is None and command.callback is not None and command.callback.__doc__:
            command.help = reflow(command.callback.__doc__)
    for sub in group.registered_groups:
        if sub.typer_instance is not None:
            _reflow_help(sub.typer_instance)


def main() -> None:
    """Console entry point and the single exception boundary: a usage mistake
    prints the usage message (exit 2), a cardkit error its located lines (exit
    1), an interrupt exits 130; no traceback unless ``CARDKIT_DEBUG=1``."""
    from cardkit.fsutil import write_scope

    try:
        _mount_game_commands()
        _reflow_help(app)
        with write_scope():  # a command writes only under --root and the --out it was given (F006)
            code = app(standalone_mode=False)  # a command's typer.Exit comes back as its code
        if code == 130:  # Typer's word for Ctrl-C
            typer.echo("interrupted", err=True)
        sys.exit(code if isinstance(code, int) else 0)
    except CardkitError as exc:
        _echo_issues(exc.issues)
        sys.exit(1)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except (typer.Abort, KeyboardInterrupt):  # Ctrl-C outside Typer's own handling
        typer.echo("interrupted", err=True)
        sys.exit(130)
    except Exception as exc:
        if hasattr(exc, "show") and isinstance(getattr(exc, "exit_code", None), int):
            # a usage error of the command-line parser (Typer's own click): bad
            # option value, unknown command, missing argument
            exc.show()  # type: ignore[attr-defined]
            sys.exit(exc.exit_code)  # type: ignore[attr-defined]
        if os.environ.get("CARDKIT_DEBUG", "") not in ("", "0"):
            raise
        if isinstance(exc, OSError):  # the machine refused: a full disk, a folder that cannot be written
            where = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
            typer.echo(Issue("F003", f"{where}{exc.strerror or exc}").format(), err=True)
            sys.exit(1)
        typer.echo(neutral(f"internal error: {type(exc).__name__}: {exc} (set CARDKIT_DEBUG=1 for a traceback)"), err=True)
        sys.exit(70)
