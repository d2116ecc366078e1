"""Deep Strike: scoring by each scenario's rules, deployment feasibility, bad state files."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
import yaml

from cardkit.games.deep_strike.deploy import Deployer, default_army
from cardkit.games.deep_strike.score import load_state, score
from cardkit.load.project import load_project
from cardkit.games.deep_strike.cards import Scenario
from tests.conftest import REPO

DS = load_project(REPO).card_set("deep-strike")


def _score(tmp_path: Path, scenario: str, units: list[dict], **extra):
    path = tmp_path / "state.yaml"
    path.write_text(yaml.safe_dump({"kind": "deepstrike-state", "scenario": scenario, "units": units, **extra}), encoding="utf-8")
    doc, us = load_state(path, "state.yaml")
    return score(DS, doc, us)


def _points(result, side: str, rule: str) -> int:
    return sum(ln.points for ln in result.lines if ln.side == side and ln.rule == rule)


def U(id, side, x, y, type="unit", **kw):  # noqa: N802 - reads like a table row
    return {"id": id, "side": side, "type": type, "x": x, "y": y, **kw}


def test_ds1_quarters_shared_and_character_alone(tmp_path):
    r = _score(tmp_path, "ds1_secure_the_airhead", [
        U("a1", "a", 10, 10),                       # A's own quarter, alone
        U("a2", "a", 60, 40), U("b1", "b", 62, 42),  # B's own quarter: both hold -> shared
        U("a_cap", "a", 10, 40, "character"),         # side quarter: a character alone holds nothing
        U("b_tank", "b", 60, 5, "vehicle", mobile=False),  # side quarter: an immobile vehicle holds nothing
    ])
    assert _points(r, "a", "hold_own") == 300
    assert _points(r, "a", "shared_enemy") == 250 and _points(r, "b", "shared_own") == 150
    assert _points(r, "a", "hold_side") == 0 and _points(r, "b", "hold_side") == 0
    assert any(ln.key == "score.character_alone" and ln.values["unit"] == "a_cap" for ln in r.lines)
    assert r.totals == {"a": 550, "b": 150} and r.winner == "a"


def test_ds1_a_below_half_unit_does_not_deny(tmp_path):
    r = _score(tmp_path, "ds1_secure_the_airhead", [U("a1", "a", 60, 40), U("b1", "b", 62, 42, strength="at_or_below_half")])
    assert _points(r, "a", "hold_enemy") == 500 and r.totals["b"] == 0


def test_ds2_units_in_the_enemy_zone(tmp_path):
    r = _score(tmp_path, "ds2_probing_advance", [
        U("a1", "a", 10, 40), U("a2", "a", 20, 44, strength="at_or_below_half"),
        U("a_tank", "a", 30, 45, "vehicle", damaged=True), U("a_bike", "a", 40, 46, "vehicle"),
        U("a_cap", "a", 50, 40, "character"), U("a_home", "a", 10, 10),
        U("b1", "b", 10, 5, strength="destroyed"),
    ], victory_points={"a": 300, "b": 450})
    assert _points(r, "a", "deep_full") == 400  # a1 and the undamaged bike
    assert _points(r, "a", "deep_damaged") == 200  # a2 and the damaged tank
    assert _points(r, "b", "deep_full") == 0  # destroyed units score nothing
    assert [ln.values["unit"] for ln in r.lines if ln.key == "score.character_not_unit"] == ["a_cap"]  # said once
    assert r.totals == {"a": 300 + 600, "b": 450}


def test_ds3_black_box_held_and_dropped_on_fall_back(tmp_path):
    units = [U("a1", "a", 36, 24), U("b1", "b", 30, 30)]
    held = _score(tmp_path, "ds3_black_box_recovery", units, victory_points={"a": 100, "b": 200}, black_box={"carrier": "a1"})
    assert _points(held, "a", "black_box") == 500 and held.totals == {"a": 600, "b": 200}
    fled = _score(tmp_path, "ds3_black_box_recovery", [U("a1", "a", 36, 24, fell_back=True), U("b1", "b", 30, 30)],
                  victory_points={"a": 100, "b": 200}, black_box={"carrier": "a1"})
    assert _points(fled, "a", "black_box") == 0
    assert any(ln.key == "score.box_dropped" and ln.values["why"] == "fell_back" for ln in fled.lines)
    assert fled.winner == "b"


def test_ds4_victory_points_only(tmp_path):
    r = _score(tmp_path, "ds4_converging_assault", [U("a1", "a", 36, 44)], victory_points={"a": 700, "b": 700})
    assert r.totals == {"a": 700, "b": 700} and r.winner is None


def test_ds5_contested_quarter_scores_for_nobody(tmp_path):
    r = _score(tmp_path, "ds5_hammer_blow", [
        U("a1", "a", 10, 10), U("a2", "a", 60, 40), U("b1", "b", 62, 42), U("b2", "b", 60, 10, "vehicle"),
    ], victory_points={"a": 0, "b": 0})
    assert _points(r, "a", "hold_quarter") == 200  # A's left quarter only
    assert _points(r, "b", "hold_quarter") == 200  # the mobile vehicle holds a quarter
    assert any(ln.key == "score.contested" for ln in r.lines)


@pytest.mark.parametrize("units, a, b", [
    ([U("a1", "a", 36, 14, touching=["hull"])], 500, 0),
    ([U("a1", "a", 36, 14, touching=["wings"])], 0, 0),  # the wings do not count
    ([U("a1", "a", 36, 14, touching=["hull"]), U("b1", "b", 36, 34, touching=["hull"])], 0, 0),  # both sides touch
    ([U("a1", "a", 36, 14, touching=["hull"], close_combat="c1"), U("b1", "b", 37, 13, close_combat="c1")], 0, 0),
    ([U("a1", "a", 36, 14, touching=["hull"]), U("b1", "b", 37, 13, close_combat="c2"), U("a2", "a", 38, 12, close_combat="c2")], 500, 0),
])
def test_ds6_hull_contact(tmp_path, units, a, b):
    r = _score(tmp_path, "ds6_fallen_thunderhawk", units, victory_points={"a": 0, "b": 0})
    assert (_points(r, "a", "hull_claim"), _points(r, "b", "hull_claim")) == (a, b)


LINE = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+): error\[(?P<code>[A-Z]\d{3})\]: .+$")


@pytest.mark.parametrize("text, code, line", [
    ("kind: deepstrike-state\nscenario: ds1_secure_the_airhead\nunits:\n  - {id: a1, side: a, type: unit, x: 1, y: 1, colour: red}\n", "S001", 4),
    ("kind: deepstrike-state\nscenario: ds1_secure_the_airhead\nunits:\n  - {id: a1, side: a, type: unit, x: 1, y: 1}\n  - {id: a1, side: b, type: unit, x: 2, y: 2}\n", "D401", 5),
    ("kind: deepstrike-state\nscenario: ds3_black_box_recovery\nvictory_points: {a: 1, b: 2}\nunits: []\nblack_box: {carrier: ghost}\n", "D403", 5),
    ("kind: deepstrike-state\nscenario: ds1_secure_the_airhead\nunits:\n  - {id: a1, side: a, type: unit, x: 100, y: 1}\n", "D405", 4),
    ("kind: deepstrike-state\nscenario: ds3_black_box_recovery\nunits: []\n", "D406", 1),
    ("kind: deepstrike-state\nscenario: ds9_nope\nunits: []\n", "D404", 2),
    ("kind: deepstrike-state\nscenario: [unclosed\n", "Y001", 3),
    ("kind: deepstrike-state\nscenario: ds1_secure_the_airhead\nunits:\n  - {id: a1, side: c, type: unit, x: 1, y: 1}\n", "S004", 4),
])
def test_bad_state_files(tmp_path, cli, text, code, line):
    state = tmp_path / "state.yaml"
    state.write_text(text, encoding="utf-8")
    result = cli("deepstrike", "score", "--root", str(REPO), "--state", str(state))
    assert result.code == 1
    assert "Traceback" not in result.err
    hits = [LINE.match(ln) for ln in result.err.splitlines()]
    assert any(m and m["code"] == code and int(m["line"]) == line and m["file"].endswith("state.yaml") for m in hits), result.err


def test_score_cli_text_and_json(cli):
    state = REPO / "examples" / "deep-strike" / "airhead-end.yaml"
    out = cli("deepstrike", "score", "--root", str(REPO), "--state", str(state), "--format", "json")
    assert out.code == 0, out.err
    data = json.loads(out.out)
    assert data["totals"]["a"] == sum(ln["points"] for ln in data["lines"] if ln["side"] == "a")
    text = cli("deepstrike", "score", "--root", str(REPO), "--state", str(state)).out
    assert "Secure the Airhead" in text and f"{data['totals']['a']} points" in text


def test_check_cli_on_shipped_scenarios(cli):
    out = cli("deepstrike", "check", "--root", str(REPO), "--format", "json")
    assert out.code == 0, out.err
    data = json.loads(out.out)
    assert len(data["scenarios"]) == len(DS.of_kind(Scenario))
    assert all(s["feasible"] for s in data["scenarios"])
    codes = {s["scenario"]: {n["code"] for n in s["notes"]} for s in data["scenarios"]}
    assert "D201" in codes["ds2_probing_advance"] and "D201" in codes["ds5_hammer_blow"]
    bigger = cli("deepstrike", "check", "--root", str(REPO), "--radius", "3.5", "--format", "json")
    assert bigger.code == 1  # 7" footprints do not fit the 6" zones of scenario 3


@pytest.mark.parametrize("sc", sorted(DS.of_kind(Scenario), key=lambda s: s.number), ids=lambda s: s.id)
def test_every_placement_is_legal(sc):
    """Oracle: recheck each placement against the rules with plain geometry."""
    r = 2.5
    dep = Deployer(sc.data, r)
    geo = dep.geo
    for first in ("a", "b"):
        result = dep.run(default_army(8), first)
        placed = result.placements
        army = {u.id: u for u in default_army(8)}
        inf = sc.data.get("infiltrators") or {}
        for i, p in enumerate(placed):
            assert r - 1e-9 <= p.x <= geo.width - r + 1e-9 and r - 1e-9 <= p.y <= geo.depth - r + 1e-9
            if not (army[p.unit].infiltrator and inf):
                x0, y0, x1, y1 = geo.zones[p.side]
                assert x0 + r - 1e-9 <= p.x <= x1 - r + 1e-9 and y0 + r - 1e-9 <= p.y <= y1 - r + 1e-9, p
            if geo.centre_exclusion:
                assert math.dist((p.x, p.y), geo.centre) >= geo.centre_exclusion + r - 1e-9
            for q in placed[:i]:
                need = 2 * r + (dep.gap if q.side != p.side else 0)
                infiltrator = next(u for u in default_army(8) if u.id == p.unit).infiltrator
                if infiltrator and (sc.data.get("infiltrators") or {}).get("after_all_others"):
                    need = 2 * r + (dep.inf_gap if q.side != p.side else 0)
                assert math.dist((p.x, p.y), (q.x, q.y)) >= need - 1e-9, (p, q)
