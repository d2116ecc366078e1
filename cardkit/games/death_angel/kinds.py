"""The kinds of decision the engine asks (``Decision.kind``), one named constant each, and
the reasons a game ends (:data:`Reason`): Death Angel's own vocabularies, made into the generic
:data:`~cardkit.rules.core.DecisionKind` and :data:`~cardkit.rules.core.EndReason` words.

Agents dispatch on these; :data:`ALL` lists every kind the rules code can ask
(``tests/engine/test_decision_kinds.py`` checks it against the engine source and
the heuristic's handlers).
"""

from __future__ import annotations

from typing import Final, Literal, get_args

from cardkit.rules.core import DecisionKind

ACTION: Final = DecisionKind("action")
ACTIVATE: Final = DecisionKind("activate")
ARTEFACT: Final = DecisionKind("artefact")
ATTACK_AGAIN: Final = DecisionKind("attack_again")
ATTACK_TARGET: Final = DecisionKind("attack_target")
BLIP_DISCARD: Final = DecisionKind("blip_discard")
BLIP_DISCARD_PAID: Final = DecisionKind("blip_discard_paid")
CHARGE_TARGET: Final = DecisionKind("charge_target")
DOOR_BONUS: Final = DecisionKind("door_bonus")
DOOR_KILL: Final = DecisionKind("door_kill")
ENTER_FORMATION: Final = DecisionKind("enter_formation")
EVASION_ATTACKER: Final = DecisionKind("evasion_attacker")
EXTRA_ATTACK: Final = DecisionKind("extra_attack")
FACING: Final = DecisionKind("facing")
FLIP: Final = DecisionKind("flip")
HEROIC_CHARGE: Final = DecisionKind("heroic_charge")
INTIMIDATION: Final = DecisionKind("intimidation")
KILL: Final = DecisionKind("kill")
KILL_SWARM: Final = DecisionKind("kill_swarm")
LAUNCH: Final = DecisionKind("launch")
LEAD_BY_EXAMPLE: Final = DecisionKind("lead_by_example")
MOVE: Final = DecisionKind("move")
NEXT_MARINE: Final = DecisionKind("next_marine")
PAYER: Final = DecisionKind("payer")
PILE: Final = DecisionKind("pile")
PLACE_TERRAIN: Final = DecisionKind("place_terrain")
POWER_FIELD: Final = DecisionKind("power_field")
REROLL_ATTACK: Final = DecisionKind("reroll_attack")
REROLL_DEFENCE: Final = DecisionKind("reroll_defence")
RETURN: Final = DecisionKind("return")
REVIVE: Final = DecisionKind("revive")
SCOUT: Final = DecisionKind("scout")
SPAWN_FIRST: Final = DecisionKind("spawn_first")
SPEND_TO_KILL: Final = DecisionKind("spend_to_kill")
STRATEGIZE: Final = DecisionKind("strategize")
SUPPORT: Final = DecisionKind("support")
SWARM_TARGET: Final = DecisionKind("swarm_target")
TARGET: Final = DecisionKind("target")
TEAM: Final = DecisionKind("team")
TEAM_TARGET: Final = DecisionKind("team_target")
TELEPORT_PAY: Final = DecisionKind("teleport_pay")
TERRAIN_TARGET: Final = DecisionKind("terrain_target")

ALL: Final[tuple[DecisionKind, ...]] = (
    ACTION,
    ACTIVATE,
    ARTEFACT,
    ATTACK_AGAIN,
    ATTACK_TARGET,
    BLIP_DISCARD,
    BLIP_DISCARD_PAID,
    CHARGE_TARGET,
    DOOR_BONUS,
    DOOR_KILL,
    ENTER_FORMATION,
    EVASION_ATTACKER,
    EXTRA_ATTACK,
    FACING,
    FLIP,
    HEROIC_CHARGE,
    INTIMIDATION,
    KILL,
    KILL_SWARM,
    LAUNCH,
    LEAD_BY_EXAMPLE,
    MOVE,
    NEXT_MARINE,
    PAYER,
    PILE,
    PLACE_TERRAIN,
    POWER_FIELD,
    REROLL_ATTACK,
    REROLL_DEFENCE,
    RETURN,
    REVIVE,
    SCOUT,
    SPAWN_FIRST,
    SPEND_TO_KILL,
    STRATEGIZE,
    SUPPORT,
    SWARM_TARGET,
    TARGET,
    TEAM,
    TEAM_TARGET,
    TELEPORT_PAY,
    TERRAIN_TARGET,
)

#: why a game of Death Angel ended (``Outcome.reason``; the playtest's defeat causes)
Reason = Literal["cleared", "brood_lords_dead", "launch_control", "all_marines_dead", "round_limit", "unfinished"]
REASONS: Final[tuple[Reason, ...]] = get_args(Reason)
