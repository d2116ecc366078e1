"""Issue 24, point 9: defects of the kinds a held-out corpus found missed, planted
in the shipped Finnish and Korean catalogs: the fit of strings printed outside
the cards (the calibration sheet, a team name across its marker on the token
page, the token page's own labels and instruction, a set title in the page
footer) and of a set glossary name, English left in
interface strings, Korean word spacing removed in short interface strings.
Each is found on its own entry, and nothing else is."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from tests.conftest import FIXTURES
from tests.i18n.test_l10n_check import _mutate


def test_each_planted_defect_is_found_on_its_entry(project: Path, cli):
    planted: set[tuple[str, str, str]] = set()
    for name in ("heldout-fi.yaml", "heldout-ko.yaml"):
        spec = yaml.safe_load((FIXTURES / "l10n" / name).read_text(encoding="utf-8"))
        planted |= {(spec["locale"], code, ctx) for code, ctx in _mutate(project, spec)}
    result = cli("l10n", "check", "--root", str(project), "--locale", "fi", "--locale", "ko", "--format", "json")
    assert result.code == 1
    findings = json.loads(result.out)["findings"]
    found = {(f["locale"], f["check"], f["msgctxt"]) for f in findings
             if f["check"] not in ("T104", "T105")}  # the shipped obsolete entry; a rewritten catalog is stale
    assert found == planted, (sorted(found - planted), sorted(planted - found))
    # the team names fit the cards' team field: what they overflow is their marker on the token page
    teams = [f for f in findings if f["msgctxt"].startswith("set.teams.")]
    assert {f["locale"] for f in teams} == {"fi", "ko"}
    assert all(f["message"].startswith("token page, team marker:") and f["file"].endswith("death-angel.po")
               and f["line"] > 0 for f in teams), teams
    # the token page's own strings and a set title in the page footer: each on its own entry, saying where
    beside = {(f["locale"], f["msgctxt"]): f for f in findings if f["check"] == "T950" and f["msgctxt"] in
              ("tokens.team", "tokens.cut", "tokens.support", "set.title")}
    for (locale, msgctxt), start, file in (
            (("fi", "tokens.team"), "token page, team marker: the label", "fi/LC_MESSAGES/death-angel.po"),
            (("fi", "tokens.cut"), "token page, instruction:", "fi/LC_MESSAGES/ui.po"),
            (("ko", "tokens.support"), "token page, token label:", "ko/LC_MESSAGES/death-angel.po"),
            (("ko", "set.title"), "page footer:", "ko/LC_MESSAGES/deep-strike.po")):
        f = beside[(locale, msgctxt)]
        assert f["message"].startswith(start) and f["file"].endswith(file) and f["line"] > 0, f


def test_set_glossary_texts_are_not_printed_and_say_so():
    """The held-out corpus counted an overflow on a glossary text: nothing prints
    those (the names print, in the special-rules line), so their template entries
    say so instead of giving a length budget; a layout that did print one would
    give it a budget, and the note would go."""
    from babel.messages.pofile import read_po

    from cardkit.i18n.budget import translation_domains
    from cardkit.i18n.catalogs import NOT_PRINTED, template_for
    from cardkit.load.project import load_project
    from cardkit.model import SourceString
    from tests.conftest import REPO

    project = load_project(REPO)
    budgets = {d: b for d, _, b in translation_domains(project)}["deep-strike"]
    glossary = project.card_set("deep-strike").glossary
    assert len(glossary) == 16
    assert not [k for k in budgets if k.startswith("set.glossary.") and k.endswith(".text")]  # laid out nowhere
    assert "set.glossary.deep_strike.name" in budgets  # the names are printed and fit-checked
    pot = {m.context: m for m in read_po((REPO / "locales" / "deep-strike.pot").open("rb")) if m.id}
    for gid in glossary:
        comments = " ".join(pot[f"set.glossary.{gid}.text"].auto_comments)
        assert " ".join(NOT_PRINTED.split()) in " ".join(comments.split()) and "Length budget" not in comments, gid
    text = SourceString("set.glossary.x.text", "A rule explained.", "cards/x/set.yaml", 3, "Set manifest")
    printed = template_for("x", (text,), {"set.glossary.x.text": 40}).get("A rule explained.", "set.glossary.x.text")
    unprinted = template_for("x", (text,), {}).get("A rule explained.", "set.glossary.x.text")
    assert printed is not None and unprinted is not None
    assert any("Length budget: about 40" in c for c in printed.auto_comments) and NOT_PRINTED not in printed.auto_comments
    assert NOT_PRINTED in unprinted.auto_comments
