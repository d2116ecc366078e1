"""Rule scenarios: an exact situation, scripted decisions, forced dice, and the
state expected afterwards (``scenario.schema.json`` beside this module: the game's own schema).

``cardkit rules scenario FILE...`` runs them and prints a readable diff for
every expectation that does not hold.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardkit.errors import CardkitError
from cardkit.games.death_angel import phases
from cardkit.games.death_angel.engine import Flow, Game, State
from cardkit.games.death_angel.state import GS, SIDES, Marine, Row, Swarm, Team, TerrainCard
from cardkit.load.schema import load_validated
from cardkit.load.yamlsafe import YamlDoc
from cardkit.games.death_angel.cards import DeathAngelSet as CardSet
from cardkit.games.death_angel.cards import SetupCard
from cardkit.rules.core import Option


@functools.lru_cache(maxsize=1)
def scenario_schema() -> dict[str, Any]:
    """The JSON Schema of a Death Angel rule scenario: the game's own, beside this module."""
    schema: dict[str, Any] = json.loads(Path(__file__).with_name("scenario.schema.json").read_text(encoding="utf-8"))
    return schema


def load_scenario(path: Path, rel: str) -> YamlDoc:
    return load_validated(path, rel, scenario_schema())


class _Pool:
    """Every physical Genestealer card, handed out by card id."""

    def __init__(self, game: Game) -> None:
        self.free: list[GS] = []
        for card in game.genestealers:
            for i in range(card.quantity):
                self.free.append(game.new_gs(f"{card.id}#{i + 1}", card))
        self.brood: list[GS] = []
        for card in game.brood_lords:
            for i in range(card.quantity):
                self.brood.append(game.new_gs(card.id if card.quantity == 1 else f"{card.id}#{i + 1}", card))

    def take(self, card: str) -> GS:
        for pool in (self.free, self.brood):
            for gs in pool:
                if gs.card == card:
                    pool.remove(gs)
                    return gs
        raise CardkitError(f"no free card '{card}' left for the scenario", code="R002")


def _start(spec: dict[str, Any], doc: YamlDoc) -> Any:
    def start(st: State) -> Flow:
        g = st.game
        s = spec["setup"]
        pool = _Pool(g)
        for t in s.get("teams", []):
            hand = sorted((a.id for a in g.actions.values() if a.team == t["team"]), key=lambda a: g.actions[a].order)
            st.teams[t["team"]] = Team(t["team"], t.get("player", 0), hand, t.get("last"), t.get("chosen"),
                                      set(t.get("forbidden", [])))
        for entry in s["formation"]:
            card = g.marines.get(entry["marine"])
            if card is None:
                raise CardkitError(doc.issue("R001", f"unknown marine '{entry['marine']}'", ("setup", "formation")))
            m = Marine(card.id, card.team, card.range)
            m.facing = entry["facing"]
            m.tokens = entry.get("tokens", 0)
            st.supply -= m.tokens
            st.rows.append(Row(m))
            if card.team not in st.teams:
                hand = sorted((a.id for a in g.actions.values() if a.team == card.team), key=lambda a: g.actions[a].order)
                st.teams[card.team] = Team(card.team, 0, hand)
        for mid in s.get("dead", []):
            card = g.marines[mid]
            m = Marine(card.id, card.team, card.range)
            m.alive = False
            st.dead.append(m)
        st.terrain_reserve = [TerrainCard(t.id, t.colour, t.activatable) for t in sorted(g.terrain.values(), key=lambda t: t.id)]
        for t in s.get("terrain", []):
            placed = next(x for x in st.terrain_reserve if x.card == t["terrain"])
            st.terrain_reserve.remove(placed)
            placed.tokens = t.get("tokens", 0)
            st.supply -= placed.tokens
            st.rows[t["row"]].spot(t["side"]).terrain.append(placed)
        for sw in s.get("swarms", []):
            st.rows[sw["row"]].spot(sw["side"]).swarms.append(Swarm([pool.take(c) for c in sw["cards"]]))
        blips = s.get("blips", {"left": [], "right": []})
        st.left = [pool.take(c) for c in reversed(blips["left"])]  # listed top first; a pile pops from its end
        st.right = [pool.take(c) for c in reversed(blips["right"])]
        st.gs_deck = list(pool.free)
        st.rng.shuffle(st.gs_deck, "genestealer_deck")
        st.brood_reserve = list(pool.brood)
        listed = s.get("event_deck", [])
        rest = [cid for cid, _, _ in g.events if cid not in listed]
        st.rng.shuffle(rest, "event_deck")
        st.event_deck = rest + list(reversed(listed))
        locs = {loc.id: loc for loc in g.locations}
        if "location" in s:
            st.location = locs[s["location"]]
        st.location_deck = [locs[x] for x in s.get("location_deck", [])]
        st.location_tokens = s.get("location_tokens", 0)
        st.supply -= st.location_tokens
        st.artefact_team = s.get("artefact_team")
        if st.artefact_team:
            art = next(t for t in st.terrain_reserve if t.card == "artefact")
            st.terrain_reserve.remove(art)
        eff = s.get("effects", {})
        st.now.evasion = bool(eff.get("evasion"))
        st.now.enter_formation = bool(eff.get("enter_formation"))
        st.now.second_wind = set(eff.get("second_wind", []))
        st.round = s.get("round", 1)
        st.ready = True
        phase = s.get("phase", "round")
        if phase in ("genestealer_attack", "event"):
            # the chosen cards resolved earlier this round: their abilities are in force
            for team in st.teams.values():
                if team.chosen:
                    for eff in g.actions[team.chosen].effects:
                        st.active.append((team.chosen, eff, team.id))
        if phase == "round":
            st.round -= 1
            yield from phases.play_round(st)
        elif phase == "travel":
            yield from phases.travel(st, "travel", None)  # (a rule scenario that starts with travel)
        else:
            yield from phases.rest_of_round(st, phase)

    return start


@dataclass
class ScenarioResult:
    id: str
    file: str
    diffs: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.diffs


def run_scenario(card_set: CardSet, path: Path, rel: str) -> ScenarioResult:
    doc = load_scenario(path, rel)
    spec = doc.data
    res = ScenarioResult(spec["id"], rel)
    game = Game(card_set, spec["players"])
    if "setup_card" in spec["setup"]:
        game.setup = next(c for c in card_set.of_kind(SetupCard) if c.id == spec["setup"]["setup_card"])
    faces = [v for v, _ in game.faces]
    forced = []
    for k, v in enumerate(spec.get("dice", [])):
        if v not in faces:
            raise CardkitError(doc.issue("R003", f"the die has no face {v}", ("dice", k)))
        forced.append(faces.index(v))
    st = State(game, 0, start=_start(spec, doc), forced=forced)
    for k, step in enumerate(spec.get("script", [])):
        if st.decision is None:
            res.diffs.append(f"script step {k + 1} '{step}': the game already ended ({st.outcome})")
            break
        opt = st.decision.options[0] if step == "any" else Option.parse(step)
        if opt not in st.decision.options:
            res.diffs.append(f"script step {k + 1} '{step}' is not legal for '{st.decision.kind}' "
                             f"(legal: {', '.join(o.text() for o in st.decision.options)})")
            break
        st.apply(opt)
    if st.rng.forced:
        res.diffs.append(f"{len(st.rng.forced)} forced die roll(s) were not used")
    res.diffs.extend(_compare(st, spec["expect"]))
    return res


def _compare(st: State, exp: dict[str, Any]) -> list[str]:
    out = []

    def check(what: str, want: Any, got: Any) -> None:
        if want != got:
            out.append(f"{what}: expected {want!r}, got {got!r}")

    if "outcome" in exp:
        check("outcome", exp["outcome"], st.outcome.result if st.outcome else "none")
    if "reason" in exp:
        check("outcome reason", exp["reason"], st.outcome.reason if st.outcome else None)
    if "pending" in exp:
        check("pending decision", exp["pending"], st.decision.kind if st.decision else None)
    alive = {m.id: m for m in st.marines()}
    for mid, want in exp.get("marines", {}).items():
        m = alive.get(mid)
        if "alive" in want:
            check(f"marine {mid} alive", want["alive"], m is not None)
        if m is None:
            continue
        if "tokens" in want:
            check(f"marine {mid} tokens", want["tokens"], m.tokens)
        if "row" in want:
            check(f"marine {mid} position", want["row"], st.row_of(m))
        if "facing" in want:
            check(f"marine {mid} facing", want["facing"], m.facing)
    if "swarms" in exp:
        got = sorted((i, s, len(sw)) for i, s, sw in st.swarms())
        merged: dict[tuple[int, str], int] = {}
        for i, s, n in got:
            merged[(i, s)] = merged.get((i, s), 0) + n
        want = {(w["row"], w["side"]): w["size"] for w in exp["swarms"] if w["size"]}
        check("Genestealers by position", dict(sorted(want.items())), dict(sorted(merged.items())))
    if "blips" in exp:
        for side in SIDES:
            if side in exp["blips"]:
                check(f"{side} blip pile", exp["blips"][side], len(st.pile(side)))
    if "supply" in exp:
        check("support supply", exp["supply"], st.supply)
    if "terrain" in exp:
        placed = sorted((t.card, i, s, t.tokens) for i, r in enumerate(st.rows) for s in SIDES for t in r.spot(s).terrain)
        check("terrain", sorted((t["terrain"], t["row"], t["side"], t.get("tokens", 0)) for t in exp["terrain"]), placed)
    if "location" in exp:
        check("location", exp["location"], st.location.id if st.location else None)
    if "location_tokens" in exp:
        check("tokens on the location", exp["location_tokens"], st.location_tokens)
    for card in exp.get("fired", []):
        if not st.stats.fired.get(card):
            out.append(f"ability of '{card}' did not take effect")
    for ev in exp.get("events_include", []):
        if not any(list(e[:len(ev)]) == ev for e in st.events):
            out.append(f"event {ev} did not happen")
    return out


def render(results: list[ScenarioResult]) -> str:
    lines = []
    for r in results:
        lines.append(f"{'PASS' if r.passed else 'FAIL'} {r.file} ({r.id})")
        lines.extend(f"    - {d}" for d in r.diffs)
    failed = sum(not r.passed for r in results)
    lines.append(f"{len(results) - failed} passed, {failed} failed")
    return "\n".join(lines)

