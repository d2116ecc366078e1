"""T103 says why an entry is fuzzy: the English changed (with the word diff), or a hand-set flag."""

from __future__ import annotations

import json
from pathlib import Path

from cardkit.i18n.report import word_diff
from tests.i18n.test_l10n_check import _mutate


def test_word_diff_marks_removed_and_added_words():
    assert word_diff("it cannot attack", "it cannot attack or move") == "it cannot attack {+or move+}"
    assert word_diff("a b c", "a c") == "a [-b-] c"


def test_fuzzy_says_what_changed_or_that_the_flag_is_by_hand(project: Path, cli):
    # a translator flags one entry by hand (Babel's writer, as a PO editor would save it) ...
    _mutate(project, {"locale": "fi", "mutations": [
        {"domain": "death-angel", "msgctxt": "gun_jam.text", "fuzzy": True, "expect": ["T103"]}]})
    # ... and the English of another changes
    cards = project / "cards/death-angel/actions.yaml"
    text = cards.read_text(encoding="utf-8")
    cards.write_text(text.replace("Until the end of the round it cannot attack", "Until the end of the game it cannot attack"),
                     encoding="utf-8")
    assert cli("l10n", "update", "--root", str(project)).code == 0
    result = cli("l10n", "check", "--root", str(project), "--locale", "fi", "--no-fit", "--format", "json")
    fuzzy = {f["msgctxt"]: f["message"] for f in json.loads(result.out)["findings"] if f["check"] == "T103"}
    assert fuzzy["power_field.text"] == (
        "fuzzy: the English changed since this was translated: After placing the support token, choose a swarm. "
        "Until the end of the [-round-] {+game+} it cannot attack and cannot be killed.; review the translation "
        "and clear the flag")
    assert fuzzy["gun_jam.text"] == ("fuzzy: flagged by hand (the English is unchanged); review the translation and "
                                     "clear the flag")
