"""`cardkit l10n check` on the shipped catalogs and on deliberately broken ones."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
import yaml
from babel.messages.catalog import Message
from babel.messages.pofile import read_po, write_po

from cardkit.i18n.checks import Entry, Glossary, Term, check_terms, terms_in_source
from tests.conftest import FIXTURES, REPO


def _mutate(project: Path, spec: dict) -> list[tuple[str, str]]:
    """Apply the fixture's mutations; return the planted (check, msgctxt) pairs."""
    locale = spec["locale"]
    planted = []
    by_domain: dict[str, list[dict]] = {}
    for m in spec["mutations"]:
        by_domain.setdefault(m["domain"], []).append(m)
    for domain, muts in by_domain.items():
        path = project / "locales" / locale / "LC_MESSAGES" / f"{domain}.po"
        cat = read_po(io.BytesIO(path.read_bytes()), locale=locale)
        for m in muts:
            planted.extend((code, m["msgctxt"]) for code in m["expect"])
            if "obsolete" in m:
                cat.obsolete[m["msgctxt"]] = Message("Old card", m["obsolete"], context=m["msgctxt"])
                continue
            msg = next(x for x in cat if x.context == m["msgctxt"])
            if m.get("remove"):
                cat.delete(msg.id, context=msg.context)
                continue
            s = msg.string
            if "set" in m:
                s = m["set"]
            if "replace" in m:
                old, new = m["replace"]
                assert old in s, (m, s)
                s = s.replace(old, new, 1)
            if "replace_all" in m:
                s = s.replace(*m["replace_all"])
            if "prepend" in m:
                s = m["prepend"] + s
            if "append" in m:
                s = s + m["append"]
            if "strip_end" in m:
                assert s.endswith(m["strip_end"])
                s = s[: -len(m["strip_end"])]
            if "repeat" in m:
                s = " ".join([s] * m["repeat"])
            msg.string = s
            if m.get("fuzzy"):
                msg.flags.add("fuzzy")
        buf = io.BytesIO()
        write_po(buf, cat, width=78)
        path.write_bytes(buf.getvalue())
    return planted


def test_shipped_catalogs_pass(cli):
    result = cli("l10n", "check", "--root", str(REPO), "--format", "json")
    assert result.code == 0, result.out[-3000:]
    report = json.loads(result.out)
    assert report["ok"] is True
    assert [f for f in report["findings"] if f["severity"] == "error"] == []
    for loc in ("fi", "ko"):
        for domain, cov in report["coverage"][loc].items():
            assert cov["translated"] == cov["total"] > 0, (loc, domain)
    summary = report["fit_summary"]
    assert summary["fi"]["below_min"] == summary["fi"]["overflow"] == 0
    assert summary["fi"]["strings"] == summary["ko"]["strings"] > 300


@pytest.mark.parametrize("fixture", ["broken-fi.yaml", "broken-ko.yaml"])
def test_broken_catalog_findings(fixture, project: Path, cli):
    spec = yaml.safe_load((FIXTURES / "l10n" / fixture).read_text(encoding="utf-8"))
    planted = _mutate(project, spec)
    result = cli("l10n", "check", "--root", str(project), "--locale", spec["locale"], "--format", "json")
    assert result.code == 1
    report = json.loads(result.out)
    found = {(f["check"], f["msgctxt"]) for f in report["findings"]}
    # T105 (stale catalog) is about the whole file
    missing = [p for p in planted if p not in found and not (p[0] == "T105" and ("T105", "") in found)]
    assert missing == [], missing
    planted_ctx = {ctx for _, ctx in planted}
    extra_errors = [f for f in report["findings"] if f["severity"] == "error"
                    and f["msgctxt"] not in planted_ctx and f["check"] != "T105"]
    assert extra_errors == []
    # every finding points into the catalog (file and line)
    for f in report["findings"]:
        if f["check"] in ("T102", "T103", "T301", "T401", "T701", "T950"):
            assert f["file"].startswith(f"locales/{spec['locale']}/") and f["line"] > 0, f


def test_text_report_groups_by_card(project: Path, cli):
    spec = yaml.safe_load((FIXTURES / "l10n" / "broken-fi.yaml").read_text(encoding="utf-8"))
    _mutate(project, spec)
    out = cli("l10n", "check", "--root", str(project), "--locale", "fi").out
    assert "death-angel / block\n" in out
    assert "fi: translated death-angel" in out
    assert "fi: fit " in out and "overflowing" in out


FI = Glossary("fi", (
    Term("genestealer", ("Genestealer", "Genestealers"), "geenivoro", ("geenivoro", "geenivoroa", "geenivorojen"), ("geenivoro",), ("geenivaras",)),
    Term("attack", ("Attack",), "Hyökkäys", ("hyökkäys", "hyökkäyksen"), (), ()),
))


@pytest.mark.parametrize("translation, codes", [
    ("Tapa 2 geenivoroa.", []),
    ("Tapa 2 geenivoroparven jäsentä.", []),  # a compound through the stem
    ("Tapa 2 vihollista.", ["T501"]),
    ("Tapa 2 geenivarasta ja geenivaras.", ["T501", "T502"]),
])
def test_finnish_inflection(translation, codes):
    e = Entry("fi", "death-angel", "x.text", "Kill 2 Genestealers.", translation, "f.po", 1)
    assert sorted(c for c, _, _ in check_terms(e, FI)) == codes


def test_longer_terms_and_names_mask_shorter_ones():
    terms = [Term("attack", ("Attack",), "x", ("x",), (), ()), Term("fast", ("Fast Attack",), "y", ("y",), (), ())]
    assert terms_in_source(terms, "Elites and Fast Attack units") == {"fast"}
    assert terms_in_source(terms, "An Attack card") == {"attack"}
    assert terms_in_source(terms[:1], "Heavy Attack squads", names=["Heavy Attack"]) == set()


@pytest.mark.parametrize("fixture", ["checks-fi.yaml", "checks-ko.yaml"])
def test_sharper_checks_blame_the_right_entry(fixture, project: Path, cli):
    """Numbers as multisets, composite overflow, inconsistent sources: each
    planted defect is found on its msgctxt and the errors are exactly these."""
    from cardkit.i18n.report import check_translations
    from cardkit.load.project import load_project

    spec = yaml.safe_load((FIXTURES / "l10n" / fixture).read_text(encoding="utf-8"))
    locale = spec["locale"]
    # T503 warnings the shipped catalogs already have (the fixture must not hide or add others)
    before = check_translations(project, load_project(project), [locale], fit=False)
    baseline = {(f.check, f.msgctxt) for f in before.findings if f.check == "T503"}
    planted = set(_mutate(project, spec))
    result = cli("l10n", "check", "--root", str(project), "--locale", locale, "--format", "json")
    assert result.code == 1
    report = json.loads(result.out)
    errors = {(f["check"], f["msgctxt"]) for f in report["findings"] if f["severity"] == "error" and f["check"] != "T105"}
    assert errors == {p for p in planted if p[0] != "T503"}
    warnings = {(f["check"], f["msgctxt"]) for f in report["findings"] if f["check"] == "T503"}
    assert warnings == baseline | {p for p in planted if p[0] == "T503"}
    for f in report["findings"]:
        if f["check"] in ("T401", "T402", "T503", "T950"):
            assert f["file"].startswith(f"locales/{locale}/LC_MESSAGES/") and f["line"] > 0, f
    # the overflowing box holds many strings; the finding points at the grown one's own line
    blamed = [f for f in report["findings"] if f["check"] == "T950"]
    po = (project / blamed[0]["file"]).read_text(encoding="utf-8").splitlines()
    assert f'msgctxt "{blamed[0]["msgctxt"]}"' in po[blamed[0]["line"] - 2: blamed[0]["line"]]  # Babel's line: msgid
    assert "strings sharing this box, this one grew most" in blamed[0]["message"]
