"""A top-down picture of a Tabletop Simulator saved object, drawn from the JSON alone: each
object's position, turn and size as TTS would lay them out (the sizes at scale 1 are the ones
boardgen.export.tts assumes), its image read from the file its URL names, and each Custom_Model
drawn from its OBJ mesh's outline. For the tests and for looking at an export:

    python tests/tts_view.py output/classic/tts/classic.json preview.png
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from PIL import Image, ImageDraw

from boardgen.export.tts import CARD_UNITS, TILE_SHORT_UNITS

PX_PER_UNIT = 40


def local_file(url: str) -> Path:
    parts = urlsplit(url)
    assert parts.scheme == "file", url
    return Path(unquote(parts.path))


def turn(x: float, z: float, degrees: float) -> tuple[float, float]:
    """Unity's turn about y (left-handed, y up): positive is clockwise seen from above."""
    a = math.radians(degrees)
    return x * math.cos(a) + z * math.sin(a), -x * math.sin(a) + z * math.cos(a)


def footprint(obj_text: str) -> list[tuple[float, float]]:
    """The (x, z) of every vertex of the mesh's top ring (the first half of its vertices)."""
    vertices = [tuple(map(float, line.split()[1:4])) for line in obj_text.splitlines() if line.startswith("v ")]
    top = vertices[: len(vertices) // 2]
    return [(v[0], v[2]) for v in top]


def objects(save: dict[str, Any]) -> list[dict[str, Any]]:
    return list(save["ObjectStates"])


def extent(obj: dict[str, Any]) -> tuple[float, float] | None:
    """The object's width and depth on the table, units (its image's aspect read from the file)."""
    t = obj["Transform"]
    if obj["Name"] in ("Custom_Board", "Custom_Tile", "Figurine_Custom"):
        with Image.open(local_file(obj["CustomImage"]["ImageURL"])) as image:
            w, h = image.size
        short = TILE_SHORT_UNITS * t["scaleX"]
        return (short * w / min(w, h), short * h / min(w, h))
    if obj["Name"] in ("DeckCustom", "Card"):
        return CARD_UNITS[0] * t["scaleX"], CARD_UNITS[1] * t["scaleZ"]
    if obj["Name"] == "Die_6":
        return 0.7, 0.7
    return None


def draw(save: dict[str, Any], out: Path) -> None:
    things = objects(save)
    xs, zs = [], []
    for obj in things:
        t = obj["Transform"]
        box = extent(obj) or (3.0, 3.0)
        r = max(box) / 2 + 0.5
        xs += [t["posX"] - r, t["posX"] + r]
        zs += [t["posZ"] - r, t["posZ"] + r]
    x0, z1 = min(xs), max(zs)
    canvas = Image.new("RGB", (round((max(xs) - x0) * PX_PER_UNIT), round((z1 - min(zs)) * PX_PER_UNIT)), "#3a5a40")
    pen = ImageDraw.Draw(canvas)

    def px(x: float, z: float) -> tuple[float, float]:
        return (x - x0) * PX_PER_UNIT, (z1 - z) * PX_PER_UNIT

    # The board first, then the flat pieces, then what stands on them.
    order = {"Custom_Board": 0, "Custom_Tile": 1, "Custom_Model": 1, "DeckCustom": 1, "Die_6": 2, "Figurine_Custom": 3}
    for obj in sorted(things, key=lambda o: (order.get(o["Name"], 2), o["Transform"]["posY"])):
        t = obj["Transform"]
        if obj["Name"] == "Custom_Model":
            ring = [
                turn(-x * t["scaleX"], z * t["scaleZ"], t["rotY"])
                for x, z in footprint(local_file(obj["CustomMesh"]["MeshURL"]).read_text())
            ]
            pen.polygon([px(t["posX"] + x, t["posZ"] + z) for x, z in ring], fill="#6b4f3a", outline="#ffd166")
            continue
        size = extent(obj)
        assert size is not None
        if obj["Name"] == "Die_6":
            cx, cy = px(t["posX"], t["posZ"])
            half = size[0] / 2 * PX_PER_UNIT
            pen.rectangle((cx - half, cy - half, cx + half, cy + half), fill="white", outline="black")
            pen.text((cx - 6, cy - 6), "D6", fill="black")
            continue
        if obj["Name"] == "DeckCustom":
            first = next(iter(obj["CustomDeck"].values()))
            url = first["BackURL"]
        else:
            url = obj["CustomImage"]["ImageURL"]
        with Image.open(local_file(url)) as image:
            picture = image.convert("RGB").resize(
                (max(1, round(size[0] * PX_PER_UNIT)), max(1, round(size[1] * PX_PER_UNIT)))
            )
        # rotY 180 shows the image upright (its top towards +z); other turns clockwise from there.
        picture = picture.rotate(-(t["rotY"] - 180.0), expand=True)
        cx, cy = px(t["posX"], t["posZ"])
        canvas.paste(picture, (round(cx - picture.size[0] / 2), round(cy - picture.size[1] / 2)))
    canvas.save(out)


if __name__ == "__main__":
    draw(json.loads(Path(sys.argv[1]).read_text()), Path(sys.argv[2]))
