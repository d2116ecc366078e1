"""Shared pieces of the commands: the ``--root`` option, the output format, issue
printing, the progress bar and loading the project."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from cardkit.errors import CardkitError, Issue, sort_issues


def allow_writes(ctx: typer.Context, path: Path | None) -> Path | None:
    """``--root``'s callback: the command may write under this project folder,
    and nowhere else but an ``--out`` it was given (:func:`allow_out`; F006,
    :mod:`cardkit.fsutil`).  A group's own options (``cardkit build``'s, whose
    default ``--root .`` would stand beside ``build png --root X``) allow
    nothing: a group that works itself allows its root in its body."""
    if path is not None and not hasattr(ctx.command, "list_commands"):  # (a group lists its commands)
        from cardkit.fsutil import allow_writes as allow

        allow(path)
    return path


def allow_out(path: Path | None) -> Path | None:
    """An ``--out`` option's callback: the command may write the file or folder the user named."""
    if path is not None:
        from cardkit.fsutil import allow_writes as allow

        allow(path, out=True)
    return path


RootOpt = Annotated[Path, typer.Option("--root", help="Project folder holding cards/ and locales/.",
                                       file_okay=False, show_default="current directory", callback=allow_writes)]


class Format(str, Enum):
    text = "text"
    json = "json"


def _echo_issues(issues: list[Issue]) -> None:
    for issue in sort_issues(issues):
        typer.echo(issue.format(), err=True)


class _Progress:
    """A rich progress bar on stderr while a long job runs on a terminal; nothing
    at all when stderr is piped or the output is JSON.  ``update(done)`` moves it."""

    def __init__(self, label: str, total: int, unit: str, enabled: bool) -> None:
        self.label, self.total, self.unit = label, total, unit
        self.enabled = enabled and total > 0 and sys.stderr.isatty()
        self._bar: object = None

    def __enter__(self) -> "_Progress":
        if self.enabled:
            from rich.console import Console
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn,
                                       TimeRemainingColumn)
            from rich.text import Text

            unit = self.unit

            class Rate(ProgressColumn):  # "1,234 games/s"
                def render(self, task):  # type: ignore[no-untyped-def]
                    return Text(f"{task.speed:,.0f} {unit}/s" if task.speed else f"- {unit}/s")

            # drawn from this thread at each update, never by a refresh thread of its own: a job's
            # workers are forked only from a process with one thread (cardkit.workers)
            bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), Rate(),
                           TextColumn("left"), TimeRemainingColumn(), console=Console(stderr=True), transient=True,
                           auto_refresh=False)
            bar.start()
            self._task = bar.add_task(self.label, total=self.total)
            self._bar = bar
        return self

    def update(self, done: int, label: str | None = None, total: int | None = None) -> None:
        if total is not None:
            self.total = total
        if self._bar is not None:
            extra: dict[str, object] = {"description": label} if label else {}
            if total is not None:
                extra["total"] = total
            self._bar.update(self._task, completed=done, refresh=True, **extra)  # type: ignore[attr-defined]

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()  # type: ignore[attr-defined]


def _load(root: Path):  # -> Project
    from cardkit.load.project import load_project

    if not root.is_dir():
        raise CardkitError(f"--root {root} is not a folder", code="P001")
    return load_project(root)


SET_HELP = "card set id (default: the project's only set; with several, the first by id)"


def _set_id(project, set_id: str | None) -> str:  # (Project)
    """The set a command works on: the one named, else the project's only set
    (a starter from ``cardkit init``), else the first by id."""
    if set_id is not None:
        return set_id
    return min(project.sets) if project.sets else ""


def clean_project(root: Path):  # -> Project
    """The project at ``--root``, loaded, or every problem it has as one error (a folder that is
    not one: P001).  Public for the command groups of game plugins (a plugin's ``commands`` hook)."""
    project = _load(root)
    if project.issues:
        raise CardkitError(project.issues)
    return project


_clean_project = clean_project  # the name the CLI's own modules use


def _player_count(engine, card_set, counts: list[int]) -> None:  # (Engine, CardSet)
    """Every player count inside the game's declared range (G011)."""
    info = engine.info(card_set)
    bad = [n for n in counts if not info.min_players <= n <= info.max_players]
    if bad:
        raise CardkitError(f"--players {', '.join(map(str, bad[:3]))}: the game plays {info.min_players}-{info.max_players}",
                           code="G011")


def _players(spec: str) -> list[int]:
    try:
        if "-" in spec:
            a, b = spec.split("-", 1)
            out = list(range(int(a), int(b) + 1))
        else:
            out = [int(x) for x in spec.split(",")]
    except ValueError:
        raise CardkitError(f"--players {spec!r}: use a range such as 1-6 or a list such as 1,3,6", code="G001") from None
    if not out:
        raise CardkitError(f"--players {spec!r} names no player count", code="G001")
    return out
