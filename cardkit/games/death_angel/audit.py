"""Static setup audit: can every player count be set up and dealt, before any
game is played?  Problems name the cards involved."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from cardkit.games.death_angel.cards import Event, Genestealer, Location, SetupCard, Terrain
from cardkit.model import CardSet


@dataclass(frozen=True)
class AuditProblem:
    players: int | None
    code: str
    card: str
    message: str

    def to_json(self) -> dict[str, object]:
        return {"players": self.players, "code": self.code, "card": self.card, "message": self.message}


def audit(card_set: CardSet, players: list[int]) -> list[AuditProblem]:
    out: list[AuditProblem] = []
    rules = getattr(card_set, "rules", None)  # the manifest section of its typed view
    if rules is None:
        return [AuditProblem(None, "A001", card_set.id, "the set has no rules section")]
    tiers = Counter(loc.tier for loc in card_set.of_kind(Location))
    final = {loc.tier for loc in card_set.of_kind(Location) if loc.win is not None}
    terrain = {t.id: t for t in card_set.of_kind(Terrain)}
    deck = sum(g.quantity for g in card_set.of_kind(Genestealer) if not g.brood_lord)
    for p in players:
        setups = [s for s in card_set.of_kind(SetupCard) if p in s.players]
        if len(setups) != 1:
            out.append(AuditProblem(p, "A002", card_set.id, f"{len(setups)} setup cards for {p} players (need exactly 1)"))
            continue
        st = setups[0]
        teams = rules.teams_for(p)
        if teams > len(card_set.teams):
            out.append(AuditProblem(p, "A003", st.id, f"{p} players need {teams} combat teams; the set has {len(card_set.teams)}"))
        if st.formation_size != teams * 2:
            out.append(AuditProblem(p, "A003", st.id, f"formation of {st.formation_size} but {teams} teams field {teams * 2} marines"))
        for tier, n in Counter(st.deck).items():
            if tiers[tier] < n:
                out.append(AuditProblem(p, "A004", st.id, f"the location deck needs {n} card(s) of tier {tier}; the set has {tiers[tier]}"))
        if st.deck and st.deck[-1] not in final:
            out.append(AuditProblem(p, "A004", st.id, f"the last location (tier {st.deck[-1]}) has no win condition"))
        if sum(st.blips) > deck:
            out.append(AuditProblem(p, "A005", st.id, f"{sum(st.blips)} blip cards needed, the Genestealer deck has {deck}"))
        if st.major < st.minor:
            out.append(AuditProblem(p, "A005", st.id, f"major spawn {st.major} is smaller than minor spawn {st.minor}"))
        for pl in st.terrain:
            if pl.terrain not in terrain:
                out.append(AuditProblem(p, "A006", st.id, f"places unknown terrain '{pl.terrain}'"))
    # spawn colours every event uses must exist on some terrain card the game can place
    placed = {pl.terrain for loc in card_set.of_kind(Location) for pl in loc.terrain}
    placed |= {pl.terrain for st in card_set.of_kind(SetupCard) for pl in st.terrain}
    colours = {terrain[t].colour for t in placed if t in terrain}
    for ev in card_set.of_kind(Event):
        for box in ev.spawn:
            if box.colour not in colours:
                out.append(AuditProblem(None, "A007", ev.id, f"spawns at {box.colour} terrain, but no location or setup card places {box.colour} terrain"))
    # every location tier must be reachable from some setup card's recipe
    used = {t for s in card_set.of_kind(SetupCard) for t in s.deck}
    for loc in card_set.of_kind(Location):
        if loc.tier not in used:
            out.append(AuditProblem(None, "A008", loc.id, f"tier {loc.tier} is in no setup card's location deck: the card is unreachable"))
    return out
