"""Invariants of a Death Angel state, checked after every step in certify mode
and at the end of a game in bulk mode.
"""

from __future__ import annotations

from collections import Counter

from cardkit.games.death_angel.engine import State
from cardkit.games.death_angel.state import SIDES


def violations(st: State) -> list[str]:
    out: list[str] = []
    g = st.game
    if st.decision is not None and not st.decision.options:
        out.append("a decision without legal options")
    if not st.ready:  # still choosing combat teams: nothing is dealt yet
        return out
    # every Genestealer and Brood Lord card in exactly one place (counted only when the quick check fails:
    # certify mode runs this after every step)
    uids = [gs.uid for zone in (st.gs_deck, st.gs_discard, st.left, st.right, st.brood_reserve, st.removed)
            for gs in zone]
    uids += [gs.uid for _, _, sw in st.swarms() for gs in sw.cards]
    expected = len(g.gs_uids) + len(g.brood_uids)
    if len(uids) != expected or len(set(uids)) != expected:
        places = Counter(uids)
        dupes = [u for u, n in places.items() if n > 1]
        if dupes:
            out.append(f"cards in two places: {sorted(dupes)[:5]}")
        if len(places) != expected:
            out.append(f"{len(places)} Genestealer/Brood Lord cards accounted for, expected {expected}")
    # support tokens are conserved
    tokens = st.supply + sum(m.tokens for m in st.marines()) + st.location_tokens + sum(
        t.tokens for r in st.rows for s in SIDES for t in r.spot(s).terrain)
    if tokens != st.total_tokens:
        out.append(f"{tokens} support tokens in play, expected {st.total_tokens}")
    if st.supply < 0 or any(m.tokens < 0 for m in st.marines()):
        out.append("negative support tokens")
    # event cards
    events = len(st.event_deck) + len(st.event_discard) + (1 if st.event_current else 0)
    if events != len(g.events):
        out.append(f"{events} event cards accounted for, expected {len(g.events)}")
    # terrain cards: formation + reserve + the artefact in a team's hands
    terrain = len(st.terrain_reserve) + sum(len(r.spot(s).terrain) for r in st.rows for s in SIDES) + (1 if st.artefact_team else 0)
    if terrain != len(g.terrain):
        out.append(f"{terrain} terrain cards accounted for, expected {len(g.terrain)}")
    # formation: every position holds a living marine; no empty swarm lingers
    for i, r in enumerate(st.rows if st.marines() else []):  # the last death leaves an empty formation
        if r.marine is None or not r.marine.alive:
            out.append(f"position {i} has no living marine")
    alive = {m.id for m in st.marines()}
    if alive & {m.id for m in st.dead}:
        out.append("a marine is both dead and in the formation")
    if st.outcome is None and st.decision is None:
        out.append("no decision pending and no outcome")
    return out
