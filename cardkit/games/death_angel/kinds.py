"""The kinds of decision the engine asks (``Decision.kind``), one named constant each.

Agents dispatch on these; :data:`ALL` lists every kind the rules code can ask
(``tests/engine/test_decision_kinds.py`` checks it against the engine source and
the heuristic's handlers).
"""

from __future__ import annotations

from typing import Final

ACTION: Final = "action"
ACTIVATE: Final = "activate"
ARTEFACT: Final = "artefact"
ATTACK_AGAIN: Final = "attack_again"
ATTACK_TARGET: Final = "attack_target"
BLIP_DISCARD: Final = "blip_discard"
BLIP_DISCARD_PAID: Final = "blip_discard_paid"
CHARGE_TARGET: Final = "charge_target"
DOOR_BONUS: Final = "door_bonus"
DOOR_KILL: Final = "door_kill"
ENTER_FORMATION: Final = "enter_formation"
EVASION_ATTACKER: Final = "evasion_attacker"
EXTRA_ATTACK: Final = "extra_attack"
FACING: Final = "facing"
FLIP: Final = "flip"
HEROIC_CHARGE: Final = "heroic_charge"
INTIMIDATION: Final = "intimidation"
KILL: Final = "kill"
KILL_SWARM: Final = "kill_swarm"
LAUNCH: Final = "launch"
LEAD_BY_EXAMPLE: Final = "lead_by_example"
MOVE: Final = "move"
NEXT_MARINE: Final = "next_marine"
PAYER: Final = "payer"
PILE: Final = "pile"
PLACE_TERRAIN: Final = "place_terrain"
POWER_FIELD: Final = "power_field"
REROLL_ATTACK: Final = "reroll_attack"
REROLL_DEFENCE: Final = "reroll_defence"
RETURN: Final = "return"
REVIVE: Final = "revive"
SCOUT: Final = "scout"
SPAWN_FIRST: Final = "spawn_first"
SPEND_TO_KILL: Final = "spend_to_kill"
STRATEGIZE: Final = "strategize"
SUPPORT: Final = "support"
SWARM_TARGET: Final = "swarm_target"
TARGET: Final = "target"
TEAM: Final = "team"
TEAM_TARGET: Final = "team_target"
TELEPORT_PAY: Final = "teleport_pay"
TERRAIN_TARGET: Final = "terrain_target"

ALL: Final[tuple[str, ...]] = (
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
