"""``cardkit playtest``: audit, sweep, ladder, verdict, impact and the report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Iterable, Optional, Sequence

import typer

from cardkit._compiled import engine_build
from cardkit.errors import CardkitError, Issue
from cardkit.cli.app import app
from cardkit.cli.common import (SET_HELP, Format, RootOpt, _clean_project, _echo_issues, _player_count,
                                 _players, _Progress, _set_id, allow_out)


if TYPE_CHECKING:
    from cardkit.rules.protocol import EngineInfo


def _default_agents(agents: Iterable[str]) -> list[str]:
    """Random play and the game's own first agent (a heuristic when it has one), the two a verdict needs."""
    names = list(agents)
    own = next((a for a in ("heuristic", "mcts") if a in names), next((a for a in names if a != "random"), None))
    return [a for a in ("random", own) if a is not None and (a in names or a == "random")]


def _band(band: str | None, info: EngineInfo, declared: object = None) -> tuple[float, float]:
    """The verdict's band: ``--band``, else the set's ``playtest: {band: [low, high]}``, else the
    default: two rates for a game won or lost; for a scored game two scores inside its declared
    range, by default 3 % and 80 % of the way up it (the default band's rates)."""
    from cardkit.playtest.ladder import DEFAULT_BAND
    from cardkit.rules.protocol import Outcome

    scored = info.outcome is Outcome.SCORED
    source = "--band"
    if band is None and isinstance(declared, list) and len(declared) == 2:
        band = ",".join(f"{float(v)!r}" for v in declared)  # checked below like --band
        source = "set.yaml playtest.band"
    if band is None:
        if not scored:
            return DEFAULT_BAND
        if info.score_range is None:
            raise CardkitError(f"game '{info.game}' is scored but declares no score_range: give --band LOW,HIGH "
                               "in score units", code="G071")
        a, b = info.score_range
        return (round(a + DEFAULT_BAND[0] * (b - a), 4), round(a + DEFAULT_BAND[1] * (b - a), 4))
    try:
        lo, hi = (float(x) for x in band.split(","))
    except ValueError:
        what = "two scores such as 5,20" if scored else "two rates such as 0,1 or 0.2,0.8"
        raise CardkitError(f"{source} {band!r}: use {what}", code="G004") from None
    if scored:
        a, b = info.score_range or (-float("inf"), float("inf"))
        if not a <= lo < hi <= b:
            raise CardkitError(f"{source} {band!r}: use two scores with {a:g} <= low < high <= {b:g} "
                               "(the game's score range)", code="G004")
    elif not 0 <= lo < hi <= 1:
        raise CardkitError(f"{source} {band!r}: use two rates with 0 <= low < high <= 1", code="G004")
    return lo, hi


LARGE_SWEEP = 20_000  # games: from here on the compiled engine saves a user real minutes


def _compiled_engine() -> bool:
    return engine_build().startswith("compiled")


@app.command()
def playtest(root: RootOpt = Path("."),
             set_id: Annotated[Optional[str], typer.Option("--set", help=SET_HELP)] = None,
             players: Annotated[str, typer.Option("--players", help="e.g. 1-6 or 1,3,6")] = "1-6",
             games: Annotated[int, typer.Option("--games", min=1, max=1_000_000)] = 200,
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
    import time
    from dataclasses import replace

    from cardkit.plugins import engine_for
    from cardkit.playtest.agents import agents_for, ceilings
    from cardkit.playtest import tables
    from cardkit.playtest.ladder import ladder_table, score_rounds_table
    from cardkit.playtest.records import PlaytestResult
    from cardkit.playtest.report import compare as compare_runs, table
    from cardkit.playtest.sweep import BACKENDS, Batch, Variant, plan, plan_matchups, run_sweep, summarize
    from cardkit.rules.protocol import Audited, Cooperation, Referenced

    started = time.perf_counter()
    project = _clean_project(root)
    set_id = _set_id(project, set_id)
    card_set = project.card_set(set_id)
    engine = engine_for(card_set.game, "playtest")
    AGENTS = agents_for(engine, card_set, agent or ["random", "mcts"])  # the generic ones named, or the defaults
    counts = _players(players)
    agents = list(dict.fromkeys(agent or _default_agents(AGENTS)))
    unknown = [a for a in agents if a not in AGENTS]
    if unknown:
        from cardkit.rules.agents import parse_agents

        parse_agents(unknown, engine, card_set)  # raises: G002 an unknown name, G031 a bad budget, a line each
    _player_count(engine, card_set, counts)
    if backend not in BACKENDS:
        raise CardkitError(f"unknown --backend '{backend}' (local or dask)", code="G003")
    info = engine.info(card_set)
    lo, hi = _band(band, info, (card_set.manifest.get("playtest") or {}).get("band"))
    if compare is not None:  # checked before the first sweep, not minutes later
        if not compare.is_dir():
            raise CardkitError(f"--compare {compare} is not a folder", code="G005")
        _clean_project(compare).card_set(set_id)
    report_loc = None
    if report is not None:  # an unknown locale fails now, not after the sweep
        from cardkit.strings.localize import Localizer

        report_loc = Localizer(root, locale, card_set)
    if isinstance(engine, Audited):
        problems = [p for p in engine.audit(card_set, counts) if isinstance(p, Issue)]
        if problems:
            _echo_issues(problems)
            raise typer.Exit(1)
    variants = (Variant("compare", str(compare.resolve())),) if compare is not None else ()
    if impact:
        from cardkit.playtest.impact import (impact_cards, impact_rows, impact_table, plan_impact, team_table,
                                             team_tables, unswitchable_note)

        ablatable, unablatable = impact_cards(engine, card_set, counts)
        judged = [a for a in agents if a != "random"] or agents  # random play wins too rarely to weigh a card
        batches: Sequence[Batch] = plan_impact(root.resolve(), set_id, counts, judged, games, seed, ablatable,
                                               certify_every)
        batches = [replace(b, variants=variants + b.variants) if b.count_base else b for b in batches]
        batches += plan(root.resolve(), set_id, counts, [a for a in agents if a not in judged], games, seed,
                        certify_every, variants)
    else:
        batches = plan(root.resolve(), set_id, counts, agents, games, seed, certify_every, variants)
    if info.cooperation is Cooperation.COMPETITIVE and len(agents) > 1:  # agents against each other, both seatings
        batches = list(batches) + plan_matchups(root.resolve(), set_id, counts, agents, games, seed, certify_every)
    games_total = sum((b.seeds[1] - b.seeds[0]) * (2 if b.matchup else 1) for b in batches)
    if games_total >= LARGE_SWEEP and not _compiled_engine():
        typer.echo(f"note: {games_total:,} games on the pure-Python engine; the compiled engine plays them about "
                   "5x faster: CARDKIT_COMPILE=1 pip install -e . (see README)", err=True)
    with _Progress("playtest", games_total, "games", enabled=format is Format.text) as bar:
        sweep = run_sweep(batches, jobs=jobs, backend=backend, scheduler=scheduler,
                          progress=lambda done, total: bar.update(done * games_total // total))
    summary = summarize(sweep, (lo, hi), engine.abilities(card_set, counts), ceilings(AGENTS))
    reference = dict(engine.reference(card_set, min(counts))) if isinstance(engine, Referenced) else {}
    result = PlaytestResult(set_id, seed, tuple(agents), summary, reference, (lo, hi),
                            compare=tuple(compare_runs(sweep)) if compare is not None else None,
                            impact=tuple(impact_rows(sweep, card_set, ablatable, unablatable,
                                                     unswitchable_note(engine))) if impact else None,
                            teams=tuple(team_tables(sweep)) if impact else None, engine=engine_build())
    if report is not None and report_loc is not None:
        from cardkit.playtest.pdfreport import write_report

        labels = {m.name: m.label for m in info.metrics if m.label}
        write_report(report, result, report_loc, report_loc.card("set.title"), games, labels,
                     tables.Tables.of(sweep, info, ceilings(AGENTS)))
    result = replace(result, elapsed_s=round(time.perf_counter() - started, 2))  # the engine build explains it
    if format is Format.json:
        typer.echo(json.dumps(result.to_json(), indent=2))
    else:
        typer.echo(table(summary))
        typer.echo(ladder_table(summary.ladder, reference))
        if rounds_view := score_rounds_table(summary.setups):
            typer.echo(rounds_view)
        typed = tables.Tables.of(sweep, info, ceilings(AGENTS))
        if typed.seats:
            typer.echo(tables.seat_text(typed.seats, info.seats))
        if typed.matchups:
            typer.echo(tables.matchup_text(typed.matchups))
        if typed.metrics:
            typer.echo(tables.metric_text(typed.declared, typed.metrics))
        if result.impact is not None:
            typer.echo(impact_table(result.impact))
            typer.echo(team_table(result.teams or ()))
        for c in result.compare or ():
            typer.echo(f"compare {c.players}p {c.agent}: {c.win_rate_a:.1%} -> {c.win_rate_b:.1%} "
                       f"({c.difference:+.1%}, 95% CI [{c.difference_ci95.lo:+.1%}, {c.difference_ci95.hi:+.1%}])")
        typer.echo(f"elapsed {result.elapsed_s} s; rules engine {result.engine}")
    if any(s.verdict != "playable" for s in summary.setups):
        raise typer.Exit(1)
