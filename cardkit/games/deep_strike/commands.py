"""Deep Strike's own commands, mounted by its plugin as ``cardkit deepstrike``:
``check`` (every scenario's rules, and both armies deploy) and ``score``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from cardkit.cli.common import Format, RootOpt, clean_project
from cardkit.errors import CardkitError, Severity

app = typer.Typer(no_args_is_help=True, help="Deep Strike scenarios: deployment feasibility and scoring.")


@app.command("check")
def ds_check(root: RootOpt = Path("."),
             set_id: Annotated[str, typer.Option("--set")] = "deep-strike",
             units: Annotated[int, typer.Option("--units", help="units per side", min=1, max=40)] = 8,
             radius: Annotated[float, typer.Option("--radius", help="unit footprint radius in inches", min=0.5, max=12)] = 2.5,
             width: Annotated[float | None, typer.Option("--width", help="table width in inches (default: the scenario's)", min=24, max=200)] = None,
             depth: Annotated[float | None, typer.Option("--depth", help="table depth in inches", min=24, max=200)] = None,
             format: Annotated[Format, typer.Option("--format")] = Format.text) -> None:
    """Check every scenario's rules and prove both armies can deploy."""
    from cardkit.games.deep_strike.check import check_set, render_check

    project = clean_project(root)
    results = check_set(project.card_set(set_id), units, radius, width, depth)
    if format is Format.json:
        typer.echo(json.dumps({"ok": not any(n.severity is Severity.ERROR for r in results for n in r.notes),
                               "units": units, "radius": radius, "scenarios": [r.to_json() for r in results]}, indent=2))
    else:
        typer.echo(render_check(results, radius, units))
    if any(n.severity is Severity.ERROR for r in results for n in r.notes):
        raise typer.Exit(1)


@app.command("score")
def ds_score(scenario: Annotated[str | None, typer.Argument(help="scenario id (default: the one named in the state file)")] = None,
             state: Annotated[Path, typer.Option("--state", help="end-of-game state (YAML)", dir_okay=False)] = Path("state.yaml"),
             root: RootOpt = Path("."),
             set_id: Annotated[str, typer.Option("--set")] = "deep-strike",
             locale: Annotated[str, typer.Option("--locale")] = "en",
             format: Annotated[Format, typer.Option("--format")] = Format.text) -> None:
    """Score a finished game: each side's points, with the reason for every line."""
    from cardkit.games.deep_strike.report import line_text, render_score
    from cardkit.games.deep_strike.score import load_state, score
    from cardkit.strings.localize import Localizer

    project = clean_project(root)
    card_set = project.card_set(set_id)
    rel = state.as_posix()
    doc, units = load_state(state, rel)
    if scenario is not None and scenario != doc.data["scenario"]:
        raise CardkitError(doc.issue("D404", f"the state is for '{doc.data['scenario']}', not '{scenario}'", ("scenario",)))
    result = score(card_set, doc, units)
    loc = Localizer(root, locale, card_set)
    if format is Format.json:
        typer.echo(json.dumps({"scenario": result.scenario, "totals": result.totals, "winner": result.winner,
                               "lines": [{"side": ln.side, "points": ln.points, "rule": ln.rule, "key": ln.key,
                                          "values": dict(ln.values), "text": line_text(loc, ln.key, dict(ln.values))}
                                         for ln in result.lines]}, ensure_ascii=False, indent=2))
    else:
        typer.echo(render_score(result, loc))
