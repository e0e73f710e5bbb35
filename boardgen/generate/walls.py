"""A seeded generator of moving-walls block sets, and the layout file written from one.

Eight shapes are drawn from the catalogue (one domino, two trominoes, three tetrominoes, two
pentominoes, all different), each placed in the top-left quadrant and copied by quarter turns
about the centre into the three others, so every corner faces the same walls. Each block
after the first must touch an earlier one (by a side or a corner), none may lie on the centre
or a starting corner, and the result must be a labyrinth that is not sealed: from every
starting square the centre is between `min_start` and `max_start` pawn moves away with the
blocks as printed. Draws that fail are thrown away and drawn again.
"""

from __future__ import annotations

from dataclasses import dataclass

from boardgen.draws import Draws, for_purpose
from boardgen.model.walls import QUADRANTS, SHAPES, Block, Cell, rotate, variants
from boardgen.rules.walls import Geometry, distance

# How many shapes of each size a quadrant gets.
MIX = ((2, 1), (3, 2), (4, 3), (5, 2))
# The blocks (in placing order, biggest first) that need not touch an earlier one.
SEEDS = (0, 2, 5)


@dataclass(frozen=True)
class Generated:
    blocks: tuple[Block, ...]
    seed: int
    attempts: int
    start_distances: tuple[int, ...]  # pawn moves from each of one corner's start squares


def _orbit(cells: frozenset[Cell], size: int) -> list[frozenset[Cell]]:
    out = [cells]
    for _ in range(3):
        out.append(frozenset(rotate(c, size) for c in out[-1]))
    return out


def _halo(cells: frozenset[Cell]) -> set[Cell]:
    return {(r + dr, c + dc) for r, c in cells for dr in (-1, 0, 1) for dc in (-1, 0, 1)} - set(cells)


def generate(
    seed: int,
    *,
    size: int = 21,
    centre: int = 3,
    corner: int = 2,
    min_start: int = 3,
    max_start: int = 8,
    attempts: int = 5000,
) -> Generated:
    """A block set for a `size` board drawn from `seed`; raises ValueError if none fits."""
    rng = for_purpose(seed, "generate walls")
    mid = size // 2
    low = (size - centre) // 2
    forbidden = {(r, c) for r in range(low, low + centre) for c in range(low, low + centre)}
    corner_cells = frozenset((r, c) for r in range(corner) for c in range(corner))
    for cells in _orbit(corner_cells, size):
        forbidden |= cells
    geometry = Geometry.for_board(size, centre)
    starts = [geometry.bit(cell) for cell in sorted(corner_cells)]
    for attempt in range(1, attempts + 1):
        names = []
        for cell_count, how_many in MIX:
            names += rng.sample(sorted(n for n in SHAPES if len(SHAPES[n]) == cell_count), how_many)
        names.sort(key=lambda n: -len(SHAPES[n]))
        placed = _place(rng, names, size, mid, forbidden)
        if placed is None:
            continue
        walls = 0
        for cells, _ in placed:
            for copy in _orbit(cells, size):
                walls |= geometry.mask(sorted(copy))
        levels = geometry.levels(walls)
        far = tuple(distance(levels, bit) for bit in starts)
        if min(far) < min_start or max(far) > max_start:
            continue
        return Generated(_label(placed, size), seed, attempt, far)
    raise ValueError(f"no block set fits after {attempts} attempts (seed {seed})")


def _place(
    rng: Draws, names: list[str], size: int, mid: int, forbidden: set[Cell]
) -> list[tuple[frozenset[Cell], str]] | None:
    """Each shape somewhere in the top-left quadrant, touching an earlier block, or None."""
    taken: set[Cell] = set(forbidden)
    blocks: set[Cell] = set()
    placed: list[tuple[frozenset[Cell], str]] = []
    for name in names:
        options = sorted(variants(SHAPES[name]), key=sorted)
        for _ in range(400):
            shape = rng.choice(options)
            r0, c0 = rng.below(mid), rng.below(mid + 1)
            cells = frozenset((r0 + r, c0 + c) for r, c in shape)
            if not all(0 <= r < size and 0 <= c < size for r, c in cells):
                continue
            mr = sum(r for r, _ in cells) / len(cells) - mid
            mc = sum(c for _, c in cells) / len(cells) - mid
            if not (mr < 0 and mc <= 0):
                continue
            copies = _orbit(cells, size)
            everything = set().union(*copies)
            if len(everything) != 4 * len(cells) or everything & taken:
                continue
            # Three blocks start walls of their own anywhere (so the walls spread over the
            # board); the others grow from an earlier block, touching it.
            if len(placed) not in SEEDS and not _halo(cells) & blocks:
                continue
            taken |= everything
            blocks |= everything
            placed.append((cells, name))
            break
        else:
            return None
    for cells, _ in placed:
        others = blocks - set().union(*_orbit(cells, size)) | set().union(*_orbit(cells, size)[1:])
        if not _halo(cells) & others:
            return None
    return placed


def _label(placed: list[tuple[frozenset[Cell], str]], size: int) -> tuple[Block, ...]:
    """Blocks A1..A8 in the top-left quadrant (numbered in reading order), then B, C, D."""
    ordered = sorted(placed, key=lambda item: min(item[0]))
    out: list[Block] = []
    for turn, letter in enumerate(QUADRANTS):
        for number, (cells, name) in enumerate(ordered, start=1):
            copy = cells
            for _ in range(turn):
                copy = frozenset(rotate(c, size) for c in copy)
            out.append(Block(f"{letter}{number}", name, tuple(sorted(copy))))
    return tuple(out)


# The game's names, in every language it has.
TITLE = {"en": "The Moving Walls Labyrinth", "fr": "Le Jeu du Labyrinthe", "de": "Das Labyrinth der wandernden Mauern"}
TAGLINE = {
    "en": "Slide the walls, reach the white centre",
    "fr": "Déplacez les murs, gagnez le centre blanc",
    "de": "Verschiebe die Mauern, erreiche die weiße Mitte",
}


def _inline(texts: dict[str, str]) -> str:
    from boardgen.data import toml_write

    return toml_write.value(texts)


# Everything of a layout file but the blocks: the same for every seed.
HEAD = """# Le Jeu du Labyrinthe: walls that move on a 21 x 21 board.
# Topology and contents only, looks are themes. Cells are [row, col], 0-based, row 0 at the top.

[game]
id = "{id}"
engine = "walls"
title = {title}
tagline = {tagline}
players = {{ min = 2, max = 4 }}
default_seed = 1
rules = "walls"

# 21 x 21 squares of 15 mm plus a 12 mm border: 339 mm square, 2 x 2 sheets of A4 or Letter.
# The white centre is the middle 3 x 3; each colour's pawns start on the 2 x 2 of its corner.
[board]
size = 21
pitch_mm = 15.0
border_mm = 12.0
centre = 3
corner = 2
block_count = 32
generator_seed = {seed}

# The source leaves these open; boardgen decides (the rules sheet says the same):
# - colours sit clockwise from the top-left corner and play in that order; with two players,
#   red (top-left) plays green (bottom-right), the two other corners stay empty;
# - a block slides any number of free squares in one straight line and may stop on any of
#   them where it touches another block (side or corner); it never crosses a pawn, another
#   block or the white centre, so it can never end on a pawn;
# - a turn is one pawn slide and one block slide, in either order; a part that cannot be
#   played is skipped; the block the previous player moved stays put for one turn;
# - a pawn entering the centre from outside may stop on the first centre square holding a
#   pawn and push that pawn to any free centre square; with no free square there is no push.
[rules]
pawns_per_player = 4
pawns_to_win = 3
colours = ["red", "yellow", "green", "blue"]
two_players = ["red", "green"]
centre_push = true
player_counts = [2, 4]

[pieces]
pawn_diameter_mm = 14  # nearly a square (15 mm): a disc large enough to pick up and slide

# What "playable" means for this layout (read by `boardgen validate`).
[playability]
games_per_player_count = 24
turn_cap = 400
min_completion_rate = 0.9
max_mean_rounds = 40
max_p95_rounds = 80
max_seat_gap = 0.35
seat_gap_significance = 0.01
stall_rounds = 15
max_stall_rate = 0.5
min_block_moves = 1
min_start_distance = 3
max_start_distance = 8
min_branching = 20

"""


def to_toml(generated: Generated, *, game_id: str = "walls") -> str:
    """A whole layout file for a generated block set (the bundled walls.toml is one)."""
    return HEAD.format(seed=generated.seed, id=game_id, title=_inline(TITLE), tagline=_inline(TAGLINE)) + layout_text(
        generated
    )


def layout_text(generated: Generated) -> str:
    """The [[blocks]] tables of a layout file for a generated set."""
    lines = [
        f"# {len(generated.blocks)} blocks written by boardgen.generate.walls, seed {generated.seed}.",
        "# A<k> turned a quarter clockwise about the centre is B<k>, then C<k>, then D<k>.",
        "",
    ]
    for block in generated.blocks:
        cells = ", ".join(f"[{r}, {c}]" for r, c in block.cells)
        lines += ["[[blocks]]", f'id = "{block.id}"', f'shape = "{block.shape}"', f"cells = [{cells}]", ""]
    return "\n".join(lines)
