"""The verdict vocabulary (``cardkit.playtest.ladder.Verdict``): every verdict the ladder can
give is a member, and every member has its interface string for the PDF report."""

from __future__ import annotations

from cardkit.playtest.ladder import VERDICTS, _verdict
from cardkit.playtest.records import Interval, LadderAgent, SkillGap

BAND = (0.03, 0.80)


def row(agent: str, rate: float, games: int = 100, completed: int = 100, violations: int = 0) -> LadderAgent:
    return LadderAgent(agent, games, round(rate * games), rate, Interval(0.0, 1.0), False, None, None, {}, completed,
                       violations)


def gap(lo: float) -> SkillGap:
    return SkillGap("smart", lo + 0.1, Interval(lo, lo + 0.2))


def test_every_branch_of_the_verdict_is_in_the_vocabulary_and_each_member_is_reached():
    smart, rnd = row("smart", 0.4), row("random", 0.1)
    cases = [
        ([row("smart", 0.4, completed=99)], None, None, None, []),
        ([row("smart", 0.4, violations=1)], None, None, None, []),
        ([row("seer", 0.9)], None, None, None, []),
        ([row("smart", 0.01)], row("smart", 0.01), None, None, []),
        ([row("smart", 0.9)], row("smart", 0.9), None, None, []),
        ([smart], smart, None, None, []),
        ([smart, rnd], smart, rnd, gap(-0.05), []),
        ([smart, rnd], smart, rnd, gap(0.1), ["a card"]),
        ([smart, rnd], smart, rnd, gap(0.1), []),
    ]
    given = [_verdict(rows, strongest, random, g, BAND, never)[0] for rows, strongest, random, g, never in cases]
    assert given == ["incomplete games", "rule violations", "skill untested", "too hard", "too easy", "skill untested",
                     "skill does not matter", "dead cards", "playable"]
    assert set(given) == set(VERDICTS)


def test_every_verdict_has_its_report_string():
    from cardkit.strings.localize import ui_strings

    ids = {s.msgctxt for s in ui_strings()}
    assert "report.verdict" in ids
    missing = [v for v in VERDICTS if "report.verdict." + v.replace(" ", "_") not in ids]
    assert missing == []
