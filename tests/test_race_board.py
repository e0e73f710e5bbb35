"""Race boards drawn from the track graph: fields of any shape, not only grid cells."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from boardgen.data.theme import load_theme
from boardgen.model.race import Grid, Link, TrackGraph
from boardgen.render.svg import race

sys.path.insert(0, str(Path(__file__).parent / "rules"))
from test_race_model import TRACK, read  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"


@dataclass(frozen=True)
class Board:
    id: str
    title: dict[str, str]
    track: TrackGraph
    border_mm: float = 8.0
    grid: Grid | None = None

    @property
    def links(self) -> tuple[Link, ...]:
        return self.track.links()

    def kinds(self, index: int) -> tuple[str, ...]:
        return race.effect_kinds(self.track, index)


def board() -> Board:
    _, graph, _ = read(TRACK)
    assert graph is not None
    return Board("tiny", {"en": "Tiny", "fr": "Petit"}, graph)


def test_fields_of_any_shape_are_drawn_where_the_graph_puts_them():
    b = board()
    root = ET.fromstring(race.board_svg(b, load_theme("classic"), lang="en"))
    assert root.get("viewBox") == "0,0,200.0,100.0"
    by_id = {e.get("id"): e for e in root.iter()}
    # The goal is a polygon field, drawn with its own outline.
    points = [tuple(map(float, p.split(","))) for p in by_id["field-6-floor"].attrib["points"].split()]
    assert points == [(100, 0), (130, 0), (130, 20), (100, 20)]
    assert "III" in "".join(by_id["field-III-number"].itertext())
    assert all(f"field-{n.key}" in by_id for n in b.track.nodes)
    # The tunnel from I to 1 and the choice at 3 are arrows with heads.
    assert "link-0-tunnel-I-1-head" in by_id and "link-1-choice-3-I-head" in by_id
    # Field 1 touches the top and the left edge; the arrow comes in from the nearer (top).
    arrow = [tuple(map(float, p.split(","))) for p in by_id["entrance-arrow"].attrib["points"].split()]
    assert max(y for _, y in arrow) < 10 and min(x for x, _ in arrow) > 0


def test_seams_avoid_fields():
    b = board()
    # Fields cover x 0..130 without gaps; the board's right part is free.
    assert race.seam_zones(b) == ((130.0, 200.0),)
    assert race.seam_zones_y(b) == ((40.0, 100.0),)


def test_minos_labels_sit_on_plates_above_the_link_lines():
    from boardgen.data.loader import load
    from boardgen.model.minos import build

    layout = build(load("game", "minos"))
    root = ET.fromstring(race.board_svg(layout, load_theme("classic"), lang="en"))
    top = [child.get("id") for child in root]
    assert top.index("board-links") < top.index("board-fields")  # labels are drawn over links
    by_id = {e.get("id"): e for e in root.iter()}
    for number in layout.names:
        group = [child.get("id") for child in by_id[f"field-{number}"]]
        plate, name = by_id[f"field-{number}-plate"], by_id[f"field-{number}-name"]
        assert group.index(plate.get("id")) < group.index(name.get("id"))
        x, y = float(name.attrib["x"]), float(name.attrib["y"])
        left, width = float(plate.attrib["x"]), float(plate.attrib["width"])
        top_y, height = float(plate.attrib["y"]), float(plate.attrib["height"])
        assert abs(left + width / 2 - x) < 0.01  # centred under the name
        assert top_y < y < top_y + height
        assert width > 0.4 * len(layout.names[number]["en"])  # as wide as the text, roughly
