"""The track graph every race game is played on: fields, their shapes, their order, their effects.

This module is the contract between race layouts, the race engine (`boardgen.rules.race`)
and the race board drawing (`boardgen.render.svg.race`). Its API is kept stable:

- A `TrackGraph` holds the fields as `Node`s numbered by **index** 1..N (index 0, `OUTSIDE`,
  is "not on the board yet", in front of the start field). Engines keep positions as these
  ints; `graph.node(i)` gives the field, `graph.index(key)` finds one by the key the layout
  file uses ("12", "IX").
- Each node has a `key`, a printed `label` (numbers, Roman numerals, anything), a `colour`
  (the kind of field it is for the drawing: a theme colour name such as "blue", or ""),
  a `Shape` in millimetres from the board's top-left corner (centre + size, or a polygon:
  fields need not be cells of one grid), an optional `name` per language, and `effects`.
- Order: `node.next` lists the forward successors (two or more: the player chooses there,
  `node.choice`); `node.back` is where a backward step goes (0: nowhere, the start field).
  A count moves along `next`; going back (a bounce, "go back N") moves along `back`.
- Effects are data (`Effect`, see `EFFECTS`): "jump" and "tunnel" move a piece on at once
  to `to` (a tunnel out of a "lose_turns" field is taken only after the lost turns),
  "lose_turns" holds it for `turns` turns, "exact" is never passed going forward (a count
  goes in and comes back one field per extra point), "sanctuary" holds any number of
  pieces and protects them, "draw_card", "stuck" (held `until` another piece "passed",
  "landed" or "replaced" it), "back_to_start", "again" (move again by the same count, with
  probability `chance` in self-play: the table's own judgement), "move_on" (a piece that
  comes to rest here moves on at once to one of its `next` fields, the player choosing if
  there are several: the centre of a side labyrinth reached by exact count, say). The
  engine decides what each means in detail; the model only checks that the data is
  consistent.

Layout files describe a track with `[track]` and `[fields.KEY]` tables, validated by
``layouts/schema/race.schema.json`` (whose ``$defs`` other race schemas reuse), then by
`build_track`, which reports every inconsistency at once with its file, key and line::

    [track]
    start = "1"                 # pieces enter here from outside
    goal = "83"                 # where the race ends

    [fields.3]
    at = [40.0, 280.0]          # centre, mm from the board's top-left corner
    size = [24.0, 24.0]         # width, height (a rectangle); or polygon = [[x, y], ...]
    colour = "blue"
    next = ["4", "I"]           # a choice; default: the next number ("4"; "X" after "IX")
    effects = [{ kind = "draw_card" }]
    name = { en = "Rooster", fr = "Coq" }

Games whose layout is written another way (King Minos: cells of a square grid) build the
same graph in code with `TrackGraph(...)`, `Node(...)` and `Shape.square(...)`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from boardgen.data.loader import Document
from boardgen.errors import Problem

Point = tuple[float, float]

# "Roll the dice again" cards: the extra turns a seat may play in a row, unless a layout says
# otherwise (Le Grand Labyrinthe's [race] max_extra_turns, printed on its rules sheet).
MAX_EXTRA_TURNS = 5
OUTSIDE = 0  # the index of "not on the board yet": in front of the start field
_APART = 1e-6  # mm: boxes this far apart are apart whatever the rounding of a projection

# Effect kinds, with the parameters each one needs.
JUMP, TUNNEL, LOSE_TURNS, EXACT, SANCTUARY = "jump", "tunnel", "lose_turns", "exact", "sanctuary"
DRAW_CARD, STUCK, BACK_TO_START, AGAIN = "draw_card", "stuck", "back_to_start", "again"
MOVE_ON = "move_on"
EFFECTS: dict[str, tuple[str, ...]] = {
    JUMP: ("to",),
    TUNNEL: ("to",),
    LOSE_TURNS: ("turns",),
    EXACT: (),
    SANCTUARY: (),
    DRAW_CARD: (),
    STUCK: ("until",),
    BACK_TO_START: (),
    AGAIN: (),
    MOVE_ON: (),
}
STUCK_UNTIL = ("passed", "landed", "replaced")
# Effects that move a piece on at once when it comes to rest (a tunnel behind lost turns
# waits until they are lost).
MOVING = (JUMP, TUNNEL, BACK_TO_START)


@dataclass(frozen=True)
class Shape:
    """Where a field is on the board, in mm from its top-left corner: a centre, the size of
    its bounding box and, for any shape other than an upright rectangle, its outline."""

    centre: Point
    size: Point  # width, height of the bounding box
    polygon: tuple[Point, ...] | None = None

    @classmethod
    def square(cls, x: float, y: float, side: float) -> Shape:
        """A square cell whose top-left corner is (x, y)."""
        return cls((x + side / 2, y + side / 2), (side, side))

    @property
    def box(self) -> tuple[float, float, float, float]:
        """Left, top, right, bottom."""
        if self.polygon:
            xs, ys = [p[0] for p in self.polygon], [p[1] for p in self.polygon]
            return min(xs), min(ys), max(xs), max(ys)
        (cx, cy), (w, h) = self.centre, self.size
        return cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2

    def outline(self) -> tuple[Point, ...]:
        """The corners, clockwise on the page (y grows downwards)."""
        if self.polygon:
            return self.polygon
        left, top, right, bottom = self.box
        return (left, top), (right, top), (right, bottom), (left, bottom)

    def overlaps(self, other: Shape, tolerance: float = 0.01) -> bool:
        """Whether the two (convex) shapes share area, not just an edge or a corner."""
        a, b = self.outline(), other.outline()
        for poly in (a, b):
            for i, p in enumerate(poly):
                q = poly[(i + 1) % len(poly)]
                nx, ny = q[1] - p[1], p[0] - q[0]
                length = (nx * nx + ny * ny) ** 0.5 or 1.0
                pa = [(x * nx + y * ny) / length for x, y in a]
                pb = [(x * nx + y * ny) / length for x, y in b]
                if max(pa) <= min(pb) + tolerance or max(pb) <= min(pa) + tolerance:
                    return False
        return True

    def touches(self, other: Shape, tolerance: float = 0.5) -> bool:
        """Whether the two shapes share (part of) an edge or come within `tolerance` mm."""
        left, top, right, bottom = self.box
        o_left, o_top, o_right, o_bottom = other.box
        return (
            left - tolerance <= o_right
            and o_left <= right + tolerance
            and top - tolerance <= o_bottom
            and o_top <= bottom + tolerance
        )


@dataclass(frozen=True)
class Effect:
    """What a field does to a piece that comes to rest on it (see `EFFECTS`)."""

    kind: str
    to: int = 0  # jump, tunnel, back_to_start: the field index it leads to
    turns: int = 0  # lose_turns
    until: str = ""  # stuck: "passed", "landed" or "replaced"
    chance: float = 1.0  # again: how often self-play succeeds (a pun, say)


# Event cards a race may deal (its deck is the game's, not the track's), with the parameters
# each needs: move on ("advance") or back ("back") a number of `steps`, go to field `to`,
# sit out `turns` turns, play another whole turn at once, free every stuck piece, change
# places with the piece nearest the goal (fewest expected turns left) when it is ahead.
ADVANCE, BACK, GOTO, ROLL_AGAIN, FREE_ALL, SWAP_LEADER = (
    "advance",
    "back",
    "goto",
    "roll_again",
    "free_all",
    "swap_leader",
)
CARD_EFFECTS: dict[str, tuple[str, ...]] = {
    ADVANCE: ("steps",),
    BACK: ("steps",),
    GOTO: ("to",),
    LOSE_TURNS: ("turns",),
    ROLL_AGAIN: (),
    FREE_ALL: (),
    SWAP_LEADER: (),
}


@dataclass(frozen=True)
class CardEffect:
    """What an event card does to the piece that draws it (see `CARD_EFFECTS`)."""

    kind: str
    steps: int = 0  # advance, back
    turns: int = 0  # lose_turns
    to: int = 0  # goto: the field index


@dataclass(frozen=True)
class Node:
    """One field of the track."""

    index: int  # 1..N; positions in engines are these
    key: str  # as the layout file names it ("12", "IX")
    label: str  # as printed on the board
    shape: Shape
    next: tuple[int, ...] = ()  # forward successors; two or more: the player chooses
    back: int = OUTSIDE  # where a backward step goes; OUTSIDE: nowhere
    effects: tuple[Effect, ...] = ()
    colour: str = ""
    name: dict[str, str] | None = None

    @property
    def choice(self) -> bool:
        """Whether a piece moving on from here chooses between successors."""
        return len(self.next) > 1

    def effect(self, kind: str) -> Effect | None:
        return next((e for e in self.effects if e.kind == kind), None)

    def has(self, kind: str) -> bool:
        return any(e.kind == kind for e in self.effects)


@dataclass(frozen=True)
class Grid:
    """For a board whose fields are cells of a square grid (King Minos): the drawing fills
    the cells that are no field as wall and draws walls between neighbouring cells that are
    not consecutive fields."""

    size: int
    pitch_mm: float
    border_mm: float
    entrance_side: str  # N, E, S or W: the edge pieces enter the start field from


@dataclass(frozen=True)
class Link:
    """A drawn connection between two fields: a jump, a tunnel, a choice, or a game's own
    (King Minos: an Orbit hop, a Millstone diagonal). Jumps and tunnels run one way."""

    kind: str
    start: int
    end: int


@dataclass(frozen=True)
class TrackGraph:
    """The fields of a race board and how pieces move between them (see the module doc)."""

    nodes: tuple[Node, ...]  # nodes[i - 1] has index i
    start: int
    goal: int
    width_mm: float
    height_mm: float
    keys: dict[str, int] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        if not self.keys:
            object.__setattr__(self, "keys", {n.key: n.index for n in self.nodes})

    def __len__(self) -> int:
        return len(self.nodes)

    def node(self, index: int) -> Node:
        return self.nodes[index - 1]

    def index(self, key: str) -> int:
        """The index of the field the layout calls `key` (KeyError if none)."""
        return self.keys[key]

    def label(self, index: int) -> str:
        return self.node(index).label

    @property
    def indexes(self) -> range:
        return range(1, len(self.nodes) + 1)

    def with_effect(self, kind: str) -> tuple[int, ...]:
        """Every field with an effect of `kind`, in index order."""
        return tuple(n.index for n in self.nodes if n.has(kind))

    def forced(self) -> dict[int, int]:
        """Moves a piece makes at once on coming to rest, with no choice: jumps,
        back-to-start, tunnels not behind lost turns, and "move_on" where there is one way
        on (where there are several, see `moves_on`)."""
        out: dict[int, int] = {}
        for n in self.nodes:
            for e in n.effects:
                if e.kind in MOVING and not (e.kind == TUNNEL and n.has(LOSE_TURNS)):
                    out[n.index] = self.start if e.kind == BACK_TO_START else e.to
                elif e.kind == MOVE_ON and len(n.next) == 1:
                    out[n.index] = n.next[0]
        return out

    def moves_on(self, index: int) -> tuple[int, ...]:
        """The fields a piece coming to rest on `index` must move on to at once, choosing
        one ((): it stays; one field: that is a forced move, see `forced`)."""
        node = self.node(index)
        return node.next if node.has(MOVE_ON) else ()

    def rest(self, index: int) -> tuple[int, ...]:
        """The fields a piece passes through when it comes to rest on `index`: itself, then
        every forced move (the last one is where it stays)."""
        forced, path = self.forced_map, [index]
        while path[-1] in forced and len(path) <= len(self.nodes):
            path.append(forced[path[-1]])
        return tuple(path)

    @cached_property
    def forced_map(self) -> dict[int, int]:
        return self.forced()

    @cached_property
    def predecessors(self) -> dict[int, tuple[int, ...]]:
        """Every field listing each one in its `next`."""
        out: dict[int, list[int]] = {i: [] for i in self.indexes}
        for n in self.nodes:
            for m in n.next:
                out[m].append(n.index)
        return {i: tuple(v) for i, v in out.items()}

    def walks(self, origin: int, points: int) -> tuple[tuple[int, ...], ...]:
        """Every way a forward count of `points` from `origin` can go, as the fields it
        enters in order (the last is where the count ends, before any jump). From OUTSIDE
        the first point enters the start field. A count never passes an "exact" field nor
        the goal: it goes in and comes back along the way it came, one field per extra point
        (then on along `back`, never past the start). Branches give one walk per choice.
        Worked out once per graph (the static checks and the rules ask for the same ones)."""
        key = (origin, points)
        known = self._walks.get(key)
        if known is None:
            known = self._walks[key] = self._find_walks(origin, points)
        return known

    @cached_property
    def _walks(self) -> dict[tuple[int, int], tuple[tuple[int, ...], ...]]:
        return {}

    def _find_walks(self, origin: int, points: int) -> tuple[tuple[int, ...], ...]:
        if points <= 0:
            return ((origin,),) if origin != OUTSIDE else ()
        out: list[tuple[int, ...]] = []

        def forward(path: list[int], left: int) -> None:
            at = path[-1] if path else origin
            if left == 0:
                out.append(tuple(path))
                return
            if at == OUTSIDE:
                forward([self.start], left - 1)
                return
            node = self.node(at)
            if (path and (node.has(EXACT) or at == self.goal)) or not node.next:
                out.append(self._bounce(origin, path, left))
                return
            for m in node.next:
                forward(path + [m], left - 1)

        forward([], points)
        return tuple(out)

    def _bounce(self, origin: int, path: list[int], left: int) -> tuple[int, ...]:
        """A walk that turns back at its last field with `left` points to go."""
        trail = ([origin] if origin != OUTSIDE else []) + path
        pos = len(trail) - 1
        walked, at = list(path), trail[pos]
        for _ in range(left):
            if pos > 0:
                pos -= 1
                at = trail[pos]
            else:
                back = self.node(at).back
                if back == OUTSIDE:
                    break
                at = back
            walked.append(at)
        return tuple(walked) or (origin,)

    def back_steps(self, origin: int, points: int) -> int:
        """Where `points` steps backward along `back` from `origin` end (never off the board)."""
        at = origin
        for _ in range(points):
            if at == OUTSIDE or self.node(at).back == OUTSIDE:
                break
            at = self.node(at).back
        return at

    def links(self) -> tuple[Link, ...]:
        """Jumps, tunnels and returns to the start (in field order, jumps first), then every
        choice that leads somewhere other than the default next field."""
        out = [
            Link(e.kind, n.index, self.start if e.kind == BACK_TO_START else e.to)
            for kind in MOVING
            for n in self.nodes
            for e in n.effects
            if e.kind == kind
        ]
        out += [Link("choice", n.index, m) for n in self.nodes if n.choice for m in n.next[1:]]
        return tuple(out)

    def _steps(self, at: int) -> list[int]:
        """Where a piece on `at` can go next (`reachable`'s edges)."""
        forced = self.forced_map
        nxt = list(self.node(at).next) if at != OUTSIDE else [self.start]
        if at in forced:
            nxt.append(forced[at])
        if at != OUTSIDE and self.node(at).back and (self.node(at).has(EXACT) or at == self.goal):
            nxt.append(self.node(at).back)
        return nxt

    def reaching(self, target: int) -> set[int]:
        """Every field (and OUTSIDE) from which a piece can get to `target`: the fields whose
        `reachable` holds it, found in one sweep backwards."""
        comes_from: dict[int, list[int]] = {}
        for at in (OUTSIDE, *self.indexes):
            for nxt in self._steps(at):
                comes_from.setdefault(nxt, []).append(at)
        seen = {target}
        stack = [target]
        while stack:
            for before in comes_from.get(stack.pop(), ()):
                if before not in seen:
                    seen.add(before)
                    stack.append(before)
        return seen

    def reachable(self, origin: int) -> set[int]:
        """Every field a piece can come to rest on or pass from `origin` (moving forward,
        bouncing back and following forced moves)."""
        seen: set[int] = set()
        stack = [origin]
        while stack:
            at = stack.pop()
            if at in seen:
                continue
            seen.add(at)
            stack.extend(self._steps(at))
        return seen - {OUTSIDE}


# -- reading a layout's [track] and [fields] -----------------------------------------------

_ROMAN = (
    ("M", 1000),
    ("CM", 900),
    ("D", 500),
    ("CD", 400),
    ("C", 100),
    ("XC", 90),
    ("L", 50),
    ("XL", 40),
    ("X", 10),
    ("IX", 9),
    ("V", 5),
    ("IV", 4),
    ("I", 1),
)


def roman(number: int) -> str:
    """1 -> "I", 36 -> "XXXVI"."""
    out = ""
    for letters, value in _ROMAN:
        while number >= value:
            out, number = out + letters, number - value
    return out


def from_roman(text: str) -> int | None:
    """ "XXXVI" -> 36; None when `text` is not a Roman numeral written the usual way."""
    if not text or not re.fullmatch(r"[MDCLXVI]+", text):
        return None
    total, i = 0, 0
    for letters, value in _ROMAN:
        while text.startswith(letters, i):
            total, i = total + value, i + len(letters)
    return total if i == len(text) and roman(total) == text else None


def following_key(key: str) -> str | None:
    """The key a field's default `next` names: "12" -> "13", "IX" -> "X"."""
    if key.isdigit():
        return str(int(key) + 1)
    number = from_roman(key)
    return roman(number + 1) if number is not None else None


def build_track(
    doc: Document,
    problems: list[Problem],
    *,
    fields_key: str = "fields",
    track_key: str = "track",
    board_mm: Point | None = None,
) -> TrackGraph | None:
    """The track graph of a schema-valid document (`[track]` and `[fields.KEY]` tables).

    Every inconsistency is appended to `problems` with its file, key and line (a field that
    does not exist, a field moving pieces on at once that also has a role where they rest,
    forced moves that loop, a field the start cannot reach or from which the goal cannot be
    reached, a shape off the board or overlapping another); None when the graph cannot be
    built. `board_mm` is the board's (width, height); by default the [board] table's
    ``width_mm`` and ``height_mm``."""
    data = doc.data
    raw: Mapping[str, Any] = data.get(fields_key, {})
    track = data.get(track_key, {})
    index = {key: i for i, key in enumerate(raw, start=1)}
    if board_mm is None:
        board = data.get("board", {})
        board_mm = (float(board.get("width_mm", 0)), float(board.get("height_mm", 0)))
    before = len(problems)

    def find(key: str, where: tuple[Any, ...]) -> int:
        if key in index:
            return index[key]
        problems.append(doc.problem(where, f"field {key!r} does not exist{_known(index)}"))
        return OUTSIDE

    start = find(str(track.get("start", "")), (track_key, "start"))
    goal = find(str(track.get("goal", "")), (track_key, "goal"))
    nodes: list[Node] = []
    for key, item in raw.items():
        where = (fields_key, key)
        i = index[key]
        if "next" in item:
            nxt = tuple(find(k, where + ("next", j)) for j, k in enumerate(item["next"]))
            if len(set(nxt)) < len(nxt):
                problems.append(doc.problem(where + ("next",), "a field is listed twice"))
            if i in nxt:
                problems.append(doc.problem(where + ("next",), f"field {key!r} leads to itself"))
        else:
            follow = following_key(key)
            nxt = (index[follow],) if follow in index and i != goal else ()
        effects = []
        for j, e in enumerate(item.get("effects", [])):
            to = find(e["to"], where + ("effects", j, "to")) if "to" in e else OUTSIDE
            if to == i:
                problems.append(doc.problem(where + ("effects", j, "to"), f"field {key!r} leads to itself"))
            effects.append(Effect(e["kind"], to, e.get("turns", 0), e.get("until", ""), float(e.get("chance", 1.0))))
        shape = _read_shape(doc, where, item, problems)
        nodes.append(
            Node(
                i,
                key,
                str(item.get("label", key)),
                shape,
                nxt,
                OUTSIDE,
                tuple(effects),
                str(item.get("colour", "")),
                item.get("name"),
            )
        )
    if len(problems) > before or not nodes:
        return None
    # Backward steps: written, or the first field (in file order) leading here.
    firsts: dict[int, int] = {}
    for n in nodes:
        for m in n.next:
            firsts.setdefault(m, n.index)
    for pos, n in enumerate(nodes):
        back = raw[n.key].get("back")
        target = find(back, (fields_key, n.key, "back")) if back is not None else firsts.get(n.index, OUTSIDE)
        nodes[pos] = Node(n.index, n.key, n.label, n.shape, n.next, target, n.effects, n.colour, n.name)
    graph = TrackGraph(tuple(nodes), start, goal, board_mm[0], board_mm[1])
    for message, at in track_problems(graph):
        place: tuple[str, ...] = (fields_key, graph.node(at).key) if at else (track_key,)
        problems.append(doc.problem(place, message))
    return None if len(problems) > before else graph


def _known(index: Mapping[str, int]) -> str:
    keys = list(index)
    return (
        f" (fields: {', '.join(keys[:3])}, ..., {keys[-1]})"
        if len(keys) > 4
        else f" (fields: {', '.join(keys)})"
        if keys
        else ""
    )


def _read_shape(doc: Document, where: tuple[Any, ...], item: Mapping[str, Any], problems: list[Problem]) -> Shape:
    polygon = tuple((float(x), float(y)) for x, y in item.get("polygon", ()))
    if polygon:
        area = sum(p[0] * q[1] - q[0] * p[1] for p, q in zip(polygon, polygon[1:] + polygon[:1], strict=True))
        if abs(area) < 1e-6:
            problems.append(doc.problem(where + ("polygon",), "the outline encloses no area"))
        xs, ys = [p[0] for p in polygon], [p[1] for p in polygon]
        box = (max(xs) - min(xs), max(ys) - min(ys))
        centre = tuple(map(float, item["at"])) if "at" in item else (sum(xs) / len(xs), sum(ys) / len(ys))
        return Shape((centre[0], centre[1]), box, polygon)
    if "at" not in item or "size" not in item:
        problems.append(doc.problem(where, "a field needs `at` and `size`, or a `polygon`"))
        return Shape((0.0, 0.0), (0.0, 0.0))
    (x, y), (w, h) = item["at"], item["size"]
    return Shape((float(x), float(y)), (float(w), float(h)))


def track_problems(graph: TrackGraph) -> list[tuple[str, int]]:
    """Consistency of a built graph, as (sentence, field index or 0 for the whole track):
    roles that clash, forced moves that loop, fields off the board or overlapping, fields
    the start cannot reach, fields from which the goal cannot be reached."""
    out: list[tuple[str, int]] = []
    for n in graph.nodes:
        moving = [e for e in n.effects if e.kind in MOVING or e.kind == MOVE_ON]
        kinds = [e.kind for e in n.effects]
        for kind in set(kinds):
            if kinds.count(kind) > 1:
                out.append((f"the effect {kind!r} is listed twice", n.index))
        if len(moving) > 1:
            out.append(("a field can move pieces on in one way only", n.index))
        delayed = bool(moving) and moving[0].kind == TUNNEL and n.has(LOSE_TURNS)
        if moving and not delayed:
            # A field reached by exact count may send a piece on along its `next`.
            exact = n.has(EXACT) and moving[0].kind != MOVE_ON
            clashes = [
                what
                for what, on in (
                    ("a sanctuary", n.has(SANCTUARY)),
                    ("an exact-count field", exact),
                    ("a lose-turns field", n.has(LOSE_TURNS)),
                    ("a stuck field", n.has(STUCK)),
                    ("the start", n.index == graph.start),
                    ("the goal", n.index == graph.goal),
                )
                if on
            ]
            if clashes:
                out.append(
                    (f"field {n.label} moves pieces on at once, so it cannot be {' or '.join(clashes)}", n.index)
                )
        if n.has(LOSE_TURNS) and (n.has(SANCTUARY) or n.index == graph.goal):
            out.append((f"field {n.label} cannot both keep pieces safe and hold them", n.index))
        if n.index == graph.goal and n.next:
            out.append(("the goal leads nowhere: remove its `next`", n.index))
        if not n.next and n.index != graph.goal:
            out.append((f"field {n.label} leads nowhere: give it a `next`", n.index))
    forced = graph.forced()
    for start in sorted(forced):
        path = [start]
        while path[-1] in forced and forced[path[-1]] not in path:
            path.append(forced[path[-1]])
        if path[-1] in forced:
            loop = path[path.index(forced[path[-1]]) :]
            if start == min(loop):
                out.append(("forced moves loop forever: " + " -> ".join(graph.label(i) for i in loop + [start]), start))
    if out:
        return out
    for n in graph.nodes:
        left, top, right, bottom = n.shape.box
        if (
            graph.width_mm
            and graph.height_mm
            and (left < -0.01 or top < -0.01 or right > graph.width_mm + 0.01 or bottom > graph.height_mm + 0.01)
        ):
            out.append((f"field {n.label} is off the {graph.width_mm:g} x {graph.height_mm:g} mm board", n.index))
    # Two upright rectangles whose boxes lie apart cannot overlap (`Shape.overlaps` would
    # find them apart along x or y): only the others are compared.
    boxes = [n.shape.box for n in graph.nodes]
    upright = [n.shape.polygon is None for n in graph.nodes]
    for k, a in enumerate(graph.nodes):
        left, top, right, bottom = boxes[k]
        for j in range(k + 1, len(graph.nodes)):
            b_left, b_top, b_right, b_bottom = boxes[j]
            if (
                upright[k]
                and upright[j]
                and (
                    b_left - right > _APART
                    or left - b_right > _APART
                    or b_top - bottom > _APART
                    or top - b_bottom > _APART
                )
            ):
                continue
            b = graph.nodes[j]
            if a.shape.overlaps(b.shape):
                out.append((f"fields {a.label} and {b.label} overlap", b.index))
    seen = graph.reachable(OUTSIDE)
    unreachable = [n for n in graph.nodes if n.index not in seen]
    if unreachable:
        shown = ", ".join(n.label for n in unreachable[:8]) + (", ..." if len(unreachable) > 8 else "")
        out.append((f"no piece can reach field(s) {shown} from the start", unreachable[0].index))
    reaching = graph.reaching(graph.goal)
    stranded = [i for i in seen if i not in reaching]
    if stranded:
        shown = ", ".join(graph.label(i) for i in sorted(stranded)[:8])
        out.append((f"the goal cannot be reached from field(s) {shown}", min(stranded)))
    return out


def touching_pairs(graph: TrackGraph) -> Iterable[tuple[int, int]]:
    """Consecutive fields (a field and each of its successors) whose shapes do not touch:
    a board whose route jumps across the board needs an arrow there."""
    for n in graph.nodes:
        for m in n.next:
            if not n.shape.touches(graph.node(m).shape):
                yield n.index, m
