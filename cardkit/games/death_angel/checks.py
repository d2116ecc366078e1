"""Death Angel's semantic checks: the rules of composition that ``kinds.yaml``
cannot state (team line-ups, effect parameters naming the right card, terrain
placement, blip counts, setup recipes, the combat die, spawn colours).

Each checker takes a :class:`~cardkit.load.project.LoadedSet` whose set went
through :func:`cardkit.games.death_angel.cards.views` and returns issues located
at the YAML node that is wrong (codes in ``docs/errors.md``).  References,
unique ids and action order numbers are checked from the data declaration
(:mod:`cardkit.load.checks`).
"""

from __future__ import annotations

from collections import Counter
from typing import Callable

from cardkit.games.death_angel.vocabulary import EFFECTS, WIN_KINDS
from cardkit.errors import Issue
from cardkit.games.death_angel.cards import (Action, DeathAngelSet, Event, Genestealer, Location, Marine, SetupCard,
                                             Terrain)
from cardkit.load.project import LoadedSet

Checker = Callable[[LoadedSet], list[Issue]]
CHECKS: list[Checker] = []


def _da(fn: Checker) -> Checker:
    CHECKS.append(fn)
    return fn


@_da
def check_rules_section(ls: LoadedSet) -> list[Issue]:
    s = ls.set
    if isinstance(s, DeathAngelSet) and s.rules is None:
        return [Issue("C009", "a death-angel set needs a 'rules' section", file=f"{s.directory}/set.yaml", line=1, column=1)]
    if isinstance(s, DeathAngelSet) and "players" not in s.manifest:
        doc = ls.docs[f"{s.directory}/set.yaml"]
        return [doc.issue("C009", "a death-angel set states its player range in set.yaml's generic field "
                                  "'players: {min, max}'", ("rules",), key=True)]
    return []


@_da
def check_teams(ls: LoadedSet) -> list[Issue]:
    s = ls.set
    assert s is not None
    out = []
    team_ids = {t.id for t in s.teams}
    counts = Counter(t.id for t in s.teams)
    manifest = f"{s.directory}/set.yaml"
    for tid, n in counts.items():
        if n > 1:
            line, col = ls.docs[manifest].mark(("teams",))
            out.append(Issue("C001", f"duplicate team id '{tid}'", file=manifest, line=line, column=col))
    for card in s.of_kind(Marine) + s.of_kind(Action):
        if card.team not in team_ids:
            out.append(ls.issue("C002", f"{card.kind} '{card.id}' names unknown team '{card.team}' (teams: {', '.join(sorted(team_ids))})", card.origin, "team"))
    for t in s.teams:
        marines = [m for m in s.of_kind(Marine) if m.team == t.id]
        actions = [a for a in s.of_kind(Action) if a.team == t.id]
        types = Counter(a.type for a in actions)
        line, col = ls.docs[manifest].mark(("teams",))
        if len(marines) != 2:
            out.append(Issue("C004", f"team '{t.id}' has {len(marines)} Space Marines; every combat team has 2",
                             file=manifest, line=line, column=col))
        for typ in ("support", "move_activate", "attack"):
            if types[typ] != 1:
                where = actions[0].origin if actions else None
                msg = f"team '{t.id}' has {types[typ]} {typ} action cards; it needs exactly 1"
                if where:
                    out.append(ls.issue("C004", msg, where, "team"))
                else:
                    out.append(Issue("C004", msg, file=manifest, line=line, column=col))
    return out


@_da
def check_effect_refs(ls: LoadedSet) -> list[Issue]:
    s = ls.set
    assert s is not None
    out = []
    kinds_by_ref = {"marine": Marine, "terrain": Terrain}
    for card in s.cards.values():
        effects = getattr(card, "effects", ())
        for j, eff in enumerate(effects):
            spec = EFFECTS[eff.kind]
            for pname, param in spec.params.items():
                if param.ref is None or pname not in eff.params:
                    continue
                target = s.cards.get(eff.params[pname])
                if not isinstance(target, kinds_by_ref[param.ref]):
                    out.append(ls.issue("C002", f"effect '{eff.kind}' of '{card.id}': '{eff.params[pname]}' is not a {param.ref} card", card.origin, "effects", j, pname))
                elif isinstance(card, Action) and isinstance(target, Marine) and target.team != card.team:
                    out.append(ls.issue("C011", f"action '{card.id}' (team {card.team}) names '{target.id}' of team {target.team}", card.origin, "effects", j, pname))
        win = getattr(card, "win", None)
        if win is not None:
            assert win.kind in WIN_KINDS
    return out


def _placement_issues(ls: LoadedSet, card: Location | SetupCard, max_formation: int) -> list[Issue]:
    s = ls.set
    assert s is not None
    out = []
    used: Counter[str] = Counter()
    slots: Counter[tuple[str, int, str]] = Counter()
    for k, p in enumerate(card.terrain):
        if not isinstance(s.cards.get(p.terrain), Terrain):
            continue  # a dangling ref: reported by the kinds' data checks (C002)
        used[p.terrain] += 1
        if used[p.terrain] == 2:
            out.append(ls.issue("C007", f"'{card.id}' places terrain '{p.terrain}' twice; there is one card of each terrain", card.origin, "terrain", k, "terrain"))
        if p.position > max_formation:
            out.append(ls.issue("C007", f"'{card.id}': position {p.position} is beyond the largest formation ({max_formation})", card.origin, "terrain", k, "position"))
        slots[(p.side, p.position, p.count_from)] += 1
        if slots[(p.side, p.position, p.count_from)] == 2:
            out.append(ls.issue("C007", f"'{card.id}': two terrain cards at {p.side} position {p.position} from the {p.count_from}", card.origin, "terrain", k, "position"))
    return out


@_da
def check_locations(ls: LoadedSet) -> list[Issue]:
    s = ls.set
    assert isinstance(s, DeathAngelSet)
    if s.rules is None:
        return []
    out = []
    setups = s.of_kind(SetupCard)
    max_formation = max((c.formation_size for c in setups), default=12)
    deck_size = sum(g.quantity for g in s.of_kind(Genestealer) if not g.brood_lord)
    for loc in s.of_kind(Location):
        if loc.tier not in s.rules.location_tiers:
            out.append(ls.issue("C002", f"location '{loc.id}' has tier '{loc.tier}', not one of {', '.join(s.rules.location_tiers)}", loc.origin, "tier"))
        out.extend(_placement_issues(ls, loc, max_formation))
        if sum(loc.blips) > deck_size:
            out.append(ls.issue("C008", f"location '{loc.id}' needs {sum(loc.blips)} blip cards but the Genestealer deck holds {deck_size}", loc.origin, "blips"))
        if loc.trigger == "control_panel" and not any(p.terrain == "control_panel" for p in loc.terrain):
            out.append(ls.issue("C007", f"location '{loc.id}' has a control-panel ability but places no control_panel terrain", loc.origin, "trigger"))
    for st in setups:
        out.extend(_placement_issues(ls, st, st.formation_size))
        if sum(st.blips) > deck_size:
            out.append(ls.issue("C008", f"setup '{st.id}' needs {sum(st.blips)} blip cards but the Genestealer deck holds {deck_size}", st.origin, "blips"))
    return out


@_da
def check_setup_cards(ls: LoadedSet) -> list[Issue]:
    s = ls.set
    assert isinstance(s, DeathAngelSet)
    if s.rules is None:
        return []
    out = []
    rules = s.rules
    manifest = f"{s.directory}/set.yaml"
    line, col = ls.docs[manifest].mark(("rules", "teams_per_player"))
    tiers = Counter(loc.tier for loc in s.of_kind(Location))
    final_tiers = {loc.tier for loc in s.of_kind(Location) if loc.win is not None}
    covered: dict[int, SetupCard] = {}
    if len(rules.teams_per_player) < rules.max_players:
        out.append(Issue("C009", f"teams_per_player lists {len(rules.teams_per_player)} player counts; players go up to {rules.max_players}",
                         file=manifest, line=line, column=col))
        return out
    for st in s.of_kind(SetupCard):
        for k, n in enumerate(st.players):
            if not rules.min_players <= n <= rules.max_players:
                out.append(ls.issue("C009", f"setup '{st.id}' is for {n} players; the set plays {rules.min_players}-{rules.max_players}", st.origin, "players", k))
                continue
            if n in covered:
                out.append(ls.issue("C009", f"setup '{st.id}' and '{covered[n].id}' both claim {n} players", st.origin, "players", k))
                continue
            covered[n] = st
            teams = rules.teams_for(n)
            if teams > len(s.teams):
                out.append(ls.issue("C009", f"{n} players need {teams} combat teams; the set has {len(s.teams)}", st.origin, "players", k))
            if teams * 2 != st.formation_size:
                out.append(ls.issue("C009", f"setup '{st.id}': {n} players field {teams} teams = {teams * 2} marines, but formation_size is {st.formation_size}", st.origin, "formation_size"))
        need = Counter(st.deck)
        first = {tier: st.deck.index(tier) for tier in need}
        for tier, k in first.items():
            if tier not in rules.location_tiers:
                out.append(ls.issue("C002", f"setup '{st.id}' deals tier '{tier}', which is not a location tier", st.origin, "deck", k))
            elif need[tier] > tiers[tier]:
                out.append(ls.issue("C006", f"setup '{st.id}' deals {need[tier]} card(s) of tier {tier} but the set has {tiers[tier]}", st.origin, "deck", k))
        if st.deck and st.deck[-1] not in final_tiers:
            out.append(ls.issue("C006", f"setup '{st.id}': the last location (tier {st.deck[-1]}) has no win condition", st.origin, "deck", len(st.deck) - 1))
    for n in range(rules.min_players, rules.max_players + 1):
        if n not in covered:
            out.append(Issue("C009", f"no setup card for {n} player(s)", file=manifest, line=line, column=col))
    return out


@_da
def check_die(ls: LoadedSet) -> list[Issue]:
    s = ls.set
    assert isinstance(s, DeathAngelSet)
    manifest = f"{s.directory}/set.yaml"
    values = [v for v, _ in s.die_faces]
    if not values:
        line, col = ls.docs[manifest].mark(())
        return [Issue("C012", "the set defines no combat die", file=manifest, line=line, column=col)]
    dupes = [v for v, n in Counter(values).items() if n > 1]
    if dupes:
        line, col = ls.docs[manifest].mark(("combat_die", "faces"))
        return [Issue("C012", f"combat die repeats face value(s) {dupes}; faces must be distinct", file=manifest, line=line, column=col)]
    return []


@_da
def check_events(ls: LoadedSet) -> list[Issue]:
    s = ls.set
    assert s is not None
    out = []
    colours = {t.colour for t in s.of_kind(Terrain)}
    for ev in s.of_kind(Event):
        for k, box in enumerate(ev.spawn):
            if box.colour not in colours:
                out.append(ls.issue("C002", f"event '{ev.id}' spawns at {box.colour} terrain, but no terrain card is {box.colour}", ev.origin, "spawn", k))
    return out
