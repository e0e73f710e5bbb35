"""The kit of Labyrinthe Master: the sliding kit plus object tokens, recipes, wands, score pad."""

from __future__ import annotations

from dataclasses import dataclass

from boardgen.data.strings import counted, noun, noun_one, word
from boardgen.data.theme import Theme
from boardgen.geometry import Outline
from boardgen.kits import sliding
from boardgen.kits.catalogue import Catalogue, board, designs, numbered, single
from boardgen.kits.cover import board_line, cover_page
from boardgen.kits.packing import Block, Packer, card_section, impose, items
from boardgen.kits.rules_text import interpretation_blocks, rules_blocks, rules_pages
from boardgen.kits.sliding import board_tiling as board_tiling  # cut like the sliding board
from boardgen.kits.sliding import piece_blocks
from boardgen.model.master import MasterLayout, Setup, rule_values
from boardgen.model.master import setup as setup
from boardgen.options import KitOptions, Summary
from boardgen.render.pdf import Form, ImposedPdf, PdfKit
from boardgen.render.svg import master as svg_master
from boardgen.render.svg import pieces
from boardgen.render.svg import sliding as svg


@dataclass
class Drawings(sliding.Drawings):
    """The sliding kit's drawings (its card fronts are the recipe cards) plus the tokens,
    the wands and the score pad."""

    tokens: dict[str, str]
    wands: dict[str, str]
    score_pad: str

    def files(self) -> dict[str, str]:
        out = super().files()
        out["score-pad"] = self.score_pad
        out.update({f"token-{k}": v for k, v in self.tokens.items()})
        out.update(self.wands)
        return out


SCORE_PAD_MM = (170.0, 200.0)
# The drawings of each kind of piece (kits.reprint): piece kind -> (Drawings field, key prefix).
PIECE_FIELDS = {**sliding.PIECE_FIELDS, "token": ("tokens", ""), "wand": ("wands", "wand-")}
EXTRA_PARTS = ("score-pad",)  # printed on a paper page of its own


def recipe_id(index: int) -> str:
    return f"recipe-{index + 1:02d}"


def piece_ids(layout: MasterLayout) -> dict[str, dict[str, str]]:
    """Single pieces by id, as their SVG files are named: recipe cards and tiles by number,
    tokens by object, standees by colour, wands by colour and number."""
    cards = len(layout.fixed_recipes) if layout.fixed_recipes is not None else layout.recipe_cards
    return {
        "card": {recipe_id(i): f"recipe card {i + 1}" for i in range(cards)},
        "tile": sliding.tile_numbers(layout),
        "pawn": sliding.pawn_ids(layout),
        "token": {o.id: f"{o.name['en']} ({o.value})" for o in layout.by_value},
        "wand": {
            f"{s.colour}-{k}": f"{s.colour} wand {k}"
            for s in layout.starts[: layout.players[1]]
            for k in range(1, layout.wands_per_player + 1)
        },
    }


def printed_numbers(layout: MasterLayout) -> dict[str, dict[str, str]]:
    """The number printed on a piece whose id is not one (kits.reprint: `--only token:5`): the
    object tokens' values."""
    return {"token": {o.id: str(o.value) for o in layout.by_value}}


def catalogue(layout: MasterLayout, drawings: Drawings) -> Catalogue:
    """The sliding kit's board, tiles and standees, the object tokens (round, cut on a circle
    1 mm inside the drawing), the wands, the recipe cards with their back and the score pad."""
    ids = piece_ids(layout)
    colours, numbers = numbered([s.colour for s in layout.starts[: layout.players[1]]], layout.wands_per_player)
    pad = (single("score-pad", drawings.score_pad, "score pad"),) if drawings.score_pad else ()
    return Catalogue(
        (
            board(drawings.board),
            *sliding.sliding_pieces(layout, drawings, ids),
            *designs(
                "token",
                drawings.tokens,
                file_prefix="token-",
                outline=Outline("circle", inset=1.0),
                names=ids["token"],
                markings={o.id: str(o.value) for o in layout.by_value},
            ),
            *designs(
                "wand",
                drawings.wands,
                prefix="wand-",
                outline=Outline("rounded", radius=2.0),
                names=ids["wand"],
                colours=colours,
                markings=numbers,
            ),
            *sliding.card_designs(layout, drawings, ids),
            *pad,
        )
    )


def draw(layout: MasterLayout, theme: Theme, start: Setup, lang: str) -> Drawings:
    on_board = {square: (layout.object(o).art, str(layout.object(o).value)) for square, o in start.tokens.items()}
    wands = {}
    for s in layout.starts[: layout.players[1]]:
        for k in range(1, layout.wands_per_player + 1):
            wands[f"wand-{s.colour}-{k}"] = svg_master.wand_svg(s.colour, k, theme, lang=lang)
    return Drawings(
        board=svg.board_svg(layout, theme, lang=lang),
        setup=svg.board_svg(layout, theme, lang=lang, deal=start.deal, tokens=on_board),
        tiles={tile.id: svg.tile_svg(tile, layout, theme, lang=lang) for tile in layout.loose},
        tokens={o.id: svg_master.token_svg(o, layout, theme, lang=lang) for o in layout.by_value},
        fronts={
            recipe_id(i): svg_master.recipe_svg(i, card, layout, theme, lang=lang)
            for i, card in enumerate(start.recipes)
        },
        back=svg.card_back_svg(layout, theme, lang=lang),
        wands=wands,
        pawns={
            s.colour: pieces.pawn_svg(s.colour, layout.pawn_size_mm, theme, lang=lang)
            for s in layout.starts[: layout.players[1]]
        },
        score_pad=svg_master.score_pad_svg(layout, theme, lang=lang, width=SCORE_PAD_MM[0], height=SCORE_PAD_MM[1]),
    )


def rules_text(layout: MasterLayout, lang: str) -> list[tuple[str, str]]:
    """The rules as the rules pages print them (headings, paragraphs, bullets): also the
    braille and large-print editions' text."""
    values = rule_values(layout, lang)
    return rules_blocks(layout.rules, lang, values, beside=layout.doc.path) + interpretation_blocks(
        "master", lang, values, layout=layout
    )


def build_pdf(
    layout: MasterLayout,
    theme: Theme,
    start: Setup,
    drawings: Drawings,
    pieces_: Catalogue,
    options: KitOptions,
    *,
    summary: Summary,
) -> ImposedPdf:
    lang = options.lang
    tiling = board_tiling(layout, options)

    def pages(pdf: PdfKit, board: Form) -> None:
        setup_form = pdf.add_svg_form("Setup", drawings.setup)
        contents = [
            board_line(lang, tiling),
            counted(lang, len(layout.loose), "tiles"),
            counted(lang, len(drawings.tokens), "tokens") + f" (⌀ {layout.token_diameter_mm:g} mm)",
            counted(lang, len(drawings.fronts), "recipes"),
            counted(lang, len(drawings.wands), "wands"),
            counted(lang, min(len(layout.starts), layout.players[1]), "pawns"),
            word(lang, "score_pad") + ", " + noun(lang, "rules"),
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
        # Paper first (cover, rules, score pad), then card.
        rules_pages(pdf, rules_text(layout, lang), word(lang, "rules"))
        if drawings.score_pad:  # not in a reprint of other parts
            score_pad_page(pdf, pdf.add_svg_form("Score-pad", drawings.score_pad))
        tokens = items(pdf, pieces_.of_kind("token"), form_prefix="Token-")
        wands = items(pdf, pieces_.of_kind("wand"), form_prefix="Wand-")
        packer = Packer(
            pdf,
            piece_blocks(pdf, pieces_, options)
            + [
                Block(
                    noun(lang, "tokens"),
                    tokens,
                    gap=options.gap or 2.0,
                    marks=options.gap > 0,
                    one=noun_one(lang, "tokens"),
                ),
                Block(noun(lang, "wands"), wands, gap=options.gap or 2.0, turnable=True, one=noun_one(lang, "wands")),
            ],
        )
        pdf.board_sheets(board, tiling, heading=word(lang, "board"), fill=packer.fill)
        packer.pages(heading=word(lang, "pieces"))
        card_section(pdf, pieces_.of_kind("card"), options=options, what="recipes")

    return impose(
        layout,
        theme,
        options,
        drawings,
        tiling,
        pages=pages,
        subject=f"boardgen kit: {layout.id}, seed {start.seed}, theme {theme.id}",
    )


def score_pad_page(pdf: PdfKit, pad: Form) -> None:
    """The score pad on a paper page of its own, as large as the page allows (it is written on,
    not cut out)."""
    area = pdf.base_frame.content
    pdf.new_page(word(pdf.lang, "score_pad"), kind="score-pad")
    scale = min(1.0, area.w / pad.w, area.h / pad.h)
    x = area.x + (area.w - pad.w * scale) / 2
    pdf.place(pad, x, area.y, scale=scale)
    pdf.record(pad, x, area.y, piece="score-pad:1", outline=Outline(), scale=scale)
