"""The race track graph: reading [track]/[fields], walking counts with branches and bounces."""

from __future__ import annotations

import json
import tomllib
from typing import Any

import jsonschema
import pytest

from boardgen.data.loader import Document, layouts_root
from boardgen.data.toml_lines import key_lines
from boardgen.errors import DataError, Problem
from boardgen.model.race import (
    OUTSIDE,
    Shape,
    TrackGraph,
    build_track,
    following_key,
    from_roman,
    roman,
)

# A small board: 1-2-3, then a choice at 3 between 4-5-6 and I-II-III; III leads to 6;
# 6 is the goal (exact count). 2 jumps nowhere; I is a tunnel back to 1.
TRACK = """\
[game]
id = "tiny"
engine = "race"
title = { en = "Tiny", fr = "Petit" }
players = { min = 2, max = 4 }

[board]
width_mm = 200
height_mm = 100

[track]
start = "1"
goal = "6"

[fields.1]
at = [10, 10]
size = [20, 20]
[fields.2]
at = [30, 10]
size = [20, 20]
effects = [{ kind = "draw_card" }]
[fields.3]
at = [50, 10]
size = [20, 20]
next = ["4", "I"]
[fields.4]
at = [70, 10]
size = [20, 20]
[fields.5]
at = [90, 10]
size = [20, 20]
effects = [{ kind = "lose_turns", turns = 1 }]
[fields.6]
polygon = [[100, 0], [130, 0], [130, 20], [100, 20]]
effects = [{ kind = "exact" }]
[fields.I]
at = [50, 30]
size = [20, 20]
effects = [{ kind = "tunnel", to = "1" }]
[fields.II]
at = [70, 30]
size = [20, 20]
[fields.III]
at = [90, 30]
size = [20, 20]
next = ["6"]
"""


def read(text: str) -> tuple[Document, TrackGraph | None, list[Problem]]:
    data = tomllib.loads(text)
    doc = Document("tiny", "tiny.toml", data, key_lines(text))
    problems: list[Problem] = []
    return doc, build_track(doc, problems), problems


def schema_errors(data: dict[str, Any]) -> list[str]:
    from boardgen.data.loader import _schema_registry

    schema = json.loads((layouts_root() / "schema" / "race.schema.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema, registry=_schema_registry())
    data = {**data, "game": {**data["game"], "engine": "minos"}}  # any engine name the common schema knows
    return [e.message for e in validator.iter_errors(data)]


@pytest.fixture(scope="module")
def graph() -> TrackGraph:
    doc, graph, problems = read(TRACK)
    assert problems == [] and graph is not None
    return graph


def test_the_example_is_schema_valid():
    assert schema_errors(tomllib.loads(TRACK)) == []


def test_nodes_keys_labels_and_default_order(graph):
    assert len(graph) == 9
    assert [n.key for n in graph.nodes] == ["1", "2", "3", "4", "5", "6", "I", "II", "III"]
    i = graph.index
    assert graph.start == i("1") == 1 and graph.goal == i("6")
    assert graph.node(i("3")).next == (i("4"), i("I")) and graph.node(i("3")).choice
    assert graph.node(i("I")).next == (i("II"),)  # the next Roman numeral
    assert graph.node(i("6")).next == ()  # the goal leads nowhere
    assert graph.node(i("I")).back == i("3") and graph.node(i("6")).back == i("5")
    assert graph.node(1).back == OUTSIDE
    assert graph.node(i("6")).shape.box == (100, 0, 130, 20)


def test_walks_branch_and_bounce(graph):
    i = graph.index
    assert graph.walks(OUTSIDE, 1) == ((1,),)
    assert graph.walks(1, 1) == ((2,),)
    # From 2, three points: through 3, then the player chooses.
    assert graph.walks(2, 3) == ((3, 4, 5), (3, i("I"), i("II")))
    # Exact count onto 6 from 4 by 2; by 4 it goes in and comes back two fields.
    assert graph.walks(4, 2) == ((5, 6),)
    assert graph.walks(4, 4) == ((5, 6, 5, 4),)
    # A bounce further back than the count came goes on along `back`.
    assert graph.walks(5, 5)[-1][-1] == 2
    # Coming back along the peripheral way retraces it.
    assert graph.walks(i("II"), 4) == ((i("III"), 6, i("III"), i("II")),)
    assert graph.back_steps(5, 2) == 3 and graph.back_steps(2, 5) == 1


def test_effects_forced_moves_and_links(graph):
    i = graph.index
    assert graph.forced() == {i("I"): 1}
    assert graph.rest(i("I")) == (i("I"), 1)
    assert graph.node(5).effect("lose_turns").turns == 1
    assert graph.with_effect("exact") == (6,)
    kinds = {(link.kind, graph.label(link.start), graph.label(link.end)) for link in graph.links()}
    assert kinds == {("tunnel", "I", "1"), ("choice", "3", "I")}


def test_roman_numerals():
    assert [roman(n) for n in (1, 4, 9, 14, 36)] == ["I", "IV", "IX", "XIV", "XXXVI"]
    assert all(from_roman(roman(n)) == n for n in range(1, 100))
    assert from_roman("IIII") is None and from_roman("x") is None
    assert following_key("IX") == "X" and following_key("82") == "83" and following_key("a") is None


def test_shapes():
    a, b = Shape.square(0, 0, 10), Shape.square(10, 0, 10)
    assert not a.overlaps(b) and a.touches(b)
    assert Shape.square(5, 5, 10).overlaps(a)
    tri = Shape((5, 5), (10, 10), ((0, 0), (10, 0), (0, 10)))
    assert not tri.overlaps(Shape.square(6, 6, 4)) and tri.overlaps(Shape.square(1, 1, 2))


@pytest.mark.parametrize(
    "old, new, message",
    [
        ('next = ["4", "I"]', 'next = ["4", "J"]', "tiny.toml:25: fields.3.next[1]: field 'J' does not exist"),
        (
            '{ kind = "tunnel", to = "1" }',
            '{ kind = "tunnel", to = "2" }, { kind = "sanctuary" }',
            "tiny.toml:36: fields.I: field I moves pieces on at once, so it cannot be a sanctuary",
        ),
        ('next = ["6"]', 'next = ["II"]', "fields.II: the goal cannot be reached from field(s) II, III"),
        ("[fields.6]\npolygon = [[100, 0]", "[fields.6]\npolygon = [[95, 0]", "fields.6: fields 5 and 6 overlap"),
        ("at = [90, 30]", "at = [195, 30]", "fields.III: field III is off the 200 x 100 mm board"),
        ('start = "1"', 'start = "0"', "tiny.toml:12: track.start: field '0' does not exist"),
    ],
)
def test_problems_name_file_key_and_line(old, new, message):
    assert old in TRACK
    _, graph, problems = read(TRACK.replace(old, new, 1))
    assert graph is None
    assert any(message in str(p) for p in problems), [str(p) for p in problems]
    with pytest.raises(DataError):
        raise DataError(problems)


def test_forced_loops_and_unreachable_fields():
    text = TRACK.replace('{ kind = "draw_card" }', '{ kind = "jump", to = "I" }').replace(
        '{ kind = "tunnel", to = "1" }', '{ kind = "jump", to = "2" }'
    )
    _, graph, problems = read(text)
    assert graph is None
    assert [p.message for p in problems] == ["forced moves loop forever: 2 -> I -> 2"]
    _, graph, problems = read(TRACK.replace('next = ["4", "I"]', 'next = ["4"]'))
    assert graph is None
    assert "no piece can reach field(s) I, II, III from the start" in problems[0].message


def test_schema_bounds():
    data = tomllib.loads(TRACK)
    data["fields"]["5"]["effects"] = [{"kind": "lose_turns"}]
    data["fields"]["2"]["effects"] = [{"kind": "stuck", "until": "never"}]
    data["fields"]["1"]["at"] = [-1, 10]
    errors = schema_errors(data)
    assert any("'turns' is a required property" in e for e in errors)
    assert any("'never' is not one of" in e for e in errors)
    assert any("-1 is less than the minimum" in e for e in errors)


def test_the_fields_that_reach_the_goal_are_those_it_is_reachable_from():
    """`reaching` (one sweep backwards) against `reachable` from every field, on the bundled
    race boards and on one with a field cut off from the goal."""
    import dataclasses

    from boardgen.data.loader import load
    from boardgen.model import grand, minos

    layout = grand.build(load("game", "grand"))
    cut = dataclasses.replace(layout, jumps={k: v for k, v in layout.jumps.items() if k != grand.parse_label("XXXVI")})
    graphs = [layout.track(), minos.build(load("game", "minos")).track, cut.track()]
    for graph in graphs:
        for target in (graph.goal, graph.start, len(graph) // 2):
            assert graph.reaching(target) == {
                i for i in (OUTSIDE, *graph.indexes) if target == i or target in graph.reachable(i)
            }
    assert graph.goal not in cut.track().reachable(cut.track().index("XXXVI"))
