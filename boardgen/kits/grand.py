"""The kit of Le Grand Labyrinthe: the four-sheet board, 32 event cards, pawns, dice, rules."""

from __future__ import annotations

from dataclasses import dataclass

from boardgen.data.strings import counted, word
from boardgen.data.theme import Theme
from boardgen.kits.catalogue import Back, Catalogue, board, card_outline, designs, die_designs, disc_designs
from boardgen.kits.cover import board_line, cover_page
from boardgen.kits.packing import Packer, card_section, dice_block, discs_block, impose
from boardgen.kits.rules_text import rules_blocks, rules_pages
from boardgen.model.grand import GrandLayout, label, rule_values
from boardgen.options import KitOptions, Summary
from boardgen.render.imposition import Tiling, paper, tile_board
from boardgen.render.pdf import Form, ImposedPdf, PdfKit
from boardgen.render.svg import grand, pieces

COLOURS = ("red", "yellow", "green", "blue")
DIE_FACE_MM = 16.0


@dataclass
class Drawings:
    board: str
    fronts: dict[str, str]
    back: str
    discs: dict[str, str]
    dice: dict[str, str]

    @property
    def setup(self) -> str:
        """The picture previews show as 'the board'."""
        return self.board

    def files(self) -> dict[str, str]:
        out = {"board": self.board, "card-back": self.back, **self.discs, **self.dice}
        out.update({f"card-{k}": v for k, v in self.fronts.items()})
        return out


# The drawings of each kind of piece (kits.reprint): piece kind -> (Drawings field, key prefix).
PIECE_FIELDS = {"card": ("fronts", ""), "pawn": ("discs", "pawn-"), "die": ("dice", "die-")}
EXTRA_PARTS: tuple[str, ...] = ()  # parts printed on pages of their own besides the usual ones


def piece_ids(layout: GrandLayout) -> dict[str, dict[str, str]]:
    """Single pieces by id (kits.reprint): the event cards, as their SVG files are named, the
    pawns by colour, the dice."""
    return {
        "card": {card.id: card.title["en"] for card in layout.deck},
        "pawn": {colour: f"{colour} pawn" for colour in COLOURS[: layout.players[1]]},
        "die": {"1": "die", "2": "die"},
    }


def printed_numbers(layout: GrandLayout) -> dict[str, dict[str, str]]:
    """Pieces printed with a number other than their id (kits.reprint): none."""
    return {}


def catalogue(layout: GrandLayout, drawings: Drawings) -> Catalogue:
    """The board, the pawns (discs cut on a circle 1 mm inside the drawing), the two die nets and
    the event cards, each design printed as many times as the deck holds it."""
    ids = piece_ids(layout)
    return Catalogue(
        (
            board(drawings.board),
            *disc_designs(drawings.discs, prefix="pawn-", names=ids["pawn"], colours={c: c for c in ids["pawn"]}),
            *die_designs(drawings.dice),
            *designs(
                "card",
                drawings.fronts,
                file_prefix="card-",
                outline=card_outline(layout.bleed_mm),
                bleed=layout.bleed_mm,
                names=ids["card"],
                counts={card.id: card.count for card in layout.deck},
                back=Back("card-back", drawings.back),
            ),
        )
    )


def setup(layout: GrandLayout, seed: int) -> GrandLayout:
    """Nothing is dealt on the board: the seed only shuffles the deck in self-play."""
    return layout


def disc_diameter(layout: GrandLayout) -> float:
    return round(min(layout.pitch_mm * 0.66, 20.0), 1)


def draw(layout: GrandLayout, theme: Theme, _setup: object, lang: str) -> Drawings:
    diameter = disc_diameter(layout)
    discs = {
        f"pawn-{colour}": pieces.disc_svg(colour, str(k), diameter, theme, lang=lang, id=f"pawn-{colour}")
        for k, colour in enumerate(COLOURS[: layout.players[1]], 1)
    }
    dice = {f"die-{k}": pieces.die_net_svg(DIE_FACE_MM, theme, lang=lang, id=f"die-{k}") for k in (1, 2)}
    fronts = {card.id: grand.card_face_svg(card, layout, theme, lang=lang) for card in layout.deck}
    return Drawings(
        board=grand.board_svg(layout, theme, lang=lang),
        fronts=fronts,
        back=grand.card_back_svg(layout, theme, lang=lang),
        discs=discs,
        dice=dice,
    )


def deck_blocks(layout: GrandLayout, lang: str) -> list[tuple[str, str]]:
    """The deck printed on the rules sheet, one line per card kind, from the layout data."""
    colon = "\u00a0:" if lang == "fr" else ":"
    lines = [
        (
            "li",
            f"<b>{_x(card.count)} × {_x(card.title[lang])}</b> "
            f"({_x(layout.sequences[card.sequence - 1].name[lang])}){colon} {_x(card.text[lang])}",
        )
        for card in layout.deck
    ]
    return [("h", word(lang, "deck_heading", count=len(layout.cards))), *lines]


def _x(value: object) -> str:
    """Escaped for a paragraph; a narrow no-break space becomes a plain one, which the PDF
    layout does not break a line at."""
    return str(value).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\u202f", "\u00a0")


def board_tiling(layout: GrandLayout, options: KitOptions) -> Tiling:
    zones = grand.seam_zones(layout)
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
        describe=lambda axis, s: grand.seam_cuts(layout, axis, s),
    )


def rules_text(layout: GrandLayout, lang: str) -> list[tuple[str, str]]:
    """The rules as the rules pages print them (headings, paragraphs, bullets): also the
    braille and large-print editions' text."""
    return rules_blocks(layout.rules, lang, rule_values(layout, lang), beside=layout.doc.path) + deck_blocks(
        layout, lang
    )


def build_pdf(
    layout: GrandLayout,
    theme: Theme,
    _setup: object,
    drawings: Drawings,
    pieces_: Catalogue,
    options: KitOptions,
    *,
    summary: Summary,
) -> ImposedPdf:
    lang = options.lang
    tiling = board_tiling(layout, options)

    def pages(pdf: PdfKit, board: Form) -> None:
        (cw, ch) = layout.card_size_mm
        contents = [
            board_line(lang, tiling),
            counted(lang, len(layout.cards), "event_cards") + f" ({cw:g} × {ch:g} mm)",
            counted(lang, len(drawings.discs), "pawns") + f" (⌀ {disc_diameter(layout):g} mm)",
            counted(lang, len(drawings.dice), "dice"),
            word(lang, "rules"),
        ]
        colon = "\u00a0:" if lang == "fr" else ":"
        groups: dict[str, list[int]] = {}
        for n in sorted(layout.names, key=layout.index):
            groups.setdefault(layout.names[n][lang], []).append(n)
        legend = [f"{', '.join(label(n) for n in fields)}{colon} {name}" for name, fields in groups.items()]
        legend += [
            f"{s.name[lang]}{colon} {s.central[0]}–{s.central[1]}, {label(s.peripheral[0])}–{label(s.peripheral[1])}"
            for s in layout.sequences
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
            side_lines=(word(lang, "special_fields"), legend),
        )
        rules_pages(pdf, rules_text(layout, lang), word(lang, "rules"))
        packer = Packer(
            pdf,
            [
                discs_block(pdf, "pawns", pieces_.of_kind("pawn"), options),
                dice_block(pdf, pieces_.of_kind("die"), options.gap),
            ],
        )
        pdf.board_sheets(board, tiling, heading=word(lang, "board"), fill=packer.fill)
        packer.pages(heading=word(lang, "pieces"))
        # Each card kind is printed as many times as the deck holds it.
        card_section(pdf, pieces_.of_kind("card"), options=options, what="event_cards")

    return impose(
        layout, theme, options, drawings, tiling, pages=pages, subject=f"boardgen kit: {layout.id}, theme {theme.id}"
    )
