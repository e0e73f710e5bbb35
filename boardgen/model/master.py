"""Labyrinthe Master: the sliding board plus object tokens, recipe cards, wands and scoring."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from boardgen.data.loader import Document
from boardgen.data.strings import strings
from boardgen.draws import for_purpose
from boardgen.errors import DataError, Problem
from boardgen.model import sliding
from boardgen.model.sliding import SlidingLayout

RECIPE_TRIES = 10_000


@dataclass(frozen=True)
class MagicObject:
    id: str
    value: int
    name: dict[str, str]
    art: str


@dataclass(frozen=True)
class MasterLayout(SlidingLayout):
    """A sliding layout whose pictures are round tokens riding on the tiles."""

    objects: tuple[MagicObject, ...]
    token_squares: tuple[tuple[int, int], ...]
    token_diameter_mm: float
    recipe_cards: int
    per_card: int
    per_object: int
    fixed_recipes: tuple[tuple[str, ...], ...] | None
    wands_per_player: int
    recipe_bonus: int
    unused_wand: int
    last_object: str

    def picture_keys(self) -> set[str]:
        """The treasures' and the magic objects' pictures."""
        return super().picture_keys() | {item.art for item in self.objects}

    def object(self, object_id: str) -> MagicObject:
        return next(o for o in self.objects if o.id == object_id)

    @property
    def by_value(self) -> tuple[MagicObject, ...]:
        return tuple(sorted(self.objects, key=lambda o: o.value))


@dataclass(frozen=True)
class Setup:
    """A seeded start: the dealt tiles, where each token lies, and the recipe cards."""

    deal: sliding.Deal
    tokens: dict[tuple[int, int], str]
    recipes: tuple[tuple[str, ...], ...]

    @property
    def seed(self) -> int:
        return self.deal.seed


def build(doc: Document) -> MasterLayout:
    base = sliding.build(doc)
    data = doc.data
    problems: list[Problem] = []
    objects: list[MagicObject] = []
    seen: dict[str, int] = {}
    values: dict[int, int] = {}
    for i, item in enumerate(data["objects"]):
        if item["id"] in seen:
            problems.append(doc.problem(("objects", i, "id"), f"duplicate object {item['id']!r}"))
        if item["value"] in values:
            problems.append(
                doc.problem(
                    ("objects", i, "value"), f"value {item['value']} is also objects[{values[item['value']]}]'s"
                )
            )
        seen[item["id"]] = i
        values[item["value"]] = i
        objects.append(MagicObject(item["id"], item["value"], item["name"], item.get("art", item["id"])))

    tokens = data["tokens"]
    if "squares" in tokens:
        # Listed one by one (a generated board's symmetric patch); the static checks judge them.
        key: tuple[str, ...] = ("tokens", "squares")
        squares = tuple((int(r), int(c)) for r, c in tokens["squares"])
        corners = list(squares)
    else:
        key = ("tokens", "area")
        (r0, c0), (r1, c1) = tokens["area"]
        starts = {s.at for s in base.starts}
        squares = tuple((r, c) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1) if (r, c) not in starts)
        corners = [(r0, c0), (r1, c1)]
    for r, c in corners:
        if not (0 <= r < base.size and 0 <= c < base.size):
            problems.append(doc.problem(key, f"[{r}, {c}] is off the {base.size}x{base.size} board"))
    if len(squares) != len(objects):
        problems.append(doc.problem(key, f"{len(squares)} token squares for {len(objects)} objects"))
    last = data["scoring"]["last_object"]
    if last not in seen:
        problems.append(doc.problem(("scoring", "last_object"), f"unknown object {last!r}"))

    recipes = data["recipes"]
    fixed = None
    if "fixed" in recipes:
        fixed = tuple(tuple(card) for card in recipes["fixed"])
        problems += [
            doc.problem(("recipes", "fixed"), message)
            for message in recipe_problems(fixed, [o.id for o in objects], recipes)
        ]
    elif recipes["cards"] * recipes["per_card"] != len(objects) * recipes["per_object"]:
        problems.append(
            doc.problem(
                ("recipes",),
                f"{recipes['cards']} cards x {recipes['per_card']} objects cannot show "
                f"{len(objects)} objects {recipes['per_object']} times each",
            )
        )
    if problems:
        raise DataError(problems)
    base_values = {f.name: getattr(base, f.name) for f in fields(SlidingLayout)}
    return MasterLayout(
        **base_values,
        objects=tuple(objects),
        token_squares=squares,
        token_diameter_mm=float(data["tokens"].get("diameter_mm", 25.0)),
        recipe_cards=recipes["cards"],
        per_card=recipes["per_card"],
        per_object=recipes["per_object"],
        fixed_recipes=fixed,
        wands_per_player=data["wands"]["per_player"],
        recipe_bonus=data["scoring"]["recipe_bonus"],
        unused_wand=data["scoring"]["unused_wand"],
        last_object=last,
    )


def rule_values(layout: MasterLayout, lang: str) -> dict[str, object]:
    """The sliding game's rule values (`sliding.rule_values`) plus the objects, token
    squares, recipes, wands and scoring: ``objects``, ``token_squares``, ``per_card``,
    ``wands``, ``recipe_bonus``, ``unused_wand``, and the object that ends the game as
    ``last_object`` (its name in `lang`, lower case first but in German) and ``last_value``."""
    last = layout.object(layout.last_object)
    name = last.name[lang]
    values = sliding.rule_values(layout, lang)
    values.update(
        sliding.spelt_out(
            {
                "objects": len(layout.objects),
                "token_squares": len(layout.token_squares),
                "per_card": layout.per_card,
                "wands": layout.wands_per_player,
                "recipe_bonus": layout.recipe_bonus,
                "unused_wand": layout.unused_wand,
                "last_value": last.value,
            },
            lang,
        )
    )
    # Inside a sentence, lower case first, unless the language keeps its nouns' capitals.
    values["last_object"] = name if strings(lang).get("nouns_capitalised") else name[:1].lower() + name[1:]
    return values


def recipe_problems(cards: Sequence[Sequence[str]], object_ids: Sequence[str], spec: Mapping[str, Any]) -> list[str]:
    """Every way a set of recipe cards breaks the design rules."""
    problems = []
    if len(cards) != spec["cards"]:
        problems.append(f"expected {spec['cards']} recipe cards, got {len(cards)}")
    known = set(object_ids)
    for i, card in enumerate(cards):
        if len(card) != spec["per_card"]:
            problems.append(f"card {i + 1} shows {len(card)} objects, expected {spec['per_card']}")
        if len(set(card)) != len(card):
            problems.append(f"card {i + 1} shows an object twice: {', '.join(card)}")
        for object_id in card:
            if object_id not in known:
                problems.append(f"card {i + 1} shows unknown object {object_id!r}")
    shown = Counter(object_id for card in cards for object_id in card)
    for object_id in object_ids:
        count = shown[object_id]
        if count != spec["per_object"]:
            problems.append(f"{object_id!r} is on {count} cards, expected {spec['per_object']}")
    seen: dict[frozenset[str], int] = {}
    for i, card in enumerate(cards):
        key = frozenset(card)
        if key in seen:
            problems.append(f"cards {seen[key] + 1} and {i + 1} are alike")
        seen.setdefault(key, i)
    return problems


def design_recipes(layout: MasterLayout, seed: int) -> tuple[tuple[str, ...], ...]:
    """Deal the object slots into cards at random until every design rule holds. Each try
    shuffles the slots from the end (Fisher-Yates), which settles one card every
    `per_card` swaps, and is given up at the first card showing an object twice (most tries
    are, after a few draws); each finished try is as likely as any other."""
    if layout.fixed_recipes is not None:
        return layout.fixed_recipes
    rng = for_purpose(seed, "recipes")
    raw: list[int] = []  # the next draws, last first: a try takes them from blocks (hot loop)
    by_value = [o.id for o in layout.by_value]
    slots = [object_id for object_id in by_value for _ in range(layout.per_object)]
    spec = {"cards": layout.recipe_cards, "per_card": layout.per_card, "per_object": layout.per_object}
    rank: dict[str, int] = {}
    for i, object_id in enumerate(by_value):
        rank.setdefault(object_id, i)  # as by_value.index, without the search
    per_card = layout.per_card
    starts = range(0, len(slots), per_card)
    for _ in range(RECIPE_TRIES):
        for i in range(len(slots) - 1, 0, -1):
            if not raw:
                raw = rng.block()[::-1]
            j = (raw.pop() * (i + 1)) >> 64  # below_of: rng.below(i + 1), from the block
            slots[i], slots[j] = slots[j], slots[i]
            if i % per_card == 0 and len(set(slots[i : i + per_card])) != per_card:
                break  # the card from i is settled and shows an object twice
        else:
            if len(set(slots[:per_card])) != per_card:
                continue
            cards = tuple(tuple(sorted(slots[i : i + per_card], key=rank.__getitem__)) for i in starts)
            if len(set(cards)) == len(cards) and not recipe_problems(cards, by_value, spec):
                return cards
    raise DataError([layout.doc.problem(("recipes",), f"no recipe cards found in {RECIPE_TRIES} tries")])


def setup(layout: MasterLayout, seed: int) -> Setup:
    """Tiles dealt as in the classic game, tokens shuffled onto their squares, recipes designed."""
    the_deal = sliding.deal(layout, seed)
    ids = [o.id for o in layout.by_value]
    for_purpose(seed, "tokens").shuffle(ids)
    return Setup(the_deal, dict(zip(layout.token_squares, ids, strict=True)), design_recipes(layout, seed))
