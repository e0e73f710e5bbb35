"""The sliding-corridor game model: a layout file turned into tiles, treasures and a seeded deal."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import cast

from boardgen.data.loader import Document
from boardgen.data.strings import strings, word
from boardgen.draws import Draws, below_of
from boardgen.errors import DataError, Problem
from boardgen.model.game import GameInfo, game_fields
from boardgen.model.tiles import Tile, mask_of, quarter_turns_between

CARD_SIZES = {
    "poker": (63.5, 88.9),
    "standard": (63.0, 88.0),
    "bridge": (57.2, 88.9),
    "tarot": (69.9, 120.7),
    "mini-us": (44.5, 63.5),
    "mini-euro": (44.0, 67.0),
    "square": (63.5, 63.5),
    "square-large": (88.9, 88.9),
}


@dataclass(frozen=True)
class Treasure:
    id: str
    name: dict[str, str]
    art: str


@dataclass(frozen=True)
class Start:
    colour: str
    at: tuple[int, int]


@dataclass(frozen=True)
class InsertionPoint:
    """Where the spare enters: side of the board it is pushed from, and the row/column index."""

    side: str  # "N": pushed down a column from the top; "W": pushed right along a row ...
    index: int

    @cached_property
    def opposite(self) -> InsertionPoint:
        """The point on the other end of the line (self-play asks for it every turn)."""
        return InsertionPoint({"N": "S", "S": "N", "E": "W", "W": "E"}[self.side], self.index)

    @property
    def label(self) -> str:
        return f"{self.side}{self.index}"


@dataclass(frozen=True)
class SlidingLayout(GameInfo):
    """A validated sliding-corridor game: everything the layout file declares."""

    size: int
    pitch_mm: float
    frame_mm: float
    sliding_lines: tuple[int, ...]
    starts: tuple[Start, ...]
    fixed: dict[tuple[int, int], Tile]
    loose: tuple[Tile, ...]
    treasures: tuple[Treasure, ...]
    deal: dict[int, int]
    card_size_mm: tuple[float, float]
    bleed_mm: float
    pawn_size_mm: tuple[float, float]

    @property
    def board_mm(self) -> float:
        return self.size * self.pitch_mm + 2 * self.frame_mm

    @property
    def insertion_points(self) -> tuple[InsertionPoint, ...]:
        points: list[InsertionPoint] = []
        for side in ("N", "E", "S", "W"):
            points.extend(InsertionPoint(side, i) for i in self.sliding_lines)
        return tuple(points)

    @cached_property
    def fixed_grid(self) -> tuple[Tile | None, ...]:
        """The fixed tile of each square, row by row, None where a loose tile goes."""
        return tuple(self.fixed.get((row, col)) for row in range(self.size) for col in range(self.size))

    @cached_property
    def free_squares(self) -> tuple[int, ...]:
        """The squares (row * size + col) that `deal` fills with loose tiles, in order."""
        return tuple(i for i, tile in enumerate(self.fixed_grid) if tile is None)

    @cached_property
    def turnings(self) -> tuple[tuple[Tile, ...], ...]:
        """Each loose tile turned 0 to 3 quarter turns clockwise (`deal` picks among them)."""
        return tuple(tuple(tile.turned(t) for t in range(4)) for tile in self.loose)

    @property
    def first_seat_fewer_cards(self) -> int:
        """The seat compensation ``[compensation] first_seat_fewer_cards``: the first player
        is dealt this many cards fewer (a rule: the rules sheet says it, the game deals it)."""
        return int(self.doc.data.get("compensation", {}).get("first_seat_fewer_cards", 0))

    def picture_keys(self) -> set[str]:
        """The treasures' pictures."""
        return {treasure.art for treasure in self.treasures}

    def treasure(self, treasure_id: str) -> Treasure:
        return next(t for t in self.treasures if t.id == treasure_id)

    @property
    def all_tiles(self) -> tuple[Tile, ...]:
        """Fixed tiles in board order, then the loose ones in inventory order."""
        return tuple(self.fixed[k] for k in sorted(self.fixed)) + self.loose


@dataclass(frozen=True)
class Deal:
    """A seeded starting board: a tile on every square plus the spare."""

    layout: SlidingLayout
    seed: int
    grid: tuple[tuple[Tile, ...], ...]
    spare: Tile

    def tile_at(self, row: int, col: int) -> Tile:
        return self.grid[row][col]


def build(doc: Document) -> SlidingLayout:
    """Turn a schema-valid document into a model, collecting every consistency problem."""
    data = doc.data
    problems: list[Problem] = []
    size = data["board"]["size"]
    shapes = {name: mask_of(sides) for name, sides in data["shapes"].items()}
    if size % 2 == 0:
        problems.append(doc.problem(("board", "size"), f"expected an odd size, got {size}"))

    treasures: list[Treasure] = []
    seen_ids: set[str] = set()
    for i, item in enumerate(data.get("treasures", [])):
        if item["id"] in seen_ids:
            problems.append(doc.problem(("treasures", i, "id"), f"duplicate treasure {item['id']!r}"))
        seen_ids.add(item["id"])
        treasures.append(Treasure(item["id"], item["name"], item.get("art", item["id"])))

    starts = tuple(Start(s["colour"], tuple(s["at"])) for s in data["board"]["starts"])
    for i, start in enumerate(starts):
        if not _on_board(start.at, size):
            problems.append(
                doc.problem(("board", "starts", i, "at"), f"{list(start.at)} is off the {size}x{size} board")
            )

    lines = tuple(data["board"]["sliding_lines"])
    for i, line in enumerate(lines):
        if not 0 <= line < size:
            problems.append(doc.problem(("board", "sliding_lines", i), f"line {line} is off the {size}x{size} board"))

    placed: dict[str, str] = {}  # treasure id -> where, to find duplicates

    def place(treasure_id: str, where: str, key: tuple[str | int, ...]) -> None:
        if treasure_id not in seen_ids:
            hint = _close(treasure_id, seen_ids)
            problems.append(doc.problem(key, f"unknown treasure {treasure_id!r}{hint}"))
        elif treasure_id in placed:
            problems.append(doc.problem(key, f"treasure {treasure_id!r} is already on {placed[treasure_id]}"))
        else:
            placed[treasure_id] = where

    fixed: dict[tuple[int, int], Tile] = {}
    start_colours = {s.colour for s in starts}
    for i, item in enumerate(data["tiles"]["fixed"]):
        key = ("tiles", "fixed", i)
        at = tuple(item["at"])
        if not _on_board(at, size):
            problems.append(doc.problem(key + ("at",), f"{list(at)} is off the {size}x{size} board"))
            continue
        if at in fixed:
            problems.append(doc.problem(key + ("at",), f"two fixed tiles on {list(at)}"))
        if at[0] in lines or at[1] in lines:
            problems.append(doc.problem(key + ("at",), f"fixed tile {list(at)} sits on a sliding line"))
        shape = item["shape"]
        mask = mask_of(item["open"])
        if shape not in shapes:
            problems.append(doc.problem(key + ("shape",), f"unknown shape {shape!r}{_close(shape, shapes)}"))
        elif quarter_turns_between(shapes[shape], mask) is None:
            problems.append(
                doc.problem(
                    key + ("open",), f"{item['open']!r} is not a rotation of shape {shape!r} ({data['shapes'][shape]})"
                )
            )
        if "treasure" in item:
            place(item["treasure"], f"fixed tile {list(at)}", key + ("treasure",))
        if "start" in item and item["start"] not in start_colours:
            problems.append(doc.problem(key + ("start",), f"no start of colour {item['start']!r} in board.starts"))
        fixed[at] = Tile(f"fixed-{at[0]}-{at[1]}", shape, mask, item.get("treasure"), item.get("start"), True)

    for i, start in enumerate(starts):
        tile = fixed.get(start.at)
        if tile is None or tile.start != start.colour:
            problems.append(
                doc.problem(
                    ("board", "starts", i, "at"),
                    f"start {start.colour!r} at {list(start.at)} has no fixed tile marked start = {start.colour!r}",
                )
            )

    loose: list[Tile] = []
    for i, group in enumerate(data["tiles"]["loose"]):
        key = ("tiles", "loose", i)
        shape = group["shape"]
        if shape not in shapes:
            problems.append(doc.problem(key + ("shape",), f"unknown shape {shape!r}{_close(shape, shapes)}"))
            continue
        carried = group.get("treasures", [])
        if len(carried) > group["count"]:
            problems.append(doc.problem(key + ("treasures",), f"{len(carried)} treasures for {group['count']} tiles"))
        for j, treasure_id in enumerate(carried):
            place(treasure_id, f"a loose {shape} tile", key + ("treasures", j))
        for j in range(group["count"]):
            treasure = carried[j] if j < len(carried) else None
            loose.append(Tile(f"tile-{len(loose) + 1:02d}", shape, shapes[shape], treasure))

    free = size * size - len(fixed)
    if len(loose) != free + 1:
        problems.append(
            doc.problem(
                ("tiles", "loose"), f"expected {free + 1} loose tiles ({free} free squares + 1 spare), got {len(loose)}"
            )
        )
    for i, treasure in enumerate(treasures):
        if treasure.id not in placed:
            problems.append(doc.problem(("treasures", i, "id"), f"treasure {treasure.id!r} is on no tile"))

    players = (data["game"]["players"]["min"], data["game"]["players"]["max"])
    deal = {int(k): v for k, v in data.get("deal", {}).items()}
    for count, cards in deal.items():
        if count * cards > len(treasures):
            problems.append(
                doc.problem(
                    ("deal", str(count)),
                    f"{count} players x {cards} cards needs {count * cards} cards, the deck has {len(treasures)}",
                )
            )
    for count in range(players[0], players[1] + 1):
        if treasures and count not in deal:
            problems.append(doc.problem(("deal",), f"no deal for {count} players"))
    if players[1] > len(starts):
        problems.append(doc.problem(("game", "players", "max"), f"{players[1]} players but {len(starts)} starts"))

    if problems:
        raise DataError(problems)
    cards = data.get("cards", {})
    size_spec = cards.get("size", "mini-euro")
    card_size = CARD_SIZES[size_spec] if isinstance(size_spec, str) else tuple(size_spec)
    pieces = data.get("pieces", {})
    return SlidingLayout(
        **game_fields(doc),
        size=size,
        pitch_mm=float(data["board"]["pitch_mm"]),
        frame_mm=float(data["board"].get("frame_mm", 0)),
        sliding_lines=lines,
        starts=starts,
        fixed=fixed,
        loose=tuple(loose),
        treasures=tuple(treasures),
        deal=deal,
        card_size_mm=card_size,
        bleed_mm=float(cards.get("bleed_mm", 3.0)),
        pawn_size_mm=(float(pieces.get("pawn_width_mm", 22)), float(pieces.get("pawn_height_mm", 45))),
        playability=dict(data.get("playability", {})),
    )


def deal(layout: SlidingLayout, seed: int) -> Deal:
    """Shuffle and turn the loose tiles onto the free squares; the last one is the spare.

    The draws of ``rng.shuffle(order)`` then ``rng.below(4)`` per tile, taken 64 at a time
    (`Draws.block`: each self-played game deals)."""
    rng = Draws(seed)
    count = len(layout.loose)
    raw: list[int] = []
    while len(raw) < 2 * count - 1:
        raw += rng.block()
    order = list(range(count))
    for step, i in enumerate(range(count - 1, 0, -1)):  # Draws.shuffle: Fisher-Yates from the end
        j = below_of(raw[step], i + 1)
        order[i], order[j] = order[j], order[i]
    turnings = layout.turnings
    pool = [turnings[i][below_of(draw, 4)] for i, draw in zip(order, raw[count - 1 :], strict=False)]
    flat = list(layout.fixed_grid)
    for square, tile in zip(layout.free_squares, pool, strict=False):
        flat[square] = tile
    size = layout.size
    grid = tuple(tuple(flat[row * size : (row + 1) * size]) for row in range(size))
    return Deal(layout, seed, cast(tuple[tuple[Tile, ...], ...], grid), pool[-1])


def rule_values(layout: SlidingLayout, lang: str) -> dict[str, object]:
    """What the printed rules say about this layout, for their ``{name}`` placeholders:
    ``size``, ``tiles`` (loose tiles, the spare included), ``treasures``, ``starts``,
    ``players_min``/``players_max``, ``deal_N`` (cards each with N players) and ``deal``,
    the whole deal as a phrase in `lang` ("12 each with 2 players, 8 each with 3"; with the
    seat compensation, "...; the first player is dealt one card fewer"). Each
    whole number up to twelve also comes spelt out as ``<name>_word``."""
    counts = [n for n in sorted(layout.deal) if layout.players[0] <= n <= layout.players[1]]
    values: dict[str, object] = {
        "size": layout.size,
        "tiles": len(layout.loose),
        "treasures": len(layout.treasures),
        "starts": len(layout.starts),
        "players_min": layout.players[0],
        "players_max": layout.players[1],
    }
    values.update({f"deal_{n}": cards for n, cards in sorted(layout.deal.items())})
    values["deal"] = word(lang, "list_sep").join(
        word(lang, "deal_first" if i == 0 else "deal_next", cards=layout.deal[n], players=n)
        for i, n in enumerate(counts)
    )
    fewer = layout.first_seat_fewer_cards
    if fewer:
        key = "deal_fewer_one" if fewer == 1 else "deal_fewer_many"
        values["deal"] = f"{values['deal']}{word(lang, key, fewer=fewer)}"
    return spelt_out(values, lang)


def spelt_out(values: dict[str, object], lang: str) -> dict[str, object]:
    """`values` plus ``<name>_word`` for every whole number that `lang` spells out."""
    words = strings(lang)["number_words"]
    spelt = {
        f"{k}_word": words[v]
        for k, v in values.items()
        if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < len(words)
    }
    return {**values, **spelt}


def _on_board(at: tuple[int, ...], size: int) -> bool:
    return len(at) == 2 and 0 <= at[0] < size and 0 <= at[1] < size


def _close(name: str, known: Iterable[str]) -> str:
    import difflib

    hint = difflib.get_close_matches(name, list(known), n=1)
    return f" (did you mean {hint[0]!r}?)" if hint else ""
