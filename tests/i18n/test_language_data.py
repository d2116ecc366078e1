"""The language data a new language needs (issue 32, "What to build" 5):
`l10n init` scaffolds `negation`, `numbers`, `name_endings` and `units` in the
glossary, and `l10n check` says which checks did not run, or ran with less,
until they are filled (T190)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from cardkit.i18n.checks import Glossary, load_glossary, missing_language_data
from tests.conftest import FIXTURES, REPO


def _t190(cli, root: Path, locale: str) -> list[str]:
    r = cli("l10n", "check", "--root", str(root), "--locale", locale, "--no-fit", "--format", "json")
    return [f["message"] for f in json.loads(r.out)["findings"] if f["check"] == "T190"]


def test_init_scaffolds_the_language_data_and_check_says_what_did_not_run(tmp_path: Path, cli):
    root = tmp_path / "p"
    shutil.copytree(FIXTURES / "l10n" / "lanternhold", root)
    shutil.rmtree(root / "locales" / "de")  # the project's first language: no glossary to learn names from
    shutil.rmtree(root / "locales" / "fr")
    r = cli("l10n", "init", "--root", str(root), "--locale", "sv")
    assert r.code == 0, r.err
    assert "negation, numbers, name_endings" in r.out
    path = root / "locales/sv/glossary.yaml"
    text = path.read_text(encoding="utf-8")
    for key in ("# negation: []", "# numbers:", "# name_endings: []", "# units: {inch: [], cm: []}"):
        assert key in text
    glossary, problems = load_glossary(root, "sv")
    assert problems == []
    (message,) = _t190(cli, root, "sv")
    assert message.startswith("for lack of language data in locales/sv/glossary.yaml: ")
    for said in ("T161 (a negation lost or added) did not run", "T160 (names) did not run",
                 "T401/T402 read digits only", "T160 knows names as whole words only"):
        assert said in message
    # filled as a translator does: the lists written, the '# ' removed
    assert "# proper_names: []" in text
    text = text.replace("# proper_names: []", "proper_names: [Deino, Machete]  #")
    text = text.replace("# negation: []", "negation: [inte, ej, aldrig, ingen, inget, inga, utan]")
    text = text.replace("# numbers:\n# - {value: 1, words: []}\n# - {value: 2, words: []}",
                        "numbers:\n- {value: 1, words: [en, ett]}\n- {value: 2, words: [två]}")
    text = text.replace("# name_endings: []", "name_endings: [s]")
    # a scaffolded term whose card title starts with a digit still has a valid id once uncommented
    assert "# - id: term_45_automatic" in text
    text = text.replace("terms: []\n", "terms:\n- {id: term_45_automatic, en: ['.45 Automatic'], term: '.45 Automatic', "
                                        "forms: ['.45 Automatic']}\n")
    path.write_text(text, encoding="utf-8")
    glossary, problems = load_glossary(root, "sv")
    assert problems == [] and len(glossary.terms) == 1
    assert _t190(cli, root, "sv") == []


def test_what_each_language_needs():
    full = dict(negation=("not",), proper_names=frozenset({"Deino"}), numbers={1: ("one",)})
    assert missing_language_data(Glossary("de", **full, declared=frozenset({"numbers", "name_endings"}))) == []
    # a language that does not inflect names says so with an empty list
    assert len(missing_language_data(Glossary("de", **full, declared=frozenset({"numbers"})))) == 1
    # Korean writes its particles on the name: no endings needed
    assert missing_language_data(Glossary("ko", **full, declared=frozenset({"numbers"}))) == []
    # the shipped glossaries have all they need
    for locale in ("fi", "ko"):
        assert missing_language_data(load_glossary(REPO, locale)[0]) == []
    for locale in ("fi", "ko"):
        assert missing_language_data(load_glossary(REPO / "examples" / "tidelights", locale)[0]) == []
