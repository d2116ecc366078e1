"""``cardkit export`` and ``cardkit import``: a set's cards as a spreadsheet and back."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

from cardkit.errors import CardkitError, Issue, Severity
from cardkit.cli.app import app
from cardkit.cli.common import SET_HELP, RootOpt, _echo_issues, _load, _set_id, allow_out


class SheetFormatOpt(str, Enum):
    xlsx = "xlsx"
    ods = "ods"
    csv = "csv"


def _loaded_set(root: Path, set_id: str | None):  # -> LoadedSet
    """A set whose files all load without error (warnings are fine)."""
    project = _load(root)
    errors = [i for i in project.issues if i.severity is Severity.ERROR]
    if errors:
        raise CardkitError(errors)
    sid = _set_id(project, set_id)
    project.card_set(sid)  # P002 for an unknown set
    return project.sets[sid]


@app.command("export")
def export_cmd(out: Annotated[Path, typer.Option("--out", help="the workbook to write (csv: a folder of <file_kind>.csv files)", callback=allow_out)],
               format: Annotated[SheetFormatOpt, typer.Option("--format", help="xlsx, ods or csv")] = SheetFormatOpt.xlsx,
               set_id: Annotated[Optional[str], typer.Option("--set", help=SET_HELP)] = None,
               root: RootOpt = Path(".")) -> None:
    """Write a set's cards as a spreadsheet: a sheet per kind, a row per card,
    a column per field (docs/authoring.md, "Cards in a spreadsheet").  It reads
    back to the same cards; the same cards give the same bytes."""
    from cardkit.sheetio import SheetFormat, export_set

    loaded = _loaded_set(root, set_id)
    written = export_set(loaded, SheetFormat(format.value), out)
    rows, physical = len(loaded.set.cards), loaded.set.physical_count()
    typer.echo(f"wrote {', '.join(str(p) for p in written)} ({rows} cards"
               + (f", {physical} with their copies, as validate counts them)" if physical != rows else ")"))


@app.command("import")
def import_cmd(file: Annotated[Path, typer.Argument(help="a .xlsx, .ods or .csv file of cards, or a folder of .csv files "
                                                         "(what cardkit export wrote)")],
               set_id: Annotated[Optional[str], typer.Option("--set", help=SET_HELP)] = None,
               prune: Annotated[bool, typer.Option("--prune", help="remove the cards and fields the sheet no longer has")] = False,
               force: Annotated[bool, typer.Option("--force", help="drop the comments inside cards that changed")] = False,
               root: RootOpt = Path(".")) -> None:
    """Write a spreadsheet's cards into the set's YAML files, all checked first:
    unchanged cards keep their lines and comments, removals need --prune, a
    changed card's comments --force; catalog references are refreshed."""
    from cardkit.load.sheets import is_sheet
    from cardkit.sheetio import import_sheet

    if not file.is_dir() and not is_sheet(file.name):
        raise CardkitError(Issue("W001", "not a spreadsheet: import reads .xlsx, .ods and .csv files, or a folder of "
                                         ".csv files", file=str(file)))
    project = _load(root)
    sid = _set_id(project, set_id)
    project.card_set(sid)
    loaded = project.sets[sid]
    if loaded.kinds is None:
        raise CardkitError([i for i in project.issues if i.severity is Severity.ERROR])
    result = import_sheet(root, loaded, file, prune=prune, force=force)
    _echo_issues(result.warnings)
    for note in result.notes:
        typer.echo(note)
    for item in result.written:
        typer.echo(f"wrote {item.path} ({item.what})")
    if result.written:
        _refresh_catalogs(root)


def _refresh_catalogs(root: Path) -> None:
    """After an import changed card files, bring the catalogs' ``#:`` references
    (and anything else an update would change) up to date, through the same
    path as ``cardkit l10n update``; a project without catalogs gets none."""
    from cardkit.i18n.budget import translation_domains
    from cardkit.i18n.catalogs import plan_update, pot_path, project_locales, write_plans

    project = _load(root)
    if any(i.severity is Severity.ERROR for i in project.issues):
        typer.echo("catalogs not updated: the project has errors (run cardkit validate, then cardkit l10n update)")
        return
    locales = project_locales(root)
    for domain, strings, budgets in translation_domains(project):
        if not pot_path(root, domain).exists():
            continue
        plans = plan_update(root, domain, strings, locales, budgets)
        by_path = {p.path: p for p in plans}
        for path in write_plans(plans):
            typer.echo(f"updated {path.relative_to(root)}: {by_path[path].summary()}")
