"""Setup, the four phases of a round, and travel, in rulebook order."""

from __future__ import annotations

from typing import Any, Final

from cardkit.games.death_angel import kinds as K
from cardkit.games.death_angel import combat, effects  # noqa: F401  (effects: registers the handlers)
from cardkit.games.death_angel.board import Board, Flow, RoundEffects
from cardkit.games.death_angel.state import SIDES, Marine, Row, Swarm, Team, TerrainCard, other
from cardkit.games.death_angel.cards import Event, Location, Placement
from cardkit.games.death_angel.support import run_effects_from
from cardkit.rules.core import Option



# ------------------------------------------------------------------ setup
def setup(st: Board) -> Flow:
    g = st.game
    rng = st.rng
    # 1. decks
    st.gs_deck = [g.new_gs(uid, card) for uid, card in g.gs_uids]
    st.brood_reserve = [g.new_gs(uid, card) for uid, card in g.brood_uids]
    rng.shuffle(st.gs_deck, "genestealer_deck")
    st.event_deck = [cid for cid, _, _ in g.events]
    rng.shuffle(st.event_deck, "event_deck")
    # 2-3. setup location and location deck: one random card of each tier, top first
    deck: list[Location] = []
    for tier in g.setup.deck:
        cards = [loc for loc in g.locations_by_tier.get(tier, ()) if loc not in deck]  # by id
        deck.append(rng.choice(cards, f"tier_{tier}"))
    st.location_deck = deck
    # 4. combat teams, chosen in turn
    yield from choose_teams(st)
    yield from finish_setup(st)


def choose_teams(st: Board) -> Flow:
    """Setup step 4: the players choose combat teams in turn, one each per pass.  The picks so
    far are board data (:attr:`Board.team_picks`), so a copy taken at a team choice resumes here."""
    g = st.game
    picks = st.team_picks
    taken = {team for team, _ in picks}
    free = [t.id for t in g.set.teams if t.id not in taken]
    for k in range(len(picks), g.teams_per_player * g.players):
        p = k % g.players
        pick = yield from st.ask(p, K.TEAM, [g.team_options[t] for t in free])
        free.remove(pick.value)
        picks.append((pick.value, p))


def finish_setup(st: Board) -> Flow:
    """Setup steps 5-8, once the combat teams are chosen."""
    g = st.game
    rng = st.rng
    deck = st.location_deck
    for team, p in st.team_picks:
        st.teams[team] = Team(team, p, list(g.hands[team]))
    # 5. formation: shuffle the chosen marines, top half faces left, bottom half right
    marines = [Marine(m.id, m.team, m.range) for m in g.marines_by_id if m.team in st.teams]
    rng.shuffle(marines, "formation")
    half = len(marines) // 2
    for i, m in enumerate(marines):
        m.facing = "left" if i < half else "right"
        st.rows.append(Row(m))
    # 6. support tokens: the supply is already full
    # 7. terrain and blip piles
    st.terrain_reserve = [TerrainCard(t.id, t.colour, t.activatable) for t in g.terrain_by_id]
    place_terrain(st, g.setup.terrain)
    fill_blips(st, g.setup.blips)
    st.log("setup", [m.id for m in marines], [loc.id for loc in deck])
    # 8. initial Genestealers: one event card's spawn boxes only
    card_id = st.draw_event()
    yield from _first_spawn(st, card_id, None)


def _first_spawn(st: Board, card_id: str, resume: tuple[Any, ...] | None) -> Flow:
    """Setup step 8 (``resume``: a copy takes it up at a spawn question, :func:`spawn_boxes`)."""
    yield from spawn_boxes(st, _event(st, card_id), True, ("spawn", "setup", card_id), resume)
    st.event_discard.append(card_id)
    st.merge_swarms()
    st.ready = True


def resume_spawn(st: Board, at: tuple[Any, ...]) -> Flow:
    """A copy taken at a spawn question (``("spawn", "setup" or "event", card, ...)``, :func:`spawn_boxes`):
    the spawn from that question on, then the rest of the setup or of the event phase and the round."""
    if at[1] == "setup":
        yield from _first_spawn(st, str(at[2]), at[3:])
        return
    yield from _event_end(st, at[3:])
    end_of_round(st)


def _event(st: Board, card_id: str) -> tuple[Event, int]:  # (the card, its copy index)
    found = st.game.event_of.get(card_id)
    if found is None:
        raise AssertionError(card_id)
    return found


def place_terrain(st: Board, placements: tuple[Placement, ...]) -> None:
    n = len(st.rows)
    for p in placements:
        card = next((t for t in st.terrain_reserve if t.card == p.terrain), None)
        if card is None:
            continue
        st.terrain_reserve.remove(card)
        card.tokens = 0
        card.used = False
        st.rows[p.row(n)].spot(p.side).terrain.append(card)


def fill_blips(st: Board, counts: tuple[int, int]) -> None:
    """Deal the blip piles, left then right; a short supply is shared as evenly as possible."""
    want = {"left": counts[0], "right": counts[1]}
    have = {"left": 0, "right": 0}
    while True:
        progressed = False
        for side in SIDES:
            if have[side] < want[side]:
                gs = st.draw_gs()
                if gs is None:
                    return
                st.pile(side).append(gs)
                have[side] += 1
                progressed = True
        if not progressed:
            return


# ------------------------------------------------------------------ round
def start_round(st: Board) -> None:
    """Round bookkeeping: effects decided last round come into force."""
    st.round += 1
    st.log("round", st.round)
    st.now, st.next = st.next, RoundEffects()
    st.active = []
    st.lead_used = set()
    st.lead_pending = set()
    for r in st.rows:
        for side in SIDES:
            for t in r.spot(side).terrain:
                t.used = False
            for sw in r.spot(side).swarms:
                sw.shielded = False
                sw.attacked = False
    for team in st.teams.values():
        team.forbidden, team.forbidden_next = team.forbidden_next, set()
        team.chosen = None


def choose_actions(st: Board) -> Flow:
    live = [t for t in st.teams.values() if not t.removed and t.chosen is None]  # (a copy resumes mid-choice)
    for team in sorted(live, key=lambda t: (t.player, t.id)):
        options = [st.game.action_options[a] for a in team.hand
                   if a != team.last and st.game.actions[a].type not in team.forbidden]
        if not options:
            options = [st.game.action_options[a] for a in team.hand if a != team.last]
        pick = yield from st.ask(team.player, K.ACTION, options, team=team.id)
        team.chosen = pick.value


def resolve_actions(st: Board) -> Flow:
    live = [t for t in st.teams.values() if not t.removed and t.chosen]
    order = sorted((st.game.actions[t.chosen or ""].order, t.id) for t in live)  # (all chosen: see live)
    if order:
        st.current_player = st.teams[order[0][1]].player
    st.log("actions", [st.teams[tid].chosen for _, tid in order])
    st.resolve_live = [t.id for t in live]
    st.resolve_order = [tid for _, tid in order]
    yield from resolve_from(st, 0, None)


def resolve_from(st: Board, start: int, resumed: Flow | None) -> Flow:
    """The round's action cards from the ``start``-th of :attr:`Board.resolve_order` on, then
    the end of the resolution.  ``resumed``: the ``start``-th card's resolution taken up
    mid-way (a copy of a game resumes there, :meth:`~cardkit.games.death_angel.engine.State.fork`)."""
    order = st.resolve_order
    for k in range(start, len(order)):
        team = st.teams[order[k]]
        st.resolving = k
        if k == start and resumed is not None:
            yield from resumed
            continue
        if team.removed:
            continue
        yield from combat.resolve_action(st, team, st.game.actions[team.chosen or ""])
    st.resolving = -1
    for tid in st.resolve_live:
        team = st.teams[tid]
        team.last = team.chosen
    st.merge_swarms()
    yield from end_of_phase(st, "resolve")


def play_round(st: Board) -> Flow:
    start_round(st)
    yield from choose_actions(st)
    yield from rest_of_round(st, "resolve")


PHASES: Final = ("resolve", "genestealer_attack", "event")


def rest_of_round(st: Board, phase: str) -> Flow:
    """The round from ``phase`` on (rule scenarios may start mid-round)."""
    if phase == "resolve":
        yield from resolve_actions(st)
    if phase in ("resolve", "genestealer_attack"):
        yield from genestealer_attack(st)
        yield from end_of_phase(st, "genestealer_attack")
    yield from event_phase(st)
    end_of_round(st)


def end_of_round(st: Board) -> None:
    st.stats.alive_by_round.append(len(st.marines()))


def _current_team_check(st: Board) -> None:
    """If the current player's teams are all out, the player with the lowest card this round takes over."""
    live = [t for t in st.teams.values() if not t.removed]
    if live and not any(t.player == st.current_player for t in live):
        first = min(live, key=lambda t: st.game.actions[t.chosen].order if t.chosen else 99)
        st.current_player = first.player


def end_of_phase(st: Board, phase: str) -> Flow:
    """The end of ``phase`` (one of :data:`PHASES`): travel when a blip pile is empty."""
    _current_team_check(st)
    st.check_victory()
    if (not st.left or not st.right) and st.location_deck:
        yield from travel(st, phase, None)
    st.check_victory()


def resume_travel(st: Board, at: tuple[Any, ...]) -> Flow:
    """Travel at the end of a phase taken up at the question ``at`` marks (:attr:`Board.at`,
    ``("travel", phase, ...)``: a copy resumes there), then the rest of the round."""
    phase = str(at[1])
    yield from travel(st, phase, at[2:])
    if phase == "travel":  # a rule scenario's start: the rounds follow
        return
    st.check_victory()
    if phase == "event":
        end_of_round(st)
    else:
        yield from rest_of_round(st, "genestealer_attack" if phase == "resolve" else "event")


def travel(st: Board, phase: str, resume: tuple[Any, ...] | None) -> Flow:
    """Travel at the end of ``phase`` (``travel``: a rule scenario starts with it); ``resume``: the place of a question in it (a Door's
    kill: ``("door", row, side, terrain index)`` or ``("door_kill", ..., row, side)``; an effect
    of the location entered: ``("effects", k, ...)``) a copy takes it up at."""
    if resume is not None and resume[0] == "effects":
        loc = st.location
        assert loc is not None
        yield from run_effects_from(st, ("travel", phase, "effects"), loc.effects, int(resume[1]), loc.id,
                                    st.current_player, {}, resume[2:] or None)
        st.merge_swarms()
        return
    if resume is None:
        st.log("travel_start", st.location.id if st.location else "setup")
    # Doors: each support token on a Door kills one Genestealer anywhere; tokens go back
    skipping = resume is not None
    for i, r in enumerate(st.rows):
        for side in SIDES:
            terrain = r.spot(side).terrain
            for ti in range(len(terrain)):
                t = terrain[ti]
                stage = ""
                if skipping:
                    assert resume is not None
                    if (i, side, ti) != (resume[1], resume[2], resume[3]):
                        continue
                    skipping = False
                    stage = str(resume[0])
                while stage or t.tokens:
                    if not stage:
                        t.tokens -= 1
                        st.supply += 1
                    targets = [(j, s, sw) for j, s, sw in st.swarms() if st.killable(sw)]
                    if not targets:
                        continue
                    if stage == "door_kill":
                        assert resume is not None
                        k_row, k_side = int(resume[4]), str(resume[5])
                        k_swarm = next(x[2] for x in targets if x[0] == k_row and x[1] == k_side)
                    else:
                        st.at = ("travel", phase, "door", i, side, ti)
                        picked = yield from st.pick_swarm(st.current_player, K.DOOR_KILL, targets)
                        st.at = None
                        k_row, k_side, k_swarm = picked
                    stage = ""
                    st.at = ("travel", phase, "door_kill", i, side, ti, k_row, k_side)
                    yield from st.choose_kill(st.current_player, k_row, k_side, k_swarm)
                    st.at = None
                    st.stats.fired["door"] += 1
    # 1. the next location
    if st.location is not None:
        st.past_locations.append(st.location)
    st.location = st.location_deck.pop(0)
    st.location_tokens = 0
    st.stats.locations += 1
    st.log("travel", st.location.id)
    # 2. terrain
    for r in st.rows:
        for side in SIDES:
            for t in r.spot(side).terrain:
                st.supply += t.tokens
                t.tokens = 0
                st.terrain_reserve.append(t)
            r.spot(side).terrain = []
    st.terrain_reserve.sort(key=lambda t: t.card)
    place_terrain(st, st.location.terrain)
    # 3. blip piles
    st.gs_discard.extend(st.left)
    st.gs_discard.extend(st.right)
    st.left, st.right = [], []
    fill_blips(st, st.location.blips)
    # 4. upon entering
    if st.location.trigger == "upon_entering":
        yield from run_effects_from(st, ("travel", phase, "effects"), st.location.effects, 0, st.location.id,
                                    st.current_player, {})
        st.merge_swarms()


# ------------------------------------------------------- genestealer attack
def genestealer_attack(st: Board) -> Flow:
    st.attack_queue = [sw for _, _, sw in st.swarms()]  # fixed order: top down, left before right
    yield from attacks_from(st, 0, None)


def attacks_from(st: Board, start: int, resumed: Flow | None) -> Flow:
    """The swarms of :attr:`Board.attack_queue` from the ``start``-th on attack.  ``resumed``:
    the ``start``-th swarm's attack taken up mid-way (a copy resumes there)."""
    queue = st.attack_queue
    for k in range(start, len(queue)):
        sw = queue[k]
        if k == start and resumed is not None:
            yield from resumed
            continue
        if not sw.cards or sw.attacked or sw.shielded:
            continue
        where = st.locate(sw)
        if where is None:
            continue
        row, side = where
        marine = st.rows[row].marine
        if marine is None:
            continue
        sw.attacked = True
        yield from combat.swarm_attacks(st, marine, row, side, sw, k, None)
    st.attack_queue = []


# ------------------------------------------------------------ event phase
def event_phase(st: Board) -> Flow:
    card_id = st.draw_event()
    st.event_current = card_id
    st.log("event", card_id)
    for r in st.rows:
        for side in SIDES:
            for sw in r.spot(side).swarms:
                for c in sw.cards:
                    c.moved = False
    yield from event_from(st, 0)


def event_from(st: Board, start: int, resume: tuple[Any, ...] | None = None) -> Flow:
    """The event card in play (:attr:`Board.event_current`) from its ``start``-th effect on,
    then the rest of the event phase.  The first question of an effect whose handler changes
    nothing before it (:data:`~cardkit.games.death_angel.support.RESTARTABLE`) is marked
    (:attr:`Board.at`): a copy taken there resumes here, running that effect again."""
    card_id = st.event_current or ""
    event, copy = _event(st, card_id)
    yield from run_effects_from(st, ("event_effect",), event.effects, start, event.id, st.current_player, {}, resume)
    yield from _event_end(st, None)


def _event_end(st: Board, resume: tuple[Any, ...] | None) -> Flow:
    """The event phase after the card's effects: its spawn boxes (``resume``: a copy takes them up
    at a question), the swarms' move, then the abilities timed for the end of the phase."""
    card_id = st.event_current or ""
    event, copy = _event(st, card_id)
    yield from spawn_boxes(st, (event, copy), False, ("spawn", "event", card_id), resume)
    move = event.moves[copy]
    if move is not None:
        move_swarms(st, move.type, move.icon)
    st.now.spawn_limits = {}
    yield from overwatch_from(st, 0, None)


def overwatch_from(st: Board, start: int, resume: tuple[Any, ...] | None) -> Flow:
    """The end of the event phase: the abilities in force timed for it (Overwatch), from the
    ``start``-th of :attr:`Board.active` on (``resume``: that one's place, a copy taking it up;
    its questions are marked ``("overwatch", k, ...)``), then the card is discarded."""
    card_id = st.event_current or ""
    active = list(st.active)
    for k in range(start, len(active)):
        card, eff, team = active[k]
        if eff.kind == "attack_for_support" and eff.get("timing") == "end_of_event_phase":
            yield from combat.attack_for_support(st, st.teams[team], eff, card, ("overwatch", k), resume)
            resume = None
    st.merge_swarms()
    st.event_discard.append(card_id)
    st.event_current = None
    yield from end_of_phase(st, "event")


def spawn_boxes(st: Board, event_and_copy, first_spawn: bool = False, where: tuple[Any, ...] = (),
                resume: tuple[Any, ...] | None = None) -> Flow:
    """The event card's spawn boxes.  A short pile's question (which terrain is served first) is
    marked ``where + (box, side, pile, the spots still to serve)``; ``resume``: such a suffix, a
    copy taking the spawn up there (the terrain does not move while Genestealers spawn)."""
    event, _ = event_and_copy
    setup = st.game.setup
    spawn = event.spawn
    for b in range(int(resume[0]) if resume else 0, len(spawn)):
        box = spawn[b]
        count = setup.major if box.severity == "major" else setup.minor
        targets = [(i, side, t) for i, r in enumerate(st.rows) for side in SIDES for t in r.spot(side).terrain
                   if t.colour == box.colour]
        by_side: dict[str, list] = {"left": [], "right": []}
        for i, side, t in targets:
            by_side[side].append((i, t))
        for side in SIDES:
            spots = by_side[side]
            pile_side = side
            if resume:
                if side != resume[1]:
                    continue  # (served before the question)
                pile_side = str(resume[2])
                keys = resume[3]
                spots = [x for x in spots if (x[0], x[1].card) in keys]
                resume = None
            elif st.game.rules.spawn_toward_larger_pile and len(st.pile(side)) < count * len(spots):
                pile_side = "left" if len(st.left) >= len(st.right) else "right"
            # a short pile: the current player picks which terrain is served first
            while spots:
                need = sum(min(count, st.now.spawn_limits.get(t, count)) for _, t in spots)
                if len(st.pile(pile_side)) >= need or len(spots) == 1:
                    for i, t in spots:
                        st.spawn_at(i, side, min(count, st.now.spawn_limits.get(t, count)), pile_side)
                    break
                st.at = where + (b, side, pile_side, tuple((i, t.card) for i, t in spots)) if where else None
                pick = yield from st.ask(st.current_player, K.SPAWN_FIRST,
                                         [Option("terrain", f"{i}:{t.card}") for i, t in spots])
                st.at = None
                row_text, tid = pick.value.split(":")
                first = next(x for x in spots if x[0] == int(row_text) and x[1].card == tid)
                st.spawn_at(first[0], side, min(count, st.now.spawn_limits.get(first[1], count)), pile_side)
                spots.remove(first)


def move_swarms(st: Board, kind: str, icon: str) -> None:
    moving = [(i, s, sw) for i, s, sw in st.swarms() if sw.has_icon(icon) and not any(c.moved for c in sw.cards)]
    n = len(st.rows)
    for i, side, sw in moving:
        spot = st.rows[i].spot(side)
        marine = st.rows[i].marine
        if kind == "adjacent":
            step = 1 if st.game.moves[side] == "down" else -1
            j = i + step
            if 0 <= j < n:
                spot.swarms.remove(sw)
                st.rows[j].spot(side).swarms.append(sw)
                st.log("move", i, side, j, side)
            else:
                _flank(st, i, side, sw, marine)
        else:
            _flank(st, i, side, sw, marine)
        for c in sw.cards:
            c.moved = True


def _flank(st: Board, i: int, side: str, sw: Swarm, marine: Marine | None) -> None:
    if marine is None:
        return
    rear = other(marine.facing)
    if side == rear:
        return
    st.rows[i].spot(side).swarms.remove(sw)
    st.rows[i].spot(rear).swarms.append(sw)
    st.log("flank", i, side, rear)

