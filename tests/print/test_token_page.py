"""The token page prints what the game's plugin contributes (``GamePlugin.tokens``) and a
marker per team of the manifest; the generic printer knows no game's tokens (issue #22)."""

from __future__ import annotations

import io

from pypdf import PdfReader

import cardkit.plugins
from cardkit.plugins import GamePlugin, Token
from cardkit.strings.localize import Localizer
from cardkit.layout.sheet import plan_sheet
from cardkit.layout.units import MM
from cardkit.load.project import load_project
from cardkit.printing import token_page
from cardkit.render.pdf import PdfDocument
from tests.conftest import REPO

EXAMPLE = REPO / "examples" / "tidelights"


def _token_pages(plugin: GamePlugin | None) -> list[str]:
    """The text of each page ``token_page`` writes for Tidelights (no teams) under ``plugin``."""
    card_set = load_project(EXAMPLE).sets["tidelights"].set
    assert card_set is not None and not card_set.teams
    sheet = plan_sheet("a4", 63 * MM, 88 * MM, None)
    doc = PdfDocument((sheet.page_w, sheet.page_h), "tokens")
    if plugin is not None:
        cardkit.plugins.register(plugin)
    try:
        token_page(doc, sheet, card_set, Localizer(EXAMPLE, "en", card_set), "none", "Tidelights")
    finally:
        cardkit.plugins.unregister("tidelights")
    if doc.pages == 0:
        return []
    return [p.extract_text() for p in PdfReader(io.BytesIO(doc.finish())).pages]


def test_a_game_without_tokens_gets_no_token_page():
    assert _token_pages(None) == []
    assert _token_pages(GamePlugin(name="tidelights", tokens=lambda card_set, ui: [Token(0, "Lamp", "#f0c000")])) == []


def test_the_plugin_s_tokens_are_printed_with_their_labels():
    def tokens(card_set: object, ui: object) -> list[Token]:
        return [Token(3, "Lamp", "#f0c000", icon="skull"), Token(2, "Rope", "#806040")]

    pages = _token_pages(GamePlugin(name="tidelights", tokens=tokens))
    assert len(pages) == 1
    assert pages[0].count("Lamp") == 3 and pages[0].count("Rope") == 2
    assert "Cut along the outlines." in pages[0]
