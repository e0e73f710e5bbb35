"""The kit of the moving-walls game: the four-sheet board with its outlines, the 32 wall
blocks to glue on card and cut out, 16 pawns, the rules."""

from __future__ import annotations

from dataclasses import dataclass

from boardgen.data.strings import noun, word
from boardgen.data.theme import Theme
from boardgen.errors import UsageError
from boardgen.kits.cover import board_line, cover_page
from boardgen.kits.packing import impose, pack_pieces
from boardgen.kits.rules_text import rules_blocks, rules_pages
from boardgen.model.walls import WallsLayout, rule_values
from boardgen.options import KitOptions, Summary
from boardgen.render.imposition import Rect, Tiling, paper, tile_board
from boardgen.render.pdf import Form, PdfKit
from boardgen.render.svg import pieces
from boardgen.render.svg import walls as svg

BLOCK_GAP_MM = 4.0  # between cut-out blocks: room for scissors


@dataclass
class Drawings:
    """Every SVG of a moving-walls kit, by file name (without .svg)."""

    board: str
    setup: str
    blocks: dict[str, str]
    pawns: dict[str, str]

    def files(self) -> dict[str, str]:
        return {"board": self.board, "setup": self.setup, **self.blocks, **self.pawns}


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
    return tile_board(layout.board_mm, layout.board_mm, paper(options.paper), options.margin, style=options.joint,
                      overlap=options.overlap, orientation=options.orientation, zones_x=zones, zones_y=zones)


def shelves(area: Rect, sizes: list[tuple[float, float]], gap: float) -> list[list[tuple[int, float, float]]]:
    """Pieces of different sizes in rows, left to right, in the given order, page after page:
    for each page, (index, x, y) of the top-left corner of each piece."""
    pages: list[list[tuple[int, float, float]]] = [[]]
    x, y, row_h = area.x, area.y, 0.0
    for index, (w, h) in enumerate(sizes):
        if w > area.w or h > area.h:
            raise UsageError(f"a {w:.0f} x {h:.0f} mm block does not fit the {area.w:.0f} x {area.h:.0f} mm "
                             "printable area: use larger paper or smaller margins")
        if x + w > area.right + 1e-9:
            x, y, row_h = area.x, y + row_h + gap, 0.0
        if y + h > area.bottom + 1e-9:
            pages.append([])
            x, y, row_h = area.x, area.y, 0.0
        pages[-1].append((index, x, y))
        x += w + gap
        row_h = max(row_h, h)
    return pages


def block_sheets(pdf: PdfKit, layout: WallsLayout, forms: list[Form], pawns: list[Form]) -> None:
    """The blocks at board scale, tallest first (fewer sheets of card; each carries its
    label), with the note on gluing them to card; the pawns below them if there is room."""
    lang = pdf.lang
    area = pdf.base_frame.content  # not the board's (maybe turned) frame
    note = [("li", word(lang, "walls_glue", pitch=f"{layout.pitch_mm:g}").replace("&", "&amp;").replace("<", "&lt;"))]
    room = pdf.measure(note, area.w, size=3.2) + 4
    inner = Rect(area.x, area.y + room, area.w, area.h - room)
    order = sorted(range(len(forms)), key=lambda i: (-forms[i].h, -forms[i].w, i))
    bottom = area.y
    for page in shelves(inner, [(forms[i].w, forms[i].h) for i in order], BLOCK_GAP_MM):
        pdf.new_page(word(lang, "walls_blocks"), kind="blocks")
        pdf.paragraphs(note, Rect(area.x, area.y, area.w, room), size=3.2)
        bottom = area.y
        for index, x, y in page:
            form = forms[order[index]]
            pdf.place(form, x, y)
            bottom = max(bottom, y + form.h)
    title = word(lang, "pawns")
    label_room, gap = 7.0, 3.0
    spare = Rect(area.x, bottom + 8.0 + label_room, area.w, area.bottom - bottom - 8.0 - label_room)
    per_row = int((spare.w + gap) // (pawns[0].w + gap))
    rows = -(-len(pawns) // max(per_row, 1))
    if per_row < 1 or rows * (pawns[0].h + gap) - gap > spare.h:
        pack_pieces(pdf, [(title, pawns, gap)], heading=title, kind="pawns")
        return
    pdf.text(title, area.x, spare.y - 2.5, size=3.4, weight="bold")
    for k, form in enumerate(pawns):
        row, col = divmod(k, per_row)
        pdf.place(form, spare.x + col * (form.w + gap), spare.y + row * (form.h + gap))


def build_pdf(layout: WallsLayout, theme: Theme, _setup: WallsLayout, drawings: Drawings, options: KitOptions, *,
              summary: Summary) -> tuple[bytes, list[str]]:
    lang = options.lang
    tiling = board_tiling(layout, options)

    def pages(pdf: PdfKit, board: Form) -> None:
        start = pdf.add_svg_form("Start", drawings.setup)
        contents = [
            board_line(lang, tiling),
            word(lang, "count_line", count=len(layout.blocks), what=noun(lang, "walls_blocks"))
            + f" ({layout.pitch_mm:g} mm)",
            word(lang, "count_line", count=len(drawings.pawns), what=noun(lang, "pawns"))
            + f" (⌀ {layout.pawn_diameter_mm:g} mm)",
            word(lang, "rules"),
        ]
        cover_page(pdf, title=layout.title[lang], tagline=layout.tagline[lang], contents=contents, summary=summary,
                   board=board, tiling=tiling, options=options,
                   side=(word(lang, "walls_start"), start, layout.board_mm))
        pdf.board_sheets(board, tiling, heading=word(lang, "board"))
        blocks = [pdf.add_svg_form(f"Block-{b.id}", drawings.blocks[f"block-{b.id}"]) for b in layout.blocks]
        discs = [pdf.add_svg_form(f"Pawn-{k}", v) for k, v in drawings.pawns.items()]
        block_sheets(pdf, layout, blocks, discs)
        text = rules_blocks(layout.rules, lang, rule_values(layout, lang), beside=layout.doc.path)
        rules_pages(pdf, text, word(lang, "rules"))

    return impose(layout, theme, options, drawings, tiling, pages=pages,
                  subject=f"boardgen kit: {layout.id}, theme {theme.id}")
