"""Fuzz (#17): mutated shipped catalogs (lines deleted, cut, swapped; plural,
context, flag, previous-source and odd-escape lines inserted) never crash
``validate``, ``l10n update --check`` or ``l10n check``: exit 0 or 1, and every
error is a located line.  Commands run in-process through the real CLI entry
point on a copied project.  ``CARDKIT_FUZZ_EXAMPLES=N`` runs more examples
(docs/translation.md records a long run)."""

from __future__ import annotations

import os
import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from cardkit.i18n.catalogs import po_path

FILES = [(loc, d) for loc in ("fi", "ko") for d in ("death-angel", "deep-strike", "ui")]
INSERTS = [
    'msgid_plural "{count} cards"', 'msgstr[0] "{count} kortti"', 'msgstr[1] "{count} korttia"', 'msgstr[2] "x"',
    'msgstr[x] "x"', 'msgctxt "block.text"', 'msgctxt "no_such_card.text"', 'msgctxt ""', "#, fuzzy",
    "#, python-brace-format, fuzzy", "#,", '#| msgid "Old English"', '#| "continued"', '#| msgctxt "block.text"',
    '#| msgid_plural "olds"', 'msgstr "bad \\q escape"', '"\\x41\\101\\a"', 'msgid "\\"', '"\\', '"\\0"',
    '#~ msgid "gone"', '#~ msgstr "poissa"', '#~ msgctxt "old.card"', '"Plural-Forms: nplurals=9; plural=n;\\n"',
    '"Plural-Forms: nplurals=1; plural=0;\\n"', '"POT-Creation-Date: yesterday\\n"', '"no colon here\\n"',
    'msgstr ""', '""', 'msgid ""', "msgid", '"unterminated', "# translator comment", "#: cards/x.yaml:notanumber",
    "\ufeff", "\t", 'msgid "a" "b"',
]
LOCATED = re.compile(r"^\S+?(:\d+:\d+)?: (error|warning)\[[A-Z]\d{3}\]: \S")
CHECK_LINE = LOCATED  # l10n check writes the documented line too

op = st.one_of(
    st.tuples(st.just("delete"), st.floats(0, 1)),
    st.tuples(st.just("cut"), st.floats(0, 1), st.floats(0, 1)),
    st.tuples(st.just("swap"), st.floats(0, 1), st.floats(0, 1)),
    st.tuples(st.just("insert"), st.floats(0, 1), st.sampled_from(INSERTS)),
)
mutation = st.tuples(st.integers(0, len(FILES) - 1), st.lists(op, min_size=1, max_size=4))


def _apply(text: str, ops: list[tuple]) -> str:
    lines = text.split("\n")
    for o in ops:
        i = min(int(o[1] * len(lines)), len(lines) - 1)
        if o[0] == "delete" and len(lines) > 1:
            del lines[i]
        elif o[0] == "cut":
            lines[i] = lines[i][: int(o[2] * len(lines[i]))]
        elif o[0] == "swap":
            j = min(int(o[2] * len(lines)), len(lines) - 1)
            lines[i], lines[j] = lines[j], lines[i]
        elif o[0] == "insert":
            lines.insert(i, o[2])
    return "\n".join(lines)


def _assert_clean(result, args: tuple[str, ...]) -> None:
    both = result.out + result.err
    assert result.code in (0, 1), (args, result.code, both[-1500:])
    assert "Traceback" not in both and "internal error" not in both and "WARNING" not in both, (args, both[-1500:])
    err_lines = [ln for ln in result.err.splitlines() if ln and not re.fullmatch(r"\d+ error\(s\)", ln)]
    assert all(LOCATED.match(ln) for ln in err_lines), (args, err_lines[:5])
    if args[:2] == ("l10n", "check"):
        if result.code == 1:
            assert any(CHECK_LINE.match(ln) and "error[" in ln for ln in result.out.splitlines()), result.out[-1500:]
    elif result.code == 1:
        assert any("error[" in ln for ln in err_lines), (args, result.err[-1500:])
    for ln in err_lines:  # a syntax error always names its line and column
        if "error[L001]" in ln:
            assert re.match(r"^\S+?:\d+:\d+: ", ln), ln


@settings(max_examples=int(os.environ.get("CARDKIT_FUZZ_EXAMPLES", "4")), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(mutations=st.lists(mutation, min_size=1, max_size=2))
def test_mutated_catalogs_never_crash(mutations, project: Path, cli):
    originals = {loc_d: po_path(project, *loc_d).read_bytes() for loc_d in FILES}
    try:
        for index, ops in mutations:
            loc, domain = FILES[index]
            path = po_path(project, loc, domain)
            path.write_bytes(_apply(path.read_bytes().decode("utf-8"), ops).encode("utf-8"))
        loc, domain = FILES[mutations[0][0]]
        set_id = domain if domain != "ui" else "deep-strike"
        for args in (("validate",), ("l10n", "update", "--check"), ("l10n", "check", "--locale", loc, "--set", set_id)):
            _assert_clean(cli(*args, "--root", str(project)), args)
    finally:
        for (loc, domain), data in originals.items():
            po_path(project, loc, domain).write_bytes(data)
