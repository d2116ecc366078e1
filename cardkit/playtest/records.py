"""The playtest's report as typed records, serialized to JSON once, at the edge.

Every table the playtest prints (the setups, the ladder, card impact, groups in play, the
comparison of two sets, seats, matchups and declared metrics) is a frozen dataclass here;
the text, JSON and PDF reports read these records, and only :meth:`PlaytestResult.to_json`
(or :func:`to_json` for a plain record) turns them into JSON values, in the key order the
JSON report has always had.  The module imports nothing from the rest of the playtest, so
every other playtest module may use it.

A game's declared metrics give some keys their names (``casualties_mean``, ``<name>_share``,
``<name>_delta``): those records keep them as mappings or small records and spell the keys out
only in JSON.

>>> Interval.of((0.123456, 0.9)).to_json()
[0.1235, 0.9]
>>> to_json(GroupRate(("a", "b"), 4, 1, 0.25, Interval(0.05, 0.7)))
{'teams': ['a', 'b'], 'games': 4, 'wins': 1, 'win_rate': 0.25, 'ci95': [0.05, 0.7]}
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, Union, get_args

from cardkit.rules.protocol import Aggregate, MetricKind

#: a JSON value as :func:`json.dumps` takes it
Json = Union[None, bool, int, float, str, Sequence["Json"], Mapping[str, "Json"], Mapping[int, int]]

#: a player count's verdict (checked in this order; JSON and the text table carry the words,
#: the PDF report its ``report.verdict.<words_with_underscores>`` interface string)
Verdict = Literal["incomplete games", "rule violations", "skill untested", "too hard", "too easy",
                  "skill does not matter", "dead cards", "playable"]
VERDICTS: tuple[Verdict, ...] = get_args(Verdict)

#: what the first seat's advantage in a competitive game reads as (a balance finding, beside the verdict)
Balance = Literal["no seat advantage", "first seat ahead", "first seat behind"]
BALANCES: tuple[Balance, ...] = get_args(Balance)

#: the figure a player count's ladder ranks agents by, as the game declares its outcome: the win rate
#: (a co-operative game won or lost), the mean score (a scored game), the rating from the matchups
#: (a competitive game)
Figure_ = Literal["win rate", "mean score", "rating"]

#: what switching a card's ability off did to the win rate
#: what a card's impact row says: the sign when its interval excludes 0; else, in a fixed-count run, "no
#: measurable effect"; in a ``--games auto`` run, "no effect beyond the margin" when the pair stopped
#: as narrow as ``--precision`` asked (the row's ``margin`` says how far), "not settled" when it
#: stopped at its maximum (its interval is just too wide to tell)
Effect = Literal["no measurable effect", "helps", "hurts", "no effect beyond the margin", "not settled"]

#: how a game that the playtest counted ended
Finish = Literal["win", "loss", "draw", "abandoned", "error"]


def score_text(value: float, sign: bool = False) -> str:
    """A scored game's figure (a mean score, its interval, a difference of means) as the text
    report prints every one of them: two decimals at most, trailing zeros dropped, the rounding
    of the PDF report's numbers (``#,##0.##``).  The skill gap printed ``+7.7667`` beside a mean
    of ``10.1``.

    >>> score_text(7.7667, sign=True), score_text(10.1, sign=True), score_text(9.574), score_text(-0.001)
    ('+7.77', '+10.1', '9.57', '0')
    >>> score_text(0.375), score_text(12.0), score_text(-2.5, sign=True)
    ('0.38', '12', '-2.5')
    """
    r = round(value, 2)
    if r == 0:
        r = 0.0  # never "-0"
    text = f"{r:.2f}".rstrip("0").rstrip(".") if r == r and abs(r) != float("inf") else f"{r}"
    return f"+{text}" if sign and r >= 0 else text


def to_json(value: object) -> Json:
    """A record (or a sequence of records) as plain JSON values: a record by its own ``to_json``,
    enums by their value, the fields of every other dataclass by name.

    >>> to_json([Interval(0.1, 0.2), Aggregate.MEAN, {"k": (1, 2)}])
    [[0.1, 0.2], 'mean', {'k': [1, 2]}]
    """
    own = getattr(value, "to_json", None)
    if callable(own) and not isinstance(value, type):
        result: Json = own()
        return result
    if isinstance(value, enum.Enum):
        return to_json(value.value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    if isinstance(value, Mapping):
        return {k: to_json(v) for k, v in value.items()}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"not a report value: {value!r}")


@dataclass(frozen=True)
class Interval:
    """A 95 % interval; JSON ``[lo, hi]``."""

    lo: float
    hi: float

    @classmethod
    def of(cls, pair: tuple[float, float], digits: int = 4) -> Interval:
        return cls(round(pair[0], digits), round(pair[1], digits))

    def to_json(self) -> list[Json]:
        return [self.lo, self.hi]


@dataclass(frozen=True)
class Estimate:
    """A figure with its 95 % interval; JSON ``{"value": v, "ci95": [lo, hi]}``."""

    value: float
    ci95: Interval


# ------------------------------------------------------------------ setups
@dataclass(frozen=True)
class Spread:
    """The median game length with the 5th and 95th percentiles (the median an integer when
    the count of games is odd, as :func:`statistics.median` gives it)."""

    median: float
    p5: float
    p95: float


@dataclass(frozen=True)
class Rounds:
    win: Spread | None
    loss: Spread | None
    all: Spread | None


@dataclass(frozen=True)
class Failure:
    """A game that did not complete or broke an invariant: its seed replays it."""

    seed: int
    result: Finish
    reason: str
    violations: tuple[str, ...]


@dataclass(frozen=True)
class SeatRow:
    """Complete games a seat of a competitive game won (seat 1 plays first)."""

    seat: int
    name: str
    games: int
    wins: int
    draws: int
    win_rate: float
    ci95: Interval


@dataclass(frozen=True)
class Advantage:
    """Seat 1's win rate minus another seat's, in the same games."""

    over_seat: int
    difference: float
    ci95: Interval


@dataclass(frozen=True)
class ScoreTarget:
    target: float
    games: int  # complete games that reached it
    rate: float
    ci95: Interval


@dataclass(frozen=True)
class Score:
    """The first seat's mean score and the share of complete games reaching each declared target."""

    mean: float
    targets: tuple[ScoreTarget, ...]


#: a declared metric's figure: a mean (``<name>_mean``), a count of games (``<name>_games``) or
#: an exact histogram value -> games (``<name>``)
Figure = Union[float, Mapping[int, int]]


@dataclass(frozen=True)
class Setup:
    """One player count and agent: completion, wins, game length, the declared metrics, and the
    verdict of its player count (``None`` until the ladder has judged it)."""

    players: int
    agent: str
    games: int
    completed: int
    completion_ci95: Interval
    wins: int
    win_rate: float
    win_rate_ci95: Interval
    rounds: Rounds
    figures: Mapping[str, Figure]  # by JSON key, in the declared order
    survival_by_round: tuple[float, ...]
    rounds_histogram: Mapping[int, int]
    defeat_causes: Mapping[str, int]
    violations: int
    failures: tuple[Failure, ...]
    shares: Mapping[str, float | None]  # ``<name>_share``
    draws: int | None = None  # competitive games only, like seats and first_seat_advantage
    seats: tuple[SeatRow, ...] | None = None
    first_seat_advantage: tuple[Advantage, ...] | None = None
    score: Score | None = None  # games that declare score targets
    verdict: Verdict | None = None
    #: a scored game (``Outcome.SCORED``): the mean score with its interval, the games per score, and
    #: per game length (rounds) the games that ended then with their mean score
    mean_score: Estimate | None = None
    score_histogram: Mapping[float, int] | None = None
    score_by_rounds: Mapping[int, tuple[int, float]] | None = None

    def to_json(self) -> dict[str, Json]:
        out: dict[str, Json] = {
            "players": self.players, "agent": self.agent, "games": self.games, "completed": self.completed,
            "completion_ci95": self.completion_ci95.to_json(), "wins": self.wins, "win_rate": self.win_rate,
            "win_rate_ci95": self.win_rate_ci95.to_json(), "rounds": to_json(self.rounds),
            **{k: to_json(v) for k, v in self.figures.items()},
            "survival_by_round": list(self.survival_by_round), "rounds_histogram": dict(self.rounds_histogram),
            "defeat_causes": dict(self.defeat_causes), "violations": self.violations,
            "failures": to_json(self.failures), **self.shares}
        if self.seats is not None:
            out["draws"] = self.draws
            out["seats"] = to_json(self.seats)
            out["first_seat_advantage"] = to_json(self.first_seat_advantage)
        if self.score is not None:
            out["score"] = to_json(self.score)
        if self.mean_score is not None:
            out["mean_score"] = to_json(self.mean_score)
            out["score_histogram"] = [[k, v] for k, v in sorted((self.score_histogram or {}).items())]
            out["score_by_rounds"] = [{"rounds": k, "games": g, "mean_score": m}
                                      for k, (g, m) in sorted((self.score_by_rounds or {}).items())]
        out["verdict"] = self.verdict or ""
        return out


@dataclass(frozen=True)
class Coverage:
    """Ability cards that took effect somewhere in the sweep, and those that never did."""

    fired: tuple[str, ...]
    never_fired: tuple[str, ...]


# ------------------------------------------------------------------ the ladder
@dataclass(frozen=True)
class LadderAgent:
    agent: str
    games: int
    wins: int
    win_rate: float
    ci95: Interval
    ceiling: bool  # sees hidden information: shown, never judged
    rounds_median: float | None
    rounds_win_median: float | None
    shares: Mapping[str, float | None]  # ``<name>_share``
    completed: int
    violations: int
    score: Score | None = None
    #: the figure the ladder ranks by, with its interval (the win rate again for a game won or lost)
    figure: Estimate | None = None
    #: a competitive game: the win rate against random play over both seatings (the matchup table's cell)
    vs_random: Estimate | None = None
    #: a competitive game: the matchup games it played against the other judged agents
    matchup_games: int | None = None

    def to_json(self) -> dict[str, Json]:
        out: dict[str, Json] = {
            "agent": self.agent, "games": self.games, "wins": self.wins, "win_rate": self.win_rate,
            "ci95": self.ci95.to_json(), "ceiling": self.ceiling, "rounds_median": self.rounds_median,
            "rounds_win_median": self.rounds_win_median, **self.shares, "completed": self.completed,
            "violations": self.violations}
        if self.score is not None:
            out["score"] = to_json(self.score)
        if self.figure is not None:
            out["figure"] = to_json(self.figure)
        if self.vs_random is not None:
            out["vs_random"] = to_json(self.vs_random)
        if self.matchup_games is not None:
            out["matchup_games"] = self.matchup_games
        return out


@dataclass(frozen=True)
class SeatBalance:
    """A competitive game's first-seat advantage as a balance finding: seat 1's win rate minus
    seat 2's in the strongest agent's games against itself (Newcombe's paired interval), and what
    it reads as (an advantage whose interval holds 0 is none)."""

    agent: str
    difference: float
    ci95: Interval
    finding: Balance


@dataclass(frozen=True)
class SkillGap:
    """The strongest judged agent's figure minus random play's: win rates (Newcombe's interval), mean
    scores (Welch's interval) or, in a competitive game, the two agents' win rates in their matchup
    games (an interval clustered by seed, never narrower than Newcombe's paired one: see
    :func:`cardkit.playtest.stats.seed_diff_ci`)."""

    agent: str
    value: float
    ci95: Interval


@dataclass(frozen=True)
class LadderStep:
    """One player count: the agents by win rate, the skill gap and the verdict with its reason."""

    players: int
    agents: tuple[LadderAgent, ...]
    strongest: str | None
    skill_gap: SkillGap | None
    verdict: Verdict
    why: str
    #: what the ladder ranks by, and the agents tied for the top: those whose difference from the
    #: leader has a 95 % interval holding 0 (``strongest`` is None when there are several)
    figure: Figure_ = "win rate"
    strongest_set: tuple[str, ...] = ()
    balance: SeatBalance | None = None  # a competitive game's first-seat advantage


# ------------------------------------------------------------------ impact, groups, comparison
@dataclass(frozen=True)
class PairedMetric:
    """The mean paired change of a metric the game declared ``paired``: JSON ``<name>_delta``
    and ``<name>_ci95``."""

    name: str
    delta: float
    ci95: Interval


@dataclass(frozen=True)
class ImpactRow:
    """One card and setup: the same seeds with the card's ability on and off."""

    card: str
    players: int
    agent: str
    games: int
    win_rate_base: float
    win_rate_ablated: float
    win_rate_delta: float
    ci95: Interval
    games_changed: int
    rounds_delta: float | None
    metrics: tuple[PairedMetric, ...]
    fired_games: int
    fired_when_ablated: int
    effect: Effect
    #: a scored game: the first seat's mean score with the ability on and off, the paired change and
    #: its 95 % interval; the effect and the ranking read these, not the win rate
    score_base: float | None = None
    score_ablated: float | None = None
    score_delta: float | None = None
    score_ci95: Interval | None = None
    #: "no effect beyond the margin": the change lies within +-margin (the interval's units)
    margin: float | None = None
    #: a ``--games auto`` run: why the pair stopped ("clear of 0", "precision reached", "maximum reached"); ``None`` in a fixed-count run
    stopped: str | None = None

    def to_json(self) -> dict[str, Json]:
        out: dict[str, Json] = {
            "card": self.card, "players": self.players, "agent": self.agent, "games": self.games,
            "win_rate_base": self.win_rate_base, "win_rate_ablated": self.win_rate_ablated,
            "win_rate_delta": self.win_rate_delta, "ci95": self.ci95.to_json(), "games_changed": self.games_changed,
            "rounds_delta": self.rounds_delta}
        if self.score_delta is not None and self.score_ci95 is not None:
            out.update({"score_base": self.score_base, "score_ablated": self.score_ablated,
                        "score_delta": self.score_delta, "score_ci95": self.score_ci95.to_json()})
        for m in self.metrics:
            out[f"{m.name}_delta"] = m.delta
            out[f"{m.name}_ci95"] = m.ci95.to_json()
        out.update({"fired_games": self.fired_games, "fired_when_ablated": self.fired_when_ablated,
                    "effect": self.effect})
        if self.margin is not None:
            out["margin"] = self.margin
        if self.stopped is not None:
            out["stopped"] = self.stopped
        return out

    def effect_text(self) -> str:
        """The effect in words, the margin written out (English; the PDF report localizes).

        >>> r = ImpactRow("c", 1, "mcts", 50, 0.5, 0.5, 0.0, Interval(-0.02, 0.03), 4, None, (), 0, 0,
        ...               "no effect beyond the margin", margin=0.03)
        >>> r.effect_text()
        'no effect beyond +-3.0 points'
        """
        if self.effect != "no effect beyond the margin" or self.margin is None:
            return self.effect
        amount = f"{self.margin:g}" if self.score_ci95 is not None else f"{self.margin * 100:.1f} points"
        return f"no effect beyond +-{amount}"


@dataclass(frozen=True)
class Unswitchable:
    """An ability card the engine cannot switch off, with the engine's reason."""

    card: str
    note: str

    def to_json(self) -> dict[str, Json]:
        return {"card": self.card, "ablatable": False, "note": self.note}


ImpactEntry = Union[ImpactRow, Unswitchable]


@dataclass(frozen=True)
class GroupRate:
    """Games in which a group (or a pairing of groups) was in play, and those won."""

    teams: tuple[str, ...]
    games: int
    wins: int
    win_rate: float
    ci95: Interval


@dataclass(frozen=True)
class TeamTable:
    players: int
    agent: str
    teams: tuple[GroupRate, ...]
    pairings: tuple[GroupRate, ...]


@dataclass(frozen=True)
class CompareRow:
    """Win rate of set a and set b on the same seeds, and b minus a with a paired interval."""

    players: int
    agent: str
    games: int
    win_rate_a: float
    win_rate_b: float
    difference: float
    difference_ci95: Interval


# ------------------------------------------------------------------ seats, matchups, metrics
@dataclass(frozen=True)
class SeatRate:
    seat: int  # 1 is the first player
    games: int  # complete games
    wins: int
    draws: int
    win_rate: float
    ci95: Interval


@dataclass(frozen=True)
class SeatTable:
    players: int
    agent: str
    seats: tuple[SeatRate, ...]
    first_advantage: tuple[Advantage, ...]


@dataclass(frozen=True)
class MatchupCell:
    """``agent`` against ``opponent``: the games of both seatings of the same seeds."""

    players: int
    agent: str
    opponent: str
    games: int  # twice the seeds
    wins: int
    win_rate: float
    ci95: Interval  # from the per-seed pairs (see :func:`cardkit.playtest.tables.matchups`)
    first_win_rate: float  # playing seat 1
    first_ci95: Interval
    second_win_rate: float  # playing seat 2
    second_ci95: Interval
    incomplete: int
    ceiling: bool  # one of the two sees hidden cards


@dataclass(frozen=True)
class MetricDeclaration:
    name: str
    kind: MetricKind
    aggregate: Aggregate
    label: str  # the set's string id that names it ("" : the name is shown)


@dataclass(frozen=True)
class MetricValue:
    """A metric over a setup's games, as its aggregate says: ``value`` is the mean per game
    (MEAN), the share of games where it is non-zero (SHARE) or the median (HISTOGRAM, with
    ``p5`` and ``p95``)."""

    name: str
    aggregate: Aggregate
    value: float
    p5: float | None = None
    p95: float | None = None


@dataclass(frozen=True)
class MetricRow:
    players: int
    agent: str
    games: int
    values: tuple[MetricValue, ...]
    #: the outcome's score (seat 1's, over complete games), for a game that declares score targets
    score: float | None = None


# ------------------------------------------------------------------ sequential (``--games auto``) runs
ANYTIME = ("anytime-valid 95 % confidence sequences (betting, Waudby-Smith and Ramdas): each interval "
           "marked so holds at every number of games at once, so it stays valid however the run decided "
           "to stop")
IMPACT_RCI = ("impact pairs: repeated 95 % confidence intervals of a group-sequential design (Haybittle-Peto "
              "boundaries, Bonferroni over the looks): the fixed-count interval with z impact_z[0] at every look "
              "before the pair's maximum and impact_z[1] at it, valid whichever look the pair stopped at")


@dataclass(frozen=True)
class AnytimeIntervals:
    """The anytime-valid intervals of a sequential sweep, in the figures' own units, that the
    report shows instead of the fixed-count ones: per setup its figure (win rate, or mean score),
    per ordered pair of agents of a player count the difference of their figures on the same seeds
    (``gaps``), per matchup a's win share minus b's."""

    figures: Mapping[tuple[int, str], tuple[float, float]]  # (players, agent) -> interval
    gaps: Mapping[tuple[int, str, str], tuple[float, float]]  # (players, a, b) -> interval of a - b
    matchups: Mapping[tuple[int, str, str], tuple[float, float]]  # (players, a, b) -> interval of a - b


@dataclass(frozen=True)
class SequentialUnit:
    """One figure a sequential sweep watched: how many games (seeds) it played and why it stopped."""

    what: Literal["setup", "skill gap", "matchup", "impact"]
    players: int
    agent: str  # "a|b" for a matchup or a skill gap
    card: str | None
    games: int
    interval: Interval  # in the figure's units
    stopped: str  # "clear of the band", "precision reached", "maximum reached", "not judged"

    def to_json(self) -> dict[str, Json]:
        out: dict[str, Json] = {"what": self.what, "players": self.players, "agent": self.agent}
        if self.card is not None:
            out["card"] = self.card
        out.update({"games": self.games, "interval": self.interval.to_json(), "stopped": self.stopped})
        return out


@dataclass(frozen=True)
class Sequential:
    """How a ``--games auto`` run played: rounds of seeds, the maximum, the precision asked for."""

    rounds: int
    first_round: int
    max_games: int
    precision: float | None  # points of the figure (percentage points of a rate, score units)
    units: tuple[SequentialUnit, ...]
    games: int  # games played in all (a matchup seed and an impact pair count two)
    #: with ``--impact``: seeds added per round after the first (a look at every pair), seeds per impact
    #: pair at most, and its intervals' critical values before and at that maximum (``None`` without
    #: impact pairs: rounds double, as before)
    step: int | None = None
    impact_max: int | None = None
    impact_z: tuple[float, float] | None = None

    def to_json(self) -> dict[str, Json]:
        out: dict[str, Json] = {"intervals": ANYTIME, "rounds": self.rounds, "first_round": self.first_round,
                                "max_games": self.max_games, "precision": self.precision}
        if self.step is not None:
            out.update({"step": self.step, "impact_max": self.impact_max,
                        "impact_intervals": IMPACT_RCI if self.impact_z is not None else None,
                        "impact_z": list(self.impact_z) if self.impact_z is not None else None})
        out.update({"games_played": self.games, "units": to_json(self.units)})
        return out


# ------------------------------------------------------------------ the whole report
@dataclass(frozen=True)
class Summary:
    """What :func:`cardkit.playtest.sweep.summarize` makes of a sweep."""

    setups: tuple[Setup, ...]
    coverage: Coverage
    ladder: tuple[LadderStep, ...]
    matchups: tuple[MatchupCell, ...]
    metrics: tuple[MetricDeclaration, ...]

    def to_json(self) -> dict[str, Json]:
        out: dict[str, Json] = {"setups": to_json(self.setups), "coverage": to_json(self.coverage),
                                "ladder": to_json(self.ladder)}
        if self.matchups:
            out["matchups"] = to_json(self.matchups)
        out["metrics"] = to_json(self.metrics)
        return out


@dataclass(frozen=True)
class PlaytestResult:
    """``cardkit playtest``'s whole report: the summary, what the run was asked, the game's own
    reference figures, and the optional comparison, card impact and group tables."""

    set_id: str
    seed: int
    agents: tuple[str, ...]
    summary: Summary
    reference: Mapping[str, float]
    band: tuple[float, float]
    compare: tuple[CompareRow, ...] | None = None
    impact: tuple[ImpactEntry, ...] | None = None
    teams: tuple[TeamTable, ...] | None = None
    elapsed_s: float = 0.0
    engine: str = ""
    sequential: Sequential | None = None  # a ``--games auto`` run: its rounds and anytime-valid intervals

    def to_json(self) -> dict[str, Json]:
        out: dict[str, Json] = {"set": self.set_id, "seed": self.seed, "agents": list(self.agents),
                                **self.summary.to_json(), "reference": dict(self.reference),
                                "band": list(self.band)}
        if self.compare is not None:
            out["compare"] = to_json(self.compare)
        if self.impact is not None:
            out["impact"] = to_json(self.impact)
            out["teams"] = to_json(self.teams or ())
        if self.sequential is not None:
            out["sequential"] = self.sequential.to_json()
        out["elapsed_s"] = self.elapsed_s
        out["engine"] = self.engine
        return out
