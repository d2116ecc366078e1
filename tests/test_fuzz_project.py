"""Mutation fuzzing of a whole project: the shipped card files, set manifests,
glossaries and catalogs, changed at random (keys deleted or added, values of
another type, huge and odd values, deep nesting, lines cut, swapped or
repeated), then ``validate``, ``l10n check`` and ``build pdf`` run on it.

Whatever the input, each command ends with exit 0 or 1, and an exit 1 comes with
located error lines (``path:line:col: error[CODE]: message``, under 200
characters): never a traceback, an internal error (exit 70) or a hang.

``CARDKIT_FUZZ_EXAMPLES`` sets the number of mutated projects (default 25, about
a minute here); docs/errors.md records a longer run.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from cardkit.cli import main
from tests.conftest import REPO

EXAMPLES = int(os.environ.get("CARDKIT_FUZZ_EXAMPLES", "25"))
FILES = sorted(p.relative_to(REPO).as_posix() for p in (REPO / "cards").rglob("*.yaml")) + \
    sorted(p.relative_to(REPO).as_posix() for p in (REPO / "locales").rglob("*.yaml")) + \
    sorted(p.relative_to(REPO).as_posix() for p in (REPO / "locales").rglob("*.po"))
LOCATED = re.compile(r"^\S[^:]*(:\d+:\d+)?: (error|warning)\[[A-Z]\d{3}\]: ")

ODD_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-10**30, 10**30), st.floats(allow_nan=True),
    st.text(max_size=30), st.just("x" * 20_000), st.just("[skull] {players} <b>"),
    st.lists(st.integers(), max_size=700), st.just([[[[[[[[[[["deep"]]]]]]]]]]]),
    st.dictionaries(st.text(max_size=8), st.integers(), max_size=4), st.just({"kind": "marines"}),
)


def paths_of(node: object, prefix: tuple = ()) -> list[tuple]:
    """Every path to a node of a parsed YAML document."""
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += paths_of(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += paths_of(v, prefix + (i,))
    return out


def mutate_data(data: object, draw: st.DrawFn) -> object:
    paths = [p for p in paths_of(data) if p]
    if not paths:
        return draw(ODD_VALUES)
    path = draw(st.sampled_from(paths))
    parent = data
    for part in path[:-1]:
        parent = parent[part]  # type: ignore[index]
    key = path[-1]
    action = draw(st.sampled_from(["delete", "replace", "add", "duplicate"]))
    if action == "delete":
        del parent[key]  # type: ignore[attr-defined]
    elif action == "replace":
        parent[key] = draw(ODD_VALUES)  # type: ignore[index]
    elif action == "add" and isinstance(parent, dict):
        parent[draw(st.sampled_from(["kind", "id", "text", "zzz", "quantity", "cards"]))] = draw(ODD_VALUES)
    elif isinstance(parent, list):
        parent.extend([parent[key]] * draw(st.integers(1, 600)))  # type: ignore[index]
    return data


def mutate_lines(text: str, draw: st.DrawFn) -> str:
    lines = text.splitlines(keepends=True)
    if not lines:
        return draw(st.text(max_size=50))
    i = draw(st.integers(0, len(lines) - 1))
    action = draw(st.sampled_from(["delete", "cut", "swap", "repeat", "insert"]))
    if action == "delete":
        del lines[i]
    elif action == "cut":
        lines[i] = lines[i][: draw(st.integers(0, max(0, len(lines[i]) - 1)))]
    elif action == "swap":
        j = draw(st.integers(0, len(lines) - 1))
        lines[i], lines[j] = lines[j], lines[i]
    elif action == "repeat":
        lines.insert(i, lines[i])
    else:
        lines.insert(i, draw(st.sampled_from([
            'msgid_plural "{n} cards"\n', 'msgstr[1] "x"\n', 'msgctxt "gun_jam.text"\n', "#, fuzzy\n",
            '"\\x \\u00e4 \\\n', "\t: [\n", "&a *a\n", "!!python/object:os.system ls\n", "\ufeff\n", "\x00\n",
        ])))
    return "".join(lines)


@st.composite
def mutation(draw: st.DrawFn) -> tuple[str, bytes]:
    rel = draw(st.sampled_from(FILES))
    text = (REPO / rel).read_text(encoding="utf-8")
    if rel.endswith(".yaml") and draw(st.booleans()):
        data = mutate_data(yaml.safe_load(text), draw)
        try:
            out = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
        except (yaml.YAMLError, RecursionError, ValueError):
            out = mutate_lines(text, draw)
    else:
        out = mutate_lines(text, draw)
    return rel, out.encode("utf-8", "surrogatepass")


def run_cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    argv = sys.argv
    sys.argv = ["cardkit", *args]
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main()
                code = 0
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.argv = argv
    return code, out.getvalue(), err.getvalue()


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutation())
def test_a_mutated_project_gets_located_errors_never_a_crash(change: tuple[str, bytes]):
    rel, data = change
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for name in ("cards", "locales"):
            shutil.copytree(REPO / name, root / name)
        (root / rel).write_bytes(data)
        for args in (["validate"], ["l10n", "check", "--locale", "fi"],
                     ["build", "pdf", "--set", rel.split("/")[1] if rel.startswith("cards/") else "death-angel",
                      "--locale", "ko", "--out", str(root / "out.pdf")]):
            code, out, err = run_cli(*args, "--root", str(root))
            said = out + err
            assert code in (0, 1), f"{rel}: cardkit {' '.join(args)} exited {code}\n{said[-2000:]}"
            assert "Traceback" not in said and "internal error" not in said, said[-2000:]
            if code == 1:
                errors = [ln for ln in err.splitlines() if "error[" in ln]
                errors += [ln for ln in out.splitlines() if "error[" in ln and args[0] == "l10n"]
                assert errors, f"{rel}: cardkit {' '.join(args)} failed without an error line\n{said[-2000:]}"
                bad = [ln for ln in err.splitlines() if "error[" in ln and (not LOCATED.match(ln) or len(ln) >= 200)]
                assert not bad, f"{rel}: unreadable error lines:\n" + "\n".join(b[:300] for b in bad)
            if args[0] == "build" and code == 1:
                assert not (root / "out.pdf").exists()  # nothing half-written
