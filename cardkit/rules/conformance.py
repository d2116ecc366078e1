"""The conformance suite any engine runs (in the spirit of OpenSpiel's ``api_test``).

:func:`check` plays seeded random games of an :class:`~cardkit.rules.protocol.Engine`
at each player count and returns what breaks the protocol, as
:class:`~cardkit.errors.Issue` findings in the project's one-line form
(codes N001-N049, and R005-R006 for clones of determinized states;
``docs/errors.md``); :func:`assert_conforms` is the pytest helper a plugin's own tests call; ``cardkit rules conformance --set S`` prints
the findings and a summary line, exit 1 on any.

The random play is stateless: the option taken at the n-th decision of a game
is a hash of the game's seed and n, so any copy of a state at decision n plays
on with exactly the decisions the original takes.  The checks:

* at every decision: the deciding seat is a seat or chance (N015), the options
  are not empty (N010), distinct (N019) and their text forms parse back to
  equal options (N004); a chance decision lists outcomes among its options
  with probabilities that sum to one, a seat's decision none (N008); no result
  while a decision is pending (N006);
* at decisions 0, 1, 3, 7, 15, ..., and at the first decision of each kind the run
  meets (so every decision kind is cloned at least once): a clone plays on to the same decisions,
  the same result and the same report as the original (N002), and playing it
  leaves the original as it was (N003); the state's invariants hold (N014);
  in a game with hidden information, a determinization for the deciding seat
  keeps what that seat knows (N009) and its options, plays to an end, leaves
  the original alone (N003), and depends on nothing the seat cannot see:
  determinizing two different determinizations with one stream gives states
  no seat can tell apart (N018); a determinized state keeps the invariants the
  true one keeps (N023); and over the whole run, determinizations from
  different streams differ somewhere (a seat sees it, or they play on apart),
  else ``determinize`` returns the true state or a fixed function of it and
  search would read hidden cards (N022, once per run);
* at the same decisions and at the first :data:`WORLDS_PER_KIND` of each kind,
  in every game (hidden information or not), for each seat: a determinization
  for that seat and a clone of it, taken right after determinizing and again
  after :data:`CLONE_AFTER` more decisions, play on to the same decisions,
  result, report and final information states (R005; a search determinizes
  once and plays its playouts from clones of that world), and playing such a
  clone leaves the determinized state as it was (R006);
* a finished game: a result for every seat (N006), one shared result in a
  co-operative game (N007), every declared metric in its report (N012), only
  card ids of the set among the abilities that took effect (N013) and none
  that was switched off (N020), no invariant violations (N014); it ended within
  the decision bound (N011);
* with hidden information, every agent (the engine's own and the generic ones;
  the clairvoyant ceilings are named and left out) decides alike in two deals
  its seat cannot tell apart (:func:`hidden_independence`, N021), and a check
  that compared no two deals that differ is finding N024, never a silent pass;
* the same seed plays the same game twice (N005); the engine's static facts
  are consistent and its games have the player count asked for (N016, N017);
  the costs an engine declares for its agents (``Costed``) name its own agents,
  each a finite number above 0 (N025);
  an engine that raises is a finding, not a crash (N001).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from cardkit.errors import CardkitError, Issue
from cardkit.model import CardSet
from cardkit.rules.core import Decision, DecisionKind, Option
from cardkit.rules.protocol import (
    CHANCE,
    AgentFactory,
    Cooperation,
    Costed,
    End,
    Engine,
    Game,
    GameResult,
    Information,
    State,
)

#: decisions one game may take before it counts as endless (N011)
DECISION_LIMIT = 100_000
#: findings of one code shown; the rest are counted in the summary
SHOWN_PER_CODE = 5
#: decisions a determinized state plays before its second clone is taken (R005, R006)
CLONE_AFTER = 3
#: the R005/R006 check is also made at the first this many decisions of each kind a run meets (a rare
#: kind is where a rules engine keeps something a redeal must not leave behind)
WORLDS_PER_KIND = 4

_MASK = (1 << 64) - 1


def _mix(*parts: int) -> int:
    """splitmix64 of the parts: the stateless random play's source."""
    x = 0x9E3779B97F4A7C15
    for p in parts:
        x = (x ^ (p & _MASK)) * 0xBF58476D1CE4E5B9 & _MASK
        x ^= x >> 31
        x = x * 0x94D049BB133111EB & _MASK
        x ^= x >> 29
    return x


def choose(state: State, decision: Decision, seed: int, n: int) -> Option:
    """The stateless random play: decision ``n`` of game ``seed``; chance by its probabilities."""
    h = _mix(seed, n)
    if decision.player == CHANCE:
        outcomes = state.chance_outcomes()
        if outcomes:
            x = (h >> 11) / float(1 << 53)
            acc = 0.0
            for option, p in outcomes:
                acc += p
                if x < acc:
                    return option
            return outcomes[-1][0]
    return decision.options[h % len(decision.options)]


Trace = tuple[tuple[int, str, str], ...]


def _fingerprint(state: State, players: int) -> tuple[object, ...]:
    d = state.decision
    pending = None if d is None else (d.player, d.kind, tuple(o.text() for o in d.options))
    return (pending, tuple(state.information_state(p) for p in range(players)), state.result())


@dataclass
class _Run:
    """Findings of one check run, shown per code up to :data:`SHOWN_PER_CODE`."""

    where: str
    issues: list[Issue] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)

    def add(self, code: str, message: str) -> None:
        self.counts[code] = self.counts.get(code, 0) + 1
        if self.counts[code] <= SHOWN_PER_CODE:
            self.issues.append(Issue(code, message, file=self.where))


@dataclass(frozen=True)
class Played:
    """One game played by the stateless random play from some decision on."""

    trace: Trace
    result: GameResult | None
    report: tuple[object, ...]
    decisions: int


def _report_key(state: State) -> tuple[object, ...]:
    if state.result() is None:
        return ()
    r = state.report()
    return (r.result, tuple(sorted(r.metrics.items())), tuple(sorted(r.fired)), tuple(r.violations))


def _play_on(state: State, seed: int, start: int, limit: int) -> Played:
    """Play a copy on; where the engine breaks, the trace ends with what broke
    (the original, checked decision by decision, says what it was)."""
    trace = []
    n = start
    try:
        while n < limit:
            d = state.decision
            if d is None:
                break
            if not d.options:
                trace.append((d.player, d.kind, "<no options>"))
                break
            o = choose(state, d, seed, n)
            trace.append((d.player, d.kind, o.text()))
            state.apply(o)
            n += 1
        return Played(tuple(trace), state.result(), _report_key(state), n)
    except Exception as exc:  # noqa: BLE001 - reported where the original breaks, or as a difference
        trace.append((CHANCE, DecisionKind("<raised>"), _short(exc)))
        return Played(tuple(trace), None, (), n)


def _short(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {text[:160]}" if text else type(exc).__name__


class _Checker:
    def __init__(self, engine: Engine, card_set: CardSet, run: _Run, limit: int) -> None:
        self.engine, self.card_set, self.run, self.limit = engine, card_set, run, limit
        self.info = engine.info(card_set)
        cards = getattr(card_set, "cards", None)
        self.card_ids = frozenset(cards) if cards is not None else None
        self.cloned_kinds: set[str] = set()  # decision kinds a clone has been made at, in this run
        self.determinized = 0  # decisions a pair of determinizations was made at, in this run
        self.varied = False  # ... and whether two of them (different streams) ever differed
        self.as_true = 0  # pairs that both showed exactly the true state
        self.worlds_cloned = 0  # determinized states whose clones were played on (R005, R006), in this run
        self.world_kinds: dict[str, int] = {}  # decisions of each kind the R005/R006 check was made at, in this run

    def game(self, game: Game, players: int, seed: int, disabled: frozenset[str]) -> Played | None:
        """Play one game with every check; its play (for the determinism check), or None if it broke."""
        where = f"{players} players, seed {seed}"
        run = self.run
        try:
            state = game.new_state(seed)
        except Exception as exc:  # noqa: BLE001 - an engine that raises is a finding
            run.add("N001", f"{where}: dealing raised {_short(exc)}")
            return None
        trace: list[tuple[int, str, str]] = []
        expected: list[tuple[int, Played]] = []  # (decision, what a clone made there played)
        checkpoint = 0
        n = 0
        try:
            while True:
                d = state.decision
                if d is None:
                    break
                if n >= self.limit:
                    run.add("N011", f"{where}: no end after {self.limit:,} decisions")
                    return None
                at = f"{where}, decision {n} ({d.kind})"
                if not self.decision(state, d, players, at):
                    return None
                sampled = n == checkpoint or d.kind not in self.cloned_kinds
                if sampled:
                    if n == checkpoint:
                        checkpoint = 2 * checkpoint + 1
                    self.cloned_kinds.add(d.kind)
                    expected.append((n, self.copies(state, d, players, seed, n, at)))
                if sampled or self.world_kinds.get(d.kind, 0) < WORLDS_PER_KIND:
                    self.world_kinds[d.kind] = self.world_kinds.get(d.kind, 0) + 1
                    self.cloned_worlds(state, players, seed, n, at, _fingerprint(state, players))
                o = choose(state, d, seed, n)
                trace.append((d.player, d.kind, o.text()))
                state.apply(o)
                n += 1
            played = Played(tuple(trace), state.result(), _report_key(state), n)
            self.finished(state, players, where, disabled)
        except Exception as exc:  # noqa: BLE001
            run.add("N001", f"{where}, decision {n}: the engine raised {_short(exc)}")
            return None
        for at_n, copy in expected:
            if copy.trace != played.trace[at_n:] or copy.result != played.result or copy.report != played.report:
                run.add("N002", f"{where}: a clone made at decision {at_n} played on differently from the original"
                        + _first_difference(copy, played, at_n))
        return played

    def decision(self, state: State, d: Decision, players: int, at: str) -> bool:
        run = self.run
        if not (d.player == CHANCE or 0 <= d.player < players):
            run.add("N015", f"{at}: the deciding seat is {d.player}, neither a seat (0-{players - 1}) nor chance ({CHANCE})")
            return False
        if not d.options:
            run.add("N010", f"{at}: no legal options before the end")
            return False
        if len(set(d.options)) != len(d.options):
            run.add("N019", f"{at}: an option is listed twice")
        for o in d.options:
            try:
                back = Option.parse(o.text())
            except ValueError:
                back = None
            if back != o:
                run.add("N004", f"{at}: option {o.text()[:60]!r} does not parse back to an equal option")
                break
        outcomes = state.chance_outcomes()
        if d.player == CHANCE:
            total = sum(p for _, p in outcomes)
            if not outcomes or abs(total - 1.0) > 1e-9 or any(p < 0 for _, p in outcomes):
                run.add("N008", f"{at}: chance outcomes' probabilities sum to {total:g}, not 1"
                        + (" (one is negative)" if any(p < 0 for _, p in outcomes) else ""))
            elif any(o not in d.options for o, _ in outcomes):
                run.add("N008", f"{at}: a chance outcome is not among the decision's options")
        elif outcomes:
            run.add("N008", f"{at}: a seat's decision lists chance outcomes")
        if state.result() is not None:
            run.add("N006", f"{at}: a result while a decision is pending")
        return True

    def copies(self, state: State, d: Decision, players: int, seed: int, n: int, at: str) -> Played:
        """The clone and determinization checks at decision ``n``; what the clone played."""
        run = self.run
        violations = list(state.violations())
        if violations:
            run.add("N014", f"{at}: invariant violated: {violations[0][:120]}")
        before = _fingerprint(state, players)
        copy = _play_on(state.clone(), seed, n, self.limit)
        if _fingerprint(state, players) != before:
            run.add("N003", f"{at}: playing a clone changed the original")
            return copy
        if self.info.information is Information.IMPERFECT and d.player != CHANCE:
            self.determinizations(state, d, players, seed, n, at, before, not violations)
        return copy

    def cloned_worlds(self, state: State, players: int, seed: int, n: int, at: str, before: tuple[object, ...]) -> None:
        """For each seat: a determinization for it, cloned at once and after :data:`CLONE_AFTER` decisions;
        each clone plays on as the determinized state does (R005) and leaves it as it was (R006)."""
        run = self.run
        for seat in range(players):
            world = state.determinize(seat, random.Random(_mix(seed, n, 5, seat)))
            if _fingerprint(state, players) != before:
                run.add("N003", f"{at}: determinizing for seat {seat} changed the original")
                return
            self.worlds_cloned += 1
            where = f"{at}: a clone of a determinization for seat {seat}"
            early = self.world_clone(world, players, seed, n, f"{where} (taken right after determinizing)")
            if early is None:
                continue
            head = _play_on(world, seed, n, min(self.limit, n + CLONE_AFTER))
            late: tuple[Played, tuple[object, ...]] | None = None
            if world.decision is not None and head.decisions == n + CLONE_AFTER and not _stopped(head):
                late = self.world_clone(world, players, seed, n + CLONE_AFTER,
                                        f"{where} (taken {CLONE_AFTER} decisions after determinizing)")
                if late is None:
                    continue
            played = head
            if world.decision is not None and not _stopped(head):
                rest = _play_on(world, seed, head.decisions, self.limit)
                played = Played(head.trace + rest.trace, rest.result, rest.report, rest.decisions)
            end = _fingerprint(world, players)
            for rel, copy, when in ((0, early, "right after determinizing"),
                                    (CLONE_AFTER, late, f"{CLONE_AFTER} decisions after determinizing")):
                if copy is None:
                    continue
                got, seen = copy
                if got.trace != played.trace[rel:]:
                    why = _first_difference(got, played, rel, n + rel)
                elif got.result != played.result:
                    why = f" (the same decisions, but the result {_outcome(got.result)} against {_outcome(played.result)})"
                elif got.report != played.report:
                    why = f" (the same decisions and result, but {_report_difference(got.report, played.report)})"
                elif seen != end:
                    why = " (the same decisions, but a seat's information state differs at the end)"
                else:
                    continue
                run.add("R005", f"{at}: a clone of a determinization for seat {seat}, taken {when}, played on "
                        "differently from the determinized state" + why)
                break

    def world_clone(self, world: State, players: int, seed: int, n: int,
                    what: str) -> tuple[Played, tuple[object, ...]] | None:
        """A clone of the determinized ``world`` played on from decision ``n``, and what every seat sees
        at its end (None: playing it changed ``world``, R006)."""
        before = _fingerprint(world, players)
        clone = world.clone()
        copy = _play_on(clone, seed, n, self.limit)
        if _fingerprint(world, players) != before:
            self.run.add("R006", f"{what}: playing the clone changed the determinized state")
            return None
        return copy, _fingerprint(clone, players)

    def determinizations(self, state: State, d: Decision, players: int, seed: int, n: int, at: str,
                         before: tuple[object, ...], sound: bool = True) -> None:
        run = self.run
        me = d.player
        knows = state.information_state(me)
        a = state.determinize(me, random.Random(_mix(seed, n, 1)))
        b = state.determinize(me, random.Random(_mix(seed, n, 2)))
        if _fingerprint(state, players) != before:
            run.add("N003", f"{at}: determinizing changed the original")
            return
        if a.information_state(me) != knows or b.information_state(me) != knows:
            run.add("N009", f"{at}: a determinization for seat {me} changed what that seat knows")
            return
        da = a.decision
        if da is None or da.options != d.options:
            run.add("N018", f"{at}: a determinization for seat {me} changed the seat's options")
            return
        for world in (a, b) if sound else ():  # (a state already broken is N014's)
            broken = list(world.violations())
            if broken:
                run.add("N023", f"{at}: a determinization for seat {me} breaks the state's invariants: {broken[0][:120]}")
                break
        self.determinized += 1
        seen_a, seen_b = _fingerprint(a, players), _fingerprint(b, players)
        if seen_a != seen_b:
            self.varied = True
        elif not self.varied:  # no seat sees a difference: do the two worlds play on alike? (they should not, somewhere)
            pa = _play_on(a.clone(), seed, n, self.limit)
            if pa != _play_on(b.clone(), seed, n, self.limit):
                self.varied = True
            elif seen_a == before and pa == _play_on(state.clone(), seed, n, self.limit):
                self.as_true += 1
        again = _mix(seed, n, 3)
        a2, b2 = a.determinize(me, random.Random(again)), b.determinize(me, random.Random(again))
        if any(a2.information_state(p) != b2.information_state(p) for p in range(players)):
            run.add("N018", f"{at}: a determinization for seat {me} depends on cards the seat cannot see "
                    "(two deals of the hidden cards, determinized with one stream, differ)")
        if _play_on(a, seed, n, self.limit).decisions >= self.limit:
            run.add("N011", f"{at}: a determinization does not end within {self.limit:,} decisions")

    def finished(self, state: State, players: int, where: str, disabled: frozenset[str]) -> None:
        run = self.run
        result = state.result()
        if result is None:
            run.add("N006", f"{where}: no decision is pending but the game has no result")
            return
        if result.end is End.COMPLETE and len(result.seats) != players:
            run.add("N006", f"{where}: a result for {len(result.seats)} seats in a {players}-player game")
        if result.end is End.ERROR:
            run.add("N001", f"{where}: the game ended in an engine error ({result.reason[:120]})")
        if (self.info.cooperation is Cooperation.COOPERATIVE and result.end is End.COMPLETE
                and len({s.result for s in result.seats}) > 1):
            run.add("N007", f"{where}: the seats of a co-operative game have different results")
        report = state.report()
        if report.result != result:
            run.add("N006", f"{where}: the report's result differs from the state's")
        missing = [m.name for m in self.info.metrics if m.name not in report.metrics]
        if missing:
            run.add("N012", f"{where}: declared metric(s) {', '.join(missing[:5])} missing from the report")
        if self.card_ids is not None:
            strangers = sorted(c for c in report.fired if c not in self.card_ids)
            if strangers:
                run.add("N013", f"{where}: abilities reported for {', '.join(strangers[:5])}, not card ids of the set")
        off = sorted(report.fired & disabled)
        if off:
            run.add("N020", f"{where}: switched-off abilities took effect: {', '.join(off[:5])}")
        if report.violations:
            run.add("N014", f"{where}: invariant violated at the end: {report.violations[0][:120]}")


def _first_difference(copy: Played, played: Played, at: int, number: int | None = None) -> str:
    """Where ``copy`` left ``played.trace[at:]``; ``number``: the game's decision number of ``at`` (default ``at``)."""
    base = at if number is None else number
    for i, (x, y) in enumerate(zip(copy.trace, played.trace[at:])):
        if x != y:
            return f" (decision {base + i}: {x[2]!r} against {y[2]!r})"
    if len(copy.trace) != len(played.trace) - at:
        return f" (it took {len(copy.trace)} decisions, the original {len(played.trace) - at})"
    return " (the results or reports differ)"


def _outcome(result: GameResult | None) -> str:
    if result is None:
        return "none"
    return f"{result.end.value} ({result.reason}, round {result.rounds})"


def _report_difference(a: tuple[object, ...], b: tuple[object, ...]) -> str:
    """What differs between two :func:`_report_key` values, the clone's first."""
    for i, name in ((1, "metrics"), (2, "abilities fired"), (3, "violations")):
        x, y = (a[i] if len(a) > i else ()), (b[i] if len(b) > i else ())
        if x != y:
            return f"other {name}: {str(x)[:80]} against {str(y)[:80]}"
    return "another report"


def _stopped(played: Played) -> bool:
    """Did the play stop where the engine broke (it raised, or offered no options)?"""
    return bool(played.trace) and (played.trace[-1][1] == "<raised>" or played.trace[-1][2] == "<no options>")


@dataclass(frozen=True)
class Conformance:
    """What :func:`run` found and what it played."""

    issues: list[Issue]
    counts: dict[str, int]
    games: int
    decisions: int
    players: tuple[int, ...]
    cloned_kinds: tuple[str, ...] = ()  # the decision kinds a clone was made at (every kind met)
    agent_checks: tuple[AgentCheck, ...] = ()  # the hidden-information check of each agent (imperfect information)
    ceilings: tuple[str, ...] = ()  # agents left out of it: they read hidden cards by design
    worlds_cloned: int = 0  # determinized states whose clones were played on and compared (R005, R006)

    @property
    def findings(self) -> int:
        return sum(self.counts.values())


def run(engine: Engine, card_set: CardSet, players: Sequence[int] | None = None, games: int = 20, seed: int = 1,
        limit: int = DECISION_LIMIT, agents: bool = True) -> Conformance:
    """:func:`check` with the counts the CLI's summary prints; ``agents``: also the hidden-information
    check of every agent (:func:`check_agents`) where the game hides something."""
    where = str(getattr(card_set, "directory", "") or "")
    out = _Run(where)
    try:
        info = engine.info(card_set)
    except Exception as exc:  # noqa: BLE001
        out.add("N001", f"the engine's info raised {_short(exc)}")
        return Conformance(out.issues, out.counts, 0, 0, ())
    if not 1 <= info.min_players <= info.max_players:
        out.add("N016", f"the engine declares players {info.min_players}-{info.max_players}")
        return Conformance(out.issues, out.counts, 0, 0, ())
    counts = tuple(players) if players else tuple(range(info.min_players, info.max_players + 1))
    outside = [p for p in counts if not info.min_players <= p <= info.max_players]
    if outside:
        out.add("N016", f"player count(s) {', '.join(map(str, outside))} outside the engine's "
                f"{info.min_players}-{info.max_players}")
        counts = tuple(p for p in counts if p not in outside)
    _check_costs(engine, out)
    checker = _Checker(engine, card_set, out, limit)
    played_games = decisions = 0
    for p in counts:
        try:
            abilities = frozenset(engine.abilities(card_set, [p]))
        except Exception as exc:  # noqa: BLE001
            out.add("N001", f"{p} players: abilities raised {_short(exc)}")
            continue
        if checker.card_ids is not None:
            strangers = sorted(a for a in abilities if a not in checker.card_ids)
            if strangers:
                out.add("N013", f"{p} players: abilities() names {', '.join(strangers[:5])}, not card ids of the set")
        switchable = getattr(engine, "switchable", None)  # the optional Switchable hook: the rest cannot be switched off
        if callable(switchable):
            try:
                abilities = frozenset(switchable(card_set, [p]))
            except Exception as exc:  # noqa: BLE001
                out.add("N001", f"{p} players: switchable raised {_short(exc)}")
                continue
        for disabled in (frozenset(), abilities) if abilities else (frozenset(),):
            try:
                game = engine.new_game(card_set, p, disabled)
            except Exception as exc:  # noqa: BLE001
                out.add("N001", f"{p} players: new_game raised {_short(exc)}")
                break
            if game.players != p:
                out.add("N017", f"{p} players: the engine's game is for {game.players} players")
                break
            seeds = range(seed, seed + games) if not disabled else range(seed, seed + max(1, games // 4))
            for s in seeds:
                first = checker.game(game, p, s, disabled)
                played_games += 1
                if first is None:
                    continue
                decisions += first.decisions
                try:
                    second = _play_on(game.new_state(s), s, 0, limit)
                except Exception as exc:  # noqa: BLE001
                    out.add("N001", f"{p} players, seed {s}: replaying raised {_short(exc)}")
                    continue
                if second != first:
                    out.add("N005", f"{p} players, seed {s}: the same seed and decisions gave another game"
                            + _first_difference(second, first, 0))
    checks: list[AgentCheck] = []
    ceilings: list[str] = []
    if agents and checker.info.information is Information.IMPERFECT and counts:
        found, checks, ceilings = check_agents(engine, card_set, counts, seed=seed)
        for issue in found:
            out.add(issue.code, issue.message)
    if checker.determinized and not checker.varied:
        truth = (" and every one showed the true state" if checker.as_true == checker.determinized else "")
        out.add("N022", f"determinize never varied what a seat cannot see: at {checker.determinized} sampled "
                f"decision(s) two determinizations from different streams gave the same world{truth} "
                "(search would read hidden cards; a game with nothing hidden declares Information.PERFECT)")
    return Conformance(out.issues, out.counts, played_games, decisions, counts, tuple(sorted(checker.cloned_kinds)),
                       tuple(checks), tuple(ceilings), checker.worlds_cloned)


def _check_costs(engine: Engine, out: _Run) -> None:
    """N025: the optional :class:`~cardkit.rules.protocol.Costed` hook names only the engine's own
    agents, each with a finite cost above 0 (a sweep sizes its batches by it: a string, an infinite
    or a missing number would break the plan or silently cost 1)."""
    if not isinstance(engine, Costed):
        return
    try:
        costs = engine.agent_costs()
        own = set(engine.agents())
    except Exception as exc:  # noqa: BLE001
        out.add("N001", f"agent_costs raised {_short(exc)}")
        return
    if not hasattr(costs, "items"):
        out.add("N025", f"agent_costs() gave {type(costs).__name__}, not a mapping of agent names to costs")
        return
    for name, cost in costs.items():
        if name not in own:
            out.add("N025", f"agent_costs() names {name!r}, not one of the engine's own agents "
                    f"({', '.join(sorted(own)) or 'none'}; the generic agents cost by their budget)")
        elif isinstance(cost, bool) or not isinstance(cost, (int, float)) or not 0 < cost < float("inf"):
            out.add("N025", f"agent_costs() gives {name!r} the cost {cost!r}: a finite number above 0 "
                    "(games of random play)")


def check(engine: Engine, card_set: CardSet, players: Sequence[int] | None = None, games: int = 20, seed: int = 1,
          limit: int = DECISION_LIMIT, agents: bool = True) -> list[Issue]:
    """Every finding of the conformance suite on ``engine`` (empty: it conforms).

    ``games`` seeded random games per player count (``players``: the engine's
    whole declared range by default), and a quarter as many with every ability
    switched off; findings of one code are shown up to
    :data:`SHOWN_PER_CODE` times."""
    return run(engine, card_set, players, games, seed, limit, agents).issues


def hidden_independence(engine: Engine, card_set: CardSet, players: int, agent: AgentFactory, games: int = 6,
                        seed: int = 1, per_game: int = 3, name: str = "", enough: int = 0) -> tuple[list[Issue], int]:
    """Does ``agent`` decide the same whatever the cards its seat cannot see?

    At a few decisions of seeded random games, two determinizations for the
    deciding seat (different hidden orders, the same information state) are
    given to the agent made from one seed; a different option is finding N021.
    Returns the findings and how many of the pairs differed (a seat sees the
    difference, or the two deals play on apart under the same decisions): the
    others prove nothing, though they are asked too.  When no pair differed the
    check proved nothing, and says so: finding N024, never a silent pass.
    ``name`` (the agent's) begins each finding's message; ``enough``: stop once that many pairs
    differed (``games`` is then the most games played)."""
    out = _Run(str(getattr(card_set, "directory", "") or ""))
    who = f"agent '{name}', " if name else ""
    game = engine.new_game(card_set, players)
    compared = asked_in_all = 0
    played = 0
    for s in range(seed, seed + games):
        if enough and compared >= enough:
            break
        played += 1
        state = game.new_state(s)
        n, asked = 0, 0
        while asked < per_game and n < DECISION_LIMIT:
            d = state.decision
            if d is None:
                break
            if d.player != CHANCE and len(d.options) > 1 and _mix(s, n, 9) % 3 == 0:
                asked += 1
                me = d.player
                a = state.determinize(me, random.Random(_mix(s, n, 1)))
                b = state.determinize(me, random.Random(_mix(s, n, 2)))
                # a pair counts where the deals differ: some seat sees it, or the games play on apart
                differ = (any(a.information_state(p) != b.information_state(p) for p in range(players))
                          or _play_on(a.clone(), s, n, DECISION_LIMIT) != _play_on(b.clone(), s, n, DECISION_LIMIT))
                da, db = a.decision, b.decision
                assert da is not None and db is not None
                x, y = agent(_mix(s, n, 4))(a, da), agent(_mix(s, n, 4))(b, db)
                compared += differ
                if x != y:
                    out.add("N021", f"{who}{players} players, seed {s}, decision {n} ({d.kind}): the agent chose "
                            f"{x.text()[:40]!r} and {y.text()[:40]!r} in two deals of what seat {me} cannot see")
            state.apply(choose(state, d, s, n))
            n += 1
        asked_in_all += asked
    if not compared:
        out.add("N024", f"{who}{players} players: the hidden-information check compared no two deals that differ "
                f"({asked_in_all} decision(s) asked in {played} game(s)), so it proves nothing: play more games, "
                "or make determinize redeal what a seat cannot see")
    return out.issues, compared


@dataclass(frozen=True)
class AgentCheck:
    """One agent's hidden-information check (:func:`hidden_independence`) at one player count."""

    agent: str
    players: int
    compared: int  # pairs of deals that differed (0 is finding N024)
    findings: int


def agent_names(engine: Engine) -> list[str]:
    """Every agent :func:`check_agents` checks: the engine's own by name, then the generic ones
    (``random``, ``flat-mc``, ``mcts``, ``clairvoyant`` at their default budgets) it does not shadow."""
    from cardkit.rules.agents import GENERIC

    own = list(engine.agents())
    return own + [g for g in GENERIC if g not in own]


def check_agents(engine: Engine, card_set: CardSet, players: Sequence[int], games: int = 12, per_game: int = 2,
                 seed: int = 1, names: Sequence[str] | None = None) -> tuple[list[Issue], list[AgentCheck], list[str]]:
    """:func:`hidden_independence` for every agent (:func:`agent_names`, or ``names``) at the lowest and the
    highest of ``players``, until 4 pairs of deals that differ were compared (at most ``games`` games): the findings, what each check compared, and the ceilings left out (agents that
    read hidden cards by design: the clairvoyant search, shown by the playtest and never judged)."""
    from cardkit.rules.agents import parse_agent

    issues: list[Issue] = []
    done: list[AgentCheck] = []
    ceilings: list[str] = []
    counts = sorted({min(players), max(players)}) if players else []
    for name in names if names is not None else agent_names(engine):
        try:
            spec = parse_agent(name, engine, card_set)
        except CardkitError as exc:
            issues.extend(exc.issues)
            continue
        if spec.ceiling:
            ceilings.append(name)
            continue
        for p in counts:
            try:
                found, compared = hidden_independence(engine, card_set, p, spec.factory, games, seed, per_game, name,
                                                      enough=4)
            except Exception as exc:  # noqa: BLE001 - an agent or engine that raises is a finding
                found, compared = [Issue("N001", f"agent '{name}', {p} players: raised {_short(exc)}",
                                         file=str(getattr(card_set, "directory", "") or ""))], 0
            issues.extend(found)
            done.append(AgentCheck(name, p, compared, len(found)))
    return issues, done, ceilings


def assert_conforms(engine: Engine, card_set: CardSet, players: Sequence[int] | None = None, games: int = 10,
                    seed: int = 1, agents: bool = True) -> None:
    """The pytest helper: fail with every finding, one line each.

    A plugin's own test::

        def test_my_game_conforms():
            assert_conforms(MyEngine(), load_project("my-game").card_set("my-game"))
    """
    issues = check(engine, card_set, players, games, seed, agents=agents)
    assert not issues, "the engine breaks the protocol:\n" + "\n".join(i.format() for i in issues)


def summary(result: Conformance, game: str) -> str:
    counts = ", ".join(str(p) for p in result.players) or "none"
    verdict = "conforms" if not result.findings else f"{result.findings} finding(s)"
    hidden = result.findings - len(result.issues)
    more = f" ({hidden} more not shown)" if hidden else ""
    by_code = "; ".join(f"{c} x{n}" for c, n in sorted(result.counts.items()))
    agents = ""
    if result.agent_checks or result.ceilings:
        names = len({c.agent for c in result.agent_checks})
        pairs = sum(c.compared for c in result.agent_checks)
        agents = (f", hidden cards: {names} agent(s), {pairs} pair(s) of deals compared"
                  + (f", ceiling(s) not checked: {', '.join(result.ceilings)}" if result.ceilings else ""))
    return (f"conformance {game}: {verdict}{more}; {result.games} games, {result.decisions:,} decisions, "
            f"players {counts}, clones at {len(result.cloned_kinds)} decision kind(s)" + agents
            + (f" [{by_code}]" if by_code else ""))

