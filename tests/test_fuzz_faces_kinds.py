"""Mutation fuzzing of the face and kinds readers, in-process.

Real ``faces.yaml`` and ``kinds.yaml`` files (death-angel, deep-strike,
tidelights and the ``cardkit init`` starter) are changed at random: keys
deleted, values retyped, entries duplicated, elements nested in groups, groups
made to use each other, extreme numbers (0, negatives, 10**9, NaN, infinity),
odd lengths (``W/0``, ``1e9pt``), hostile patterns and ``rules``.  Each
mutated file goes through what ``validate``, ``build`` and ``l10n check`` do
with it: the project loader, the face loader, the field-shown check and the
composition of every card and extra.  Whatever the input, the only exception
that may come out is :class:`~cardkit.errors.CardkitError`, each of its
problems one located line (an error under 200 characters), and one mutated file is dealt
with within a time and memory budget.

``CARDKIT_FUZZ_FACES`` sets the number of examples (default 20, some 15 s on an idle machine).
The long run of docs/errors.md ("Fuzzing the readers")::

    CARDKIT_FUZZ_FACES=2000 pytest -q -p no:cacheprovider tests/test_fuzz_faces_kinds.py
"""

from __future__ import annotations

import math
import os
import re
import resource
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from cardkit.errors import CardkitError
from cardkit.layout import faces as faces_module
from cardkit.layout.faces import load_faces
from cardkit.layout.shown import unshown_issues
from cardkit.load.project import load_project
from cardkit.printing import compose_set
from cardkit.scaffold import init_project
from tests.conftest import REPO

EXAMPLES = int(os.environ.get("CARDKIT_FUZZ_FACES", "20"))
SEED = int(os.environ.get("CARDKIT_FUZZ_SEED", "0"))  # 0: the fixed sequence of CI; another number: other examples
SECONDS = 10.0  # one mutated file: load, check and compose
GROWTH_MB = 300  # the process's peak memory may grow by at most this over the whole run
LOCATED = re.compile(r"^[^:\s]+:\d+:\d+: (error|warning)\[[A-Z]\d{3}\]: ")
SETS = {"death-angel": REPO / "cards" / "death-angel", "deep-strike": REPO / "cards" / "deep-strike",
        "tidelights": REPO / "examples" / "tidelights" / "cards" / "tidelights"}

EXTREME = st.sampled_from([0, -1, -9.5, 1e9, 10**9, 10**30, math.nan, math.inf, -math.inf, 1e308, 0.0001,
                           "0pt", "-5mm", "1000000000pt", "W/0", "W/(i - i)", "1mm/(n - 1)", "(((((W)))))*H*H*H*H",
                           "9" * 400 + "pt", "x" * 300, "", "#zzzzzz", "nope", True, None, [], {}, [[[[[["deep"]]]]]]])
LENGTHS = st.sampled_from([0, -1, 0.0001, 14400, -14400, math.nan, math.inf, "0pt", "-5mm", "0.01pt", "1000000000pt",
                           "W/0", "W/(i - i)", "1mm/(n - 1)", "W*W*W*W", "9" * 190 + "pt", "499pt", "501pt", "H - 200in"])
ODD = st.one_of(EXTREME, st.integers(-10**12, 10**12), st.floats(allow_nan=True, allow_infinity=True),
                st.text(max_size=12), st.lists(st.integers(-3, 3), max_size=5))
PATTERNS = st.sampled_from(["^(a+)+$", "^(a|aa)+$", "(x+x+)+y", "[", "(?P<x>a)(?P=x)*", "^.*$", "\\", "a{1000000}"])
RULES = st.sampled_from([{"$ref": "file:///etc/passwd"}, {"$ref": "https://example.com/s.json"}, {"type": 12},
                         {"$ref": "#/$defs/nope"}, {"pattern": "^(a|aa)+$"}, {"patternProperties": {"(a+)+": {}}},
                         {"$id": "https://x/"}, {"if": {"required": ["a"]}, "then": {"required": ["b"]}}, {"minimum": "x"}])


_NUMERIC = {"size", "min", "box", "at", "centre", "points", "r", "radius", "inset", "w", "h", "step", "baseline", "ratio",
            "sizes", "bleed", "lw", "leading", "max_lines", "lighten", "darken", "vars", "quantity", "max", "max_items"}


@pytest.fixture(scope="module")
def roots(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One project per set: its folder alone under ``cards/`` (English needs no catalogs)."""
    out = {}
    for sid, src in SETS.items():
        root = tmp_path_factory.mktemp(sid)
        shutil.copytree(src, root / "cards" / sid)
        out[sid] = root
    starter = tmp_path_factory.mktemp("starter") / "game"
    init_project(starter, "starter")
    out["starter"] = starter
    for sid, root in out.items():  # the real files load and compose clean (and the imports are warm)
        assert [ln for ln in _exercise(root) if "error[" in ln] == [], sid
    return out


def _paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, prefix + (i,))
    return out


def _mutate(data: Any, draw: st.DrawFn, kinds: bool) -> Any:
    paths = [p for p in _paths(data) if p]
    if not paths:
        return draw(ODD)
    numeric = [p for p in paths if any(k in _NUMERIC for k in p[-2:] if isinstance(k, str))]
    path = draw(st.sampled_from(numeric if numeric and not kinds and draw(st.booleans()) else paths))
    parent = data
    for part in path[:-1]:
        parent = parent[part]
    key = path[-1]
    value = parent[key]
    actions = ["delete", "retype", "extreme", "duplicate", "nest"]
    if isinstance(value, (int, float, str)) and not isinstance(value, bool):
        actions += ["length"] * 6  # (numbers and lengths: mostly kept schema-valid, to reach the checks and the drawing)
    if isinstance(value, dict) and "type" in value and not kinds:
        actions += ["group", "repeat", "nest"] * 2
    if kinds:
        actions += ["pattern", "rules"]
    if isinstance(data, dict) and isinstance(data.get("groups"), dict) and data["groups"] and not kinds:
        actions += ["use"] * 2
    action = draw(st.sampled_from(actions))
    if action == "delete":
        del parent[key]
    elif action == "retype":
        parent[key] = draw(ODD)
    elif action == "extreme":
        parent[key] = draw(EXTREME)
    elif action == "length":
        parent[key] = draw(LENGTHS)
    elif action == "duplicate":
        if isinstance(parent, list):
            parent.extend([value] * draw(st.integers(1, 50)))
        else:
            parent[f"{key}_again" if isinstance(key, str) else key] = value
    elif action == "nest":  # the value wrapped, several times over
        for _ in range(draw(st.integers(1, 40))):
            value = {"type": "group", "elements": [value]} if isinstance(value, dict) and "type" in value else [value]
        parent[key] = value
    elif action == "group":
        parent[key] = {"type": "group", "at": [draw(EXTREME), 0], "elements": [value] * draw(st.integers(1, 12))}
    elif action == "repeat":
        value["repeat"] = draw(st.sampled_from(["i", "n", "W", "many", "id", "text", "zzz"]))
        for spec in data["faces"].values() if isinstance(data, dict) and isinstance(data.get("faces"), dict) else ():
            if isinstance(spec, dict):
                spec.setdefault("vars", {})["many"] = draw(EXTREME)
                break
    elif action == "use":  # a group made to use another (cycles, fan-out)
        names = sorted(data["groups"])
        g, target = draw(st.sampled_from(names)), draw(st.sampled_from(names))
        if isinstance(data["groups"][g], list):
            data["groups"][g].extend([{"type": "use", "group": target}] * draw(st.integers(1, 12)))
    elif action == "pattern":
        parent[key] = {"type": "label", "pattern": draw(PATTERNS)} if isinstance(value, dict) else draw(PATTERNS)
    elif action == "rules":
        parent[key] = {"type": "record", "fields": {"a": {"type": "integer"}}, "rules": [draw(RULES)]}
    return data


@st.composite
def mutation(draw: st.DrawFn) -> tuple[str, str, str]:
    sid = draw(st.sampled_from(["death-angel", "deep-strike", "tidelights", "starter"]))
    name = draw(st.sampled_from(["faces.yaml", "kinds.yaml"]))
    text = _starter_text(name) if sid == "starter" else (SETS[sid] / name).read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    for _ in range(draw(st.integers(1, 3))):
        data = _mutate(data, draw, name == "kinds.yaml")
    out = _dump(data)
    if out is None:
        out = text[: draw(st.integers(0, len(text)))]
    return sid, name, out


def _dump(data: Any) -> str | None:
    """The mutated data as YAML, or None when it cannot be written.  The
    recursion limit is raised for the dump, so whether a deeply nested value
    dumps does not depend on how deep the stack happens to be (hypothesis calls
    the strategy from different depths when it generates and when it replays:
    a RecursionError on one of them only made its draws differ)."""
    import sys

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))
    try:
        return yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    except (yaml.YAMLError, RecursionError):
        return None
    finally:
        sys.setrecursionlimit(limit)


_STARTER: dict[str, str] = {}


def _starter_text(name: str) -> str:
    if name not in _STARTER:
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            init_project(Path(tmp) / "g", "starter")
            _STARTER[name] = (Path(tmp) / "g" / "cards" / "starter" / name).read_text(encoding="utf-8")
    return _STARTER[name]


_PROJECTS: dict[Path, Any] = {}


def _exercise(root: Path, reload: bool = True) -> list[str]:
    """What the commands do with a project's faces and kinds; the lines they
    would print.  ``reload=False``: the cards as last loaded (only faces.yaml changed)."""
    faces_module._CACHE.clear()
    project = _PROJECTS[root] if not reload and root in _PROJECTS else load_project(root)
    _PROJECTS.setdefault(root, project)
    lines = [i.format() for i in project.issues]
    for loaded in project.sets.values():
        if loaded.set is None or not loaded.schema_clean:
            continue
        try:
            book = load_faces(root, loaded.set)
            if loaded.kinds is not None and loaded.kinds.file in loaded.docs:
                lines += [i.format() for i in unshown_issues(loaded.kinds, book, loaded.docs[loaded.kinds.file])]
            compose_set(root, loaded.set, "en")
        except CardkitError as exc:
            lines += [i.format() for i in exc.issues]
    return lines


@seed(SEED)
@settings(max_examples=EXAMPLES, deadline=None, derandomize=not SEED, database=None, phases=[Phase.generate],
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture])
@given(change=mutation())
def test_mutated_faces_and_kinds_give_located_problems(change: tuple[str, str, str], roots: dict[str, Path]):
    sid, name, text = change
    root = roots[sid]
    target = root / "cards" / sid / name
    original = target.read_bytes()
    start_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    _BASE.setdefault("rss", start_rss)
    target.write_text(text, encoding="utf-8")
    keep = os.environ.get("CARDKIT_FUZZ_KEEP")  # a folder: each input is left there until it passes
    if keep:
        Path(keep, f"{sid}-{name}").write_text(text, encoding="utf-8")
    try:
        start = time.perf_counter()
        lines = _exercise(root, reload=name == "kinds.yaml")  # anything but a CardkitError inside (caught there) fails the test
        took = time.perf_counter() - start
    finally:
        target.write_bytes(original)
    if keep:  # what came out, for the record of a long run
        codes = sorted({m.group(1) for ln in lines for m in [re.search(r"\[([A-Z]\d{3})\]", ln)] if m}) or ["clean"]
        with open(Path(keep, "summary.txt"), "a", encoding="utf-8") as f:
            f.write(f"{sid}/{name} {took:.2f}s {' '.join(codes)}\n")
    bad = [ln for ln in lines if not LOCATED.match(ln) or ("error[" in ln and len(ln) >= 200)]  # (as test_fuzz_project)
    assert not bad, f"{sid}/{name}: unreadable lines:\n" + "\n".join(b[:300] for b in bad[:5])
    assert took < SECONDS, f"{sid}/{name}: {took:.1f} s"
    grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - _BASE["rss"]) / 1024
    assert grown < GROWTH_MB, f"{sid}/{name}: peak memory grew by {grown:.0f} MB"


_BASE: dict[str, int] = {}
