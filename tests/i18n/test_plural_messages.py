"""Counted messages read right at 1 and at 2 in en, fi and ko: a narrated game,
the playtest PDF report (text extracted again with pypdf) and the build summary."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from cardkit.buildsummary import BuildFacts, PdfFacts, TranslationFacts, render_summary
from cardkit.games.death_angel.facts import AuditFailed, DeathAngelFacts
from cardkit.games.deep_strike.plugin import DeepStrikeFacts
from cardkit.games.death_angel.narrate import Narrator
from cardkit.strings.localize import Localizer, plural_index
from cardkit.load.project import load_project
from tests.conftest import REPO


@pytest.fixture(scope="module")
def death_angel():
    return load_project(REPO).sets["death-angel"].set


def test_plural_rules_per_locale():
    assert [plural_index("en", n) for n in (0, 1, 2, 11, 21)] == [1, 0, 1, 1, 1]
    assert [plural_index("fi", n) for n in (0, 1, 2, 11, 21)] == [1, 0, 1, 1, 1]
    assert [plural_index("ko", n) for n in (0, 1, 2, 11, 21)] == [0, 0, 0, 0, 0]


# ------------------------------------------------------------------ narration
# a spawn line of each locale, with the count and the noun that must agree with it
SPAWN = {
    "en": re.compile(r"^(\d+) (Genestealers? spawns?) at position \d, (?:left|right)\.$"),
    "fi": re.compile(r"^Kohtaan \d \((?:vasen|oikea) puoli\) sikiää (\d+) (geenivoroa?)\.$"),
    "ko": re.compile(r"^\S+ \d번 포지션에 진스틸러 (\d+)(마리가) 출현한다\.$"),
}
AGREES = {
    "en": lambda n, w: w == ("Genestealer spawns" if n == 1 else "Genestealers spawn"),
    "fi": lambda n, w: w == ("geenivoro" if n == 1 else "geenivoroa"),
    "ko": lambda n, w: w == "마리가",
}


def _spawns(cli, players: int, seed: int, locale: str) -> list[tuple[int, str]]:
    result = cli("rules", "play", "--root", str(REPO), "--players", str(players), "--seed", str(seed), "--locale", locale)
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    spawn_lines = [ln for ln in lines if SPAWN[locale].match(ln)]
    # every spawn line of the story has the form of its locale (none left in another shape)
    marker = {"en": "spawn", "fi": "sikiää", "ko": "출현한다"}[locale]
    assert len(spawn_lines) == sum(marker in ln for ln in lines) > 0
    return [(int(m.group(1)), m.group(2)) for m in (SPAWN[locale].match(ln) for ln in spawn_lines)]


@pytest.mark.parametrize("players, seed", [(1, 1), (2, 3)])
def test_narrated_game_counts_agree(cli, players, seed):
    by_locale = {loc: _spawns(cli, players, seed, loc) for loc in ("en", "fi", "ko")}
    counts = [n for n, _ in by_locale["en"]]
    assert {1, 2} <= set(counts)  # the game has both a single Genestealer and a pair spawning
    for loc, spawns in by_locale.items():
        assert [n for n, _ in spawns] == counts, loc  # the same game, told three times
        bad = [(n, w) for n, w in spawns if not AGREES[loc](n, w)]
        assert bad == [], (loc, bad)


@pytest.mark.parametrize("locale, one, two", [
    ("en", "Brother Leon receives 1 support token.", "Brother Leon receives 2 support tokens."),
    ("fi", "Veli Leon saa 1 tukipelimerkin.", "Veli Leon saa 2 tukipelimerkkiä."),
    ("ko", "브라더 레온이 지원 토큰 1개를 받는다.", "브라더 레온이 지원 토큰 2개를 받는다."),
])
def test_narrated_support_tokens(death_angel, locale, one, two):
    narrator = Narrator(Localizer(REPO, locale, death_angel))
    assert [narrator.line(("support", "brother_leon", n)) for n in (1, 2)] == [one, two]


# -------------------------------------------------------------- playtest PDF
def _pdf_text(path: Path) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(str(path)).pages)


def test_playtest_report_legend_in_finnish(cli, tmp_path: Path):
    """Acceptance: `cardkit playtest --players 1-6 --report r.pdf --locale fi`."""
    out = tmp_path / "r.pdf"
    result = cli("playtest", "--root", str(REPO), "--players", "1-6", "--games", "1", "--jobs", "1",
                 "--report", str(out), "--locale", "fi")
    assert result.code in (0, 1), result.err  # one game per count may well be judged too hard
    text = _pdf_text(out)
    legend = re.findall(r"\b(\d) (pelaaja\w*)", text)
    # the legend (and the skill ladder's rows) at every count: singular at 1 only
    assert {("1", "pelaaja")} | {(str(n), "pelaajaa") for n in range(2, 7)} <= set(legend)
    assert all((word == "pelaaja") == (n == "1") for n, word in legend), legend
    assert "1 peli kokoonpanoa kohden" in text and "1 peliä" not in text


@pytest.mark.parametrize("locale, games, words", [
    ("en", 2, ["2 games per setup", "1 player", "2 players"]),
    ("ko", 2, ["구성별 2게임", "1인", "2인"]),
    ("fi", 2, ["2 peliä kokoonpanoa kohden", "1 pelaaja", "2 pelaajaa"]),
])
def test_playtest_report_words(cli, tmp_path: Path, locale, games, words):
    out = tmp_path / "r.pdf"
    result = cli("playtest", "--root", str(REPO), "--players", "1-2", "--games", str(games), "--jobs", "1",
                 "--report", str(out), "--locale", locale)
    assert result.code in (0, 1), result.err
    text = _pdf_text(out)
    for w in words:
        assert re.search(rf"(?<!\d){re.escape(w)}(?![\w])", text), (w, text[:400])
    assert not re.search(r"\b1 (players|pelaajaa)\b", text)


# ------------------------------------------------------------- build summary
def _facts(n: int) -> BuildFacts:
    """A build in which every count is ``n``."""
    return BuildFacts(
        sets=(("tiny", n),),
        translations=(TranslationFacts("fi", n, n, n, n, 0),),
        pdfs=(PdfFacts("output/tiny-fi-a4.pdf", n, n),),
        playability=(DeepStrikeFacts("tiny", n, n, n), DeathAngelFacts("da", n, True, ((1, 0.5),), n)),
        cards=n, seconds=1.25)


SUMMARY = {
    ("en", 1): ["validated: tiny 1 card",
                "translations fi: 1/1 string translated; fit of 1 laid-out text: 1 at full size, 0 shrunk, 0 too small",
                "wrote output/tiny-fi-a4.pdf (1 card, 1 page)",
                "playability tiny: 1/1 scenario deployable by both sides (8 units each, hostile placement); 1 warning: cardkit deepstrike check",
                "playability da: 1 game per player count (heuristic agent): every game complete, no rule violation; win rates 1p 50%; abilities never fired: 1; details: cardkit playtest",
                "built 1 card in 1.2 s"],
    ("en", 2): ["validated: tiny 2 cards",
                "translations fi: 2/2 strings translated; fit of 2 laid-out texts: 2 at full size, 0 shrunk, 0 too small",
                "wrote output/tiny-fi-a4.pdf (2 cards, 2 pages)",
                "playability tiny: 2/2 scenarios deployable by both sides (8 units each, hostile placement); 2 warnings: cardkit deepstrike check",
                "playability da: 2 games per player count (heuristic agent): every game complete, no rule violation; win rates 1p 50%; abilities never fired: 2; details: cardkit playtest",
                "built 2 cards in 1.2 s"],
    ("fi", 1): ["tarkistettu: tiny 1 kortti",
                "käännökset fi: käännetty 1/1 merkkijono; asettelu: 1 teksti, 1 täysikokoisena, 0 pienennettynä, 0 liian pienenä",
                "kirjoitettu output/tiny-fi-a4.pdf (1 kortti, 1 sivu)",
                "pelattavuus tiny: 1/1 skenaario, johon molemmat osapuolet voivat sijoittua (8 yksikköä kummallakin, vihamielinen sijoittelu); 1 varoitus: cardkit deepstrike check",
                "pelattavuus da: 1 peli pelaajamäärää kohden (heuristinen agentti): jokainen peli pelattiin loppuun, ei sääntörikkomuksia; voittoprosentit 1p 50%; kyvyt, jotka eivät koskaan lauenneet: 1; lisätiedot: cardkit playtest",
                "koottu 1 kortti 1,2 sekunnissa"],
    ("fi", 2): ["tarkistettu: tiny 2 korttia",
                "käännökset fi: käännetty 2/2 merkkijonoa; asettelu: 2 tekstiä, 2 täysikokoisena, 0 pienennettynä, 0 liian pienenä",
                "kirjoitettu output/tiny-fi-a4.pdf (2 korttia, 2 sivua)",
                "pelattavuus tiny: 2/2 skenaariota, joihin molemmat osapuolet voivat sijoittua (8 yksikköä kummallakin, vihamielinen sijoittelu); 2 varoitusta: cardkit deepstrike check",
                "pelattavuus da: 2 peliä pelaajamäärää kohden (heuristinen agentti): jokainen peli pelattiin loppuun, ei sääntörikkomuksia; voittoprosentit 1p 50%; kyvyt, jotka eivät koskaan lauenneet: 2; lisätiedot: cardkit playtest",
                "koottu 2 korttia 1,2 sekunnissa"],
    ("ko", 1): ["검증 완료: tiny 카드 1장",
                "번역 fi: 문자열 1/1개 번역됨; 배치된 텍스트 1개: 원래 크기 1개, 축소 0개, 너무 작음 0개",
                "output/tiny-fi-a4.pdf 작성 (카드 1장, 1페이지)",
                "플레이 가능성 tiny: 양측 모두 배치 가능한 시나리오 1/1개 (각 8개 유닛, 적대적 배치); 경고 1개: cardkit deepstrike check",
                "플레이 가능성 da: 플레이어 수별 1게임 (휴리스틱 에이전트): 모든 게임 완료, 규칙 위반 없음; 승률 1p 50%; 한 번도 발동하지 않은 능력: 1; 자세한 내용: cardkit playtest",
                "카드 1장 빌드, 1.2초"],
    ("ko", 2): ["검증 완료: tiny 카드 2장",
                "번역 fi: 문자열 2/2개 번역됨; 배치된 텍스트 2개: 원래 크기 2개, 축소 0개, 너무 작음 0개",
                "output/tiny-fi-a4.pdf 작성 (카드 2장, 2페이지)",
                "플레이 가능성 tiny: 양측 모두 배치 가능한 시나리오 2/2개 (각 8개 유닛, 적대적 배치); 경고 2개: cardkit deepstrike check",
                "플레이 가능성 da: 플레이어 수별 2게임 (휴리스틱 에이전트): 모든 게임 완료, 규칙 위반 없음; 승률 1p 50%; 한 번도 발동하지 않은 능력: 2; 자세한 내용: cardkit playtest",
                "카드 2장 빌드, 1.2초"],
}


@pytest.mark.parametrize("locale, n", sorted(SUMMARY))
def test_build_summary_words(locale, n):
    """The playability lines are the sets' own interface strings (strings.yaml),
    asked through each set's localizer."""
    from cardkit.load.project import load_project

    project = load_project(REPO)
    set_locs = {"tiny": Localizer(REPO, locale, project.card_set("deep-strike")),
                "da": Localizer(REPO, locale, project.card_set("death-angel"))}
    assert render_summary(_facts(n), Localizer(REPO, locale), set_locs).splitlines() == SUMMARY[(locale, n)]


def test_build_summary_audit_line():
    facts = BuildFacts((), (), (), (AuditFailed("da", "void_lock", "tier 3 is unreachable"),), 0, 0.0)
    from cardkit.load.project import load_project

    da = Localizer(REPO, "fi", load_project(REPO).card_set("death-angel"))
    assert render_summary(facts, Localizer(REPO, "fi"), {"da": da}).splitlines() == [
        "tarkistettu: ", "pelattavuus da: aloitusasetelmien tarkistus epäonnistui: void_lock: tier 3 is unreachable",
        "koottu 0 korttia 0,0 sekunnissa"]


@pytest.mark.parametrize("locale, line", [
    ("en", "playability tidelights: no rules engine: playability not checked"),
    ("fi", "pelattavuus tidelights: ei sääntömoottoria: pelattavuutta ei tarkistettu"),
    ("ko", "플레이 가능성 tidelights: 규칙 엔진 없음: 플레이 가능성 확인 안 함")])
def test_build_summary_of_a_game_without_an_engine(locale, line):
    """A set whose game has no rules engine says so, in cardkit's own words, in the reader's language."""
    from cardkit.buildsummary import NoEngine

    facts = BuildFacts((), (), (), (NoEngine("tidelights"),), 0, 0.0)
    assert render_summary(facts, Localizer(REPO, locale)).splitlines()[1] == line


def _one_scenario_project(project: Path) -> None:
    """The Deep Strike set cut down to its first scenario (Death Angel removed)."""
    import shutil

    shutil.rmtree(project / "cards/death-angel")
    for p in [project / "locales/death-angel.pot", *project.glob("locales/*/LC_MESSAGES/death-angel.po")]:
        p.unlink()
    sc = project / "cards/deep-strike/scenarios.yaml"
    lines = sc.read_text(encoding="utf-8").splitlines(keepends=True)
    second = next(i for i, ln in enumerate(lines) if ln.startswith("  - id: ds2_"))
    sc.write_text("".join(lines[:second]), encoding="utf-8")
    manifest = project / "cards/deep-strike/set.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("  cards: 6\n", "  cards: 1\n"), encoding="utf-8")


PAGES = {"fi": re.compile(r"\(1 kortti, (\d+) (sivua?)\)"), "en": re.compile(r"\(1 card, (\d+) (pages?)\)")}


@pytest.mark.parametrize("locale, words", [
    ("fi", ["tarkistettu: deep-strike 1 kortti\n", "1/1 skenaario, johon", "; 1 varoitus:", "koottu 3 korttia"]),
    ("en", ["validated: deep-strike 1 card\n", "1/1 scenario deployable", "; 1 warning:", "built 3 cards in"]),
])
def test_build_summary_of_a_real_build(project: Path, cli, locale, words):
    _one_scenario_project(project)
    # twice: the first update keeps the removed scenarios' entries as obsolete (#~), the
    # second drops them (merge does not carry obsolete entries over; catalog-io's area)
    for _ in range(2):
        assert cli("l10n", "update", "--root", str(project)).code == 0
    result = cli("build", "--root", str(project), "--locale", locale)
    assert result.code == 0, result.err
    summary = (project / "output" / "build-summary.txt").read_text(encoding="utf-8")
    assert result.out == summary
    for w in words:
        assert w in summary, (w, summary)
    pages = PAGES[locale].findall(summary)
    assert len(pages) == 3 and all((n == "1") == (word in ("sivu", "page")) for n, word in pages), pages


def test_build_rejects_a_locale_without_catalogs(project: Path, cli):
    result = cli("build", "--root", str(project), "--locale", "sv")
    assert result.code == 1
    assert result.err.startswith("cardkit: error[L005]: no 'sv' catalog for the interface strings (locales: en, fi, ko)")
    assert not (project / "output").exists()


def test_ui_follows_an_integer_count_of_a_plural_message():
    """Asking for a plural message without ui_n but with its count as a number
    still gives the form of that number (the report's verdict lines did not)."""
    loc = Localizer(REPO, "fi")
    assert [loc.ui("report.legend", players=n) for n in (1, 2)] == [loc.ui_n("report.legend", n) for n in (1, 2)]
    assert loc.ui("report.legend", players=1) != loc.ui("report.legend", players=2)
