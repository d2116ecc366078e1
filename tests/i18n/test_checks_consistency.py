"""The consistency check (T503): one English source translated differently
within a locale, unless the glossary declares the difference."""

from __future__ import annotations

from pathlib import Path

import yaml

from cardkit.i18n.checks import Entry, Glossary, Variant, check_consistency, load_glossary
from cardkit.i18n.report import check_translations
from cardkit.load.project import load_project
from tests.conftest import REPO


def entry(ctx: str, source: str, translation: str, domain: str = "ui", line: int = 10, fuzzy: bool = False) -> Entry:
    return Entry("fi", domain, ctx, source, translation, f"locales/fi/LC_MESSAGES/{domain}.po", line, fuzzy)


def found(entries: list[Entry], g: Glossary | None = None) -> list[str]:
    return sorted(f.msgctxt for f in check_consistency(entries, g if g is not None else Glossary("fi")))


def test_minority_translation_is_reported_with_the_reference():
    entries = [entry("a.name", "Void Lock", "Tyhjiösulku", "death-angel", 3), entry("b.name", "Void Lock", "Tyhjiösulku", "death-angel", 7),
               entry("c.name", "Void Lock", "Tyhjiölukko", "death-angel", 11)]
    findings = check_consistency(entries, Glossary("fi"))
    assert [(f.check, f.severity.value, f.msgctxt, f.line) for f in findings] == [("T503", "warning", "c.name", 11)]
    assert "'Tyhjiölukko' here but 'Tyhjiösulku' in a.name (locales/fi/LC_MESSAGES/death-angel.po:3) and 1 more" in findings[0].message


def test_a_tie_reports_every_entry():
    assert found([entry("players", "Players", "Pelaajat"), entry("report.players", "Players", "Pelaajien määrä")]) == [
        "players", "report.players"]


def test_case_spacing_soft_hyphens_and_end_punctuation_do_not_count():
    assert found([entry("a", "Above Half Strength", "Yli puolessa vahvuudessa"),
                  entry("b", "above half strength", "yli puolessa vah\u00advuudessa."),
                  entry("c", "Different source", "Eri")]) == []


def test_fuzzy_entries_are_left_to_t103():
    assert found([entry("a", "Reserves", "Reservit"), entry("b", "Reserves", "Varajoukot", fuzzy=True)]) == []


def test_declared_variants_are_not_reported_but_a_new_one_is():
    g = Glossary("fi", variants=(Variant("Reserves", ("Reserves", "Reservit"), "rule name vs heading"),))
    declared = [entry("set.glossary.reserves.name", "Reserves", "Reserves", "deep-strike"), entry("scenario.reserves", "Reserves", "Reservit")]
    assert found(declared) == ["scenario.reserves", "set.glossary.reserves.name"]  # undeclared: a tie
    assert found(declared, g) == []
    assert found(declared + [entry("score.reserves", "Reserves", "Varajoukot")], g) == ["score.reserves"]


def test_shipped_glossary_declares_the_deliberate_differences():
    g, problems = load_glossary(REPO, "fi")
    assert problems == []
    assert {v.en for v in g.variants} >= {"Reserves", "Victory Points"}
    assert all(len(v.reason) > 40 for v in g.variants)
    report = check_translations(REPO, load_project(REPO), ["fi"], fit=False)
    assert [f for f in report.findings if f.check == "T503"] == []


def test_a_variant_without_a_reason_is_a_schema_error(project: Path):
    path = project / "locales" / "fi" / "glossary.yaml"
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    doc["variants"].append({"en": "Players", "translations": ["Pelaajat", "Pelaajamäärä"]})
    path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    g, problems = load_glossary(project, "fi")
    assert [(p.code, p.file) for p in problems] == [("S002", "locales/fi/glossary.yaml")]
    assert "reason" in problems[0].message and problems[0].line > 1
