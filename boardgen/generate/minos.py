"""Lay the 61 fields of the King Minos labyrinth out on a square grid, and write layout files.

The path is found by a randomised depth-first search that starts at Elysium in the centre
and walks outwards, field 61 down to field 1, so that the hardest constraint (the goal in
the middle) is fixed first. Every other constraint prunes the search as soon as one end of
it is placed: the Knight's Orbit fields are knight moves apart, the Millstone fields form a
2x2 block whose diagonals are 44-50 and 45-51, and field 1 lies on the outer edge. A field
is only tried where the constraints that still wait for it can be met in the steps left,
and where the free cells it can reach can hold the rest of the path.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from boardgen.data import toml_write
from boardgen.draws import Draws, for_purpose
from boardgen.model.minos import PLAYABILITY_DEFAULTS

FIELDS = 61
ORBIT = (7, 46, 49, 52, 55, 34)
MILLSTONE = ((44, 50), (45, 51))
# The Millstone's two other sides: with these, 44-45-50-51 is a 2x2 block (a drawable
# stone) rather than any shape with the two diagonals.
MILLSTONE_SIDES = ((44, 51), (45, 50))
BOARD_MM = 320.0  # whole board incl. border: prints 2x2 on A4 and on Letter
BORDER_MM = 12.0
SIZES = (9, 11)

KNIGHT = frozenset({(1, 2), (2, 1)})
DIAGONAL = frozenset({(1, 1)})
SIDE = frozenset({(0, 1), (1, 0)})

_STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))


class GenerationError(RuntimeError):
    """No layout satisfying the constraints was found within the search budget."""


def _constraints() -> list[tuple[int, int, frozenset[tuple[int, int]]]]:
    pairs = [(a, b, KNIGHT) for a, b in pairwise(ORBIT)]
    pairs += [(a, b, DIAGONAL) for a, b in MILLSTONE]
    pairs += [(a, b, SIDE) for a, b in MILLSTONE_SIDES]
    return pairs


def _shape(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    dr, dc = abs(a[0] - b[0]), abs(a[1] - b[1])
    return (min(dr, dc), max(dr, dc))


def _offsets(shape: frozenset[tuple[int, int]]) -> list[tuple[int, int]]:
    out = []
    for small, big in shape:
        for dr, dc in ((small, big), (big, small)):
            for sr in (1, -1):
                for sc in (1, -1):
                    out.append((dr * sr, dc * sc))
    return sorted(set(out))


class _Search:
    """One randomised backtracking search with a node budget."""

    def __init__(self, size: int, rng: Draws, budget: int):
        self.size = size
        self.rng = rng
        self.budget = budget
        self.cells: dict[int, tuple[int, int]] = {}
        self.used: set[tuple[int, int]] = set()
        self.pending: dict[int, list[tuple[int, frozenset[tuple[int, int]]]]] = {}
        for a, b, shape in _constraints():
            # Fields are placed from 61 downwards, so the larger number is placed first.
            low, high = min(a, b), max(a, b)
            self.pending.setdefault(high, []).append((low, shape))
        self.checks: dict[int, list[tuple[int, frozenset[tuple[int, int]]]]] = {}
        for high, lows in self.pending.items():
            for low, shape in lows:
                self.checks.setdefault(low, []).append((high, shape))

    def on_board(self, cell: tuple[int, int]) -> bool:
        return 0 <= cell[0] < self.size and 0 <= cell[1] < self.size

    def is_edge(self, cell: tuple[int, int]) -> bool:
        return min(cell) == 0 or max(cell) == self.size - 1

    def run(self) -> dict[int, tuple[int, int]] | None:
        centre = (self.size // 2, self.size // 2)
        self.cells[FIELDS] = centre
        self.used.add(centre)
        return dict(self.cells) if self._place(FIELDS - 1) else None

    def _place(self, field: int) -> bool:
        self.budget -= 1
        if self.budget < 0:
            return False
        if field == 0:
            return self.is_edge(self.cells[1])
        last = self.cells[field + 1]
        options = [(last[0] + dr, last[1] + dc) for dr, dc in _STEPS]
        self.rng.shuffle(options)
        for cell in options:
            if not self.on_board(cell) or cell in self.used or not self._fits(field, cell):
                continue
            self.cells[field] = cell
            self.used.add(cell)
            if self._has_room(field, cell) and self._place(field - 1):
                return True
            del self.cells[field]
            self.used.discard(cell)
            if self.budget < 0:
                return False
        return False

    def _fits(self, field: int, cell: tuple[int, int]) -> bool:
        """The constraints this field closes hold, and the ones still open can be met."""
        for high, shape in self.checks.get(field, ()):
            if _shape(cell, self.cells[high]) not in shape:
                return False
        for low, high, shape in self._open(field):
            steps = field - low
            anchor = cell if high == field else self.cells[high]
            if not any(
                self.on_board(t) and t not in self.used and abs(t[0] - cell[0]) + abs(t[1] - cell[1]) <= steps
                for t in ((anchor[0] + dr, anchor[1] + dc) for dr, dc in _offsets(shape))
            ):
                return False
        to_edge = min(cell[0], cell[1], self.size - 1 - cell[0], self.size - 1 - cell[1])
        return to_edge <= field - 1

    def _open(self, field: int) -> list[tuple[int, int, frozenset[tuple[int, int]]]]:
        """Constraints whose high end is placed (or being placed) and whose low end is not."""
        return [
            (low, high, shape)
            for high, lows in self.pending.items()
            if high >= field
            for low, shape in lows
            if low < field
        ]

    def _has_room(self, field: int, cell: tuple[int, int]) -> bool:
        """The free cells reachable from here can hold fields field-1..1 and reach the edge."""
        if field == 1:
            return True
        seen = {cell}
        stack = [cell]
        edge = False
        while stack:
            r, c = stack.pop()
            for dr, dc in _STEPS:
                nxt = (r + dr, c + dc)
                if nxt in seen or not self.on_board(nxt) or nxt in self.used:
                    continue
                seen.add(nxt)
                edge = edge or self.is_edge(nxt)
                stack.append(nxt)
        return edge and len(seen) - 1 >= field - 1


def generate_cells(seed: int, size: int = 9) -> dict[int, tuple[int, int]]:
    """Field number -> (row, col) for a path satisfying every geometric constraint."""
    if size not in SIZES:
        raise ValueError(f"size must be one of {', '.join(map(str, SIZES))}, got {size!r}")
    if seed < 0:
        raise ValueError(f"seed must be 0 or more, got {seed!r}")
    rng = for_purpose(seed, f"generate minos {size}")
    # Many short searches beat one long one: a search that goes wrong early rarely recovers.
    for _attempt in range(500):
        found = _Search(size, rng, budget=1_000).run()
        if found is not None:
            return found
    raise GenerationError(f"no {size}x{size} layout found for seed {seed!r}")


def generate(seed: int, size: int = 9) -> dict[str, Any]:
    """Layout data (as a layout file holds it) for the King Minos game, deterministic for `seed`."""
    cells = generate_cells(seed, size)
    pitch = round((BOARD_MM - 2 * BORDER_MM) / size, 1)
    return {
        "game": {
            "id": "minos",
            "engine": "minos",
            "title": {"en": "The Labyrinth of King Minos", "fr": "Le Labyrinthe du roi Minos"},
            "tagline": {"en": "A race to Elysium", "fr": "Une course vers l’Élysée"},
            "players": {"min": 2, "max": 4},
            "default_seed": 1,
            "rules": "minos",
        },
        "board": {"size": size, "pitch_mm": pitch, "border_mm": BORDER_MM, "generator_seed": seed},
        "race": {"pieces_per_player": 4, "dice": 2, "entry_face": 1},
        "fields": {str(n): list(cells[n]) for n in sorted(cells)},
        "specials": {"sanctuaries": [1, 2, 3, 4, 5, 31, 58], "exact": [31, 58, 61]},
        "jumps": [{"from": a, "to": b} for a, b in ((6, 12), (18, 26), (21, 26), (42, 56))],
        "tunnels": [{"from": 52, "to": 7}, {"from": 59, "to": 47}],
        "lose_turns": [{"field": 13, "turns": 2}, {"field": 52, "turns": 2}],
        "orbit": {"fields": list(ORBIT), "name": {"en": "Knight’s Orbit", "fr": "Cercle du cavalier"}},
        "millstone": {"pairs": [list(p) for p in MILLSTONE], "name": {"en": "Millstone", "fr": "Meule"}},
        "names": {str(n): dict(name) for n, name in NAMES.items()},
        "pieces": {"pawn_height_mm": 24, "pawn_width_mm": 16},
        "playability": dict(PLAYABILITY),
    }


NAMES = {
    1: {"en": "Entrance", "fr": "Entrée"},
    6: {"en": "Open door", "fr": "Porte ouverte"},
    7: {"en": "Knight’s gate", "fr": "Porte du cavalier"},
    13: {"en": "Unlucky thirteen", "fr": "Treize de malheur"},
    18: {"en": "Stairway", "fr": "Escalier"},
    21: {"en": "Bridge", "fr": "Pont"},
    31: {"en": "Initiation", "fr": "Initiation"},
    34: {"en": "Knight’s gate", "fr": "Porte du cavalier"},
    42: {"en": "Winged sandals", "fr": "Sandales ailées"},
    52: {"en": "Knight’s trap", "fr": "Piège du cavalier"},
    58: {"en": "Threshold", "fr": "Seuil"},
    59: {"en": "Trapdoor", "fr": "Trappe"},
    61: {"en": "Elysium", "fr": "Élysée"},
}

PLAYABILITY = PLAYABILITY_DEFAULTS

COMMENTS = {
    "board": "Cells of pitch_mm plus a border: about 320 mm square, 2x2 sheets of A4 or Letter.",
    "race": "Pieces per player, dice, and the die face that brings a piece onto field 1.",
    "fields": "Field number = its cell. Consecutive fields share a side; the last is Elysium.",
    "specials": "Sanctuaries hold any number of pieces; exact-count fields are never passed.",
    "jumps": "Ending a count on `from` moves the piece on to `to` at once.",
    "tunnels": "Tunnels lead back; one out of a lose-turns field is taken after the lost turns.",
    "lose_turns": "A piece ending here sits out its owner's next `turns` turns.",
    "orbit": "The Knight's Orbit: consecutive fields are a chess knight's move apart.",
    "millstone": "Each pair is crossed diagonally: the two fields are diagonal neighbours.",
    "names": "Names printed on the board and on the rules sheet.",
    "playability": 'What "playable" means for this layout (read by `boardgen validate`).',
}


def to_toml(data: dict[str, Any]) -> str:
    """Write layout data as a commented layout file (field cells one per line)."""
    return toml_write.document(
        data,
        comments=COMMENTS,
        header=(
            "The Labyrinth of King Minos: a race to Elysium.",
            "Written by boardgen.generate.minos; topology and contents only, looks are themes.",
            "Cells are [row, col], 0-based, row 0 at the top.",
        ),
    )
