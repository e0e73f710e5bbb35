"""Converted drawings and a kit's SVGs kept between renders, as data (boardgen.cache).

svglib's conversion of an SVG into a reportlab drawing is a third of a kit's PDF work, and a
person who changes the paper, the margin or one colour renders the same pieces again. The
drawing depends only on

- the SVG text (pictures are inside it, as data: URIs: boardgen never links outside files),
- the fonts svglib may name (the font map: family and weight to registered face),
- the code that converts it: svglib, reportlab and Pillow as installed (their files' sizes
  and times) and boardgen's cache, PDF and font modules (their sources).

A drawing is kept as JSON: a tree of [kind, attributes] nodes where a kind is one of the
reportlab shapes below (by name, never a module path), attributes are the shape's own names
and values are numbers, strings, lists, tuples and colours. Reading one builds exactly those
shapes and sets exactly those values: nothing in an entry can name code. A drawing holding
anything else (a raster picture, say) is not kept and is converted each time.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from reportlab.graphics import shapes
from reportlab.lib.colors import Color

from boardgen.cache import DRAWINGS, KIT_SVGS, canonical_json, digest, installed, prune, tree_state

__all__ = ["drawing_key", "kit_svgs_key", "load", "load_svgs", "prune", "store", "store_svgs"]

FORMAT = "boardgen-drawing-3"  # 3: data-only JSON entries, signed (boardgen.cache)
MAX_DEPTH = 200
_GROUPS = ("Drawing", "Group")
_SHAPES = ("Drawing", "Group", "Rect", "Circle", "Ellipse", "Line", "PolyLine", "Polygon", "Path", "String", "Wedge")
_NOT_KEPT = {"canv", "formats"}  # a Drawing's canvas and save formats: never part of what it draws
Kinds = Mapping[tuple[str, str], Any]  # reportlab is untyped


_SCALARS = (type(None), bool, int, float, str)
_PLAIN = frozenset(_SCALARS)  # kept as they are: json.dumps writes them (and refuses NaN and infinities)


class _NotData(Exception):
    """A drawing holds something the data format does not: it is not kept."""


@cache
def _code_digest() -> str:
    """The converting code: svglib, reportlab's drawing and Pillow as installed, and boardgen's
    cache, PDF and font modules."""
    here = Path(__file__).resolve().parent
    parts: list[str | bytes] = [FORMAT]
    for package, files in (
        ("svglib", ("svglib.py", "fonts.py", "utils.py")),
        ("reportlab", ("graphics/shapes.py",)),
        ("PIL", ("Image.py",)),
    ):
        parts.append(installed(package, *files))
    for path in (
        here / "pdf.py",
        here / "font_map.py",
        here.parent / "data" / "fonts.py",
        here / "drawing_cache.py",
        here.parent / "cache.py",
    ):
        parts.append(path.read_bytes())
    return digest(*parts)


def drawing_key(svg: str, fonts: Iterable[tuple[str, str]]) -> str:
    """The key of an SVG converted with these fonts ((svg family and weight, registered face) pairs)."""
    return digest("drawing", _code_digest(), *(f"{name}\0{face}" for name, face in sorted(fonts)), svg)


# The data format of a drawing -----------------------------------------------------------------


def _names(kinds: Kinds) -> dict[Any, str]:
    """Each class a drawing may hold, to its name in an entry: reportlab's shapes and the
    classes given for svglib's (by their (module, name)) and the given classes themselves."""
    out: dict[Any, str] = {getattr(shapes, name): name for name in _SHAPES}
    for (_, name), kind in kinds.items():
        out[kind] = name
    return out


@cache
def _attributes(name: str, kind: Any) -> frozenset[str]:
    """The attributes a kept shape may have: reportlab's own for its kind, and svglib's id."""
    base: Any = getattr(shapes, name, None) or kind
    return frozenset(base._attrMap.keys()) - _NOT_KEPT | {"svgid"}


def _encode_value(value: Any) -> Any:
    kind = type(value)
    if kind in _PLAIN:
        return value  # a float that is not finite is refused by json.dumps (allow_nan=False)
    if kind is list and all(type(v) in _PLAIN for v in value):  # points and operators: most of a drawing
        return value
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise _NotData
        return value
    if isinstance(value, list):
        return [_encode_value(v) for v in value]
    if isinstance(value, tuple):
        return {"t": [_encode_value(v) for v in value]}
    if type(value) is Color and set(vars(value)) == {"red", "green", "blue", "alpha"}:
        return {
            "c": [
                _encode_value(value.red),
                _encode_value(value.green),
                _encode_value(value.blue),
                _encode_value(value.alpha),
            ]
        }
    raise _NotData


def _encode(node: Any, names: dict[Any, str], kinds: Mapping[str, Any], depth: int = 0) -> list[Any]:
    name = names.get(type(node))
    if name is None or depth > MAX_DEPTH:
        raise _NotData
    allowed = _attributes(name, kinds[name])
    state: dict[str, Any] = {}
    for attr, value in vars(node).items():
        if attr == "_attrMap" and name in _GROUPS:
            continue
        if attr not in allowed:
            raise _NotData
        if attr == "contents" and name in _GROUPS:
            state[attr] = [_encode(child, names, kinds, depth + 1) for child in value]
        else:
            state[attr] = _encode_value(value)
    return [name, state]


def _decode_value(value: Any) -> Any:
    if type(value) in _SCALARS:
        return value
    if type(value) is list:
        if all(type(v) in _SCALARS for v in value):  # points and operators: most of a drawing
            return value
        return [_decode_value(v) for v in value]
    if isinstance(value, dict) and len(value) == 1 and isinstance(value.get("t"), list):
        return tuple(_decode_value(v) for v in value["t"])
    if (
        isinstance(value, dict)
        and len(value) == 1
        and isinstance(value.get("c"), list)
        and len(value["c"]) == 4
        and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value["c"])
    ):
        red, green, blue, alpha = value["c"]
        return Color(red, green, blue, alpha)
    raise _NotData


def _decode(node: Any, kinds: Mapping[str, Any], depth: int = 0) -> Any:
    if (
        not (isinstance(node, list) and len(node) == 2 and isinstance(node[0], str) and isinstance(node[1], dict))
        or depth > MAX_DEPTH
    ):
        raise _NotData
    name, state = node
    kind = kinds.get(name)
    if kind is None:
        raise _NotData
    allowed = _attributes(name, kind)
    shape = kind.__new__(kind)
    if name in _GROUPS:
        shape._attrMap = kind._attrMap.clone()  # as Group.__init__ makes it
    if not allowed.issuperset(state):
        raise _NotData
    for attr, value in state.items():
        if attr == "contents" and name in _GROUPS:
            if not isinstance(value, list):
                raise _NotData
            shape.__dict__[attr] = [_decode(child, kinds, depth + 1) for child in value]
        else:
            shape.__dict__[attr] = _decode_value(value)
    return shape


def _no_constant(text: str) -> float:
    raise ValueError(f"{text} is not kept")  # NaN and Infinity: never written (allow_nan=False)


def _kinds(substitutes: Kinds) -> dict[str, Any]:
    out: dict[str, Any] = {name: getattr(shapes, name) for name in _SHAPES}
    out.update({name: kind for (_, name), kind in substitutes.items()})
    return out


def load(key: str, substitutes: Kinds | None = None) -> Any | None:
    """The drawing kept under key, or None. substitutes: the classes to build for the kinds
    svglib adds, by svglib's (module, name) (their entry name is the class name)."""
    payload = DRAWINGS.read(key)
    if payload is None:
        return None
    try:
        tree = json.loads(payload, parse_constant=_no_constant)
        drawing = _decode(tree, _kinds(substitutes or {}))
    except (_NotData, ValueError, RecursionError, TypeError):
        return None
    return drawing if isinstance(drawing, shapes.Drawing) else None


def store(key: str, drawing: Any, substitutes: Kinds | None = None) -> None:
    """Keep the drawing under key as data; one holding anything else is converted each time."""
    subs = substitutes or {}
    names = _names(subs)
    for module, name in subs:  # svglib's own classes, where it is loaded (it made the drawing)
        found = getattr(sys.modules.get(module), name, None)
        if isinstance(found, type):
            names[found] = name
    try:
        tree = _encode(drawing, names, _kinds(subs))
        payload = json.dumps(tree, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except (_NotData, ValueError, RecursionError):
        return
    DRAWINGS.write(key, payload.encode("utf-8"))


# A kit's SVGs ---------------------------------------------------------------------------------
#
# Drawing a kit's pieces (svgwrite, the pictures, text fitted to the fonts) is the other large
# part of a render that only changes when its inputs do: the layout (its data after extends),
# the seed, the language, the theme (its data and the bytes of every picture and font file it
# names), the bundled data and fonts (their files' sizes and times), svgwrite and lxml as
# installed, and boardgen's own code (every source file). Those make the key of the kit's SVG
# texts, kept as JSON in the ``kit-svgs`` store.


@cache
def _drawing_code_digest() -> str:
    """Every boardgen source file, the bundled data and fonts, svgwrite and lxml as installed."""
    from importlib import resources

    from boardgen.data.paths import layouts_root

    fonts_root = Path(str(resources.files("boardgen.fonts")))  # as data.fonts finds them
    package = Path(__file__).resolve().parent.parent
    parts: list[str | bytes] = [FORMAT, "kit-svgs"]
    for path in sorted(package.rglob("*.py")):
        parts += [str(path.relative_to(package)), path.read_bytes()]
    parts += [tree_state(layouts_root()), tree_state(fonts_root)]
    parts += [installed("svgwrite", "drawing.py", "base.py"), installed("lxml")]
    return digest(*parts)


def kit_svgs_key(
    kit: str, layout_data: Any, seed: int, lang: str, theme_data: Any, theme_files: Iterable[Path]
) -> str | None:
    """The key of a kit's SVGs; None when an input cannot be read (then nothing is kept)."""
    blob = canonical_json([kit, seed, lang, layout_data, theme_data])
    if blob is None:
        return None
    parts: list[str | bytes] = ["kit-svgs", _drawing_code_digest(), blob]
    try:
        for path in sorted(set(theme_files)):
            parts += [str(path), digest(path.read_bytes())]
    except (OSError, ValueError):
        return None
    return digest(*parts)


def load_svgs(key: str) -> tuple[str, dict[str, Any]] | None:
    """(kind of drawings, fields) kept under key: each field an SVG text or a name -> SVG table."""
    payload = KIT_SVGS.read(key)
    if payload is None:
        return None
    try:
        entry = json.loads(payload)
    except (ValueError, RecursionError):
        return None
    if not (isinstance(entry, dict) and isinstance(entry.get("kind"), str) and isinstance(entry.get("fields"), dict)):
        return None
    for value in entry["fields"].values():
        if isinstance(value, dict):
            if not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
                return None
        elif not isinstance(value, str):
            return None
    return entry["kind"], entry["fields"]


def store_svgs(key: str, kind: str, fields: dict[str, Any]) -> None:
    KIT_SVGS.write(key, json.dumps({"kind": kind, "fields": fields}, ensure_ascii=False).encode("utf-8"))
