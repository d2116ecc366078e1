"""What an unfinished Death Angel game is worth: the engine's :class:`~cardkit.rules.protocol.Evaluated`
hook, which generic search (:mod:`cardkit.rules.agents`) values its cut-off playouts by.

:func:`features` reads the progress of a game from the board (the share of the location deck
reached, whether the squad stands at the final location and how many blips it still has to get
through there, the marines standing and the support tokens banked, the Genestealers in the
formation, the Brood Lords killed, the tokens on the final location); :func:`evaluate` turns them
into an estimate of the chance that the squad wins from here, a logistic model whose weights
(:data:`WEIGHTS`) were fitted to the outcomes of heuristic games (``bench/fit_death_angel_eval.py``,
which prints them; the fit's data and quality are in ``docs/search-agent.md``).

Typed, mypyc-compatible Python, compiled with the engine (``cardkit/_compiled.py``): generic search
calls it once a playout, and a playout's rules steps are compiled (left as Python it was a few per
cent of a compiled search game).
"""

from __future__ import annotations

import math
from typing import Final

from cardkit.games.death_angel.board import Board

#: the names of :func:`features`, in order (the fit script prints the weights by these names)
FEATURES: Final = ("bias", "reached", "final", "final_blips", "standing", "alive", "tokens", "swarming",
                   "brood_killed", "launch_tokens", "blips", "swarm_ratio", "reached_standing")

#: the logistic model's weights by :data:`FEATURES` (``bench/fit_death_angel_eval.py``)
WEIGHTS: Final[tuple[float, ...]] = (-4.517, 3.766, -0.6355, 0.02407, 3.707, 0.1179, -0.1556, -0.05948, 0.01874, 2.029,
                                    -0.05067, -0.04268, -0.3185)

#: playout decisions before generic search cuts a playout off and evaluates it (about two solo rounds)
PLAYOUT_LIMIT: Final = 30


def features(st: Board) -> list[float]:
    """The board's progress as numbers (see the module); every one is 0 at the start of a hopeless game."""
    total = len(st.location_deck) + len(st.past_locations) + (1 if st.location is not None else 0)
    reached = len(st.past_locations) + (1 if st.location is not None else 0)
    standing = 0
    tokens = 0
    for r in st.rows:
        m = r.marine
        if m is not None:
            standing += 1
            tokens += m.tokens
    dead = len(st.dead)
    final = 1.0 if st.at_final_location() else 0.0
    blips = float(len(st.left) + len(st.right))
    share = reached / max(1, total)
    alive = standing / max(1, standing + dead)
    swarming = float(st.gs_in_formation())
    return [1.0, share, final, final * blips, alive, float(standing), float(tokens + st.supply), swarming,
            float(st.brood_killed), final * float(st.location_tokens), blips, swarming / max(1, standing),
            share * alive]


def evaluate(st: Board, weights: tuple[float, ...] = WEIGHTS) -> float:
    """The estimated chance of a win from ``st``, in (0, 1); 0 once every marine has fallen."""
    x = features(st)
    if x[5] == 0.0:
        return 0.0
    z = 0.0
    for w, v in zip(weights, x):
        z += w * v
    if z < -30.0:
        return 0.0
    return 1.0 / (1.0 + math.exp(-z))
