"""The board of a Death Angel game: its zones, the questions asked about them
and the card moves that change them.

:class:`Board` is everything of a game in progress except the flow of play
(the pending decision and the rules generators, :class:`~cardkit.games.death_angel.engine.State`).
The phases, combat and effect handlers take a :class:`Board` and import it at
run time; nothing here imports them.  :class:`Game` holds the static facts
(the card set, players, rule options), built once for many games.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Final, Generator, Sequence

from cardkit.errors import CardkitError
from cardkit.games.death_angel import kinds as K
from cardkit.games.death_angel.state import GS, SIDES, Marine, Row, Spot, Swarm, Team, TerrainCard
from cardkit.games.death_angel.cards import Action, Event, Genestealer, Location, SetupCard, Terrain
from cardkit.games.death_angel.cards import DeathAngelSet as CardSet
from cardkit.games.death_angel.cards import Marine as MarineCard
from cardkit.model import Effect
from cardkit.games.death_angel.kinds import Reason
from cardkit.rules.core import Decision, DecisionKind, EndReason, Ending, GameOver, Option, Outcome, Rng

Flow = Generator[Decision, Option, Any]
Ask = Generator[Decision, Option, Option]  # a question: its answer is the option picked
ROUND_LIMIT: Final = 200  # a safety net far beyond any real game; reaching it is an invariant violation


@dataclass(frozen=True)
class Rules:
    """Rule options; the Korean translation's spawn note is a house rule, off by default."""

    spawn_toward_larger_pile: bool = False
    round_limit: int = ROUND_LIMIT


class Game:
    """Static facts of a game: the card set, players and rule options."""

    def __init__(self, card_set: CardSet, players: int, rules: Rules = Rules()) -> None:
        if card_set.game != "death-angel" or card_set.rules is None:
            raise CardkitError(f"set '{card_set.id}' is not a Death Angel set", code="E001")
        r = card_set.rules
        if not r.min_players <= players <= r.max_players:
            raise CardkitError(f"{players} players: this set plays {r.min_players}-{r.max_players}", code="E002")
        self.set = card_set
        self.players = players
        self.rules = rules
        setup = next((s for s in card_set.of_kind(SetupCard) if players in s.players), None)
        if setup is None:
            raise CardkitError(f"no setup card for {players} players", code="E003")
        self.setup: SetupCard = setup
        self.teams_needed = r.teams_for(players)
        self.teams_per_player = r.teams_per_player[players - 1]
        self.marines = {m.id: m for m in card_set.of_kind(MarineCard)}
        self.actions = {a.id: a for a in card_set.of_kind(Action)}
        self.terrain = {t.id: t for t in card_set.of_kind(Terrain)}
        self.locations = card_set.of_kind(Location)
        self.events: list[tuple[str, Event, int]] = [(cid, e, i) for e in card_set.of_kind(Event)
                                                      for i, cid in enumerate(e.copy_ids())]
        self.genestealers = [g for g in card_set.of_kind(Genestealer) if not g.brood_lord]
        self.brood_lords = [g for g in card_set.of_kind(Genestealer) if g.brood_lord]
        self.faces = tuple(card_set.die_faces)
        self.moves = dict(r.adjacent_move)
        # Looked up by every game of this Game (thousands in a playtest): built
        # once here.  All immutable, so nothing of one game reaches the next.
        self.gs_uids = [(f"{c.id}#{i + 1}", c) for c in self.genestealers for i in range(c.quantity)]
        self.brood_uids = [(f"{c.id}#{i + 1}" if c.quantity > 1 else c.id, c)
                           for c in self.brood_lords for i in range(c.quantity)]
        self.event_of: dict[str, tuple[Event, int]] = {}
        for cid, e, i in self.events:
            self.event_of.setdefault(cid, (e, i))
        self.hands = {t.id: tuple(sorted((a.id for a in self.actions.values() if a.team == t.id),
                                         key=lambda a: self.actions[a].order)) for t in card_set.teams}
        self.locations_by_tier: dict[str, list[Location]] = {}
        for loc in sorted(self.locations, key=lambda c: c.id):
            self.locations_by_tier.setdefault(loc.tier, []).append(loc)
        self.marines_by_id = sorted(self.marines.values(), key=lambda m: m.id)
        self.terrain_by_id = sorted(self.terrain.values(), key=lambda t: t.id)
        self.team_options = {t.id: Option("team", t.id) for t in card_set.teams}
        self.action_options = {a: Option("action", a) for a in self.actions}
        # each Genestealer card's abilities (defence modifier, killed last), read once from its effects
        self.gs_abilities = {c.id: (c.defence_modifier(), c.killed_last()) for c in self.genestealers + self.brood_lords}

    def new_gs(self, uid: str, card: Genestealer) -> GS:
        """A physical copy of ``card`` entering the game, carrying its card's abilities."""
        defence, last = self.gs_abilities[card.id]
        return GS(uid, card.id, card.icons, card.brood_lord, defence, last)

    def new_state(self, seed: int) -> Any:
        """A new :class:`~cardkit.games.death_angel.engine.State` (imported here: the engine sits above the board)."""
        from cardkit.games.death_angel.engine import State

        return State(self, seed)


@dataclass
class Stats:
    """Counters a playtest reads; they never influence play."""

    fired: Counter = field(default_factory=Counter)  # card ids whose ability took effect
    kills: int = 0
    deaths: int = 0
    support_short: int = 0  # tokens that could not be placed (empty supply)
    reshuffles: Counter = field(default_factory=Counter)
    locations: int = 0
    alive_by_round: list[int] = field(default_factory=list)


class RoundEffects:
    """Event effects that hold for one round.  An event puts them in force for
    the next round (:attr:`Board.next`); :func:`~cardkit.games.death_angel.phases.start_round`
    makes that object the round's (:attr:`Board.now`) and starts a fresh one."""

    __slots__ = ("evasion", "second_wind", "enter_formation", "spawn_limits")

    def __init__(self) -> None:
        self.evasion = False  # only one marine of each team attacks
        self.second_wind: set[str] = set()  # marines a defence 0 does not kill
        self.enter_formation = False  # a support token before each Move + Activate card
        self.spawn_limits: dict[TerrainCard, int] = {}  # terrain card (by identity) -> max spawn this event phase


class Board:
    """One game's zones: formation, piles, decks, tokens, round effects, the
    recorded dice and the event log."""

    def __init__(self, game: Game, seed: int, forced: list[int] | None = None, src: Board | None = None) -> None:
        self.game = game
        self.seed = seed
        if src is not None:  # a copy (State.clone): made at once, nothing of a fresh board built in vain
            self._copy(src)
            return
        self.rng = Rng(seed, forced=list(forced or []))
        self.events: list[tuple[Any, ...]] = []
        self.stats = Stats()
        self.round = 0
        # zones
        self.rows: list[Row] = []
        self.teams: dict[str, Team] = {}
        self.left: list[GS] = []
        self.right: list[GS] = []
        self.gs_deck: list[GS] = []
        self.gs_discard: list[GS] = []
        self.brood_reserve: list[GS] = []
        self.removed: list[GS] = []  # brood lords killed
        self.event_deck: list[str] = []
        self.event_discard: list[str] = []
        self.event_current: str | None = None
        self.location_deck: list[Location] = []
        self.location: Location | None = None
        self.location_tokens = 0
        self.past_locations: list[Location] = []
        self.terrain_reserve: list[TerrainCard] = []
        self.supply = int(game.set.components.get("support_tokens", 12))
        self.total_tokens = self.supply
        self.dead: list[Marine] = []
        self.artefact_team: str | None = None
        self.current_player = 0
        # round effects
        self.active: list[tuple[str, Effect, str]] = []  # (action card, effect, team) in force this round
        self.now = RoundEffects()  # event effects in force this round
        self.next = RoundEffects()  # ... and those an event of this round puts in force for the next
        self.lead_used: set[str] = set()  # support-on-kill abilities used this round
        self.lead_pending: set[str] = set()  # ... and those due after the current attack
        self.brood_killed = 0
        self.ready = False  # set when setup has finished
        self.scouted: set[str] = set()  # event cards seen in the deck (Scouting): public until reshuffled
        self.team_picks: list[tuple[str, int]] = []  # (team, player) chosen so far at setup, in turn order
        # the action resolution's place, as data (a copy resumes there): the round's order of
        # teams, the teams that chose a card, the index of the card being resolved (-1: none)
        self.resolve_order: list[str] = []
        self.resolve_live: list[str] = []
        self.resolving = -1
        self.attack_queue: list[Swarm] = []  # the Genestealer attack's swarms in their order (while it lasts)
        # the place in the rules of the pending decision when the rules code states it (a copy
        # resumes there, State.fork): set just before such a question, cleared once it is answered
        self.at: tuple[Any, ...] | None = None
        # the place of the effect being run by a loop over a card's effects (after an action
        # card, an event card, a location entered), which a handler's own questions extend
        # (support.mark): None outside such a loop
        self.effect_at: tuple[Any, ...] | None = None

    def copy_from(self, src: Board) -> None:
        """Make this board an independent copy of ``src``: every mutable card,
        marine, swarm and pile copied (identity kept where two zones share an
        object), the static card data shared, the dice generator in the same state."""
        at, effect_at = self.at, self.effect_at
        self._copy(src)
        self.at, self.effect_at = at, effect_at

    def _copy(self, src: Board) -> None:
        """Set every field of this board to an independent copy of ``src``'s (see :meth:`copy_from`;
        the place marks :attr:`at` and :attr:`effect_at` start empty, as a fresh board's: a copy
        marks them again as its rules code asks its pending question).  A search copies the board
        before every playout: the cards are copied by module functions with one memo (compiled:
        native calls, not closures), the counters as dicts."""
        gs: dict[int, GS] = {}
        terrain: dict[int, TerrainCard] = {}
        swarms: dict[int, Swarm] = {}
        self.game = src.game
        self.seed = src.seed
        self.rng = src.rng.copy()  # (the generator shared until one of them draws: Rng.copy)
        self.events = list(src.events)
        s = src.stats
        self.stats = Stats(_counter(s.fired), s.kills, s.deaths, s.support_short, _counter(s.reshuffles), s.locations,
                           list(s.alive_by_round))
        self.round = src.round
        rows: list[Row] = []
        for r in src.rows:
            m = r.marine
            row = Row(_copy_marine(m) if m is not None else None)
            a, b = r.left, row.left
            b.terrain = [_copy_terrain(c, terrain) for c in a.terrain]
            b.swarms = [_copy_swarm(sw, swarms, gs) for sw in a.swarms]
            a, b = r.right, row.right
            b.terrain = [_copy_terrain(c, terrain) for c in a.terrain]
            b.swarms = [_copy_swarm(sw, swarms, gs) for sw in a.swarms]
            rows.append(row)
        self.rows = rows
        self.teams = {k: Team(v.id, v.player, list(v.hand), v.last, v.chosen, set(v.forbidden), set(v.forbidden_next),
                              v.removed) for k, v in src.teams.items()}
        self.left = [_copy_gs(c, gs) for c in src.left]
        self.right = [_copy_gs(c, gs) for c in src.right]
        self.gs_deck = [_copy_gs(c, gs) for c in src.gs_deck]
        self.gs_discard = [_copy_gs(c, gs) for c in src.gs_discard]
        self.brood_reserve = [_copy_gs(c, gs) for c in src.brood_reserve]
        self.removed = [_copy_gs(c, gs) for c in src.removed]
        self.event_deck = list(src.event_deck)
        self.event_discard = list(src.event_discard)
        self.event_current = src.event_current
        self.location_deck = list(src.location_deck)
        self.location = src.location
        self.location_tokens = src.location_tokens
        self.past_locations = list(src.past_locations)
        self.terrain_reserve = [_copy_terrain(c, terrain) for c in src.terrain_reserve]
        self.supply = src.supply
        self.total_tokens = src.total_tokens
        self.dead = [_copy_marine(m) for m in src.dead]
        self.artefact_team = src.artefact_team
        self.current_player = src.current_player
        self.active = list(src.active)
        self.now = _copy_effects(src.now, terrain)
        self.next = _copy_effects(src.next, terrain)
        self.lead_used = set(src.lead_used)
        self.lead_pending = set(src.lead_pending)
        self.brood_killed = src.brood_killed
        self.ready = src.ready
        self.scouted = set(src.scouted)
        self.team_picks = list(src.team_picks)
        self.resolve_order = list(src.resolve_order)
        self.resolve_live = list(src.resolve_live)
        self.resolving = src.resolving
        self.attack_queue = [_copy_swarm(sw, swarms, gs) for sw in src.attack_queue]  # (after the rows: the same swarm objects)
        self.at = None
        self.effect_at = None

    # ------------------------------------------------------------ questions
    def ask(self, player: int, kind: DecisionKind, options: Sequence[Option], **context: Any) -> Ask:
        """Ask ``player``; a single legal option is taken without asking."""
        if not options:
            raise AssertionError(f"no legal option for {kind}")
        if len(options) == 1:
            return options[0]
        choice = yield Decision(player, kind, tuple(options), context, fresh=True)
        return choice

    def ask_in(self, player: int, kind: DecisionKind, options: Sequence[Option], context: dict[str, Any]) -> Ask:
        """:meth:`ask` for a caller that holds the context as a dict already
        (compiled, ``ask(**context)`` would be a generic Python call)."""
        if not options:
            raise AssertionError(f"no legal option for {kind}")
        if len(options) == 1:
            return options[0]
        choice = yield Decision(player, kind, tuple(options), context, fresh=True)
        return choice

    def log(self, *event: Any) -> None:
        self.events.append(event)

    def marines(self) -> list[Marine]:
        return [m for r in self.rows if (m := r.marine) is not None]

    def row_of(self, marine: Marine) -> int:
        rows = self.rows
        i = marine.row_hint
        if i < len(rows) and rows[i].marine is marine:
            return i
        for i, r in enumerate(rows):
            if r.marine is marine:
                marine.row_hint = i
                return i
        raise AssertionError(f"{marine.id} is not in the formation")

    def team_marines(self, team: str) -> list[Marine]:
        return [m for r in self.rows if (m := r.marine) is not None and m.team == team]

    def roll(self) -> tuple[int, bool]:
        value, skull = self.game.faces[self.rng.roll(len(self.game.faces))]
        self.log("roll", value, skull)
        return value, skull

    def swarms(self) -> list[tuple[int, str, Swarm]]:
        out: list[tuple[int, str, Swarm]] = []
        for i, r in enumerate(self.rows):
            for sw in r.left.swarms:
                if sw.cards:
                    out.append((i, "left", sw))
            for sw in r.right.swarms:
                if sw.cards:
                    out.append((i, "right", sw))
        return out

    def engaged_with(self, team: str) -> list[tuple[int, str, Swarm]]:
        """Swarms engaged with a marine of ``team``: at his position, either side
        (a Power Field swarm too: it cannot attack or be killed, but it is there).
        The one home of this question for the engine and the agents."""
        rows = self.rows
        return [(i, s, sw) for i, s, sw in self.swarms() if (m := rows[i].marine) is not None and m.team == team]

    def locate(self, swarm: Swarm) -> tuple[int, str] | None:
        """Where ``swarm`` is (None once it is empty or gone)."""
        if swarm.cards:
            for i, r in enumerate(self.rows):
                for side in SIDES:
                    if swarm in r.spot(side).swarms:
                        return i, side
        return None

    def spot_count(self, row: int, side: str) -> int:
        return self.rows[row].spot(side).count()

    def gs_in_formation(self) -> int:
        return sum([r.left.count() + r.right.count() for r in self.rows])

    def pile(self, side: str) -> list[GS]:
        return self.left if side == "left" else self.right

    def player_of(self, team: str) -> int:
        return self.teams[team].player

    def end(self, result: Ending, reason: Reason) -> None:
        raise GameOver(Outcome(result, self.round, EndReason(reason)))

    def at_final_location(self) -> bool:
        return not self.location_deck and self.location is not None and self.location.win is not None

    def check_victory(self) -> None:
        if self.at_final_location() and not self.left and not self.right and self.gs_in_formation() == 0:
            self.end("win", "cleared")
        for r in self.rows:  # (checked after every attack and effect: no list of marines built)
            if r.marine is not None:
                return
        self.end("loss", "all_marines_dead")

    # ------------------------------------------------------------ card moves
    def draw_gs(self) -> GS | None:
        if not self.gs_deck and self.gs_discard:
            self.gs_deck = self.gs_discard
            self.gs_discard = []
            self.rng.shuffle(self.gs_deck, "genestealer_deck")
            self.stats.reshuffles["genestealer"] += 1
        return self.gs_deck.pop() if self.gs_deck else None

    def draw_event(self) -> str:
        if not self.event_deck:
            self.event_deck = self.event_discard
            self.event_discard = []
            self.rng.shuffle(self.event_deck, "event_deck")
            self.scouted = set()
            self.stats.reshuffles["event"] += 1
        return self.event_deck.pop()

    def kill(self, row: int, side: str, swarm: Swarm, gs: GS) -> None:
        swarm.cards.remove(gs)
        if gs.brood_lord:
            self.removed.append(gs)
            self.brood_killed += 1
        else:
            self.gs_discard.append(gs)
        self.stats.kills += 1
        self.log("kill", gs.uid, row, side)
        if not swarm.cards:
            self._prune(self.rows[row].spot(side))
        loc = self.location
        if loc is not None and loc.win is not None and loc.win.kind == "kill_brood_lords" and not self.location_deck:
            if self.brood_killed >= int(loc.win.get("count", 2)):
                self.end("win", "brood_lords_dead")

    def _prune(self, spot: Spot | None = None) -> None:
        """Drop emptied swarms: from ``spot`` (where a kill emptied one), or everywhere."""
        if spot is not None and any(not sw.cards for sw in spot.swarms):
            spot.swarms = [sw for sw in spot.swarms if sw.cards]
            return
        for r in self.rows:
            for side in SIDES:
                spot = r.spot(side)
                if any(not sw.cards for sw in spot.swarms):
                    spot.swarms = [sw for sw in spot.swarms if sw.cards]

    def killable(self, swarm: Swarm) -> list[GS]:
        """Cards that may die now: those killed last (the Brood Lords) only when no other card is left."""
        if swarm.shielded:
            return []
        plain = [c for c in swarm.cards if not c.last]
        return plain or list(swarm.cards)

    def pick_swarm(self, player: int, kind: DecisionKind, targets: list[tuple[int, str, Swarm]], optional: bool = False,
                   **context: Any) -> Flow:
        """Ask for one of ``targets`` by position (option ``swarm:<row>:<side>``,
        plus ``swarm:stop`` when ``optional``); returns (row, side, swarm) or None."""
        options: list[Option] = []
        for i, s, _ in targets:
            opt = Option("swarm", f"{i}:{s}")
            if opt not in options:
                options.append(opt)
        if optional:
            options.append(Option("swarm", "stop"))
        pick = yield from self.ask_in(player, kind, options, context)
        if pick.value == "stop":
            return None
        row, side = pick.value.split(":")
        return next(t for t in targets if t[0] == int(row) and t[1] == side)

    def choose_kill(self, player: int, row: int, side: str, swarm: Swarm) -> Flow:
        """Kill one card of ``swarm`` (the player picks which kind)."""
        cands = self.killable(swarm)
        if not cands:
            return False
        kinds: dict[str, GS] = {}
        for c in cands:
            kinds.setdefault(c.card, c)
        pick = yield from self.ask(player, K.KILL, [Option("card", k) for k in sorted(kinds)], row=row, side=side)
        self.kill(row, side, swarm, kinds[pick.value])
        return True

    def place_token(self, marine: Marine, n: int = 1) -> int:
        placed = min(n, self.supply)
        self.supply -= placed
        marine.tokens += placed
        self.stats.support_short += n - placed
        if placed:
            self.log("support", marine.id, placed)
        return placed

    def spend_token(self, marine: Marine) -> None:
        marine.tokens -= 1
        self.supply += 1

    def spawn_at(self, row: int, side: str, count: int, pile_side: str | None = None) -> int:
        """Move up to ``count`` cards from a blip pile to (row, side); returns how many."""
        pile = self.pile(pile_side or side)
        n = 0
        spot = self.rows[row].spot(side)
        while n < count and pile:
            gs = pile.pop()
            gs.moved = False
            if spot.swarms:
                spot.swarms[-1].cards.append(gs)
            else:
                spot.swarms.append(Swarm([gs]))
            n += 1
        if n:
            self.log("spawn", row, side, n)
        return n

    def marine_dies(self, marine: Marine, cause: str) -> None:
        row = self.row_of(marine)
        marine.alive = False
        self.supply += marine.tokens
        marine.tokens = 0
        self.dead.append(marine)
        self.stats.deaths += 1
        self.log("death", marine.id, cause)
        self._shift(row)
        team = self.teams[marine.team]
        if not self.team_marines(team.id):
            team.removed = True
            self.log("team_out", team.id)
        self.check_victory()

    def _shift(self, dead_row: int) -> None:
        """Close the gap: the part of the formation with fewer marines moves toward
        the dead marine's position (the bottom part on a tie; the non-empty part
        when the death is at an end)."""
        rows = self.rows
        above = sum(1 for r in rows[:dead_row] if r.marine)
        below = sum(1 for r in rows[dead_row + 1:] if r.marine)
        gap = rows[dead_row]
        gap.marine = None
        move_up = below <= above if (above and below) else below > 0
        if not above and not below:
            return
        if move_up:
            src = rows[dead_row + 1]
            merged = self._merge_rows(gap, src)
            self.rows = rows[:dead_row] + [merged] + rows[dead_row + 2:]
        else:
            src = rows[dead_row - 1]
            merged = self._merge_rows(gap, src)
            self.rows = rows[:dead_row - 1] + [merged] + rows[dead_row + 1:]

    @staticmethod
    def _merge_rows(gap: Row, src: Row) -> Row:
        row = Row(src.marine)
        for side in SIDES:
            spot = row.spot(side)
            spot.terrain = gap.spot(side).terrain + src.spot(side).terrain
            spot.swarms = gap.spot(side).swarms + src.spot(side).swarms
        return row

    def merge_swarms(self) -> None:
        """Swarms sharing a spot become one; emptied swarms go.  Runs after every
        action card, so a spot already holding one live swarm is skipped."""
        for r in self.rows:
            _merge_spot(r.left)
            _merge_spot(r.right)

def _merge_spot(spot: Spot) -> None:
    swarms = spot.swarms
    if not swarms or (len(swarms) == 1 and swarms[0].cards):
        return
    live = [sw for sw in swarms if sw.cards]
    if len(live) > 1:
        merged = Swarm([c for sw in live for c in sw.cards])
        merged.shielded = any(sw.shielded for sw in live)
        spot.swarms = [merged]
    else:
        spot.swarms = live


# ------------------------------------------------------------------ copies (Board._copy)
# Module functions with an explicit memo (by identity: an object two zones share is copied once).

def _copy_gs(c: GS, memo: dict[int, GS]) -> GS:
    new = memo.get(id(c))
    if new is None:
        new = memo[id(c)] = GS(c.uid, c.card, c.icons, c.brood_lord, c.defence, c.last)
        new.moved = c.moved
    return new


def _copy_terrain(c: TerrainCard, memo: dict[int, TerrainCard]) -> TerrainCard:
    new = memo.get(id(c))
    if new is None:
        new = memo[id(c)] = TerrainCard(c.card, c.colour, c.activatable)
        new.tokens, new.used = c.tokens, c.used
    return new


def _copy_swarm(sw: Swarm, memo: dict[int, Swarm], gs: dict[int, GS]) -> Swarm:
    new = memo.get(id(sw))
    if new is None:
        new = memo[id(sw)] = Swarm([_copy_gs(c, gs) for c in sw.cards])
        new.attacked, new.shielded = sw.attacked, sw.shielded
    return new


def _copy_marine(m: Marine) -> Marine:
    new = Marine(m.id, m.team, m.range)
    new.facing, new.tokens, new.alive, new.row_hint = m.facing, m.tokens, m.alive, m.row_hint
    return new


def _copy_effects(src: RoundEffects, terrain: dict[int, TerrainCard]) -> RoundEffects:
    new = RoundEffects()
    new.evasion, new.enter_formation = src.evasion, src.enter_formation
    new.second_wind = set(src.second_wind)
    new.spawn_limits = {_copy_terrain(k, terrain): v for k, v in src.spawn_limits.items()}
    return new


_new_counter = Counter.__new__
_fill = dict.update


def _counter(src: Counter) -> Counter:
    """A copy of a :class:`~collections.Counter`, made as a dict is (``Counter(src)`` runs the class's
    Python ``__init__`` and ``update``: a few microseconds, twice for every copy of a board)."""
    new: Counter = _new_counter(Counter)
    _fill(new, src)
    return new
