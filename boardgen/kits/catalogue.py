"""The piece catalogue: every printable piece design of a kit, declared once by the kit where
it draws, and read by every output (the PDF's imposition, cut files, print-shop files, the
accessibility check, previews, virtual tables).

One `PieceDesign` per design: its id as ``--only`` takes it (``card:book``), its kind, its
drawing (SVG text and size), its trim outline inside the drawing, the bleed the drawing carries
round the trim, how many copies the game uses, the stock it is printed on and, for cards, the
design on its back. An output that needs another fact about a piece adds a field here; none
guesses it from file names or bytes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace

from boardgen.geometry import Outline
from boardgen.render.imposition import stock as page_stock
from boardgen.render.imposition import svg_size
from boardgen.render.svg import pieces

RECT = Outline()
# Every card's corner, home-cut and press die-cut alike (poker and mini cards are cut with
# 1/8 in, about 3 mm, corners).
CARD_CORNER_MM = 3.0


def card_outline(bleed: float) -> Outline:
    """A card's trim inside its drawing (`bleed` mm of art round it), with rounded corners."""
    return Outline("rounded", inset=bleed, radius=CARD_CORNER_MM)


@dataclass(frozen=True)
class Back:
    """The design printed on the back of a piece (the deck's card back)."""

    file: str
    svg: str


@dataclass(frozen=True)
class PieceDesign:
    """One printable piece design (see the module docstring). `key` is the design's key among
    its kind's drawings (what the PDF names its form after), `file` the name of its SVG in the
    kit's ``svg/`` folder without ``.svg``; `size` the drawing's size in mm, bleed included.
    `colour` is the player colour a pawn or wand belongs to ("" for none) and `marking` the
    short text printed on its face (a numbered pawn's number, a token's value; "" for none):
    what a 3D or tactile piece shows by shape and braille instead of by ink."""

    id: str
    kind: str
    name: str
    key: str
    file: str
    svg: str = field(repr=False)
    size: tuple[float, float]
    outline: Outline = RECT
    bleed: float = 0.0
    count: int = 1
    back: Back | None = None
    colour: str = ""
    marking: str = ""

    @property
    def stock(self) -> str:
        """'card' or 'paper': a score pad is written on, every other piece is cut from card."""
        return page_stock(self.kind)

    @property
    def trim(self) -> tuple[float, float]:
        """The trimmed piece's size, mm (a polygon's bounding box)."""
        return self.outline.trim(*self.size)

    @property
    def label(self) -> str:
        """The id without its kind: ``book`` for ``card:book``."""
        return self.id.partition(":")[2]


@dataclass(frozen=True)
class Catalogue:
    """The piece designs of one kit, in the order the kit prints them."""

    pieces: tuple[PieceDesign, ...]

    def __iter__(self) -> Iterator[PieceDesign]:
        return iter(self.pieces)

    def __len__(self) -> int:
        return len(self.pieces)

    def of_kind(self, *kinds: str) -> list[PieceDesign]:
        return [p for p in self.pieces if p.kind in kinds]

    def get(self, piece_id: str) -> PieceDesign:
        for p in self.pieces:
            if p.id == piece_id:
                return p
        raise KeyError(piece_id)

    @property
    def kinds(self) -> list[str]:
        return list(dict.fromkeys(p.kind for p in self.pieces))

    def copies(self, *kinds: str) -> int:
        """How many pieces the game uses (of these kinds; of every kind for none)."""
        return sum(p.count for p in self.pieces if not kinds or p.kind in kinds)


def designs(
    kind: str,
    drawn: Mapping[str, str],
    *,
    prefix: str = "",
    file_prefix: str = "",
    outline: Outline = RECT,
    bleed: float = 0.0,
    names: Mapping[str, str] | None = None,
    counts: Mapping[str, int] | None = None,
    back: Back | None = None,
    lower: bool = False,
    colours: Mapping[str, str] | None = None,
    markings: Mapping[str, str] | None = None,
) -> list[PieceDesign]:
    """The designs of one kind from a kit's drawings {key: svg}: each one's id is ``kind:`` and
    its key less `prefix` (lower-cased with `lower`), its file `file_prefix` + key; `names`,
    `counts`, `colours` and `markings` are by id without the kind (a name defaults to the id,
    a count to 1, a colour and a marking to none)."""
    out = []
    for key, svg in drawn.items():
        label = key.removeprefix(prefix)
        label = label.lower() if lower else label
        size = svg_size(svg)
        if size is None:  # every drawing of a kit is boardgen's own, sized in mm
            raise ValueError(f"the drawing of {kind}:{label} has no size in millimetres")
        out.append(
            PieceDesign(
                f"{kind}:{label}",
                kind,
                (names or {}).get(label, f"{kind} {label}"),
                key,
                file_prefix + key,
                svg,
                size,
                outline,
                bleed,
                (counts or {}).get(label, 1),
                back,
                (colours or {}).get(label, ""),
                (markings or {}).get(label, ""),
            )
        )
    return out


def single(kind: str, svg: str, name: str) -> PieceDesign:
    """A kit's one piece of a kind (``board:1``, ``score-pad:1``), its file named after the kind."""
    size = svg_size(svg)
    if size is None:
        raise ValueError(f"the drawing of {kind}:1 has no size in millimetres")
    return PieceDesign(f"{kind}:1", kind, name, kind, kind, svg, size)


def board(svg: str) -> PieceDesign:
    """The board, printed whole (tiled across sheets at home, one piece at a print shop)."""
    return single("board", svg, "board")


DISC = Outline("circle", inset=1.0)  # pieces.disc_svg draws 1 mm round the cut circle


def disc_designs(
    drawn: Mapping[str, str],
    *,
    prefix: str,
    names: Mapping[str, str],
    colours: Mapping[str, str] | None = None,
    markings: Mapping[str, str] | None = None,
) -> list[PieceDesign]:
    """Round pawns (``pawn:red-1``) drawn by pieces.disc_svg; their files keep the drawings' keys."""
    return designs("pawn", drawn, prefix=prefix, outline=DISC, names=names, colours=colours, markings=markings)


def die_designs(drawn: Mapping[str, str]) -> list[PieceDesign]:
    """Die nets (``die:1``) drawn by pieces.die_net_svg: cut on the cross with its glue tabs, the
    fold lines scored."""
    out = []
    for p in designs("die", drawn, prefix="die-", names={key.removeprefix("die-"): "die" for key in drawn}):
        points, folds = pieces.die_net_outline(pieces.die_net_face(p.size[1]))
        out.append(replace(p, outline=Outline("polygon", points=points, folds=folds)))
    return out


def numbered(colours: Iterable[str], count: int) -> tuple[dict[str, str], dict[str, str]]:
    """The colour and the number of each of `count` pieces of every colour, by id as the kits
    name them (``red-2``): the `colours` and `markings` of `designs`."""
    ids = {f"{colour}-{k}": (colour, str(k)) for colour in colours for k in range(1, count + 1)}
    return {i: c for i, (c, _) in ids.items()}, {i: k for i, (_, k) in ids.items()}


def back_design(cards: list[PieceDesign]) -> PieceDesign:
    """The deck's back as a design of its own (print shops take it as a face): the cards'
    size, outline and bleed, printed once for every card."""
    first = cards[0]
    assert first.back is not None, "every card has a back"
    return replace(
        first,
        id="card-back:1",
        kind="card-back",
        name="card back",
        key="back",
        file=first.back.file,
        svg=first.back.svg,
        count=sum(card.count for card in cards),
        back=None,
    )
