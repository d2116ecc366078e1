"""``cardkit playtest``: audit, sweep, ladder, verdict, impact and the report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from cardkit.cli.app import app
from cardkit.cli.common import SET_HELP, Format, RootOpt, _clean_project, _players, _Progress, _set_id, allow_out

if TYPE_CHECKING:
    from cardkit.playtest.records import Sequential


@app.command()
def playtest(root: RootOpt = Path("."),
             set_id: Annotated[Optional[str], typer.Option("--set", help=SET_HELP)] = None,
             players: Annotated[str, typer.Option("--players", help="e.g. 1-6 or 1,3,6")] = "1-6",
             games: Annotated[str, typer.Option("--games", help="seeds per setup (1 to 1,000,000), or auto: play in rounds until every verdict has settled; see docs/playtest.md")] = "200",
             precision: Annotated[Optional[float], typer.Option("--precision", help="with --games auto: also stop a figure once its interval is this many points either side (percentage points of a rate, score units)")] = None,
             max_games: Annotated[Optional[int], typer.Option("--max-games", help="with --games auto: seeds per figure at most (default 1600)")] = None,
             seed: Annotated[int, typer.Option("--seed")] = 1,
             agent: Annotated[Optional[list[str]], typer.Option("--agent", help="an agent name (repeatable; default: random and the game's heuristic); see the list in docs/playtest.md")] = None,
             jobs: Annotated[int, typer.Option("--jobs", min=0, max=64, help="worker processes (0: one per usable core)")] = 0,
             backend: Annotated[str, typer.Option("--backend", help="local or dask")] = "local",
             scheduler: Annotated[Optional[str], typer.Option("--scheduler", help="dask scheduler address (default: a local cluster)")] = None,
             compare: Annotated[Optional[Path], typer.Option("--compare", help="another project folder: same seeds, win-rate difference")] = None,
             band: Annotated[Optional[str], typer.Option("--band", help="the strongest agent's win rate must lie inside (lo, hi), or its mean score in a scored game (score units; default: 3 % to 80 % of the declared range); see docs/playtest.md")] = None,
             certify_every: Annotated[int, typer.Option("--certify-every", help="check invariants after every step in one batch of N")] = 4,
             impact: Annotated[bool, typer.Option("--impact", help="also play every seed once per ability card with its ability switched off: what each card is worth")] = False,
             report: Annotated[Optional[Path], typer.Option("--report", help="also write a PDF report (charts) here", callback=allow_out)] = None,
             locale: Annotated[str, typer.Option("--locale", help="language of the PDF report")] = "en",
             format: Annotated[Format, typer.Option("--format")] = Format.text) -> None:
    """Audit every setup, play seeded games per player count and agent, and
    judge whether the card set yields playable, complete games."""
    from cardkit.playtest import tables
    from cardkit.playtest.ladder import ladder_table, score_rounds_table
    from cardkit.playtest.report import table
    from cardkit.playtest.session import PlaytestRequest, parse_games, run

    project = _clean_project(root)
    request = PlaytestRequest(root, _set_id(project, set_id), tuple(_players(players)), tuple(agent or ()),
                              parse_games(games), precision, max_games, seed, jobs, backend, scheduler, compare,
                              band, impact, certify_every, report, locale)
    with _Progress("playtest", 1, "games", enabled=format is Format.text) as bar:
        done = run(request, progress=lambda n, total: bar.update(n, total=total), project=project,
                   warn=lambda text: typer.echo(text, err=True))
    result = done.result
    summary = result.summary
    if format is Format.json:
        typer.echo(json.dumps(result.to_json(), indent=2))
    else:
        typer.echo(table(summary))
        typer.echo(ladder_table(summary.ladder, result.reference))
        if rounds_view := score_rounds_table(summary.setups):
            typer.echo(rounds_view)
        typed = done.tables
        if typed.seats:
            typer.echo(tables.seat_text(typed.seats, done.seats))
        if typed.matchups:
            typer.echo(tables.matchup_text(typed.matchups))
        if typed.metrics:
            typer.echo(tables.metric_text(typed.declared, typed.metrics))
        if result.impact is not None:
            from cardkit.playtest.impact import impact_table, team_table

            typer.echo(impact_table(result.impact))
            typer.echo(team_table(result.teams or ()))
        for c in result.compare or ():
            typer.echo(f"compare {c.players}p {c.agent}: {c.win_rate_a:.1%} -> {c.win_rate_b:.1%} "
                       f"({c.difference:+.1%}, 95% CI [{c.difference_ci95.lo:+.1%}, {c.difference_ci95.hi:+.1%}])")
        if result.sequential is not None:
            typer.echo(_sequential_text(result.sequential))
        typer.echo(f"elapsed {result.elapsed_s} s; rules engine {result.engine}")
    if any(s.verdict != "playable" for s in summary.setups):
        raise typer.Exit(1)


def _sequential_text(seq: Sequential) -> str:
    """How a ``--games auto`` run played, and that its intervals are the anytime-valid ones."""
    from cardkit.playtest.records import ANYTIME

    growth = "doubling" if seq.step is None else f"{seq.step} more a round"
    lines = [f"--games auto: {seq.games:,} games in {seq.rounds} rounds (first {seq.first_round} seeds per "
             f"figure, {growth}, at most {seq.max_games:,}"
             + (f", {seq.impact_max:,} per impact pair" if seq.impact_max is not None else "")
             + (f", precision {seq.precision:g} points" if seq.precision is not None else "") + ")",
             f"intervals{'' if seq.impact_z is None else ' (setups, skill gaps, matchups)'}: {ANYTIME}"]
    if seq.impact_z is not None and seq.impact_max is not None and seq.impact_max <= seq.first_round:
        lines.append(f"impact pairs: one look, at their maximum of {seq.impact_max} seeds: the fixed-count 95 % "
                     f"interval (z {seq.impact_z[1]:.2f})")
    elif seq.impact_z is not None:
        lines.append("impact pairs: repeated 95 % confidence intervals of a group-sequential design (Haybittle-Peto "
                     f"boundaries, Bonferroni over the looks): the fixed-count interval with z {seq.impact_z[0]:.2f} at "
                     f"every look before the pair's maximum and z {seq.impact_z[1]:.2f} at it, valid whichever look "
                     "the pair stopped at")
    for u in seq.units:
        what = f"{u.what} {u.players}p {u.agent}" + (f" {u.card}" if u.card else "")
        lines.append(f"  {what}: {u.games} seeds, [{u.interval.lo:g}, {u.interval.hi:g}], {u.stopped}")
    return "\n".join(lines)
