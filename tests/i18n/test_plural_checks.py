"""Plural messages in catalogs and card data: the checks T150-T153 and C020, the
per-form fit, and what `l10n update` makes of a string that becomes plural."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
import yaml
from babel.messages.pofile import read_po, write_po

from cardkit.i18n.checks import Entry, Glossary, check_counted_not_plural, counted_placeholders
from cardkit.strings.localize import Localizer, ui_strings
from cardkit.load.project import load_project
from tests.conftest import FIXTURES

PO = "locales/{}/LC_MESSAGES/{}.po"


def _edit(project: Path, locale: str, domain: str, edits: dict[str, object], *, plural_of: dict[str, str] | None = None) -> None:
    """Set translations by msgctxt through Babel (a tuple sets every form) and
    clear the fuzzy flag; ``plural_of`` gives plain entries a msgid_plural."""
    path = project / PO.format(locale, domain)
    cat = read_po(io.BytesIO(path.read_bytes()), locale=locale)
    for msg in list(cat):
        if msg.context in (plural_of or {}):
            cat.delete(msg.id, context=msg.context)
            cat.add((msg.id, plural_of[msg.context]), (msg.string,), context=msg.context,
                    auto_comments=msg.auto_comments, locations=msg.locations, flags=msg.flags)
        elif msg.context in edits:
            msg.string = edits[msg.context]  # type: ignore[assignment]
            msg.flags.discard("fuzzy")
            msg.previous_id = []
    buf = io.BytesIO()
    write_po(buf, cat, width=78)
    path.write_bytes(buf.getvalue())


def _mutate_forms(project: Path, spec: dict) -> list[tuple[str, str]]:
    """Apply a broken-plural fixture (the format of tests/fixtures/l10n, plus
    ``form: n`` to edit one msgstr[n] and ``plural`` to add a msgid_plural)."""
    locale = spec["locale"]
    planted = []
    for m in spec["mutations"]:
        planted.extend((code, m["msgctxt"]) for code in m["expect"])
        path = project / PO.format(locale, m["domain"])
        cat = read_po(io.BytesIO(path.read_bytes()), locale=locale)
        if "plural" in m:
            _edit(project, locale, m["domain"], {}, plural_of={m["msgctxt"]: m["plural"]})
            continue
        msg = next(x for x in cat if x.context == m["msgctxt"])
        forms = list(msg.string)
        s = forms[m["form"]]
        if "set" in m:
            s = m["set"]
        if "replace" in m:
            old, new = m["replace"]
            assert old in s, (m, s)
            s = s.replace(old, new, 1)
        forms[m["form"]] = s
        _edit(project, locale, m["domain"], {m["msgctxt"]: tuple(forms)})
    return planted


@pytest.mark.parametrize("fixture", ["broken-plural-fi.yaml", "broken-plural-ko.yaml"])
def test_broken_plural_forms_found_on_their_msgctxt(fixture, project: Path, cli):
    spec = yaml.safe_load((FIXTURES / "l10n" / fixture).read_text(encoding="utf-8"))
    planted = _mutate_forms(project, spec)
    result = cli("l10n", "check", "--root", str(project), "--locale", spec["locale"], "--no-fit", "--format", "json")
    assert result.code == 1, result.err
    findings = json.loads(result.out)["findings"]
    found = {(f["check"], f["msgctxt"]) for f in findings}
    missing = [p for p in planted if p not in found and not (p[0] == "T105" and ("T105", "") in found)]
    assert missing == []
    planted_ctx = {ctx for _, ctx in planted}
    assert [f for f in findings if f["severity"] == "error" and f["msgctxt"] not in planted_ctx
            and f["check"] != "T105"] == []
    domain = {m["msgctxt"]: m["domain"] for m in spec["mutations"]}
    for f in findings:
        if f["check"] in ("T150", "T151", "T152"):
            po = PO.format(spec["locale"], domain[f["msgctxt"]])  # a set's own interface string: the set's catalog
            text = (project / po).read_text(encoding="utf-8").splitlines()
            assert f["file"] == po and text[f["line"] - 1].startswith("msgid "), f  # the entry's msgid line
            assert text[f["line"] - 2] == f'msgctxt "{f["msgctxt"]}"', f
        if f["check"] in ("T150", "T152"):
            assert re.search(r"msgstr\[\d\]", f["message"]), f


def test_missing_form_names_the_form_and_a_number(project: Path, cli):
    _edit(project, "fi", "ui", {"report.legend": ("{players} pelaaja", "")})
    result = cli("l10n", "check", "--root", str(project), "--locale", "fi", "--no-fit")
    assert result.code == 1
    line = next(x for x in result.out.splitlines() if "[T150]" in x)
    assert "report.legend: msgstr[1] (the form for 0) is not translated" in line
    # the Localizer does not print a half-translated message: the English stands in
    loc = Localizer(project, "fi")
    assert [loc.ui_n("report.legend", n) for n in (1, 2)] == ["1 player", "2 players"]


def test_shipped_catalogs_have_every_plural_form(cli):
    from tests.conftest import REPO

    result = cli("l10n", "check", "--root", str(REPO), "--no-fit", "--format", "json")
    assert result.code == 0, result.out[-2000:]
    assert [f for f in json.loads(result.out)["findings"] if f["check"].startswith("T15")] == []
    from cardkit.load.project import load_project

    da = load_project(REPO).card_set("death-angel")
    plural = {"ui": {s.msgctxt for s in ui_strings() if s.plural},
              "death-angel": {s.msgctxt for s in da.strings if s.plural and s.msgctxt in da.ui_ids}}
    assert {"report.legend", "report.subtitle", "summary.cards"} <= plural["ui"]
    assert {"play.spawn", "play.support"} <= plural["death-angel"]  # the set's own (strings.yaml)
    for locale, nplurals in (("fi", 2), ("ko", 1)):
        for domain, ids in plural.items():
            text = (REPO / PO.format(locale, domain)).read_text(encoding="utf-8")
            assert f'"Plural-Forms: nplurals={nplurals};' in text
            cat = read_po(io.StringIO(text), locale=locale)
            seen = set()
            for m in cat:
                if m.context in ids:
                    assert isinstance(m.id, tuple) and len(m.string) == nplurals and all(m.string), (locale, m.context)
                    seen.add(m.context)
            assert seen == ids, (locale, domain)


@pytest.mark.parametrize("source, counted", [
    ("{players} players", ["players"]),
    ("{marine} receives {count} support token(s).", ["count"]),
    ("{player}: {points} pts", ["points"]),
    ("{done}/{total} strings translated", ["total"]),
    ("{unit} holds the black box", []),
    ("{quarter} shared: {units} against {enemy}", []),
    ("{marine} moves to position {row}.", []),
    ("Death Angel: {players} player game, seed {seed}", []),
])
def test_counted_placeholder_in_a_plain_message_warns(source, counted):
    assert counted_placeholders(source) == counted
    e = Entry("fi", "ui", "x", source, source, "f.po", 3)
    codes = [(c, str(sev)) for c, sev, _ in check_counted_not_plural(e, Glossary("fi"))]
    assert codes == [("T153", "Severity.WARNING")] * len(counted)
    # one form of a plural message is never warned about
    e.form = 1
    assert list(check_counted_not_plural(e, Glossary("fi"))) == []


def _make_plural(project: Path, path: str, old: str, new: str) -> None:
    f = project / path
    text = f.read_text(encoding="utf-8")
    assert text.count(old) >= 1, old
    f.write_text(text.replace(old, new, 1), encoding="utf-8")


HOLD_SIDE = 'label: "Each side quarter, controlled"'
HOLD_SIDE_PLURAL = ('label: {text: "{quarters} side quarter, controlled", '
                    'plural: "{quarters} side quarters, controlled", count: quarters}')


def test_card_string_declares_a_plural_message(project: Path, cli):
    _make_plural(project, "cards/deep-strike/scenarios.yaml", HOLD_SIDE, HOLD_SIDE_PLURAL)
    assert cli("validate", "--root", str(project)).code == 0
    strings = {s.msgctxt: s for s in load_project(project).sets["deep-strike"].set.strings}
    s = strings["ds1_secure_the_airhead.objectives.scoring.hold_side.label"]  # msgctxt unchanged
    assert (s.text, s.plural, s.count) == ("{quarters} side quarter, controlled", "{quarters} side quarters, controlled",
                                           "quarters")
    old_fi = dict((m.context, m.string) for m in read_po(
        io.BytesIO((project / PO.format("fi", "deep-strike")).read_bytes()), locale="fi"))[s.msgctxt]

    assert cli("l10n", "update", "--root", str(project)).code == 0
    pot = (project / "locales/deep-strike.pot").read_text(encoding="utf-8")
    assert (f'msgctxt "{s.msgctxt}"\nmsgid "{{quarters}} side quarter, controlled"\n'
            'msgid_plural "{quarters} side quarters, controlled"\nmsgstr[0] ""\nmsgstr[1] ""\n') in pot
    first = {p: (project / p).read_bytes() for p in (PO.format("fi", "deep-strike"), PO.format("ko", "deep-strike"))}
    fi = read_po(io.BytesIO(first[PO.format("fi", "deep-strike")]), locale="fi")
    m = next(x for x in fi if x.context == s.msgctxt)
    # the old translation offered for every form, fuzzy, the old English kept as the previous id
    assert m.string == (old_fi, old_fi) and m.fuzzy
    assert '#| msgid "Each side quarter, controlled"' in first[PO.format("fi", "deep-strike")].decode()
    ko = read_po(io.BytesIO(first[PO.format("ko", "deep-strike")]), locale="ko")
    assert len(next(x for x in ko if x.context == s.msgctxt).string) == 1
    # idempotent: a second update changes nothing and --check passes
    assert cli("l10n", "update", "--root", str(project)).code == 0
    assert {p: (project / p).read_bytes() for p in first} == first
    assert cli("l10n", "update", "--root", str(project), "--check").code == 0

    # the old Finnish lacks {quarters} in both forms; then the translator fixes it
    result = cli("l10n", "check", "--root", str(project), "--locale", "fi", "--set", "deep-strike", "--no-fit",
                 "--format", "json")
    mine = sorted((f["check"], f["message"][:9]) for f in json.loads(result.out)["findings"] if f["msgctxt"] == s.msgctxt)
    assert mine == [("T103", "fuzzy: th"), ("T152", "msgstr[0]"), ("T152", "msgstr[1]")]
    _edit(project, "fi", "deep-strike", {s.msgctxt: ("{quarters} sivuneljännes hallussa", "{quarters} sivuneljännestä hallussa")})
    result = cli("l10n", "check", "--root", str(project), "--locale", "fi", "--set", "deep-strike", "--no-fit",
                 "--format", "json")
    assert [f for f in json.loads(result.out)["findings"] if f["msgctxt"] == s.msgctxt] == []
    card_set = load_project(project).sets["deep-strike"].set
    loc = Localizer(project, "fi", card_set)
    assert [loc.card_n(s.msgctxt, n) for n in (1, 2)] == ["1 sivuneljännes hallussa", "2 sivuneljännestä hallussa"]
    en = Localizer(project, "en", card_set)
    assert [en.card_n(s.msgctxt, n) for n in (1, 3)] == ["1 side quarter, controlled", "3 side quarters, controlled"]


def test_plural_count_must_name_a_placeholder(project: Path, cli):
    _make_plural(project, "cards/deep-strike/scenarios.yaml", HOLD_SIDE, HOLD_SIDE_PLURAL.replace("count: quarters", "count: quarter"))
    result = cli("validate", "--root", str(project))
    assert result.code == 1
    lines = [x for x in result.err.splitlines() if "C020" in x]
    assert len(lines) == 2 and all(x.startswith("cards/deep-strike/scenarios.yaml:") for x in lines)
    line_no = int(lines[0].split(":")[1])
    assert "hold_side" in (project / "cards/deep-strike/scenarios.yaml").read_text(encoding="utf-8").splitlines()[line_no - 1]
    assert sorted(x.split("label: ")[1] for x in lines) == [
        "the plural text has no {quarter} placeholder, but 'count' names it",
        "the singular text has no {quarter} placeholder, but 'count' names it"]
    # a plural message without its count is a schema error, located too
    _make_plural(project, "cards/deep-strike/scenarios.yaml", ", count: quarter}", "}")
    result = cli("validate", "--root", str(project))
    assert result.code == 1 and "error[S002]: missing required key 'count'" in result.err


def test_each_plural_form_is_fitted_on_its_card(project: Path, cli):
    """A Death Angel card text made plural: the Finnish singular fits, the
    plural form is far too long for the box and is reported on its own."""
    cards = project / "cards/death-angel"
    path = next(p for p in sorted(cards.glob("*.yaml")) if "id: secret_route" in p.read_text(encoding="utf-8"))
    text = path.read_text(encoding="utf-8")
    m = re.search(r"(- id: secret_route\n(?:    .*\n)*?    text: )(\".*\")\n", text)
    assert m, "secret_route text not found"
    english = yaml.safe_load(m.group(2))
    plural = f'{{text: "{{n}} route. {english}", plural: "{{n}} routes. {english}", count: n}}'
    path.write_text(text.replace(m.group(0), m.group(1) + plural + "\n"), encoding="utf-8")
    assert cli("validate", "--root", str(project)).code == 0, "plural card text rejected"
    assert cli("l10n", "update", "--root", str(project)).code == 0
    ko_before = {m.context: m.string for m in read_po(io.BytesIO((project / PO.format("ko", "death-angel")).read_bytes()))}
    fi = {m.context: m.string for m in read_po(io.BytesIO((project / PO.format("fi", "death-angel")).read_bytes()), locale="fi")}
    short = fi["secret_route.text"][0]
    _edit(project, "fi", "death-angel", {"secret_route.text": ("{n} reitti. " + short, " ".join(["{n} reittiä. " + short] * 40))})
    _edit(project, "ko", "death-angel", {"secret_route.text": ("{n}개 경로. " + ko_before["secret_route.text"][0],)})
    result = cli("l10n", "check", "--root", str(project), "--set", "death-angel", "--format", "json")
    assert result.code == 1
    fits = [f for f in json.loads(result.out)["findings"] if f["check"] == "T950"]
    assert [(f["locale"], f["msgctxt"]) for f in fits] == [("fi", "secret_route.text")], fits
    assert "msgstr[1] (for 0)" in fits[0]["message"] and fits[0]["file"] == PO.format("fi", "death-angel")
