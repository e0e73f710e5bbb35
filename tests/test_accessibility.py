"""The accessibility check: colours under colour-vision deficiencies and grey, player symbols,
text size and contrast measured on the printed PDF, simulated previews."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pdfplumber
import pytest
from pdfcheck import pixel_at

from boardgen.checks import accessibility
from boardgen.data.theme import load_theme
from boardgen.engines import load_game
from boardgen.kit import render_kit
from boardgen.options import KitOptions

BUNDLED_THEMES = ("classic", "ink-saver", "minoan", "high-contrast")
GAMES = ("classic", "master", "minos", "grand", "walls")
# The classic palette before this check (commit 8252df2).
OLD_CLASSIC = {"red": "#c8312b", "yellow": "#e3b21c", "green": "#2f8c46", "blue": "#2a5ca8"}


def _theme(tmp_path: Path, name: str, body: str, *, top: str = "") -> Path:
    path = tmp_path / f"{name}.toml"
    path.write_text(
        f'{top}[theme]\nid = "{name}"\nname = {{ en = "T", fr = "T" }}\nextends = "classic"\n{body}', encoding="utf-8"
    )
    return path


def _players(colours: dict[str, str]) -> str:
    return "[palette.players]\n" + "".join(f'{k} = "{v}"\n' for k, v in colours.items())


def _closest(report: accessibility.AccessibilityReport, group: str = "players") -> dict[str, dict[str, Any]]:
    return next(g["closest"] for g in report.colours if g["group"] == group)


def test_classic_palette_before_and_after(tmp_path):
    """Measured from the themes: the old palette's red and green are 8 apart with
    deuteranopia and the same grey; the new one keeps every pair 20 apart in the three
    deficiencies (grey is left to the symbols)."""
    _, layout = load_game("classic")
    before = accessibility.check_colours(load_theme(str(_theme(tmp_path, "old", _players(OLD_CLASSIC)))))
    after = accessibility.check_colours(load_theme("classic"))
    old, new = _closest(before), _closest(after)
    assert old["deuteranopia"]["pair"] == "red/green" and 7.5 < float(old["deuteranopia"]["de"]) < 8.5
    assert old["grey"]["pair"] == "red/green" and float(old["grey"]["de"]) < 3
    for vision in ("normal", "deuteranopia", "protanopia", "tritanopia"):
        assert float(new[vision]["de"]) >= 20, (vision, new[vision])
    assert float(new["grey"]["de"]) > float(old["grey"]["de"])
    assert before.passed and after.passed  # both through the symbols


def test_red_green_without_symbols_is_flagged_in_deuteranopia_and_grey(tmp_path):
    _, layout = load_game("classic")
    bare = _theme(tmp_path, "bare", _players(OLD_CLASSIC), top="symbols = false\n")
    report = accessibility.check_colours(load_theme(str(bare)))
    flagged = [f for f in report.findings if "red and green" in f]
    assert any("deuteranopia" in f for f in flagged) and any(" grey " in f for f in flagged)
    assert not report.failed  # warnings by default
    assert accessibility.check_colours(load_theme(str(bare)), strict=True).failed
    marked = _theme(tmp_path, "marked", _players(OLD_CLASSIC))  # the same colours with classic's symbols
    assert accessibility.check_colours(load_theme(str(marked))).passed


def test_symbols_are_drawn_on_each_piece_in_a_players_colour(kit_factory):
    _, result = kit_factory("master")  # the session's kit: this test only reads its drawings
    svg = result.folder / "svg"
    assert "pawn-red-face-0-symbol-triangle" in (svg / "pawn-red.svg").read_text()
    assert "symbol-circle" in (svg / "wand-blue-1.svg").read_text()
    assert "symbol-star" in (svg / "score-pad.svg").read_text()
    assert "-start-symbol-square" in (svg / "board.svg").read_text()  # the green start corner


def test_small_text_is_reported_with_piece_and_page(tmp_path):
    """With a 10 pt minimum the pawn names (9 pt) are too small: the finding names the pawn
    and the page, and that page of the PDF (read by pdfplumber) carries the text."""
    theme = _theme(tmp_path, "big", "[accessibility]\nmin_text_pt_pieces = 10.0\n")
    out = tmp_path / "out"
    result = render_kit("classic", out, KitOptions(check=False, theme=str(theme), previews=False, svg=False))
    found = [w for w in result.warnings if "pawn-red" in w and "under the 10 pt minimum" in w]
    assert found, result.warnings
    page = int(found[0].rsplit("page ", 1)[1])
    with pdfplumber.open(result.pdf) as pdf:
        words = pdf.pages[page - 1].extract_text()
        sizes = {round(c["size"], 1) for c in pdf.pages[page - 1].chars if c["text"] == "R"}
    assert "Red" in words or "deR" in words  # one face of the standee is upside down
    assert any(s < 10 for s in sizes)


def test_strict_makes_findings_errors(tmp_path):
    from boardgen.errors import InaccessibleError

    theme = _theme(tmp_path, "big", "[accessibility]\nmin_text_pt_pieces = 10.0\n")
    with pytest.raises(InaccessibleError, match="pawn"):
        render_kit(
            "classic",
            tmp_path / "out",
            KitOptions(check=False, theme=str(theme), previews=False, svg=False, strict=True),
        )


def test_report_json_carries_the_accessibility_section(tmp_path):
    from boardgen import kit

    class Passed:
        def report(self, progress=None):
            from boardgen.checks.harness import Report

            return Report("classic", 1, True, [], [], {})

        def cancel(self):
            pass

    original = kit.start_verdict
    kit.start_verdict = lambda *a, **k: Passed()  # type: ignore[assignment]
    try:
        result = render_kit("classic", tmp_path / "out", KitOptions(previews=False, svg=False))
    finally:
        kit.start_verdict = original
    data = json.loads((result.folder / "classic-playability.json").read_text())
    section = data["accessibility"]
    assert section["passed"] and section["theme"] == "classic" and section["text_checked"]
    assert {row["kind"] for row in section["text_sizes"]} >= {"pawn", "card", "rules"}
    with pdfplumber.open(result.pdf) as pdf:
        assert "Accessibility:" in pdf.pages[0].extract_text()


@pytest.mark.parametrize("game", GAMES)
def test_every_bundled_game_with_every_bundled_theme_passes(game, kit_factory):
    for theme in BUNDLED_THEMES:  # the session's kits: the default theme's are every game's first kit
        _, result = kit_factory(game, theme=theme)
        assert not [w for w in result.warnings if w.startswith("accessibility")], (theme, result.warnings)


def test_simulated_preview_differs_where_colour_carries_meaning(kit_factory):
    """The pawn sheet as PNG, normal and with deuteranopia and grey: the red pawn changes,
    the white paper does not, grey has no hue, and deuteranopia brings red near green."""
    import io

    from PIL import Image

    from boardgen.data.colours import contrast_ratio  # noqa: F401  (the module under both)
    from boardgen.render.preview import as_seen

    _, result = kit_factory()  # the session's classic kit: this test only reads its PDF
    from boardgen.render.preview import render_page

    theme = load_theme("classic")
    red = tuple(int(theme.player("red")[i : i + 2], 16) for i in (1, 3, 5))
    # The first page that prints the red player's colour (a board sheet's start corner, a pawn).
    for index in range(result.pages):
        page = render_page(result.pdf.read_bytes(), index, 60)
        pixels = page.load()
        assert pixels is not None
        spot = next(((x, y) for x in range(page.width) for y in range(page.height) if pixels[x, y] == red), None)
        if spot is not None:
            break
    assert spot is not None and pixels is not None
    grey = as_seen(page, "grey")
    deut = as_seen(page, "deuteranopia")
    assert deut.getpixel(spot) != red and grey.getpixel(spot) != red
    r, g, b = pixel_at(grey, spot)
    assert max(r, g, b) - min(r, g, b) <= 2
    white = next((x, y) for x in range(page.width) for y in range(page.height) if pixels[x, y] == (255, 255, 255))
    assert deut.getpixel(white) == (255, 255, 255)
    assert page.tobytes() != deut.tobytes()
    assert Image.open(io.BytesIO(_png(grey))).size == page.size


def _png(image):
    import io

    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def test_preview_vision_writes_its_own_previews(tmp_path):
    out = tmp_path / "out"
    result = render_kit("walls", out, KitOptions(check=False, svg=False, preview_vision="grey"))
    folder = result.folder / "preview" / "walls-a4-grey"
    from PIL import Image

    board = Image.open(folder / "board.png").convert("RGB")
    data = board.tobytes()
    assert all(max(data[i : i + 3]) - min(data[i : i + 3]) <= 2 for i in range(0, len(data), 3))  # every pixel grey


def test_validate_reports_the_colours_of_its_theme(tmp_path):
    from click.testing import CliRunner

    from boardgen.cli import cli

    bare = _theme(tmp_path, "bare", _players(OLD_CLASSIC), top="symbols = false\n")
    result = CliRunner().invoke(cli, ["validate", "walls", "--games", "2", "--json", "--theme", str(bare)])
    data = json.loads(result.stdout[: result.stdout.rindex("}") + 1])
    section = data["accessibility"]
    assert not section["passed"] and section["severity"] == "warning"
    assert any("red and green" in f and "deuteranopia" in f for f in section["findings"])
    text = CliRunner().invoke(cli, ["validate", "walls", "--games", "2", "--theme", "classic"]).stdout
    assert "Accessibility (classic theme): passed" in text


def test_minos_board_has_a_legend_of_its_marks_and_realms():
    """Every mark on the board is explained in the frame: the realms by name with their
    fields (counted from the layout), the sanctuary outline, the exact-count ring, the links."""
    import xml.etree.ElementTree as ET

    from boardgen.render.svg.race import board_svg

    _, layout = load_game("minos")
    root = ET.fromstring(board_svg(layout, load_theme("classic"), lang="en"))
    texts = {e.get("id"): "".join(e.itertext()) for e in root.iter() if e.tag.endswith("text")}
    earth = [n for n in layout.track.nodes if n.colour == "earth"]
    first, last = min(int(n.label) for n in earth), max(int(n.label) for n in earth)
    assert texts["legend-realm-earth-label"] == f"Earth {first}–{last}"
    assert texts["legend-mark-sanctuary-label"].startswith("sanctuary")
    assert texts["legend-mark-exact-label"] == "exact count"
    assert {
        "legend-link-jump-label",
        "legend-link-tunnel-label",
        "legend-link-orbit-label",
        "legend-link-millstone-label",
    } <= set(texts)
    ids = {e.get("id") for e in root.iter()}
    assert {"legend-mark-sanctuary-mark", "legend-mark-exact-mark"} <= ids


def test_grand_board_names_its_sequences():
    import xml.etree.ElementTree as ET

    from boardgen.render.svg.grand import board_svg

    _, layout = load_game("grand")
    root = ET.fromstring(board_svg(layout, load_theme("classic"), lang="fr"))
    texts = {e.get("id"): "".join(e.itertext()) for e in root.iter() if e.tag.endswith("text")}
    for seq in layout.sequences:
        assert texts[f"sequence-{seq.colour}-name"] == f"{seq.name['fr']} {seq.central[0]}–{seq.central[1]}"


def test_high_contrast_passes_with_margin_even_without_symbols(tmp_path):
    """Its colours alone clear the threshold by a margin in every vision, grey included."""
    _, layout = load_game("walls")
    plain = tmp_path / "plain.toml"
    plain.write_text(
        'symbols = false\n[theme]\nid = "plain"\nname = { en = "P", fr = "P" }\nextends = "high-contrast"\n',
        encoding="utf-8",
    )
    report = accessibility.check_colours(load_theme(str(plain)))
    assert report.passed and report.colours[0]["cue"] is None
    assert min(float(c["de"]) for c in report.colours[0]["closest"].values()) >= 23


def _background_box_by_box(pixels, boxes, text_colour, height, scale):
    """The text's background as measured before the page's texts were measured at once
    (np.unique box by box): the reference for `accessibility._backgrounds`."""
    import math

    import numpy as np

    target = np.array([int(text_colour[i : i + 2], 16) for i in (1, 3, 5)], dtype=np.int32)
    around, shown = [], False
    rows, cols = pixels.shape[:2]
    for left, bottom, right, top in boxes:
        x0, x1 = sorted((left * scale, right * scale))
        y0, y1 = sorted(((height - top) * scale, (height - bottom) * scale))
        top_, bottom_ = (min(rows, max(0, v)) for v in (math.floor(y0) - 1, math.ceil(y1) + 1))
        left_, right_ = (min(cols, max(0, v)) for v in (math.floor(x0) - 1, math.ceil(x1) + 1))
        if bottom_ <= top_ or right_ <= left_:
            continue
        box = pixels[top_:bottom_, left_:right_].reshape(-1, 3)
        distance = np.abs(box - target).sum(axis=1)
        packed = (box[:, 0] << 16) | (box[:, 1] << 8) | box[:, 2]
        values, counts = np.unique(packed, return_counts=True)
        under = int(values[np.argmax(counts)])
        under_distance = int(np.abs(np.array([under >> 16, (under >> 8) & 255, under & 255]) - target).sum())
        if under_distance > 30 and not (distance < under_distance / 2).any():
            continue
        shown = True
        around.append(box[distance > 60])
    found = np.concatenate(around) if around else np.zeros((0, 3), dtype=np.int32)
    if not len(found):
        return text_colour if shown and text_colour != "#ffffff" else None
    packed = (found[:, 0] << 16) | (found[:, 1] << 8) | found[:, 2]
    values, counts = np.unique(packed, return_counts=True)
    return f"#{int(values[np.lexsort((-values, -counts))[0]]):06x}"


def test_processess_of_a_page_at_once_match_box_by_box():
    """Pages of a few colours (many ties), boxes across the edges and off the page, texts in
    white and in the page's own colours: every text's background is the one measured box by box,
    from the page as RGB or as packed 0xRRGGBB values."""
    import numpy as np

    rng = np.random.default_rng(7)
    for trial in range(40):
        rows, cols = int(rng.integers(20, 60)), int(rng.integers(20, 60))
        palette = rng.integers(0, 256, size=(int(rng.integers(1, 5)), 3))
        palette[0] = 255  # white among them
        pixels = palette[rng.integers(0, len(palette), size=(rows, cols))].astype(np.int32)
        scale = (1.0, 0.5, 2.0)[trial % 3]
        height = rows / scale
        texts = []
        for _ in range(int(rng.integers(1, 8))):
            rgb = palette[rng.integers(len(palette))] if rng.random() < 0.5 else rng.integers(0, 256, size=3)
            colour = "#" + "".join(f"{int(c):02x}" for c in rgb)
            boxes = []
            for _ in range(int(rng.integers(1, 6))):
                x, y = rng.uniform(-10, cols / scale + 5), rng.uniform(-10, height + 5)
                w, h = rng.uniform(0, 6), rng.uniform(0, 8)
                boxes.append((x, y, x + w, y + h) if rng.random() < 0.8 else (x + w, y + h, x, y))
            texts.append((colour, boxes))
        got = accessibility._backgrounds(pixels, texts, height, scale)
        assert got == [_background_box_by_box(pixels, boxes, colour, height, scale) for colour, boxes in texts], trial
        # The page as pdfium's BGRx reads: 0xXXRRGGBB, the spare byte set.
        channels = pixels.astype(np.uint32)
        packed = (0xFF << 24) | (channels[..., 0] << 16) | (channels[..., 1] << 8) | channels[..., 2]
        assert accessibility._backgrounds(packed, texts, height, scale) == got, trial
    assert accessibility._backgrounds(np.zeros((4, 4, 3), dtype=np.int32), [], 4.0, 1.0) == []
