"""The kit of a sliding-corridor game: board sheets, corridor tiles, cards, pawns, rules."""

from __future__ import annotations

from dataclasses import dataclass, replace

from boardgen.data.strings import counted, noun, noun_one, word
from boardgen.data.theme import Theme
from boardgen.geometry import Outline
from boardgen.kits.catalogue import Back, Catalogue, PieceDesign, board, card_outline, designs
from boardgen.kits.cover import board_line, cover_page
from boardgen.kits.packing import Block, Packer, card_section, impose, items
from boardgen.kits.rules_text import interpretation_blocks, rules_blocks, rules_pages
from boardgen.model.sliding import Deal, SlidingLayout, deal, rule_values
from boardgen.options import KitOptions, Summary
from boardgen.render.imposition import Tiling, paper, tile_board
from boardgen.render.pdf import Form, ImposedPdf, PdfKit
from boardgen.render.svg import pieces
from boardgen.render.svg import sliding as svg


@dataclass
class Drawings:
    """Every SVG of a sliding kit, by file name (without .svg)."""

    board: str
    setup: str
    tiles: dict[str, str]
    fronts: dict[str, str]
    back: str
    pawns: dict[str, str]

    def files(self) -> dict[str, str]:
        out = {"board": self.board, "setup": self.setup, "card-back": self.back}
        out.update({f"tile-{k.removeprefix('tile-')}": v for k, v in self.tiles.items()})
        out.update({f"card-{k}": v for k, v in self.fronts.items()})
        out.update({f"pawn-{k}": v for k, v in self.pawns.items()})
        return out


# The drawings of each kind of piece (kits.reprint): piece kind -> (Drawings field, key prefix).
PIECE_FIELDS = {"card": ("fronts", ""), "tile": ("tiles", "tile-"), "pawn": ("pawns", "")}
EXTRA_PARTS: tuple[str, ...] = ()  # parts printed on pages of their own besides the usual ones


def piece_ids(layout: SlidingLayout) -> dict[str, dict[str, str]]:
    """Single pieces by id, as their SVG files are named, with what each is: cards by treasure,
    tiles by number, standees by colour."""
    return {
        "card": {t.id: t.name["en"] for t in layout.treasures},
        "tile": tile_numbers(layout),
        "pawn": pawn_ids(layout),
    }


def pawn_ids(layout: SlidingLayout) -> dict[str, str]:
    return {s.colour: f"{s.colour} standee" for s in layout.starts}


def tile_numbers(layout: SlidingLayout) -> dict[str, str]:
    """Each loose tile's number and its shape, with the treasure it carries."""
    return {
        tile.id.removeprefix("tile-"): tile.shape + (f": {tile.treasure}" if tile.treasure else "")
        for tile in layout.loose
    }


def printed_numbers(layout: SlidingLayout) -> dict[str, dict[str, str]]:
    """Pieces printed with a number other than their id (kits.reprint): none."""
    return {}


def catalogue(layout: SlidingLayout, drawings: Drawings) -> Catalogue:
    """The board, the loose corridor tiles, the fold-up standees (their fold lines in their
    outline) and the treasure cards with their back."""
    ids = piece_ids(layout)
    return Catalogue(
        (board(drawings.board), *sliding_pieces(layout, drawings, ids), *card_designs(layout, drawings, ids))
    )


def sliding_pieces(layout: SlidingLayout, drawings: Drawings, ids: dict[str, dict[str, str]]) -> list[PieceDesign]:
    """The tiles and standees every sliding kit prints."""
    standees = [
        replace(p, outline=Outline(folds=pieces.pawn_folds(pieces.pawn_face(p.size))))
        for p in designs(
            "pawn",
            drawings.pawns,
            file_prefix="pawn-",
            names=ids["pawn"],
            colours={colour: colour for colour in ids["pawn"]},
        )
    ]
    return [*designs("tile", drawings.tiles, prefix="tile-", names=ids["tile"]), *standees]


def card_designs(layout: SlidingLayout, drawings: Drawings, ids: dict[str, dict[str, str]]) -> list[PieceDesign]:
    """The card fronts, each with the deck's back."""
    return designs(
        "card",
        drawings.fronts,
        file_prefix="card-",
        outline=card_outline(layout.bleed_mm),
        bleed=layout.bleed_mm,
        names=ids["card"],
        back=Back("card-back", drawings.back),
    )


def setup(layout: SlidingLayout, seed: int) -> Deal:
    """The seeded deal: the check plays it and the cover shows it as the starting layout."""
    return deal(layout, seed)


def draw(layout: SlidingLayout, theme: Theme, start: Deal, lang: str) -> Drawings:
    return Drawings(
        board=svg.board_svg(layout, theme, lang=lang),
        setup=svg.board_svg(layout, theme, lang=lang, deal=start),
        tiles={tile.id: svg.tile_svg(tile, layout, theme, lang=lang) for tile in layout.loose},
        fronts={t.id: svg.card_face_svg(t, layout, theme, lang=lang) for t in layout.treasures},
        back=svg.card_back_svg(layout, theme, lang=lang),
        pawns={
            s.colour: pieces.pawn_svg(s.colour, layout.pawn_size_mm, theme, lang=lang)
            for s in layout.starts[: layout.players[1]]
        },  # a board for 2-3 players prints 3 pawns
    )


def seam_zones(layout: SlidingLayout) -> tuple[tuple[float, float], ...]:
    """Where a seam may cross the board: inside sliding-line slots (covered by loose tiles in
    play, no printed art) but clear of the insertion arrows, or exactly on a tile edge."""
    frame, pitch = layout.frame_mm, layout.pitch_mm
    clear = svg.arrow_half_width(layout) + 1.0
    zones = []
    for line in layout.sliding_lines:
        low, high = frame + line * pitch, frame + (line + 1) * pitch
        middle = (low + high) / 2
        zones += [(low + 2.0, middle - clear), (middle + clear, high - 2.0)]
    zones += [(frame + k * pitch, frame + k * pitch) for k in range(layout.size + 1)]
    return tuple(zones)


def seam_cuts(layout: SlidingLayout, axis: str, position: float) -> str:
    """What a seam at this board position runs through, for the warning when no zone fits."""
    frame, pitch = layout.frame_mm, layout.pitch_mm
    line = "column" if axis == "x" else "row"
    k = int((position - frame) // pitch)
    if not 0 <= k < layout.size:
        return "the board's frame"
    if k in layout.sliding_lines:
        return f"the insertion arrows of {line} {k + 1}"
    return f"the printed tiles of {line} {k + 1} (corridors and pictures)"


def board_tiling(layout: SlidingLayout, options: KitOptions) -> Tiling:
    zones = seam_zones(layout)
    return tile_board(
        layout.board_mm,
        layout.board_mm,
        paper(options.paper),
        options.margin,
        style=options.joint,
        overlap=options.overlap,
        orientation=options.orientation,
        zones_x=zones,
        zones_y=zones,
        describe=lambda axis, s: seam_cuts(layout, axis, s),
    )


def rules_text(layout: SlidingLayout, lang: str) -> list[tuple[str, str]]:
    """The rules as the rules pages print them (headings, paragraphs, bullets): also the
    braille and large-print editions' text."""
    values = rule_values(layout, lang)
    return rules_blocks(layout.rules, lang, values, beside=layout.doc.path) + interpretation_blocks(
        "sliding", lang, values, layout=layout
    )


def build_pdf(
    layout: SlidingLayout,
    theme: Theme,
    start: Deal,
    drawings: Drawings,
    pieces_: Catalogue,
    options: KitOptions,
    *,
    summary: Summary,
) -> ImposedPdf:
    """The kit's PDF and the kind of each page (cover, board, tiles, cards, ...)."""
    lang = options.lang
    tiling = board_tiling(layout, options)

    def pages(pdf: PdfKit, board: Form) -> None:
        setup_form = pdf.add_svg_form("Setup", drawings.setup)
        cover(pdf, layout, tiling, board, setup_form, start, summary=summary, options=options)
        # Paper first (cover, rules), then card: the board with small pieces under it, piece
        # sheets, cards.
        rules_pages(pdf, rules_text(layout, lang), word(lang, "rules"))
        packer = Packer(pdf, piece_blocks(pdf, pieces_, options))
        pdf.board_sheets(board, tiling, heading=word(lang, "board"), fill=packer.fill)
        packer.pages(heading=word(lang, "pieces"))
        card_section(pdf, pieces_.of_kind("card"), options=options, what="cards")

    return impose(
        layout,
        theme,
        options,
        drawings,
        tiling,
        pages=pages,
        subject=f"boardgen kit: {layout.id}, seed {start.seed}, theme {theme.id}",
    )


def piece_blocks(pdf: PdfKit, pieces_: Catalogue, options: KitOptions) -> list[Block]:
    """Corridor tiles on a grid (butted on shared cut lines, or `--gap` apart each with its own
    crop marks), then the fold-up standees (``pawn:red``) with their assembly note."""
    lang = pdf.lang
    tiles = items(pdf, pieces_.of_kind("tile"), form_prefix="Tile-")
    standees = Block(
        noun(lang, "pawns"),
        items(pdf, pieces_.of_kind("pawn"), form_prefix="Pawn-"),
        gap=max(4.0, options.gap),
        one=noun_one(lang, "pawns"),
        turnable=True,
        note=word(lang, "standee_note"),
    )
    return [Block(noun(lang, "tiles"), tiles, gap=options.gap, marks=True, one=noun_one(lang, "tiles")), standees]


def cover(
    pdf: PdfKit,
    layout: SlidingLayout,
    tiling: Tiling,
    board: Form,
    setup_form: Form,
    start: Deal,
    *,
    summary: Summary,
    options: KitOptions,
) -> None:
    lang = pdf.lang
    contents = [
        board_line(lang, tiling),
        counted(lang, len(layout.loose), "tiles") + f" ({layout.pitch_mm:.0f} mm)",
        counted(lang, len(layout.treasures), "cards")
        + f" ({layout.card_size_mm[0]:.0f} × {layout.card_size_mm[1]:.0f} mm)",
        counted(lang, min(len(layout.starts), layout.players[1]), "pawns"),
        word(lang, "rules"),
    ]
    cover_page(
        pdf,
        title=layout.title[lang],
        tagline=layout.tagline[lang],
        contents=contents,
        summary=summary,
        board=board,
        tiling=tiling,
        options=options,
        side=(word(lang, "setup", seed=start.seed), setup_form, layout.board_mm),
    )
