"""The registry of translation checks (cardkit/i18n/registry.py): every registered code is in
docs/errors.md and every T-code there is registered (or listed below as raised elsewhere, with
the place); docs/translation.md's table and `l10n check --help` come from it."""

from __future__ import annotations

import re

import pytest

from cardkit.errors import Severity
from cardkit.i18n import registry
from cardkit.i18n.registry import Code, Scope, TranslationCheck, checks, codes, docs_table
from tests.conftest import REPO

#: T-codes of docs/errors.md that are not translation checks: code -> the place that raises them
NOT_TRANSLATION_CHECKS = {
    "T001": "cardkit/layout/fonts.py",  # a font file missing or unreadable
    "T002": "cardkit/layout/fonts.py",  # a template names an unknown font role
    "T003": "cardkit/layout/faces.py",  # a face or text style extends itself
}


def _errors_md_codes() -> tuple[set[str], set[str]]:
    """(T-codes of the section "Translation checks", T-codes elsewhere in docs/errors.md)."""
    text = (REPO / "docs" / "errors.md").read_text(encoding="utf-8")
    section = text.split("## Translation checks", 1)[1].split("\n## ", 1)[0]
    every = set(re.findall(r"^\| (T\d{3}) \|", text, re.M))
    inside = set(re.findall(r"^\| (T\d{3}) \|", section, re.M))
    return inside, every - inside


def test_every_registered_code_is_in_errors_md_and_every_t_code_there_is_registered():
    inside, outside = _errors_md_codes()
    registered = set(codes())
    assert registered - inside == set(), "registered codes missing from docs/errors.md, 'Translation checks'"
    assert inside - registered == set(), "codes of docs/errors.md, 'Translation checks', that no check registers"
    assert outside == set(NOT_TRANSLATION_CHECKS), "a T-code outside 'Translation checks': list it with its place"
    for code, place in NOT_TRANSLATION_CHECKS.items():
        assert f'"{code}"' in (REPO / place).read_text(encoding="utf-8")


def test_each_check_has_a_function_or_names_the_place_that_raises_its_codes():
    for c in checks():
        if c.scope is Scope.ELSEWHERE:
            assert c.run is None
            file = c.where.split(" ", 1)[0]
            assert (REPO / file).is_file(), c
            for code in c.codes:
                assert f'"{code.code}"' in (REPO / file).read_text(encoding="utf-8"), (code, file)
        else:
            assert callable(c.run), c
            source = (REPO / (c.run.__module__.replace(".", "/") + ".py")).read_text(encoding="utf-8")
            for code in c.codes:  # the function's module raises the code it declares
                assert f'"{code.code}"' in source, (code, c.name)


def test_the_docs_table_is_the_registrys():
    guide = (REPO / "docs" / "translation.md").read_text(encoding="utf-8")
    assert docs_table() in guide, "docs/translation.md, Checks, is out of date: python tools/registries.py"
    assert len(docs_table().splitlines()) == 2 + len(codes())


def test_l10n_check_help_lists_every_code(cli):
    result = cli("l10n", "check", "--help")
    assert result.code == 0
    for code, (c, _) in codes().items():
        assert re.search(rf"{code} {c.severity.value}: ", result.out), code


def test_the_checks_run_are_the_registered_ones_with_their_severities():
    """Entries made to trip entry checks: each finding's code is registered, with its severity."""
    from cardkit.i18n.checks import Entry, load_glossary, run_entry_checks
    from cardkit.layout.fonts import FontBook

    glossary, problems = load_glossary(REPO, "fi")
    assert problems == []
    entries = [Entry("fi", "ui", "a.b", "Draw {count} cards.", "Nosta  {n} korttia", "ui.po", 3),
               Entry("fi", "ui", "a.c", "Roll [skull] twice.", "Heitä kahdesti\u202e.", "ui.po", 5),
               Entry("fi", "ui", "a.d", "Gain 2 <b>points</b>.", "Saat 3 <b>pistettä.", "ui.po", 7)]
    found = run_entry_checks(entries, glossary, FontBook())
    table = codes()
    assert {"T801", "T302", "T301", "T310", "T303", "T401"} <= {f.check for f in found}
    for f in found:
        assert table[f.check][0].severity is f.severity, f


def test_the_registry_refuses_a_code_declared_twice_or_a_check_without_function():
    with pytest.raises(ValueError, match="T801 is declared by"):
        registry.register(TranslationCheck("check_spaces_again", Scope.ENTRY, (Code("T801", Severity.ERROR, "x"),),
                                           run=lambda e, g: ()))
    with pytest.raises(ValueError, match="a function, or"):
        registry.register(TranslationCheck("nowhere", Scope.ELSEWHERE, (Code("T999", Severity.ERROR, "x"),)))
    with pytest.raises(ValueError, match="not a code"):
        registry.register(TranslationCheck("bad", Scope.ENTRY, (Code("X999", Severity.ERROR, "x"),), run=lambda e, g: ()))
    assert "T999" not in codes() and "check_spaces_again" not in {c.name for c in checks()}
