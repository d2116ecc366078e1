"""The heuristic's risk model: the chance that a marine dies in the coming
Genestealer attack, and the worth of removing Genestealers, in one currency
(expected marine deaths).  A swarm of ``n`` cards whose cards add ``d`` to the
defence roll (``defence_modifier`` effects: -1 per Brood Lord) kills the marine it
attacks when the die shows at most ``n - d``
(:func:`~cardkit.games.death_angel.combat.defence_kills`).  With the die faces
0, 1*, 2*, 3*, 4, 5 (* a skull), a swarm of two kills on 0, 1 and 2, so
``kill_chance`` is 1/2; with a Block-like ability the skulls miss and only the 0
kills: 1/6 (``tests/engine/test_heuristic.py``).

Each agent owns one :class:`Risk` (its memo included); nothing is kept at module level but
the kill tables of the die faces seen (immutable, the same for every agent).
"""

from __future__ import annotations

from typing import Any, Callable, Final, Iterable, TypeVar

from cardkit.games.death_angel.board import Board
from cardkit.games.death_angel.combat import defence_kills
from cardkit.games.death_angel.state import Marine, Row, Swarm
from cardkit.games.death_angel.weights import WEIGHTS
from cardkit.model import Effect

T = TypeVar("T")


def kill_chance(faces: tuple[tuple[int, bool], ...], n: int, modifier: int, block: bool, second_wind: bool) -> float:
    """Chance that one defence roll against a swarm of ``n`` cards whose cards add
    ``modifier`` to the roll (-1 per Brood Lord) kills the marine."""
    k = 0
    for value, skull in faces:
        if defence_kills(value, skull, n, modifier, block, second_wind):
            k += 1
    return k / len(faces)


def _most(values: list[float]) -> float:
    """``max(values, default=0.0)``, without the keyword parsing of the builtin
    (it runs tens of thousands of times a sweep); a list, which compiled code
    walks without the iterator protocol."""
    best, seen = 0.0, False
    for v in values:
        if not seen or v > best:
            best, seen = v, True
    return best


def _pick(items: Iterable[T], key: Callable[[T], Any], smallest: bool = False) -> T:
    """``max(items, key=key)`` (``min`` when ``smallest``): the first item with
    the best key, without the keyword parsing of the builtins."""
    it = iter(items)
    for best in it:
        best_key = key(best)
        for x in it:
            k = key(x)
            if (k < best_key) if smallest else (k > best_key):
                best, best_key = x, k
        return best
    raise ValueError("_pick() of an empty sequence")


class Profile:
    """How a marine defends this round: the abilities in force for him."""

    __slots__ = ("block", "stance", "second_wind")

    def __init__(self, block: bool = False, stance: bool = False, second_wind: bool = False) -> None:
        self.block, self.stance, self.second_wind = block, stance, second_wind


BLOCK_KINDS: Final = ("defence_skull_cancels", "defence_skull_counterattack")  # skulls miss this marine
DEFENCE_KINDS: Final = BLOCK_KINDS + ("reroll_defence_saves",)


def _profile(st: Board, m: Marine, extra: tuple = ()) -> Profile:  # type: ignore[type-arg]
    p = Profile(second_wind=m.id in st.now.second_wind)
    for _, eff, team in st.active:
        if team == m.team:
            _apply_defence(p, eff, m)
    for eff in extra:
        _apply_defence(p, eff, m)
    return p


def _apply_defence(p: Profile, eff: Effect, m: Marine) -> None:
    kind = eff.kind
    if kind in BLOCK_KINDS and eff.get("marine") == m.id:
        p.block = True
    elif kind == "reroll_defence_saves":
        p.stance = True


class Risk:
    """The risk model of one agent, and what it reuses between calls: the kill table of the last die
    faces seen, and the defence profiles of the last state seen, keyed by
    (round, cards in force).  Profiles change only when a round starts or an
    action card comes into force; while no defence ability is in force (most of
    the time) every marine has the plain profile.  The state is held and compared
    by identity, so a new game never hits a stale entry."""

    def __init__(self) -> None:
        self.faces: tuple[tuple[int, bool], ...] = ()
        self.table: tuple[tuple[float, ...], ...] = ()
        self.state: object = None
        self.round = -1
        self.active = -1
        self.plain = True  # no defence ability in force, no Second Wind
        self.profiles: dict[str, Profile] = {}
        # While the agent weighs one decision the board stands still: the danger of
        # each marine where he stands is worked out once, kept by row in slots
        # stamped with the decision, as is the best support-token value
        # (``token_best``, -1.0: not yet).  The action cards of a round are
        # chosen one team after another with nothing moving in between: those
        # decisions share one stamp.  Only inside Heuristic.__call__, never for a
        # board someone may change between calls.
        self.deciding: object = None
        self.stamp = 0
        self.slots: list[_Slot] = []
        self.token_best = -1.0
        self.choosing: object = None  # the state and round of the last decision, when it was an action choice
        self.choosing_round = -1


    def profile(self, st: Board, m: Marine, extra: tuple = ()) -> Profile:  # type: ignore[type-arg]
        """The defence abilities in force for ``m``; ``extra``: effects of a card
        the agent considers playing."""
        if not extra:
            return self._profile_memo(st, m)
        return _profile(st, m, extra)

    def _profile_memo(self, st: Board, m: Marine) -> Profile:
        memo = self
        if memo.state is not st or memo.round != st.round or memo.active != len(st.active):
            memo.state, memo.round, memo.active, memo.profiles = st, st.round, len(st.active), {}
            memo.plain = not st.now.second_wind and not any(eff.kind in DEFENCE_KINDS for _, eff, _ in st.active)
        if memo.plain:
            return PLAIN
        p = memo.profiles.get(m.id)
        if p is None:
            p = memo.profiles[m.id] = _profile(st, m)
        return p

    def _kill_table(self, faces: tuple[tuple[int, bool], ...]) -> tuple[tuple[float, ...], ...]:
        """kill_chance by [2 * block + second_wind][swarm size minus its defence modifier, capped
        at 6] (lowering the roll by 1, as a Brood Lord does, is the same as raising the size; the
        modifier is never positive, ``vocabulary.py``)."""
        memo = self
        if faces is memo.faces:  # the same game asks again: skip hashing the faces
            return memo.table
        table = _TABLES.get(faces)
        if table is None:
            table = _TABLES[faces] = tuple(
                tuple(kill_chance(faces, t, 0, block, sw) for t in range(7))
                for block in (False, True) for sw in (False, True))
        memo.faces, memo.table = faces, table
        return table

    def danger_at(self, st: Board, row: int, m: Marine, tokens: int = -1, facing: str | None = None,
                  prof: Profile | None = None, skip: Swarm | None = None, recount: Swarm | None = None,
                  size: int = 0, extra: Swarm | None = None, extra_side: str = "") -> float:
        """Chance that ``m``, standing at ``row``, dies in the coming Genestealer attack
        (with ``tokens`` support tokens instead of his own when given; -1: his own).

        What-ifs without touching the board: ``skip`` leaves a swarm out, ``recount``
        counts one as ``size`` (its cards minus their defence modifier; 0 when all would be gone),
        and ``extra`` adds one as the last swarm on ``extra_side``.  Each gives exactly
        the number the board changed that way would give.

        The inner loop of the agent: it runs hundreds of thousands of times in a sweep."""
        if (prof is None and skip is None and recount is None and extra is None
                and (tokens < 0 or tokens == m.tokens) and (facing is None or facing == m.facing)):
            return self.danger_here(st, row, m)
        r = st.rows[row]
        if not r.left.swarms and not r.right.swarms and extra is None:
            return 0.0
        return self._danger(st, r, m, m.tokens if tokens < 0 else tokens, m.facing if facing is None else facing,
                       self._profile_memo(st, m) if prof is None else prof, skip, recount, size, extra, extra_side)

    def danger_here(self, st: Board, row: int, m: Marine) -> float:
        """:func:`danger_at` without a what-if (the agent's most frequent question):
        worked out once per decision while the agent decides."""
        r = st.rows[row]
        if not r.left.swarms and not r.right.swarms:
            return 0.0
        memo = self
        if memo.deciding is st and r.marine is m:
            slot = memo.slots[row]
            if slot.stamp != memo.stamp:
                slot.value = self._danger(st, r, m, m.tokens, m.facing, self._profile_memo(st, m), None, None, 0, None, "")
                slot.stamp = memo.stamp
            return slot.value
        return self._danger(st, r, m, m.tokens, m.facing, self._profile_memo(st, m), None, None, 0, None, "")

    def _danger(self, st: Board, r: Row, m: Marine, n_tokens: int, faced: str, prof: Profile, skip: Swarm | None,
                recount: Swarm | None, size: int, extra: Swarm | None, extra_side: str) -> float:
        left, right = r.left.swarms, r.right.swarms
        faces = st.game.faces
        table = self._kill_table(faces)[2 * prof.block + prof.second_wind]
        rerolls = 1 + (n_tokens if n_tokens < 2 else 2)
        survive = 1.0
        reroll = n_tokens > 0 and faced == "left"
        if left:
            survive = _survive(survive, left, table, reroll, prof.stance, rerolls, len(faces), skip, recount, size)
        if extra is not None and extra_side == "left":
            survive = _survive(survive, [extra], table, reroll, prof.stance, rerolls, len(faces), None, None, 0)
        reroll = n_tokens > 0 and faced == "right"
        if right:
            survive = _survive(survive, right, table, reroll, prof.stance, rerolls, len(faces), skip, recount, size)
        if extra is not None and extra_side == "right":
            survive = _survive(survive, [extra], table, reroll, prof.stance, rerolls, len(faces), None, None, 0)
        return 1.0 - survive

    def kill_value(self, st: Board, row: int, sw: Swarm, kills: int = 1) -> float:
        """Worth of killing ``kills`` killable cards of a swarm: the danger it no
        longer poses to the marine it is engaged with, plus the cards themselves."""
        killable = [c for c in sw.cards if not c.last] or list(sw.cards)  # as Board.killable
        k = min(kills, len(killable))
        if k == 0 or sw.shielded:
            return 0.0
        m = st.rows[row].marine
        gain = WEIGHTS["gs"] * k
        if k and at_brood_lord_finale(st):
            lords = 0  # Brood Lords among the k killed: each is a step to the win
            for c in killable[:k]:
                if c.brood_lord:
                    lords += 1
            if lords:
                gain += WEIGHTS["win_step"] * lords
            elif any(c.brood_lord for c in sw.cards):  # each kill brings the Brood Lord nearer to the open
                gain += WEIGHTS["lord_guard"] * WEIGHTS["win_step"] * k / len(killable)
        if m is not None and not sw.attacked:
            before = self.danger_here(st, row, m)
            # what if they died: the swarm counts its cards and their defence modifier without the k killed
            left_over = len(sw.cards) - k
            modifier = sw.defence_modifier()
            for c in killable[:k]:
                modifier -= c.defence
            after = self.danger_at(st, row, m, recount=sw, size=left_over - modifier if left_over > 0 else 0)
            gain += before - after
        return gain

    def best_kill_value(self, st: Board, targets: list[tuple[int, str, Swarm]], kills: int = 1) -> float:
        return _most([self.kill_value(st, j, sw, kills) for j, s, sw in targets])


class _Slot:
    __slots__ = ("stamp", "value")

    def __init__(self) -> None:
        self.stamp = -1
        self.value = 0.0


PLAIN: Final = Profile()
_TABLES: Final[dict[tuple[tuple[int, bool], ...], tuple[tuple[float, ...], ...]]] = {}


def _survive(survive: float, swarms: list[Swarm], table: tuple[float, ...], reroll: bool, stance: bool, rerolls: int,
             n_faces: int, skip: Swarm | None, recount: Swarm | None, size: int) -> float:
    """``survive`` times the chance to live through the attacks of ``swarms`` (one
    side), multiplied in the same order as ever: the results stay bit for bit."""
    for sw in swarms:
        cards = sw.cards
        if not cards or sw.shielded or sw.attacked or sw is skip:
            continue
        if sw is recount:
            if size <= 0:
                continue
            t = size
        else:
            t = len(cards)
            for c in cards:
                t -= c.defence
        p = table[t if t < 6 else 6]
        if reroll:
            p = p / n_faces if stance else p ** rerolls  # Defensive Stance: a re-roll fails only on 0
        survive *= 1.0 - p
    return survive


def at_brood_lord_finale(st: Board) -> bool:
    loc = st.location
    return loc is not None and not st.location_deck and loc.win is not None and loc.win.kind == "kill_brood_lords"
