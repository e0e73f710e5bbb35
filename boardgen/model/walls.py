"""The moving-walls model (game D): a square board, wall blocks as polyominoes, four corners.

Cells are (row, col), 0-based, row 0 at the top. The board has an odd size; the white centre
is the `centre` x `centre` square in its middle. Colours sit in the corners clockwise from the
top-left (seat order); each colour's pawns start on the `corner` x `corner` square of its
corner. Blocks are quartered by rotation: block ``A<k>`` turned a quarter clockwise about the
board's centre is ``B<k>``, then ``C<k>``, then ``D<k>``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boardgen.data.loader import Document
from boardgen.data.strings import strings, word
from boardgen.errors import DataError, Problem
from boardgen.model.game import GameInfo, game_fields
from boardgen.model.sliding import spelt_out

Cell = tuple[int, int]
Shape = frozenset[Cell]

# The polyominoes a block may be, by name: one fixed orientation each (any rotation or
# mirror image of it is the same shape).
SHAPES: dict[str, tuple[Cell, ...]] = {
    "I2": ((0, 0), (0, 1)),
    "I3": ((0, 0), (0, 1), (0, 2)),
    "L3": ((0, 0), (1, 0), (1, 1)),
    "I4": ((0, 0), (0, 1), (0, 2), (0, 3)),
    "L4": ((0, 0), (1, 0), (2, 0), (2, 1)),
    "T4": ((0, 0), (0, 1), (0, 2), (1, 1)),
    "S4": ((0, 1), (0, 2), (1, 0), (1, 1)),
    "O4": ((0, 0), (0, 1), (1, 0), (1, 1)),
    "L5": ((0, 0), (1, 0), (2, 0), (3, 0), (3, 1)),
    "T5": ((0, 0), (0, 1), (0, 2), (1, 1), (2, 1)),
    "V5": ((0, 0), (1, 0), (2, 0), (2, 1), (2, 2)),
    "P5": ((0, 0), (0, 1), (1, 0), (1, 1), (2, 0)),
    "U5": ((0, 0), (0, 2), (1, 0), (1, 1), (1, 2)),
    "Z5": ((0, 0), (0, 1), (1, 1), (2, 1), (2, 2)),
    "N5": ((0, 0), (1, 0), (1, 1), (2, 1), (3, 1)),
    "Y5": ((0, 1), (1, 0), (1, 1), (2, 1), (3, 1)),
    "W5": ((0, 0), (1, 0), (1, 1), (2, 1), (2, 2)),
}

QUADRANTS = ("A", "B", "C", "D")  # top-left, top-right, bottom-right, bottom-left
COLOURS = ("red", "yellow", "green", "blue")  # corners clockwise from the top-left

# What "playable" means unless the layout's [playability] table says otherwise.
PLAYABILITY_DEFAULTS: dict[str, Any] = {
    "games_per_player_count": 40,
    "turn_cap": 400,
    "min_completion_rate": 0.9,
    "max_mean_rounds": 40,
    "max_p95_rounds": 80,
    "max_seat_gap": 0.3,
    "seat_gap_significance": 0.01,
    "stall_rounds": 15,
    "max_stall_rate": 0.5,
    "min_block_moves": 1,
    "min_start_distance": 3,
    "max_start_distance": 9,
}


def normalise(cells: frozenset[Cell] | tuple[Cell, ...]) -> Shape:
    """The cells moved so the smallest row and column are 0."""
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return frozenset((r - top, c - left) for r, c in cells)


def variants(cells: tuple[Cell, ...] | frozenset[Cell]) -> set[Shape]:
    """Every rotation and mirror image of a polyomino, normalised."""
    out = set()
    current = list(cells)
    for _ in range(4):
        current = [(c, -r) for r, c in current]
        out.add(normalise(tuple(current)))
        out.add(normalise(tuple((r, -c) for r, c in current)))
    return out


_SHAPE_OF: dict[Shape, str] = {v: name for name, cells in SHAPES.items() for v in variants(cells)}


def shape_name(cells: tuple[Cell, ...] | frozenset[Cell]) -> str | None:
    """The catalogue name of a polyomino, or None if it is not one of SHAPES."""
    return _SHAPE_OF.get(normalise(frozenset(cells)))


def is_connected(cells: frozenset[Cell]) -> bool:
    """Whether the cells form one piece through shared sides."""
    if not cells:
        return False
    start = next(iter(cells))
    seen = {start}
    todo = [start]
    while todo:
        r, c = todo.pop()
        for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(cells)


def rotate(cell: Cell, size: int) -> Cell:
    """A cell turned a quarter clockwise about the board's centre."""
    r, c = cell
    return c, size - 1 - r


@dataclass(frozen=True)
class Block:
    """One wall block: its label (quadrant letter and number), shape name and start cells."""

    id: str
    shape: str
    cells: tuple[Cell, ...]

    @property
    def label_cell(self) -> Cell:
        """The cell its label is printed on: the one nearest the block's middle."""
        mr = sum(r for r, _ in self.cells) / len(self.cells)
        mc = sum(c for _, c in self.cells) / len(self.cells)
        return min(self.cells, key=lambda rc: ((rc[0] - mr) ** 2 + (rc[1] - mc) ** 2, rc))

    @property
    def rows(self) -> int:
        return max(r for r, _ in self.cells) - min(r for r, _ in self.cells) + 1

    @property
    def cols(self) -> int:
        return max(c for _, c in self.cells) - min(c for _, c in self.cells) + 1


@dataclass(frozen=True)
class WallsLayout(GameInfo):
    """A validated moving-walls layout."""

    size: int
    pitch_mm: float
    border_mm: float
    centre_size: int
    corner_size: int
    pawns_per_player: int
    pawns_to_win: int
    colours: tuple[str, ...]  # clockwise from the top-left corner
    two_players: tuple[str, str]
    centre_push: bool
    player_counts: tuple[int, ...]
    block_count: int  # as declared; the static checks compare it with the blocks listed
    blocks: tuple[Block, ...]
    pawn_diameter_mm: float

    @property
    def board_mm(self) -> float:
        return self.size * self.pitch_mm + 2 * self.border_mm

    @property
    def centre(self) -> frozenset[Cell]:
        low = (self.size - self.centre_size) // 2
        span = range(low, low + self.centre_size)
        return frozenset((r, c) for r in span for c in span)

    def corner(self, colour: str) -> tuple[Cell, ...]:
        """The corner square of a colour, nearest the board's corner first."""
        index = self.colours.index(colour)
        k = self.corner_size
        cells = sorted(((r, c) for r in range(k) for c in range(k)), key=lambda rc: (rc[0] + rc[1], rc))
        for _ in range(index):
            cells = [rotate(cell, self.size) for cell in cells]
        return tuple(cells)

    def starts(self, colour: str) -> tuple[Cell, ...]:
        """Where a colour's pawns start."""
        return self.corner(colour)[: self.pawns_per_player]

    def seat_colours(self, players: int) -> tuple[str, ...]:
        """The colour of each seat, in turn order, for a number of players."""
        if players not in self.player_counts:
            raise ValueError(
                f"{self.id!r} is played by {' or '.join(map(str, self.player_counts))} players, not {players!r}"
            )
        if players == 2:
            return self.two_players
        return self.colours[:players]

    def block(self, block_id: str) -> Block:
        return next(b for b in self.blocks if b.id == block_id)


def build(doc: Document) -> WallsLayout:
    """Turn a schema-valid document into a model, collecting every consistency problem."""
    data = doc.data
    problems: list[Problem] = []
    board = data["board"]
    size = board["size"]
    centre_size = board.get("centre", 3)
    corner_size = board.get("corner", 2)
    if size % 2 == 0:
        problems.append(doc.problem(("board", "size"), f"the board needs a middle square: size {size} is even"))
    if centre_size % 2 == 0 or centre_size > size - 2 * corner_size - 2:
        problems.append(
            doc.problem(("board", "centre"), f"centre {centre_size} must be odd and leave room for the corners")
        )
    rules = data["rules"]
    per = rules.get("pawns_per_player", 4)
    to_win = rules.get("pawns_to_win", 3)
    if per > corner_size * corner_size:
        problems.append(
            doc.problem(
                ("rules", "pawns_per_player"), f"{per} pawns do not fit on a {corner_size}x{corner_size} corner"
            )
        )
    if to_win > per or to_win > centre_size * centre_size:
        problems.append(
            doc.problem(
                ("rules", "pawns_to_win"), f"{to_win} pawns to win is more than a player has or the centre holds"
            )
        )
    colours = tuple(rules.get("colours", COLOURS))
    two = tuple(rules.get("two_players", (colours[0], colours[2])))
    for i, colour in enumerate(two):
        if colour not in colours:
            problems.append(doc.problem(("rules", "two_players", i), f"{colour!r} is not one of {', '.join(colours)}"))
    if len(set(two)) != 2:
        problems.append(doc.problem(("rules", "two_players"), "the two players need two different colours"))
    game = data["game"]
    players = (game["players"]["min"], game["players"]["max"])
    if players[0] > players[1] or players[1] > len(colours):
        problems.append(
            doc.problem(("game", "players"), f"{players[0]}..{players[1]} players do not fit {len(colours)} corners")
        )
    counts = tuple(sorted(rules.get("player_counts", range(players[0], players[1] + 1))))
    if not all(players[0] <= n <= players[1] for n in counts):
        problems.append(
            doc.problem(("rules", "player_counts"), f"{list(counts)} is not within {players[0]}..{players[1]} players")
        )
    blocks = _read_blocks(doc, size, problems)
    pawn = float(data.get("pieces", {}).get("pawn_diameter_mm", round(board["pitch_mm"] * PAWN_SHARE, 1)))
    if pawn > board["pitch_mm"]:
        problems.append(
            doc.problem(
                ("pieces", "pawn_diameter_mm"),
                f"a {pawn:g} mm pawn does not fit a {board['pitch_mm']:g} mm square (board.pitch_mm)",
            )
        )
    if problems:
        raise DataError(problems)
    return WallsLayout(
        **game_fields(doc),
        size=size,
        pitch_mm=float(board["pitch_mm"]),
        border_mm=float(board.get("border_mm", 0)),
        centre_size=centre_size,
        corner_size=corner_size,
        pawns_per_player=per,
        pawns_to_win=to_win,
        colours=colours,
        two_players=(two[0], two[1]),
        centre_push=rules.get("centre_push", True),
        player_counts=counts,
        block_count=board.get("block_count", len(blocks)),
        blocks=blocks,
        pawn_diameter_mm=pawn,
        playability=dict(data.get("playability", {})),
    )


PAWN_SHARE = 0.93  # a pawn's diameter, of a square's side, unless the layout says: large enough to pick up


def _read_blocks(doc: Document, size: int, problems: list[Problem]) -> tuple[Block, ...]:
    """Each [[blocks]] entry: unique id, cells on the board, one connected shape as named."""
    out = []
    seen_ids: set[str] = set()
    owner: dict[Cell, str] = {}
    for i, item in enumerate(doc.data["blocks"]):
        key = ("blocks", i)
        block_id = item["id"]
        cells = tuple(tuple(cell) for cell in item["cells"])
        if block_id in seen_ids:
            problems.append(doc.problem(key + ("id",), f"block {block_id!r} is listed twice"))
        seen_ids.add(block_id)
        off = [list(c) for c in cells if not (0 <= c[0] < size and 0 <= c[1] < size)]
        if off:
            problems.append(
                doc.problem(key + ("cells",), f"block {block_id}: cells {off} are off the {size}x{size} board")
            )
            continue
        pairs = [(c[0], c[1]) for c in cells]
        if len(set(pairs)) != len(pairs):
            problems.append(doc.problem(key + ("cells",), f"block {block_id}: a cell is listed twice"))
            continue
        shape = frozenset(pairs)
        if not is_connected(shape):
            problems.append(doc.problem(key + ("cells",), f"block {block_id}: cells are not joined side to side"))
            continue
        named = shape_name(shape)
        if named != item["shape"]:
            what = f"an {named}" if named else "not a known shape"
            problems.append(
                doc.problem(key + ("shape",), f"block {block_id}: declared {item['shape']}, its cells are {what}")
            )
        for cell in pairs:
            if cell in owner:
                problems.append(
                    doc.problem(key + ("cells",), f"block {block_id} overlaps block {owner[cell]} at {list(cell)}")
                )
            owner[cell] = block_id
        out.append(Block(block_id, item["shape"], tuple(sorted(pairs))))
    return tuple(out)


def placement_problems(layout: WallsLayout) -> list[str]:
    """Where blocks may not start, the fair quartering, and the touching rule at the start
    (static checks of the playability report, not load errors: a layout breaking them still
    loads, so it can be drawn and studied)."""
    problems = []
    centre = layout.centre
    corners = {cell for colour in layout.colours for cell in layout.corner(colour)}
    by_id = {b.id: b for b in layout.blocks}
    occupied = {cell: b.id for b in layout.blocks for cell in b.cells}
    for block in layout.blocks:
        if centre & set(block.cells):
            problems.append(f"block {block.id} starts on the white centre")
        if corners & set(block.cells):
            problems.append(f"block {block.id} starts on a starting corner")
        halo = {(r + dr, c + dc) for r, c in block.cells for dr in (-1, 0, 1) for dc in (-1, 0, 1)}
        if not any(occupied.get(cell, block.id) != block.id for cell in halo):
            problems.append(f"block {block.id} touches no other block (side or corner) at the start")
        turned = tuple(sorted(rotate(cell, layout.size) for cell in block.cells))
        quadrant, number = block.id[:1], block.id[1:]
        if quadrant in QUADRANTS:
            partner = QUADRANTS[(QUADRANTS.index(quadrant) + 1) % 4] + number
            other = by_id.get(partner)
            if other is None or other.cells != turned:
                problems.append(
                    f"block {block.id} turned a quarter about the centre should be block {partner} "
                    f"at {[list(c) for c in turned]}"
                )
        else:
            problems.append(f"block {block.id}: ids are a quadrant letter A-D and a number")
    return problems


def rule_values(layout: WallsLayout, lang: str) -> dict[str, object]:
    """What the printed rules take from the layout (``{name}`` in layouts/rules/walls.*.md):
    counts (each also spelt out as ``<name>_word`` where `lang` has a word for it), the
    colours in playing order, the two-player colours and their corners, the block labels
    and the fewest pawn moves from a start to the centre that the check demands."""
    corners = strings(lang)["walls_corners"]
    colour = {c: word(lang, c).lower() for c in layout.colours}
    limits = {**PLAYABILITY_DEFAULTS, **layout.playability}
    values = spelt_out(
        {
            "size": layout.size,
            "blocks": len(layout.blocks),
            "per_quadrant": len(layout.blocks) // len(QUADRANTS),
            "pawns": layout.pawns_per_player * len(layout.colours),
            "per": layout.pawns_per_player,
            "to_win": layout.pawns_to_win,
            "centre": layout.centre_size,
            "corner": layout.corner_size,
            "corner_squares": layout.corner_size**2,
            "min_start": limits["min_start_distance"],
        },
        lang,
    )
    two = [(colour[c], corners[layout.colours.index(c)]) for c in layout.two_players]
    values.update(
        {
            "colours": ", ".join(colour[c] for c in layout.colours),
            "first_colour": colour[layout.colours[0]],
            "first_corner": corners[0],
            "two_a": two[0][0],
            "two_a_corner": two[0][1],
            "two_b": two[1][0],
            "two_b_corner": two[1][1],
            "first_label": layout.blocks[0].id,
            "last_label": layout.blocks[-1].id,
        }
    )
    return values
