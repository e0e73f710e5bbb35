"""Pictures: bundled vector icons, or the user's own SVG/PNG/JPEG named by a theme."""

from __future__ import annotations

import base64
import io
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from boardgen.data.loader import layouts_root
from boardgen.data.theme import Theme
from boardgen.errors import DataError

SVG_NS = "{http://www.w3.org/2000/svg}"
# Shapes and attributes copied from an SVG picture; anything else is left out.
SHAPES = {"path", "circle", "ellipse", "rect", "polygon", "polyline", "line", "g"}
ATTRIBUTES = {
    "d", "cx", "cy", "r", "rx", "ry", "x", "y", "width", "height", "points", "x1", "y1",
    "x2", "y2", "transform", "fill", "stroke", "stroke-width", "fill-rule", "opacity",
}


@dataclass(frozen=True)
class Node:
    """One vector element of a picture, with its children (for groups)."""

    tag: str
    attrs: tuple[tuple[str, str], ...]
    children: tuple[Node, ...] = ()


@dataclass(frozen=True)
class Picture:
    """A picture ready to draw in a box: vector nodes in a viewBox, or raster bytes."""

    key: str
    viewbox: tuple[float, float, float, float]
    nodes: tuple[Node, ...] = ()
    raster_uri: str | None = None
    keeps_colours: bool = False


def icons_root() -> Path:
    return layouts_root() / "art" / "game-icons"


def picture(theme: Theme, key: str) -> Picture:
    """The theme's own picture for key if it names one, else the bundled icon."""
    override = theme.art.get(key)
    if override is not None:
        return _load_user_picture(theme, key, override)
    path = icons_root() / f"{key}.svg"
    if not path.is_file():
        raise DataError([theme.doc.problem(("art", key), f"no bundled picture {key!r} and the theme names none")])
    return _load_svg(str(path), key, keeps_colours=False)


def _load_user_picture(theme: Theme, key: str, path: Path) -> Picture:
    if not path.is_file():
        raise DataError([theme.doc.problem(("art", key), f"picture file not found: {path}")])
    suffix = path.suffix.lower()
    try:
        if suffix == ".svg":
            return _load_svg(str(path), key, keeps_colours=True)
        if suffix in (".png", ".jpg", ".jpeg"):
            return _load_raster(path, key)
    except (ET.ParseError, OSError, ValueError) as exc:
        raise DataError([theme.doc.problem(("art", key), f"cannot read picture {path.name}: {exc}")]) from None
    raise DataError([theme.doc.problem(("art", key), f"unsupported picture type {suffix!r} (use .svg, .png or .jpg)")])


@cache
def _load_svg(path: str, key: str, keeps_colours: bool) -> Picture:
    root = ET.parse(path).getroot()
    if root.tag != f"{SVG_NS}svg":
        raise ValueError("not an SVG document")
    box = root.get("viewBox")
    if box:
        viewbox = tuple(float(v) for v in box.replace(",", " ").split())
    else:
        viewbox = (0.0, 0.0, _number(root.get("width")), _number(root.get("height")))
    if len(viewbox) != 4 or viewbox[2] <= 0 or viewbox[3] <= 0:
        raise ValueError("the SVG has no usable viewBox or size")
    return Picture(key, viewbox, _nodes(root), keeps_colours=keeps_colours)


def _nodes(element: ET.Element) -> tuple[Node, ...]:
    out = []
    for child in element:
        tag = child.tag.removeprefix(SVG_NS)
        if tag not in SHAPES:
            continue
        attrs = tuple(sorted((k, v) for k, v in child.attrib.items() if k in ATTRIBUTES))
        out.append(Node(tag, attrs, _nodes(child) if tag == "g" else ()))
    return tuple(out)


def _number(value: str | None) -> float:
    if not value:
        return 0.0
    return float(value.rstrip("pxtmcin"))


def _load_raster(path: Path, key: str) -> Picture:
    from PIL import Image

    with Image.open(path) as image:
        image.load()
        width, height = image.size
        if image.mode not in ("RGB", "RGBA", "L"):
            image = image.convert("RGBA")
        buffer = io.BytesIO()
        image.save(buffer, format="PNG", optimize=False)
    uri = "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")
    return Picture(key, (0.0, 0.0, float(width), float(height)), raster_uri=uri, keeps_colours=True)
