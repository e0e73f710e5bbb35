"""The kit of the King Minos race: the four-sheet mosaic board, pieces, dice, rules."""

from __future__ import annotations

from dataclasses import dataclass

from boardgen.data.strings import counted, word
from boardgen.data.theme import Theme
from boardgen.kits.catalogue import Catalogue, board, die_designs, disc_designs, numbered
from boardgen.kits.cover import board_line, cover_page
from boardgen.kits.packing import Packer, dice_block, discs_block, impose
from boardgen.kits.rules_text import interpretation_blocks, rules_blocks, rules_pages
from boardgen.model.minos import MinosLayout, rule_values
from boardgen.options import KitOptions, Summary
from boardgen.render.imposition import Tiling, paper, tile_board
from boardgen.render.pdf import Form, ImposedPdf, PdfKit
from boardgen.render.svg import pieces, race

COLOURS = ("red", "yellow", "green", "blue")
DIE_FACE_MM = 16.0


@dataclass
class Drawings:
    board: str
    discs: dict[str, str]
    dice: dict[str, str]

    @property
    def setup(self) -> str:
        """The picture previews show as 'the board'."""
        return self.board

    def files(self) -> dict[str, str]:
        return {"board": self.board, **self.discs, **self.dice}


def printed_numbers(layout: MinosLayout) -> dict[str, dict[str, str]]:
    """Pieces printed with a number other than their id (kits.reprint): none."""
    return {}


def catalogue(layout: MinosLayout, drawings: Drawings) -> Catalogue:
    """The board, every player's pieces (discs cut on a circle 1 mm inside the drawing) and the
    die nets."""
    ids = piece_ids(layout)
    colours, numbers = numbered(COLOURS[: layout.players[1]], layout.pieces_per_player)
    return Catalogue(
        (
            board(drawings.board),
            *disc_designs(drawings.discs, prefix="piece-", names=ids["pawn"], colours=colours, markings=numbers),
            *die_designs(drawings.dice),
        )
    )


def setup(layout: MinosLayout, seed: int) -> MinosLayout:
    """A race board has no seeded set-up: the seed only drives the self-play check."""
    return layout


def disc_diameter(layout: MinosLayout) -> float:
    return round(min(layout.pitch_mm * 0.68, 24.0), 1)


def draw(layout: MinosLayout, theme: Theme, _setup: MinosLayout, lang: str) -> Drawings:
    diameter = disc_diameter(layout)
    discs = {}
    for colour in COLOURS[: layout.players[1]]:
        for k in range(1, layout.pieces_per_player + 1):
            name = f"piece-{colour}-{k}"
            discs[name] = pieces.disc_svg(colour, str(k), diameter, theme, lang=lang, id=name)
    dice = {
        f"die-{k}": pieces.die_net_svg(DIE_FACE_MM, theme, lang=lang, id=f"die-{k}") for k in range(1, layout.dice + 1)
    }
    return Drawings(board=race.board_svg(layout, theme, lang=lang), discs=discs, dice=dice)


# The drawings of each kind of piece (kits.reprint): piece kind -> (Drawings field, key prefix).
PIECE_FIELDS = {"pawn": ("discs", "piece-"), "die": ("dice", "die-")}
EXTRA_PARTS: tuple[str, ...] = ()  # parts printed on pages of their own besides the usual ones


def piece_ids(layout: MinosLayout) -> dict[str, dict[str, str]]:
    """Single pieces by id (kits.reprint): the playing pieces by colour and number, the dice."""
    return {
        "pawn": {
            f"{colour}-{k}": f"{colour} piece {k}"
            for colour in COLOURS[: layout.players[1]]
            for k in range(1, layout.pieces_per_player + 1)
        },
        "die": {str(k): "die" for k in range(1, layout.dice + 1)},
    }


def seam_cuts(layout: MinosLayout, axis: str, position: float) -> str:
    """The fields a seam at this board position runs through, for the warning when no cell
    edge fits."""
    k = int((position - layout.border_mm) // layout.pitch_mm)
    if not 0 <= k < layout.size:
        return "the board's border"
    cells = [(row, k) if axis == "x" else (k, row) for row in range(layout.size)]
    numbers = [n for n in (layout.field_at(cell) for cell in cells) if n is not None]
    named = [f"{n} {layout.names[n]['en']}" for n in numbers if n in layout.names]
    line = "column" if axis == "x" else "row"
    return (
        f"the fields of {line} {k + 1} ({', '.join(map(str, numbers))}"
        + (f"; named: {', '.join(named)}" if named else "")
        + ")"
    )


def board_tiling(layout: MinosLayout, options: KitOptions) -> Tiling:
    track = layout.track
    return tile_board(
        track.width_mm,
        track.height_mm,
        paper(options.paper),
        options.margin,
        style=options.joint,
        overlap=options.overlap,
        orientation=options.orientation,
        zones_x=race.seam_zones(layout),
        zones_y=race.seam_zones_y(layout),
        describe=lambda axis, s: seam_cuts(layout, axis, s),
    )


def rules_text(layout: MinosLayout, lang: str) -> list[tuple[str, str]]:
    """The rules as the rules pages print them (headings, paragraphs, bullets): also the
    braille and large-print editions' text."""
    values = rule_values(layout, lang)
    return rules_blocks(layout.rules, lang, values, beside=layout.doc.path) + interpretation_blocks(
        "minos", lang, values, layout=layout
    )


def build_pdf(
    layout: MinosLayout,
    theme: Theme,
    _setup: MinosLayout,
    drawings: Drawings,
    pieces_: Catalogue,
    options: KitOptions,
    *,
    summary: Summary,
) -> ImposedPdf:
    lang = options.lang
    tiling = board_tiling(layout, options)

    def pages(pdf: PdfKit, board: Form) -> None:
        contents = [
            board_line(lang, tiling),
            counted(lang, len(drawings.discs), "pieces") + f" (⌀ {disc_diameter(layout):g} mm)",
            counted(lang, len(drawings.dice), "dice"),
            word(lang, "rules"),
        ]
        legend = [f"{n}: {layout.names[n][lang]}" for n in sorted(layout.names)]
        cover_page(
            pdf,
            title=layout.title[lang],
            tagline=layout.tagline[lang],
            contents=contents,
            summary=summary,
            board=board,
            tiling=tiling,
            options=options,
            side_lines=(word(lang, "special_fields"), legend),
        )
        rules_pages(pdf, rules_text(layout, lang), word(lang, "rules"))
        packer = Packer(
            pdf,
            [
                discs_block(pdf, "pieces", pieces_.of_kind("pawn"), options),
                dice_block(pdf, pieces_.of_kind("die"), options.gap),
            ],
        )
        pdf.board_sheets(board, tiling, heading=word(lang, "board"), fill=packer.fill)
        packer.pages(heading=word(lang, "pieces"))

    return impose(
        layout, theme, options, drawings, tiling, pages=pages, subject=f"boardgen kit: {layout.id}, theme {theme.id}"
    )
