"""A golden playthrough: one fixed game's full event log, replayed and compared.

A change that alters how a seeded game plays shows up here as a readable diff.
After an intended rules change, regenerate with ``CARDKIT_REGEN_GOLDEN=1`` and
read the diff of the golden file before committing it.
"""

from __future__ import annotations

import json
import os

from cardkit.games.death_angel.agents import AGENTS, play
from cardkit.games.death_angel.engine import Game, State
from cardkit.load.project import load_project
from tests.conftest import REPO

GOLDEN = REPO / "tests" / "golden" / "playthrough-4p-heuristic-seed7.jsonl"


def _lines(st: State) -> list[str]:
    return [json.dumps(list(e), ensure_ascii=False) for e in st.events] + \
           [json.dumps(["decisions", [o.text() for o in st.decisions]])]


def test_golden_playthrough():
    st = Game(load_project(REPO).card_set("death-angel"), 4).new_state(7)
    play(st, AGENTS["heuristic"](7))
    lines = _lines(st)
    if os.environ.get("CARDKIT_REGEN_GOLDEN"):
        GOLDEN.write_text("\n".join(lines) + "\n", encoding="utf-8")
    want = GOLDEN.read_text(encoding="utf-8").splitlines()
    first = next((i for i, (a, b) in enumerate(zip(want, lines)) if a != b), None)
    assert first is None and len(want) == len(lines), (
        f"game differs from line {first}: expected {want[first] if first is not None else '(end)'}, "
        f"got {lines[first] if first is not None else '(end)'}")
    # and the decision list alone replays the same game
    decisions = json.loads(want[-1])[1]
    again = State.replay(st.game, 7, decisions)
    assert _lines(again) == want
