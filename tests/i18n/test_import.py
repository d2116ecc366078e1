"""`cardkit l10n import` (#32): CSV, JSON, XLIFF 1.2/2.0 and PO into the catalogs; filled,
unchanged, conflicting and unknown; dry run; fuzzy for review; every bad input one located line."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from cardkit.i18n.catalogs import read_catalog
from tests.conftest import FIXTURES, REPO

DE = "locales/de/LC_MESSAGES/death-angel.po"
ROUND_TRIP = FIXTURES / "l10n" / "xliff-roundtrip"


@pytest.fixture
def german(project: Path, cli) -> Path:
    """The project with an empty German catalog per set (`l10n init --locale de`)."""
    assert cli("l10n", "init", "--locale", "de", "--root", str(project)).code == 0
    return project


def _de(project: Path) -> dict[str, tuple[tuple[str, ...], bool]]:
    loaded = read_catalog(project / DE, DE, "de")
    return {e.context: (e.strings, e.fuzzy) for e in loaded.active if e.translated and e.context}


def _snapshot(project: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in sorted((project / "locales").rglob("*")) if p.is_file()}


def _import(cli, project: Path, file: Path, *args: str):
    return cli("l10n", "import", str(file), "--root", str(project), "--locale", "de", *args)


def test_csv_fills_reports_conflicts_unknown_and_ambiguous(german: Path, cli, tmp_path: Path):
    csv = tmp_path / "de.csv"
    csv.write_text("msgctxt,source,de\n"
                   "gun_jam.name,Gun Jam,Ladehemmung\n"
                   "nope.name,,Nichts\n"
                   ",Genestealer,Symbiont\n"  # five cards are named so
                   ",Purple,Violett\n",  # found by its English alone
                   encoding="utf-8")
    r = _import(cli, german, csv)
    assert r.code == 0, r.err
    assert f"updated {DE}: 2 filled, 0 overwritten, 0 unchanged, 0 conflicting" in r.out
    assert f"{csv.as_posix()}: 4 translations read, 1 unknown, 1 ambiguous" in r.out
    err = r.err.splitlines()
    assert err[0] == f"{csv.as_posix()}:3:1: warning[L032]: unknown key 'nope.name': no string of the chosen sets has it"
    assert err[1].startswith(f"{csv.as_posix()}:4:1: warning[L033]: the English 'Genestealer' is that of 5 strings")
    assert _de(german) == {"gun_jam.name": (("Ladehemmung",), False), "set.teams.purple.name": (("Violett",), False)}
    assert cli("l10n", "update", "--root", str(german), "--check").code == 0  # written as update writes it

    # the same again: unchanged; another translation: a conflict, kept; --overwrite replaces it
    again = _import(cli, german, csv)
    assert f"unchanged {DE}: 0 filled, 0 overwritten, 2 unchanged, 0 conflicting" in again.out
    csv.write_text("msgctxt,translation\ngun_jam.name,Waffenstörung\n", encoding="utf-8")
    conflict = _import(cli, german, csv)
    # a conflict left unapplied is an exit status a script sees (1), not only a warning line
    assert conflict.code == 1 and "1 conflicting (kept; --overwrite replaces them)" in conflict.out
    assert "warning[L031]: gun_jam.name: the catalog (locales/de/LC_MESSAGES/death-angel.po:" in conflict.err
    assert _de(german)["gun_jam.name"] == (("Ladehemmung",), False)
    overwritten = _import(cli, german, csv, "--overwrite")
    assert overwritten.code == 0 and "1 overwritten" in overwritten.out
    assert _de(german)["gun_jam.name"] == (("Waffenstörung",), False)


def test_dry_run_writes_nothing_and_fuzzy_marks_for_review(german: Path, cli, tmp_path: Path):
    data = tmp_path / "de.json"
    data.write_text(json.dumps({"gun_jam": {"name": "Ladehemmung", "text": "Wähle ein Kampfteam."}}), encoding="utf-8")
    before = _snapshot(german)
    dry = _import(cli, german, data, "--dry-run", "--fuzzy")
    assert dry.code == 0 and f"would update {DE}: 2 filled" in dry.out and "dry run: nothing written" in dry.out
    assert _snapshot(german) == before
    assert _import(cli, german, data, "--fuzzy").code == 0
    assert _de(german) == {"gun_jam.name": (("Ladehemmung",), True), "gun_jam.text": (("Wähle ein Kampfteam.",), True)}
    check = cli("l10n", "check", "--root", str(german), "--locale", "de", "--set", "death-angel", "--no-fit")
    assert "error[T103]: gun_jam.name: fuzzy" in check.out


def test_json_shapes_keyed_by_msgctxt_by_card_and_as_a_list(german: Path, cli, tmp_path: Path):
    shapes = {
        "by-msgctxt.json": {"gun_jam.name": "Ladehemmung", "set.teams.red.name": {"translation": "Rot", "source": "Red"}},
        "list.json": [{"msgctxt": "gun_jam.name", "translation": "Ladehemmung"},
                      {"id": "set.teams.red", "field": "name", "translation": "Rot"}],
        "cards.json": [{"id": "gun_jam", "name": "Ladehemmung", "cost": 2}, {"id": "set", "teams": {"red": {"name": "Rot"}}}],
    }
    for name, doc in shapes.items():
        shutil.rmtree(german / "locales" / "de")
        assert cli("l10n", "init", "--locale", "de", "--root", str(german)).code == 0
        path = tmp_path / name
        path.write_text(json.dumps(doc, ensure_ascii=False, indent=1), encoding="utf-8")
        r = _import(cli, german, path)
        assert r.code == 0 and r.err == "", (name, r.err)
        assert _de(german) == {"gun_jam.name": (("Ladehemmung",), False), "set.teams.red.name": (("Rot",), False)}, name


def test_a_translation_of_other_english_is_imported_fuzzy_with_that_english(german: Path, cli, tmp_path: Path):
    data = tmp_path / "old.json"
    data.write_text(json.dumps({"gun_jam.name": {"source": "Gun Jammed", "translation": "Ladehemmung"}}), encoding="utf-8")
    r = _import(cli, german, data)
    assert r.code == 0 and "1 marked fuzzy" in r.out
    entry = next(e for e in read_catalog(german / DE, DE, "de").active if e.context == "gun_jam.name")
    assert entry.fuzzy and entry.previous is not None and entry.previous.id == "Gun Jammed" and entry.id == "Gun Jam"


def test_xliff_from_translate_toolkit_matches_by_english_and_source_reference(german: Path, cli):
    """po2xliff drops the msgctxt and numbers its units; two Genestealer names are told apart by their reference."""
    r = _import(cli, german, ROUND_TRIP / "subset.fi.xlf")
    assert r.code == 0 and r.err == "" and "5 filled" in r.out
    got = _de(german)
    fi = {e.context: (e.strings, False) for e in read_catalog(REPO / "locales/fi/LC_MESSAGES/death-angel.po", "x", "fi").active}
    assert got == {k: fi[k] for k in ("gun_jam.name", "gun_jam.text", "genestealer_claw.name", "genestealer_tail.name",
                                      "set.teams.green.name")}


def test_xliff_12_and_20_by_key(german: Path, cli, tmp_path: Path):
    x12 = tmp_path / "de12.xlf"
    x12.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n'
        ' <file original="death-angel" source-language="en" target-language="de" datatype="plaintext"><body>\n'
        '  <trans-unit id="gun_jam.name"><source>Gun Jam</source><target state="translated">Ladehemmung</target></trans-unit>\n'
        '  <trans-unit id="u2" resname="set.teams.red.name"><source>Red</source><target state="needs-review-translation">Rot</target></trans-unit>\n'
        '  <trans-unit id="u3" resname="set.teams.blue.name"><source>Blue</source></trans-unit>\n'
        ' </body></file>\n</xliff>\n', encoding="utf-8")
    assert _import(cli, german, x12).code == 0
    assert _de(german) == {"gun_jam.name": (("Ladehemmung",), False), "set.teams.red.name": (("Rot",), True)}
    x20 = tmp_path / "de20.xliff"
    x20.write_text(
        '<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="de">\n'
        ' <file id="f1">\n'
        '  <unit id="1" name="set.teams.blue.name"><segment state="final"><source>Blue</source><target>Blau</target></segment></unit>\n'
        '  <unit id="gun_jam.text"><segment><source>Choose a combat team</source><target>Wähle &amp; ein </target></segment>'
        '<segment><source>.</source><target>Kampfteam.</target></segment></unit>\n'
        ' </file>\n</xliff>\n', encoding="utf-8")
    r = _import(cli, german, x20)
    assert r.code == 0, r.err
    got = _de(german)
    assert got["set.teams.blue.name"] == (("Blau",), False)
    # the English differs from the card's: fuzzy, for review
    assert got["gun_jam.text"] == (("Wähle & ein Kampfteam.",), True)


def test_another_po_and_a_catalog_restored_from_a_copy_with_msgctxt(german: Path, cli):
    r = _import(cli, german, REPO / "locales/fi/LC_MESSAGES/death-angel.po", "--set", "death-angel")
    assert r.code == 0 and "233 filled" in r.out and "0 unknown, 0 ambiguous" in r.out
    fi = read_catalog(REPO / "locales/fi/LC_MESSAGES/death-angel.po", "x", "fi")
    assert _de(german) == {e.context: (e.strings, e.fuzzy) for e in fi.active if e.context}


@pytest.mark.parametrize("name, text, line, words", [
    ("bad.json", '{"gun_jam.name": "a",\n "gun_jam.text": }', 2, "not valid JSON"),
    ("dup.json", '{"a": "x", "a": "y"}', 1, "the key 'a' twice"),
    ("list.json", '{"gun_jam": {"name": ["a", 2]}}', 1, "a list holds the forms"),
    ("cols.csv", "msgctxt,translation\ngun_jam.name,a,b\n", 2, "3 columns; the header has 2"),
    ("nokey.csv", "foo,translation\nx,y\n", 1, "no key column"),
    ("dtd.xlf", '<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY a "aaaa">]>\n<xliff version="1.2"/>', 2, "refused: a <!DOCTYPE>"),
    ("broken.xlf", '<xliff version="1.2">\n<file><body><trans-unit id="a"><source>x</source></body></file></xliff>', 2,
     "not well-formed XML"),
    ("inline.xlf", '<xliff version="2.0"><file id="f"><unit id="gun_jam.name"><segment><source>Gun Jam</source>\n'
                   '<target>Lade<pc id="1">hemmung</pc></target></segment></unit></file></xliff>', 2, "inline XLIFF markup <pc>"),
    ("version.xlf", '<xliff version="3.0"/>', 1, "XLIFF version '3.0'"),
    ("bad.po", 'msgid "a"\nmsgstr "b\n', 2, "unterminated string"),
    ("forms.json", '{"gun_jam.name": ["a", "b"]}', 1, "2 form(s) for a message that takes 1"),
    ("x.txt", "", 0, "cannot tell the format"),
])
def test_bad_input_is_one_located_line_and_nothing_written(german: Path, cli, tmp_path: Path, name, text, line, words):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    before = _snapshot(german)
    r = _import(cli, german, path)
    assert r.code == 1 and "Traceback" not in r.err
    [err] = r.err.splitlines()
    where = f"{path.as_posix()}:{line}:" if line else f"{path.as_posix()}: "
    assert err.startswith(where) and "error[L030]" in err and words in err, err
    assert _snapshot(german) == before


def test_import_needs_the_locale_or_create(project: Path, cli, tmp_path: Path):
    csv = tmp_path / "sv.csv"
    csv.write_text("msgctxt,translation\ngun_jam.name,Vapenstopp\n", encoding="utf-8")
    r = cli("l10n", "import", str(csv), "--root", str(project), "--locale", "sv")
    assert r.code == 1 and "error[L005]" in r.err and not (project / "locales" / "sv").exists()
    r = cli("l10n", "import", str(csv), "--root", str(project), "--locale", "sv", "--create")
    assert r.code == 0, r.err
    sv = read_catalog(project / "locales/sv/LC_MESSAGES/death-angel.po", "x", "sv")
    assert {e.context: e.strings for e in sv.active if e.translated} == {"gun_jam.name": ("Vapenstopp",)}
    assert (project / "locales/sv/LC_MESSAGES/deep-strike.po").exists()
    assert cli("l10n", "update", "--root", str(project), "--check").code == 0


def test_plural_forms_from_a_translate_toolkit_xliff(german: Path, cli):
    r = _import(cli, german, ROUND_TRIP / "plural.fi.xlf")
    assert r.code == 0 and r.err == "" and "updated locales/de/LC_MESSAGES/ui.po: 2 filled" in r.out
    ui = read_catalog(german / "locales/de/LC_MESSAGES/ui.po", "ui.po", "de")
    got = {e.context: e.strings for e in ui.active if e.translated}
    assert got == {"report.players": ("Pelaajat",), "report.legend": ("{players} pelaaja", "{players} pelaajaa")}


SEEDS = {
    "csv": "msgctxt,source,translation\ngun_jam.name,Gun Jam,\"Lade\"\"hemmung\"\n",
    "json": '{"gun_jam": {"name": "Ladehemmung", "text": ["a", "b"]}, "x": [{"id": "y"}]}',
    "xliff": (ROUND_TRIP / "plural.fi.xlf").read_text(encoding="utf-8"),
    "po": 'msgctxt "gun_jam.name"\nmsgid "Gun Jam"\nmsgstr "Ladehemmung"\n',
}


@pytest.mark.parametrize("fmt", sorted(SEEDS))
def test_mangled_input_is_read_or_refused_never_a_crash(fmt: str):
    """Cut, spliced and doubled pieces of valid inputs: a list of records or a CardkitError whose every
    issue is L030 with a line (never a traceback)."""
    from hypothesis import HealthCheck, given, settings, strategies as st

    from cardkit.errors import CardkitError
    from cardkit.i18n.importer import Format, read_records

    seed = SEEDS[fmt]

    @settings(max_examples=int(os.environ.get("CARDKIT_FUZZ_EXAMPLES", "60")), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(st.lists(st.tuples(st.integers(0, len(seed)), st.integers(0, len(seed)), st.text(max_size=8)), max_size=4))
    def run(edits: list[tuple[int, int, str]]) -> None:
        text = seed
        for a, b, insert in edits:
            a, b = sorted((a % (len(text) + 1), b % (len(text) + 1)))
            text = text[:a] + insert + text[b:] if insert or b - a < 40 else text[:a] + text[a:b] * 2 + text[b:]
        try:
            records = read_records(text.encode("utf-8", "surrogatepass"), f"x.{fmt}", Format(fmt), "de")
        except CardkitError as exc:
            assert exc.issues and all(i.code == "L030" and i.line >= 1 for i in exc.issues), exc.issues
        else:
            assert all(r.strings and r.line >= 1 for r in records)

    run()


def test_a_conflict_left_unapplied_exits_1_dry_run_or_not_and_the_rest_is_written(german: Path, cli, tmp_path: Path):
    first = tmp_path / "first.csv"
    first.write_text("msgctxt,translation\ngun_jam.name,Ladehemmung\n", encoding="utf-8")
    assert _import(cli, german, first).code == 0
    csv = tmp_path / "de.csv"
    csv.write_text("msgctxt,translation\ngun_jam.name,Waffenstörung\nset.teams.purple.name,Violett\n", encoding="utf-8")
    before = _snapshot(german)
    dry = _import(cli, german, csv, "--dry-run")
    # the dry run predicts the run, exit status included, and writes nothing
    assert dry.code == 1 and "dry run: nothing written" in dry.out and "warning[L031]" in dry.err
    assert "Traceback" not in dry.err and _snapshot(german) == before
    run = _import(cli, german, csv)
    assert run.code == 1 and f"updated {DE}: 1 filled, 0 overwritten, 0 unchanged, 1 conflicting" in run.out
    assert _de(german) == {"gun_jam.name": (("Ladehemmung",), False), "set.teams.purple.name": (("Violett",), False)}
    # a file translating one string twice differently: the second is not applied, and --overwrite cannot apply it
    twice = tmp_path / "twice.csv"
    twice.write_text("msgctxt,translation\ngun_jam.text,A\ngun_jam.text,B\n", encoding="utf-8")
    r = _import(cli, german, twice, "--overwrite")
    assert r.code == 1 and "warning[L031]: gun_jam.text: a second, different translation" in r.err
    assert _de(german)["gun_jam.text"] == (("A",), False)
    # nothing conflicting, warnings of other kinds (an unknown key): exit 0
    other = tmp_path / "other.csv"
    other.write_text("msgctxt,translation\nnope.name,Nichts\ngun_jam.text,A\n", encoding="utf-8")
    r = _import(cli, german, other)
    assert r.code == 0 and "warning[L032]" in r.err
