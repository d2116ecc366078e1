"""One handler per effect kind.

The card data names an effect ``kind`` with parameters; :data:`HANDLERS` maps
each kind of :mod:`cardkit.games.death_angel.vocabulary` to exactly one function here (a generator
when it asks the players something).  A changed number in a card file changes
the game.  The registry and :func:`~cardkit.games.death_angel.support.run_effect`,
which runs an effect by its kind, live in ``support`` (below combat and these
handlers both, so that either calls it directly).
"""

from __future__ import annotations

from typing import Any, Callable

from cardkit.games.death_angel.vocabulary import EFFECTS
from cardkit.games.death_angel import kinds as K
from cardkit.games.death_angel.board import Board, Flow
from cardkit.games.death_angel.combat import _any_marine, attack_for_support, in_reach, marine_attack, resume_attack
from cardkit.games.death_angel.state import SIDES, Marine, Swarm, other
from cardkit.games.death_angel.support import (HANDLERS, Handler, _active, _find_marine, _marine_option, _yes_no, mark,
                                               run_effect, run_effects_from)
from cardkit.model import Effect
from cardkit.rules.core import DecisionKind, Option



# -------------------------------------------------------- effect handlers
def handler(kind: str) -> Callable[[Handler], Handler]:
    def deco(fn: Handler) -> Handler:
        assert kind in EFFECTS, kind
        HANDLERS[kind] = fn
        return fn
    return deco


def _passive(*kinds: str) -> None:
    """Kinds whose work happens inside combat or movement (looked up from ``st.active``)."""
    for kind in kinds:
        def noop(st: Board, eff: Effect, source: str, player: int, **ctx: Any) -> bool:
            return False
        HANDLERS[kind] = noop


_passive("defence_skull_cancels", "reroll_defence_saves", "defence_skull_counterattack", "door_bonus_token",
         "free_swap", "support_on_kill", "attack_kills_face_value", "extra_attack_per_skull", "attack_face_kills",
         "multi_attack", "heroic_charge")
# A Genestealer card's own abilities, in force while it is in a swarm: read from each card in play
# (``GS.defence``, ``GS.last``) by the defence roll and by ``Board.killable``.
_passive("defence_modifier", "killed_last")


def _targets(st: Board, target: str, ctx: dict[str, Any]) -> list[Marine]:
    ms = st.marines()
    if target == "chosen_marine":
        return ms
    if target == "chosen_marine_with_support":
        return [m for m in ms if m.tokens]
    if target == "chosen_marine_without_support":
        return [m for m in ms if not m.tokens]
    if target == "each_engaged_marine":
        return [m for m in ms if _engaged(st, m)]
    if target == "each_unengaged_marine":
        return [m for m in ms if not _engaged(st, m)]
    if target == "all_marines":
        return ms
    if target == "top_marine":
        return ms[:1]
    if target == "activating_marine":
        return [ctx["marine"]] if ctx.get("marine") is not None and ctx["marine"].alive else []
    raise AssertionError(target)


def _engaged(st: Board, m: Marine) -> bool:
    i = st.row_of(m)
    return any(st.rows[i].spot(s).count() for s in SIDES)


def _one(st: Board, player: int, target: str, ctx: dict[str, Any], weigh: Callable[[Marine], int] | None = None,
         kind: DecisionKind = K.TARGET, effect: str = "") -> Flow:
    """Pick one marine for a 'chosen' target; the choice must make the effect as
    strong as possible (rulebook), so only the best-scoring marines are offered."""
    cands = _targets(st, target, ctx)
    if not cands:
        return None
    if weigh is not None:
        best = max(weigh(m) for m in cands)
        cands = [m for m in cands if weigh(m) == best]
    pick = yield from st.ask(player, kind, [_marine_option(m) for m in cands], effect=effect or ctx.get("effect", ""))
    return _find_marine(st, pick.value)


@handler("attack_for_support")
def h_attack_for_support(st: Board, eff: Effect, source: str, player: int, team=None, resume=None, **ctx):
    if eff.get("timing") != "after_action":
        return False  # Overwatch fires at the end of the event phase (phases.event_phase)
    yield from attack_for_support(st, team, eff, source, mark(st), resume)


def strategize_moves(st: Board, eff: Effect | None) -> list[tuple[int, int, str]]:
    """The swarm moves a Strategize-like effect allows, as (swarm index in
    :meth:`Board.swarms`, row, side), in the order they are offered: up to
    ``max_positions`` positions up or down, switching sides when
    ``may_switch_side`` (no effect: one position, either side).  The one home
    of these moves: the handler offers them, agents weigh them."""
    reach = int(eff.get("max_positions", 1)) if eff is not None else 1
    switch = bool(eff.get("may_switch_side")) if eff is not None else True
    n = len(st.rows)
    moves: list[tuple[int, int, str]] = []
    for k, (i, s, _) in enumerate(st.swarms()):
        for d in range(-reach, reach + 1):
            for side in ((s, other(s)) if switch else (s,)):
                j = i + d
                if 0 <= j < n and (d != 0 or side != s):
                    moves.append((k, j, side))
    return moves


@handler("move_swarm")
def h_move_swarm(st: Board, eff: Effect, source: str, player: int, **ctx):
    swarms = st.swarms()
    if not swarms:
        return False
    options = [Option("shift", "none")] + [Option("shift", f"{k}:{j}:{side}") for k, j, side in strategize_moves(st, eff)]
    pick = yield from st.ask(player, K.STRATEGIZE, options)
    if pick.value == "none":
        return False
    k_text, j_text, side = pick.value.split(":")
    i, s, sw = swarms[int(k_text)]
    st.rows[i].spot(s).swarms.remove(sw)
    st.rows[int(j_text)].spot(side).swarms.append(sw)  # merges when the card has resolved
    st.log("strategize", i, s, int(j_text), side)


@handler("shield_swarm")
def h_shield(st: Board, eff: Effect, source: str, player: int, **ctx):
    swarms = st.swarms()
    if not swarms:
        return False
    i, s, _ = yield from st.pick_swarm(player, K.POWER_FIELD, swarms)
    for sw in st.rows[i].spot(s).swarms:
        sw.shielded = True


@handler("discard_from_blips")
def h_stealth(st: Board, eff: Effect, source: str, player: int, team=None, resume=None, **ctx):
    if resume is None:
        piles = [s for s in SIDES if st.pile(s)]
        if not piles:
            return False
        pick = yield from st.ask(player, K.BLIP_DISCARD, [Option("pile", s) for s in piles] + [Option("pile", "none")])
        if pick.value == "none":
            return False
        for _ in range(int(eff.get("free", 1))):
            if st.pile(pick.value):
                st.gs_discard.append(st.pile(pick.value).pop())
        rest = other(pick.value)
        stage = ""
    else:  # a copy takes the paid discard up: (stage, the other pile)
        stage, rest = resume
    payers = [m for m in st.team_marines(team.id) if m.tokens >= int(eff.get("cost", 1))] if team else []
    if stage or (st.pile(rest) and payers and int(eff.get("paid", 1))):
        go = True
        if stage != "payer":
            st.at = mark(st, "paid", rest)
            go = yield from _yes_no(st, player, K.BLIP_DISCARD_PAID)
            st.at = None
        if go:
            st.at = mark(st, "payer", rest)
            pay = yield from st.ask(player, K.PAYER, [_marine_option(m) for m in payers])
            st.at = None
            m = _find_marine(st, pay.value)
            for _ in range(int(eff.get("cost", 1))):
                st.spend_token(m)
            for _ in range(int(eff.get("paid", 1))):
                if st.pile(rest):
                    st.gs_discard.append(st.pile(rest).pop())


@handler("scout_event_deck")
def h_scout(st: Board, eff: Effect, source: str, player: int, **ctx):
    if not st.event_deck and st.event_discard:
        st.event_deck = st.event_discard
        st.event_discard = []
        st.rng.shuffle(st.event_deck, "event_deck")
        st.scouted = set()
    if not st.event_deck:
        return False
    top = st.event_deck[-1]
    st.scouted.add(top)  # the player has seen it, on top or at the bottom
    pick = yield from st.ask(player, K.SCOUT, [Option("event", "top"), Option("event", "bottom")], card=top)
    if pick.value == "bottom":
        st.event_deck.insert(0, st.event_deck.pop())


def _smaller_pile(st: Board, player: int) -> Flow:
    if len(st.left) == len(st.right):
        pick = yield from st.ask(player, K.PILE, [Option("pile", "left"), Option("pile", "right")])
        return pick.value
    return "left" if len(st.left) < len(st.right) else "right"


@handler("roll_return_engaged")
def h_intimidation(st: Board, eff: Effect, source: str, player: int, team=None, resume=None, **ctx):
    if resume is None:
        engaged = st.engaged_with(team.id)  # a Power Field swarm too: going back to a blip pile is not a kill
        if not engaged:
            return False
        go = yield from _yes_no(st, player, K.INTIMIDATION)
        if not go:
            return False
        value, _ = st.roll()
        stage, pile_side, start = "pile", "", 0
    else:  # a copy takes it up: (stage, the roll, the pile, the cards returned so far)
        stage, value, pile_side, start = resume
    if stage == "pile":
        st.at = mark(st, "pile", value, "", 0)
        pile_side = yield from _smaller_pile(st, player)
        st.at = None
    pile = st.pile(pile_side)
    for n in range(start, value):
        engaged = [t for t in st.engaged_with(team.id)
                   if any(not c.brood_lord for c in t[2].cards)]  # Brood Lords never go into a blip pile
        if not engaged:
            break
        st.at = mark(st, "return", value, pile_side, n)
        picked = yield from st.pick_swarm(player, K.RETURN, engaged, optional=True)
        st.at = None
        if picked is None:
            break
        sw = picked[2]
        gs = next(c for c in sw.cards if not c.brood_lord)
        sw.cards.remove(gs)
        pile.append(gs)
    st.rng.shuffle(pile, f"blips_{pile_side}")
    st._prune()


@handler("gather_at_marine")
def h_surrounded(st: Board, eff: Effect, source: str, player: int, **ctx):
    m = yield from _one(st, player, eff.get("target"), ctx, weigh=lambda m: st.gs_in_formation() - sum(
        st.spot_count(st.row_of(m), s) for s in SIDES))
    if m is None:
        return False
    i = st.row_of(m)
    for j, s, sw in st.swarms():
        if j != i:
            st.rows[j].spot(s).swarms.remove(sw)
            st.rows[i].spot(s).swarms.append(sw)


@handler("swarms_to_rear")
def h_flanking(st: Board, eff: Effect, source: str, player: int, **ctx):
    for i, s, sw in st.swarms():
        m = st.rows[i].marine
        if m is not None and s == m.facing:
            st.rows[i].spot(s).swarms.remove(sw)
            st.rows[i].spot(other(s)).swarms.append(sw)


@handler("spawn_at_marine")
def h_spawn_at_marine(st: Board, eff: Effect, source: str, player: int, **ctx):
    count = int(eff.get("count", 1))
    rel = eff.get("side", "rear")

    def side_of(m: Marine) -> str:
        return m.facing if rel == "front" else other(m.facing)

    target = eff.get("target")
    if target.startswith("chosen"):
        m = yield from _one(st, player, target, ctx, weigh=lambda m: min(count, len(st.pile(side_of(m)))))
        marines = [m] if m is not None else []
    else:
        marines = _targets(st, target, ctx)
    n = 0
    for m in marines:
        n += st.spawn_at(st.row_of(m), side_of(m), count)
    return n > 0 or None


@handler("add_to_blips")
def h_add_to_blips(st: Board, eff: Effect, source: str, player: int, **ctx):
    count = int(eff.get("count", 1)) * (len(st.marines()) if eff.get("per_marine") else 1)
    for _ in range(count):
        for side in SIDES:
            gs = st.draw_gs()
            if gs is not None:
                st.pile(side).append(gs)


@handler("roll_or_die")
def h_roll_or_die(st: Board, eff: Effect, source: str, player: int, **ctx):
    m = yield from _one(st, player, eff.get("target"), ctx)
    if m is None:
        return False
    value, _ = st.roll()
    if value in tuple(eff.get("death_faces", (0,))):
        st.marine_dies(m, source)


@handler("limit_team_attackers")
def h_evasion(st: Board, eff: Effect, source: str, player: int, **ctx):
    st.next.evasion = True


@handler("lose_support")
def h_lose_support(st: Board, eff: Effect, source: str, player: int, **ctx):
    target = eff.get("target")
    if target.startswith("chosen"):
        m = yield from _one(st, player, target, ctx, weigh=lambda m: m.tokens)
        marines = [m] if m is not None else []
    else:
        marines = _targets(st, target, ctx)
    lost = 0
    for m in marines:
        lost += m.tokens
        st.supply += m.tokens
        m.tokens = 0
    return lost > 0 or None


@handler("flip_facing")
def h_flip(st: Board, eff: Effect, source: str, player: int, **ctx):
    for m in _targets(st, eff.get("target"), ctx):
        m.facing = other(m.facing)


@handler("gather_support")
def h_resupply(st: Board, eff: Effect, source: str, player: int, **ctx):
    m = yield from _one(st, player, eff.get("target"), ctx)
    if m is None:
        return False
    for o in st.marines():
        if o is not m:
            m.tokens += o.tokens
            o.tokens = 0


@handler("forbid_action_type")
def h_gun_jam(st: Board, eff: Effect, source: str, player: int, **ctx):
    typ = eff.get("action_type")
    teams = [t for t in st.teams.values() if not t.removed and t.chosen and st.game.actions[t.chosen].type != typ]
    if not teams:
        return False
    pick = yield from st.ask(player, K.TEAM_TARGET, [Option("team", t.id) for t in teams])
    st.teams[pick.value].forbidden_next.add(typ)


def _engaged_kill(st: Board, player: int, m: Marine, place: tuple[Any, ...] | None = None,
                  resume: tuple[Any, ...] = ()) -> Flow:
    """Kill a Genestealer engaged with ``m``: the player picks the swarm, then the card.  Its
    questions are marked ``place + ("swarm",)`` and ``place + ("kill", k)`` (the ``k``-th
    swarm picked) when ``place`` is given; ``resume``: such a suffix, a copy taking it up."""
    i = st.row_of(m)
    swarms = [(s, sw) for s in SIDES for sw in st.rows[i].spot(s).swarms if st.killable(sw)]
    if not swarms:
        return False
    if resume and resume[0] == "kill":
        k = int(resume[1])
    else:
        st.at = None if place is None else place + ("swarm",)
        pick = yield from st.ask(player, K.KILL_SWARM, [Option("swarm", f"{i}:{s}:{k}") for k, (s, _) in enumerate(swarms)])
        st.at = None
        k = int(pick.value.split(":")[2])
    s, sw = swarms[k]
    st.at = None if place is None else place + ("kill", k)
    yield from st.choose_kill(player, i, s, sw)
    st.at = None
    return True


@handler("trade_support_for_kill")
def h_battle_brothers(st: Board, eff: Effect, source: str, player: int, resume=None, **ctx):
    # resume: ("target",) its first question, or (the marine, the kill, the kill's own place)
    inner: tuple[Any, ...] = ()  # (declared: compiled, a local's type is that of its first value)
    if resume is None or resume[0] == "target":
        st.at = mark(st, "target")
        m = yield from _one(st, player, eff.get("target"), ctx, weigh=lambda m: int(_engaged(st, m)))
        st.at = None
        if m is None:
            return False
        for _ in range(min(int(eff.get("tokens", 1)), m.tokens)):
            st.spend_token(m)
        start, inner = 0, ()
    else:
        m, start, inner = _any_marine(st, resume[0]), int(resume[1]), resume[2:]
    for n in range(start, int(eff.get("kills", 1))):
        if m.alive:
            yield from _engaged_kill(st, player, m, mark(st, m.id, n), inner)
        inner = ()


@handler("spend_support_to_kill")
def h_rewarded_faith(st: Board, eff: Effect, source: str, player: int, resume=None, **ctx):
    # resume: (the marine, "ask") at his question, or (the marine, "kill", the kill's own place)
    inner: tuple[Any, ...] = ()
    if resume is None:
        m = yield from _one(st, player, eff.get("target"), ctx, weigh=lambda m: min(m.tokens, sum(st.spot_count(st.row_of(m), s) for s in SIDES)))
        if m is None:
            return False
        inner = ()
    else:
        m = _any_marine(st, resume[0])
        inner = resume[2:] if resume[1] == "kill" else ()
    if inner:
        yield from _engaged_kill(st, player, m, mark(st, m.id, "kill"), inner)
    while m.tokens and _engaged(st, m):
        st.at = mark(st, m.id, "ask")
        go = yield from _yes_no(st, player, K.SPEND_TO_KILL, marine=m.id)
        st.at = None
        if not go:
            break
        st.spend_token(m)
        yield from _engaged_kill(st, player, m, mark(st, m.id, "kill"))


@handler("discard_blips")
def h_full_scan(st: Board, eff: Effect, source: str, player: int, **ctx):
    piles = [s for s in SIDES if st.pile(s)]
    if not piles:
        return False
    pick = yield from st.ask(player, K.BLIP_DISCARD, [Option("pile", s) for s in piles])
    for _ in range(int(eff.get("count", 1))):
        if st.pile(pick.value):
            st.gs_discard.append(st.pile(pick.value).pop())


@handler("roll_skull_kill")
def h_cleansing(st: Board, eff: Effect, source: str, player: int, resume=None, **ctx):
    # resume: ("target",) its first question, or (the marine, the kill, the kill's own place)
    inner: tuple[Any, ...] = ()
    if resume is None or resume[0] == "target":
        st.at = mark(st, "target")
        m = yield from _one(st, player, eff.get("target"), ctx, weigh=lambda m: min(2, sum(st.spot_count(st.row_of(m), s) for s in SIDES)))
        st.at = None
        if m is None:
            return False
        _, skull = st.roll()
        if not skull:
            return False
        start, inner = 0, ()
    else:
        m, start, inner = _any_marine(st, resume[0]), int(resume[1]), resume[2:]
    for n in range(start, int(eff.get("kills", 2))):
        if m.alive:
            yield from _engaged_kill(st, player, m, mark(st, m.id, n), inner)
        inner = ()


@handler("defence_save_next_round")
def h_second_wind(st: Board, eff: Effect, source: str, player: int, **ctx):
    m = yield from _one(st, player, eff.get("target"), ctx)
    if m is None:
        return False
    st.next.second_wind.add(m.id)


@handler("immediate_attack")
def h_quick(st: Board, eff: Effect, source: str, player: int, resume=None, **ctx):
    inner: tuple[Any, ...] = ()
    if resume is None:
        m = yield from _one(st, player, eff.get("target"), ctx, weigh=lambda m: int(bool(in_reach(st, m))))
        if m is None:
            return False
        start, made, inner = 0, False, ()
    else:  # a copy takes it up at a question of an attack: (the marine, the attack, any made, its place)
        m, start, made, inner = _any_marine(st, resume[0]), int(resume[1]), bool(resume[2]), resume[3:]
    team = st.teams[m.team]
    for n in range(start, int(eff.get("attacks", 1))):
        place = mark(st, m.id, n, made)
        if inner:
            assert place is not None  # (a copy resumes only at a marked place)
            r = yield from resume_attack(st, team, m, None, place, inner)
            inner = ()
        else:
            r = yield from marine_attack(st, team, m, None, source=source, place=place)
        made = r or made
    return made or None


@handler("door_tokens")
def h_secret_route(st: Board, eff: Effect, source: str, player: int, **ctx):
    doors = [t for r in st.rows for s in SIDES for t in r.spot(s).terrain if any(e.kind == "door" for e in st.game.terrain[t.card].effects)]
    if not doors:
        return False
    for t in doors:
        placed = min(int(eff.get("tokens", 2)), st.supply)
        st.supply -= placed
        t.tokens += placed


@handler("support_before_move")
def h_enter_formation(st: Board, eff: Effect, source: str, player: int, **ctx):
    st.next.enter_formation = True


@handler("return_swarm")
def h_sanctuary(st: Board, eff: Effect, source: str, player: int, resume=None, **ctx):
    swarms = [(i, s, sw) for i, s, sw in st.swarms() if not sw.shielded]
    if not swarms:
        return False
    if resume is None:
        pick = yield from st.ask(player, K.SWARM_TARGET, [Option("swarm", f"{k}") for k in range(len(swarms))])
        k = int(pick.value)
    else:  # a copy takes it up at the pile question: ("pile", the swarm picked)
        k = int(resume[1])
    i, s, sw = swarms[k]
    st.at = mark(st, "pile", k)
    side = yield from _smaller_pile(st, player)
    st.at = None
    pile = st.pile(side)
    keep = [c for c in sw.cards if c.brood_lord]
    pile.extend(c for c in sw.cards if not c.brood_lord)
    sw.cards = keep
    st.rng.shuffle(pile, f"blips_{side}")
    st._prune()


@handler("revive_marine")
def h_rescue(st: Board, eff: Effect, source: str, player: int, **ctx):
    from cardkit.games.death_angel.state import Row

    cands = [m for m in st.dead if st.team_marines(m.team)]
    if not cands:
        return False
    pick = yield from st.ask(player, K.REVIVE, [_marine_option(m) for m in cands])
    m = next(x for x in cands if x.id == pick.value)
    st.dead.remove(m)
    m.alive = True
    m.facing = eff.get("facing", "right")
    st.rows.append(Row(m))


@handler("spawn_at_terrain")
def h_spawn_at_terrain(st: Board, eff: Effect, source: str, player: int, **ctx):
    n = 0
    for i, r in enumerate(st.rows):
        for s in SIDES:
            if any(t.card == eff.get("terrain") for t in r.spot(s).terrain):
                n += st.spawn_at(i, s, int(eff.get("count", 1)))
    return n > 0 or None


@handler("replace_terrain")
def h_replace_terrain(st: Board, eff: Effect, source: str, player: int, **ctx):
    for r in st.rows:
        for s in SIDES:
            for k, t in enumerate(r.spot(s).terrain):
                if t.card == eff.get("remove"):
                    new = next((x for x in st.terrain_reserve if x.card == eff.get("place")), None)
                    if new is None:
                        # the card to put in its place is already in the formation: move it here
                        for r2 in st.rows:
                            for s2 in SIDES:
                                for x in r2.spot(s2).terrain:
                                    if x.card == eff.get("place"):
                                        r2.spot(s2).terrain.remove(x)
                                        new = x
                    if new is None:
                        return False
                    if new in st.terrain_reserve:
                        st.terrain_reserve.remove(new)
                    st.supply += t.tokens
                    t.tokens = 0
                    r.spot(s).terrain[k] = new
                    st.terrain_reserve.append(t)
                    return True
    return False


@handler("set_facing")
def h_set_facing(st: Board, eff: Effect, source: str, player: int, **ctx):
    for m in _targets(st, eff.get("target"), ctx):
        m.facing = eff.get("facing")


@handler("turn_from_terrain")
def h_wreckage(st: Board, eff: Effect, source: str, player: int, **ctx):
    for m in st.marines():
        if st.rows[st.row_of(m)].spot(m.facing).terrain:
            m.facing = other(m.facing)


@handler("give_support")
def h_give_support(st: Board, eff: Effect, source: str, player: int, resume=None, **ctx):
    # a copy takes it up at (stage, the recipients so far, the marine whose flip is asked)
    stage, chosen, flipping = resume if resume is not None else ("support", [], "")
    chosen = list(chosen)  # marine ids
    for _ in range(len(chosen) - (1 if stage == "flip" else 0), int(eff.get("recipients", 1))):
        if stage == "flip":
            m = _find_marine(st, flipping)
        else:
            cands = [m for m in st.marines() if m.id not in chosen]
            if not cands or not st.supply:
                break
            st.at = mark(st, "support", tuple(chosen), "")
            pick = yield from st.ask(player, K.SUPPORT, [_marine_option(m) for m in cands], card=source)
            st.at = None
            m = _find_marine(st, pick.value)
            chosen.append(m.id)
            st.place_token(m, int(eff.get("tokens", 1)))
        stage = "support"
        if eff.get("may_flip"):
            st.at = mark(st, "flip", tuple(chosen), m.id)
            flip = yield from _yes_no(st, player, K.FLIP, marine=m.id)
            st.at = None
            if flip:
                m.facing = other(m.facing)


@handler("limit_spawn_at_terrain")
def h_cogitator(st: Board, eff: Effect, source: str, player: int, **ctx):
    cards = [(i, s, t) for i, r in enumerate(st.rows) for s in SIDES for t in r.spot(s).terrain]
    if not cards:
        return False
    pick = yield from st.ask(player, K.TERRAIN_TARGET, [Option("terrain", f"{i}:{s}:{t.card}") for i, s, t in cards])
    i, s, card = pick.value.split(":")
    t = next(t for ii, ss, t in cards if ii == int(i) and ss == s and t.card == card)
    # used by this round's event phase (an activation happens before it)
    st.now.spawn_limits[t] = int(eff.get("max", 1))


@handler("spawn_into_swarm")
def h_black_holds(st: Board, eff: Effect, source: str, player: int, **ctx):
    swarms = st.swarms()
    if not swarms:
        return False
    i, s, _ = yield from st.pick_swarm(player, K.SWARM_TARGET, swarms)
    return st.spawn_at(i, s, int(eff.get("count", 2))) > 0 or None


@handler("pay_or_roll_then_clear_blips")
def h_teleportarium(st: Board, eff: Effect, source: str, player: int, resume=None, **ctx):
    # resume: (the marines as the effect began, by id, and the index of the one asked)
    ids, start = resume if resume is not None else (tuple(m.id for m in st.marines()), 0)
    marines = [_any_marine(st, mid) for mid in ids]
    for k in range(start, len(marines)):
        m = marines[k]
        if not m.alive:
            continue
        pay = False
        if m.tokens >= int(eff.get("cost", 1)):
            st.at = mark(st, ids, k)
            pay = yield from _yes_no(st, st.player_of(m.team), K.TELEPORT_PAY, marine=m.id)
            st.at = None
        if pay:
            for _ in range(int(eff.get("cost", 1))):
                st.spend_token(m)
        else:
            value, _ = st.roll()
            if value in tuple(eff.get("death_faces", (0,))):
                st.marine_dies(m, source)
    st.gs_discard.extend(st.left)
    st.gs_discard.extend(st.right)
    st.left, st.right = [], []


@handler("gamble_kill")
def h_genetorium(st: Board, eff: Effect, source: str, player: int, marine=None, resume=None, **ctx):
    # resume: (the kill being made, and where its swarm is when it has been picked)
    kill_at: tuple[Any, ...] = resume[1:] if resume is not None else ()
    start = int(resume[0]) if resume is not None else 0
    skull = True
    if resume is None:
        _, skull = st.roll()
    if skull:
        for n in range(start, int(eff.get("kills", 4))):
            targets = [(i, s, sw) for i, s, sw in st.swarms() if st.killable(sw)]
            if not targets:
                break
            if kill_at:
                k_row, k_side = int(kill_at[0]), str(kill_at[1])
                k_swarm = next(x[2] for x in targets if x[0] == k_row and x[1] == k_side)
                kill_at = ()
            else:
                st.at = mark(st, n)
                picked = yield from st.pick_swarm(player, K.KILL_SWARM, targets, optional=True)
                st.at = None
                if picked is None:
                    break
                k_row, k_side, k_swarm = picked
            st.at = mark(st, n, k_row, k_side)
            yield from st.choose_kill(player, k_row, k_side, k_swarm)
            st.at = None
    elif marine is not None and marine.alive:
        st.marine_dies(marine, source)


@handler("place_terrain")
def h_wrath(st: Board, eff: Effect, source: str, player: int, **ctx):
    card = next((t for t in st.terrain_reserve if t.card == eff.get("terrain")), None)
    if card is None:
        return False
    options = [Option("place", f"{i}:{s}") for i in range(len(st.rows)) for s in SIDES]
    pick = yield from st.ask(player, K.PLACE_TERRAIN, options, terrain=card.card)
    i, s = pick.value.split(":")
    st.terrain_reserve.remove(card)
    st.rows[int(i)].spot(s).terrain.append(card)


@handler("gather_at_terrain_colour")
def h_lair_gather(st: Board, eff: Effect, source: str, player: int, **ctx):
    colour = eff.get("colour")
    for side in SIDES:
        rows = [i for i, r in enumerate(st.rows) if any(t.colour == colour for t in r.spot(side).terrain)]
        if not rows:
            continue
        dest = rows[0]
        for i, s, sw in st.swarms():
            if s == side and i != dest:
                st.rows[i].spot(s).swarms.remove(sw)
                st.rows[dest].spot(s).swarms.append(sw)


@handler("spawn_brood_lords")
def h_lair_spawn(st: Board, eff: Effect, source: str, player: int, **ctx):
    colour = eff.get("colour")
    for i, r in enumerate(st.rows):
        for s in SIDES:
            if any(t.colour == colour for t in r.spot(s).terrain) and st.brood_reserve:
                bl = st.brood_reserve.pop(0)
                spot = r.spot(s)
                if spot.swarms:
                    spot.swarms[-1].cards.append(bl)
                else:
                    spot.swarms.append(Swarm([bl]))
                st.log("brood_lord", i, s)
                if bl.defence or bl.last:  # its own abilities are in force from now on
                    st.stats.fired[bl.card] += 1


@handler("token_or_roll")
def h_launch_control(st: Board, eff: Effect, source: str, player: int, **ctx):
    pick = yield from st.ask(player, K.LAUNCH, [Option("launch", "token"), Option("launch", "roll")], tokens=st.location_tokens)
    if pick.value == "token":
        if st.supply:
            st.supply -= 1
            st.location_tokens += 1
        return
    value, _ = st.roll()
    loc = st.location
    if loc is not None and loc.win is not None and loc.win.kind == "roll_at_most_tokens" and value <= st.location_tokens:
        st.end("win", "launch_control")


@handler("roll_discard_blips")
def h_toxin(st: Board, eff: Effect, source: str, player: int, resume=None, **ctx):
    value = int(resume[0]) if resume is not None else st.roll()[0]  # (resume: the roll, a copy at the question)
    piles = [s for s in SIDES if st.pile(s)]
    if not piles or not value:
        return False
    st.at = mark(st, value)
    pick = yield from st.ask(player, K.BLIP_DISCARD, [Option("pile", s) for s in piles])
    st.at = None
    for _ in range(value):
        if st.pile(pick.value):
            st.gs_discard.append(st.pile(pick.value).pop())


@handler("trigger_location")
def h_control_panel(st: Board, eff: Effect, source: str, player: int, resume=None, **ctx):
    loc = st.location
    if loc is None or loc.trigger != "control_panel":
        return False
    # the location's effects, each at its place inside this one's (resume: ("panel", k, ...))
    where = st.effect_at
    if where is None:
        st.effect_at = None
        for e in loc.effects:
            yield from run_effect(st, e, loc.id, player, dict(ctx))
        return None
    start, inner = (int(resume[1]), resume[2:] or None) if resume is not None else (0, None)
    yield from run_effects_from(st, where + ("panel",), loc.effects, start, loc.id, player, ctx, inner)


@handler("door")
def h_door(st: Board, eff: Effect, source: str, player: int, terrain=None, team=None, resume=None, **ctx):
    # resume: (the tokens so far, the index of the bonus asked), a copy at a later bonus question
    n, start = (int(resume[0]), int(resume[1])) if resume is not None else (int(eff.get("tokens", 1)), 0)
    bonuses = list(_active(st, "door_bonus_token", team.id if team else None))
    for j in range(start, len(bonuses)):
        card, e, _t = bonuses[j]
        if j:
            st.at = mark(st, n, j)
        extra = yield from _yes_no(st, player, K.DOOR_BONUS, card=card)
        st.at = None
        if extra:
            n += int(e.get("extra_tokens", 1))
            st.stats.fired[card] += 1
    placed = min(n, st.supply)
    st.supply -= placed
    terrain.tokens += placed
    st.stats.support_short += n - placed


@handler("promethium_tank")
def h_promethium(st: Board, eff: Effect, source: str, player: int, terrain=None, marine=None, **ctx):
    i = next(i for i, r in enumerate(st.rows) for s in SIDES if terrain in r.spot(s).terrain)
    for s in SIDES:
        spot = st.rows[i].spot(s)
        if terrain in spot.terrain:
            spot.terrain.remove(terrain)
            st.supply += terrain.tokens
            terrain.tokens = 0
            st.terrain_reserve.append(terrain)
        for sw in list(spot.swarms):
            while st.killable(sw):  # ordinary Genestealers first, Brood Lords last
                st.kill(i, s, sw, st.killable(sw)[0])
    value, _ = st.roll()
    if marine is not None and marine.alive and value in tuple(eff.get("death_faces", (0,))):
        st.marine_dies(marine, source)


@handler("spore_chimney")
def h_spore(st: Board, eff: Effect, source: str, player: int, terrain=None, **ctx):
    _, skull = st.roll()
    if skull:
        for r in st.rows:
            for s in SIDES:
                if terrain in r.spot(s).terrain:
                    r.spot(s).terrain.remove(terrain)
                    st.terrain_reserve.append(terrain)
        return None
    return False


@handler("artefact")
def h_artefact(st: Board, eff: Effect, source: str, player: int, terrain=None, team=None, **ctx):
    for r in st.rows:
        for s in SIDES:
            if terrain in r.spot(s).terrain:
                r.spot(s).terrain.remove(terrain)
    st.artefact_team = team.id if team else None

