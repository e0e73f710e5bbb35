"""Nothing drawn over the words it sits beside: rings, lines, arrows and marks measured against
the text they must leave readable, read back from the PDF (pdfplumber) or its raster (pdfium)."""

from __future__ import annotations

import math
import re

import pytest
from pdfcheck import mm, open_plumber, page_texts

LINK = (0.541176, 0.184314, 0.113725)  # the classic theme's link colour, #8a2f1d
DESCENDERS = set("gjpqy,;()[]{}|")


def ink_boxes(page, *, cap: float = 0.75) -> list[tuple[str, float, float, float, float]]:
    """Each character's inked box (mm, top-left origin): its advance across, from the baseline
    up to the cap height (characters with a descender reach below it, so they are left out)."""
    height = mm(page.height)
    out = []
    for ch in page.chars:
        if ch["text"] in DESCENDERS or not ch["text"].strip():
            continue
        base = height - mm(ch["matrix"][5])
        out.append((ch["text"], mm(ch["x0"]), base - cap * mm(ch["size"]), mm(ch["x1"]), base))
    return out


def rings(page, colour: tuple[float, ...]) -> list[tuple[float, float, float, float]]:
    """Unfilled stroked circles of a colour: (centre x, centre y, radius, stroke width) in mm."""
    out = []
    for c in page.curves:
        w, h = mm(c["x1"] - c["x0"]), mm(c["bottom"] - c["top"])
        if c.get("stroking_color") == colour and not c["fill"] and abs(w - h) < 0.2 and w > 3:
            lw = mm(c["linewidth"])
            out.append((mm(c["x0"]) + w / 2, mm(c["top"]) + h / 2, w / 2, lw))  # points: the stroke's middle
    return out


def ring_crosses(ring: tuple[float, float, float, float], box: tuple[float, float, float, float]) -> bool:
    """Whether a ring's stroke passes through a box: some point of the box lies at a distance
    from the centre within the stroke's band."""
    cx, cy, r, lw = ring
    x0, y0, x1, y1 = box
    near = math.hypot(max(x0 - cx, 0, cx - x1), max(y0 - cy, 0, cy - y1))
    far = max(math.hypot(x - cx, y - cy) for x in (x0, x1) for y in (y0, y1))
    return near <= r + lw / 2 and far >= r - lw / 2


def test_grand_exact_rings_leave_numbers_and_names_clear(kit_factory) -> None:
    pdf, result = kit_factory("grand")
    texts = page_texts(pdf)
    boards = [i for i, t in enumerate(texts) if t.startswith("Board")]
    with open_plumber(pdf) as doc:
        for index in boards:
            page = doc.pages[index]
            found = rings(page, LINK)
            # IX, XVIII, XXVII, XXXVI and 83 (the board is one form: all of it is on every sheet)
            assert len(found) == 5
            # Only what the sheet shows of the board: the rest is clipped away, and the room
            # below it carries pieces with their own words.
            shown = next(p.trim for p in result.placements if p.page == index and p.kind == "board")
            struck = [
                (text, ring)
                for text, *box in ink_boxes(page)
                for ring in found
                if shown.x <= box[0]
                and box[2] <= shown.right
                and shown.y <= box[1]
                and box[3] <= shown.bottom
                and ring_crosses(ring, (box[0], box[1], box[2], box[3]))
            ]
            assert not struck, f"page {index + 1}: rings cross {sorted({t for t, _ in struck})}"


def dark_runs(
    path, index: int, *, dpi: int, across: bool, at_mm: float, span_mm: tuple[float, float]
) -> list[tuple[float, int]]:
    """The dark runs along one line of a page's raster: (start in mm, length in pixels), on a
    row at `at_mm` from the top (across) or a column at `at_mm` from the left."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(path))
    try:
        page = document[index]
        width_pt, height_pt = page.get_size()
        k = 72 / 25.4
        lo, hi = span_mm
        # Only a thin strip is rendered (crop: left, bottom, right, top, in points).
        if across:
            crop = (lo * k, height_pt - (at_mm + 0.5) * k, width_pt - hi * k, (at_mm - 0.5) * k)
        else:
            crop = ((at_mm - 0.5) * k, height_pt - hi * k, width_pt - (at_mm + 0.5) * k, lo * k)
        image = page.render(scale=dpi / 72, crop=crop).to_pil().convert("L")
    finally:
        document.close()
    px_per_mm = dpi / 25.4
    if across:
        line = [image.getpixel((x, image.height // 2)) for x in range(image.width)]
    else:
        line = [image.getpixel((image.width // 2, y)) for y in range(image.height)]
    runs, start = [], None
    for i, value in enumerate([*line, 255]):
        if value < 128 and start is None:
            start = i
        elif value >= 128 and start is not None:
            runs.append((lo + start / px_per_mm, i - start))
            start = None
    return runs


def test_master_score_pad_lines_are_all_one_width(kit_factory) -> None:
    pdf, _ = kit_factory("master")
    index = next(i for i, t in enumerate(page_texts(pdf)) if t.startswith("Score"))
    with open_plumber(pdf) as doc:
        frames = [r for r in doc.pages[index].rects if r["stroke"] and not r["fill"] and mm(r["width"]) > 120]
    assert len(frames) == 3  # one frame per game
    frame = min(frames, key=lambda r: r["top"])
    x0, x1, top, bottom = mm(frame["x0"]), mm(frame["x1"]), mm(frame["top"]), mm(frame["bottom"])
    # Across the first game, below its header row: the left edge, the column lines, the right edge.
    across = dark_runs(pdf, index, dpi=1200, across=True, at_mm=bottom - 3, span_mm=(x0 - 2, x1 + 2))
    # Down the label column: the top edge, the row lines, the bottom edge.
    down = dark_runs(pdf, index, dpi=1200, across=False, at_mm=x0 + 1, span_mm=(top - 2, bottom + 2))
    for runs in (across, down):
        assert len(runs) >= 3
        inner = [n for _, n in runs[1:-1]]
        for _, n in (runs[0], runs[-1]):
            assert abs(n - max(inner)) <= 1, runs


def char_boxes(page, *, cap: float = 0.75, descent: float = 0.22) -> list[tuple[str, float, float, float, float]]:
    """Each character's box (mm, top-left origin): its advance across, cap height above the
    baseline, and the descent below it for the characters that have one."""
    height = mm(page.height)
    out = []
    for ch in page.chars:
        if not ch["text"].strip():
            continue
        base = height - mm(ch["matrix"][5])
        size = mm(ch["size"])
        low = base + (descent * size if ch["text"] in DESCENDERS else 0.0)
        out.append((ch["text"], mm(ch["x0"]), base - cap * size, mm(ch["x1"]), low))
    return out


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_master_token_names_stay_inside_the_ring(kit_factory, lang: str) -> None:
    from boardgen.data.loader import load
    from boardgen.data.theme import load_theme
    from boardgen.model.master import build

    layout = build(load("game", "master"))
    colour = load_theme("classic").colour("card_border")
    border = tuple(round(int(c, 16) / 255, 6) for c in re.findall("..", colour[1:]))
    ring_d = layout.token_diameter_mm - 2.6
    pdf, _ = kit_factory("master", lang=lang)
    seen = 0
    with open_plumber(pdf) as doc:
        for page in doc.pages:
            tokens = [r for r in rings(page, border) if abs(2 * r[2] - ring_d) < 0.2]
            if not tokens:
                continue
            for text, x0, y0, x1, y1 in char_boxes(page):
                if y1 - y0 > layout.token_diameter_mm * 0.12:
                    continue  # taller than a token's words (value 15 % of it): the board's, clipped away
                for cx, cy, r, lw in tokens:
                    if math.hypot((x0 + x1) / 2 - cx, (y0 + y1) / 2 - cy) < r:
                        seen += 1
                        far = max(math.hypot(x - cx, y - cy) for x in (x0, x1) for y in (y0, y1))
                        # Half a millimetre of air: names 0.26 mm from the ring read as running onto it.
                        assert far <= r - lw / 2 - 0.5, f"{text!r} on a token reaches the ring ({far:.2f}, {r:.2f})"
    assert seen > 21 * 5  # every token's value and name were looked at


def test_master_fir_cone_token_shows_a_cone_not_a_tree(kit_factory) -> None:
    """A fir tree is widest at its foot; a cone is widest above its middle and ends in a tip."""
    import pypdfium2 as pdfium

    from boardgen.data.loader import load
    from boardgen.model.master import build

    layout = build(load("game", "master"))
    diameter = layout.token_diameter_mm
    border = (0.231373, 0.356863, 0.290196)  # the classic theme's card_border, #3b5b4a
    pdf, _ = kit_factory("master")
    with open_plumber(pdf) as doc:
        found = []
        for index, page in enumerate(doc.pages):
            tokens = [r for r in rings(page, border) if abs(2 * r[2] - (diameter - 2.6)) < 0.2]
            for text, x0, _, x1, y1 in char_boxes(page):
                for cx, cy, _, _ in tokens:
                    # The value sits alone at the top of the disc: "2" with no digit beside it.
                    if text == "2" and abs((x0 + x1) / 2 - cx) < 1.0 and cy - diameter / 2 < y1 < cy - diameter * 0.15:
                        found.append((index, cx, cy))
    assert len(found) == 1
    index, cx, cy = found[0]
    box = diameter * 0.38  # the picture's box, centred a little above the disc's centre
    top, left = cy - diameter * 0.03 - box / 2, cx - box / 2
    dpi, k = 600, 72 / 25.4
    document = pdfium.PdfDocument(str(pdf))
    try:
        page = document[index]
        w_pt, h_pt = page.get_size()
        image = (
            page.render(scale=dpi / 72, crop=(left * k, h_pt - (top + box) * k, w_pt - (left + box) * k, top * k))
            .to_pil()
            .convert("L")
        )
    finally:
        document.close()
    widths = []
    for y in range(image.height):
        dark = [x for x in range(image.width) if image.getpixel((x, y)) < 110]
        widths.append(dark[-1] - dark[0] if dark else 0)
    rows = [y for y, w in enumerate(widths) if w]
    first, last = rows[0], rows[-1]
    widest = max(range(first, last + 1), key=lambda y: widths[y])
    assert (widest - first) / (last - first) < 0.6, "widest near the foot: a tree"
    assert widths[last - 2] < 0.4 * widths[widest], "a cone ends in a narrow tip"


def colour_near_words(
    path, index: int, colour: tuple[float, ...], words: set[str], *, dpi: int = 200, air: float = 0.15
) -> set[str]:
    """The words of a page (pdfplumber's words, by their text) near which pixels of a colour
    are visible: inside their boxes (the font's whole height) or within `air` times the
    text's size of them. What pdfium shows,
    clip paths included, so a board sheet's hidden parts count for nothing."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(path))
    try:
        image = document[index].render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        document.close()
    target = tuple(round(c * 255) for c in colour)
    k = dpi / 25.4
    hits = set()
    with open_plumber(path) as doc:
        page = doc.pages[index]
        for word in page.extract_words(extra_attrs=["size"]):
            if word["text"] not in words:
                continue
            size = mm(word["size"])
            top, bottom = mm(word["top"]), mm(word["bottom"])
            pad = air * size
            box = (
                int((mm(word["x0"]) - pad) * k),
                int((top - pad) * k),
                int((mm(word["x1"]) + pad) * k) + 1,
                int((bottom + pad) * k) + 1,
            )
            if box[2] <= 0 or box[3] <= 0 or box[0] >= image.width or box[1] >= image.height:
                continue
            data = image.crop(box).tobytes()  # RGB, three bytes a pixel
            pixels = (data[k : k + 3] for k in range(0, len(data), 3))
            if any(sum(abs(a - b) for a, b in zip(px, target, strict=True)) < 60 for px in pixels):
                hits.add(word["text"])
    return hits


def test_minos_orbit_and_jump_leave_the_labels_they_passed_clear(kit_factory) -> None:
    # The Orbit's hop 55-34 crossed "Knight's gate" (sheet 1), the jump 6-12 the number 11
    # (sheet 4); neither may come near them now.
    pdf, _ = kit_factory("minos")
    texts = page_texts(pdf)
    boards = [i for i, t in enumerate(texts) if t.startswith("Board")]
    assert len(boards) == 4
    struck = {
        index + 1: hits
        for index in boards
        if (hits := colour_near_words(pdf, index, LINK, {"Knight’s", "gate", "11", "12"}))
    }
    assert not struck, f"links run over {struck}"


@pytest.fixture(scope="module")
def minos_11(tmp_path_factory) -> str:
    """The kit of `generate minos --seed 5 --size 11`, rendered without its check."""
    from click.testing import CliRunner

    from boardgen.cli import cli
    from boardgen.kit import render_kit
    from boardgen.options import KitOptions

    folder = tmp_path_factory.mktemp("minos11")
    path = folder / "minos11.toml"
    # --tries 0: the layout unchecked, as it is drawn (a check only picks the default_seed that deals it).
    result = CliRunner().invoke(
        cli, ["generate", "minos", "--seed", "5", "--size", "11", "-o", str(path), "--tries", "0"]
    )
    assert result.exit_code == 0, result.output
    return str(render_kit(str(path), folder, KitOptions(previews=False, check=False)).pdf)


def test_generated_minos_entrance_arrow_leaves_the_title_clear(minos_11) -> None:
    # Seed 5 at 11 x 11 enters from the top, under the board's title.
    arrow = (0.941176, 0.780392, 0.368627)  # the classic theme's arrow colour, #f0c75e
    pdf = minos_11
    texts = page_texts(pdf)
    boards = [i for i, t in enumerate(texts) if t.startswith("Board")]
    with open_plumber(pdf) as doc:
        page = doc.pages[boards[0]]  # the board is one form: all of it is on every sheet
        triangles = [
            c
            for c in (*page.curves, *page.rects)
            if c["fill"] and tuple(c.get("non_stroking_color") or ()) == arrow and len(c.get("pts", ())) <= 5
        ]
        assert len(triangles) == 1
        t = triangles[0]
        x0, y0, x1, y1 = mm(t["x0"]), mm(t["top"]), mm(t["x1"]), mm(t["bottom"])
        title = {w["text"] for w in page.extract_words()} & {"King", "Minos", "Labyrinth"}
        assert title  # the title is on the page
        covered = [text for text, a, b, c, d in char_boxes(page) if a < x1 and c > x0 and b < y1 and d > y0]
    assert not covered, covered


@pytest.fixture(scope="module")
def nine_by_nine(tmp_path_factory) -> dict[str, str]:
    """The kits of `generate classic --size 9` and `generate master --size 9`, unchecked."""
    from click.testing import CliRunner

    from boardgen.cli import cli
    from boardgen.kit import render_kit
    from boardgen.options import KitOptions

    out = {}
    for game in ("classic", "master"):
        folder = tmp_path_factory.mktemp(f"{game}9")
        path = folder / f"{game}9.toml"
        # --tries 0: unchecked, as the render is (a check only picks the default_seed that deals it).
        result = CliRunner().invoke(cli, ["generate", game, "--size", "9", "-o", str(path), "--tries", "0"])
        assert result.exit_code == 0, result.output
        out[game] = str(render_kit(str(path), folder, KitOptions(previews=False, check=False)).pdf)
    return out


@pytest.mark.parametrize("game", ["classic", "master"])
def test_crop_marks_beside_a_board_part_miss_its_joins_label(nine_by_nine, game: str) -> None:
    from boardgen.render.imposition import MARK_LEN

    pdf = nine_by_nine[game]
    texts = page_texts(pdf)
    boards = [i for i, t in enumerate(texts) if t.startswith("Board")]
    assert len(boards) == 6
    seen = 0
    with open_plumber(pdf) as doc:
        for index in boards:
            page = doc.pages[index]
            # The labels naming the neighbour sheet at a side run up or down the page.
            turned = [
                (mm(c["x0"]), mm(c["top"]), mm(c["x1"]), mm(c["bottom"]))
                for c in page.chars
                if not c["upright"] and c["text"].strip()
            ]
            marks = [
                (mm(line["x0"]), mm(line["top"]), mm(line["x1"]), mm(line["bottom"]))
                for line in page.lines
                if abs(max(mm(line["x1"] - line["x0"]), mm(line["bottom"] - line["top"])) - MARK_LEN) < 0.05
            ]
            seen += len(turned) > 0
            struck = [
                m for m in marks for c in turned if m[0] <= c[2] and m[2] >= c[0] and m[1] <= c[3] and m[3] >= c[1]
            ]
            assert not struck, f"page {index + 1}: crop marks {struck[:3]} cross a joins label"
    assert seen >= 4
