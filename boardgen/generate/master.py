"""Labyrinthe Master layouts of any odd size, grown from the bundled one (`boardgen generate master`).

The board and its tiles grow as a classic board does (`sliding_generate`, whose pieces this
reuses); the Master's own parts then scale with the board. For a board of size N (odd, 5 to
13; the bundled master's numbers in brackets, for N = 7):
- fixed tiles on every square whose row and column are both even, (N+1)^2/4 of them [16],
  turned as the master board turns them (the same pinwheel as the classic board); none
  carries a picture: the objects are tokens;
- the pawns start in the middle, as on the master board: on the four fixed tiles nearest the
  centre on its diagonals [(2, 2) (2, 4) (4, 2) (4, 4)]; on 5 x 5 those are the corners;
- loose tiles fill the other squares plus one spare, N^2 - (N+1)^2/4 + 1 [34], in the
  source's proportions [12 straight, 16 corners, 6 T];
- the object tokens lie one per square on a patch grown from the centre, inside the outer
  ring, never on a start: whole symmetry classes at a time (a square with its quarter turns
  and mirrors about the centre, so every start, and with three players the two that face
  each other across the first, sees the same patch), nearest the centre first, stopping at
  the count closest to the master's density, 21 tokens on 49 squares (21 N^2 / 49), without
  going over 33, about half as many again as the master (every object is hunted in turn,
  so a game's length grows with them: a 13 x 13 board with 41 objects took 240 turns with
  two players) [21: the 5 x 5 square (1, 1)-(5, 5) less the starts]. Sizes 5 / 7 / 9 / 11 /
  13 get 9 / 21 / 33 / 33 / 33 tokens. A patch that is a rectangle less the starts is
  written as `area`, any other as the list `squares`;
- the objects are the master's in order of value, then (on a board with more than 21) the
  classic game's treasures shuffled by the seed; the last object (the one that ends the
  game, the master's mistletoe) is always the master's last, so a board with fewer than 21
  keeps the lowest ones and the mistletoe. Values run 1, 2, 3... and the last is worth 5
  more than the one before it, as the master's 25 follows its 20;
- one recipe card per object, each showing the master's `per_card` objects, each object on
  `per_object` cards [21 cards, 3 and 3];
- wands, scoring, cards, pawns and playability thresholds are the source's, except that the
  turn cap grows with the objects and the board's side, and the solver's budget with the
  cube of the insertion points; the token diameter shrinks with the pitch (25 mm on a 40 mm square);
- a board smaller than 7 x 7 is for two or three players, as for the classic board.
The result is checked like any layout: `boardgen validate FILE`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from boardgen.checks.sliding import DEFAULTS
from boardgen.draws import for_purpose
from boardgen.generate import sliding as grow

# At most about half as many objects again as the master's 21: see the docstring.
MOST_OBJECTS = 33
LAST_STEP = 5  # the last object is worth this much more than the one before it (25 after 20)


def start_squares(size: int) -> list[tuple[int, int]]:
    """The master's middle starts: the four fixed tiles nearest the centre on its diagonals
    ((2, 2) (2, 4) (4, 2) (4, 4) on 7 x 7; the board's corners on 5 x 5)."""
    middle = size // 2
    step = 2 if middle % 2 == 0 else 1
    low, high = middle - step, middle + step
    return [(low, low), (low, high), (high, low), (high, high)]


def token_squares(size: int, starts: Sequence[tuple[int, int]], wanted: float, most: int) -> list[tuple[int, int]]:
    """The token squares: inside the outer ring, never a start, grown from the centre outwards
    a whole symmetry class at a time (a square with its turns and mirrors about the centre, so
    every start, and every pair of starts, sees the same patch), stopping at the count nearest
    `wanted` that is at most `most`."""
    middle = size // 2
    taken = set(starts)
    orbits: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for r in range(1, size - 1):
        for c in range(1, size - 1):
            if (r, c) not in taken:
                dr, dc = sorted((abs(r - middle), abs(c - middle)))
                orbits.setdefault((dr, dc), []).append((r, c))
    chosen: list[tuple[int, int]] = []
    best: list[tuple[int, int]] = []
    for near, far in sorted(orbits, key=lambda k: (max(k), k[0] ** 2 + k[1] ** 2)):
        if len(chosen) + len(orbits[(near, far)]) > most:
            break
        chosen = chosen + orbits[(near, far)]
        if abs(len(chosen) - wanted) <= abs(len(best) - wanted):
            best = chosen
    return sorted(best)


def as_area(squares: Sequence[tuple[int, int]], starts: Sequence[tuple[int, int]]) -> list[list[int]] | None:
    """[[r0, c0], [r1, c1]] if the squares are exactly a rectangle less the starts in it."""
    rows, cols = [r for r, _ in squares], [c for _, c in squares]
    r0, r1, c0, c1 = min(rows), max(rows), min(cols), max(cols)
    box = {(r, c) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)} - set(starts)
    return [[r0, c0], [r1, c1]] if box == set(squares) else None


def objects(
    source: Mapping[str, Any], pool: Sequence[Mapping[str, Any]], count: int, seed: int
) -> list[dict[str, Any]]:
    """`count` objects valued 1, 2, ... with the source's last object last, worth LAST_STEP more."""
    own = sorted(source["objects"], key=lambda o: o["value"])
    last = next(o for o in own if o["id"] == source["scoring"]["last_object"])
    others = [o for o in own if o is not last]
    extra = [dict(item) for item in pool if item["id"] not in {o["id"] for o in own}]
    for_purpose(seed, "generate master objects").shuffle(extra)
    chosen = (others + extra)[: count - 1] + [last]
    out = []
    for value, item in enumerate(chosen, start=1):
        entry: dict[str, Any] = {"id": item["id"], "value": value, "name": dict(item["name"])}
        if item is last:
            entry["value"] = count - 1 + LAST_STEP
        if "art" in item:
            entry["art"] = item["art"]
        out.append(entry)
    return out


def generate(size: int, seed: int, source_name: str = "master") -> dict[str, Any]:
    """The layout data of a Labyrinthe Master game of `size` x `size`."""
    grow.check_size(size)
    source = grow.load_source(source_name, "master")
    data = source.data
    starts = start_squares(size)
    board = grow.grown_board(data, size, starts)
    start_at = {tuple(s["at"]): s["colour"] for s in board["starts"]}
    fixed = []
    for row, col in grow.fixed_squares(size):
        entry = grow.fixed_tile(row, col, size, data["shapes"])
        if (row, col) in start_at:
            entry["start"] = start_at[(row, col)]
        fixed.append(entry)
    loose = [
        {"shape": spec["shape"], "count": count}
        for spec, count in zip(data["tiles"]["loose"], grow.loose_counts(data, size), strict=True)
    ]

    source_size = int(data["board"]["size"])
    pool = grow.treasure_pool(source)
    wanted = len(data["objects"]) * size * size / source_size**2
    most = min(len(pool), MOST_OBJECTS)
    squares = token_squares(size, starts, wanted, most)
    count = len(squares)

    out = grow.grown_copy(data, size)
    out["board"] = board
    out["tiles"] = {"fixed": fixed, "loose": loose}
    diameter = float(data["tokens"].get("diameter_mm", 25.0))
    shrunk = float(round(diameter * board["pitch_mm"] / float(data["board"]["pitch_mm"])))
    area = as_area(squares, starts)
    out["tokens"] = {"area": area} if area is not None else {"squares": [list(square) for square in squares]}
    out["tokens"]["diameter_mm"] = min(diameter, shrunk)
    out["objects"] = objects(data, pool, count, seed)
    recipes = {key: value for key, value in data["recipes"].items() if key != "fixed"}
    recipes["cards"] = count * int(recipes["per_object"]) // int(recipes["per_card"])
    out["recipes"] = recipes
    out["playability"] = playability(data, size, count)
    return out


def playability(data: Mapping[str, Any], size: int, count: int) -> dict[str, Any]:
    """The source's thresholds, with room for the longer hunts of a larger board: the turn cap
    grows with the objects and the board's side, the solver's budget with the cube of the insertion
    points (`boardgen.generate.sliding.solver_budget`)."""
    source = dict(data.get("playability", {}))
    source_size = int(data["board"]["size"])
    growth = count / len(data["objects"]) * size / source_size
    cap = int(source.get("turn_cap", DEFAULTS["turn_cap"]))
    source["turn_cap"] = max(cap, math.ceil(cap * growth / 100) * 100)
    source["solver_budget"] = grow.solver_budget(data, size)
    return source


def how_it_scales() -> str:
    """One paragraph for the written file's header (the command's help says the same)."""
    return (
        "Fixed tiles on every square with two even coordinates; loose tiles in the master's "
        "proportions (12 straight : 16 corners : 6 T) for the free squares plus a spare; pawns on the "
        "four fixed tiles nearest the centre on its diagonals (the corners on 5x5); object tokens on a "
        "symmetric patch grown from the centre at the master's density (21 on 49 squares), at most 33: "
        "9/21/33/33/33 for sizes 5/7/9/11/13; valued 1, 2, ... with the mistletoe last, 5 more; one "
        "recipe card per object; the turn cap and the solver's budget grow with the board."
    )
