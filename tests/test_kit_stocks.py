"""Kits shaped for how people print, cut and assemble (issue 21), read back from the PDFs:
paper and card pages apart and planned on the cover, the split files, the sheet counts,
every part and piece reprinted alone, and pieces spaced for scissors with their own marks."""

from __future__ import annotations

import re

import pytest
from pdfcheck import forms_drawn, mm, open_plumber, page_texts

from boardgen.data.theme import load_theme
from boardgen.engines import load_game
from boardgen.geometry import Placement
from boardgen.kits import reprint
from boardgen.options import PIECES, KitOptions, page_kinds, print_plan, sheet_counts, stock

# Unchecked kits of their own, on the session's cache: none of these tests tests the cache.
pytestmark = pytest.mark.usefixtures("warm_cache")

GAMES = ("classic", "master", "minos", "grand", "walls")
# The most sheets each kit may take (A4, Letter): card and paper, as its print plan prints them.
# Walls: its 32 blocks on two sheets of their own, none on the board's sheets (issue 40).
MOST_SHEETS = {"classic": (9, 10), "master": (11, 11), "minos": (7, 7), "grand": (10, 10), "walls": (8, 8)}
PIECE_FORMS = ("Tile-", "Pawn-", "Disc-", "Die-", "Token-", "Wand-", "Block-", "Card-")


def ranges(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        low, _, high = part.strip().partition("-")
        out += range(int(low), int(high or low) + 1)
    return out


def cover_plan(text: str) -> list[tuple[str, bool, int]]:
    """(stock, double-sided, page) for every page the cover's print plan names, read from its text."""
    flat = " ".join(text.split())
    plan = []
    for what, sides, pages in re.findall(
        r"(Paper|Card) \([^)]*\), (single|double)-sided[^:]*: pages ([0-9, -]+)", flat
    ):
        plan += [(what.lower(), sides == "double", page) for page in ranges(pages.rstrip(" ,"))]
    return plan


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game", GAMES)
def test_paper_and_card_never_share_a_page_and_the_cover_plans_every_page(kit_factory, game, paper):
    pdf, result = kit_factory(game, paper=paper)
    texts = page_texts(pdf)
    drawn = forms_drawn(pdf)
    assert len(texts) == len(result.kinds)
    heads = [t.split("\n", 1)[0] for t in texts]
    for index, (head, forms) in enumerate(zip(heads, drawn, strict=True)):
        pieces = [name for name in forms if name.startswith(PIECE_FORMS)]
        if head.startswith("Rules") or index == 0:
            assert not pieces, (index, head, pieces)  # no piece on a rules page or the cover
        if pieces:
            assert stock(result.kinds[index]) == "card", (index, head)
    # Every piece placed lies on a card page (the score pad, written on, on paper).
    for placed in result.placements:
        assert placed.stock == stock(result.kinds[placed.page])
        assert placed.stock == ("paper" if placed.kind == "score-pad" else "card"), placed
    # The cover's plan, read from the page, prints every page once, on the stock it is made for,
    # and the cards with their backs double-sided.
    plan = cover_plan(texts[0])
    assert sorted(page for _, _, page in plan) == list(range(1, len(texts) + 1))
    for what, double, page in plan:
        kind = result.kinds[page - 1]
        assert what == stock(kind), (page, kind)
        assert double == (kind in ("cards", "card-backs")), (page, kind)
    counts = sheet_counts(result.kinds, "duplex")
    flat = " ".join(texts[0].split())
    assert f"In all: {counts['card']} sheets of card, {counts['paper']} of paper." in flat
    # No more sheets than the kit is meant to take.
    assert counts["card"] + counts["paper"] <= MOST_SHEETS[game][("a4", "letter").index(paper)], counts


@pytest.mark.parametrize("game", GAMES)
def test_piece_sheets_carry_their_cut_list_and_assembly_notes(kit_factory, game):
    pdf, result = kit_factory(game)
    texts = [" ".join(t.split()) for t in page_texts(pdf)]
    for page in sorted(
        {p.page for p in result.placements if p.kind not in ("board", "card", "card-back", "score-pad")}
    ):
        kinds = {p.kind for p in result.placements if p.page == page}
        assert "Cut: " in texts[page], page
        # The cut lists (one above each group of pieces) count what the page carries.
        listed = sum(int(n) for n in re.findall(r"(\d+) × ", texts[page]))
        assert listed == sum(1 for p in result.placements if p.page == page and p.kind != "board"), page
        if "die" in kinds:
            assert "fold on every dashed line" in texts[page]
        if "pawn" in kinds and game in ("classic", "master"):
            assert "fold on the middle dashed line" in texts[page] and "white feet" in texts[page]
        if "block" in kinds:
            assert "thick card" in texts[page] and "solid black outline" in texts[page]


def test_standees_record_their_fold_lines(kit_factory):
    _, result = kit_factory("classic")
    standees = [p for p in result.placements if p.kind == "pawn"]
    assert len(standees) == 4
    for p in standees:
        assert len(p.folds) == 3
        (a, _), long = p.folds[1], max(p.trim.w, p.trim.h)
        # The middle fold halves the strip (two 12 mm feet and two faces).
        middle = (a[1] - p.trim.y) if p.rotation == 0 else (a[0] - p.trim.x)
        assert middle == pytest.approx(long / 2, abs=0.01)


@pytest.mark.parametrize("game", ["classic", "master"])
def test_split_writes_card_and_paper_files_that_are_the_kit(kit_factory, game):
    whole, result = kit_factory(game)
    card, _ = kit_factory(game, split=True)
    assert card.name == f"{game}-a4-card.pdf"
    paper = card.with_name(f"{game}-a4-paper.pdf")
    assert not card.with_name(f"{game}-a4.pdf").exists()
    kit_pages = list(zip(page_texts(whole), forms_drawn(whole), strict=True))
    for path, which in ((card, "card"), (paper, "paper")):
        pages = list(zip(page_texts(path), forms_drawn(path), strict=True))
        expected = [page for page, kind in zip(kit_pages, result.kinds, strict=True) if stock(kind) == which]
        assert len(pages) == len(expected)
        for (text, forms), (kit_text, kit_forms) in zip(pages, expected, strict=True):
            # The same page (its number is the file's own, and so is the cover's plan).
            assert text.split("\n", 1)[0] == kit_text.split("\n", 1)[0]
            assert forms == kit_forms
    plan = cover_plan(page_texts(paper)[0])
    for which in ("card", "paper"):
        count = sum(1 for kind in result.kinds if stock(kind) == which)
        assert sorted(n for what, _, n in plan if what == which) == list(range(1, count + 1))
    assert "-card.pdf" in " ".join(page_texts(paper)[0].split())


def every_part_and_piece(game: str) -> tuple[list[str], dict[str, dict[str, str]]]:
    engine, layout = load_game(game)
    ids = reprint.piece_ids(engine.kit(), layout)
    return reprint.parts_of(engine.kit(), ids), ids


@pytest.mark.parametrize("game", GAMES)
def test_every_part_and_one_piece_of_each_kind_reprint_alone(tmp_path, game):
    from boardgen.kit import render_kit

    parts, ids = every_part_and_piece(game)
    pieces = {part for kind, part in PIECES.items() if kind in ids and part != "cards"}
    for part in parts + ["pieces"] * bool(pieces):
        only = (part,)
        result = render_kit(game, tmp_path, KitOptions(only=only, previews=False, svg=False, check=False))
        assert result.pages > 0 and result.pdf.is_file(), part
        assert len(page_texts(result.pdf)) == result.pages
        placed = {p.kind for p in result.placements if p.page in _kept_pages(result.kinds, only)}
        placed -= {"board", "card-back"}
        if part in pieces:
            assert placed == {kind for kind, name in PIECES.items() if name == part}, (part, placed)
        elif part == "pieces":
            assert placed == {kind for kind in ids if PIECES[kind] in pieces}
    for kind, found in ids.items():
        for piece in (next(iter(found)), list(found)[-1]):
            only = (f"{kind}:{piece}",)
            result = render_kit(game, tmp_path, KitOptions(only=only, previews=False, svg=False, check=False))
            kept = _kept_pages(result.kinds, only)
            assert {p.piece for p in result.placements if p.page in kept} == {f"{kind}:{piece}"}


def _kept_pages(kinds: list[str], only: tuple[str, ...]) -> set[int]:
    """The kit pages a reprint keeps."""
    asked = set(page_kinds(only) or ())
    asked |= {"card-backs"} if "cards" in asked else set()
    return {i for i, kind in enumerate(kinds) if kind in asked}


@pytest.mark.parametrize("game", GAMES)
def test_every_listed_id_selects_exactly_its_piece(game):
    engine, layout = load_game(game)
    kit = engine.kit()
    ids = reprint.piece_ids(kit, layout)
    drawings = kit.draw(layout, load_theme("classic"), kit.setup(layout, layout.default_seed), "en")
    fields = kit.PIECE_FIELDS
    assert set(ids) == set(fields)
    for kind, found in ids.items():
        name, prefix = fields[kind]
        assert {k.removeprefix(prefix).lower() for k in getattr(drawings, name)} == set(found)
        for piece in found:
            options = reprint.resolve(kit, layout, KitOptions(only=(f"{kind}:{piece}",)), game)
            chosen = reprint.select(kit, drawings, options)
            assert [k.removeprefix(prefix).lower() for k in getattr(chosen, name)] == [piece]
            for other, (field, _) in fields.items():
                if other != kind:
                    assert not getattr(chosen, field), (kind, piece, other)


def _mark_lines(page) -> list[tuple[float, float, float, float]]:
    """Short black straight lines of the crop-mark weight, in page mm."""
    out = []
    for line in page.lines:
        if tuple(line.get("stroking_color") or ()) not in ((0, 0, 0), (0,), (0.0, 0.0, 0.0)):
            continue
        if abs(line["linewidth"] - 0.2 * 72 / 25.4) > 0.01:
            continue
        x0, x1, top, bottom = mm(line["x0"]), mm(line["x1"]), mm(line["top"]), mm(line["bottom"])
        length = max(x1 - x0, bottom - top)
        if min(x1 - x0, bottom - top) < 0.01 and 0.9 < length < 9.5:
            out.append((x0, top, x1, bottom))
    return out


@pytest.mark.parametrize("game", GAMES)
def test_a_gap_gives_every_piece_its_own_cut_and_marks_outside_every_piece(kit_factory, game):
    pdf, result = kit_factory(game, gap=3.0)
    assert pdf.name == f"{game}-a4-gap3.pdf"

    def spaced(p) -> bool:  # cards, tiles and tokens (round pawns too) take the gap
        return p.kind in ("tile", "card", "token") or (p.kind == "pawn" and p.shape == "circle")

    assert any(spaced(p) for p in result.placements)
    by_page: dict[int, list[Placement]] = {}
    for p in result.placements:
        if p.kind != "card-back":
            by_page.setdefault(p.page, []).append(p)
    for placed in by_page.values():
        for i, a in enumerate(placed):
            for b in placed[i + 1 :]:
                if a.kind == "board" or b.kind == "board":
                    continue
                # No shared cut line: every two pieces apart, by the gap where both take it.
                apart = max(
                    b.trim.x - a.trim.right, a.trim.x - b.trim.right, b.trim.y - a.trim.bottom, a.trim.y - b.trim.bottom
                )
                assert apart >= (3.0 if spaced(a) and spaced(b) else 2.0) - 0.01, (a.piece, b.piece, apart)
    with open_plumber(pdf) as doc:
        for page, placed in by_page.items():
            marks = _mark_lines(doc.pages[page])
            if any(p.kind in ("tile", "card") for p in placed):
                assert marks, page
            for x0, y0, x1, y1 in marks:
                for p in placed:
                    inside = p.trim.inset(0.05)
                    assert not (x0 < inside.right and x1 > inside.x and y0 < inside.bottom and y1 > inside.y), (
                        page,
                        p.piece,
                        (x0, y0, x1, y1),
                    )


def test_gap_is_bounded_and_named(tmp_path):
    from boardgen.errors import UsageError
    from boardgen.options import check_kit_options

    with pytest.raises(UsageError, match="the gap must be between 0 and 20"):
        check_kit_options(KitOptions(gap=-1.0))
    with pytest.raises(UsageError, match="--split writes a whole kit"):
        check_kit_options(KitOptions(split=True, only=("cards",)))


def test_print_plan_counts_duplex_pairs_as_one_sheet():
    kinds = ["cover", "rules", "board", "board", "pieces", "cards", "card-backs", "cards", "card-backs"]
    plan = print_plan(kinds, "duplex")
    assert [(s.stock, s.pages, s.double, s.sheets) for s in plan] == [
        ("paper", (1, 2), False, 2),
        ("card", (3, 4, 5), False, 3),
        ("card", (6, 7, 8, 9), True, 2),
    ]
    assert sheet_counts(kinds, "fold") == {"card": 7, "paper": 2}
    split = print_plan(kinds, "duplex", split=True)
    assert [s.pages for s in split] == [(1, 2), (1, 2, 3), (4, 5, 6, 7)]


def test_split_render_names_both_files_it_writes(tmp_path):
    from click.testing import CliRunner

    from boardgen.cli import cli

    result = CliRunner().invoke(
        cli, ["render", "walls", "--split", "--no-check", "--no-preview", "--no-svg", "-o", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    for part in ("card", "paper"):
        assert str(tmp_path / "walls" / f"walls-a4-{part}.pdf") in result.output
