"""Le Grand Labyrinthe as a model: fields on a grid, the route graph, special fields, the deck.

Fields are numbered inside the model: central fields 1..83 keep their numbers, peripheral
field k (I..XXXVI) is ``PERIPHERAL + k``, and 0 (``START``) is the place in front of field 1
where pawns wait. Layout files name fields as strings ("3", "IX"); `label` turns a number
back into that name.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from boardgen.data.loader import Document
from boardgen.data.strings import strings, word
from boardgen.errors import DataError, Problem, quote
from boardgen.model import race
from boardgen.model.game import GameInfo, game_fields

# The peripheral fields' numerals, I..XXXVI.
ROMAN = (
    "I",
    "II",
    "III",
    "IV",
    "V",
    "VI",
    "VII",
    "VIII",
    "IX",
    "X",
    "XI",
    "XII",
    "XIII",
    "XIV",
    "XV",
    "XVI",
    "XVII",
    "XVIII",
    "XIX",
    "XX",
    "XXI",
    "XXII",
    "XXIII",
    "XXIV",
    "XXV",
    "XXVI",
    "XXVII",
    "XXVIII",
    "XXIX",
    "XXX",
    "XXXI",
    "XXXII",
    "XXXIII",
    "XXXIV",
    "XXXV",
    "XXXVI",
)

# The playability thresholds a generated layout writes out, and the engine's defaults for a
# layout that leaves one out.
PLAYABILITY_DEFAULTS: dict[str, Any] = {
    "games_per_player_count": 150,
    "turn_cap": 400,
    "min_completion_rate": 0.99,
    "max_mean_rounds": 40,
    "max_p95_rounds": 80,
    "max_seat_gap": 0.15,
    "seat_gap_significance": 0.01,
    "max_route_gap": 0.2,
    "route_gap_significance": 0.01,
    "min_visits": 1,
}


START = 0
PERIPHERAL = 100
LABYRINTH_FIELDS = 9

Cell = tuple[int, int]


@dataclass(frozen=True)
class Card:
    """One kind of event card, printed `count` times."""

    id: str
    sequence: int  # 1..4
    count: int
    title: dict[str, str]
    text: dict[str, str]
    effect: race.CardEffect  # a "goto" names its field by its index on the track


@dataclass(frozen=True)
class Sequence:
    name: dict[str, str]
    colour: str  # a player colour of the theme: blue, green, red, yellow
    central: tuple[int, int]
    peripheral: tuple[int, int]


@dataclass(frozen=True)
class GrandLayout(GameInfo):
    """A validated Grand Labyrinthe layout."""

    size: int
    pitch_mm: float
    border_mm: float
    pun_success: float
    exact_one_die: bool
    max_extra_turns: int  # "roll the dice again" cards: extra turns a seat may play in a row
    cells: dict[int, Cell]
    sequences: tuple[Sequence, ...]
    branches: dict[int, tuple[int, ...]]
    jumps: dict[int, int]
    exact: frozenset[int]
    card_fields: frozenset[int]
    puns: frozenset[int]
    drowning: frozenset[int]
    prison: frozenset[int]
    petrified: frozenset[int]
    rebirth: int
    no_access: frozenset[int]
    names: dict[int, dict[str, str]]
    card_size_mm: tuple[float, float]
    bleed_mm: float
    deck: tuple[Card, ...]

    @cached_property
    def goal(self) -> int:
        """The centre, 83: the last central field."""
        return max(n for n in self.cells if n < PERIPHERAL)

    @property
    def board_mm(self) -> float:
        return self.size * self.pitch_mm + 2 * self.border_mm

    @property
    def central(self) -> tuple[int, ...]:
        return tuple(range(1, self.goal + 1))

    @property
    def peripheral(self) -> tuple[int, ...]:
        return tuple(sorted(n for n in self.cells if n > PERIPHERAL))

    @property
    def cards(self) -> tuple[Card, ...]:
        """The deck as printed: every copy of every card."""
        return tuple(card for card in self.deck for _ in range(card.count))

    @property
    def card_ids(self) -> tuple[str, ...]:
        """The id of every card of `cards`, in order (self-play counts card k as ``card:k``)."""
        return tuple(card.id for card in self.cards)

    def label(self, field: int) -> str:
        return label(field)

    def sequence_of(self, field: int) -> int:
        """0..3: the coloured sequence a field belongs to (83 belongs to the last)."""
        for index, seq in enumerate(self.sequences):
            if seq.central[0] <= field <= seq.central[1] or seq.peripheral[0] <= field <= seq.peripheral[1]:
                return index
        return len(self.sequences) - 1

    def forward(self, field: int) -> tuple[int, ...]:
        """Where a count goes on from `field` (two fields at a branch, none at an end)."""
        if field in self.branches and field not in self.exact:
            return self.branches[field]
        if field == START:
            return (1,)
        if field in self.exact or field + 1 not in self.cells:
            return ()
        return (field + 1,)

    def backward(self, field: int) -> int:
        """Where a count going back goes from `field`: the first field of a peripheral
        labyrinth leads back to the central field whose branch or jump enters it."""
        if field <= 1:
            return START
        if field > PERIPHERAL and (field - PERIPHERAL - 1) % LABYRINTH_FIELDS == 0:
            return self.entries().get(field, START)
        return field - 1

    def entries(self) -> dict[int, int]:
        """First field of each peripheral labyrinth -> the central field leading into it."""
        out: dict[int, int] = {}
        for start, options in self.branches.items():
            for to in options:
                if to > PERIPHERAL and start < PERIPHERAL:
                    out[to] = start
        for start, to in self.jumps.items():
            if to > PERIPHERAL and start < PERIPHERAL:
                out.setdefault(to, start)
        return out

    def moves_on(self, field: int) -> tuple[int, ...]:
        """Where a pawn ending its count on `field` is sent at once (a jump, or the choice
        out of a peripheral centre); empty if it stays."""
        if field in self.jumps:
            return (self.jumps[field],)
        if field in self.branches and field in self.exact:
            return self.branches[field]
        return ()

    def kinds(self, field: int) -> tuple[str, ...]:
        """What a field does, for drawing and for the visit counts."""
        found = []
        for kind, fields in (
            ("exact", self.exact),
            ("card", self.card_fields),
            ("pun", self.puns),
            ("drowning", self.drowning),
            ("prison", self.prison),
            ("petrified", self.petrified),
            ("jump", set(self.jumps)),
            ("branch", set(self.branches)),
        ):
            if field in fields:
                found.append(kind)
        if field == 1:
            found.insert(0, "rooster")
        if field == self.goal:
            found.insert(0, "goal")
        return tuple(found)

    def index(self, field: int) -> int:
        """The field's index in `track`: central fields keep their numbers, peripheral ones follow."""
        return _index(field, self.goal)

    def track(self) -> race.TrackGraph:
        """The board as the shared race model's track graph (fields on their cells, order,
        effects as data): what the rules (`boardgen.rules.grand`) play on. A peripheral
        centre is an exact-count field that moves the pawn on at once along its `next`
        ("move_on")."""
        return self._graph

    @cached_property
    def _graph(self) -> race.TrackGraph:
        pitch, border = self.pitch_mm, self.border_mm
        nodes = []
        for field in sorted(self.cells, key=self.index):
            effects: list[race.Effect] = []
            if field in self.exact:
                effects.append(race.Effect(race.EXACT))
            if field in self.exact and self.moves_on(field):
                effects.append(race.Effect(race.MOVE_ON))
            if field in self.jumps and field not in self.exact:
                effects.append(race.Effect(race.JUMP, to=self.index(self.jumps[field])))
            if field in self.card_fields:
                effects.append(race.Effect(race.DRAW_CARD))
            if field in self.puns:
                effects += [race.Effect(race.AGAIN, chance=self.pun_success), race.Effect(race.DRAW_CARD)]
            if field in self.drowning:
                effects.append(race.Effect(race.STUCK, until="passed"))
            if field in self.prison:
                effects.append(race.Effect(race.STUCK, until="replaced"))
            if field in self.petrified:
                # Back to the rebirth field: the track's start (1, the rooster) as drawn, or
                # any other field the layout names ([specials] rebirth), like a jump.
                effects.append(
                    race.Effect(race.BACK_TO_START)
                    if self.rebirth == 1
                    else race.Effect(race.JUMP, to=self.index(self.rebirth))
                )
            nxt = self.forward(field) or self.moves_on(field)
            back = self.backward(field)
            row, col = self.cells[field]
            shape = race.Shape.square(border + col * pitch, border + row * pitch, pitch)
            colour = self.sequences[self.sequence_of(field)].colour
            nodes.append(
                race.Node(
                    self.index(field),
                    label(field),
                    label(field),
                    shape,
                    tuple(self.index(n) for n in nxt),
                    self.index(back) if back != START else race.OUTSIDE,
                    tuple(effects),
                    colour,
                    self.names.get(field),
                )
            )
        return race.TrackGraph(tuple(nodes), self.index(1), self.goal, self.board_mm, self.board_mm)

    @property
    def specials(self) -> tuple[int, ...]:
        """Fields whose visits self-play counts."""
        return tuple(
            sorted(
                set(self.card_fields | self.puns | self.drowning | self.prison | self.petrified)
                | set(self.jumps)
                | set(self.branches)
                | self.exact
            )
        )


def _index(field: int, goal: int) -> int:
    return field - PERIPHERAL + goal if field > PERIPHERAL else field


def rule_values(layout: GrandLayout, lang: str) -> dict[str, object]:
    """The numbers the printed rules take from the layout (layouts/rules/grand.<lang>.md):
    ``cards`` (the deck's size), ``pun_percent`` (the chance self-play gives a pun),
    ``goal`` and ``rebirth`` (fields), and the special fields as the sheet lists them:
    ``open_fields``, ``pun_fields``, ``drowning_fields``, ``prison_fields`` and
    ``petrified_fields`` ("7, 12 and 77"), ``stuck_fields`` (the drowning and prison fields,
    "29, 30 or 74", each as the language names a field: "la 29"); and the routes:
    ``players_min`` and ``players_max``, ``sequences`` ("Origin (blue, 1–20), ..."),
    ``fork`` (the central field where the routes part) with ``fork_central`` and
    ``fork_peripheral`` (where each goes on), ``labyrinths`` ("I–IX, X–XVIII, ..."),
    ``centres`` (the peripheral centres), ``centre_choices`` ("from IX to X or 21, ..."),
    ``last_centre`` and ``last_target`` (a centre's forced move: "XXXVI", "82"),
    ``jump_fields`` and ``jump_targets`` (the central fields that send a pawn into a
    peripheral labyrinth, and where: "20, 40 and 60", "X, XIX and XXVIII"),
    ``no_access_fields``, ``back_entries`` ("I to 3, X to 20, ...": where counting back
    from a labyrinth's first field leads), ``max_extra_turns`` (in a row, "roll again")."""

    def listed(
        fields: frozenset[int] | list[int], last: str = "list_and", item: str | None = None, *, ordered: bool = False
    ) -> str:
        names = [word(lang, item, n=label(n)) if item else label(n) for n in (fields if ordered else sorted(fields))]
        return joined(names, last)

    def joined(names: list[str], last: str = "list_and") -> str:
        if len(names) < 2:
            return "".join(names)
        return word(lang, "list_sep").join(names[:-1]) + word(lang, last) + names[-1]

    forks = [
        (at, to)
        for at, to in sorted(layout.branches.items())
        if at < PERIPHERAL and any(n < PERIPHERAL for n in to) and any(n > PERIPHERAL for n in to)
    ]
    fork, fork_to = forks[0] if forks else (1, (1, 1))
    centres = [s.peripheral[1] for s in layout.sequences]

    def route(key: str, at: int, to: list[int], last: str = "list_or") -> str:
        """A centre's choice or a labyrinth's way back in the words of the strings file
        ("from IX to X or 21", "de la I à la 3"), else as an arrow ("IX → X or 21")."""
        if key in strings(lang):
            return word(
                lang, key, at=word(lang, "field_item", n=label(at)), to=listed(to, last, "field_item", ordered=True)
            )
        return f"{label(at)}\u00a0→ {listed(to, last, ordered=True)}"

    choices = [route("route_choice", c, list(layout.branches[c])) for c in centres if c in layout.branches]
    forced = [(c, layout.jumps[c]) for c in centres if c in layout.jumps]
    last_centre, last_target = forced[-1] if forced else (centres[-1], layout.goal)
    jumps = sorted((at, to) for at, to in layout.jumps.items() if at < PERIPHERAL < to)
    entries = sorted(layout.entries().items())
    return {
        "players_min": layout.players[0],
        "players_max": layout.players[1],
        "sequences": joined(
            [
                f"{s.name[lang]} ({word(lang, s.colour).lower()}, {label(s.central[0])}–{label(s.central[1])})"
                for s in layout.sequences
            ]
        ),
        "fork": label(fork),
        "fork_central": label(min(fork_to)),
        "fork_peripheral": label(max(fork_to)),
        "labyrinths": joined([f"{label(s.peripheral[0])}–{label(s.peripheral[1])}" for s in layout.sequences]),
        "centres": listed(centres, ordered=True),
        "exact_centres": listed(sorted(layout.exact - {layout.goal})),
        "centre_choices": word(lang, "list_sep").join(choices),
        "last_centre": label(last_centre),
        "last_target": label(last_target),
        "jump_fields": listed([at for at, _ in jumps], ordered=True),
        "jump_targets": listed([to for _, to in jumps], item="field_item", ordered=True),
        "no_access_fields": listed(layout.no_access),
        "back_entries": word(lang, "list_sep").join(route("route_back", first, [entry]) for first, entry in entries),
        "max_extra_turns": layout.max_extra_turns,
        "cards": len(layout.cards),
        "pun_percent": f"{layout.pun_success * 100:g}",
        "goal": label(layout.goal),
        "rebirth": label(layout.rebirth),
        "open_fields": listed(layout.card_fields),
        "pun_fields": listed(layout.puns),
        "drowning_fields": listed(layout.drowning),
        "prison_fields": listed(layout.prison),
        "petrified_fields": listed(layout.petrified),
        "stuck_fields": listed(sorted(layout.drowning | layout.prison), "list_or", "field_item"),
    }


def label(field: int) -> str:
    if field == START:
        return "start"
    return ROMAN[field - PERIPHERAL - 1] if field > PERIPHERAL else str(field)


def parse_label(text: str) -> int | None:
    """The model number of a field name ("3", "IX"), or None if it names no field shape."""
    if text.isascii() and text.isdigit():
        # Past PERIPHERAL no number names a central field; a 5,001-digit one would not even convert.
        return int(text) if len(text) <= len(str(PERIPHERAL)) else None
    if text in ROMAN:
        return PERIPHERAL + ROMAN.index(text) + 1
    return None


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


def build(doc: Document) -> GrandLayout:
    """Turn a schema-valid document into a model, collecting every consistency problem."""
    data = doc.data
    problems: list[Problem] = []
    board = data["board"]
    size = board["size"]
    cells: dict[int, Cell] = {}
    owner: dict[Cell, tuple[str, str]] = {}
    for table in ("fields", "peripheral"):
        for key, cell in data.get(table, {}).items():
            number = parse_label(key)
            if number is None or (table == "fields") != (number < PERIPHERAL) or number == START:
                problems.append(
                    doc.problem(
                        (table, key),
                        f"{quote(key)} is not a " + ("field number" if table == "fields" else "Roman numeral I..XXXVI"),
                    )
                )
                continue
            where = tuple(cell)
            if not (0 <= where[0] < size and 0 <= where[1] < size):
                problems.append(doc.problem((table, key), f"{list(where)} is off the {size}x{size} board"))
            elif where in owner:
                problems.append(doc.problem((table, key), f"{list(where)} is already field {owner[where][1]}"))
            else:
                owner[where] = (table, key)
            cells[number] = (where[0], where[1])
    central = sorted(n for n in cells if n < PERIPHERAL)
    goal = central[-1] if central else 0
    missing = [n for n in range(1, goal + 1) if n not in cells]
    if missing:
        problems.append(
            doc.problem(
                ("fields",),
                f"central fields must run 1..{goal} without gaps; missing " + ", ".join(map(str, missing[:8])),
            )
        )
    per = sorted(n - PERIPHERAL for n in cells if n > PERIPHERAL)
    if per and (per != list(range(1, len(per) + 1)) or len(per) % LABYRINTH_FIELDS):
        problems.append(
            doc.problem(
                ("peripheral",),
                f"peripheral fields must run I..{ROMAN[len(per) - 1]} without gaps, {LABYRINTH_FIELDS} per labyrinth",
            )
        )

    def ref(text: str, key: tuple[Any, ...]) -> int | None:
        number = parse_label(text)
        if number is None or number not in cells:
            problems.append(doc.problem(key, f"field {quote(text)} does not exist"))
            return None
        return number

    def refs(values: list[str], key: tuple[Any, ...]) -> frozenset[int]:
        out = (ref(v, (*key, i)) for i, v in enumerate(values))
        return frozenset(n for n in out if n is not None)

    branches: dict[int, tuple[int, ...]] = {}
    for i, item in enumerate(data.get("branches", [])):
        at = ref(item["at"], ("branches", i, "at"))
        options = [ref(v, ("branches", i, "to", j)) for j, v in enumerate(item["to"])]
        if at is not None and None not in options:
            if at in branches:
                problems.append(doc.problem(("branches", i, "at"), f"field {item['at']!r} branches twice"))
            branches[at] = tuple(o for o in options if o is not None)
    jumps: dict[int, int] = {}
    for i, item in enumerate(data.get("jumps", [])):
        start, end = ref(item["from"], ("jumps", i, "from")), ref(item["to"], ("jumps", i, "to"))
        if start is not None and end is not None:
            if start in jumps or start in branches:
                problems.append(doc.problem(("jumps", i, "from"), f"field {item['from']!r} already leads on"))
            jumps[start] = end
    specials = data["specials"]
    exact = refs(specials.get("exact", []), ("specials", "exact"))
    kinds = {
        name: refs(specials.get(name, []), ("specials", name))
        for name in ("cards", "puns", "drowning", "prison", "petrified", "no_access")
    }
    rebirth = ref(specials.get("rebirth", "1"), ("specials", "rebirth")) or 1
    if goal and goal not in exact:
        problems.append(doc.problem(("specials", "exact"), f"the centre, field {goal}, must be reached by exact count"))
    taken: dict[int, str] = {}
    for name in ("cards", "puns", "drowning", "prison", "petrified"):
        for number in sorted(kinds[name]):
            if number in taken or number in jumps or number in exact:
                problems.append(doc.problem(("specials", name), f"field {label(number)} has two roles"))
            taken[number] = name

    sequences = []
    for i, seq in enumerate(data.get("sequences", [])):
        lo, hi = seq["peripheral"]
        plo, phi = ref(lo, ("sequences", i, "peripheral", 0)), ref(hi, ("sequences", i, "peripheral", 1))
        sequences.append(
            Sequence(seq["name"], seq["colour"], (seq["central"][0], seq["central"][1]), (plo or 0, phi or 0))
        )
    deck = []
    for i, item in enumerate(data.get("deck", [])):
        raw = item["effect"]
        target = ref(raw["field"], ("deck", i, "effect", "field")) if "field" in raw else None
        effect = race.CardEffect(
            raw["kind"],
            steps=raw.get("steps", 0),
            turns=raw.get("turns", 0),
            to=0 if target is None else _index(target, goal),
        )
        missing_keys = [
            k.replace("to", "field") for k in race.CARD_EFFECTS[raw["kind"]] if k.replace("to", "field") not in raw
        ]
        if missing_keys:
            problems.append(
                doc.problem(("deck", i, "effect"), f"a {raw['kind']!r} effect needs " + ", ".join(missing_keys))
            )
        if not 1 <= item["sequence"] <= len(sequences):
            problems.append(doc.problem(("deck", i, "sequence"), f"there is no sequence {item['sequence']}"))
        deck.append(Card(item["id"], item["sequence"], item.get("count", 1), item["title"], item["text"], effect))
    names: dict[int, dict[str, str]] = {}
    for key, name in data.get("names", {}).items():
        number = ref(key, ("names", key))
        if number is not None:
            names[number] = name
    cards = data.get("cards", {})
    size_spec = cards.get("size", "poker")
    card_size = CARD_SIZES[size_spec] if isinstance(size_spec, str) else (size_spec[0], size_spec[1])
    if problems:
        raise DataError(problems)
    return GrandLayout(
        **game_fields(doc),
        size=size,
        pitch_mm=float(board["pitch_mm"]),
        border_mm=float(board.get("border_mm", 0)),
        pun_success=float(data["race"].get("pun_success", 0.5)),
        exact_one_die=bool(data["race"].get("exact_one_die", False)),
        max_extra_turns=int(data["race"].get("max_extra_turns", race.MAX_EXTRA_TURNS)),
        cells=cells,
        sequences=tuple(sequences),
        branches=branches,
        jumps=jumps,
        exact=exact,
        card_fields=kinds["cards"],
        puns=kinds["puns"],
        drowning=kinds["drowning"],
        prison=kinds["prison"],
        petrified=kinds["petrified"],
        rebirth=rebirth,
        no_access=kinds["no_access"],
        names=names,
        card_size_mm=card_size,
        bleed_mm=float(cards.get("bleed_mm", 3.0)),
        deck=tuple(deck),
        playability=dict(data.get("playability", {})),
    )


def static_problems(layout: GrandLayout) -> list[str]:
    """Everything a layout must satisfy before anyone plays on it, as plain sentences: the
    track graph's own checks (`race.track_problems`: every field reachable from the start and
    leading to 83, no loop of forced moves), consecutive fields touch unless an arrow joins
    them, exact-count fields can be hit by some roll, the no-access corners lead into no
    peripheral labyrinth, cards name real fields, 32 cards."""
    graph = layout.track()
    problems = [message for message, _ in race.track_problems(graph)]
    arrows = {(layout.index(a), layout.index(b)) for a, b in layout.jumps.items()}
    arrows |= {(layout.index(a), layout.index(b)) for a, to in layout.branches.items() for b in to}
    problems += [
        f"fields {graph.label(a)} and {graph.label(b)} do not touch"
        for a, b in race.touching_pairs(graph)
        if (a, b) not in arrows
    ]
    rolls = range(1, 13) if layout.exact_one_die else range(2, 13)
    for target in sorted(layout.index(f) for f in layout.exact):
        if not any(
            walk[-1] == target
            for origin in (race.OUTSIDE, *graph.indexes)
            if origin != target
            for n in rolls
            for walk in graph.walks(origin, n)
        ):
            problems.append(f"no roll of two dice reaches field {graph.label(target)} exactly")
    # The corner fields of [specials] no_access lead into no peripheral labyrinth.
    for field in sorted(layout.no_access):
        node = graph.node(layout.index(field))
        into = [n for n in (*node.next, *(e.to for e in node.effects if e.kind == race.JUMP)) if n > layout.goal]
        if into:
            problems.append(
                f"field {graph.label(layout.index(field))} leads into the peripheral labyrinth "
                f"(to {', '.join(graph.label(n) for n in into)}), but [specials] no_access "
                "says it must not"
            )
    for card in layout.deck:
        if card.effect.kind == race.GOTO and not 1 <= card.effect.to <= len(graph):
            problems.append(f"card {card.id!r} sends pawns to a missing field")
    if len(layout.cards) != 32:
        problems.append(f"the deck has {len(layout.cards)} cards, not 32")
    return problems
