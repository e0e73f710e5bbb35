"""The King Minos race model: a layout file turned into fields, cells, special fields and links.

King Minos writes its board as cells of a square grid, numbered along one path; `MinosLayout`
keeps that reading (and its checks), and `MinosLayout.track` is the same board as the race
engine's track graph (`boardgen.model.race`), which the rules and the drawing work from.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from itertools import pairwise
from typing import Any

from boardgen.data.loader import Document
from boardgen.data.strings import strings, word
from boardgen.errors import DataError, Problem
from boardgen.model import race
from boardgen.model.game import GameInfo, game_fields
from boardgen.model.race import Effect, Grid, Link, Node, Shape, TrackGraph

# What a field can be; the renderer draws one mark per kind.
ENTRANCE, GOAL = "entrance", "goal"
SANCTUARY, EXACT = "sanctuary", "exact"
JUMP, TUNNEL, LOSE_TURNS = "jump", "tunnel", "lose-turns"
ORBIT, MILLSTONE = "orbit", "millstone"
KINDS = (ENTRANCE, GOAL, SANCTUARY, EXACT, JUMP, TUNNEL, LOSE_TURNS, ORBIT, MILLSTONE)

Cell = tuple[int, int]

# What "playable" means for a race layout unless its [playability] table says otherwise;
# the generator writes these into new layout files.
PLAYABILITY_DEFAULTS: dict[str, Any] = {
    "games_per_player_count": 500,
    "turn_cap": 1000,
    "min_completion_rate": 0.98,
    "max_mean_rounds": 60,
    "max_p95_rounds": 90,
    "max_seat_gap": 0.15,
    "seat_gap_significance": 0.01,
    "min_visits": 1,
}


__all__ = [
    "Link",
    "MinosLayout",
    "Field",
    "build",
    "geometry_problems",
    "PLAYABILITY_DEFAULTS",
    "Cell",
    "KINDS",
    "ENTRANCE",
    "GOAL",
    "SANCTUARY",
    "EXACT",
    "JUMP",
    "TUNNEL",
    "LOSE_TURNS",
    "ORBIT",
    "MILLSTONE",
]


@dataclass(frozen=True)
class Field:
    """One numbered field: its cell, what it does (see KINDS) and its printed name."""

    number: int
    cell: Cell
    kinds: tuple[str, ...]
    name: dict[str, str] | None


@dataclass(frozen=True)
class MinosLayout(GameInfo):
    """A validated race layout: where each field is and what it does."""

    size: int
    pitch_mm: float
    border_mm: float
    pieces_per_player: int
    dice: int
    entry_face: int
    cells: dict[int, Cell]  # field number -> (row, col)
    sanctuaries: frozenset[int]
    exact: tuple[int, ...]
    jumps: dict[int, int]
    tunnels: dict[int, int]
    lose_turns: dict[int, int]  # field -> turns lost
    orbit: tuple[int, ...]
    millstone: tuple[tuple[int, int], ...]
    names: dict[int, dict[str, str]]
    pawn_size_mm: tuple[float, float]

    @property
    def goal(self) -> int:
        """Elysium: the last field, where pieces are borne off."""
        return len(self.cells)

    @property
    def entrance(self) -> int:
        return 1

    @property
    def board_mm(self) -> float:
        return self.size * self.pitch_mm + 2 * self.border_mm

    @property
    def fields(self) -> tuple[Field, ...]:
        return tuple(Field(n, self.cells[n], self.kinds(n), self.names.get(n)) for n in range(1, self.goal + 1))

    def kinds(self, number: int) -> tuple[str, ...]:
        """Every kind of a field, in the order of KINDS."""
        found = {
            ENTRANCE: number == self.entrance,
            GOAL: number == self.goal,
            SANCTUARY: number in self.sanctuaries,
            EXACT: number in self.exact,
            JUMP: number in self.jumps,
            TUNNEL: number in self.tunnels,
            LOSE_TURNS: number in self.lose_turns,
            ORBIT: number in self.orbit,
            MILLSTONE: any(number in pair for pair in self.millstone),
        }
        return tuple(kind for kind in KINDS if found[kind])

    @property
    def links(self) -> tuple[Link, ...]:
        """Jumps, tunnels, Orbit hops (in Orbit order) and Millstone diagonals."""
        out = [Link(JUMP, a, b) for a, b in self.jumps.items()]
        out += [Link(TUNNEL, a, b) for a, b in self.tunnels.items()]
        out += [Link(ORBIT, a, b) for a, b in pairwise(self.orbit)]
        out += [Link(MILLSTONE, a, b) for a, b in self.millstone]
        return tuple(out)

    @property
    def entrance_side(self) -> str:
        """The board edge (N, E, S or W) that pieces enter field 1 from: on a corner, the
        side facing away from field 2."""
        (row, col), (next_row, next_col) = self.cells[1], self.cells[2]
        last = self.size - 1
        sides = [side for side, on in (("N", row == 0), ("E", col == last), ("S", row == last), ("W", col == 0)) if on]
        away = {"N": next_row > row, "S": next_row < row, "W": next_col > col, "E": next_col < col}
        return next((side for side in sides if away[side]), sides[0] if sides else "S")

    def field_at(self, cell: Cell) -> int | None:
        """The field on a cell, or None for a wall cell."""
        return next((n for n, c in self.cells.items() if c == cell), None)

    def is_delayed_tunnel(self, field: int) -> bool:
        """A tunnel out of a lose-turns field is taken only after the turns are lost."""
        return field in self.tunnels and field in self.lose_turns

    def forced(self) -> dict[int, int]:
        """Moves a piece makes at once on landing: jumps and tunnels not behind lost turns."""
        out = dict(self.jumps)
        out.update({a: b for a, b in self.tunnels.items() if not self.is_delayed_tunnel(a)})
        return out

    def cell_shape(self, cell: Cell) -> Shape:
        """The square of a grid cell on the board, in mm."""
        row, col = cell
        pitch, border = self.pitch_mm, self.border_mm
        return Shape((border + (col + 0.5) * pitch, border + (row + 0.5) * pitch), (pitch, pitch))

    @property
    def grid(self) -> Grid:
        """How the board is drawn: cells of a square grid, walls between non-consecutive ones."""
        return Grid(self.size, self.pitch_mm, self.border_mm, self.entrance_side)

    @cached_property
    def track(self) -> TrackGraph:
        """The board as the race engine's track graph: field n is node n, followed by n + 1
        and preceded by n - 1, on its grid cell, with its sanctuary, exact count, jump,
        tunnel and lost turns as effects (the Orbit and the Millstone are the game's own)."""
        effects: dict[int, list[Effect]] = {n: [] for n in self.cells}
        for n in sorted(self.sanctuaries):
            effects[n].append(Effect(race.SANCTUARY))
        for n in self.exact:
            effects[n].append(Effect(race.EXACT))
        for a, b in self.jumps.items():
            effects[a].append(Effect(race.JUMP, to=b))
        for a, b in self.tunnels.items():
            effects[a].append(Effect(race.TUNNEL, to=b))
        for n, turns in self.lose_turns.items():
            effects[n].append(Effect(race.LOSE_TURNS, turns=turns))
        goal = self.goal
        nodes = tuple(
            Node(
                n,
                str(n),
                str(n),
                self.cell_shape(self.cells[n]),
                (n + 1,) if n < goal else (),
                n - 1,
                tuple(effects[n]),
                "earth" if n <= goal // 2 else "sky",
                self.names.get(n),
            )
            for n in range(1, goal + 1)
        )
        return TrackGraph(nodes, self.entrance, goal, self.board_mm, self.board_mm)


def build(doc: Document) -> MinosLayout:
    """Turn a schema-valid document into a model, collecting every consistency problem."""
    data = doc.data
    problems: list[Problem] = []
    board = data["board"]
    size = board["size"]

    cells = _read_cells(doc, size, problems)
    count = max(cells)

    def exists(number: int, key: tuple[Any, ...]) -> bool:
        if 1 <= number <= count:
            return True
        problems.append(doc.problem(key, f"field {number} does not exist (fields run 1..{count})"))
        return False

    specials = data["specials"]
    sanctuaries = frozenset(
        n for i, n in enumerate(specials.get("sanctuaries", [])) if exists(n, ("specials", "sanctuaries", i))
    )
    exact = tuple(sorted(n for i, n in enumerate(specials.get("exact", [])) if exists(n, ("specials", "exact", i))))
    if count and count not in exact:
        problems.append(
            doc.problem(
                ("specials", "exact"),
                f"the goal, field {count}, must be reached by exact count: add it to specials.exact",
            )
        )

    jumps = _read_links(doc, "jumps", exists, problems)
    tunnels = _read_links(doc, "tunnels", exists, problems)
    for start in sorted(set(jumps) & set(tunnels)):
        index = next(i for i, j in enumerate(data["tunnels"]) if j["from"] == start)
        problems.append(doc.problem(("tunnels", index, "from"), f"field {start} has both a jump and a tunnel"))

    lose_turns: dict[int, int] = {}
    for i, item in enumerate(data.get("lose_turns", [])):
        key: tuple[Any, ...] = ("lose_turns", i, "field")
        if not exists(item["field"], key):
            continue
        if item["field"] in lose_turns:
            problems.append(doc.problem(key, f"field {item['field']} is listed twice"))
        lose_turns[item["field"]] = item["turns"]

    orbit_data = data.get("orbit", {"fields": []})
    orbit = tuple(orbit_data["fields"])
    for i, number in enumerate(orbit):
        key = ("orbit", "fields", i)
        if not exists(number, key):
            continue
        if number in orbit[:i]:
            problems.append(doc.problem(key, f"field {number} is on the Orbit twice"))
        elif i and orbit[i - 1] in cells and number in cells:
            before = orbit[i - 1]
            if not _is_knight_move(cells[before], cells[number]):
                problems.append(
                    doc.problem(
                        key,
                        f"{number} at {list(cells[number])} is not a "
                        f"knight's move from {before} at "
                        f"{list(cells[before])}",
                    )
                )

    millstone: list[tuple[int, int]] = []
    on_stone: set[int] = set()
    for i, pair in enumerate(data.get("millstone", {}).get("pairs", [])):
        key = ("millstone", "pairs", i)
        a, b = pair
        if not (exists(a, key) and exists(b, key)):
            continue
        if a == b or a in on_stone or b in on_stone:
            problems.append(doc.problem(key, f"{[a, b]}: each Millstone field belongs to one pair"))
        elif a in cells and b in cells and not _is_diagonal(cells[a], cells[b]):
            problems.append(
                doc.problem(key, f"{a} at {list(cells[a])} and {b} at {list(cells[b])} are not diagonal neighbours")
            )
        on_stone.update((a, b))
        millstone.append((a, b))

    names: dict[int, dict[str, str]] = {}
    for raw, name in data.get("names", {}).items():
        if exists(int(raw), ("names", raw)):
            names[int(raw)] = name

    _check_roles(doc, count, sanctuaries, exact, jumps, tunnels, lose_turns, orbit, on_stone, problems)
    _check_forced_loops(doc, jumps, tunnels, problems)

    game = data["game"]
    players = (game["players"]["min"], game["players"]["max"])
    if players[0] > players[1]:
        problems.append(doc.problem(("game", "players"), f"min {players[0]} is more than max {players[1]}"))
    race = data["race"]
    if problems:
        raise DataError(problems)
    pieces = data.get("pieces", {})
    return MinosLayout(
        **game_fields(doc),
        size=size,
        pitch_mm=float(board["pitch_mm"]),
        border_mm=float(board.get("border_mm", 0)),
        pieces_per_player=race["pieces_per_player"],
        dice=race.get("dice", 2),
        entry_face=race.get("entry_face", 1),
        cells=cells,
        sanctuaries=sanctuaries,
        exact=exact,
        jumps=jumps,
        tunnels=tunnels,
        lose_turns=lose_turns,
        orbit=orbit,
        millstone=tuple(millstone),
        names=names,
        pawn_size_mm=(float(pieces.get("pawn_width_mm", 16)), float(pieces.get("pawn_height_mm", 24))),
        playability=dict(data.get("playability", {})),
    )


def _read_cells(doc: Document, size: int, problems: list[Problem]) -> dict[int, Cell]:
    """Fields 1..N with their cells; checks numbering, board bounds, overlaps and adjacency."""
    raw = {int(k): (k, tuple(v)) for k, v in doc.data["fields"].items()}
    count = max(raw)
    missing = [n for n in range(1, count + 1) if n not in raw]
    if missing:
        shown = ", ".join(map(str, missing[:8])) + (", ..." if len(missing) > 8 else "")
        problems.append(doc.problem(("fields",), f"fields must run 1..{count} without gaps; missing {shown}"))
    cells: dict[int, Cell] = {}
    owner: dict[Cell, int] = {}
    for number in sorted(raw):
        key_text, cell = raw[number]
        key = ("fields", key_text)
        if not (0 <= cell[0] < size and 0 <= cell[1] < size):
            problems.append(doc.problem(key, f"{list(cell)} is off the {size}x{size} board"))
        elif cell in owner:
            problems.append(doc.problem(key, f"{list(cell)} is already field {owner[cell]}"))
        else:
            owner[cell] = number
        cells[number] = cell
        before = cells.get(number - 1)
        if before is not None and not _is_side_neighbour(before, cell):
            problems.append(
                doc.problem(key, f"{list(cell)} does not share a side with field {number - 1} at {list(before)}")
            )
    if 1 in cells and not _is_on_edge(cells[1], size):
        problems.append(
            doc.problem(("fields", "1"), f"the entrance {list(cells[1])} is not on the edge of the {size}x{size} board")
        )
    return cells


def _read_links(
    doc: Document, table: str, exists: Callable[[int, tuple[Any, ...]], bool], problems: list[Problem]
) -> dict[int, int]:
    out: dict[int, int] = {}
    for i, item in enumerate(doc.data.get(table, [])):
        start, end = item["from"], item["to"]
        ok = exists(start, (table, i, "from"))
        ok = exists(end, (table, i, "to")) and ok
        if not ok:
            continue
        if start == end:
            problems.append(doc.problem((table, i, "to"), f"field {start} leads to itself"))
        elif start in out:
            problems.append(doc.problem((table, i, "from"), f"field {start} already leads to {out[start]}"))
        else:
            out[start] = end
    return out


def _check_roles(
    doc: Document,
    count: int,
    sanctuaries: frozenset[int],
    exact: tuple[int, ...],
    jumps: dict[int, int],
    tunnels: dict[int, int],
    lose_turns: dict[int, int],
    orbit: tuple[int, ...],
    on_stone: set[int],
    problems: list[Problem],
) -> None:
    """A piece never rests on a field it is moved away from at once, so such a field can
    have no other role; and the Orbit and the Millstone do not share fields."""
    for table, links in (("jumps", jumps), ("tunnels", tunnels)):
        for i, item in enumerate(doc.data.get(table, [])):
            start = item["from"]
            if links.get(start) != item["to"]:
                continue
            if table == "tunnels" and start in lose_turns:
                continue
            clashes = [
                what
                for what, fields in (
                    ("a sanctuary", sanctuaries),
                    ("an exact-count field", exact),
                    ("an Orbit field", orbit),
                    ("a Millstone field", on_stone),
                    ("a lose-turns field", lose_turns),
                    ("the entrance", {1}),
                    ("the goal", {count}),
                )
                if start in fields
            ]
            if clashes:
                problems.append(
                    doc.problem(
                        (table, i, "from"),
                        f"field {start} moves pieces on at once, so it cannot be {' or '.join(clashes)}",
                    )
                )
    for i, number in enumerate(orbit):
        if number in on_stone:
            problems.append(
                doc.problem(("orbit", "fields", i), f"field {number} is on both the Orbit and the Millstone")
            )
    for i, item in enumerate(doc.data.get("lose_turns", [])):
        if item["field"] in sanctuaries or item["field"] == count:
            problems.append(
                doc.problem(
                    ("lose_turns", i, "field"), f"field {item['field']} cannot both keep pieces safe and hold them"
                )
            )


def _check_forced_loops(doc: Document, jumps: dict[int, int], tunnels: dict[int, int], problems: list[Problem]) -> None:
    """Jumps and tunnels are never optional: following them must always come to rest."""
    graph = dict(jumps)
    graph.update(tunnels)
    reported: set[frozenset[int]] = set()
    for start in sorted(graph):
        path = [start]
        while path[-1] in graph:
            nxt = graph[path[-1]]
            if nxt in path:
                loop = path[path.index(nxt) :] + [nxt]
                if frozenset(loop) not in reported:
                    reported.add(frozenset(loop))
                    # Point at a link written in this very file when there is one (the
                    # others may come from the file it extends).
                    keys = [_link_key(doc, start, jumps) for start in loop[:-1]]
                    key = next((k for k in keys if k in doc.lines), keys[0])
                    problems.append(doc.problem(key, "forced moves loop forever: " + " -> ".join(map(str, loop))))
                break
            path.append(nxt)


def _link_key(doc: Document, start: int, jumps: dict[int, int]) -> tuple[str, int, str]:
    table = "jumps" if start in jumps else "tunnels"
    index = next(i for i, item in enumerate(doc.data.get(table, [])) if item["from"] == start)
    return table, index, "from"


def _is_side_neighbour(a: Cell, b: Cell) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def _is_knight_move(a: Cell, b: Cell) -> bool:
    return sorted((abs(a[0] - b[0]), abs(a[1] - b[1]))) == [1, 2]


def _is_diagonal(a: Cell, b: Cell) -> bool:
    return abs(a[0] - b[0]) == 1 and abs(a[1] - b[1]) == 1


def _is_on_edge(cell: Cell, size: int) -> bool:
    return min(cell) == 0 or max(cell) == size - 1


def geometry_problems(layout: MinosLayout) -> list[str]:
    """Re-check a model's geometry (what `build` enforces), as plain sentences for a report."""
    problems: list[str] = []
    cells, size = layout.cells, layout.size
    seen: dict[Cell, int] = {}
    for number in range(1, layout.goal + 1):
        cell = cells[number]
        if not (0 <= cell[0] < size and 0 <= cell[1] < size):
            problems.append(f"field {number} at {list(cell)} is off the {size}x{size} board")
        if cell in seen:
            problems.append(f"fields {seen[cell]} and {number} share the cell {list(cell)}")
        seen[cell] = number
        if number > 1 and not _is_side_neighbour(cells[number - 1], cell):
            problems.append(f"fields {number - 1} and {number} do not share a side")
    for a, b in pairwise(layout.orbit):
        if not _is_knight_move(cells[a], cells[b]):
            problems.append(f"Orbit fields {a} and {b} are not a knight's move apart")
    for a, b in layout.millstone:
        if not _is_diagonal(cells[a], cells[b]):
            problems.append(f"Millstone fields {a} and {b} are not diagonal neighbours")
    for link in layout.links:
        for end in (link.start, link.end):
            if end not in cells:
                problems.append(f"the {link.kind} {link.start} -> {link.end} names a missing field")
    graph = {**layout.jumps, **layout.tunnels}
    for start in graph:
        path = [start]
        while path[-1] in graph and graph[path[-1]] not in path:
            path.append(graph[path[-1]])
        if path[-1] in graph:
            loop = path[path.index(graph[path[-1]]) :]
            if start == min(loop):
                problems.append("forced moves loop forever: " + " -> ".join(map(str, loop + [start])))
    return problems


def field_list(fields: list[int], lang: str, *, last: str = "list_or") -> str:
    """ "6, 18, 21, 42 or 59" in English, "la 6, la 18, la 21, la 42 ou la 59" in French (the
    words are ``field_item``, ``list_sep`` and `last` of the strings file)."""
    items = [word(lang, "field_item", n=n) for n in fields]
    if len(items) < 2:
        return "".join(items)
    return word(lang, "list_sep").join(items[:-1]) + word(lang, last) + items[-1]


def rule_values(layout: MinosLayout, lang: str) -> dict[str, object]:
    """The numbers the printed rule readings use, from the layout: ``traps`` (lose-turns
    fields), ``delayed``/``delayed_to``/``delayed_turns`` (the tunnel taken after lost
    turns), ``forced`` (fields that move a piece on at once), ``exact`` and ``exact_nor``
    (fields never passed), ``threshold`` (the last of them before the goal),
    ``bounce_field``/``bounce_to`` (the forced move nearest before the goal), ``goal`` and
    ``goal_name``, ``start``, ``entry_face``, ``ride_fields`` (where an Orbit ride is
    offered), ``orbit_first``/``orbit_last``, ``millstone_fields`` and ``pieces``. Lists
    are written for `lang` (`field_list`); counts also come spelt out as ``<name>_word``."""
    goal, forced = layout.goal, layout.forced()
    delayed = sorted(n for n in layout.tunnels if layout.is_delayed_tunnel(n))
    before_goal = [n for n in sorted(forced) if n < goal]
    exact_before = [n for n in layout.exact if n < goal]
    values: dict[str, object] = {
        "goal": goal,
        "goal_name": (layout.names.get(goal) or {}).get(lang, str(goal)),
        "start": layout.entrance,
        "entry_face": layout.entry_face,
        "pieces": layout.pieces_per_player,
        "traps": field_list(sorted(layout.lose_turns), lang),
        "forced": field_list(sorted(forced), lang),
        "exact": field_list(list(layout.exact), lang),
        "exact_nor": field_list(list(layout.exact), lang, last="list_nor"),
        "threshold": exact_before[-1] if exact_before else goal,
        "ride_fields": field_list([n for n in layout.orbit if n not in layout.lose_turns], lang),
        "orbit_first": layout.orbit[0] if layout.orbit else "",
        "orbit_last": layout.orbit[-1] if layout.orbit else "",
        "millstone_fields": field_list(sorted(n for pair in layout.millstone for n in pair), lang),
        # Without a tunnel behind lost turns, or a forced move before the goal, the
        # sentences naming them print the goal's neighbours (a layout without them would
        # want other readings anyway).
        "delayed": delayed[0] if delayed else "",
        "delayed_to": layout.tunnels[delayed[0]] if delayed else "",
        "delayed_turns": layout.lose_turns[delayed[0]] if delayed else 0,
        "bounce_field": before_goal[-1] if before_goal else "",
        "bounce_to": forced[before_goal[-1]] if before_goal else "",
    }
    words = strings(lang)["number_words"]
    for key in ("pieces", "delayed_turns"):
        number = values[key]
        assert isinstance(number, int)
        values[f"{key}_word"] = words[number] if 0 <= number < len(words) else str(number)
    return values
