"""The scoring report in the reader's language (Babel formats the numbers)."""

from __future__ import annotations

from typing import Any

from babel.numbers import format_decimal

from cardkit.games.deep_strike.score import ScoreResult
from cardkit.strings.localize import Localizer

_NESTED = {"quarter": "quarter.{}", "state": "score.state.{}", "why": "score.why.{}"}


def line_text(loc: Localizer, key: str, values: dict[str, Any]) -> str:
    vals = {k: (loc.ui(_NESTED[k].format(v)) if k in _NESTED else v) for k, v in values.items()}
    return loc.ui(key, **vals)


def render_score(result: ScoreResult, loc: Localizer) -> str:
    locale = loc.locale.replace("-", "_")
    num = lambda n: format_decimal(n, locale=locale)  # noqa: E731
    name = loc.card(f"{result.scenario}.name")
    out = [loc.ui("score.title", scenario=name)]
    for side in ("a", "b"):
        player = loc.ui(f"map.player_{side}")
        out.append(loc.ui_n("score.total", result.totals[side], player=player, points=num(result.totals[side])))
        for ln in result.lines:
            if ln.side != side:
                continue
            label = loc.ui("score.vp") if ln.rule == "vp" else loc.card(f"{result.scenario}.objectives.scoring.{ln.rule}.label")
            detail = "" if ln.rule == "vp" else f" - {line_text(loc, ln.key, dict(ln.values))}"
            out.append(f"  +{num(ln.points)}  {label}{detail}")
    notes = [ln for ln in result.lines if ln.side is None]
    for ln in notes:
        out.append(f"  · {line_text(loc, ln.key, dict(ln.values))}")
    w = result.winner
    out.append(loc.ui("score.draw") if w is None else loc.ui("score.winner", player=loc.ui(f"map.player_{w}")))
    return "\n".join(out)
