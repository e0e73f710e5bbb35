"""A kit laid out on a table, as the checked start has it: where every piece of the catalogue
lies, in board millimetres (origin at the board's top-left corner, x to the right, y down), how
it is turned, and the points on the board a piece snaps to.

Read by the virtual-table exports (boardgen.export.tts). Every piece comes from the kit's
catalogue (its id, drawing and outline) and every position from the layout and the seeded
start the check played (the dealt tiles and their turns, Master's tokens, the walls blocks'
start cells, the pawns' starts, the deck in the order the seed deals it); nothing is read
from file names.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from boardgen.kits.catalogue import Catalogue, PieceDesign

Point = tuple[float, float]
GAP_MM = 12.0  # between the board and the pieces set out beside it, and between those


@dataclass(frozen=True)
class Placed:
    """One piece on the table: its design, the centre of its trim (board mm), quarter turns
    clockwise (as the deal turned a tile), whether it lies face down, and a word on where it is."""

    piece: PieceDesign
    at: Point
    turns: int = 0
    face_down: bool = False
    where: str = ""


@dataclass(frozen=True)
class Deck:
    """The cards of one deck, top card first, as the seed deals them, face down at `at`."""

    cards: tuple[PieceDesign, ...]  # one entry per copy, top first
    back: PieceDesign | None
    at: Point


@dataclass
class Table:
    """The whole start: the board (at the origin, unturned), the loose pieces, the decks and
    the snap points (board mm, every square or field)."""

    board: PieceDesign
    pieces: list[Placed] = field(default_factory=list)
    decks: list[Deck] = field(default_factory=list)
    snaps: list[Point] = field(default_factory=list)

    def copies(self) -> dict[str, int]:
        """How many times each piece id lies on the table (decks included)."""
        out: dict[str, int] = {self.board.id: 1}
        for placed in self.pieces:
            out[placed.piece.id] = out.get(placed.piece.id, 0) + 1
        for deck in self.decks:
            for card in deck.cards:
                out[card.id] = out.get(card.id, 0) + 1
        return out


class _Shelf:
    """Pieces set out beside the board in rows, right of it, from the top."""

    def __init__(self, left: float, top: float = 0.0, width: float = 260.0) -> None:
        self.left, self.x, self.y, self.width, self.row = left, left, top, width, 0.0

    def put(self, piece: PieceDesign) -> Point:
        w, h = piece.trim
        if self.x > self.left and self.x + w > self.left + self.width:
            self.x, self.y, self.row = self.left, self.y + self.row + GAP_MM / 2, 0.0
        centre = (self.x + w / 2, self.y + h / 2)
        self.x += w + GAP_MM / 2
        self.row = max(self.row, h)
        return centre

    def next_row(self) -> None:
        if self.x > self.left:
            self.x, self.y, self.row = self.left, self.y + self.row + GAP_MM, 0.0


def _by_key(pieces: Iterable[PieceDesign]) -> dict[str, PieceDesign]:
    return {p.key: p for p in pieces}


def _copies(piece: PieceDesign) -> list[PieceDesign]:
    return [piece] * piece.count


def table(build: Any) -> Table:
    """The start of a kit build (boardgen.kit.KitBuild) laid out on the table."""
    engine = build.plan.engine
    layout, setup, catalogue = build.plan.layout, build.setup, build.catalogue
    board = catalogue.get("board:1")
    out = Table(board)
    shelf = _Shelf(board.size[0] + GAP_MM)
    name = engine.name
    if name in ("sliding", "master"):
        deal = setup.deal if name == "master" else setup
        _sliding(out, layout, deal, catalogue, shelf)
        if name == "master":
            _master(out, layout, setup, catalogue, shelf)
    elif name == "walls":
        _walls(out, layout, catalogue)
    elif name in ("minos", "grand"):
        track = layout.track() if name == "grand" else layout.track  # a method there, a property here
        out.snaps = [node.shape.centre for node in track.nodes]
    placed = {p.piece.id for p in out.pieces}
    decked = {c.id for d in out.decks for c in d.cards}
    cards = catalogue.of_kind("card")
    if cards and not decked:
        order = _deck_order(engine, layout, setup, cards, build.plan.seed)
        back = cards[0].back
        out.decks.append(
            Deck(
                tuple(order),
                _back_piece(cards) if back else None,
                (-GAP_MM - max(c.trim[0] for c in cards) / 2, board.size[1] / 2),
            )
        )
        decked = {c.id for c in order}
    # Everything else the game uses (pawns not yet on the board, dice, wands, the score pad,
    # tokens left over) is set out beside the board, kind by kind.
    kind = ""
    for piece in catalogue:
        if piece.kind in ("board", "card-back") or piece.id in placed or piece.id in decked:
            continue
        if piece.kind != kind:
            shelf.next_row()
            kind = piece.kind
        for copy in _copies(piece):
            out.pieces.append(Placed(copy, shelf.put(copy), where="beside the board"))
    return out


def _back_piece(cards: list[PieceDesign]) -> PieceDesign:
    from boardgen.kits.catalogue import back_design

    return back_design(cards)


def _square(layout: Any, row: int, col: int, border: float) -> Point:
    return border + (col + 0.5) * layout.pitch_mm, border + (row + 0.5) * layout.pitch_mm


def _sliding(out: Table, layout: Any, deal: Any, catalogue: Catalogue, shelf: _Shelf) -> None:
    """Every loose tile on its square turned as dealt, the spare beside the board, the
    standees on their start squares; a snap point on every square."""
    from boardgen.model.tiles import quarter_turns_between

    tiles = _by_key(catalogue.of_kind("tile"))
    base = {tile.id: tile for tile in layout.loose}
    frame = layout.frame_mm
    out.snaps = [_square(layout, r, c, frame) for r in range(layout.size) for c in range(layout.size)]

    def turns(tile: Any) -> int:
        found = quarter_turns_between(base[tile.id].mask, tile.mask)
        assert found is not None, f"{tile.id} was dealt in a shape no turn gives"
        return found

    for row in range(layout.size):
        for col in range(layout.size):
            tile = deal.tile_at(row, col)
            if tile.fixed:
                continue
            out.pieces.append(
                Placed(tiles[tile.id], _square(layout, row, col, frame), turns(tile), where=f"square {row},{col}")
            )
    spare = deal.spare
    out.pieces.append(Placed(tiles[spare.id], shelf.put(tiles[spare.id]), turns(spare), where="the spare"))
    shelf.next_row()
    pawns = _by_key(catalogue.of_kind("pawn"))
    for start in layout.starts:
        if start.colour in pawns:
            out.pieces.append(
                Placed(
                    pawns[start.colour], _square(layout, start.at[0], start.at[1], frame), where=f"start {start.colour}"
                )
            )


def _master(out: Table, layout: Any, setup: Any, catalogue: Catalogue, shelf: _Shelf) -> None:
    """Master's tokens on the squares the seed put them on."""
    tokens = _by_key(catalogue.of_kind("token"))
    for (row, col), object_id in sorted(setup.tokens.items()):
        out.pieces.append(
            Placed(tokens[object_id], _square(layout, row, col, layout.frame_mm), where=f"token on {row},{col}")
        )


def _walls(out: Table, layout: Any, catalogue: Catalogue) -> None:
    """Every block on its start cells, every pawn on its start square."""
    border, pitch = layout.border_mm, layout.pitch_mm
    out.snaps = [_square(layout, r, c, border) for r in range(layout.size) for c in range(layout.size)]
    blocks = _by_key(catalogue.of_kind("block"))
    for block in layout.blocks:
        piece = blocks[f"block-{block.id}"]
        top = min(r for r, _ in block.cells)
        left = min(c for _, c in block.cells)
        xs = [x for x, _ in piece.outline.points]
        ys = [y for _, y in piece.outline.points]
        # The outline's top-left corner is the top-left corner of the block's first cells.
        x0, y0 = border + left * pitch - min(xs), border + top * pitch - min(ys)
        centre = (x0 + (min(xs) + max(xs)) / 2, y0 + (min(ys) + max(ys)) / 2)
        out.pieces.append(Placed(piece, centre, where=f"block on {top},{left}"))
    pawns = _by_key(catalogue.of_kind("pawn"))
    for colour in layout.colours:
        for k, (row, col) in enumerate(layout.starts(colour), start=1):
            key = f"pawn-{colour}-{k}"
            if key in pawns:
                out.pieces.append(Placed(pawns[key], _square(layout, row, col, border), where=f"start {colour}"))


def _deck_order(engine: Any, layout: Any, setup: Any, cards: list[PieceDesign], seed: int) -> list[PieceDesign]:
    """Every card the game uses, top first, in the order the rules shuffle them with the seed."""
    fronts = _by_key(cards)
    players = layout.players[0]
    if engine.name == "sliding":
        ids = [t.id for t in layout.treasures]
        engine.game(layout).deal_cards(ids, players, seed)  # shuffles `ids` in place, as a game does
        return [fronts[i] for i in ids]
    if engine.name == "master":
        from boardgen.kits.master import recipe_id
        from boardgen.rules.master import deal_recipes

        recipes = list(setup.recipes)
        left = list(range(len(recipes)))
        order = []
        for recipe in deal_recipes(recipes, len(recipes), seed):
            index = next(i for i in left if tuple(recipes[i]) == tuple(recipe))
            left.remove(index)
            order.append(fronts[recipe_id(index)])
        return order
    if engine.name == "grand":
        state = engine.game(layout).initial_state(players, seed)
        return [fronts[layout.card_ids[k]] for k in state.deck]
    return [copy for card in cards for copy in _copies(card)]
