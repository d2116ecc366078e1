"""What the heuristic agent trades off, as data: tweak these to tell "the set
is too hard" from "the bot plays badly"."""

from __future__ import annotations

from typing import Any, Final

WEIGHTS: Final[dict[str, float]] = {
    "gs": 0.20,          # a Genestealer removed from the board, beyond the danger it poses this round
    "token": 0.06,       # a support token banked for later rounds
    "blip": 0.04,        # a blip card gone: one step closer to travel (or, at the end, to a cleared board)
    "door_token": 0.30,  # a token on a Door: one Genestealer killed at travel
    "reach": 0.03,       # a swarm within a marine's reach and facing for the next attack
    "keep_facing": 0.001,  # ties: a marine does not turn for nothing
    "reroll_attack_below": 0.12,  # spend a token on a missed attack when keeping it is worth less than this
    "swap_margin": 0.02,  # a swap must prevent at least this many expected deaths
    "lord_guard": 0.5,   # share of a Brood Lord kill that clearing its guard is worth
    "win_step": 1.0,     # a step toward the final location's win (a Launch token or roll, a Brood Lord killed)
}

PRIORITIES: Final[dict[str, Any]] = {
    # teams picked at setup: "rotate" (game k takes the k-th combination, so every card is in play at
    # every player count) or a fixed order, best first; ["yellow", "blue", "red", "purple", "grey",
    # "green"] is the strongest found (a sweep of all twenty solo team triples)
    "teams": "rotate",
    # control-panel gambles: worth taking when the formation holds at least this many Genestealers
    # (Genetorium) or the blip piles hold at least this many cards (Teleportarium discards them: travel)
    "gamble_at": {"gamble_kill": 6, "pay_or_roll_then_clear_blips": 5},
    # roll at a roll-at-most-tokens location once this many tokens lie on it (fewer when the squad is dying)
    "launch_roll_at": 2,
    # event effects that hurt the marine they target
    "harmful": ("roll_or_die", "lose_support", "trade_support_for_kill", "spawn_at_marine", "gather_at_marine"),
}
