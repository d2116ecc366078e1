"""The previous English of a fuzzy entry (``#| msgid``) survives any number of
``l10n update`` runs byte for byte, and gettext's own tools read it the same.

Library-level property tests build the real death-angel template with random
old and new English (long, multi-line, quotes, backslashes, Korean and Finnish
letters) and merge the shipped Finnish catalog through one, two and three
updates; the CLI test does the issue's acceptance run on a copied project.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import shutil
import subprocess
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from cardkit.i18n.catalogs import (LoadedCatalog, parse_catalog, po_path, read_catalog, render, merge,
                                   template_for)
from cardkit.load.project import load_project
from tests.conftest import REPO



@functools.lru_cache(maxsize=1)
def _strings():
    project = load_project(REPO)
    return project.sets["death-angel"].set.strings


@functools.lru_cache(maxsize=1)
def _shipped() -> LoadedCatalog:
    path = po_path(REPO, "fi", "death-angel")
    return read_catalog(path, "fi.po", "fi")


LETTERS = "abcdefghijklmnopqrstuvwxyz ABCXYZ 0123456789 äöåÄÖÅšž 가나다라마바사아자차카타파하각힣 ,.;:!?-()'"
ODD = '"\\\n\t'
piece = st.text(alphabet=LETTERS + ODD, min_size=1, max_size=60)
english = st.lists(piece, min_size=1, max_size=12).map("".join).map(lambda s: s.strip("\n") or "x")


def _previous_by_gettext(po: Path) -> dict[str, str]:
    """``#| msgid`` by msgctxt, as ``msgattrib --only-fuzzy`` writes them back,
    decoded by a reader independent of cardkit's (PO string escapes are JSON's)."""
    assert shutil.which("msgattrib"), "gettext tools missing (apt-get install gettext; .ci/run installs them)"
    out = subprocess.run(["msgattrib", "--only-fuzzy", "--no-wrap", str(po)], capture_output=True, text=True, check=True)
    found: dict[str, str] = {}
    prev: list[str] | None = None
    mode = None
    for line in out.stdout.split("\n"):
        if line.startswith("#| msgid "):
            prev, mode = [json.loads(line[9:], strict=False)], "id"
        elif line.startswith("#| msgctxt ") or line.startswith("#| msgid_plural "):
            mode = None
        elif line.startswith('#| "'):
            if mode == "id":
                assert prev is not None
                prev.append(json.loads(line[3:], strict=False))
        elif line.startswith("msgctxt "):
            if prev is not None:
                found[json.loads(line[8:], strict=False)] = "".join(prev)
            prev, mode = None, None
    return found


def _check_with_gettext(tmp: Path, data: bytes, expected: dict[str, str]) -> None:
    po = tmp / "fi.po"
    po.write_bytes(data)
    fmt = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(po)], capture_output=True, text=True)
    assert fmt.returncode == 0, fmt.stderr
    assert _previous_by_gettext(po) == expected


def _edit(strings, edits: dict[int, str]):
    return tuple(dataclasses.replace(s, text=edits[i]) if i in edits else s for i, s in enumerate(strings))


def _update(template, data: bytes) -> bytes:
    return render(merge(template, parse_catalog(data, "fi.po", "fi"), "fi"))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_previous_english_survives_updates(data, tmp_path: Path):
    strings = _strings()
    picks = data.draw(st.lists(st.integers(0, len(strings) - 1), min_size=1, max_size=4, unique=True))
    old = {i: data.draw(english) for i in picks}
    new = {i: data.draw(english.filter(lambda s, o=old[i]: s != o)) for i in picks}
    # the translation was made from the old English: a catalog current against it
    translated = parse_catalog(render(merge(template_for("death-angel", _edit(strings, old)), _shipped(), "fi")),
                               "fi.po", "fi")
    clean = [dataclasses.replace(e, flags=tuple(f for f in e.flags if f != "fuzzy"), previous=None)
             for e in translated.entries]
    current = render(merge(template_for("death-angel", _edit(strings, old)),
                           dataclasses.replace(translated, entries=tuple(clean)), "fi"))
    assert not [e for e in parse_catalog(current, "fi.po", "fi").entries if e.fuzzy]

    template = template_for("death-angel", _edit(strings, new))
    first = _update(template, current)
    second = _update(template, first)
    third = _update(template, second)
    assert first == second == third
    by_ctx = {e.context: e for e in parse_catalog(first, "fi.po", "fi").entries}
    expected = {strings[i].msgctxt: old[i] for i in picks}
    for ctx, text in expected.items():
        assert by_ctx[ctx].fuzzy and by_ctx[ctx].previous is not None
        assert by_ctx[ctx].previous.id == text  # byte for byte
        assert by_ctx[ctx].previous.context == ctx
    assert sum(e.fuzzy for e in by_ctx.values()) == len(picks)

    # the English changes again before anyone translates: still the English the translation was made from
    again = template_for("death-angel", _edit(strings, {i: new[i] + " 2" for i in picks}))
    later = _update(again, _update(again, first))
    assert {e.context: e.previous.id for e in parse_catalog(later, "fi.po", "fi").entries if e.previous} == expected
    _check_with_gettext(tmp_path, first, expected)
    _check_with_gettext(tmp_path, later, expected)


def test_gettext_reads_back_what_cardkit_writes(tmp_path: Path):
    """One fixed awkward case, so that a missing gettext cannot hide the point."""
    strings = _strings()
    old = 'He said "no" \\ then\nleft: 가나다 äö.' * 5
    current = render(merge(template_for("death-angel", _edit(strings, {3: old})), None, "fi"))
    template = template_for("death-angel", _edit(strings, {3: "New text."}))
    # give the entry a translation made from `old`
    loaded = parse_catalog(current, "fi.po", "fi")
    entries = tuple(dataclasses.replace(e, strings=("Käännös",)) if e.context == strings[3].msgctxt else e
                    for e in loaded.entries)
    first = render(merge(template, dataclasses.replace(loaded, entries=entries), "fi"))
    _check_with_gettext(tmp_path, first, {strings[3].msgctxt: old})


def test_update_cli_three_times(project: Path, cli):
    """#17 acceptance: change an English card text, run `l10n update` three times."""
    cards = project / "cards" / "death-angel" / "actions.yaml"
    old = "Whenever Sergeant Gideon rolls a [skull] while defending, the swarm's attack misses him."
    new = "Whenever Sergeant Gideon rolls a [skull] or a 4 while defending, the attack misses him."
    text = cards.read_text(encoding="utf-8")
    assert old in text
    cards.write_text(text.replace(old, new), encoding="utf-8")
    runs = []
    for i in range(3):
        result = cli("l10n", "update", "--root", str(project))
        assert result.code == 0, result.err
        runs.append({p.relative_to(project): p.read_bytes() for p in sorted((project / "locales").rglob("*.po*"))})
        if i == 0:
            check = cli("l10n", "update", "--check", "--root", str(project))
            assert check.code == 0, check.err
    assert runs[0] == runs[2] == runs[1]
    for loc in ("fi", "ko"):
        po = po_path(project, loc, "death-angel")
        entry = next(e for e in read_catalog(po, "x", loc).entries if e.context == "block.text")
        assert entry.fuzzy and entry.id == new and entry.previous is not None and entry.previous.id == old
        assert _previous_by_gettext(po) == {"block.text": old}
