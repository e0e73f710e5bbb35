"""The kit of Labyrinthe Master: the sliding kit plus object tokens, recipes, wands, score pad."""

from __future__ import annotations

from dataclasses import dataclass

from boardgen.data.strings import noun, word
from boardgen.data.theme import Theme
from boardgen.kits import sliding
from boardgen.kits.cover import board_line, cover_page
from boardgen.kits.packing import Block, Packer, card_section, impose
from boardgen.kits.rules_text import interpretation_blocks, rules_blocks, rules_pages
from boardgen.kits.sliding import board_tiling as board_tiling  # cut like the sliding board
from boardgen.kits.sliding import piece_blocks
from boardgen.model.master import MasterLayout, Setup, rule_values
from boardgen.model.master import setup as setup
from boardgen.options import KitOptions, Summary
from boardgen.render.pdf import Form, PdfKit
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
# Reprints of single pieces (kits.reprint): these share the tiles' pages.
TILE_PAGE_PIECES = ("pawns", "tokens", "wands", "score_pad")


def recipe_id(index: int) -> str:
    return f"recipe-{index + 1:02d}"


def piece_ids(layout: MasterLayout) -> dict[str, dict[str, str]]:
    """Single pieces by id, as their SVG files are named: recipe cards and tiles by number."""
    cards = len(layout.fixed_recipes) if layout.fixed_recipes is not None else layout.recipe_cards
    return {"card": {recipe_id(i): f"recipe card {i + 1}" for i in range(cards)},
            "tile": sliding.tile_numbers(layout)}


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
        fronts={recipe_id(i): svg_master.recipe_svg(i, card, layout, theme, lang=lang)
                 for i, card in enumerate(start.recipes)},
        back=svg.card_back_svg(layout, theme, lang=lang),
        wands=wands,
        pawns={s.colour: pieces.pawn_svg(s.colour, layout.pawn_size_mm, theme, lang=lang)
               for s in layout.starts[:layout.players[1]]},
        score_pad=svg_master.score_pad_svg(layout, theme, lang=lang, width=SCORE_PAD_MM[0], height=SCORE_PAD_MM[1]),
    )


def build_pdf(layout: MasterLayout, theme: Theme, start: Setup, drawings: Drawings, options: KitOptions, *,
              summary: Summary) -> tuple[bytes, list[str]]:
    lang = options.lang
    tiling = board_tiling(layout, options)

    def pages(pdf: PdfKit, board: Form) -> None:
        setup_form = pdf.add_svg_form("Setup", drawings.setup)
        contents = [
            board_line(lang, tiling),
            word(lang, "count_line", count=len(layout.loose), what=noun(lang, "tiles")),
            word(lang, "count_line", count=len(drawings.tokens), what=noun(lang, "tokens"))
            + f" (⌀ {layout.token_diameter_mm:g} mm)",
            word(lang, "count_line", count=len(drawings.fronts), what=noun(lang, "recipes")),
            word(lang, "count_line", count=len(drawings.wands), what=noun(lang, "wands")),
            word(lang, "count_line", count=min(len(layout.starts), layout.players[1]), what=noun(lang, "pawns")),
            word(lang, "score_pad") + ", " + noun(lang, "rules"),
        ]
        cover_page(pdf, title=layout.title[lang], tagline=layout.tagline[lang], contents=contents, summary=summary,
                   board=board, tiling=tiling, options=options,
                   side=(word(lang, "setup", seed=start.seed), setup_form, layout.board_mm))
        tokens = [pdf.add_svg_form(f"Token-{k}", v) for k, v in drawings.tokens.items()]
        wands = [pdf.add_svg_form(f"Wand-{k}", v) for k, v in drawings.wands.items()]
        pad = [pdf.add_svg_form("Score-pad", drawings.score_pad)] if drawings.score_pad else []  # not in a reprint
        packer = Packer(pdf, piece_blocks(pdf, layout, drawings) + [
            Block(word(lang, "tokens"), tokens), Block(word(lang, "wands"), wands, turnable=True),
            Block(word(lang, "score_pad"), pad, scalable=True)])
        pdf.board_sheets(board, tiling, heading=word(lang, "board"), fill=lambda free: packer.fill(free, titles=False))
        # The rules next: the room their last page leaves takes pieces too.
        values = rule_values(layout, lang)
        blocks = (rules_blocks(layout.rules, lang, values, beside=layout.doc.path)
                  + interpretation_blocks("master", lang, values, layout=layout))
        for free in rules_pages(pdf, blocks, word(lang, "rules")):
            packer.fill(free)
        packer.pages(kind="tiles")
        recipes = [pdf.add_svg_form(f"Card-{k}", v) for k, v in drawings.fronts.items()]
        back = pdf.add_svg_form("Card-back", drawings.back)
        card_section(pdf, recipes, back, bleed=layout.bleed_mm, options=options, heading=word(lang, "recipes"))

    return impose(layout, theme, options, drawings, tiling, pages=pages,
                  subject=f"boardgen kit: {layout.id}, seed {start.seed}, theme {theme.id}")
