"""``cardkit rules ...``: a game's rule scenarios, a narrated game and the engine conformance suite."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from cardkit.errors import CardkitError, Issue
from cardkit.cli.app import rules_app
from cardkit.cli.common import SET_HELP, RootOpt, _clean_project, _player_count, _players, _set_id


@rules_app.command("scenario")
def rules_scenario(files: Annotated[list[Path], typer.Argument(help="rule scenario files or folders")],
                   root: RootOpt = Path("."),
                   set_id: Annotated[Optional[str], typer.Option("--set", help=SET_HELP)] = None) -> None:
    """Run rule scenarios: set up an exact situation, play the script with forced
    dice, and compare the result; a readable diff for every mismatch."""
    from cardkit.plugins import engine_for
    from cardkit.rules.protocol import Scenarios

    project = _clean_project(root)
    card_set = project.card_set(_set_id(project, set_id))
    engine = engine_for(card_set.game, "rules scenario")
    if not isinstance(engine, Scenarios):
        raise CardkitError(f"the rules engine of game '{card_set.game}' has no rule scenarios", code="G010")
    paths: list[Path] = []
    for f in files:
        paths.extend(sorted(f.rglob("*.yaml")) if f.is_dir() else [f])
    if not paths:
        raise CardkitError("no scenario files given", code="R004")
    text, problems, passed = engine.run_scenarios(card_set, paths)
    typer.echo(text)
    if problems:
        raise CardkitError([p for p in problems if isinstance(p, Issue)])
    if not passed:
        raise typer.Exit(1)


@rules_app.command("play")
def rules_play(root: RootOpt = Path("."),
               set_id: Annotated[Optional[str], typer.Option("--set", help=SET_HELP)] = None,
               players: Annotated[int, typer.Option("--players", min=1, max=64)] = 1,
               seed: Annotated[int, typer.Option("--seed")] = 1,
               agent: Annotated[str, typer.Option("--agent", help="an agent of the game (random, heuristic, ...)")] = "heuristic",
               locale: Annotated[str, typer.Option("--locale")] = "en") -> None:
    """Play one game and tell it as a story in the chosen language (a game without
    narration: its decisions and its result)."""
    from cardkit.plugins import engine_for
    from cardkit.strings.localize import Localizer
    from cardkit.playtest.agents import agents_for
    from cardkit.rules.protocol import Narrated

    project = _clean_project(root)
    card_set = project.card_set(_set_id(project, set_id))
    engine = engine_for(card_set.game, "rules play")
    agents = agents_for(engine, card_set, [agent])
    if agent not in agents:
        from cardkit.rules.agents import parse_agent

        parse_agent(agent, engine, card_set)  # raises: G002 an unknown name, G031 a bad budget
    _player_count(engine, card_set, [players])
    loc = Localizer(root, locale, card_set)
    st = engine.new_game(card_set, players).new_state(seed)
    choose = agents[agent](seed)
    decisions = []
    while (d := st.decision) is not None:
        opt = choose(st, d)
        decisions.append(f"{d.player}: {d.kind} {opt.text()}")
        st.apply(opt)
    if isinstance(engine, Narrated):
        for line in engine.narrate(st, loc, players, seed):
            typer.echo(line)
    else:
        for line in decisions:
            typer.echo(line)
        r = st.result()
        if r is not None:
            typer.echo(f"{r.end.value} ({r.reason}) after {r.rounds} rounds: "
                       + ", ".join(f"seat {i + 1} {s.result.value} {s.score:g}" for i, s in enumerate(r.seats)))


@rules_app.command("conformance")
def rules_conformance(root: RootOpt = Path("."),
                      set_id: Annotated[Optional[str], typer.Option("--set", help=SET_HELP)] = None,
                      players: Annotated[Optional[str], typer.Option("--players", help="e.g. 1-4 or 2,3 (default: the engine's range)")] = None,
                      games: Annotated[int, typer.Option("--games", min=1, max=100_000, help="games per player count")] = 20,
                      seed: Annotated[int, typer.Option("--seed")] = 1,
                      agents: Annotated[bool, typer.Option("--agents/--no-agents", help="also check that every agent decides alike whatever its seat cannot see")] = True) -> None:
    """Check that the set's rules engine keeps the engine protocol: play seeded
    random games and test clones, text forms, determinism, outcomes, chance and
    determinizations, then that no agent reads hidden cards (docs/engines.md);
    one line per finding, exit 1 on any."""
    from cardkit.plugins import engine_for
    from cardkit.rules.conformance import run, summary

    project = _clean_project(root)
    card_set = project.card_set(_set_id(project, set_id))
    engine = engine_for(card_set.game, "rules conformance")
    result = run(engine, card_set, _players(players) if players else None, games, seed, agents=agents)
    for issue in result.issues:
        typer.echo(issue.format(), err=True)
    typer.echo(summary(result, card_set.game))
    if result.findings:
        raise typer.Exit(1)
