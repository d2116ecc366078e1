"""Issue 33: the minimum bleed, papers and orientation, calibration pages,
service products with --fit, the Tabletop Simulator saved object and the
smaller points (shop CMYK folder, card counts, PNG size and tag)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from PIL import Image
from pypdf import PdfReader

from cardkit.layout.sheet import plan_sheet
from cardkit.layout.units import INCH, MM
from cardkit.load.project import load_project
from cardkit.print.presets import PRESETS
from cardkit.printing import build_pdf
from tests.print.prepress import check_pdf
from tests.print.threesizes import three_size_project

REPO = Path(__file__).resolve().parents[2]
SCHEMA = Path(__file__).parent / "schemas" / "tts_saved_object.schema.json"


@pytest.fixture(scope="module")
def sizes_project(tmp_path_factory) -> Path:
    return three_size_project(tmp_path_factory.mktemp("sizes") / "game")


# ---------------------------------------------------------------- bleed
@pytest.mark.parametrize("paper", ["a4", "letter", "a5", "legal", "tabloid", "a3"])
@pytest.mark.parametrize("layout", ["grid", "shared-edge", "gutterfold"])
def test_no_sheet_plans_less_than_the_minimum_bleed(paper, layout):
    """Letter once gave 63 x 88 mm cards 0.5 mm and a 67 x 44 mm card 0 mm."""
    from cardkit.errors import CardkitError

    for w, h in ((63, 88), (63.5, 88.9), (67, 44), (95, 135), (41, 63)):
        for orientation in ("portrait", "auto"):
            for least in (1 * MM, 3 * MM):
                try:
                    s = plan_sheet(paper, w * MM, h * MM, None, layout=layout, orientation=orientation, min_bleed=least)
                except CardkitError:
                    continue  # not even without bleed
                if s.bleed < least - 1e-6:  # only when not one card fits with the minimum
                    with pytest.raises(CardkitError):
                        plan_sheet(paper, w * MM, h * MM, least, layout=layout, orientation=orientation)


def test_a_column_is_dropped_to_keep_the_minimum():
    zero = plan_sheet("letter", 67 * MM, 44 * MM, 0.0)
    kept = plan_sheet("letter", 67 * MM, 44 * MM, None)
    assert kept.per_page < zero.per_page and kept.bleed >= 1 * MM


def test_the_default_a4_sheets_keep_their_grid_and_bleed():
    """The bundled sets' default A4 sheets had at least 1 mm: unchanged (their PDFs are byte-identical but for the boxes)."""
    for (w, h), (cols, rows, bleed) in {(63, 88): (3, 3, 2.0), (95, 135): (2, 2, 3.0)}.items():
        s = plan_sheet("a4", w * MM, h * MM, None, orientation="auto")
        assert (s.cols, s.rows, round(s.bleed / MM, 2), s.landscape) == (cols, rows, bleed, False)


def test_bleed_zero_is_kept_and_said(sizes_project, tmp_path, cli):
    result = cli("build", "pdf", "--root", str(sizes_project), "--bleed", "0", "--out", str(tmp_path / "z.pdf"))
    assert result.code == 0, result.err
    lines = [ln for ln in result.err.splitlines() if "mm cards:" in ln]
    assert len(lines) == 3  # one per card size
    assert all("bleed 0 mm (below the 1 mm minimum: as --bleed asked)" in ln for ln in lines)
    report = check_pdf(tmp_path / "z.pdf", min_bleed=0)
    assert report.problems == [] and report.bleeds() == {0.0}


def test_the_build_summary_gives_the_bleed_per_card_size(tmp_path, cli):
    root = three_size_project(tmp_path / "game")
    assert cli("l10n", "update", "--root", str(root)).code == 0  # (the relics were added to the starter's cards)
    result = cli("build", "--root", str(root))
    assert result.code == 0, result.err
    summary = (root / "output" / "build-summary.txt").read_text(encoding="utf-8")
    sheet_lines = [ln for ln in summary.splitlines() if "mm cards," in ln and "sizes-en-" in ln]
    assert len(sheet_lines) == 3
    assert "output/sizes-en-a4.pdf: 70 x 120 mm cards, 2 x 2 a sheet on a4 portrait, bleed 3 mm" in summary
    fi = cli("build", "--root", str(root), "--locale", "fi")
    assert fi.code == 0, fi.err
    assert "70 x 120 mm:n kortit, 2 x 2 arkille a4 pysty, leikkuuvara 3 mm" in \
        (root / "output" / "build-summary.txt").read_text(encoding="utf-8")


def test_cmyk_sheets_get_three_millimetres(sizes_project, tmp_path):
    from cardkit.render.cmyk import ColourOptions

    card_set = load_project(sizes_project).card_set("sizes")
    result = build_pdf(sizes_project, card_set, "en", out=tmp_path / "c.pdf", colours=ColourOptions("cmyk", 240.0))
    assert all(f.bleed >= 3 * MM - 1e-6 for f in result.sheets)
    report = check_pdf(result.path, cmyk=True, min_bleed=3 * MM, duplex="long-edge")
    assert report.problems == []


# ---------------------------------------------------------------- paper
def test_custom_paper_and_orientation():
    s = plan_sheet("300x200", 63 * MM, 88 * MM, None, orientation="landscape")
    assert (round(s.page_w / MM), round(s.page_h / MM)) == (300, 200)
    p = plan_sheet("8.5x14in", 63 * MM, 88 * MM, None)
    assert (round(p.page_w / INCH, 2), round(p.page_h / INCH, 2)) == (8.5, 14.0)


def test_bad_paper_orientation_and_calibration_are_all_reported(sizes_project, cli):
    result = cli("build", "pdf", "--root", str(sizes_project), "--paper", "10x10", "--orientation", "sideways",
                 "--calibration", "twice")
    assert result.code == 1
    codes = sorted(ln.split("error[")[1][:4] for ln in result.err.splitlines() if "error[" in ln)
    assert codes == ["B001", "B012", "B013"]


def test_a4_landscape_gutterfold_of_death_angel(tmp_path):
    card_set = load_project(REPO).card_set("death-angel")
    auto = build_pdf(REPO, card_set, "en", layout="gutterfold", out=tmp_path / "g.pdf")
    assert auto.sheets[0].landscape and auto.sheets[0].cols * auto.sheets[0].rows == 4
    # 129 cards (128 and the quick reference) 4 a page: 33 sheets and the calibration page; the tokens and
    # team markers (12 + 6 discs) go in the 3 free slots of the last sheet, 6 a slot (issue 33: at most 34)
    assert auto.pages == 34
    last = PdfReader(str(auto.path)).pages[-1].extract_text()
    assert last.count("Combat team") == 6 and "Quick reference" in last
    # 12 tokens' labels and the heading over them, with the cutting instruction (tests/print/test_token_slots.py)
    assert last.split().count("Support") == 12 + 1 and "Support tokens and combat team markers" in last
    assert "Cut along the outlines." in last
    bare = build_pdf(REPO, card_set, "en", layout="gutterfold", out=tmp_path / "n.pdf", calibration="none")
    assert bare.pages == 33
    portrait = plan_sheet("a4", 63 * MM, 88 * MM, None, layout="gutterfold", orientation="portrait")
    assert portrait.per_page == 3  # what the 45-page file had
    n = len(PdfReader(str(auto.path)).pages)
    assert check_pdf(auto.path, pages=range(0, 3)).problems == []
    assert check_pdf(auto.path, pages=range(n - 3, n)).problems == []


def test_a_gutterfold_sheet_without_free_slots_keeps_its_token_page(tmp_path):
    """On A4 portrait, 3 a sheet, Death Angel's 129 cards fill their last sheet: the tokens
    have no free slot, so they print on the token page as before (43 sheets, the calibration
    page, the token page)."""
    card_set = load_project(REPO).card_set("death-angel")
    result = build_pdf(REPO, card_set, "en", layout="gutterfold", orientation="portrait", out=tmp_path / "p.pdf")
    assert result.pages == 45
    reader = PdfReader(str(result.path))
    last, before = reader.pages[-1].extract_text(), reader.pages[-2].extract_text()
    assert last.count("Combat team") == 6 and "Cut along the outlines" in last and "Quick reference" not in last
    assert "Combat team" not in before and "Quick reference" in before
    assert check_pdf(result.path, pages=range(len(reader.pages) - 2, len(reader.pages))).problems == []


@pytest.mark.parametrize("calibration,cal_pages", [("every-size", 6), ("first", 2), ("none", 0)])
def test_calibration_pages(sizes_project, tmp_path, calibration, cal_pages):
    card_set = load_project(sizes_project).card_set("sizes")
    every = build_pdf(sizes_project, card_set, "en", out=tmp_path / "e.pdf")
    result = build_pdf(sizes_project, card_set, "en", out=tmp_path / "c.pdf", calibration=calibration)
    assert every.pages - result.pages == 6 - cal_pages
    report = check_pdf(result.path, duplex="long-edge")
    assert report.problems == []
    cardless = [p for p in report.pages if not p.has_cards]
    assert len(cardless) == cal_pages  # (the set has no token page)


# ---------------------------------------------------------------- services
@pytest.mark.parametrize("preset", ["thegamecrafter", "drivethrucards"])
def test_sizes_map_to_the_nearest_product(preset):
    p = PRESETS[preset]
    for (w, h), product in {(63, 88): "poker", (70, 120): "tarot", (88, 63): "poker"}.items():
        scaled = p.fit(w * MM, h * MM, "scale")
        padded = p.fit(w * MM, h * MM, "pad")
        assert not isinstance(scaled, str) and not isinstance(padded, str)
        assert scaled.product == padded.product == product
        assert (scaled.width > scaled.height) == (w > h)  # a landscape card goes to the product turned
        assert abs(scaled.scale - 1) <= 0.03
    assert isinstance(p.fit(63 * MM, 88 * MM, "none"), str)
    assert isinstance(p.fit(50 * MM, 50 * MM, "scale"), str)  # nothing within 3 %
    assert p.safe == pytest.approx(3.175 * MM)


@pytest.mark.parametrize("root,set_id", [(REPO, "death-angel"), (REPO / "examples" / "tidelights", "tidelights")])
def test_death_angel_and_tidelights_print_with_both_services(root, set_id, tmp_path, monkeypatch):
    from cardkit.print import shop

    card_set = load_project(root).card_set(set_id)
    monkeypatch.setattr(shop, "face_png", lambda face, preset, fit=None: b"")  # (the pixels: the next test)
    tgc = shop.build_shop(root, card_set, "en", PRESETS["thegamecrafter"], out_dir=tmp_path / "t", fit="scale")
    assert tgc.notes == ["63 x 88 mm cards: scaled 101.0 % to The Game Crafter poker (63.50 x 88.90 mm); 0.07 mm of "
                         "each side and 0.00 mm of the top and bottom go into the bleed"]
    dtc = shop.build_shop(root, card_set, "en", PRESETS["drivethrucards"], out_dir=tmp_path / "d", fit="pad")
    assert "centred unscaled on DriveThruCards poker" in dtc.notes[0]
    for pdf in dtc.pdfs[:2]:
        report = check_pdf(pdf, margin=0, min_bleed=0.125 * INCH, card_pages=False)
        assert report.problems == []
        page = PdfReader(str(pdf)).pages[0]
        assert [round(float(v) / INCH, 3) for v in page.trimbox] == [0.125, 0.125, 2.625, 3.625]


def test_a_fitted_png_has_the_products_pixels(tmp_path):
    from cardkit.print.shop import face_png
    from cardkit.printing import compose_set

    card_set = load_project(REPO).card_set("death-angel")
    items, _ = compose_set(REPO, card_set, "en")
    p = PRESETS["thegamecrafter"]
    fit = p.fit(63 * MM, 88 * MM, "scale")
    assert not isinstance(fit, str)
    (tmp_path / "a.png").write_bytes(face_png(items[0].front, p, fit))
    image = Image.open(tmp_path / "a.png")
    assert image.size == (825, 1125) and "srgb" in image.info
    # the card's art reaches the page edge (scaled over the product's bleed), not a white band
    assert image.convert("RGB").getpixel((2, 600)) != (255, 255, 255)


def test_shop_cmyk_keeps_the_rgb_files_and_tgc_says_rgb(tmp_path, cli):
    root = three_size_project(tmp_path / "game")
    rgb = cli("build", "shop", "--root", str(root), "--preset", "generic")
    assert rgb.code == 0, rgb.err
    folder = root / "output" / "shop" / "generic" / "sizes-en"
    before = {p: p.read_bytes() for p in folder.rglob("*.pdf")}
    cmyk = cli("build", "shop", "--root", str(root), "--preset", "generic", "--colour", "cmyk")
    assert cmyk.code == 0, cmyk.err
    assert {p: p.read_bytes() for p in folder.rglob("*.pdf")} == before
    assert list((root / "output" / "shop" / "generic" / "sizes-en-cmyk").glob("*.pdf"))


def test_the_game_crafter_says_it_stays_rgb(tmp_path, monkeypatch):
    from cardkit.print import shop
    from cardkit.render.cmyk import ColourOptions

    monkeypatch.setattr(shop, "face_png", lambda face, preset, fit=None: b"")  # (only the notes are looked at)
    card_set = load_project(REPO).card_set("death-angel")
    rgb = shop.build_shop(REPO, card_set, "en", PRESETS["thegamecrafter"], out_dir=tmp_path / "r", fit="scale")
    cmyk = shop.build_shop(REPO, card_set, "en", PRESETS["thegamecrafter"], out_dir=tmp_path / "c", fit="scale",
                           colours=ColourOptions("cmyk", 240.0))
    said = [n for n in cmyk.notes if n not in rgb.notes]
    assert said == ["The Game Crafter takes sRGB PNG files only: --colour cmyk does not apply, the files are RGB"]


def test_build_pdf_and_build_shop_count_the_same_cards(tmp_path, monkeypatch):
    """build pdf said 128 (the set's cards) and build shop 129 (the quick reference too): both print 129."""
    from cardkit.print import shop

    monkeypatch.setattr(shop, "face_png", lambda face, preset, fit=None: b"")
    card_set = load_project(REPO).card_set("death-angel")
    pdf = build_pdf(REPO, card_set, "en", out=tmp_path / "d.pdf")
    shop_result = shop.build_shop(REPO, card_set, "en", PRESETS["generic"], out_dir=tmp_path / "s")
    assert pdf.cards == shop_result.cards == 129 and pdf.extras == 1


def test_build_png_matches_the_shop_png_size_and_is_srgb(tmp_path, cli):
    root = three_size_project(tmp_path / "game")
    png = cli("build", "png", "--root", str(root), "--dpi", "300")
    assert png.code == 0, png.err
    shop = cli("build", "shop", "--root", str(root), "--preset", "generic")
    assert shop.code == 0, shop.err
    ours = {Image.open(p).size for p in (root / "output" / "png").rglob("*.png")}
    theirs = {Image.open(p).size for p in (root / "output" / "shop").rglob("*.png")}
    assert ours == theirs
    # 41 x 63 mm with 3 mm bleed at 300 dpi: 554.9 x 814.9 px, rounded to the nearest
    assert (555, 815) in ours
    assert all("srgb" in Image.open(p).info for p in (root / "output" / "png").rglob("*.png"))


# ---------------------------------------------------------------- Tabletop Simulator
def check_saved_object(data: dict) -> list[dict]:
    """``data`` read back against TTS's save-file structure (the schema's sources): the JSON Schema,
    then what a schema cannot say: a deck's DeckIDs are its cards' CardIDs in order; every CardID is
    its CustomDeck key x 100 + its index on that sheet, inside the sheet's grid; a full 10 x 7 sheet
    hides cards behind their back (its last image is a card). Returns the states."""
    jsonschema.validate(data, json.loads(SCHEMA.read_text(encoding="utf-8")))
    states = data["ObjectStates"]
    for state in states:
        cards = state["ContainedObjects"] if state["Name"] == "DeckCustom" else [state]
        if state["Name"] == "DeckCustom":
            assert state["DeckIDs"] == [c["CardID"] for c in cards]
        for index, card in enumerate(cards):
            deck_no, slot = divmod(card["CardID"], 100)
            assert str(deck_no) in state["CustomDeck"] and card["CustomDeck"] == {str(deck_no): state["CustomDeck"][str(deck_no)]}
            sheet = state["CustomDeck"][str(deck_no)]
            assert slot == index and slot < sheet["NumWidth"] * sheet["NumHeight"]
            if len(cards) == 70:
                assert sheet["BackIsHidden"]
    assert len({s["GUID"] for s in states}) == len(states)
    return states


def test_tts_saved_object_follows_the_format(tmp_path):
    from cardkit.printing import build_tts

    root = three_size_project(tmp_path / "game")
    card_set = load_project(root).card_set("sizes")
    files = build_tts(root, card_set, "en", out_dir=tmp_path / "tts")
    saved = tmp_path / "tts" / "sizes-en.json"
    assert saved in files.paths
    data = json.loads(saved.read_text(encoding="utf-8"))
    total = 0
    for state in check_saved_object(data):
        cards = state["ContainedObjects"] if state["Name"] == "DeckCustom" else [state]
        (key, deck), = state["CustomDeck"].items()
        names = [c["Nickname"] for c in cards]
        assert len(set(names)) == len(names)
        face = Path(deck["FaceURL"].removeprefix("file://"))
        w, h = Image.open(face).size
        assert w % deck["NumWidth"] == 0 and h % deck["NumHeight"] == 0
        assert deck["NumWidth"] * deck["NumHeight"] >= len(cards)
        assert Path(deck["BackURL"].removeprefix("file://")).exists()
        total += len(cards)
    assert total == 16


def test_tts_full_sheets_a_second_sheet_and_a_lone_card():
    """A full 10 x 7 sheet, a sheet of one card (a lone Card, not a deck) and a third sheet: deck
    numbers 1, 2, 3 and CardIDs 100-169, 200, 300-301, as the format counts them."""
    from cardkit.layout.tts import TtsDeck, saved_object, unique_names

    names = unique_names(["Ada"] * 70)
    decks = [TtsDeck("big 1", "file:///t/a-1.png", "file:///t/back.png", False, 10, 7, tuple(names)),
             TtsDeck("one", "file:///t/b-1.png", "file:///t/back.png", False, 1, 1, ("Solo",)),
             TtsDeck("pair", "file:///t/c-1.png", "file:///t/c-backs-1.png", True, 2, 1, ("X", "Y"))]
    data = json.loads(json.dumps(saved_object("Game (en)", decks)))  # (as written and read back)
    states = check_saved_object(data)
    assert [s["Name"] for s in states] == ["DeckCustom", "Card", "DeckCustom"]
    assert states[0]["DeckIDs"] == list(range(100, 170)) and states[1]["CardID"] == 200
    assert states[2]["DeckIDs"] == [300, 301] and states[2]["CustomDeck"]["3"]["UniqueBack"] is True
    assert states[1]["Nickname"] == "Solo" and len(set(names)) == 70
    broken = json.loads(json.dumps(data))  # the check fails on what the format would misread
    broken["ObjectStates"][2]["ContainedObjects"][1]["CardID"] = 201
    with pytest.raises(AssertionError):
        check_saved_object(broken)
    broken = json.loads(json.dumps(data))
    broken["ObjectStates"][0]["CustomDeck"]["1"]["Type"] = 7
    with pytest.raises(jsonschema.ValidationError):
        check_saved_object(broken)


def test_tts_names_are_in_the_chosen_language(tmp_path):
    from cardkit.strings.localize import Localizer
    from cardkit.printing import build_tts

    card_set = load_project(REPO).card_set("deep-strike")
    build_tts(REPO, card_set, "fi", out_dir=tmp_path / "tts")
    data = json.loads((tmp_path / "tts" / "deep-strike-fi.json").read_text(encoding="utf-8"))
    names = [c["Nickname"] for s in data["ObjectStates"] for c in s.get("ContainedObjects", [s])]
    loc = Localizer(REPO, "fi", card_set)
    english = Localizer(REPO, "en", card_set)
    keys = [st.msgctxt for st in card_set.strings if st.msgctxt.endswith(".name") and not st.msgctxt.startswith("set.")]
    finnish = {loc.card(k) for k in keys} - {english.card(k) for k in keys}
    assert len(names) == 6 and set(names) <= finnish


# ---------------------------------------------------------------- printer-friendly
def _large_dark_fills(ops, area_mm2: float = 300.0) -> list[str]:
    """Fills of at least ``area_mm2`` darker than mid-grey, over a face's operations (groups opened)."""
    from cardkit.layout.colour import display_hex
    from cardkit.layout.ops import Circle, Group, Rect
    from cardkit.layout.quality import relative_luminance

    out = []
    for op in ops:
        if isinstance(op, Group):
            out += _large_dark_fills(op.ops, area_mm2)
            continue
        if isinstance(op, Rect):
            area = abs(op.w * op.h)
        elif isinstance(op, Circle):
            area = 3.14159 * op.r * op.r
        else:
            continue
        if op.fill and area / MM / MM >= area_mm2 and relative_luminance(display_hex(op.fill)) < 0.3:
            out.append(op.fill)
    return out


def test_printer_friendly_death_angel_has_no_large_dark_or_solid_floods():
    """The terrain squares (42 x 47 mm of solid terrain colour) and the genestealers' dark discs printed
    as in the normal build; the background (the page-sized bleed flood) is white in the variant."""
    from cardkit.printing import compose_set

    card_set = load_project(REPO).card_set("death-angel")
    normal, _ = compose_set(REPO, card_set, "en")
    friendly, _ = compose_set(REPO, card_set, "en", variant="printer-friendly")
    kinds = ("terrain", "genestealer")

    def dark(items) -> int:
        return sum(len(_large_dark_fills(it.front.ops[1:])) for it in items if it.deck in kinds)

    assert dark(normal) > 20  # the normal faces keep them
    assert dark(friendly) == 0


def test_the_safe_zone_check_uses_the_services_zone():
    """Tidelights' frame lines sit 3.06 mm inside the trim: clear of cardkit's 3 mm, inside the services' 1/8 in."""
    from cardkit.cli.build import _safe_zone_warnings

    root = REPO / "examples" / "tidelights"
    project = load_project(root)
    assert _safe_zone_warnings(root, project, "tidelights", PRESETS["generic"].safe) == []
    found = _safe_zone_warnings(root, project, "tidelights", PRESETS["drivethrucards"].safe)
    assert found and all(i.code == "Q002" and "3.175 mm safe zone" in i.message for i in found)
