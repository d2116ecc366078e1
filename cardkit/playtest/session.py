"""The playtest as one library call: :func:`run` of a :class:`PlaytestRequest`.

The CLI (``cardkit playtest``), the build summary and the benchmarks call it; each only parses its
options and shows the :class:`Playtest` it gets back.  The steps: the engine of the set's game
(:func:`cardkit.plugins.engine_for`, G032 for a plugin whose engine is not the protocol), the
agents, player counts, backend, band and ``--compare`` folder checked before any game is played,
the engine's own audit of the setups, then either a fixed sweep (``games`` seeds per setup) or a
sequential one (``games="auto"``, :mod:`cardkit.playtest.auto`), the summary and verdicts, the
optional card impact and comparison, and the optional PDF report.

>>> PlaytestRequest(Path("."), games="auto").sequential
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from cardkit.errors import CardkitError, Issue
from cardkit.playtest.records import PlaytestResult
from cardkit.playtest.tables import Tables

if TYPE_CHECKING:
    from cardkit.load.project import Project
    from cardkit.rules.protocol import EngineInfo

__all__ = ["LARGE_SWEEP", "Playtest", "PlaytestRequest", "Progress", "default_agents", "run", "verdict_band"]

#: ``progress(games done, games planned)``; in a sequential run the planned games grow round by round
Progress = Callable[[int, int], None]
LARGE_SWEEP = 20_000  # games: from here on the compiled engine saves a user real minutes
MAX_PRECISION = 50.0  # points: half of a rate's whole range


@dataclass(frozen=True)
class PlaytestRequest:
    """What to play.  ``games``: seeds per setup, or ``"auto"`` to play in rounds until every verdict
    has settled (``precision``: stop a figure once its interval is at most this many points either
    side, percentage points of a rate or score units; ``max_games``: seeds per figure at most).
    ``agents`` empty: random play and the game's own agent.  ``band``: the ``--band`` text, else the
    set's declared band, else the default.  ``report``: also write a PDF report there, in ``locale``."""

    root: Path
    set_id: str | None = None
    players: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
    agents: tuple[str, ...] = ()
    games: int | Literal["auto"] = 200
    precision: float | None = None
    max_games: int | None = None
    seed: int = 1
    jobs: int = 0
    backend: str = "local"
    scheduler: str | None = None
    compare: Path | None = None
    band: str | None = None
    impact: bool = False
    certify_every: int = 4
    report: Path | None = None
    locale: str = "en"

    @property
    def sequential(self) -> bool:
        return self.games == "auto"


@dataclass(frozen=True)
class Playtest:
    """What :func:`run` gives back: the report (:class:`PlaytestResult`, its JSON form), the typed
    tables the text and PDF reports draw, the seat names and the games played in all."""

    result: PlaytestResult
    tables: Tables
    seats: tuple[str, ...]
    games_played: int


def default_agents(agents: Iterable[str]) -> list[str]:
    """Random play and the game's own first agent (a heuristic when it has one), the two a verdict needs."""
    names = list(agents)
    own = next((a for a in ("heuristic", "mcts") if a in names), next((a for a in names if a != "random"), None))
    return [a for a in ("random", own) if a is not None and (a in names or a == "random")]


def verdict_band(band: str | None, info: EngineInfo, declared: object = None) -> tuple[float, float]:
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


def check_sequential(request: PlaytestRequest) -> None:
    """The sequential options: every problem at once, one coded line each (G080-G083)."""
    problems = []
    if request.games != "auto":
        if not isinstance(request.games, int) or isinstance(request.games, bool) or not 1 <= request.games <= 1_000_000:
            problems.append(Issue("G080", f"--games {request.games!r}: use a whole number from 1 to 1,000,000 or auto"))
        if request.precision is not None or request.max_games is not None:
            problems.append(Issue("G083", "--precision and --max-games only apply to --games auto"))
    if request.precision is not None and not 0 < request.precision <= MAX_PRECISION:
        problems.append(Issue("G081", f"--precision {request.precision!r}: use points of the figure above 0 and at "
                                      f"most {MAX_PRECISION:g} (e.g. 5: within 5 percentage points of a rate)"))
    if request.max_games is not None and not 1 <= request.max_games <= 1_000_000:
        problems.append(Issue("G080", f"--max-games {request.max_games!r}: use a whole number from 1 to 1,000,000"))
    if request.sequential and request.compare is not None:
        problems.append(Issue("G083", "--compare with --games auto: the comparison is a fixed-count one; give "
                                      "--games N"))
    if problems:
        raise CardkitError(problems)


def parse_games(text: str) -> int | Literal["auto"]:
    """``--games``: a whole number from 1 to 1,000,000, or ``auto`` (G080).

    >>> parse_games("auto"), parse_games("300")
    ('auto', 300)
    """
    if text.strip().lower() == "auto":
        return "auto"
    try:
        n = int(text)
    except ValueError:
        raise CardkitError(f"--games {text!r}: use a whole number from 1 to 1,000,000 or auto", code="G080") from None
    if not 1 <= n <= 1_000_000:
        raise CardkitError(f"--games {text!r}: use a whole number from 1 to 1,000,000 or auto", code="G080")
    return n


def run(request: PlaytestRequest, progress: Progress | None = None, project: Project | None = None,
        warn: Callable[[str], None] | None = None) -> Playtest:
    """Play what ``request`` asks and judge it (see the module's text).  Raises :class:`CardkitError`
    (coded lines) for bad options before any game is played, and for setups the engine's audit
    refuses.  ``project``: the project at ``request.root`` when the caller has loaded it already;
    ``warn``: told a note before a long sweep starts (a large sweep on the pure-Python engine)."""
    from cardkit._compiled import engine_build
    from cardkit.playtest.agents import agent_costs, agents_for, ceilings
    from cardkit.playtest.report import compare as compare_runs
    from cardkit.playtest.sweep import BACKENDS, Batch, Variant, plan, plan_matchups, run_sweep, summarize
    from cardkit.plugins import engine_for
    from cardkit.rules.protocol import Audited, Cooperation, Outcome, Referenced

    started = time.perf_counter()
    check_sequential(request)
    if project is None and not request.root.is_dir():
        raise CardkitError(f"--root {request.root} is not a folder", code="P001")
    if project is None and request.set_id is not None:  # the sweep's own cache: loaded once per process
        from cardkit.playtest.sweep import _card_set

        set_id = request.set_id
        card_set = _card_set(str(request.root.resolve()), set_id)
    else:
        if project is None:
            from cardkit.load.project import load_project

            project = load_project(request.root)
            if project.issues:
                raise CardkitError(project.issues)
        set_id = request.set_id if request.set_id is not None else (min(project.sets) if project.sets else "")
        card_set = project.card_set(set_id)
    engine = engine_for(card_set.game, "playtest")
    build = engine_build(packages=(type(engine).__module__.partition(".")[0],))
    named = list(request.agents)
    known = agents_for(engine, card_set, named or ["random", "mcts"])  # the generic ones named, or the defaults
    counts = list(request.players)
    agents = list(dict.fromkeys(named or default_agents(known)))
    unknown = [a for a in agents if a not in known]
    if unknown:
        from cardkit.rules.agents import parse_agents

        parse_agents(unknown, engine, card_set)  # raises: G002 an unknown name, G031 a bad budget, a line each
    info = engine.info(card_set)
    bad = [n for n in counts if not info.min_players <= n <= info.max_players]
    if bad:
        raise CardkitError(f"--players {', '.join(map(str, bad[:3]))}: the game plays "
                           f"{info.min_players}-{info.max_players}", code="G011")
    if request.backend not in BACKENDS:
        raise CardkitError(f"unknown --backend '{request.backend}' (local or dask)", code="G003")
    backend = next(b for b in BACKENDS if b == request.backend)
    lo, hi = verdict_band(request.band, info, (card_set.manifest.get("playtest") or {}).get("band"))
    if request.sequential and info.outcome is Outcome.SCORED and info.score_range is None:
        raise CardkitError(f"--games auto on game '{info.game}': a scored game must declare its score_range "
                           "(the sequential intervals need the outcome's bounds)", code="G082")
    compare = request.compare
    if compare is not None:  # checked before the first sweep, not minutes later
        if not compare.is_dir():
            raise CardkitError(f"--compare {compare} is not a folder", code="G005")
        from cardkit.load.project import load_project

        other = load_project(compare)
        if other.issues:
            raise CardkitError(other.issues)
        other.card_set(set_id)
    report_loc = None
    if request.report is not None:  # an unknown locale fails now, not after the sweep
        from cardkit.strings.localize import Localizer

        report_loc = Localizer(request.root, request.locale, card_set)
    if isinstance(engine, Audited):
        problems = [p for p in engine.audit(card_set, counts) if isinstance(p, Issue)]
        if problems:
            raise CardkitError(problems)
    root = request.root.resolve()
    ceiling_names = ceilings(known)
    ablatable: list[str] = []
    unablatable: list[str] = []
    judged = agents
    if request.impact:
        from cardkit.playtest.impact import impact_cards

        ablatable, unablatable = impact_cards(engine, card_set, counts)
        judged = [a for a in agents if a != "random"] or agents  # random play wins too rarely to weigh a card
    competitive = info.cooperation is Cooperation.COMPETITIVE and len(agents) > 1
    anytime = sequential = None
    impact_ivs = impact_stops = None
    if request.games == "auto":
        from cardkit.playtest.auto import DEFAULT_MAX, Schedule, run_auto

        schedule = (Schedule.for_impact(request.max_games, request.precision) if request.impact and ablatable
                    else Schedule(request.max_games or DEFAULT_MAX, request.precision))
        auto = run_auto(root, set_id, counts, agents, info, (lo, hi), schedule, request.seed, request.certify_every,
                        ceiling_names, ablatable, judged if request.impact else (), jobs=request.jobs,
                        backend=backend, scheduler=request.scheduler, progress=progress)
        sweep, anytime, sequential, impact_ivs = auto.sweep, auto.anytime, auto.sequential, auto.impact
        impact_stops = auto.impact_stops
        played = sequential.games
        games_label = max((s.games for s in sequential.units), default=0)
    else:
        games = request.games
        variants = (Variant("compare", str(compare.resolve())),) if compare is not None else ()
        costs = agent_costs(engine, agents)  # batches sized by what a game of each agent costs
        batches: Sequence[Batch]
        if request.impact:
            from cardkit.playtest.impact import plan_impact

            batches = plan_impact(root, set_id, counts, judged, games, request.seed, ablatable, request.certify_every,
                                  costs)
            batches = [replace(b, variants=variants + b.variants) if b.count_base else b for b in batches]
            batches += plan(root, set_id, counts, [a for a in agents if a not in judged], games, request.seed,
                            request.certify_every, variants, costs)
        else:
            batches = plan(root, set_id, counts, agents, games, request.seed, request.certify_every, variants,
                           costs)
        if competitive:  # agents against each other, both seatings
            batches = list(batches) + plan_matchups(root, set_id, counts, agents, games, request.seed,
                                                    request.certify_every, costs)
        played = sum((b.seeds[1] - b.seeds[0]) * (2 if b.matchup else 1) for b in batches)
        if played >= LARGE_SWEEP and not build.startswith("compiled") and warn is not None:
            warn(f"note: {played:,} games on the pure-Python engine; the compiled engine plays them about "
                 "5x faster: CARDKIT_COMPILE=1 pip install -e . (see README)")
        total = played
        report = progress
        sweep = run_sweep(batches, jobs=request.jobs, backend=backend, scheduler=request.scheduler,
                          progress=(lambda done, n: report(done * total // n, total)) if report else None)
        games_label = games
        played += sum((b.seeds[1] - b.seeds[0]) * len(b.variants) for b in batches)  # the variants' games too
    summary = summarize(sweep, (lo, hi), engine.abilities(card_set, counts), ceiling_names, anytime)
    reference = dict(engine.reference(card_set, min(counts))) if isinstance(engine, Referenced) else {}
    impact_rows = teams = None
    if request.impact:
        from cardkit.playtest.impact import impact_rows as rows_of
        from cardkit.playtest.impact import team_tables, unswitchable_note

        impact_rows = tuple(rows_of(sweep, card_set, ablatable, unablatable, unswitchable_note(engine), impact_ivs,
                                     impact_stops))
        teams = tuple(team_tables(sweep))
    result = PlaytestResult(set_id, request.seed, tuple(agents), summary, reference, (lo, hi),
                            compare=tuple(compare_runs(sweep)) if compare is not None else None,
                            impact=impact_rows, teams=teams, engine=build, sequential=sequential)
    tables = Tables.of(sweep, info, ceiling_names)
    if request.report is not None and report_loc is not None:
        from cardkit.playtest.pdfreport import write_report

        labels = {m.name: m.label for m in info.metrics if m.label}
        write_report(request.report, result, report_loc, report_loc.card("set.title"), games_label, labels, tables)
    result = replace(result, elapsed_s=round(time.perf_counter() - started, 2))  # the engine build explains it
    return Playtest(result, tables, tuple(info.seats), played)
