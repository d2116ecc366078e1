"""Accepted findings (#32): one finding on one entry accepted in the PO itself,
kept by PO tools and `l10n update`, lapsing when the entry changes; and the
project-level `accept:` rules of a glossary."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po

from cardkit.i18n.accepted import fingerprint, parse_acceptances

PO = "locales/fi/LC_MESSAGES/death-angel.po"
REASON = "the Finnish name carries the model number; a long reason, so that a writer wrapping comments at 40 or 76 columns splits it"


def _plant(project: Path) -> None:
    """A T402 (a number only in the translation) on gun_jam.name."""
    p = project / PO
    text = p.read_text(encoding="utf-8")
    assert text.count('msgstr "Asehäiriö"\n') == 1
    p.write_text(text.replace('msgstr "Asehäiriö"\n', 'msgstr "Asehäiriö 2"\n'), encoding="utf-8")


def _check(cli, project: Path) -> tuple[int, list[dict]]:
    r = cli("l10n", "check", "--root", str(project), "--locale", "fi", "--set", "death-angel", "--no-fit",
            "--format", "json")
    assert r.err == "" or "Traceback" not in r.err
    return r.code, json.loads(r.out)["findings"]


def _on(findings: list[dict], msgctxt: str = "gun_jam.name") -> dict[str, dict]:
    return {f["check"]: f for f in findings if f["msgctxt"] == msgctxt}


@pytest.fixture
def accepted(project: Path, cli) -> Path:
    _plant(project)
    code, findings = _check(cli, project)
    assert code == 1 and _on(findings)["T402"]["severity"] == "error"
    before = (project / PO).read_text(encoding="utf-8")
    r = cli("l10n", "accept", "--root", str(project), "--locale", "fi", "--entry", "gun_jam.name", "--code", "T402",
            "--reason", REASON)
    assert r.code == 0, r.err
    assert r.out.startswith("accepted T402 on gun_jam.name in locales/fi/LC_MESSAGES/death-angel.po:")
    after = (project / PO).read_text(encoding="utf-8")
    fp = fingerprint("Gun Jam", None, ("Asehäiriö 2",))
    added = f"# cardkit-accept: T402 {fp} -- {REASON}\n"
    assert after.replace(added, "", 1) == before  # one line added, every other byte as it was
    return project


def test_an_accepted_finding_passes_check_json_text_and_update(accepted: Path, cli):
    code, findings = _check(cli, accepted)
    f = _on(findings)["T402"]
    assert code == 0
    assert (f["severity"], f["accepted"], f["accepted_severity"], f["reason"]) == ("info", True, "error", REASON)
    assert f["accepted_at"].startswith(PO + ":")
    text = cli("l10n", "check", "--root", str(accepted), "--locale", "fi", "--set", "death-angel", "--no-fit")
    assert text.code == 0
    assert "accepted[T402]: gun_jam.name: accepted (the Finnish name carries" in text.out
    summary = cli("l10n", "check", "--root", str(accepted), "--locale", "fi", "--set", "death-angel", "--no-fit",
                  "--summary")
    assert "fi death-angel: 233/233 translated (100 %); 1 accepted (T402 1)" in summary.out
    assert cli("l10n", "update", "--root", str(accepted), "--check").code == 0


def test_build_blocks_on_the_finding_and_not_on_its_acceptance(project: Path, cli):
    """What `cardkit build` stops on: the error findings of the check (without writing a PDF here:
    the same filter over the same report)."""
    from cardkit.cli.build import UNTRANSLATED
    from cardkit.errors import Severity
    from cardkit.i18n.report import check_translations
    from cardkit.load.project import load_project

    def blocking() -> list[str]:
        report = check_translations(project, load_project(project), ["fi"], ["death-angel"], fit=False)
        return [f.check for f in report.findings if f.severity is Severity.ERROR and f.check not in UNTRANSLATED]

    _plant(project)
    assert blocking() == ["T402"]
    assert cli("l10n", "accept", "--root", str(project), "--locale", "fi", "--entry", "gun_jam.name",
               "--code", "T402", "--reason", "the model number").code == 0
    assert blocking() == []


def test_a_changed_translation_or_english_lapses_the_acceptance(accepted: Path, cli):
    p = accepted / PO
    p.write_text(p.read_text(encoding="utf-8").replace('msgstr "Asehäiriö 2"', 'msgstr "Asehäiriö 3"'), encoding="utf-8")
    code, findings = _check(cli, accepted)
    on = _on(findings)
    assert code == 1 and on["T402"]["severity"] == "error" and "accepted" not in on["T402"]
    assert on["T980"]["severity"] == "warning"
    assert "the acceptance of T402 lapsed" in on["T980"]["message"] and "--entry gun_jam.name" in on["T980"]["message"]
    # back to the accepted translation: accepted again; then the English changes
    p.write_text(p.read_text(encoding="utf-8").replace('msgstr "Asehäiriö 3"', 'msgstr "Asehäiriö 2"'), encoding="utf-8")
    assert _check(cli, accepted)[0] == 0
    cards = accepted / "cards" / "death-angel" / "events.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace('name: "Gun Jam"', 'name: "Gun Jammed"'), encoding="utf-8")
    assert cli("l10n", "update", "--root", str(accepted)).code == 0
    assert "cardkit-accept: T402" in p.read_text(encoding="utf-8")  # the update keeps the comment
    code, findings = _check(cli, accepted)
    on = _on(findings)
    assert code == 1 and {"T103", "T402", "T980"} <= set(on) and on["T402"]["severity"] == "error"


def _msgmerge(project: Path, po: Path) -> None:
    out = po.with_suffix(".merged")
    subprocess.run(["msgmerge", "--quiet", "--previous", "-o", str(out), str(po),
                    str(project / "locales" / "death-angel.pot")], check=True)
    out.replace(po)


def _msgcat(project: Path, po: Path) -> None:
    out = po.with_suffix(".cat")
    subprocess.run(["msgcat", "--width=50", "-o", str(out), str(po)], check=True)
    out.replace(po)


def _rewrap(project: Path, po: Path) -> None:
    """A Poedit-style save: every entry rewrapped at another width (Babel at 40 also wraps the comment)."""
    cat = read_po(io.BytesIO(po.read_bytes()), locale="fi")
    buf = io.BytesIO()
    write_po(buf, cat, width=40)
    po.write_bytes(buf.getvalue())


@pytest.mark.skipif(not (shutil.which("msgmerge") and shutil.which("msgcat")), reason="gettext tools: tests/system-deps.sh")
@pytest.mark.parametrize("tool", [_msgmerge, _msgcat, _rewrap], ids=["msgmerge", "msgcat", "rewrap"])
def test_po_tools_and_update_keep_the_acceptance(accepted: Path, cli, tool):
    po = accepted / PO
    tool(accepted, po)
    code, findings = _check(cli, accepted)
    assert code == 0 and _on(findings)["T402"]["reason"] == REASON, _on(findings)
    cli("l10n", "update", "--root", str(accepted))
    code, findings = _check(cli, accepted)
    assert code == 0 and _on(findings)["T402"]["reason"] == REASON


def test_acceptance_comments_that_cannot_count(project: Path, cli):
    _plant(project)
    p = project / PO
    text = p.read_text(encoding="utf-8")
    fp = fingerprint("Gun Jam", None, ("Asehäiriö 2",))
    text = text.replace('msgctxt "gun_jam.name"', f"# cardkit-accept: T402 {fp}\n"  # no reason
                                                   "# cardkit-accept: T102 0000abcd -- empty is fine\n"
                                                   "# cardkit-accept: T402 -- written by hand, without fingerprint\n"
                                                   'msgctxt "gun_jam.name"')
    p.write_text(text, encoding="utf-8")
    code, findings = _check(cli, project)
    bad = [f["message"] for f in findings if f["check"] == "T982"]
    assert code == 1 and len(bad) == 3 and _on(findings)["T402"]["severity"] == "error"
    assert any("cannot read the acceptance" in m for m in bad) and any("T102 cannot be accepted" in m for m in bad)
    assert f"the acceptance of T402 has no fingerprint: write '# cardkit-accept: T402 {fp} -- reason'" in " ".join(bad)


def test_an_acceptance_with_nothing_to_accept_is_a_warning(project: Path, cli):
    p = project / PO
    fp = fingerprint("Gun Jam", None, ("Asehäiriö",))
    p.write_text(p.read_text(encoding="utf-8").replace(
        'msgctxt "gun_jam.name"', f"# cardkit-accept: T402 {fp} -- no longer needed\nmsgctxt \"gun_jam.name\""),
        encoding="utf-8")
    code, findings = _check(cli, project)
    assert code == 0 and "accepts nothing" in _on(findings)["T981"]["message"]


def test_accept_refuses_what_it_cannot_accept(project: Path, cli):
    r = cli("l10n", "accept", "--root", str(project), "--locale", "fi", "--entry", "gun_jam.name", "--code", "T402",
            "--reason", "x y z")
    assert r.code == 1 and "error[T982]" in r.err and "finds no T402 on 'gun_jam.name'" in r.err
    r = cli("l10n", "accept", "--root", str(project), "--locale", "de", "--entry", "gun_jam.name", "--code", "T402",
            "--reason", "x y z")
    assert r.code == 1 and "error[L005]" in r.err
    r = cli("l10n", "accept", "--root", str(project), "--locale", "fi", "--entry", "no_such.name", "--code", "T402",
            "--reason", "x y z")
    assert r.code == 1 and "no string 'no_such.name'" in r.err


def test_reason_goes_on_over_wrapped_comment_lines_until_the_next_acceptance():
    found, problems = parse_acceptances(("a translator's note", "cardkit-accept: T160 0123abcd -- deiner is",
                                         "German for your", "cardkit-accept: T201 fedc3210 -- same word"), "0123abcd")
    assert problems == []
    assert [(a.code, a.reason, a.current) for a in found] == [("T160", "deiner is German for your", True),
                                                             ("T201", "same word", False)]


def test_a_glossary_rule_accepts_by_context_pattern_or_text(project: Path, cli):
    _plant(project)
    glossary = project / "locales" / "fi" / "glossary.yaml"
    base = glossary.read_text(encoding="utf-8")

    def with_rule(rule: str) -> tuple[int, dict]:
        glossary.write_text(base + "accept:\n" + rule, encoding="utf-8")
        code, findings = _check(cli, project)
        return code, _on(findings)["T402"]

    code, f = with_rule("  - {code: T402, msgctxt: 'gun_jam.*', reason: Finnish model names carry a number}\n")
    assert code == 0 and f["accepted"] and f["accepted_at"] == "locales/fi/glossary.yaml accept[0]"
    code, f = with_rule("  - {code: T402, text: Asehäiriö, reason: the weapon's Finnish name}\n")
    assert code == 0 and f["reason"] == "the weapon's Finnish name"
    code, f = with_rule("  - {code: T402, text: [Lorenzo, Asehäiriö], reason: a name list}\n")
    assert code == 0 and f["reason"] == "a name list"
    code, f = with_rule("  - {code: T402, text: Asehäi, reason: a prefix is not the word}\n")
    assert code == 1 and f["severity"] == "error"
    code, f = with_rule("  - {code: T401, msgctxt: 'gun_jam.*', reason: another code}\n")
    assert code == 1 and f["severity"] == "error"
    glossary.write_text(base + "accept:\n  - {code: T402, reason: no pattern and no text}\n", encoding="utf-8")
    r = cli("l10n", "check", "--root", str(project), "--locale", "fi", "--set", "death-angel", "--no-fit")
    assert r.code == 1 and "locales/fi/glossary.yaml" in r.out


def test_the_review_page_shows_the_finding_as_accepted(accepted: Path):
    from cardkit.i18n.review import write_review
    from cardkit.load.project import load_project
    from tests.i18n.test_review import parse

    out = accepted / "out" / "review"
    write_review(accepted, load_project(accepted), out, ["fi"], ["death-angel"], dpi=72)
    articles = [a for a in parse(out / "fi.html").articles if any("gun_jam.name" in t for t in a.findings)]
    assert any("the Finnish name carries the model number" in t for a in articles for t in a.findings)
    for a in articles:
        [item] = [t for t in a.findings if "T402" in t]
        assert item.startswith("accepted T402")
        assert "the Finnish name carries the model number" in item or "the same finding as on" in item
        assert a.attrs["data-errors"] == "0"
        assert any("accepted" in b["class"].split() for b in a.boxes) and not any("error" in b["class"] for b in a.boxes)


def test_an_accepted_fit_finding_is_not_said_to_accept_nothing_without_the_fit_check(project: Path, cli):
    p = project / PO
    fp = fingerprint("Gun Jam", None, ("Asehäiriö",))
    p.write_text(p.read_text(encoding="utf-8").replace(
        'msgctxt "gun_jam.name"', f"# cardkit-accept: T950 {fp} -- shrinks on purpose\nmsgctxt \"gun_jam.name\""),
        encoding="utf-8")
    code, findings = _check(cli, project)  # --no-fit
    assert code == 0 and "T981" not in _on(findings)
