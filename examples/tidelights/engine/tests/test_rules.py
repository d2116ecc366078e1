"""One scenario per rule (Fireplace-style): the table is arranged, the options are taken, and
what the README and RULES.md say happens, happens; switched off, it does not."""

from __future__ import annotations

from pathlib import Path

import pytest
from tidelights_engine.cards import read_deck
from tidelights_engine.state import BayShip, Night

from cardkit.load.project import load_project
from cardkit.rules.core import Option
from cardkit.rules.protocol import Result

EXAMPLE = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def card_set() -> object:
    return load_project(EXAMPLE).card_set("tidelights")


def arrange(card_set: object, keeper: str = "ottilie_brann", hand: tuple[str, ...] = (), bay: tuple[str, ...] = (),
            tide: tuple[str, ...] = (), disabled: frozenset[str] = frozenset(), empty_tide: bool = False,
            on: dict[str, list[tuple[str, tuple[str, ...]]]] | None = None) -> Night:
    """A solo night at the start of a turn: ``keeper``'s ``hand``, the ``bay`` (oldest first) and
    the ``tide`` cards on top of the deck (top first), crew already ``on`` ships of the bay; every
    other card where it was, so the cards are conserved."""
    deck = read_deck(card_set, disabled)
    night = Night(deck, 1, 1)
    night.keepers = [next(k for k in deck.keepers if k.id == keeper)]
    crew = night.crew_deck + night.crew_discard + [c for h in night.hands for c in h]
    for card in list(hand) + [c for cards in (on or {}).values() for c, _ in cards]:
        crew.remove(card)
    night.hands, night.crew_deck, night.crew_discard = [list(hand)], crew, []
    pool = [c for c, _, _ in night.tide] + [s.id for s in night.bay] + night.wrecked + night.storm_discard
    for card in bay + tide:
        pool.remove(card)
    night.bay = [BayShip(s, list((on or {}).get(s, []))) for s in bay]
    night.wrecked, night.storm_discard = [], []
    if empty_tide:
        night.storm_discard = [c for c in pool if c in deck.storms]
        night.wrecked = [c for c in pool if c not in deck.storms]  # out of the game for the scenario
        pool = []
    night.tide = [(c, c == "lantern_queen", 0) for c in pool] + [(c, False, 0) for c in reversed(tide)]
    night.turn, night.over = 0, None
    night._start_turn()
    night._settle()
    assert night.violations() == [] or empty_tide
    return night


def take(night: Night, *texts: str) -> None:
    for text in texts:
        assert night.decision is not None, text
        option = Option.parse(text)
        assert option in night.decision.options, (text, [o.text() for o in night.decision.options])
        night.apply(option)


def options(night: Night) -> set[str]:
    assert night.decision is not None
    return {o.text() for o in night.decision.options}


def test_a_ship_joins_the_back_of_the_bay_and_a_fifth_wrecks_the_oldest(card_set: object) -> None:
    night = arrange(card_set, bay=("kestrel", "patience", "merry_haddock", "grey_heron"), tide=("little_wren",))
    assert [s.id for s in night.bay] == ["patience", "merry_haddock", "grey_heron", "little_wren"]
    assert night.wrecked == ["kestrel"] and night.violations() == []


def test_a_second_storm_ends_the_turn_without_guide_or_draw(card_set: object) -> None:
    night = arrange(card_set, hand=("rower",), tide=("fog_bank", "cross_current", "kestrel"))
    take(night, "tide:reveal")
    assert night.turn == 1 and night.hands[0] == ["rower"]  # no guide step, no draw
    assert night.extra_reveals == 1 and {"fog_bank", "cross_current"} <= set(night.storm_discard)


def test_each_extra_reveal_draws_one_more_up_to_the_hand_size(card_set: object) -> None:
    night = arrange(card_set, keeper="cass_merrow", hand=("rower",), tide=("kestrel", "patience", "little_wren"))
    take(night, "tide:reveal", "tide:reveal", "tide:stop", "end:guide")
    assert len(night.hands[0]) == 1 + 3
    night = arrange(card_set, keeper="cass_merrow", hand=("rower", "rower", "rope_hand"),
                    tide=("kestrel", "patience", "little_wren"))
    take(night, "tide:reveal", "tide:reveal", "tide:stop", "end:guide")
    assert len(night.hands[0]) == 5  # Cass's hand size


def test_a_ship_berths_when_its_needs_are_covered_and_scores_cargo_and_bonus(card_set: object) -> None:
    night = arrange(card_set, hand=("lamp_trimmer", "rower"), tide=("little_wren",))
    take(night, "tide:stop", "play:lamp_trimmer:little_wren")
    assert "play:bell_ringer:little_wren" not in options(night)
    take(night, "play:rower:little_wren")
    assert options(night) == {"berth:fish_market", "berth:slipway", "berth:salt_stairs", "berth:net_loft",
                              "berth:pier_end", "berth:rope_walk"}  # skiffs: no ketch berths, no brig berths
    take(night, "berth:slipway")
    assert night.score == 1 + 2 and "little_wren" not in [s.id for s in night.bay]
    assert night.berths[[b.id for b in night.deck.berths].index("slipway")] == "little_wren"
    assert {"lamp_trimmer", "rower"} <= set(night.crew_discard) | set(night.hands[0])  # discarded (maybe drawn again)


def test_a_brig_berths_only_in_deep_water(card_set: object) -> None:
    night = arrange(card_set, hand=("old_salt",), bay=("iron_gannet",), tide=("kestrel",),
                    on={"iron_gannet": [("signal_lantern", ("lamp",)), ("harbour_pilot", ("rope",)),
                                        ("fog_horn", ("bell",))]})
    take(night, "tide:stop", "play:old_salt:iron_gannet:oar")
    assert options(night) == {"berth:deep_berth", "berth:salt_stairs", "berth:lighthouse_steps", "berth:rope_walk"}


def test_saltwick_takes_a_ship_one_need_short_unless_switched_off(card_set: object) -> None:
    night = arrange(card_set, hand=("rope_hand",), tide=("kestrel",))
    take(night, "tide:stop", "play:rope_hand:kestrel")
    assert options(night) == {"dock:kestrel:salt_stairs", "end:guide"}
    take(night, "dock:kestrel:salt_stairs")
    assert night.score == 1 and "saltwick" in night.fired
    night = arrange(card_set, hand=("rope_hand",), tide=("kestrel",), disabled=frozenset({"saltwick"}))
    take(night, "tide:stop", "play:rope_hand:kestrel")
    assert night.decision is not None and night.decision.kind == "tide"  # nothing left to do: the turn went on


def test_lantern_point_draws_two_for_a_brig_beyond_the_hand_size(card_set: object) -> None:
    for disabled, drawn in ((frozenset(), 2), (frozenset({"lantern_point"}), 0)):  # Ottilie's hand: 4
        night = arrange(card_set, hand=("old_salt", "rower", "rower", "rower", "bell_ringer"), tide=("iron_gannet",),
                        disabled=disabled)
        night.crew_deck.remove("rope_hand")
        night.bay[0].crew = [("rope_hand", ("lamp", "rope", "bell"))]
        take(night, "tide:stop", "play:old_salt:iron_gannet:oar", "berth:lighthouse_steps")
        assert len(night.hands[0]) == 4 + drawn and night.score == 4 + 2


def test_the_lantern_queen_berthed_wins_and_wrecked_loses(card_set: object) -> None:
    night = arrange(card_set, hand=("old_salt",), tide=("lantern_queen",))
    night.crew_deck.remove("old_salt")
    night.bay[0].crew = [("old_salt", ("lamp",))]
    for card in ("rope_hand", "bell_ringer"):
        night.crew_deck.remove(card)
        night.bay[0].crew.append((card, (card.split("_")[0],)))
    take(night, "tide:stop", "play:old_salt:lantern_queen:oar", "berth:deep_berth")
    result = night.result()
    assert result is not None and result.seats[0].result is Result.WIN and result.reason == "final_ship_berthed"
    assert result.seats[0].score == 6 + 1
    night = arrange(card_set, bay=("lantern_queen",), tide=("gale",))
    result = night.result()
    assert result is not None and result.seats[0].result is Result.LOSS and result.reason == "final_ship_wrecked"


def test_the_third_wreck_loses(card_set: object) -> None:
    night = arrange(card_set, bay=("kestrel", "patience", "merry_haddock"), tide=("tempest",))
    result = night.result()
    assert result is not None and result.reason == "wrecks" and len(night.wrecked) == 3


def test_second_chance_goes_to_the_bottom_of_the_tide_deck_instead(card_set: object) -> None:
    for disabled, saved in ((frozenset(), True), (frozenset({"second_chance"}), False)):
        night = arrange(card_set, bay=("second_chance",), tide=("gale",), disabled=disabled)
        assert (night.tide[0] == ("second_chance", False, 1)) is saved
        assert (night.wrecked == []) is saved


def test_northern_promise_drags_the_next_ship_down(card_set: object) -> None:
    for disabled, wrecked in ((frozenset(), ["northern_promise", "kestrel"]), (frozenset({"northern_promise"}),
                                                                                  ["northern_promise"])):
        night = arrange(card_set, bay=("northern_promise", "kestrel", "patience"), tide=("gale",), disabled=disabled)
        assert night.wrecked == wrecked


def test_the_storms_strike_as_printed(card_set: object) -> None:
    night = arrange(card_set, hand=("rower", "lamp_trimmer"), tide=("squall",))
    take(night, "discard:rower")
    assert night.hands[0] == ["lamp_trimmer"]
    night = arrange(card_set, hand=("rower",), tide=("fog_bank",), bay=("kestrel",))
    take(night, "tide:stop")  # no guide step: straight to the draw
    assert night.turn == 1 and len(night.hands[0]) == 2
    night = arrange(card_set, hand=("rope_hand",), bay=("kestrel",), tide=("cross_current",),
                    on={"kestrel": [("rower", ("oar",))]})
    assert night.bay[0].crew == [] and "rower" in night.crew_discard
    night = arrange(card_set, bay=("kestrel", "patience"), tide=("tempest",), disabled=frozenset({"tempest"}))
    assert night.wrecked == [] and night.storms == 1  # switched off: still a storm, it does nothing


def test_fog_horn_silences_the_next_storm_of_the_round(card_set: object) -> None:
    night = arrange(card_set, hand=("fog_horn",), tide=("patience", "gale"))
    take(night, "tide:stop", "play:fog_horn:patience", "end:guide")
    assert night.turn == 1 and night.decision is not None and night.decision.kind == "tide"  # the gale came, ignored
    assert [s.id for s in night.bay] == ["patience"] and night.ignored == 1 and "fog_horn" in night.fired
    assert night.storms == 0  # an ignored storm is not a storm of the turn


def test_cass_merrow_shelters_from_a_storm_with_a_rope_card(card_set: object) -> None:
    night = arrange(card_set, keeper="cass_merrow", hand=("rope_hand", "rower"), bay=("kestrel",), tide=("gale",))
    assert options(night) == {"shelter:rope_hand", "shelter:no"}
    take(night, "shelter:rope_hand")
    assert night.wrecked == [] and night.hands[0] == ["rower"] and "cass_merrow" in night.fired
    night = arrange(card_set, keeper="cass_merrow", hand=("rope_hand",), bay=("kestrel",), tide=("gale",),
                    disabled=frozenset({"cass_merrow"}))
    assert night.wrecked == ["kestrel"]


def test_jonah_pell_looks_and_may_put_the_card_at_the_bottom(card_set: object) -> None:
    night = arrange(card_set, keeper="jonah_pell", tide=("gale", "kestrel"))
    assert night.decision is not None and night.decision.kind == "peek"
    assert "gale" in night.information_state(0).split("tide (bottom first) ")[1].split("\n")[0]
    take(night, "peek:bottom")
    assert [s.id for s in night.bay] == ["kestrel"] and night.tide[0][0] == "gale"
    night = arrange(card_set, keeper="jonah_pell", tide=("gale", "kestrel"), disabled=frozenset({"jonah_pell"}))
    assert night.decision is not None and night.decision.kind == "tide" and "gale" in night.storm_discard


def test_ottilie_brann_counts_one_lamp_as_two_once_a_turn(card_set: object) -> None:
    for disabled, covered in ((frozenset(), ("lamp", "lamp")), (frozenset({"ottilie_brann"}), ("lamp",))):
        night = arrange(card_set, keeper="ottilie_brann", hand=("lamp_trimmer", "lamp_trimmer"),
                        tide=("saltmarsh_rose",), disabled=disabled)
        take(night, "tide:stop", "play:lamp_trimmer:saltmarsh_rose")
        assert night.bay[0].crew == [("lamp_trimmer", covered)]


def test_ines_varga_moves_a_crew_card_once_a_turn(card_set: object) -> None:
    night = arrange(card_set, keeper="ines_varga", hand=("rope_hand",), bay=("kestrel", "little_wren"),
                    tide=("patience",), on={"little_wren": [("rower", ("oar",))]})
    take(night, "tide:stop", "move:rower:little_wren:kestrel")
    assert night.bay[0].crew == [("rower", ("oar",))] and night.bay[1].crew == []
    assert not any(o.startswith("move:") for o in options(night))  # once a turn


def test_harbour_pilot_takes_a_ship_to_the_safe_end_of_the_bay(card_set: object) -> None:
    for disabled, order in ((frozenset(), ["patience", "kestrel"]), (frozenset({"harbour_pilot"}),
                                                                      ["kestrel", "patience"])):
        night = arrange(card_set, hand=("harbour_pilot",), bay=("kestrel",), tide=("patience",), disabled=disabled)
        take(night, "tide:stop", "play:harbour_pilot:kestrel")
        assert [s.id for s in night.bay] == order


def test_old_salt_covers_one_need_of_the_player_s_choice(card_set: object) -> None:
    night = arrange(card_set, hand=("old_salt",), tide=("merry_haddock",))
    take(night, "tide:stop")
    assert {"play:old_salt:merry_haddock:lamp", "play:old_salt:merry_haddock:rope",
            "play:old_salt:merry_haddock:oar"} <= options(night)
    night = arrange(card_set, hand=("old_salt",), tide=("merry_haddock",), disabled=frozenset({"old_salt"}))
    take(night, "tide:stop", "play:old_salt:merry_haddock")
    assert night.bay == [] or night.ship == "merry_haddock"  # all three needs covered at once: it berths


def test_patience_scores_one_more_after_weathering_a_storm(card_set: object) -> None:
    for disabled, points in ((frozenset(), 1 + 1 + 1), (frozenset({"patience"}), 1 + 1)):
        night = arrange(card_set, hand=("rower",), bay=("patience",), tide=("fog_bank", "kestrel"),
                        on={"patience": [("bell_ringer", ("bell",))]}, disabled=disabled)
        take(night, "tide:stop")  # the fog bank: no guide step; the next turn reveals the kestrel
        take(night, "tide:stop", "play:rower:patience", "berth:net_loft")
        assert night.score == points


def test_slack_water_discards_a_card_and_the_crew_deck_running_out_twice_loses(card_set: object) -> None:
    night = arrange(card_set, hand=("rower", "bell_ringer"), empty_tide=True)
    assert options(night) == {"slack:rower", "slack:bell_ringer"}
    take(night, "slack:rower")
    assert "rower" in night.crew_discard and night.turn == 1  # then guide, draw 1, and slack water again
    night.crew_deck, night.reshuffled = [], True
    take(night, f"slack:{night.hands[0][0]}")
    result = night.result()
    assert result is not None and result.reason == "crew_deck_out"
