"""Death Angel's effect vocabulary: every ability one of its cards can have, named in data.

A card's ability is a list of effects; each effect is a ``kind`` plus
parameters (``{kind: spawn_at_marine, target: chosen_marine, side: rear,
count: 2}``).  This module is the single source of truth for which kinds exist
and which parameters each takes: the JSON Schema section for effects
(``effect.schema.json``, beside the set's derived schemas; cardkit's generic ``schemas/``
has no copy: the loader resolves the cards' ``$ref`` through the plugin) is generated from it
through the plugin's ``effect_schema`` hook, the validator reports an unknown kind
(``effect_vocabularies``), and the rules engine registers exactly one handler per
kind (:mod:`cardkit.games.death_angel.effects`).  The building blocks (a kind, a
parameter, a vocabulary's schema and table) are generic: :mod:`cardkit.effects`.

It belongs to the core: it imports nothing from localization or rendering.

>>> EFFECTS["spawn_at_marine"].params["count"].minimum
1
>>> sorted(TIMINGS)[:2]
['after_action', 'attack']
"""

from __future__ import annotations

from cardkit.effects import EffectKind, Param, vocabulary_markdown, vocabulary_schema, vocabulary_schema_text

# Which marines an effect picks.  "chosen_*" targets are decided by the current
# player; the rulebook requires a choice that makes the effect as strong as possible.
TARGETS = (
    "chosen_marine",
    "chosen_marine_with_support",
    "chosen_marine_without_support",
    "each_engaged_marine",
    "each_unengaged_marine",
    "all_marines",
    "top_marine",
    "activating_marine",
)
SIDES_REL = ("front", "rear")  # relative to a marine's facing
SIDES_ABS = ("left", "right")
COLOURS = ("red", "orange", "yellow", "green")
ICONS = ("claw", "tongue", "tail", "head")
ACTION_TYPES = ("support", "move_activate", "attack")
# When an action card's ability takes part in the round.
TIMINGS = (
    "after_action",  # once the base action of the card has resolved
    "end_of_event_phase",
    "defence_roll",
    "defence_reroll",
    "attack_roll",
    "move_step",
    "door_activation",
    "on_kill",
    "attack",  # replaces or extends the base attack
)


def _count(doc: str, lo: int = 1, hi: int = 36) -> Param:
    return Param("integer", doc, minimum=lo, maximum=hi)


def _marine(doc: str = "the Space Marine this ability belongs to") -> Param:
    return Param("string", doc, ref="marine")


def _target(doc: str = "which Space Marines the effect picks") -> Param:
    return Param("enum", doc, choices=TARGETS)


_FACES = Param("faces", "die faces (0-5) that trigger the result")
_COST = Param("integer", "support tokens the marine must spend", minimum=0, maximum=12)

_KINDS: list[EffectKind] = [
    # --- action-card abilities -------------------------------------------------
    EffectKind("defence_skull_cancels", "While defending, a skull face makes the swarm's attack miss.",
               {"marine": _marine()}),
    EffectKind("reroll_defence_saves", "A defence die re-rolled with a support token saves the marine unless it shows one of the faces.",
               {"fail_faces": _FACES}),
    EffectKind("defence_skull_counterattack", "A skull while defending makes the attack miss and kills attackers; a surviving swarm attacks again.",
               {"marine": _marine(), "kills": _count("Genestealers killed in the attacking swarm", 1, 6),
                "swarm_attacks_again": Param("boolean", "the swarm attacks once more if it survives")}),
    EffectKind("attack_for_support", "Each marine of the team may spend support to make attacks at a given moment.",
               {"timing": Param("enum", "when the attacks happen", choices=("after_action", "end_of_event_phase")),
                "cost": _COST, "attacks": _count("attacks per marine", 1, 3)}),
    EffectKind("move_swarm", "Move one swarm up or down the formation and optionally to the other side.",
               {"max_positions": _count("how many positions it may move", 0, 12),
                "may_switch_side": Param("boolean", "it may also change sides")}),
    EffectKind("shield_swarm", "A chosen swarm can neither attack nor be killed until the end of the round.", {}),
    EffectKind("door_bonus_token", "A marine of the team that activates a Door may place extra tokens on it.",
               {"extra_tokens": _count("extra support tokens", 1, 3)}),
    EffectKind("discard_from_blips", "Discard the top card of one blip pile, then optionally pay to discard from the other.",
               {"free": _count("cards discarded for free", 0, 3), "paid": _count("cards discarded by paying", 0, 3),
                "cost": _COST}),
    EffectKind("free_swap", "Moving marines may swap with a marine in any position.", {}),
    EffectKind("scout_event_deck", "Look at the top cards of the event deck; keep each on top or put it at the bottom.",
               {"cards": _count("cards looked at", 1, 3)}),
    EffectKind("roll_return_engaged", "Roll; return up to that many Genestealers engaged with the team to a blip pile.",
               {"destination": Param("enum", "which blip pile", choices=("smaller_blip_pile",))}),
    EffectKind("support_on_kill", "When a team marine kills a Genestealer, place support tokens on any marine.",
               {"tokens": _count("support tokens placed", 1, 3), "per_round": _count("how often per round", 1, 6)}),
    EffectKind("attack_kills_face_value", "The attacking marine ignores skulls and kills as many Genestealers as the number rolled.",
               {"marine": _marine()}),
    EffectKind("extra_attack_per_skull", "Every skull the marine rolls while attacking grants an immediate extra attack.",
               {"marine": _marine()}),
    EffectKind("attack_face_kills", "A given attack face kills several Genestealers of the target swarm.",
               {"face": Param("integer", "the die face", minimum=0, maximum=5),
                "kills": _count("Genestealers killed", 1, 6)}),
    EffectKind("multi_attack", "The marine makes several attacks instead of one.",
               {"marine": _marine(), "attacks": _count("attacks in this action", 2, 6)}),
    EffectKind("heroic_charge", "Instead of attacking, kill Genestealers near the marine ignoring facing; then a death roll.",
               {"marine": _marine(), "kills": _count("Genestealers killed", 1, 6),
                "reach": _count("positions away", 0, 3), "death_faces": _FACES}),
    # --- event abilities -------------------------------------------------------
    EffectKind("gather_at_marine", "Every swarm moves to a chosen marine's position, keeping its side.",
               {"target": _target()}),
    EffectKind("swarms_to_rear", "Every swarm moves behind the marine it is engaged with.", {}),
    EffectKind("spawn_at_marine", "Spawn Genestealers in front of or behind marines.",
               {"target": _target(), "side": Param("enum", "relative to the marine's facing", choices=SIDES_REL),
                "count": _count("Genestealers per marine", 1, 6)}),
    EffectKind("add_to_blips", "Deal cards from the Genestealer deck onto each blip pile.",
               {"count": _count("cards per pile (per marine if per_marine)", 1, 6),
                "per_marine": Param("boolean", "multiply by the number of marines in the formation")}),
    EffectKind("roll_or_die", "Roll for a marine; he dies on the given faces.",
               {"target": _target(), "death_faces": _FACES}),
    EffectKind("limit_team_attackers", "Next round, an Attack card lets only some of the team's marines attack.",
               {"attackers": _count("marines that may attack", 0, 1)}),
    EffectKind("lose_support", "Marines discard all their support tokens.", {"target": _target()}),
    EffectKind("flip_facing", "Marines turn to face the other way.", {"target": _target()}),
    EffectKind("gather_support", "Every other marine's support tokens move onto one marine.", {"target": _target()}),
    EffectKind("forbid_action_type", "Next round a team that did not play this type may not choose it.",
               {"action_type": Param("enum", "the forbidden type", choices=ACTION_TYPES)}),
    EffectKind("trade_support_for_kill", "A marine discards support tokens to kill engaged Genestealers.",
               {"target": _target(), "tokens": _count("tokens discarded", 1, 3), "kills": _count("Genestealers killed", 1, 3)}),
    EffectKind("spend_support_to_kill", "A marine may spend any number of tokens, killing one engaged Genestealer each.",
               {"target": _target()}),
    EffectKind("discard_blips", "Discard the top cards of a chosen blip pile.",
               {"count": _count("cards discarded", 1, 6)}),
    EffectKind("roll_skull_kill", "Roll for a marine; on a skull kill Genestealers engaged with him.",
               {"target": _target(), "kills": _count("Genestealers killed", 1, 6)}),
    EffectKind("defence_save_next_round", "Next round, the marine's defence rolls on these faces make the attack miss.",
               {"target": _target(), "faces": _FACES}),
    EffectKind("immediate_attack", "A marine attacks at once.", {"target": _target(), "attacks": _count("attacks", 1, 3)}),
    EffectKind("door_tokens", "Every Door in play receives support tokens.", {"tokens": _count("tokens", 1, 6)}),
    EffectKind("support_before_move", "Next round, before each Move + Activate card, its player may place support.",
               {"tokens": _count("tokens", 1, 3)}),
    EffectKind("return_swarm", "A chosen swarm is shuffled into a blip pile.",
               {"destination": Param("enum", "which blip pile", choices=("smaller_blip_pile",))}),
    EffectKind("revive_marine", "A dead marine whose team has a survivor rejoins at the bottom of the formation.",
               {"facing": Param("enum", "his facing", choices=SIDES_ABS)}),
    # --- location abilities ----------------------------------------------------
    EffectKind("spawn_at_terrain", "Spawn Genestealers at every terrain card of a type.",
               {"terrain": Param("string", "terrain id", ref="terrain"), "count": _count("Genestealers", 1, 6)}),
    EffectKind("replace_terrain", "Swap one terrain card in play for another at the same place.",
               {"remove": Param("string", "terrain id removed", ref="terrain"),
                "place": Param("string", "terrain id placed", ref="terrain")}),
    EffectKind("set_facing", "Marines turn to face one side.",
               {"target": _target(), "facing": Param("enum", "the side", choices=SIDES_ABS)}),
    EffectKind("turn_from_terrain", "Marines facing a terrain card at their position turn around.", {}),
    EffectKind("give_support", "Place support tokens on marines.",
               {"tokens": _count("tokens per marine", 1, 3), "recipients": _count("different marines", 1, 6),
                "may_flip": Param("boolean", "the recipient may then turn around")}),
    EffectKind("limit_spawn_at_terrain", "During the next event phase at most N Genestealers spawn at a chosen terrain card.",
               {"max": _count("Genestealers", 0, 6)}),
    EffectKind("spawn_into_swarm", "Spawn Genestealers into a chosen swarm.", {"count": _count("Genestealers", 1, 6)}),
    EffectKind("pay_or_roll_then_clear_blips", "Each marine pays support or rolls (dying on the faces); then both blip piles are discarded.",
               {"cost": _COST, "death_faces": _FACES}),
    EffectKind("gamble_kill", "Roll: on a skull kill Genestealers anywhere; otherwise the activating marine dies.",
               {"kills": _count("Genestealers killed", 1, 12)}),
    EffectKind("place_terrain", "Place a terrain card at any position and side.",
               {"terrain": Param("string", "terrain id", ref="terrain")}),
    EffectKind("gather_at_terrain_colour", "Every swarm moves to the terrain card of a colour on its own side.",
               {"colour": Param("enum", "terrain colour", choices=COLOURS)}),
    EffectKind("spawn_brood_lords", "Spawn one Brood Lord at each terrain card of a colour.",
               {"colour": Param("enum", "terrain colour", choices=COLOURS)}),
    EffectKind("token_or_roll", "Place a support token on the location card, or roll the die for its win condition.", {}),
    EffectKind("roll_discard_blips", "Roll; discard that many cards from a chosen blip pile.", {}),
    # --- Genestealer abilities -------------------------------------------------
    EffectKind("defence_modifier", "Every defence roll against the swarm holding this card is changed by the amount (each such card counts).",
               {"amount": Param("integer", "added to the defence roll before it is compared with the swarm's size (-1: the marine dies on one more number)",
                                minimum=-5, maximum=-1)}),
    EffectKind("killed_last", "The card cannot be killed while a card of its swarm without this ability is left.", {}),
    # --- terrain abilities -----------------------------------------------------
    EffectKind("trigger_location", "Resolve the current location's control-panel ability.", {}),
    EffectKind("door", "Activation places support on the door; at travel each token kills one Genestealer.",
               {"tokens": _count("tokens per activation", 1, 3)}),
    EffectKind("promethium_tank", "Discard the tank, kill every Genestealer at its position, then a death roll.",
               {"death_faces": _FACES}),
    EffectKind("spore_chimney", "Roll; on a skull discard the chimney.", {}),
    EffectKind("artefact", "Take the card; discard it after a defence roll to make that attack miss.", {}),
]

EFFECTS: dict[str, EffectKind] = {k.name: k for k in _KINDS}

# Win conditions of final locations (a separate, smaller vocabulary).
WIN_KINDS: dict[str, EffectKind] = {
    k.name: k
    for k in [
        EffectKind("kill_brood_lords", "The marines win as soon as this many Brood Lords have died.",
                   {"count": _count("Brood Lords", 1, 2)}),
        EffectKind("roll_at_most_tokens", "A control-panel roll at most the number of tokens on the card wins.", {}),
        EffectKind("clear_all", "Win when both blip piles and the formation hold no Genestealers.", {}),
    ]
}


SOURCE = "cardkit/games/death_angel/vocabulary.py"
VOCABULARIES = {"effect": EFFECTS, "win": WIN_KINDS}
_LABELS = {"effect": "effect", "win": "win condition"}


def effect_schema() -> dict[str, object]:
    """The JSON Schema document ``effect.schema.json`` (generated; a test keeps
    the shipped files equal to this)."""
    return vocabulary_schema(VOCABULARIES, _LABELS, f"cardkit effect vocabulary (generated from {SOURCE})")


def effect_schema_text() -> str:
    return vocabulary_schema_text(effect_schema())


def effects_markdown() -> str:
    """``docs/effects.md``: the vocabulary as a table (a test keeps the file current)."""
    return vocabulary_markdown(
        "Effect vocabulary",
        [f"Generated from `{SOURCE}` (`python -m cardkit.games.death_angel.vocabulary --markdown > docs/effects.md`).",
         "A card's `effects` list names these kinds; the schema rejects unknown kinds and parameters."],
        [("Effects", EFFECTS), ("Win conditions (`win:` on final locations)", WIN_KINDS)])


if __name__ == "__main__":  # python -m cardkit.games.death_angel.vocabulary [--markdown]
    import sys

    print(effects_markdown() if "--markdown" in sys.argv else effect_schema_text(), end="")
