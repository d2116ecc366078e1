"""Action resolution and combat: the base behaviour of Support, Move + Activate
and Attack cards, marine attacks, and the Genestealer attack on a marine.

Abilities that change combat are read from the effects of the action cards in
force this round (``State.active``) by kind and parameters; other abilities run
through :func:`cardkit.games.death_angel.support.run_effect`.
"""

from __future__ import annotations

from typing import Final

from cardkit.games.death_angel import kinds as K
from cardkit.games.death_angel.board import Board, Flow
from cardkit.games.death_angel.state import SIDES, Marine, Swarm, Team, TerrainCard
from cardkit.games.death_angel.support import FACING, run_effects_from, _active, _find_marine, _marine_option, _yes_no
from cardkit.games.death_angel.cards import Action
from cardkit.model import Effect
from cardkit.rules.core import Option


MOVE_STAY: Final = Option("move", "stay")
ACTIVATE_NONE: Final = Option("activate", "none")
SWARM_NONE: Final = Option("swarm", "none")


# -------------------------------------------------------------- the rules
def defence_kills(value: int, skull: bool, size: int, modifier: int, block: bool = False,
                  second_wind: bool = False) -> bool:
    """Does a defence roll of ``value`` (``skull``: the face shows one) kill the marine
    attacked by a swarm of ``size`` cards whose cards add ``modifier`` to the roll
    (:meth:`Swarm.defence_modifier`: -1 per Brood Lord)?  It does when the modified roll
    is at most the swarm's size (rulebook: "if the roll is higher than the number of
    Genestealer cards in the swarm, the attack fails"; each Brood Lord lowers it by 1),
    unless a Block-like ability (``block``) turns a skull into a miss or Second Wind
    saves a 0: both read the die as rolled.  The one home of this test: combat and
    every agent's risk model call it."""
    if block and skull:
        return False
    if second_wind and value == 0:
        return False
    return value + modifier <= size


# ------------------------------------------------------------------ actions
def resolve_action(st: Board, team: Team, action: Action) -> Flow:
    st.log("resolve", action.id)
    for eff in action.effects:
        st.active.append((action.id, eff, team.id))
    if action.type == "support":
        yield from support_action(st, team, action)
    elif action.type == "move_activate":
        yield from move_activate(st, team, action)
    else:
        yield from attack_action(st, team, action)
    yield from after_action(st, team, action)


def after_action(st: Board, team: Team, action: Action, start: int = 0, resume: tuple[object, ...] | None = None) -> Flow:
    """The end of an action card's resolution: its after-action abilities from the
    ``start``-th effect on.  The first question of an effect whose handler changes nothing
    before it is marked (:data:`~cardkit.games.death_angel.support.RESTARTABLE`): a copy taken
    there runs that effect again from its start."""
    if action.timing == "after_action":
        yield from run_effects_from(st, ("effect",), action.effects, start, action.id, team.player, {"team": team},
                                    resume)
    st.merge_swarms()


def support_action(st: Board, team: Team, action: Action) -> Flow:
    targets = st.marines()
    if st.supply and targets:
        st.at = ("support",)
        pick = yield from st.ask(team.player, K.SUPPORT, [_marine_option(m) for m in targets], card=action.id)
        st.at = None
        st.place_token(_find_marine(st, pick.value))
    else:
        st.stats.support_short += 1


# the places in an action card's resolution that a copy can take up (Board.at's first item)
RESUME_POINTS: Final = frozenset(("support", "enter_formation", "enter_support", "evasion", "activate_effect", "move_next", "move", "facing", "activate", "attack_next", "attack_again",
                                  "attack", "charge_ask", "charge", "charge_kill", "effect"))


def resumable(at: tuple[object, ...]) -> bool:
    """Can :func:`resume_action` take an action card's resolution up at the place ``at``?"""
    return at[0] in RESUME_POINTS


def portable(st: Board, at: tuple[object, ...]) -> tuple[object, ...]:
    """The place ``at`` with each swarm it names (an attack's target) given by where it lies
    on ``st`` (:func:`_pos`), so that a copy of ``st`` finds its own (:func:`_swarm_at`):
    marked cheaply, resolved only when a copy is taken."""
    return tuple(_pos(st, x) if isinstance(x, Swarm) else x for x in at)


def resume_action(st: Board, team: Team, action: Action, at: tuple[object, ...]) -> Flow:
    """The resolution of ``team``'s ``action`` taken up at the question ``at`` marks
    (:attr:`Board.at`, a copy's :meth:`~cardkit.games.death_angel.engine.State.fork`): the
    question is asked again and the resolution goes on as it would have."""
    where = at[0]
    if where == "support":
        yield from support_action(st, team, action)
    elif where == "enter_formation" or where == "enter_support":
        yield from move_activate(st, team, action, where)
    elif where == "evasion":
        yield from attack_action(st, team, action)
    elif where == "activate_effect":  # an effect of the terrain card a marine activated
        marines = _marines_of(st, at[1])
        k = int(str(at[2]))
        yield from _activated(st, team, action, marines[k], _terrain_card(st, str(at[3])), int(str(at[4])),
                              at[5:] or None, marines, k)
        yield from _activations(st, team, action, marines, k + 1)
    elif where == "move_next" or where == "move":
        remaining = _marines_of(st, at[1])
        pending = _any_marine(st, _id_of(at[2])) if where == "move" else None
        yield from _swaps(st, team, action, remaining, pending)
        yield from _facings(st, team, 0)
        yield from _activations(st, team, action)
    elif where == "facing":
        yield from _facings(st, team, int(str(at[1])))
        yield from _activations(st, team, action)
    elif where == "activate":
        yield from _activations(st, team, action, _marines_of(st, at[1]), int(str(at[2])))
    elif where == "attack_next":
        yield from _attackers(st, team, action, _marines_of(st, at[1]), None)
    elif where == "attack_again":
        series = (_any_marine(st, _id_of(at[2])), int(str(at[3])), int(str(at[4])), False)
        yield from _attackers(st, team, action, _marines_of(st, at[1]), series)
    elif where == "attack":  # a question of one of the series of attacks of a marine of the card
        remaining = _marines_of(st, at[1])
        m = _any_marine(st, _id_of(at[2]))
        attacks, done = int(str(at[3])), int(str(at[4]))
        made = yield from resume_attack(st, team, m, action, ("attack", remaining, m, attacks, done), at[5:])
        yield from _attackers(st, team, action, remaining, (m, attacks, done + 1, False) if made else None)
    elif where == "charge_ask":
        remaining = _marines_of(st, at[1])
        yield from _marine_attacks(st, team, action, remaining, _any_marine(st, _id_of(at[2])))
        yield from _attackers(st, team, action, remaining, None)
    elif where == "charge" or where == "charge_kill":
        remaining = _marines_of(st, at[1])
        m = _any_marine(st, _id_of(at[2]))
        charge = _charge_of(action, m)
        assert charge is not None
        kill_at = (int(str(at[4])), str(at[5])) if where == "charge_kill" else None
        yield from heroic_charge(st, team, m, charge, remaining, int(str(at[3])), kill_at)
        st.stats.fired[action.id] += 1
        yield from _attackers(st, team, action, remaining, None)
    elif where == "effect":
        yield from after_action(st, team, action, int(str(at[1])), at[2:] or None)
        return
    else:
        raise AssertionError(f"no resume point {where!r}")
    yield from after_action(st, team, action)


def _id_of(marine: object) -> str:
    assert isinstance(marine, Marine)
    return marine.id


def _marines_of(st: Board, marines: object) -> list[Marine]:
    """This board's marines with the ids of ``marines`` (another board's, a copy's source)."""
    assert isinstance(marines, list)
    return [_any_marine(st, _id_of(m)) for m in marines]


def _any_marine(st: Board, mid: str) -> Marine:
    """The marine ``mid``, in the formation or dead."""
    for m in st.marines() + st.dead:
        if m.id == mid:
            return m
    raise AssertionError(f"no marine {mid}")


def _next_marine(st: Board, player: int, remaining: list[Marine], step: str) -> Flow:
    """The player picks which marine of the team acts next (any order, rulebook)."""
    alive = [m for m in remaining if m.alive]
    if len(alive) <= 1:
        m = alive[0] if alive else remaining[0]
    else:
        pick = yield from st.ask(player, K.NEXT_MARINE, [_marine_option(x) for x in alive], step=step)
        m = next(x for x in alive if x.id == pick.value)
    remaining.remove(m)
    return m


def move_activate(st: Board, team: Team, action: Action, stage: str = "") -> Flow:
    """A Move + Activate card's resolution (``stage``: its Enter Formation question
    ``enter_formation`` or ``enter_support``, a copy taking it up there)."""
    player = team.player
    if stage or st.now.enter_formation:  # an event last round: a token before each Move + Activate card
        targets = st.marines()
        if stage or (st.supply and targets):
            give = True
            if stage != "enter_support":
                st.at = ("enter_formation",)
                give = yield from _yes_no(st, player, K.ENTER_FORMATION, card=action.id)
                st.at = None
            if give:
                st.at = ("enter_support",)
                pick = yield from st.ask(player, K.SUPPORT, [_marine_option(m) for m in targets], card="enter_formation")
                st.at = None
                st.place_token(_find_marine(st, pick.value))
                st.stats.fired["enter_formation"] += 1
    # A. move: each marine of the team may swap places once, in the order the player chooses
    yield from _swaps(st, team, action, list(st.team_marines(team.id)), None)
    # B. facing
    yield from _facings(st, team, 0)
    # C. activate one terrain card each marine faces (each card once per round)
    yield from _activations(st, team, action)


def _swaps(st: Board, team: Team, action: Action, remaining: list[Marine], pending: Marine | None) -> Flow:
    """Step A of Move + Activate: the ``remaining`` marines swap places (``pending``: the marine
    whose move question is asked first, when a copy resumes there)."""
    player = team.player
    free = any(e.kind == "free_swap" for e in action.effects)
    while remaining or pending is not None:
        if pending is None:
            st.at = ("move_next", remaining)  # (the live list: a copy reads it at once)
            m = yield from _next_marine(st, player, remaining, "move")
            st.at = None
        else:
            m, pending = pending, None
        if not m.alive:
            continue
        i = st.row_of(m)
        rows = st.rows
        near = range(len(rows)) if free else (i - 1, i + 1)
        options = [MOVE_STAY] + [Option("move", str(j)) for j in near
                                 if 0 <= j < len(rows) and j != i and rows[j].marine is not None]
        st.at = ("move", remaining, m)
        pick = yield from st.ask(player, K.MOVE, options, marine=m.id)
        st.at = None
        if pick.value != "stay":
            j = int(pick.value)
            st.rows[i].marine, st.rows[j].marine = st.rows[j].marine, st.rows[i].marine
            st.log("swap", m.id, i, j)
            if free and abs(j - i) > 1:
                st.stats.fired[action.id] += 1


def _facings(st: Board, team: Team, start: int) -> Flow:
    """Step B of Move + Activate: each marine of the team from the ``start``-th on may turn."""
    player = team.player
    marines = st.team_marines(team.id)
    for k in range(start, len(marines)):
        m = marines[k]
        st.at = ("facing", k)
        flip = yield from st.ask(player, K.FACING, FACING[m.facing], marine=m.id)
        st.at = None
        if flip.value != m.facing:
            m.facing = flip.value
            st.log("face", m.id, m.facing)


def _activations(st: Board, team: Team, action: Action, marines: list[Marine] | None = None, start: int = 0) -> Flow:
    """Step C of Move + Activate: each marine may activate one terrain card he faces
    (``marines``, ``start``: the team's marines as the step began, from the ``start``-th on,
    when a copy resumes there)."""
    player = team.player
    if marines is None:
        marines = list(st.team_marines(team.id))
    for k in range(start, len(marines)):
        m = marines[k]
        if not m.alive:
            continue
        i = st.row_of(m)
        cands = [t for t in st.rows[i].spot(m.facing).terrain if t.activatable and not t.used]
        if not cands:
            continue
        options = [ACTIVATE_NONE] + [Option("activate", t.card) for t in cands]
        st.at = ("activate", marines, k)
        pick = yield from st.ask(player, K.ACTIVATE, options, marine=m.id)
        st.at = None
        if pick.value == "none":
            continue
        t = next(t for t in cands if t.card == pick.value)
        t.used = True
        st.log("activate", m.id, t.card)
        yield from _activated(st, team, action, m, t, 0, None, marines, k)


def _activated(st: Board, team: Team, action: Action, m: Marine, t: TerrainCard, start: int,
               resume: tuple[object, ...] | None, marines: list[Marine], k: int) -> Flow:
    """The effects of the terrain card ``t`` that ``m`` (the ``k``-th of ``marines``) activated,
    from the ``start``-th on (``resume``: that one's handler's own place, in a copy)."""
    terrain = st.game.terrain[t.card]
    yield from run_effects_from(st, ("activate_effect", marines, k, t.card), terrain.effects, start, t.card, team.player,
                                {"team": team, "marine": m, "terrain": t, "action": action}, resume)
    if terrain.effects:  # a card whose ability is switched off (card impact) is activated to no effect
        st.stats.fired[t.card] += 1


def _terrain_card(st: Board, card: str) -> TerrainCard:
    """The terrain card ``card`` (one of each), in the formation or in the reserve."""
    for r in st.rows:
        for side in SIDES:
            for t in r.spot(side).terrain:
                if t.card == card:
                    return t
    return next(t for t in st.terrain_reserve if t.card == card)


# -------------------------------------------------------------------- combat
def in_reach(st: Board, m: Marine, row: int | None = None, facing: str | None = None) -> list[tuple[int, str, Swarm]]:
    """Swarms a marine may attack: on the side he faces, within his range.
    ``row`` and ``facing`` ask the same for another position or facing (what-ifs)."""
    i = st.row_of(m) if row is None else row
    rows, side, reach = st.rows, m.facing if facing is None else facing, m.range
    out = []
    for j in range(max(0, i - reach), min(len(rows), i + reach + 1)):
        for sw in rows[j].spot(side).swarms:
            if sw.cards:
                out.append((j, side, sw))
    return out


def shootable(st: Board, m: Marine, row: int | None = None, facing: str | None = None) -> list[tuple[int, str, Swarm]]:
    """The swarms in reach that an attack can hurt (a Power Field swarm cannot be killed)."""
    return [t for t in in_reach(st, m, row, facing) if not t[2].shielded]


def swarms_near(st: Board, row: int, reach: int) -> list[tuple[int, str, Swarm]]:
    """Killable swarms on either side within ``reach`` positions of ``row`` (Heroic Charge)."""
    return [(j, s, sw) for j in range(max(0, row - reach), min(len(st.rows), row + reach + 1))
            for s in SIDES for sw in st.rows[j].spot(s).swarms if st.killable(sw)]


def attack_action(st: Board, team: Team, action: Action) -> Flow:
    marines = [m for m in st.team_marines(team.id)]
    if st.now.evasion and len(marines) > 1:  # Evasion: only one marine of the team attacks this round
        st.at = ("evasion",)  # (its question comes first: a copy resolves the card again)
        pick = yield from st.ask(team.player, K.EVASION_ATTACKER, [_marine_option(m) for m in marines], card=action.id)
        st.at = None
        marines = [_find_marine(st, pick.value)]
        st.stats.fired["evasion"] += 1
    yield from _attackers(st, team, action, list(marines), None)


def _attackers(st: Board, team: Team, action: Action, remaining: list[Marine],
               pending: tuple[Marine, int, int, bool] | None) -> Flow:
    """The ``remaining`` marines of an Attack card attack, in the order the player chooses.
    ``pending`` (a copy resumes there): the marine whose series of attacks is taken up first,
    with its number of attacks, the attacks made and whether its target question comes first."""
    while remaining or pending is not None:
        if pending is None:
            st.at = ("attack_next", remaining)
            m = yield from _next_marine(st, team.player, remaining, "attack")
            st.at = None
            if not m.alive:
                continue
            yield from _marine_attacks(st, team, action, remaining, m)
        else:
            m, attacks, done, at_target = pending
            pending = None
            yield from _attack_series(st, team, action, remaining, m, attacks, done, at_target)


def _charge_of(action: Action, m: Marine) -> Effect | None:
    return next((e for e in action.effects if e.kind == "heroic_charge" and e.get("marine") == m.id), None)


def _marine_attacks(st: Board, team: Team, action: Action, remaining: list[Marine], m: Marine) -> Flow:
    """The attacks of ``m``, the marine of an Attack card picked next (or its Heroic Charge)."""
    # Heroic Charge: instead of attacking
    charge = _charge_of(action, m)
    if charge is not None:
        if swarms_near(st, st.row_of(m), int(charge.get("reach", 1))):
            st.at = ("charge_ask", remaining, m)
            go = yield from _yes_no(st, team.player, K.HEROIC_CHARGE, marine=m.id)
            st.at = None
            if go:
                yield from heroic_charge(st, team, m, charge, remaining, 0, None)
                st.stats.fired[action.id] += 1
                return
    attacks = 1
    multi = next((e for e in action.effects if e.kind == "multi_attack" and e.get("marine") == m.id), None)
    if multi is not None:
        attacks = int(multi.get("attacks", 3))
    yield from _attack_series(st, team, action, remaining, m, attacks, 0, False)


def _attack_series(st: Board, team: Team, action: Action, remaining: list[Marine], m: Marine, attacks: int,
                   done: int, at_target: bool) -> Flow:
    """``m``'s attacks of an Attack card from the ``done``-th on (``at_target``: that attack's
    target question comes first, the question whether to attack again being answered)."""
    while done < attacks and m.alive:
        if done >= 1 and not at_target:
            st.at = ("attack_again", remaining, m, attacks, done)
            more = yield from _yes_no(st, team.player, K.ATTACK_AGAIN, marine=m.id)
            st.at = None
            if not more:
                break
            st.stats.fired[action.id] += 1
        at_target = False
        made = yield from marine_attack(st, team, m, action, place=("attack", remaining, m, attacks, done))
        if not made:
            break
        done += 1


def heroic_charge(st: Board, team: Team, m: Marine, eff: Effect, remaining: list[Marine], start: int,
                  kill_at: tuple[int, str] | None) -> Flow:
    """``m``'s Heroic Charge from its ``start``-th kill on (``kill_at``: that kill's swarm is
    picked already, at this row and side; ``remaining``: the card's marines still to act, for
    the places a copy resumes at)."""
    reach = int(eff.get("reach", 1))
    for n in range(start, int(eff.get("kills", 3))):
        near = swarms_near(st, st.row_of(m), reach)
        if not near:
            break
        if kill_at is None:
            st.at = ("charge", remaining, m, n)
            picked = yield from st.pick_swarm(team.player, K.CHARGE_TARGET, near, optional=True)
            st.at = None
            if picked is None:
                break
            k_row, k_side, k_swarm = picked
        else:
            k_row, k_side = kill_at
            kill_at = None
            k_swarm = next(t[2] for t in near if t[0] == k_row and t[1] == k_side)
        st.at = ("charge_kill", remaining, m, n, k_row, k_side)
        yield from st.choose_kill(team.player, k_row, k_side, k_swarm)
        st.at = None
        _lead_by_example_hook(st, team)
    value, _ = st.roll()  # not an attack roll: support cannot re-roll it
    if value in tuple(eff.get("death_faces", (0,))):
        st.marine_dies(m, "heroic_charge")


def marine_attack(st: Board, team: Team, m: Marine, action: Action | None, source: str = "attack",
                  place: tuple[object, ...] | None = None,
                  rolled: tuple[Swarm | None, int, bool, str, int] | None = None) -> Flow:
    """One attack by ``m``: pick a swarm in reach, roll, apply kills.  Returns False when
    there was nothing to attack.  ``place``: where in the rules the attack is (what made it),
    which its questions extend in :attr:`Board.at` for a copy to resume there
    (:func:`resume_attack`): ``("target", source)``, the target; ``("roll", source, value,
    skull, swarm, stage, n)``, a question after the roll.  ``rolled``: a copy takes the attack
    up after its roll, at (swarm, value, skull, stage, n): ``reroll`` (the re-roll questions,
    then the kills), ``kill`` (``n`` kills still to make), ``lead_give``/``lead_support`` (the
    ``n``-th support-on-kill ability's questions).  (One generator: attacks are the hot path.)"""
    if rolled is None:
        targets = shootable(st, m)
        if not targets:
            return False
        options = [Option("swarm", f"{j}:{s}:{k}") for k, (j, s, _) in enumerate(targets)] + [SWARM_NONE]
        st.at = None if place is None else place + ("target", source)
        pick = yield from st.ask(team.player, K.ATTACK_TARGET, options, marine=m.id, source=source)
        st.at = None
        if pick.value == "none":
            return False
        k = int(pick.value.split(":")[2])
        sw: Swarm | None = targets[k][2]
        value, skull = st.roll()
        stage, n = "reroll", 0
    else:
        sw, value, skull, stage, n = rolled
    if stage == "reroll":
        # re-roll with support tokens (attacks always face their target)
        while m.tokens:
            if place is not None:
                st.at = place + ("roll", source, value, skull, sw, "reroll", 0)
            again = yield from _yes_no(st, team.player, K.REROLL_ATTACK, marine=m.id, value=value)
            st.at = None
            if not again:
                break
            st.spend_token(m)
            value, skull = st.roll()
        effects = [e for card, e, t in st.active if t == team.id]
        kills = 0
        flamer = next((e for e in effects if e.kind == "attack_kills_face_value" and e.get("marine") == m.id), None)
        dead_aim = next((e for e in effects if e.kind == "attack_face_kills" and e.get("face") == value), None)
        if flamer is not None:
            kills = value
            if kills:
                st.stats.fired[_card_of(st, flamer)] += 1
        elif dead_aim is not None:
            kills = int(dead_aim.get("kills", 3))
            st.stats.fired[_card_of(st, dead_aim)] += 1
        elif skull:
            kills = 1
        stage, n = "kill", kills
    if stage == "kill":
        assert sw is not None
        for left in range(n, 0, -1):
            where = st.locate(sw)
            if where is None or not st.killable(sw):
                break
            k_row, k_side = where
            if place is not None:
                st.at = place + ("roll", source, value, skull, sw, "kill", left)
            yield from st.choose_kill(team.player, k_row, k_side, sw)
            st.at = None
            _lead_by_example_hook(st, team)
        stage, n = "", 0
    yield from _lead_by_example(st, team, n, stage,
                                None if place is None else place + ("roll", source, value, skull, None))
    st.check_victory()  # a board cleared at the final location wins at once, before any further attack
    psionic = next((e for card, e, t in st.active
                    if t == team.id and e.kind == "extra_attack_per_skull" and e.get("marine") == m.id), None)
    if psionic is not None and skull and m.alive:
        st.stats.fired[_card_of(st, psionic)] += 1
        yield from marine_attack(st, team, m, action, source="psionic", place=None if place is None else place + ("psionic",))
    return True


def resume_attack(st: Board, team: Team, m: Marine, action: Action | None, place: tuple[object, ...],
                  rest: tuple[object, ...]) -> Flow:
    """``m``'s attack whose questions are marked ``place + rest`` (:func:`marine_attack`) taken up
    at that question, in a copy: ``("target", source)``, its target; ``("roll", source, value,
    skull, swarm, stage, n)``, a question after its roll (:func:`marine_attack`); ``("psionic",
    ...)``, the extra attack its skull gave.  Returns what :func:`marine_attack` returns."""
    what = rest[0]
    if what == "psionic":
        yield from resume_attack(st, team, m, action, place + ("psionic",), rest[1:])
        return True
    if what == "target":
        made = yield from marine_attack(st, team, m, action, source=str(rest[1]), place=place)
        return made
    _, source, value, skull, pos, stage, n = rest
    made = yield from marine_attack(st, team, m, action, str(source), place,
                                    (_swarm_at(st, pos), int(str(value)), bool(skull), str(stage), int(str(n))))
    return made


def _swarm_at(st: Board, pos: object) -> Swarm | None:
    """The swarm at ``pos`` (:func:`_pos`), or None for an empty position."""
    if not isinstance(pos, tuple) or not pos:
        return None
    return st.rows[int(str(pos[0]))].spot(str(pos[1])).swarms[int(str(pos[2]))]


def _pos(st: Board, sw: Swarm | None) -> tuple[object, ...]:
    """Where ``sw`` lies, as (row, side, index among the spot's swarms), for a copy to find its own."""
    if sw is None:
        return ()
    where = st.locate(sw)
    if where is None:
        return ()
    row, side = where
    return (row, side, st.rows[row].spot(side).swarms.index(sw))


def _card_of(st: Board, eff: Effect) -> str:
    for card, e, _ in st.active:
        if e is eff:
            return card
    return "?"


def _lead_by_example_hook(st: Board, team: Team) -> None:
    """A team marine killed a Genestealer: an unused support-on-kill ability becomes due."""
    for card, _eff, _t in _active(st, "support_on_kill", team.id):
        if card not in st.lead_used:
            st.lead_pending.add(card)


def _lead_by_example(st: Board, team: Team, start: int = 0, stage: str = "",
                     mark: tuple[object, ...] | None = None) -> Flow:
    """The support-on-kill abilities due after an attack, from the ``start``-th of the team's
    on (``stage``: that one's question ``lead_give`` or ``lead_support`` is taken up, its
    bookkeeping done; ``mark``: the attack's place, to mark the questions for a copy)."""
    cards = list(_active(st, "support_on_kill", team.id))
    for j in range(start, len(cards)):
        card, eff, _t = cards[j]
        if not stage:
            if card not in st.lead_pending or card in st.lead_used:
                continue
            st.lead_pending.discard(card)
            st.lead_used.add(card)
            if not st.supply:
                continue
            stage = "lead_give"
        if stage == "lead_give":
            if mark is not None:
                st.at = mark + ("lead_give", j)
            give = yield from _yes_no(st, team.player, K.LEAD_BY_EXAMPLE, card=card)
            st.at = None
            stage = "lead_support" if give else ""
        if stage == "lead_support":
            if mark is not None:
                st.at = mark + ("lead_support", j)
            pick = yield from st.ask(team.player, K.SUPPORT, [_marine_option(m) for m in st.marines()], card=card)
            st.at = None
            st.place_token(_find_marine(st, pick.value), int(eff.get("tokens", 1)))
            st.stats.fired[card] += 1
        stage = ""


def swarm_attacks(st: Board, m: Marine, row: int, side: str, sw: Swarm, k: int,
                  rolled: tuple[int, bool, bool] | None, stage: str = "reroll", n: int = 0) -> Flow:
    """A swarm, the ``k``-th of :attr:`Board.attack_queue`, attacks the marine it is engaged
    with (the defence roll).  ``rolled``: a copy resumes at a question after the defence die
    shows (value, skull) and was re-rolled before (or not): whether to re-roll it
    (``stage`` ``reroll``), to use the Artefact (``artefact``), or a counterattack's kill
    (``counter``, ``n`` kills still to make)."""
    team = st.teams[m.team]
    player = team.player
    while sw.cards and m.alive:
        if rolled is None:
            value, skull = st.roll()
            rerolled = False
            stage = "reroll"
        else:
            value, skull, rerolled = rolled
            rolled = None
        effects = [(card, e) for card, e, t in st.active if t == m.team]
        if stage == "reroll":
            facing = m.facing == side
            while m.tokens and facing:
                st.at = ("defence", k, row, side, m.id, value, skull, rerolled)
                again = yield from _yes_no(st, player, K.REROLL_DEFENCE, marine=m.id, value=value, swarm=len(sw))
                st.at = None
                if not again:
                    break
                st.spend_token(m)
                value, skull = st.roll()
                rerolled = True
            miss = False
            counter = False
            for card, e in effects:
                if e.kind == "defence_skull_cancels" and e.get("marine") == m.id and skull:
                    miss = True
                    st.stats.fired[card] += 1
                elif e.kind == "defence_skull_counterattack" and e.get("marine") == m.id and skull:
                    miss = counter = True
                    st.stats.fired[card] += 1
                elif e.kind == "reroll_defence_saves" and rerolled:
                    if value in tuple(e.get("fail_faces", (0,))):
                        pass
                    else:
                        miss = True
                        st.stats.fired[card] += 1
            if not miss and m.id in st.now.second_wind and value == 0:
                miss = True
                st.stats.fired["second_wind"] += 1
            survive = miss or not defence_kills(value, skull, len(sw), sw.defence_modifier())
            stage = "artefact" if not survive and st.artefact_team == m.team else ""
        else:
            survive, counter = stage == "counter", stage == "counter"
        if stage == "artefact":
            st.at = ("defence", k, row, side, m.id, value, skull, rerolled, "artefact", 0)
            use = yield from _yes_no(st, player, K.ARTEFACT, marine=m.id)
            st.at = None
            if use:
                st.artefact_team = None
                artefact = next(t for t in st.game.terrain.values() if any(e.kind == "artefact" for e in t.effects))
                st.terrain_reserve.append(TerrainCard(artefact.id, artefact.colour, artefact.activatable))
                survive = True
                st.stats.fired[artefact.id] += 1
        if stage != "counter":
            st.log("defend", m.id, value, "miss" if survive else "hit")
            if not survive:
                st.marine_dies(m, "swarm")
                return
            if not counter:
                return
        kill = next(e for c, e in effects if e.kind == "defence_skull_counterattack")
        for left in range(n if stage == "counter" else int(kill.get("kills", 1)), 0, -1):
            where = st.locate(sw)
            if where is None or not st.killable(sw):
                break
            k_row, k_side = where
            st.at = ("defence", k, row, side, m.id, value, skull, rerolled, "counter", left)
            yield from st.choose_kill(player, k_row, k_side, sw)
            st.at = None
        stage = ""
        if not kill.get("swarm_attacks_again", True):
            return


def attack_for_support(st: Board, team: Team, eff: Effect, card: str, base: tuple[object, ...] | None = None,
                       resume: tuple[object, ...] | None = None) -> Flow:
    """Each marine of ``team`` in turn may pay support for extra attacks (Overwatch and the like).
    ``base``: the place of this ability in the rules, which its questions extend for a copy
    (``(marine ids, k, "ask")``: the ``k``-th marine's question; ``(ids, k, "attack", a, ...)``:
    a question of his ``a``-th attack); ``resume``: such a place to take it up at."""
    cost = int(eff.get("cost", 1))
    if resume is None:
        ids: tuple[object, ...] = tuple(m.id for m in st.team_marines(team.id))
        start: int = 0
        rest: tuple[object, ...] = ()
    else:
        ids, start, rest = tuple(resume[0]) if isinstance(resume[0], tuple) else (), int(str(resume[1])), resume[2:]
    marines = [_any_marine(st, str(mid)) for mid in ids]
    attacks = int(eff.get("attacks", 1))
    for k in range(start, len(marines)):
        m = marines[k]
        first = 0
        inner: tuple[object, ...] = ()
        if rest and rest[0] == "attack":  # (a copy at one of his attacks' questions)
            first, inner = int(str(rest[1])), rest[2:]
        else:
            if not rest and (not m.alive or m.tokens < cost or not shootable(st, m)):
                continue
            st.at = None if base is None else base + (ids, k, "ask")
            go = yield from _yes_no(st, team.player, K.EXTRA_ATTACK, marine=m.id, card=card)
            st.at = None
            if not go:
                rest = ()
                continue
            for _ in range(cost):
                st.spend_token(m)
            st.stats.fired[card] += 1
        rest = ()
        for a in range(first, attacks):
            place = None if base is None else base + (ids, k, "attack", a)
            if inner:
                assert place is not None
                yield from resume_attack(st, team, m, None, place, inner)
                inner = ()
            else:
                yield from marine_attack(st, team, m, None, source=card, place=place)


