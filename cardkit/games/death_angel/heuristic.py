"""The heuristic agent: it answers each decision kind by scoring the options
with its risk model (:mod:`~cardkit.games.death_angel.risk`, one per agent, the
memo included) and the weights it trades off (:mod:`~cardkit.games.death_angel.weights`).

Every choice is scored in one currency, *expected marine deaths prevented in
the coming Genestealer attack*, plus the lasting worth of what it leaves
behind: Genestealers removed, support tokens banked, blip cards gone (the way
to the next location).  The agent reads what a card does from the effect kinds
of the card data, never from card names, so a modified set plays as written.

"""

from __future__ import annotations

from itertools import combinations
from typing import Callable, Final

from cardkit.games.death_angel import kinds as K
from cardkit.games.death_angel.board import Board
from cardkit.games.death_angel.combat import defence_kills, shootable, swarms_near
from cardkit.games.death_angel.effects import strategize_moves
from cardkit.games.death_angel.risk import Risk, _most, _pick, _Slot, kill_chance
from cardkit.games.death_angel.state import SIDES, Marine, Swarm, TerrainCard, other
from cardkit.games.death_angel.support import _find_marine
from cardkit.games.death_angel.weights import PRIORITIES, WEIGHTS
from cardkit.model import Effect
from cardkit.rules.core import Decision, Option

__all__ = ["DEFAULTED", "PRIORITIES", "WEIGHTS", "Heuristic", "Risk", "heuristic_agent", "kill_chance"]


# ------------------------------------------------------------------ scoring
class Heuristic:
    """One game's heuristic player (stateless between decisions)."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.risk = Risk()  # its memo: this agent's alone
        self.cards: dict[str, tuple[str, tuple[Effect, ...], dict[str, Effect]]] = {}
        self.spawn_boxes: dict[str, int] | None = None  # spawn boxes of the event deck by colour

    def __call__(self, st: Board, d: Decision) -> Option:
        fn = _BY_KIND.get(d.kind)
        if fn is None:
            return self.default(st, d)
        memo = self.risk
        memo.deciding = st
        if d.kind != "action" or memo.choosing is not st or memo.choosing_round != st.round:
            memo.stamp += 1
            memo.token_best = -1.0
            while len(memo.slots) < len(st.rows):
                memo.slots.append(_Slot())
        pick = fn(self, st, d)
        memo.deciding = None
        memo.choosing, memo.choosing_round = (st, st.round) if d.kind == "action" else (None, -1)
        return pick

    # -------------------------------------------------------------- helpers
    @staticmethod
    def default(st: Board, d: Decision) -> Option:
        for o in d.options:
            if o.value == "yes":
                return o
        return d.options[0]

    def token_worth(self, st: Board, m: Marine, row: int | None = None) -> float:
        """What one more support token on ``m`` is worth now."""
        row = st.row_of(m) if row is None else row
        return self.risk.danger_here(st, row, m) - self.risk.danger_at(st, row, m, tokens=m.tokens + 1) + WEIGHTS["token"]

    def token_best(self, st: Board) -> float:
        """The most one more support token on any marine is worth now."""
        memo = self.risk
        if memo.deciding is st and memo.token_best >= 0.0:
            return memo.token_best
        best = _most([self.token_worth(st, m, st.row_of(m)) for m in st.marines()])
        if memo.deciding is st:
            memo.token_best = best
        return best

    def token_loss(self, st: Board, m: Marine) -> float:
        """What spending one of ``m``'s tokens costs him."""
        if m.tokens <= 0:
            return 0.0
        row = st.row_of(m)
        return self.risk.danger_at(st, row, m, tokens=m.tokens - 1) - self.risk.danger_here(st, row, m) + WEIGHTS["token"]

    def facing_score(self, st: Board, m: Marine, row: int, side: str, with_activation: bool = False) -> float:
        score = -self.risk.danger_at(st, row, m, facing=side)
        score += WEIGHTS["reach"] * float(len(shootable(st, m, row, side)))  # (float * float: compiled, no boxing)
        if with_activation:
            score += _most([self.terrain_value(st, m, row, t) for t in st.rows[row].spot(side).terrain
                            if t.activatable and not t.used])
        if side == m.facing:
            score += WEIGHTS["keep_facing"]
        return score

    def spawn_weight(self, st: Board, terrain: str | None) -> int:
        """How many spawn boxes of the event deck name this terrain card's colour."""
        t = st.game.terrain.get(terrain or "")
        if t is None:
            return 0
        if self.spawn_boxes is None:  # counted once per game
            self.spawn_boxes = {}
            for _, ev, _ in st.game.events:
                for b in ev.spawn:
                    self.spawn_boxes[b.colour] = self.spawn_boxes.get(b.colour, 0) + 1
        return self.spawn_boxes.get(t.colour, 0)

    def location_panel_value(self, st: Board, m: Marine, row: int) -> float:
        """Worth of triggering the current location's control-panel ability, by its effect kinds."""
        loc = st.location
        if loc is None or loc.trigger != "control_panel":
            return 0.0
        total = 0.0
        for eff in loc.effects:
            k = eff.kind
            if k in PRIORITIES["gamble_at"]:
                gate = PRIORITIES["gamble_at"][k]
                amount = len(st.left) + len(st.right) if k == "pay_or_roll_then_clear_blips" else st.gs_in_formation()
                total += 0.3 if amount >= gate else -1.0
            elif k == "token_or_roll":
                total += WEIGHTS["win_step"]
            elif k in ("discard_blips", "roll_discard_blips"):
                total += WEIGHTS["blip"] * (2.5 if k == "roll_discard_blips" else 1)
            elif k == "give_support":
                total += WEIGHTS["token"] + 0.05
            elif k == "replace_terrain":
                # worth it when a terrain colour that spawns more often gives way to one that spawns less
                total += 0.05 * (self.spawn_weight(st, eff.get("remove")) - self.spawn_weight(st, eff.get("place")))
            elif k == "limit_spawn_at_terrain":
                total += 0.05
            else:
                total += 0.02
        return total

    def terrain_value(self, st: Board, m: Marine, row: int, t: TerrainCard, door_bonus: int = 0) -> float:
        """Worth of ``m`` activating terrain card ``t`` at ``row`` now, by its effect kinds."""
        effects = st.game.terrain[t.card].effects
        total = 0.0
        for eff in effects:
            k = eff.kind
            if k == "door":
                total += WEIGHTS["door_token"] * (int(eff.get("tokens", 1)) + door_bonus) if st.location_deck else 0.0
            elif k == "promethium_tank":
                gain = 0.0
                for s in SIDES:
                    for sw in st.rows[row].spot(s).swarms:
                        gain += self.risk.kill_value(st, row, sw, kills=len(sw.cards))
                death = sum(1 for v, _ in st.game.faces if v in tuple(eff.get("death_faces", (0,)))) / len(st.game.faces)
                total += gain - death  # the activating marine may die
            elif k == "spore_chimney":
                total += 0.05
            elif k == "artefact":
                total += 0.15
            elif k == "trigger_location":
                total += self.location_panel_value(st, m, row)
        return total

    def activation_value(self, st: Board, m: Marine, row: int) -> float:
        """The best terrain card ``m`` could activate from ``row`` (after turning)."""
        best = 0.0
        for side in SIDES:
            for t in st.rows[row].spot(side).terrain:
                if t.activatable and not t.used:
                    best = max(best, self.terrain_value(st, m, row, t))
        return best

    def swap_gain(self, st: Board, m: Marine, i: int, j: int, with_activation: bool = True,
                  here: list[float] | None = None) -> float:
        """Expected deaths prevented (and terrain made usable) by swapping ``m`` at ``i`` with position ``j``.
        ``here`` keeps what ``m`` risks and could activate at ``i`` across the positions a caller tries."""
        o = st.rows[j].marine
        if o is None:
            return 0.0
        ri, rj = st.rows[i], st.rows[j]
        if not (ri.left.swarms or ri.right.swarms or rj.left.swarms or rj.right.swarms
                or ri.left.terrain or ri.right.terrain or rj.left.terrain or rj.right.terrain):
            return 0.0  # two quiet positions: nothing changes
        if here is None:
            here = []
        if not here:
            here.append(self.risk.danger_here(st, i, m))
            here.append(self.activation_value(st, m, i))
        gain = here[0] + self.risk.danger_here(st, j, o) - self.risk.danger_here(st, j, m) - self.risk.danger_here(st, i, o)
        if with_activation:
            gain += self.activation_value(st, m, j) - here[1]
        return gain

    def best_swap(self, st: Board, m: Marine, free: bool) -> tuple[float, int | None]:
        """Expected deaths a swap of ``m`` prevents, and with which position."""
        i = st.row_of(m)
        best, where = 0.0, None
        here: list[float] = []
        for j in range(len(st.rows)):
            if j == i or (not free and j != i + 1 and j != i - 1):
                continue
            gain = self.swap_gain(st, m, i, j, here=here)
            if gain > best:
                best, where = gain, j
        return best, where

    # ------------------------------------------------------- action choice
    def score_action(self, st: Board, card: str, team: str) -> float:
        """Expected deaths a card prevents this round plus the lasting worth of what it does."""
        known = self.cards.get(card)
        if known is None:  # the card's type and effects by kind, read once per game
            action = st.game.actions[card]
            known = self.cards[card] = (action.type, action.effects, {e.kind: e for e in action.effects})
        kind, effs, kinds = known
        ms = st.team_marines(team)
        if kind == "attack":
            return self.score_attack(st, ms, effs)
        if kind == "support":
            score = 0.0
            if st.supply:
                score += self.token_best(st)
            for m in ms:
                row = st.row_of(m)
                now = self.risk.danger_here(st, row, m)
                prof = self.risk.profile(st, m, extra=tuple(effs))
                if prof.block or prof.stance:
                    tokens = m.tokens + (1 if prof.stance and st.supply else 0)
                    score += now - self.risk.danger_at(st, row, m, tokens=tokens, prof=prof)
            if "attack_for_support" in kinds:
                for m in ms:
                    t = shootable(st, m, st.row_of(m))
                    if t and (m.tokens or st.supply):
                        score += 0.5 * self.risk.best_kill_value(st, t) - WEIGHTS["token"]
            if "shield_swarm" in kinds:
                score += _most([self.shield_gain(st, i, s, sw) for i, s, sw in st.swarms()])
            if "move_swarm" in kinds:
                score += max(0.0, self.best_strategize(st, kinds["move_swarm"])[0])
            return score
        # move + activate
        score = 0.0
        free = "free_swap" in kinds
        bonus = int(kinds["door_bonus_token"].get("extra_tokens", 1)) if "door_bonus_token" in kinds else 0
        for m in ms:
            gain, j = self.best_swap(st, m, free)
            row = st.row_of(m)
            if gain > WEIGHTS["swap_margin"] and j is not None:
                score += gain
            turn = 0.0
            now = self.facing_score(st, m, row, m.facing)
            for side in SIDES:
                s = self.facing_score(st, m, row, side) - now if side != m.facing else 0.0
                act = _most([self.terrain_value(st, m, row, t, bonus) for t in st.rows[row].spot(side).terrain
                             if t.activatable and not t.used])
                turn = max(turn, s + max(0.0, act))
            score += turn
        if st.now.enter_formation and st.supply:
            score += self.token_best(st)
        for e in effs:
            if e.kind == "discard_from_blips":
                score += WEIGHTS["blip"] * (1 + (1 if any(m.tokens >= 2 for m in ms) else 0))
            elif e.kind == "scout_event_deck":
                score += 0.02
            elif e.kind == "roll_return_engaged":
                engaged = sum(len(sw.cards) for _, _, sw in st.engaged_with(team))
                if engaged:
                    score += min(2.5, engaged) * WEIGHTS["gs"] + sum(
                        self.risk.danger_at(st, st.row_of(m), m) for m in ms) * 0.5
            elif e.kind == "attack_for_support":
                for m in ms:
                    t = shootable(st, m, st.row_of(m))
                    if t and m.tokens:
                        score += max(0.0, 0.5 * self.risk.best_kill_value(st, t) - self.token_loss(st, m))
        return score

    def score_attack(self, st: Board, ms: list[Marine], effs: tuple[Effect, ...]) -> float:
        per_marine = []
        for m in ms:
            row = st.row_of(m)
            targets = shootable(st, m, row)
            best = 0.0
            if targets:
                one = self.risk.best_kill_value(st, targets)
                hits = 0.5
                for e in effs:
                    if e.get("marine") not in (None, m.id):
                        continue
                    if e.kind == "multi_attack":
                        hits = 0.5 * int(e.get("attacks", 3))
                    elif e.kind == "extra_attack_per_skull":
                        hits = 1.0
                if any(e.kind == "attack_kills_face_value" and e.get("marine") == m.id for e in effs):
                    faces = st.game.faces
                    best = max(sum(self.risk.kill_value(st, j, sw, v) for v, _ in faces) / len(faces) for j, s, sw in targets)
                else:
                    best = hits * one
                    for e in effs:
                        if e.kind == "attack_face_kills":
                            best += (1 / len(st.game.faces)) * (self.risk.best_kill_value(st, targets, int(e.get("kills", 3))) - one)
            for e in effs:
                if e.kind == "heroic_charge" and e.get("marine") == m.id:
                    near = swarms_near(st, row, int(e.get("reach", 1)))
                    if near:
                        kills = int(e.get("kills", 3))
                        gain = sum(sorted((self.risk.kill_value(st, j, sw, kills) for j, s, sw in near), reverse=True)[:kills])
                        gain = min(gain, kills * (WEIGHTS["gs"] + 0.34))
                        best = max(best, gain - 1 / len(st.game.faces))
            per_marine.append(best)
        if st.now.evasion:
            return _most(per_marine)
        return sum(per_marine)

    def shield_gain(self, st: Board, i: int, s: str, sw: Swarm) -> float:
        m = st.rows[i].marine
        if m is None:
            return 0.0
        return self.risk.danger_here(st, i, m) - self.risk.danger_at(st, i, m, skip=sw)

    def best_strategize(self, st: Board, eff: Effect | None, options: tuple[Option, ...] | None = None) -> tuple[float, Option]:
        """The swarm move that prevents most expected deaths (merging ignored):
        among ``options`` (``shift:<swarm>:<row>:<side>``), or every move ``eff`` allows."""
        swarms = st.swarms()
        n = len(st.rows)
        moves: list[tuple[int, int, str]] = []  # (swarm index, row, side)
        if options is None:
            moves = strategize_moves(st, eff)
        else:
            offered = [o for o in options if o.value != "none"]
            for o in offered:
                k_text, j_text, side = o.value.split(":")
                moves.append((int(k_text), int(j_text), side))
        best, best_at = 0.0, -1
        before_of = [-1.0] * (n * n)  # the danger before a move depends on (from, to) only; -1: not yet
        for at_move, (k, j, side) in enumerate(moves):
            i, s, sw = swarms[k]
            m_from, m_to = st.rows[i].marine, st.rows[j].marine
            before = before_of[i * n + j]
            if before < 0.0:
                before = 0.0
                if m_from is not None:
                    before += self.risk.danger_here(st, i, m_from)
                if m_to is not None and j != i:
                    before += self.risk.danger_here(st, j, m_to)
                before_of[i * n + j] = before
            # what if it moved: gone from its spot, last in the spot it moves to
            after = 0.0
            if j == i:
                if m_from is not None:
                    after = self.risk.danger_at(st, i, m_from, skip=sw, extra=sw, extra_side=side)
            else:
                if m_from is not None:
                    after += self.risk.danger_at(st, i, m_from, skip=sw)
                if m_to is not None:
                    after += self.risk.danger_at(st, j, m_to, extra=sw, extra_side=side)
            # reach: a swarm brought in front of a marine can be shot next round
            if m_to is not None and side == m_to.facing:
                after -= WEIGHTS["reach"]
            if before - after > best:
                best, best_at = before - after, at_move
        if best_at < 0:
            return best, Option("shift", "none")
        if options is not None:
            return best, offered[best_at]
        k, j, side = moves[best_at]
        return best, Option("shift", f"{k}:{j}:{side}")

    # ------------------------------------------------------------ decisions
    def on_team(self, st: Board, d: Decision) -> Option:
        order = PRIORITIES["teams"]
        if order == "rotate":
            # game k plays the k-th combination of teams: over a sweep every team (and every card)
            # is in play at every player count, and the win rate averages over the groups' choices
            combos = list(combinations(sorted(t.id for t in st.game.set.teams), st.game.teams_needed))
            order = list(combos[self.seed % len(combos)])
        return _pick(d.options, lambda o: order.index(o.value) if o.value in order else 99, smallest=True)

    def on_action(self, st: Board, d: Decision) -> Option:
        team = d.ctx("team")
        return _pick(d.options, lambda o: self.score_action(st, o.value, team))

    def on_support(self, st: Board, d: Decision) -> Option:
        # the marine whose token is worth most (to 6 decimals; ties: the one facing most
        # Genestealers), first in the offer on a tie
        cands: list[tuple[float, int, Option]] = []
        for o in d.options:
            m = _find_marine(st, o.value)
            row = st.row_of(m)
            cands.append((self.token_worth(st, m, row), st.rows[row].spot(m.facing).count(), o))
        top = _most([w for w, _, _ in cands])
        near = [c for c in cands if c[0] >= top - 1e-5]  # the others round below the top: cannot win
        if len(near) == 1:
            return near[0][2]  # (no tie to break: round() is costly)
        pick: Option | None = None
        pick_key = (0.0, 0)
        last, rounded = -1.0, 0.0
        for w, count, o in near:
            if w != last:  # (often all the same: no Genestealer near anyone)
                last, rounded = w, round(w, 6)
            key = (rounded, count)
            if pick is None or key > pick_key:
                pick, pick_key = o, key
        assert pick is not None  # the top itself is never skipped
        return pick

    def on_facing(self, st: Board, d: Decision) -> Option:
        m = _find_marine(st, d.ctx("marine"))
        row = st.row_of(m)
        return _pick(d.options, lambda o: self.facing_score(st, m, row, o.value, with_activation=True))

    def on_flip(self, st: Board, d: Decision) -> Option:
        m = _find_marine(st, d.ctx("marine"))
        row = st.row_of(m)
        flip = self.facing_score(st, m, row, other(m.facing)) > self.facing_score(st, m, row, m.facing)
        return d.options[0] if flip else d.options[1]

    def on_move(self, st: Board, d: Decision) -> Option:
        m = _find_marine(st, d.ctx("marine"))
        i = st.row_of(m)
        best, pick = WEIGHTS["swap_margin"], Option("move", "stay")
        here: list[float] = []
        for o in d.options:
            if o.value == "stay":
                continue
            gain = self.swap_gain(st, m, i, int(o.value), here=here)
            if gain > best:
                best, pick = gain, o
        return pick

    def on_activate(self, st: Board, d: Decision) -> Option:
        m = _find_marine(st, d.ctx("marine"))
        row = st.row_of(m)
        bonus = sum(int(e.get("extra_tokens", 1)) for _, e, t in st.active if e.kind == "door_bonus_token" and t == m.team)
        best, pick = 0.0, Option("activate", "none")
        for o in d.options:
            if o.value == "none":
                continue
            t = next(t for t in st.rows[row].spot(m.facing).terrain if t.card == o.value)
            v = self.terrain_value(st, m, row, t, bonus)
            if v > best:
                best, pick = v, o
        return pick

    def on_attack_target(self, st: Board, d: Decision) -> Option:
        m = _find_marine(st, d.ctx("marine"))
        team_effects = [e for _, e, t in st.active if t == m.team]
        flamer = any(e.kind == "attack_kills_face_value" and e.get("marine") == m.id for e in team_effects)
        best, pick = -1.0, d.options[-1]
        for o in d.options:
            if o.value == "none":
                continue
            j_text, s, _ = o.value.split(":")
            j = int(j_text)
            sw = [x for x in st.rows[j].spot(s).swarms if x.cards and not x.shielded]
            if not sw:
                continue
            target = _pick(sw, len)
            if flamer:
                faces = st.game.faces
                v = sum([self.risk.kill_value(st, j, target, f) for f, _ in faces]) / len(faces)
            else:
                v = self.risk.kill_value(st, j, target)
            if v > best:
                best, pick = v, o
        return pick

    def on_reroll_attack(self, st: Board, d: Decision) -> Option:
        m = _find_marine(st, d.ctx("marine"))
        return d.options[0] if self.token_loss(st, m) < WEIGHTS["reroll_attack_below"] else d.options[1]

    def on_reroll_defence(self, st: Board, d: Decision) -> Option:
        m = _find_marine(st, d.ctx("marine"))
        row = st.row_of(m)
        value = d.ctx("value")
        skull = dict(st.game.faces).get(value, False)
        prof = self.risk.profile(st, m)
        modifier = min((sw.defence_modifier() for sw in st.rows[row].spot(m.facing).swarms), default=0)
        dies = defence_kills(value, skull, d.ctx("swarm"), modifier, prof.block, prof.second_wind)
        return d.options[0] if dies else d.options[1]

    def on_launch(self, st: Board, d: Decision) -> Option:
        tokens = d.ctx("tokens", 0)
        dying = len(st.marines()) <= 2 and tokens >= 1
        return Option("launch", "roll") if tokens >= PRIORITIES["launch_roll_at"] or dying or not st.supply else Option("launch", "token")

    def on_blip_discard(self, st: Board, d: Decision) -> Option:
        piles = [o for o in d.options if o.value in SIDES]
        return _pick(piles, lambda o: len(st.pile(o.value)), smallest=True) if piles else d.options[0]

    def on_blip_discard_paid(self, st: Board, d: Decision) -> Option:
        cheap = any(m.tokens and self.token_loss(st, m) < WEIGHTS["blip"] + WEIGHTS["token"] for m in st.marines())
        return d.options[0] if cheap else d.options[1]

    def on_payer(self, st: Board, d: Decision) -> Option:
        return _pick(d.options, lambda o: self.token_loss(st, _find_marine(st, o.value)), smallest=True)

    def on_strategize(self, st: Board, d: Decision) -> Option:
        eff = next((e for _, e, _ in st.active if e.kind == "move_swarm"), None)
        return self.best_strategize(st, eff, d.options)[1]

    def on_power_field(self, st: Board, d: Decision) -> Option:
        def gain(o: Option) -> float:
            i, s = o.value.split(":")
            return sum(self.shield_gain(st, int(i), s, sw) for sw in st.rows[int(i)].spot(s).swarms)
        return _pick(d.options, gain)

    def _swarm_option_value(self, st: Board, o: Option) -> float:
        parts = o.value.split(":")
        if parts[0] in ("stop", "none"):
            return 0.0
        i, s = int(parts[0]), parts[1]
        sws = [sw for sw in st.rows[i].spot(s).swarms if sw.cards]
        return _most([self.risk.kill_value(st, i, sw) for sw in sws])

    def on_door_kill(self, st: Board, d: Decision) -> Option:
        return _pick(d.options, lambda o: self._swarm_option_value(st, o))

    def on_charge_target(self, st: Board, d: Decision) -> Option:
        return self.on_door_kill(st, d)

    def on_return(self, st: Board, d: Decision) -> Option:
        return self.on_door_kill(st, d)

    def on_kill_swarm(self, st: Board, d: Decision) -> Option:
        real = [o for o in d.options if o.value not in ("stop", "none")]
        return _pick(real, lambda o: self._swarm_option_value(st, o)) if real else d.options[0]

    def on_swarm_target(self, st: Board, d: Decision) -> Option:
        # Temporary Sanctuary (swarm by index): the swarm that threatens most; Black Holds (by position): the
        # swarm whose growth hurts least
        if d.options and d.options[0].value.isdigit():
            swarms = [(i, s, sw) for i, s, sw in st.swarms() if not sw.shielded]

            def worth(o: Option) -> float:
                i, s, sw = swarms[int(o.value)]
                return self.risk.kill_value(st, i, sw, len(sw.cards))
            return _pick(d.options, worth)
        return _pick(d.options, lambda o: self._swarm_option_value(st, o), smallest=True)

    def on_target(self, st: Board, d: Decision) -> Option:
        effect = d.ctx("effect")
        cands = [_find_marine(st, o.value) for o in d.options]
        if effect in PRIORITIES["harmful"]:
            # harm lands best on the marine the squad is likeliest to lose anyway, holding the fewest tokens
            def doomed(m: Marine) -> tuple[float, int]:
                return (self.risk.danger_at(st, st.row_of(m), m), -m.tokens)
            return Option("marine", _pick(cands, doomed).id)
        if effect == "immediate_attack":
            return Option("marine", _pick(cands, lambda m: self.risk.best_kill_value(st, shootable(st, m, st.row_of(m)))).id)
        return Option("marine", _pick(cands, lambda m: self.risk.danger_at(st, st.row_of(m), m)).id)

    def on_team_target(self, st: Board, d: Decision) -> Option:
        return _pick(d.options, lambda o: sum(len(shootable(st, m, st.row_of(m))) for m in st.team_marines(o.value)), smallest=True)

    def on_teleport_pay(self, st: Board, d: Decision) -> Option:
        return d.options[0]

    def on_extra_attack(self, st: Board, d: Decision) -> Option:
        m = _find_marine(st, d.ctx("marine"))
        row = st.row_of(m)
        worth = 0.5 * self.risk.best_kill_value(st, shootable(st, m, row))
        return d.options[0] if worth > self.token_loss(st, m) else d.options[1]

    def on_heroic_charge(self, st: Board, d: Decision) -> Option:
        m = _find_marine(st, d.ctx("marine"))
        row = st.row_of(m)
        charge = next(e for _, e, _ in st.active if e.kind == "heroic_charge" and e.get("marine") == m.id)
        near = sum(len(sw.cards) for _, _, sw in swarms_near(st, row, int(charge.get("reach", 1))))
        normal = 0.5 * self.risk.best_kill_value(st, shootable(st, m, row))
        return d.options[0] if near >= 2 or normal < 0.05 else d.options[1]

    def on_scout(self, st: Board, d: Decision) -> Option:
        event, _ = st.game.event_of[d.ctx("card")]
        setup = st.game.setup
        colours = {t.colour for r in st.rows for s in SIDES for t in r.spot(s).terrain}
        spawns = sum((setup.major if b.severity == "major" else setup.minor) for b in event.spawn if b.colour in colours)
        return Option("event", "bottom") if spawns > setup.major + setup.minor else Option("event", "top")

    def on_terrain_target(self, st: Board, d: Decision) -> Option:
        order = ["red", "orange", "yellow", "green"]
        colour = {t.card: t.colour for t in st.terrain_reserve}
        for r in st.rows:
            for s in SIDES:
                for t in r.spot(s).terrain:
                    colour[t.card] = t.colour
        return _pick(d.options, lambda o: order.index(colour.get(o.value.split(":")[2], "green"))
                   if colour.get(o.value.split(":")[2]) in order else 9, smallest=True)

    def on_place_terrain(self, st: Board, d: Decision) -> Option:
        # a marine who faces it can pick it up next round; best where he stands least threatened
        rows = st.rows

        def worth(o: Option) -> float:
            i, s = o.value.split(":")
            m = rows[int(i)].marine
            if m is None:
                return -9.0
            return (1.0 if m.facing == s else 0.0) - self.risk.danger_at(st, int(i), m)
        return _pick(d.options, worth)


# Decision kinds the heuristic leaves to :meth:`Heuristic.default` ("yes" when offered, else the first
# option), each for a reason; every other kind of :data:`kinds.ALL` has an ``on_<kind>`` method
# (tests/engine/test_decision_kinds.py)
DEFAULTED: Final[dict[str, str]] = {
    K.ARTEFACT: "yes: the Artefact is used only when the marine would die otherwise",
    K.ATTACK_AGAIN: "yes: another attack of the same card costs nothing",
    K.DOOR_BONUS: "yes: one more token on a Door is one more kill at travel",
    K.ENTER_FORMATION: "yes: a free support token",
    K.LEAD_BY_EXAMPLE: "yes: a free support token",
    K.INTIMIDATION: "yes: the roll only ever removes engaged Genestealers",
    K.SPEND_TO_KILL: "yes: a token for a kill of an engaged Genestealer",
    K.EVASION_ATTACKER: "the first marine offered (formation order)",
    K.NEXT_MARINE: "formation order: the order rarely matters and the rules code offers it top down",
    K.KILL: "the first card kind: which kind dies matters only for the movement icons",
    K.PILE: "asked only when the two piles tie for smallest: either is the same",
    K.REVIVE: "the first marine offered",
    K.SPAWN_FIRST: "the first terrain offered",
}

# decision kind -> the Heuristic method that answers it (on_<kind>), found once
_BY_KIND: Final[dict[str, Callable[[Heuristic, Board, Decision], Option]]] = {
    name[3:]: getattr(Heuristic, name) for name in sorted(dir(Heuristic)) if name.startswith("on_")}


def heuristic_agent(seed: int = 0) -> Callable[[Board, Decision], Option]:
    return Heuristic(seed)
