"""Lay out Le Grand Labyrinthe on a square grid, and write its layout file.

The board is a 13 x 13 grid. Its four 3 x 3 corners hold the peripheral labyrinths, each a
clockwise spiral of nine fields ending in its own centre, chained clockwise from the top
left; each spiral starts on the corner cell nearest the labyrinth before it. The other 133
cells (a plus shape) hold the central labyrinth, fields 1..83, and its walls (the 50 cells
no field uses). Field 83 is the middle cell. (On an 11 x 11 grid the 83 fields would fill
all but two cells, but a path ending in the middle cell cannot: the plus shape has one
cell too few of the middle cell's chessboard colour.)

The central path is found by a randomised depth-first search from 83 outwards (82, 81, ...
down to 1), like King Minos's board, with the milestones that make the arrows short as
constraints: field 1 on the left edge (the entrance), field 3 next to the first peripheral
labyrinth (the branch to I), and the blue fields 20, 40 and 60 next to the start of the
peripheral labyrinth they jump to. A field is only tried where every milestone still ahead
can be reached in the steps left (distance and grid parity), and where the free cells it can
reach hold the rest of the path with at most the spare cells left over.
"""

from __future__ import annotations

from typing import Any

from boardgen.data import toml_write
from boardgen.draws import Draws, for_purpose
from boardgen.generate.minos import GenerationError
from boardgen.model.grand import PLAYABILITY_DEFAULTS, ROMAN

Cell = tuple[int, int]

SIZE = 13
BLOCK = 3
CENTRAL = 83
BOARD_MM = 330.0  # whole board with its border: 2 x 2 sheets of A4 or Letter, seams on cell edges
BORDER_MM = 12.0

_STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))


def roman(number: int) -> str:
    """The Roman numeral of a peripheral field, 1..36."""
    return ROMAN[number - 1]


def corner_origins(size: int = SIZE) -> tuple[Cell, Cell, Cell, Cell]:
    """Top-left cells of the four corner blocks, clockwise from the top left."""
    far = size - BLOCK
    return (0, 0), (0, far), (far, far), (far, 0)


def _ring(origin: Cell) -> list[Cell]:
    """The eight outer cells of a 3 x 3 block, clockwise from its top-left cell."""
    r, c = origin
    return [(r, c), (r, c + 1), (r, c + 2), (r + 1, c + 2), (r + 2, c + 2), (r + 2, c + 1), (r + 2, c), (r + 1, c)]


def peripheral_cells(size: int = SIZE) -> list[Cell]:
    """Cells of peripheral fields I..XXXVI: four clockwise spirals ending in their centres,
    each starting on the cell of its block nearest the block before it (clockwise)."""
    far = size - BLOCK
    # Start cell of each block: TL left column bottom, TR top row left, BR right column top,
    # BL bottom row right; the index of that cell in the block's clockwise ring.
    starts = (6, 0, 2, 4)
    cells: list[Cell] = []
    for origin, start in zip(corner_origins(size), starts, strict=True):
        ring = _ring(origin)
        cells += ring[start:] + ring[:start]
        cells.append((origin[0] + 1, origin[1] + 1))
    assert far > BLOCK
    return cells


def in_block(cell: Cell, size: int = SIZE) -> bool:
    r, c = cell
    far = size - BLOCK
    return (r < BLOCK or r >= far) and (c < BLOCK or c >= far)


def _near(target: Cell, reach: int, size: int) -> frozenset[Cell]:
    return frozenset(
        (r, c)
        for r in range(size)
        for c in range(size)
        if not in_block((r, c), size) and abs(r - target[0]) + abs(c - target[1]) <= reach
    )


def milestones(size: int = SIZE) -> dict[int, frozenset[Cell]]:
    """Where some central fields must lie so the entrance and the arrows read well."""
    per = peripheral_cells(size)
    starts = [per[9 * k] for k in range(4)]
    left_edge = frozenset((r, 0) for r in range(BLOCK, size - BLOCK))
    return {
        1: left_edge,
        3: _near(starts[0], 2, size),
        20: _near(starts[1], 2, size),
        40: _near(starts[2], 2, size),
        60: _near(starts[3], 2, size),
    }


class _Search:
    """One randomised backtracking search with a node budget."""

    def __init__(self, size: int, rng: Draws, budget: int):
        self.size = size
        self.rng = rng
        self.budget = budget
        self.cells: dict[int, Cell] = {}
        self.used: set[Cell] = set()
        self.free_total = sum(1 for r in range(size) for c in range(size) if not in_block((r, c), size))
        self.marks = milestones(size)

    def is_free(self, cell: Cell) -> bool:
        r, c = cell
        return 0 <= r < self.size and 0 <= c < self.size and cell not in self.used and not in_block(cell, self.size)

    def run(self) -> dict[int, Cell] | None:
        centre = (self.size // 2, self.size // 2)
        self.cells[CENTRAL] = centre
        self.used.add(centre)
        return dict(self.cells) if self._place(CENTRAL - 1) else None

    def _place(self, field: int) -> bool:
        self.budget -= 1
        if self.budget < 0:
            return False
        if field == 0:
            return True
        last = self.cells[field + 1]
        options = [(last[0] + dr, last[1] + dc) for dr, dc in _STEPS]
        # Warnsdorff's rule blurred by noise: cells with fewer free neighbours tend to go
        # first (none gets cut off), but the path still wanders.
        options.sort(key=lambda cell: self._degree(cell) + 2.5 * self.rng.random())
        for cell in options:
            if not self.is_free(cell) or not self._fits(field, cell):
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

    def _degree(self, cell: Cell) -> int:
        return sum(self.is_free((cell[0] + dr, cell[1] + dc)) for dr, dc in _STEPS)

    def _fits(self, field: int, cell: Cell) -> bool:
        """This field's own milestone holds, and the ones still ahead can be reached."""
        mark = self.marks.get(field)
        if mark is not None and cell not in mark:
            return False
        for low, region in self.marks.items():
            if low >= field:
                continue
            steps = field - low
            if not any(
                abs(t[0] - cell[0]) + abs(t[1] - cell[1]) <= steps
                and (abs(t[0] - cell[0]) + abs(t[1] - cell[1])) % 2 == steps % 2
                and t not in self.used
                for t in region
            ):
                return False
        return True

    def _has_room(self, field: int, cell: Cell) -> bool:
        """The free cells reachable from here hold fields field-1..1, and no more free cells
        are cut off than the spare ones."""
        if field == 1:
            return True
        seen = {cell}
        stack = [cell]
        while stack:
            r, c = stack.pop()
            for dr, dc in _STEPS:
                nxt = (r + dr, c + dc)
                if nxt in seen or not self.is_free(nxt):
                    continue
                seen.add(nxt)
                stack.append(nxt)
        reachable = len(seen) - 1
        free = self.free_total - len(self.used)
        spare = free - (field - 1)
        return reachable >= field - 1 and free - reachable <= spare


def empty_cells(cells: dict[int, Cell], size: int = SIZE) -> set[Cell]:
    """Cells of the central area that no field uses: the labyrinth's walls."""
    used = set(cells.values())
    return {(r, c) for r in range(size) for c in range(size) if not in_block((r, c), size) and (r, c) not in used}


def openness(cells: dict[int, Cell], size: int = SIZE) -> tuple[int, int]:
    """How much of the board is wasted in open spaces: the largest patch of wall cells and
    the number of 2 x 2 squares of wall cells (lower reads more like a labyrinth)."""
    empty = empty_cells(cells, size)
    squares = sum(1 for r, c in empty if {(r + 1, c), (r, c + 1), (r + 1, c + 1)} <= empty)
    largest, seen = 0, set()
    for start in empty:
        if start in seen:
            continue
        seen.add(start)
        stack, patch = [start], 0
        while stack:
            r, c = stack.pop()
            patch += 1
            for dr, dc in _STEPS:
                nxt = (r + dr, c + dc)
                if nxt in empty and nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        largest = max(largest, patch)
    return largest, squares


def generate_cells(seed: int, size: int = SIZE, *, candidates: int = 40) -> dict[int, Cell]:
    """Central field number -> (row, col) for a path meeting every constraint: the one of
    `candidates` found paths whose walls are spread most evenly (see `openness`)."""
    if seed < 0:
        raise ValueError(f"seed must be 0 or more, got {seed!r}")
    rng = for_purpose(seed, f"generate grand {size}")
    found: list[dict[int, Cell]] = []
    for _attempt in range(100 * candidates):
        cells = _Search(size, rng, budget=4_000).run()
        if cells is not None:
            found.append(cells)
            if len(found) == candidates:
                break
    if not found:
        raise GenerationError(f"no {size}x{size} Grand Labyrinthe layout found for seed {seed!r}")
    return min(found, key=lambda cells: openness(cells, size))


SEQUENCES = (
    {"name": {"en": "Origin", "fr": "Origine"}, "colour": "blue", "central": [1, 20], "peripheral": ["I", "IX"]},
    {
        "name": {"en": "Science and Philosophy", "fr": "Science et Philosophie"},
        "colour": "green",
        "central": [21, 40],
        "peripheral": ["X", "XVIII"],
    },
    {"name": {"en": "Art", "fr": "Art"}, "colour": "red", "central": [41, 60], "peripheral": ["XIX", "XXVII"]},
    {
        "name": {"en": "Mythology", "fr": "Mythologie"},
        "colour": "yellow",
        "central": [61, 82],
        "peripheral": ["XXVIII", "XXXVI"],
    },
)

NAMES = {
    "1": {"en": "Rooster", "fr": "Coq"},
    "3": {"en": "Crossroads", "fr": "Carrefour"},
    "20": {"en": "Blue field", "fr": "Case bleue"},
    "40": {"en": "Blue field", "fr": "Case bleue"},
    "60": {"en": "Blue field", "fr": "Case bleue"},
    "29": {"en": "Drowning", "fr": "Noyade"},
    "30": {"en": "Drowning", "fr": "Noyade"},
    "74": {"en": "Möbius prison", "fr": "Prison de Möbius"},
    "79": {"en": "Petrified", "fr": "Pétrifié"},
    "83": {"en": "Minotaur’s lair", "fr": "Antre du Minotaure"},
    **{str(n): {"en": "Open field", "fr": "Case ouverte"} for n in (7, 12, 24, 34, 47, 54, 63, 72, 77)},
    **{str(n): {"en": "Pun", "fr": "Coq-à-l’âne"} for n in (11, 31, 53)},
    **{c: {"en": "Centre", "fr": "Centre"} for c in ("IX", "XVIII", "XXVII", "XXXVI")},
}


def _card(
    id: str, sequence: int, title: tuple[str, str], text: tuple[str, str], effect: dict[str, Any], count: int = 2
) -> dict[str, Any]:
    return {
        "id": id,
        "sequence": sequence,
        "count": count,
        "title": {"en": title[0], "fr": title[1]},
        "text": {"en": text[0], "fr": text[1]},
        "effect": effect,
    }


# The event deck: 16 cards in two copies each, four per coloured sequence. French text
# keeps its typography: a no-break space before : and », a narrow one before ; ! ? (the
# rules sheet's paragraphs use a plain no-break space there: the PDF layout breaks lines at
# a narrow one).
DECK = (
    _card(
        "first-light",
        1,
        ("First light", "Première lueur"),
        (
            "Dawn breaks over the labyrinth. Move forward 3 fields.",
            "L’aube se lève sur le labyrinthe. Avancez de 3 cases.",
        ),
        {"kind": "advance", "steps": 3},
    ),
    _card(
        "fire",
        1,
        ("Fire tamed", "Le feu apprivoisé"),
        ("Its light shows you the way. Roll the dice again.", "Sa lueur vous montre le chemin. Relancez les dés."),
        {"kind": "roll_again"},
    ),
    _card(
        "primeval-night",
        1,
        ("Primeval night", "La nuit des origines"),
        ("You lose your way in the dark. Move back 4 fields.", "Vous vous égarez dans le noir. Reculez de 4 cases."),
        {"kind": "back", "steps": 4},
    ),
    _card(
        "long-sleep",
        1,
        ("The long sleep", "Le long sommeil"),
        (
            "You doze off by the wall. Miss your next turn.",
            "Vous vous assoupissez contre le mur. Passez votre prochain tour.",
        ),
        {"kind": "lose_turns", "turns": 1},
    ),
    _card(
        "eureka",
        2,
        ("Eureka!", "Eurêka\u202f!"),
        (
            "A sudden idea lights up the maze. Move forward 6 fields.",
            "Une idée soudaine éclaire le dédale. Avancez de 6 cases.",
        ),
        {"kind": "advance", "steps": 6},
    ),
    _card(
        "lever",
        2,
        ("Archimedes’ lever", "Le levier d’Archimède"),
        (
            "Give me a place to stand… Change places with the pawn nearest the lair.",
            "Donnez-moi un point d’appui… Échangez votre place avec celle du pion le plus proche de l’antre.",
        ),
        {"kind": "swap_leader"},
    ),
    _card(
        "tortoise",
        2,
        ("Zeno’s tortoise", "La tortue de Zénon"),
        ("Will you ever catch it? Move back 2 fields.", "La rattraperez-vous jamais\u202f? Reculez de 2 cases."),
        {"kind": "back", "steps": 2},
    ),
    _card(
        "doubt",
        2,
        ("Socratic doubt", "Le doute de Socrate"),
        (
            "All you know is that you know nothing. Miss your next turn.",
            "Vous savez seulement que vous ne savez rien. Passez votre prochain tour.",
        ),
        {"kind": "lose_turns", "turns": 1},
    ),
    _card(
        "muse",
        3,
        ("The muse", "La muse"),
        ("Inspiration carries you along. Move forward 5 fields.", "L’inspiration vous porte. Avancez de 5 cases."),
        {"kind": "advance", "steps": 5},
    ),
    _card(
        "orpheus",
        3,
        ("Orpheus’ lyre", "La lyre d’Orphée"),
        (
            "His song calms the waters and opens the prison: every stuck pawn is freed.",
            "Son chant calme les eaux et ouvre la prison\u00a0: tous les pions bloqués sont libérés.",
        ),
        {"kind": "free_all"},
    ),
    _card(
        "sketch",
        3,
        ("Unfinished sketch", "L’esquisse inachevée"),
        ("Back to the drawing board. Move back 3 fields.", "Il faut reprendre l’ouvrage. Reculez de 3 cases."),
        {"kind": "back", "steps": 3},
    ),
    _card(
        "masterpiece",
        3,
        ("Masterpiece", "Le chef-d’œuvre"),
        ("The crowd cheers you on. Roll the dice again.", "La foule vous acclame. Relancez les dés."),
        {"kind": "roll_again"},
    ),
    _card(
        "ariadne",
        4,
        ("Ariadne’s thread", "Le fil d’Ariane"),
        ("Follow the thread. Move forward 8 fields.", "Suivez le fil. Avancez de 8 cases."),
        {"kind": "advance", "steps": 8},
    ),
    _card(
        "icarus",
        4,
        ("Icarus falls", "La chute d’Icare"),
        (
            "You flew too close to the sun. Move back 6 fields.",
            "Vous avez volé trop près du soleil. Reculez de 6 cases.",
        ),
        {"kind": "back", "steps": 6},
    ),
    _card(
        "sirens",
        4,
        ("The sirens", "Les sirènes"),
        (
            "Their song holds you spellbound. Miss your next turn.",
            "Leur chant vous envoûte. Passez votre prochain tour.",
        ),
        {"kind": "lose_turns", "turns": 1},
    ),
    _card(
        "pegasus",
        4,
        ("Pegasus", "Pégase"),
        (
            "The winged horse sets you down on field 61, ahead of you or behind.",
            "Le cheval ailé vous dépose sur la case 61, devant vous ou derrière.",
        ),
        {"kind": "goto", "field": "61"},
    ),
)

COMMENTS = {
    "board": "A size x size grid of pitch_mm cells plus a border: 330 mm, 2x2 sheets of A4 or Letter.",
    "race": (
        "Two dice; the chance that a player finds a pun (self-play only); exact_one_die: an exact "
        "count may use one die alone."
    ),
    "fields": "Central fields: number = [row, col]. Consecutive fields share a side; 83 is the centre.",
    "peripheral": "Peripheral fields: Roman numeral = [row, col]; nine per labyrinth, each ending in its centre.",
    "sequences": "The four coloured sequences; peripheral labyrinth k belongs to sequence k.",
    "branches": "Where a pawn moving on picks its way: at `at`, go on to one field of `to`.",
    "jumps": "Forced moves: a pawn ending its move on `from` goes on to `to` at once.",
    "specials": "What the fields do (see the rules sheet).",
    "names": "Names printed on the board and on the rules sheet.",
    "cards": "Card size and bleed: mini euro cards print 9 to a sheet of A4 or Letter.",
    "deck": "The 32 event cards: each effect is data the rules engine plays.",
    "playability": 'What "playable" means for this layout (read by `boardgen validate`).',
}


def _order(key: str) -> int:
    """Central fields by number, then peripheral ones."""
    return int(key) if key.isdigit() else 100 + ROMAN.index(key)


def generate(seed: int) -> dict[str, Any]:
    """Layout data (as a layout file holds it) for Le Grand Labyrinthe, deterministic for `seed`."""
    cells = generate_cells(seed)
    pitch = round((BOARD_MM - 2 * BORDER_MM) / SIZE, 2)
    return {
        "game": {
            "id": "grand",
            "engine": "grand",
            "title": {"en": "The Great Labyrinth", "fr": "Le Grand Labyrinthe"},
            "tagline": {
                "en": "From night to light: a race to the Minotaur’s lair",
                "fr": "De la nuit à la lumière\u00a0: une course jusqu’à l’antre du Minotaure",
            },
            "players": {"min": 2, "max": 4},
            "default_seed": 1,
            "rules": "grand",
        },
        "board": {"size": SIZE, "pitch_mm": pitch, "border_mm": BORDER_MM, "generator_seed": seed},
        "race": {"dice": 2, "pun_success": 0.5, "exact_one_die": True},
        "fields": {str(n): list(cells[n]) for n in sorted(cells)},
        "peripheral": {roman(k): list(cell) for k, cell in enumerate(peripheral_cells(), 1)},
        "sequences": [dict(s) for s in SEQUENCES],
        "branches": [
            {"at": "3", "to": ["4", "I"]},
            {"at": "IX", "to": ["X", "21"]},
            {"at": "XVIII", "to": ["XIX", "41"]},
            {"at": "XXVII", "to": ["XXVIII", "61"]},
        ],
        "jumps": [{"from": a, "to": b} for a, b in (("20", "X"), ("40", "XIX"), ("60", "XXVIII"), ("XXXVI", "82"))],
        "specials": {
            "exact": ["IX", "XVIII", "XXVII", "XXXVI", "83"],
            "cards": ["7", "12", "24", "34", "47", "54", "63", "72", "77"],
            "puns": ["11", "31", "53"],
            "drowning": ["29", "30"],
            "prison": ["74"],
            "petrified": ["79"],
            "rebirth": "1",
            "no_access": ["11", "19", "27"],
        },
        "names": dict(sorted(NAMES.items(), key=lambda kv: _order(kv[0]))),
        "cards": {"size": "mini-euro", "bleed_mm": 3.0},
        "deck": [dict(card) for card in DECK],
        "playability": dict(PLAYABILITY_DEFAULTS),
    }


def to_toml(data: dict[str, Any]) -> str:
    """Layout data as a commented layout file: one field or card per line or table."""
    return toml_write.document(
        data,
        comments=COMMENTS,
        header=(
            "Le Grand Labyrinthe: the race from night to light.",
            "Written by boardgen.generate.grand; topology and contents only, looks are themes.",
            'Cells are [row, col], 0-based, row 0 at the top. Fields are named "1".."83" and "I".."XXXVI".',
        ),
    )


def main(seed: int = 2) -> None:  # pragma: no cover - writes the bundled file
    from boardgen.data.loader import layouts_root

    (layouts_root() / "games" / "grand.toml").write_text(to_toml(generate(seed)), encoding="utf-8")


if __name__ == "__main__":  # pragma: no cover
    import sys

    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2)
