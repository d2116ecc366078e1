"""The CLI package (``cardkit/cli/``): game plugins mount their command groups through
the registry, whenever they are registered, and a plugin's command module can import
the CLI's shared pieces on its own (issue #22, point 8)."""

from __future__ import annotations

import subprocess
import sys

import typer

from cardkit.plugins import GamePlugin, register, unregister


def test_a_plugin_registered_after_the_cli_loaded_mounts_its_group(cli):
    group = typer.Typer(no_args_is_help=True, help="A toy game's own commands.")

    @group.command("hello")
    def hello(name: str = "table") -> None:
        """Greet."""
        typer.echo(f"hello {name}")

    import cardkit.cli  # noqa: F401  (loaded before the plugin exists)

    register(GamePlugin(name="toy-game-cli", commands=lambda: ("toygame", group)))
    try:
        done = cli("toygame", "hello", "--name", "seat 2")
        assert (done.code, done.out) == (0, "hello seat 2\n")
        listing = cli("--help")
        assert "toygame" in listing.out and "A toy game's own commands." in listing.out
        assert cli("toygame", "nosuch").code == 2  # a usage mistake inside the group, as for any group
    finally:
        unregister("toy-game-cli")


def test_a_plugin_command_module_imports_before_the_cli():
    """Deep Strike's command module reads ``cardkit.cli.common`` first: no import cycle."""
    done = subprocess.run([sys.executable, "-c", "import cardkit.games.deep_strike.commands as m; print(type(m.app).__name__)"],
                          capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (0, "Typer\n", "")


def test_the_command_listing_reads_each_docstring_as_one_paragraph(cli, monkeypatch):
    """``cardkit --help`` lists each command with its docstring reflowed, not broken
    where the source line ended (wide enough, each description is one line)."""
    from cardkit.cli import app
    from cardkit.cli.app import reflow

    monkeypatch.setenv("COLUMNS", "400")
    listing = cli("--help").out
    docs = [reflow(c.callback.__doc__) for c in app.registered_commands if c.callback is not None and c.callback.__doc__]
    assert len(docs) >= 6
    for doc in docs:
        assert "\n" not in doc and doc in listing, doc
    assert reflow("One\ntwo.\n\n\b\nkept\nas is") == "One two.\n\n\b\nkept\nas is"


def test_a_game_group_named_like_a_cardkit_command_is_not_mounted(cli):
    """A plugin cannot replace ``cardkit build``: its group is refused with a warning (P020)
    and the command stays cardkit's."""
    group = typer.Typer(help="A hijack.")

    @group.command("pdf")
    def pdf() -> None:
        typer.echo("not cardkit's build")

    register(GamePlugin(name="toy-game-clash", commands=lambda: ("build", group)))
    try:
        done = cli("build", "pdf", "--help")
        assert done.code == 0 and "Write one localized print-and-play PDF" in done.out
        assert ("cardkit: warning[P020]: game plugin 'toy-game-clash' names its command group 'build', which "
                "`cardkit build` already is: the group is not mounted\n") in done.err
    finally:
        unregister("toy-game-clash")
