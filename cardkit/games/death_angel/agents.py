"""Agents choose through one callback: ``agent(state, decision) -> Option``.

* ``random``: a uniformly random legal option (its own seeded stream, so games
  stay reproducible and the game's dice are untouched);
* ``passive``: always the first legal option;
* ``heuristic``: plays sensibly by priorities kept as data (:data:`PRIORITIES`).
"""

from __future__ import annotations

import random
from typing import Callable

from cardkit.rules.core import Decision, Option

Agent = Callable[["object", Decision], Option]


def random_agent(seed: int) -> Agent:
    r = random.Random(seed ^ 0x5EED)

    def choose(state: object, d: Decision) -> Option:
        return d.options[r.randrange(len(d.options))]

    return choose


def passive_agent(seed: int = 0) -> Agent:
    def choose(state: object, d: Decision) -> Option:
        return d.options[0]

    return choose


AGENTS: dict[str, Callable[[int], Agent]] = {"random": random_agent, "passive": passive_agent}


def play(state, agent: Agent, max_steps: int = 100_000):  # type: ignore[no-untyped-def]
    """Run a game to its end with one agent for every player."""
    steps = 0
    while state.decision is not None:
        state.apply(agent(state, state.decision))
        steps += 1
        if steps > max_steps:
            raise AssertionError("game did not finish")
    return state.outcome


# ---------------------------------------------------------------- heuristic
# Strategy as data: tweak these to tell "the set is too hard" from "the bot plays badly".
PRIORITIES = {
    # teams picked first at setup
    "teams": ["red", "green", "grey", "blue", "purple", "yellow"],
    # terrain a marine activates when he faces it, best first; absent = never
    "activate": ["door", "artefact", "promethium_tank", "spore_chimney", "control_panel"],
    # control-panel gambles: worth taking when the formation holds at least this many Genestealers
    # (Genetorium) or the blip piles hold at least this many cards (Teleportarium discards them: travel)
    "gamble_at": {"genetorium": 6, "teleportarium": 6},
    # effects of event targets that harm the chosen marine (pick the sturdiest)
    "harmful": {"roll_or_die", "spawn_at_marine", "lose_support", "trade_support_for_kill", "gather_at_marine"},
    # roll at the Launch Control Room once this many tokens lie on it
    "launch_roll_at": 3,
}


def _threat(st, m) -> int:  # type: ignore[no-untyped-def]
    i = st.row_of(m)
    return sum(st.rows[i].spots[s].count() for s in ("left", "right"))


def _facing_threat(st, m) -> int:  # type: ignore[no-untyped-def]
    return st.rows[st.row_of(m)].spots[m.facing].count()


def _panel_worth_it(st, location: str) -> bool:  # type: ignore[no-untyped-def]
    gate = PRIORITIES["gamble_at"].get(location)
    if gate is None:
        return True
    if location == "teleportarium":
        return len(st.left) + len(st.right) >= gate
    return st.gs_in_formation() >= gate


def heuristic_agent(seed: int = 0) -> Agent:
    from cardkit.games.death_angel.effects import in_reach

    def marine(st, mid):  # type: ignore[no-untyped-def]
        return next((m for m in st.marines() if m.id == mid), None)

    def choose(st, d: Decision) -> Option:  # type: ignore[no-untyped-def]
        opts = d.options
        kind = d.kind
        yes = next((o for o in opts if o.value == "yes"), None)
        no = next((o for o in opts if o.value == "no"), None)
        if kind == "team":
            order = PRIORITIES["teams"]
            return min(opts, key=lambda o: order.index(o.value) if o.value in order else 99)
        if kind == "action":
            team = d.ctx("team")
            ms = st.team_marines(team)
            types = {o.value: st.game.actions[o.value].type for o in opts}
            can_attack = any(in_reach(st, m) for m in ms)
            exposed = any(_threat(st, m) > _facing_threat(st, m) for m in ms)  # a swarm behind: turn to face it
            threatened = any(_facing_threat(st, m) >= 2 for m in ms)
            if can_attack:
                wants = ["attack", "move_activate", "support"]
            elif exposed:
                wants = ["move_activate", "support", "attack"]
            elif threatened:
                wants = ["support", "move_activate", "attack"]
            else:
                wants = ["move_activate", "support", "attack"]
            for w in wants:
                for o in opts:
                    if types[o.value] == w:
                        return o
            return opts[0]
        if kind == "support":
            cands = [marine(st, o.value) for o in opts]
            best = max(cands, key=lambda m: (_facing_threat(st, m) * 2 + _threat(st, m) - m.tokens * 3, -st.row_of(m)))
            return Option("marine", best.id)
        if kind == "facing":
            m = marine(st, d.ctx("marine"))
            i = st.row_of(m)
            loc = st.location.id if st.location else ""

            def useful(side: str) -> int:
                best = 0
                for t in st.rows[i].spots[side].terrain:
                    if t.used or not t.activatable or t.card not in PRIORITIES["activate"]:
                        continue
                    if t.card == "control_panel" and not _panel_worth_it(st, loc):
                        continue
                    best = max(best, len(PRIORITIES["activate"]) - PRIORITIES["activate"].index(t.card))
                return best

            def score(side: str) -> tuple[int, int, int, bool]:
                here = st.rows[i].spots[side].count()
                near = sum(st.rows[j].spots[side].count() for j in range(max(0, i - m.range), min(len(st.rows), i + m.range + 1)))
                return (here, near, useful(side), side == m.facing)

            return Option("facing", max(("left", "right"), key=score))
        if kind == "activate":
            order = PRIORITIES["activate"]
            loc = st.location.id if st.location else ""
            cands = [o for o in opts if o.value in order
                     and not (o.value == "control_panel" and not _panel_worth_it(st, loc))]
            if any(o.value == "promethium_tank" for o in cands):
                m = marine(st, d.ctx("marine"))
                if _threat(st, m) < 2:
                    cands = [o for o in cands if o.value != "promethium_tank"]
            return min(cands, key=lambda o: order.index(o.value)) if cands else Option("activate", "none")
        if kind in ("attack_target",):
            real = [o for o in opts if o.value != "none"]
            m = marine(st, d.ctx("marine"))
            i = st.row_of(m)

            def score(o: Option) -> tuple[int, int]:
                j, s, _ = o.value.split(":")
                return (int(j) == i, st.rows[int(j)].spots[s].count())
            return max(real, key=score) if real else opts[0]
        if kind in ("reroll_attack",):
            return yes if marine(st, d.ctx("marine")).tokens >= 2 else no
        if kind == "reroll_defence":
            # re-roll a roll that would lose the marine
            return yes if d.ctx("value") <= d.ctx("swarm") else no
        if kind == "launch":
            return Option("launch", "roll") if d.ctx("tokens", 0) >= PRIORITIES["launch_roll_at"] else Option("launch", "token")
        if kind == "blip_discard":
            piles = [o for o in opts if o.value in ("left", "right")]
            if piles:
                return min(piles, key=lambda o: len(st.pile(o.value)))
            return opts[0]
        if kind == "strategize":
            # bring the biggest swarm behind a marine round to the side he faces (re-rolls and attacks work there)
            best, best_n = Option("shift", "none"), 1
            for o in opts:
                if o.value == "none":
                    continue
                k, j, side = o.value.split(":")
                i0, s0, sw = st.swarms()[int(k)]
                m = st.rows[i0].marine
                if m is not None and int(j) == i0 and side == m.facing and s0 != m.facing and len(sw) > best_n:
                    best, best_n = o, len(sw)
            return best
        if kind == "power_field":
            return max(opts, key=lambda o: st.rows[int(o.value.split(":")[0])].spots[o.value.split(":")[1]].count())
        if kind == "target":
            cands = [marine(st, o.value) for o in opts]
            if d.ctx("effect") in PRIORITIES["harmful"]:
                best = max(cands, key=lambda m: (m.tokens, -_threat(st, m)))
            else:
                best = max(cands, key=lambda m: (_threat(st, m), -m.tokens))
            return Option("marine", best.id)
        if kind in ("teleport_pay",):
            return yes
        if kind == "move":
            # step out of a big swarm's reach into a quiet position (any position with Reorganize)
            m = marine(st, d.ctx("marine"))
            here = _threat(st, m)
            quiet = [o for o in opts if o.value != "stay" and
                     sum(st.rows[int(o.value)].spots[x].count() for x in ("left", "right")) + 2 <= here]
            if quiet and m.tokens == 0:
                return min(quiet, key=lambda o: sum(st.rows[int(o.value)].spots[x].count() for x in ("left", "right")))
            return Option("move", "stay")
        if kind in ("scout", "move", "evasion_attacker", "spawn_first", "pile", "revive", "team_target",
                    "terrain_target", "place_terrain", "door_kill", "kill", "kill_swarm", "return",
                    "charge_target", "swarm_target"):
            real = [o for o in opts if o.value not in ("stop", "none", "stay")]
            if kind in ("door_kill", "kill_swarm", "charge_target", "return"):
                def big(o: Option) -> int:
                    parts = o.value.split(":")
                    return st.rows[int(parts[0])].spots[parts[1]].count()
                return max(real, key=big) if real else opts[0]
            if kind == "team_target":  # Gun Jam: bar a team that has nothing to shoot at anyway
                return min(opts, key=lambda o: sum(len(in_reach(st, m)) for m in st.team_marines(o.value)))
            if kind in ("swarm_target",) and real:
                return real[0]
            return opts[0]
        if yes is not None:
            return yes
        return opts[0]

    return choose


AGENTS["heuristic"] = heuristic_agent
