"""Sliding-corridor layouts of any odd size, grown from a bundled one (`boardgen generate classic`).

How a board of size N (odd, 5 to 13) is made from the source layout (classic's numbers in
brackets, for N = 7):
- fixed tiles stand on every square whose row and column are both even, (N+1)^2/4 of them
  [16]: the four corners are the start corners, open towards the board; the others on the
  edge are T-junctions closed towards the outside; the inner ones are T-junctions turned as
  a pinwheel (closed west in the upper left quarter, north in the upper right, east in the
  lower right, south in the lower left), as the classic board turns its four;
- rows and columns with odd numbers slide [1, 3, 5];
- loose tiles fill the other squares plus one spare, N^2 - (N+1)^2/4 + 1 [34], shared among
  the source's shapes in the source's proportions (largest remainder) [12 straight, 16
  corners, 6 T];
- treasures go on every fixed T-junction [12], on every loose T [6] and on the same share of
  loose corners as the source [6 of 16]; a smaller board puts treasures on more loose corners
  until it has as many as the source, where it can (a 5 x 5 board: 16), because short hunts
  turn into a race the first seat wins; names and pictures come from the source's treasures,
  then from the other bundled sliding games' pieces (classic and Labyrinthe Master together
  name 45), so a very large board may carry fewer treasures than it has T-junctions;
- each player is dealt the source's number of cards, or an equal share of the treasures if
  there are fewer [12, 8, 6];
- the solver's budget grows with the cube of the insertion points (`solver_budget`), so the
  four-turn hunts of a 13 x 13 board are found [200,000];
- a board smaller than 7 x 7 is for two or three players (with four, the first seat wins
  too often: see SMALL_FOR_FOUR);
- the pitch shrinks if needed so the board, frame included, stays within 378 mm (MAX_BOARD_MM):
  2 x 2 sheets of A4 or Letter where a seam may cross the middle (7 x 7), 3 x 2 on the larger
  boards, whose middle column is a fixed one that no seam may cross.
Everything else (game texts, frame, cards, pawns, playability thresholds) is the source's.
The result is checked like any layout: `boardgen validate FILE`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from boardgen.data import toml_write
from boardgen.data.loader import Document, layouts_root, load
from boardgen.errors import UsageError
from boardgen.rules.solver import DEFAULT_BUDGET

SIZES = range(5, 14, 2)
# Below this size the board is for two or three players: with four on a 5 x 5 board the seats
# win 0.34 / 0.33 / 0.20 / 0.12 of greedy self-play games (200 games, seed 1).
SMALL_FOR_FOUR = 7
POOL_SOURCES = ("classic", "master")
# The largest board side (frame included) that two sheets of A4 or Letter span with 8 mm margins.
MAX_BOARD_MM = 378.0
INWARD = {(0, 0): "ES", (0, 1): "WS", (1, 0): "NE", (1, 1): "NW"}


def _closed_to_open(closed: str) -> str:
    return "".join(side for side in "NESW" if side != closed)


def fixed_sides(row: int, col: int, size: int) -> str:
    """Open sides of the fixed tile at (row, col) on a board of `size`."""
    last = size - 1
    if row in (0, last) and col in (0, last):
        return INWARD[(row // last, col // last)]
    if row == 0:
        return _closed_to_open("N")
    if row == last:
        return _closed_to_open("S")
    if col == 0:
        return _closed_to_open("W")
    if col == last:
        return _closed_to_open("E")
    mid = last / 2
    up, left = row <= mid, col < mid
    if up and left:
        return _closed_to_open("W")
    if up:
        return _closed_to_open("N")
    if not left:
        return _closed_to_open("E")
    return _closed_to_open("S")


def share(total: int, weights: Sequence[int]) -> list[int]:
    """Split `total` in proportion to `weights` (largest remainder, ties to the first)."""
    whole = sum(weights)
    exact = [total * w / whole for w in weights]
    counts = [math.floor(x) for x in exact]
    order = sorted(range(len(weights)), key=lambda i: (-(exact[i] - counts[i]), i))
    for i in order[: total - sum(counts)]:
        counts[i] += 1
    return counts


def treasure_pool(source: Document) -> list[dict[str, Any]]:
    """Named pieces with bundled pictures: the source's treasures first, then the others'."""
    icons = {p.stem for p in (layouts_root() / "art" / "game-icons").glob("*.svg")}
    pool: list[dict[str, Any]] = []
    seen: set[str] = set()
    docs = [source] + [load("game", name) for name in POOL_SOURCES if name != source.data["game"]["id"]]
    for doc in docs:
        for entry in doc.data.get("treasures", []) + doc.data.get("objects", []):
            art = entry.get("art", entry["id"])
            if entry["id"] in seen or art not in icons:
                continue
            seen.add(entry["id"])
            item = {"id": entry["id"], "name": dict(entry["name"])}
            if art != entry["id"]:
                item["art"] = art
            pool.append(item)
    return pool


def check_size(size: int) -> None:
    if size not in SIZES:
        raise UsageError(f"--size must be an odd number from {SIZES[0]} to {SIZES[-1]}, got {size}")


def solver_budget(data: Mapping[str, Any], size: int) -> int:
    """The source's solver budget (boards per start/treasure pair) grown for `size`: with the
    cube of the insertion points, since a board has that many more boards three turns deep
    (the depth where a larger board's longest hunts are told apart from the fourth turn).
    200,000 for 7 x 7 becomes 474,000, 926,000 and 1,600,000 for 9, 11 and 13."""
    budget = int(data.get("playability", {}).get("solver_budget", DEFAULT_BUDGET))
    points = len(range(1, size, 2))
    source_points = len(data["board"]["sliding_lines"])
    return max(budget, int(round(budget * (points / source_points) ** 3, -3)))


def load_source(source_name: str, engine: str) -> Document:
    """The bundled layout a board is grown from; it must be of `engine`."""
    source = load("game", source_name)
    found = source.data["game"]["engine"]
    if found != engine:
        raise UsageError(f"generate grows {engine} layouts; {source_name} is a {found} game")
    return source


def grown_board(data: Mapping[str, Any], size: int, start_squares: Sequence[tuple[int, int]]) -> dict[str, Any]:
    """The source's [board] at `size`: the pitch shrunk to keep the board within MAX_BOARD_MM,
    every odd row and column sliding, the source's start colours (in reading order of their
    squares) moved to `start_squares`."""
    board = dict(data["board"])
    frame = float(board.get("frame_mm", 18))
    pitch = min(float(board["pitch_mm"]), math.floor((MAX_BOARD_MM - 2 * frame) / size))
    starts = sorted(data["board"]["starts"], key=lambda s: (s["at"][0], s["at"][1]))
    board.update(
        size=size,
        pitch_mm=pitch,
        sliding_lines=list(range(1, size, 2)),
        starts=[{"colour": s["colour"], "at": list(at)} for s, at in zip(starts, start_squares, strict=False)],
    )
    return board


def corners(size: int) -> list[tuple[int, int]]:
    last = size - 1
    return [(0, 0), (0, last), (last, 0), (last, last)]


def fixed_tile(row: int, col: int, size: int, shapes: Mapping[str, str]) -> dict[str, Any]:
    """The fixed tile on (row, col): a corner on the board's corners, a T-junction elsewhere,
    turned as `fixed_sides` says."""
    corner_shape = next(name for name, sides in shapes.items() if len(sides) == 2 and sides not in ("NS", "EW"))
    tee_shape = next(name for name, sides in shapes.items() if len(sides) == 3)
    shape = corner_shape if (row, col) in corners(size) else tee_shape
    return {"at": [row, col], "shape": shape, "open": fixed_sides(row, col, size)}


def fixed_squares(size: int) -> list[tuple[int, int]]:
    """Every square whose row and column are both even, in reading order."""
    return [(row, col) for row in range(0, size, 2) for col in range(0, size, 2)]


def loose_counts(data: Mapping[str, Any], size: int) -> list[int]:
    """How many loose tiles of each of the source's kinds: the free squares plus a spare,
    shared in the source's proportions."""
    total = size * size - len(fixed_squares(size)) + 1
    return share(total, [int(t["count"]) for t in data["tiles"]["loose"]])


def grown_copy(data: Mapping[str, Any], size: int) -> dict[str, Any]:
    """The source's data, its title saying the size; a board smaller than SMALL_FOR_FOUR is
    for two or three players. The caller replaces the tables it grows."""
    out: dict[str, Any] = {key: value for key, value in data.items() if key != "extends"}
    out["game"] = dict(data["game"])
    out["game"]["title"] = {lang: f"{text} {size}x{size}" for lang, text in data["game"]["title"].items()}
    if size < SMALL_FOR_FOUR:
        out["game"]["players"] = {"min": data["game"]["players"]["min"], "max": min(3, data["game"]["players"]["max"])}
    return out


def generate(source_name: str, size: int, seed: int) -> dict[str, Any]:
    """The layout data of a sliding game of `size` x `size` grown from `source_name`."""
    check_size(size)
    source = load_source(source_name, "sliding")
    data = source.data
    board = grown_board(data, size, corners(size))
    start_at = {tuple(s["at"]): s["colour"] for s in board["starts"]}

    # In the pool's order, the source's own treasures first: the seed only names the layout and
    # its default deal (a shuffle of a copy of the pool's tail stood here and changed nothing).
    names = iter(treasure_pool(source))
    used: list[dict[str, Any]] = []

    def take() -> str | None:
        item = next(names, None)
        if item is None:
            return None
        used.append(item)
        return str(item["id"])

    fixed = []
    for row, col in fixed_squares(size):
        entry = fixed_tile(row, col, size, data["shapes"])
        if (row, col) in start_at:
            entry["start"] = start_at[(row, col)]
        elif (row, col) not in corners(size):
            treasure = take()
            if treasure:
                entry["treasure"] = treasure
        fixed.append(entry)

    source_loose = data["tiles"]["loose"]
    counts = loose_counts(data, size)
    wanted = []
    for spec, count in zip(source_loose, counts, strict=True):
        carried = len(spec.get("treasures", []))
        wanted.append(count if carried == int(spec["count"]) else round(count * carried / int(spec["count"])))
    # A small board keeps the source's number of treasures where it can (short hunts are a
    # race that the first seat wins): loose tiles that already carry some carry more.
    goal = len(data["treasures"])
    for i, spec in enumerate(source_loose):
        if spec.get("treasures"):
            extra = max(0, min(counts[i] - wanted[i], goal - len(used) - sum(wanted)))
            wanted[i] += extra
    loose = []
    for spec, count, number in zip(source_loose, counts, wanted, strict=True):
        treasures = [t for t in (take() for _ in range(number)) if t]
        entry = {"shape": spec["shape"], "count": count}
        if treasures:
            entry["treasures"] = treasures
        loose.append(entry)

    deal = {key: min(int(value), len(used) // int(key)) for key, value in data["deal"].items()}
    out = grown_copy(data, size)
    if size < SMALL_FOR_FOUR:
        deal = {key: value for key, value in deal.items() if int(key) <= 3}
    out["board"] = board
    out["tiles"] = {"fixed": fixed, "loose": loose}
    out["treasures"] = used
    out["deal"] = deal
    out["playability"] = {**data.get("playability", {}), "solver_budget": solver_budget(data, size)}
    return out


def to_toml(data: Mapping[str, Any], header: str = "") -> str:
    """TOML text for layout data: sections, arrays of tables, inline tables for small maps."""
    return toml_write.document(data, header=header.splitlines(), nested=True)
