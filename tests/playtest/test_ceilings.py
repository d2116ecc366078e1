"""Which agents are ceilings (they read hidden cards: shown, never judged) is decided in one
place, :func:`cardkit.rules.agents.is_ceiling`; the agent parser, the playtest's agent list and
its ladder ask it.  The rule lived in three copies (rules/agents.py, playtest/agents.py, and the
ladder's name test)."""

from __future__ import annotations

import ast

from cardkit.load.project import load_project
from cardkit.playtest.agents import agents_for, ceilings
from cardkit.playtest.ladder import is_ceiling as ladder_is_ceiling
from cardkit.plugins import engine_for
from cardkit.rules.agents import is_ceiling, parse_agent
from tests.conftest import REPO

PACKAGE = REPO / "cardkit"


def _holds_the_rule(node: ast.AST) -> bool:
    """``"clairvoyant" in x`` or ``getattr(f, "clairvoyant", ...)``: the ceiling rule's two halves."""
    if isinstance(node, ast.Compare) and isinstance(node.left, ast.Constant) and node.left.value == "clairvoyant":
        return any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops)
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr"
            and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) and node.args[1].value == "clairvoyant")


def test_the_ceiling_rule_has_one_home() -> None:
    homes = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(_holds_the_rule(n) for n in ast.walk(fn)):
                homes.add(f"{path.relative_to(REPO).as_posix()}:{fn.name}")
    assert homes == {"cardkit/rules/agents.py:is_ceiling"}


class _Peek:
    """An engine's own agent that marks itself a ceiling by the attribute, under a plain name."""

    clairvoyant = True

    def __call__(self, seed: int):  # pragma: no cover - never played here
        raise AssertionError


def test_parser_agent_list_and_ladder_agree_on_every_kind_of_name() -> None:
    project = load_project(REPO)
    card_set = project.sets["death-angel"].set
    engine = engine_for("death-angel", "playtest")
    names = ["random", "clairvoyant", "clairvoyant:4", "mcts:4", "flat-mc:4", "search"]
    found = agents_for(engine, card_set, names)
    found["peek"] = _Peek()  # type: ignore[assignment]
    marked = ceilings(found)
    for name in names:
        spec = parse_agent(name, engine, card_set)
        assert spec.ceiling == is_ceiling(name, spec.factory) == (name in marked), name
        assert ladder_is_ceiling(name, marked) == spec.ceiling, name
    assert "peek" in marked and is_ceiling("peek", found["peek"]) and not is_ceiling("peek")
    assert {"clairvoyant", "clairvoyant:4", "peek"} <= marked
    assert not marked & {"random", "mcts:4", "flat-mc:4", "search"}


def test_the_rule_itself() -> None:
    assert is_ceiling("clairvoyant") and is_ceiling("my-clairvoyant-bot") and is_ceiling("x", _Peek())
    assert not is_ceiling("mcts:20") and not is_ceiling("random", object())

