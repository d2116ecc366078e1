"""The Brood Lord's abilities are card data: the engine reads them from the card's effects
(``defence_modifier``, ``killed_last``), so impact's ablation switches them off, while what the
card is (``brood_lord: true``: its deck, the Lair's spawn, the win condition) stays."""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType
from typing import Any

from cardkit.games.death_angel.engine import State
from cardkit.model import Effect
from cardkit.games.death_angel.rules_engine import ablated
from tests.engine.test_heuristic import DA, situation

OFF = ablated(DA, ["brood_lord_a"])
FORMATION = [{"marine": "sergeant_gideon", "facing": "left"}, {"marine": "brother_noctis", "facing": "left"}]


def attacked(card_set: Any, cards: list[str], roll: int) -> bool:
    """Does Gideon die when the swarm ``cards`` in front of him attacks and the die shows ``roll``?"""
    st = situation({"phase": "genestealer_attack", "teams": [{"team": "green", "chosen": "dead_aim"}],
                    "formation": FORMATION, "swarms": [{"row": 0, "side": "left", "cards": cards}]},
                   forced=[roll], card_set=card_set)
    while st.decision is not None and st.rng.forced:
        st.apply(st.decision.options[0])
    assert not st.rng.forced  # the forced roll was the defence roll
    return any(e[0] == "death" and e[1] == "sergeant_gideon" for e in st.events)


def test_the_ablated_brood_lord_no_longer_lowers_the_defence_roll():
    swarm = ["genestealer_claw", "brood_lord_a"]
    # a 3 against a swarm of 2: lowered to 2 by the Brood Lord it kills; switched off it misses
    assert attacked(DA, swarm, 3) and not attacked(OFF, swarm, 3)
    # the other Brood Lord keeps its ability in the ablated set, and a 4 is still a miss either way
    assert attacked(OFF, ["genestealer_claw", "brood_lord_b"], 3)
    assert not attacked(DA, swarm, 4) and not attacked(OFF, swarm, 4)


def lone_board(card_set: Any) -> State:
    return situation({"phase": "round", "formation": FORMATION,
                      "swarms": [{"row": 0, "side": "left", "cards": ["brood_lord_a", "genestealer_claw"]}]},
                     card_set=card_set)


def test_killed_last_is_the_cards_ability_and_brood_lord_what_it_is():
    st, off = lone_board(DA), lone_board(OFF)
    sw, sw_off = st.rows[0].left.swarms[0], off.rows[0].left.swarms[0]
    assert [c.card for c in st.killable(sw)] == ["genestealer_claw"]
    assert [c.card for c in off.killable(sw_off)] == ["brood_lord_a", "genestealer_claw"]
    # switched off it is still a Brood Lord: killing it counts for the Lair's win condition
    lord = sw_off.cards[0]
    assert lord.brood_lord and (lord.defence, lord.last) == (0, False)
    off.kill(0, "left", sw_off, lord)
    assert off.brood_killed == 1 and off.removed == [lord]


def test_a_plain_genestealer_given_the_ability_in_data_lowers_the_roll():
    """A fan-made card: an ordinary Genestealer with the Brood Lord's defence modifier, no flag."""
    claw = DA.cards["genestealer_claw"]
    cards = dict(DA.cards)
    cards["genestealer_claw"] = replace(claw, effects=(Effect.from_data({"kind": "defence_modifier", "amount": -2}),))
    fan = replace(DA, cards=MappingProxyType(cards))
    # two claws: each lowers the roll by 2, so a 5 becomes 1, at most 2: he dies; unchanged a 5 misses
    assert attacked(fan, ["genestealer_claw", "genestealer_claw"], 5)
    assert not attacked(DA, ["genestealer_claw", "genestealer_claw"], 5)
    assert not fan.cards["genestealer_claw"].brood_lord
