"""The kit of the moving-walls game: the four-sheet board with its outlines, the 32 wall
blocks to glue on card and cut out, 16 pawns, the rules."""

from __future__ import annotations

from dataclasses import dataclass, replace

from boardgen.data.strings import counted, noun, noun_one, word
from boardgen.data.theme import Theme
from boardgen.geometry import Outline
from boardgen.kits.catalogue import Catalogue, PieceDesign, board, designs, disc_designs, numbered
from boardgen.kits.cover import board_line, cover_page
from boardgen.kits.packing import Block, Packer, discs_block, impose, items
from boardgen.kits.rules_text import rules_blocks, rules_pages
from boardgen.model.walls import WallsLayout, rule_values
from boardgen.options import KitOptions, Summary
from boardgen.render.imposition import Tiling, paper, tile_board
from boardgen.render.pdf import Form, ImposedPdf, PdfKit
from boardgen.render.svg import pieces
from boardgen.render.svg import walls as svg

BLOCK_GAP_MM = 3.0  # between cut-out blocks: room for scissors


# The drawings of each kind of piece (kits.reprint): piece kind -> (Drawings field, key prefix).
PIECE_FIELDS = {"block": ("blocks", "block-"), "pawn": ("pawns", "pawn-")}
EXTRA_PARTS: tuple[str, ...] = ()  # parts printed on pages of their own besides the usual ones


def piece_ids(layout: WallsLayout) -> dict[str, dict[str, str]]:
    """Single pieces by id (kits.reprint): the wall blocks by label, the pawns by colour and number."""
    return {
        "block": {b.id.lower(): f"wall block {b.id}" for b in layout.blocks},
        "pawn": {
            f"{colour}-{k}": f"{colour} pawn {k}"
            for colour in layout.colours
            for k in range(1, layout.pawns_per_player + 1)
        },
    }


@dataclass
class Drawings:
    """Every SVG of a moving-walls kit, by file name (without .svg)."""

    board: str
    setup: str
    blocks: dict[str, str]
    pawns: dict[str, str]

    def files(self) -> dict[str, str]:
        return {"board": self.board, "setup": self.setup, **self.blocks, **self.pawns}


def printed_numbers(layout: WallsLayout) -> dict[str, dict[str, str]]:
    """Pieces printed with a number other than their id (kits.reprint): none."""
    return {}


def catalogue(layout: WallsLayout, drawings: Drawings) -> Catalogue:
    """The board, the wall blocks at board scale (each cut on its polyomino outline) and the
    pawns (discs cut on a circle 1 mm inside the drawing)."""
    ids = piece_ids(layout)
    colours, numbers = numbered(layout.colours, layout.pawns_per_player)
    outlines = {b.id.lower(): Outline("polygon", points=svg.block_outline(b, layout.pitch_mm)) for b in layout.blocks}
    blocks = [
        replace(p, outline=outlines[p.label])
        for p in designs("block", drawings.blocks, prefix="block-", lower=True, names=ids["block"])
    ]
    return Catalogue(
        (
            board(drawings.board),
            *blocks,
            *disc_designs(drawings.pawns, prefix="pawn-", names=ids["pawn"], colours=colours, markings=numbers),
        )
    )


def setup(layout: WallsLayout, seed: int) -> WallsLayout:
    """The game has no chance: every start is the printed one, the seed only names the check."""
    return layout


def draw(layout: WallsLayout, theme: Theme, _setup: WallsLayout, lang: str) -> Drawings:
    pawns = {}
    for colour in layout.colours:
        for k in range(1, layout.pawns_per_player + 1):
            name = f"pawn-{colour}-{k}"
            pawns[name] = pieces.disc_svg(colour, str(k), layout.pawn_diameter_mm, theme, lang=lang, id=name)
    return Drawings(
        board=svg.board_svg(layout, theme, lang=lang),
        setup=svg.board_svg(layout, theme, lang=lang, start=True),
        blocks={f"block-{b.id}": svg.block_svg(b, layout, theme, lang=lang) for b in layout.blocks},
        pawns=pawns,
    )


def board_tiling(layout: WallsLayout, options: KitOptions) -> Tiling:
    zones = svg.seam_zones(layout)
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
    )


def wall_blocks(pdf: PdfKit, layout: WallsLayout, blocks: list[PieceDesign], gap: float = 0.0) -> Block:
    """The blocks at board scale (``block:a6``) and the note on gluing them onto thick card
    before cutting."""
    found = items(pdf, blocks, form_prefix="Block-", strip="block-")
    note = word(pdf.lang, "walls_glue", pitch=f"{layout.pitch_mm:g}")
    # All on sheets of their own (under_board=False): the sheets that are glued onto thick card
    # together, never a few blocks left on the board's sheets.
    return Block(
        noun(pdf.lang, "walls_blocks"),
        found,
        gap=max(BLOCK_GAP_MM, gap),
        turnable=True,
        note=note,
        one=noun_one(pdf.lang, "walls_blocks"),
        under_board=False,
    )


def rules_text(layout: WallsLayout, lang: str) -> list[tuple[str, str]]:
    """The rules as the rules pages print them (headings, paragraphs, bullets): also the
    braille and large-print editions' text."""
    return rules_blocks(layout.rules, lang, rule_values(layout, lang), beside=layout.doc.path)


def build_pdf(
    layout: WallsLayout,
    theme: Theme,
    _setup: WallsLayout,
    drawings: Drawings,
    pieces_: Catalogue,
    options: KitOptions,
    *,
    summary: Summary,
) -> ImposedPdf:
    lang = options.lang
    tiling = board_tiling(layout, options)

    def pages(pdf: PdfKit, board: Form) -> None:
        start = pdf.add_svg_form("Start", drawings.setup)
        contents = [
            board_line(lang, tiling),
            counted(lang, len(layout.blocks), "walls_blocks") + f" ({layout.pitch_mm:g} mm)",
            counted(lang, len(drawings.pawns), "pawns") + f" (⌀ {layout.pawn_diameter_mm:g} mm)",
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
            side=(word(lang, "walls_start"), start, layout.board_mm),
        )
        rules_pages(pdf, rules_text(layout, lang), word(lang, "rules"))
        packer = Packer(
            pdf,
            [
                wall_blocks(pdf, layout, pieces_.of_kind("block"), options.gap),
                discs_block(pdf, "pawns", pieces_.of_kind("pawn"), options),
            ],
        )
        pdf.board_sheets(board, tiling, heading=word(lang, "board"), fill=packer.fill)
        packer.pages(heading=word(lang, "pieces"))

    return impose(
        layout, theme, options, drawings, tiling, pages=pages, subject=f"boardgen kit: {layout.id}, theme {theme.id}"
    )
