"""The JSON Schema of Death Angel's own section of ``set.yaml`` (``rules``).

The loader validates the section with it (the plugin's ``manifest_schema``
hook), every problem located like any schema error.  The player range is not
here: a Death Angel set states it in the generic ``players: {min, max}`` field.

>>> sorted(RULES_SCHEMA["required"])
['adjacent_move', 'location_tiers', 'teams_per_player']
"""

from __future__ import annotations

from typing import Any

_UP_DOWN = {"enum": ["up", "down"]}

RULES_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["teams_per_player", "adjacent_move", "location_tiers"],
    "properties": {
        "teams_per_player": {
            "description": "combat teams each player controls, by player count (index 0 = 1 player)",
            "type": "array", "minItems": 1, "maxItems": 12,
            "items": {"type": "integer", "minimum": 1, "maximum": 12},
        },
        "adjacent_move": {
            "description": "where adjacent Genestealer movement goes on each side of the formation",
            "type": "object", "additionalProperties": False, "required": ["left", "right"],
            "properties": {"left": _UP_DOWN, "right": _UP_DOWN},
        },
        "location_tiers": {
            "description": "the location tiers in order of travel",
            "type": "array", "minItems": 1, "maxItems": 20, "uniqueItems": True,
            "items": {"$ref": "common.schema.json#/$defs/tier"},
        },
    },
}

#: ``set.yaml`` keys Death Angel adds beside ``rules`` (the plugin's ``manifest_keys``): the combat
#: die's faces, and the counts of its tokens and markers under ``components``
COMBAT_DIE_SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["faces"],
    "properties": {"faces": {
        "type": "array", "minItems": 2, "maxItems": 20,
        "items": {"type": "object", "additionalProperties": False, "required": ["value", "skull"],
                  "properties": {"value": {"type": "integer", "minimum": 0, "maximum": 20},
                                 "skull": {"type": "boolean"}}},
    }},
}
COMPONENT_SCHEMAS: dict[str, dict[str, Any]] = {
    "support_tokens": {"type": "integer", "minimum": 0, "maximum": 100},
    "combat_team_markers": {"type": "integer", "minimum": 0, "maximum": 100},
}
