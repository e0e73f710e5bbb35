"""Every bundled game in every bundled language passes its own accessibility check (render
--strict) on A4 and on Letter; findings name the piece they are on."""

from __future__ import annotations

import pytest

from boardgen.checks.accessibility import MM_TO_PT, PrintedText, check_colours, check_text
from boardgen.data.strings import LANGUAGES
from boardgen.data.theme import load_theme
from boardgen.engines import game_names, load_game
from boardgen.kit import render_kit
from boardgen.options import KitOptions

# Unchecked kits of their own, on the session's cache: none of these tests tests the cache.
pytestmark = pytest.mark.usefixtures("warm_cache")


@pytest.mark.parametrize("game", game_names())
def test_every_language_and_paper_passes_strict(game, kit_factory, tmp_path):
    # The session's kits: --strict turns the very findings a kit lists among its warnings into an
    # error (test_accessibility.py::test_strict_makes_findings_errors), so a kit with none passes.
    failed = []
    for lang in LANGUAGES:
        for paper in ("a4", "letter"):
            _, result = kit_factory(game, paper=paper, lang=lang)
            found = [w for w in result.warnings if w.startswith("accessibility")]
            if found:
                failed.append(f"{lang} {paper}: " + "; ".join(found))
    assert failed == []
    if game == "classic":  # and a strict render itself, once
        render_kit(game, tmp_path, KitOptions(strict=True, previews=False, svg=False, check=False))


def wand_svg(size_mm: float) -> str:
    return f'<svg xmlns="http://www.w3.org/2000/svg"><text font-size="{size_mm}">Wand</text></svg>'


def test_a_text_many_pieces_print_names_each_piece_and_a_board_text_stays_on_the_board():
    _engine, layout = load_game("master")
    theme = load_theme("classic")
    small = 1.5  # mm: 4.3 pt, under the 6 pt minimum
    pieces = {f"wand-{colour}-{n}": wand_svg(small) for colour in ("blue", "red", "green") for n in (1, 2, 3, 4)}
    title = '<svg xmlns="http://www.w3.org/2000/svg"><text font-size="1.5">Maze</text></svg>'
    pieces |= {"board": title, "setup": title}

    def printed(text: str, page: int) -> PrintedText:
        return PrintedText(page, "pieces", text, small * MM_TO_PT, False, "#000000", "#ffffff", 100.0)

    texts = [printed("Wand", 5) for _ in range(12)] + [printed("Maze", 3), printed("Maze", 3), printed("Maze", 4)]
    report = check_text(check_colours(theme), theme, texts, pieces)
    named = [f.split(" on ")[1].split(",")[0] for f in report.findings if "'Wand'" in f]
    assert sorted(named) == sorted(n for n in pieces if n.startswith("wand-"))
    assert [f.split(" on ")[1].split(",")[0] for f in report.findings if "'Maze'" in f] == ["board"] * 3
