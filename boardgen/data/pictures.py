"""Pictures read and made safe: bundled vector icons, or the user's own SVG/PNG/JPEG named by a theme.

A user's SVG is read the way a browser styles it, then cleaned, so that it prints as it looks:
- the CSS cascade (``<style>`` sheets and classes, ``style=``, presentation attributes) is
  resolved into plain attributes: every picture is self-contained inside the sheet SVGs;
- scripts, event attributes, ``foreignObject``, animation and every external reference
  (including ``url(http...)`` in paint) are dropped: sanitised, not whitelisted;
- gradients are flattened (``href`` chains, ``gradientTransform``) into what svglib draws;
  a mask that only cuts out (opaque white content) becomes a clip path;
- what cannot be drawn (filters, patterns, markers, other masks, see ``README.md``) is warned
  about, naming the file and the element, and drawn as near as possible: never a silent black shape.
Hostile files meet limits: bytes, pixels, elements, nesting depth, and every number is finite
and of a sane size. Anything over a limit is a PictureError naming the file.
"""

from __future__ import annotations

import base64
import difflib
import io
import logging
import math
import re
import struct
import warnings
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from boardgen.data.colours import ColourError, parse_colour
from boardgen.data.paths import layouts_root
from boardgen.errors import BoardgenError

logger = logging.getLogger("boardgen.pictures")

SVG_URI = "http://www.w3.org/2000/svg"
XLINK_URI = "http://www.w3.org/1999/xlink"
XML_URI = "http://www.w3.org/XML/1998/namespace"

# Limits for pictures (see the README section on hostile input).
MAX_SVG_BYTES = 4_000_000
MAX_RASTER_BYTES = 20_000_000
MAX_PIXELS = 25_000_000
MAX_ELEMENTS = 10_000
MAX_DEPTH = 64
MAX_NUMBER = 1e9
# The smallest picture size: scaled to its box (at most an A0 sheet), its scale and offsets stay
# within what a PDF number can be (reportlab refuses over 1e20; a viewBox 1e-300 wide was 1e301).
MIN_SIZE = 1e-6
# Rasters are embedded at most this many pixels on their long side (about 600 dpi at 85 mm).
EMBED_SIDE = 2048

PICTURE_SUFFIXES = (".svg", ".png", ".jpg", ".jpeg")

# Elements svglib draws or uses; anything else in the SVG namespace is dropped (with a warning if
# it would have shown).
DRAWN = {
    "svg",
    "g",
    "a",
    "symbol",
    "use",
    "switch",
    "defs",
    "clipPath",
    "linearGradient",
    "radialGradient",
    "stop",
    "path",
    "rect",
    "circle",
    "ellipse",
    "line",
    "polyline",
    "polygon",
    "text",
    "tspan",
    "image",
}
# Dropped without a word: metadata, or content that never shows in a still picture.
QUIET = {
    "metadata",
    "title",
    "desc",
    "style",
    "animate",
    "animateTransform",
    "animateMotion",
    "animateColor",
    "set",
    "mpath",
    "discard",
    "cursor",
    "view",
    "font",
    "font-face",
    "glyph",
    "missing-glyph",
    "color-profile",
    "hkern",
    "vkern",
    "filter",
    "marker",
    "pattern",
    "mask",
}
# Properties kept (from attributes or CSS); the other CSS properties have no effect on a still SVG
# picture, or are editor-private (-inkscape-*).
PROPERTIES = {
    "clip-path",
    "clip-rule",
    "color",
    "display",
    "fill",
    "fill-opacity",
    "fill-rule",
    "filter",
    "font-family",
    "font-size",
    "font-style",
    "font-weight",
    "letter-spacing",
    "marker",
    "marker-start",
    "marker-mid",
    "marker-end",
    "mask",
    "opacity",
    "paint-order",
    "stop-color",
    "stop-opacity",
    "stroke",
    "stroke-dasharray",
    "stroke-dashoffset",
    "stroke-linecap",
    "stroke-linejoin",
    "stroke-miterlimit",
    "stroke-opacity",
    "stroke-width",
    "text-anchor",
    "visibility",
    "word-spacing",
    "mix-blend-mode",
}
# Attributes that are not properties, kept where they mean something.
GEOMETRY = {
    "d",
    "points",
    "x",
    "y",
    "width",
    "height",
    "cx",
    "cy",
    "r",
    "rx",
    "ry",
    "x1",
    "y1",
    "x2",
    "y2",
    "dx",
    "dy",
    "fx",
    "fy",
    "transform",
    "viewBox",
    "preserveAspectRatio",
    "gradientUnits",
    "gradientTransform",
    "spreadMethod",
    "offset",
    "clipPathUnits",
    "id",
    "href",
    "systemLanguage",
}
LENGTHS = {
    "x",
    "y",
    "width",
    "height",
    "cx",
    "cy",
    "r",
    "rx",
    "ry",
    "x1",
    "y1",
    "x2",
    "y2",
    "dx",
    "dy",
    "fx",
    "fy",
    "stroke-width",
    "font-size",
    "stroke-dashoffset",
    "offset",
    "letter-spacing",
    "word-spacing",
}
RATIOS = {"opacity", "fill-opacity", "stroke-opacity", "stop-opacity"}
PAINTS = {"fill", "stroke"}
REFERENCES = {"clip-path", "mask", "filter", "marker", "marker-start", "marker-mid", "marker-end"}
FONT_SIZES = {
    "xx-small": "9px",
    "x-small": "10px",
    "small": "13px",
    "medium": "16px",
    "large": "18px",
    "x-large": "24px",
    "xx-large": "32px",
}
GENERIC_FAMILIES = {
    "sans-serif": "DejaVu Sans",
    "sans": "DejaVu Sans",
    "serif": "DejaVu Serif",
    "monospace": "DejaVu Sans",
    "cursive": "DejaVu Serif",
    "fantasy": "DejaVu Serif",
    "system-ui": "DejaVu Sans",
}

_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_NUMBER_RE = re.compile(_NUMBER)
_LENGTH_RE = re.compile(rf"\s*({_NUMBER})\s*(px|pt|pc|mm|cm|in|em|ex|rem|%)?\s*")
_WORD_NUMBER_RE = re.compile(r"nan|inf", re.IGNORECASE)
_URL_RE = re.compile(r"url\(\s*['\"]?([^'\")]*)['\"]?\s*\)\s*(.*)", re.DOTALL)
_TRANSFORM_RE = re.compile(r"\s*(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)\s*,?")
_TRANSFORM_ARGS = {"matrix": (6,), "translate": (1, 2), "scale": (1, 2), "rotate": (1, 3), "skewX": (1,), "skewY": (1,)}
_PATH_RE = re.compile(rf"\s*(?:[MmZzLlHhVvCcSsQqTtAa]|{_NUMBER}|,)")
_PX = {
    "px": 1.0,
    "pt": 4 / 3,
    "pc": 16.0,
    "mm": 96 / 25.4,
    "cm": 96 / 2.54,
    "in": 96.0,
    "em": 16.0,
    "ex": 8.0,
    "rem": 16.0,
}


class PictureError(BoardgenError, ValueError):
    """A picture that cannot be used: unreadable, over a limit, or broken."""

    exit_code = 2


@dataclass(frozen=True)
class Node:
    """One element of a cleaned picture: tag, attributes (sorted), children and text."""

    tag: str
    attrs: tuple[tuple[str, str], ...]
    children: tuple[Node, ...] = ()
    text: str | None = None
    tail: str | None = None


@dataclass(frozen=True)
class Picture:
    """A picture ready to draw in a box: vector nodes in a viewBox, or raster bytes."""

    key: str
    viewbox: tuple[float, float, float, float]
    nodes: tuple[Node, ...] = ()
    raster_uri: str | None = None
    keeps_colours: bool = False
    # Properties set on the picture's <svg> element itself (its group inherits them).
    root_attrs: tuple[tuple[str, str], ...] = ()
    warnings: tuple[str, ...] = ()
    source: str = ""


def icons_root() -> Path:
    return layouts_root() / "art" / "game-icons"


def bundled_keys() -> list[str]:
    return sorted(p.stem for p in icons_root().glob("*.svg"))


NAME_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")


def picture_families(theme_families: Iterable[str]) -> tuple[str, ...]:
    from boardgen.data import fonts

    bundled = {face.family for face in fonts.faces().values() if face.path.parent == fonts.fonts_root()}
    return tuple(sorted(set(theme_families) | bundled))


@cache
def bundled_picture(path: str, key: str) -> Picture:
    pic = _load_svg(Path(path).read_bytes(), key, Path(path).name, ())
    return Picture(pic.key, pic.viewbox, pic.nodes, keeps_colours=False, root_attrs=pic.root_attrs, source=pic.source)


def load_picture(path: Path, key: str, families: tuple[str, ...] = ()) -> Picture:
    """Read, check and clean one picture file of the user's; warnings are logged once per file."""
    try:
        stat = path.stat()
    except (OSError, ValueError, RuntimeError) as exc:
        raise PictureError(f"picture file not found or unreadable: {path} ({reason(exc)})") from None
    if not path.is_file():
        raise PictureError(f"picture {path.name} is not a file")
    suffix = path.suffix.lower()
    if suffix not in PICTURE_SUFFIXES:
        raise PictureError(f"unsupported picture type {suffix or '(none)'!r} (use .svg, .png or .jpg): {path.name}")
    limit = MAX_SVG_BYTES if suffix == ".svg" else MAX_RASTER_BYTES
    if stat.st_size > limit:
        raise PictureError(f"picture {path.name} is {stat.st_size:,} bytes; the limit for {suffix} is {limit:,}")
    return _load_cached(str(path), stat.st_mtime_ns, stat.st_size, key, families)


def reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__


@cache
def _load_cached(path: str, mtime: int, size: int, key: str, families: tuple[str, ...]) -> Picture:
    name = Path(path).name
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_RASTER_BYTES + 1)
    except OSError as exc:
        raise PictureError(f"cannot read picture {name}: {reason(exc)}") from None
    if name.lower().endswith(".svg"):
        pic = _load_svg(data, key, name, families)
    else:
        uri, width, height = raster_uri(data, name)
        pic = Picture(key, (0.0, 0.0, float(width), float(height)), raster_uri=uri, keeps_colours=True, source=name)
    for message in pic.warnings:
        if message not in _logged:
            _logged.add(message)
            logger.warning("warning: %s", message)
    return pic


_logged: set[str] = set()


# Rasters ------------------------------------------------------------------------------------


def raster_uri(data: bytes, name: str) -> tuple[str, int, int]:
    """A PNG data URI of a PNG/JPEG: alpha kept, colours converted from its ICC profile to sRGB."""
    from PIL import Image, ImageCms, UnidentifiedImageError

    if len(data) > MAX_RASTER_BYTES:
        raise PictureError(f"picture {name} is over {MAX_RASTER_BYTES:,} bytes")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            opened = Image.open(io.BytesIO(data))
        with opened:
            width, height = opened.size
            if width < 1 or height < 1 or width * height > MAX_PIXELS:
                raise PictureError(
                    f"picture {name} is {width}x{height} pixels; the limit is {MAX_PIXELS // 1_000_000} megapixels"
                )
            if opened.format not in ("PNG", "JPEG"):
                raise PictureError(f"picture {name} is {opened.format or 'unknown'} data, not PNG or JPEG")
            opened.seek(0)
            opened.load()
            image = opened.copy()
            icc = opened.info.get("icc_profile")
    except PictureError:
        raise
    except Image.DecompressionBombError:
        raise PictureError(
            f"picture {name} has more pixels than the limit of {MAX_PIXELS // 1_000_000} megapixels"
        ) from None
    except UnidentifiedImageError:
        raise PictureError(f"picture {name} is not a PNG or JPEG image") from None
    except (OSError, ValueError, SyntaxError, EOFError, MemoryError, struct.error) as exc:
        raise PictureError(f"cannot read picture {name}: {reason(exc)}") from None
    alpha = image.mode in ("RGBA", "LA", "PA") or (image.mode in ("P", "L", "RGB") and "transparency" in image.info)
    mode = "RGBA" if alpha else "RGB"
    if icc:
        try:
            source = ImageCms.ImageCmsProfile(io.BytesIO(icc))
            if image.mode not in ("RGB", "RGBA", "CMYK", "L"):
                image = image.convert(mode)
            srgb = ImageCms.createProfile("sRGB")
            out_mode = "RGBA" if image.mode == "RGBA" else ("L" if image.mode == "L" else "RGB")
            image = ImageCms.profileToProfile(image, source, srgb, outputMode=out_mode) or image
        except (ImageCms.PyCMSError, OSError, ValueError) as exc:
            logger.warning(
                "warning: picture %s: its colour profile cannot be read (%s); colours taken as sRGB", name, exc
            )
    image = image.convert(mode)
    if max(image.size) > EMBED_SIDE:
        scale = EMBED_SIDE / max(image.size)
        image = image.resize(
            (max(1, round(image.width * scale)), max(1, round(image.height * scale))), Image.Resampling.LANCZOS
        )
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii"), width, height


# SVG ----------------------------------------------------------------------------------------


def _parse(data: bytes, name: str) -> Any:
    from lxml import etree

    if len(data) > MAX_SVG_BYTES:
        raise PictureError(f"picture {name} is over {MAX_SVG_BYTES:,} bytes")
    head = data[:4096].lower()
    if b"<!entity" in data.lower() or b"<!doctype svg [" in head:
        raise PictureError(f"picture {name} declares XML entities; save it without a DOCTYPE")
    parser = etree.XMLParser(
        resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False, remove_comments=True, remove_pis=True
    )
    try:
        root = etree.fromstring(data, parser)
    except (etree.XMLSyntaxError, ValueError) as exc:
        if "depth" in str(exc).lower():
            raise PictureError(f"picture {name}: elements nested over {MAX_DEPTH} deep") from None
        raise PictureError(f"picture {name} is not a readable SVG: {str(exc)[:200]}") from None
    if root is None or etree.QName(root).localname != "svg":
        raise PictureError(f"picture {name} is not an SVG document (its root is not <svg>)")
    count = 0
    stack = [(root, 1)]
    while stack:
        element, depth = stack.pop()
        count += 1
        if depth > MAX_DEPTH:
            raise PictureError(f"picture {name}: elements nested over {MAX_DEPTH} deep (line {element.sourceline})")
        if count > MAX_ELEMENTS:
            raise PictureError(f"picture {name} has over {MAX_ELEMENTS:,} elements")
        stack.extend((child, depth + 1) for child in element if isinstance(child.tag, str))
    return root


def _local(element: Any) -> tuple[str | None, str]:
    tag = element.tag
    if not isinstance(tag, str):
        return None, ""
    if tag.startswith("{"):
        uri, _, local = tag[1:].partition("}")
        return uri, local
    return SVG_URI, tag  # a file without xmlns: read as SVG, as a browser does for .svg


def _describe(element: Any) -> str:
    _, tag = _local(element)
    ident = element.get("id")
    where = f" id={ident!r}" if ident else ""
    return f"<{tag}{where}> (line {element.sourceline})"


def _cascade(root: Any, name: str, warn: Callable[[str], None]) -> dict[Any, dict[str, str]]:
    """Every element's specified properties: attributes < CSS rules < style= (then !important)."""
    import cssselect2
    import tinycss2

    matcher = cssselect2.Matcher()
    order = 0
    for element in root.iter():
        uri, tag = _local(element)
        if uri != SVG_URI or tag != "style":
            continue
        kind = (element.get("type") or "text/css").strip().lower()
        if kind != "text/css":
            continue
        rules = tinycss2.parse_stylesheet(element.text or "", skip_comments=True, skip_whitespace=True)
        for rule in _flat_rules(rules, name, warn):
            try:
                selectors = cssselect2.compile_selector_list(rule.prelude)
            except cssselect2.SelectorError:
                continue  # a browser skips a rule it cannot read
            declarations = _declarations(rule.content)
            for selector in selectors:
                order += 1
                matcher.add_selector(selector, declarations)
    out: dict[Any, dict[str, str]] = {}
    wrapper = cssselect2.ElementWrapper.from_xml_root(root)
    for item in wrapper.iter_subtree():
        element = item.etree_element
        normal: dict[str, str] = {}
        important: dict[str, str] = {}
        for attr, value in element.attrib.items():
            if attr in PROPERTIES:
                normal[attr] = value.strip()
        for _spec, _order, _pseudo, declarations in matcher.match(item) if order else ():
            for prop, value, is_important in declarations:
                (important if is_important else normal)[prop] = value
        style = element.get("style")
        if style:
            for prop, value, is_important in _declarations(style):
                (important if is_important else normal)[prop] = value
        normal.update(important)
        out[element] = normal
    return out


def _flat_rules(rules: Iterable[Any], name: str, warn: Callable[[str], None]) -> Iterator[Any]:
    import tinycss2

    for rule in rules:
        if rule.type == "qualified-rule":
            yield rule
        elif rule.type == "at-rule":
            keyword = rule.lower_at_keyword
            if keyword == "media" and rule.content is not None:
                media = tinycss2.serialize(rule.prelude).strip().lower()
                if media in ("", "all", "screen", "print") or "print" in media:
                    yield from _flat_rules(tinycss2.parse_rule_list(rule.content, True, True), name, warn)
            elif keyword == "import":
                warn(f"picture {name}: @import of an outside style sheet dropped")
            elif keyword == "font-face":
                warn(f"picture {name}: @font-face dropped (fonts come from boardgen or the theme)")


def _declarations(tokens: Any) -> list[tuple[str, str, bool]]:
    import tinycss2

    out = []
    for item in tinycss2.parse_blocks_contents(tokens, skip_comments=True, skip_whitespace=True):
        if item.type != "declaration":
            continue
        prop = item.lower_name
        if prop not in PROPERTIES:
            continue
        value = tinycss2.serialize(item.value).strip()
        out.append((prop, value, bool(item.important)))
    return out


@dataclass
class _Context:
    name: str
    families: tuple[str, ...]
    warnings: list[str] = field(default_factory=list)
    by_id: dict[str, Any] = field(default_factory=dict)
    props: dict[Any, dict[str, str]] = field(default_factory=dict)
    masks_as_clips: set[str] = field(default_factory=set)
    viewbox: tuple[float, float, float, float] = (0.0, 0.0, 100.0, 100.0)

    def warn(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)

    def fail(self, element: Any, message: str) -> PictureError:
        return PictureError(f"picture {self.name}: {_describe(element)} {message}")


def _load_svg(data: bytes, key: str, name: str, families: tuple[str, ...]) -> Picture:
    """Parse, check and clean a picture. What the checks cannot foresee is caught by drawing it
    once before a kit is made (`boardgen.render.art.require_pictures`)."""
    root = _parse(data, name)
    ctx = _Context(name, families)
    ctx.props = _cascade(root, name, ctx.warn)
    for element in root.iter():
        ident = element.get("id") if isinstance(element.tag, str) else None
        if ident and ident not in ctx.by_id:
            ctx.by_id[ident] = element
    ctx.viewbox = _viewbox(root, ctx)
    _check_use_expansion(root, ctx)
    ctx.masks_as_clips = {
        ident for ident, element in ctx.by_id.items() if _local(element)[1] == "mask" and _mask_is_clip(element, ctx)
    }
    root_attrs = _attributes(root, ctx, root=True)
    nodes = tuple(node for child in root for node in [_node(child, ctx)] if node is not None)
    # svglib ignores `opacity` on groups: each shape gets the product as its own fill/stroke opacity
    # (exact unless shapes of one see-through group overlap each other).
    attrs = dict(root_attrs)
    factor = float(attrs.pop("opacity", "1"))
    nodes = _push_opacity(nodes, factor, float(attrs.get("fill-opacity", "1")), float(attrs.get("stroke-opacity", "1")))
    root_attrs = tuple(sorted(attrs.items()))
    extra = tuple(_mask_clip_node(ctx.by_id[ident], ident, ctx) for ident in sorted(ctx.masks_as_clips))
    pic = Picture(
        key,
        ctx.viewbox,
        extra + nodes,
        keeps_colours=True,
        root_attrs=root_attrs,
        warnings=tuple(ctx.warnings),
        source=name,
    )
    return pic


def _viewbox(root: Any, ctx: _Context) -> tuple[float, float, float, float]:
    box = root.get("viewBox")
    if box is not None:
        parts = [p for p in re.split(r"[\s,]+", box.strip()) if p]
        try:
            numbers = [float(p) for p in parts]
        except ValueError:
            numbers = []
        if len(numbers) != 4 or not all(_sane(n) for n in numbers) or numbers[2] < MIN_SIZE or numbers[3] < MIN_SIZE:
            raise ctx.fail(
                root, f"has viewBox={_short(box)}: it needs four finite numbers, width and height at least {MIN_SIZE:g}"
            )
        return numbers[0], numbers[1], numbers[2], numbers[3]
    width, height = _length_px(root, "width", ctx), _length_px(root, "height", ctx)
    if not width or not height or width <= 0 or height <= 0:
        raise ctx.fail(root, "has neither a viewBox nor a width and height in absolute units")
    if width < MIN_SIZE or height < MIN_SIZE:
        raise ctx.fail(root, f"has a width or height under {MIN_SIZE:g}: it cannot be scaled to its box")
    return 0.0, 0.0, width, height


def _length_px(element: Any, attr: str, ctx: _Context) -> float | None:
    value = element.get(attr)
    if value is None:
        return None
    match = _LENGTH_RE.fullmatch(value)
    if not match or match.group(2) == "%":
        return None
    number = float(match.group(1)) * _PX.get(match.group(2) or "px", 1.0)
    if not _sane(number):
        raise ctx.fail(element, f"has {attr}={_short(value)}, which is not a finite number of sane size")
    return number


def _sane(number: float) -> bool:
    return math.isfinite(number) and abs(number) <= MAX_NUMBER


def _short(value: str, limit: int = 40) -> str:
    return repr(value if len(value) <= limit else value[:limit] + "…")


def _check_use_expansion(root: Any, ctx: _Context) -> None:
    """<use> of <use> of ... can multiply a small file into millions of shapes: count the total."""
    sizes: dict[int, int] = {}
    busy: set[int] = set()

    def size(element: Any) -> int:
        key = id(element)
        if key in sizes:
            return sizes[key]
        if key in busy:
            raise ctx.fail(element, "refers to itself through <use>")
        busy.add(key)
        total = 1
        if _local(element)[1] == "use":
            target = ctx.by_id.get(_fragment(_href(element)) or "")
            if target is not None:
                total += size(target)
        for child in element:
            if isinstance(child.tag, str):
                total += size(child)
            if total > MAX_ELEMENTS * 5:
                break
        busy.discard(key)
        sizes[key] = total
        return total

    if size(root) > MAX_ELEMENTS * 5:
        raise PictureError(f"picture {ctx.name}: its <use> elements expand to over {MAX_ELEMENTS * 5:,} elements")


def _href(element: Any) -> str:
    return (element.get(f"{{{XLINK_URI}}}href") or element.get("href") or "").strip()


def _fragment(href: str) -> str | None:
    return href[1:] if href.startswith("#") and len(href) > 1 else None


def _node(element: Any, ctx: _Context) -> Node | None:
    uri, tag = _local(element)
    if uri != SVG_URI:
        return None  # editor data (sodipodi, inkscape, Illustrator's i:pgf...)
    if tag in ("script", "foreignObject", "iframe"):
        if tag == "script":
            ctx.warn(f"picture {ctx.name}: {_describe(element)} dropped (scripts are never run)")
        elif _local(element.getparent())[1] != "switch":
            ctx.warn(f"picture {ctx.name}: {_describe(element)} dropped (HTML inside an SVG cannot be printed)")
        return None
    if tag == "mask":
        return None  # drawn as a clip path (see _mask_clip_node) or warned about where used
    if tag not in DRAWN:
        if tag not in QUIET and not _inside_defs(element):
            ctx.warn(f"picture {ctx.name}: {_describe(element)} is not drawn (boardgen cannot print this element)")
        return None
    if tag in ("linearGradient", "radialGradient"):
        return _gradient_node(element, ctx)
    if tag == "image":
        return _image_node(element, ctx)
    if tag == "a":
        tag = "g"
    if tag == "use" and _fragment(_href(element)) is None:
        ctx.warn(f"picture {ctx.name}: {_describe(element)} refers outside the file; dropped")
        return None
    attrs = _attributes(element, ctx)
    children = tuple(node for child in element for node in [_node(child, ctx)] if node is not None)
    text = tail = None
    if tag in ("text", "tspan"):
        text = element.text
        _check_text(element, ctx)
    parent = element.getparent()
    if parent is not None and _local(parent)[1] in ("text", "tspan"):
        tail = element.tail
    return Node(tag, attrs, children, text, tail)


_CONTAINERS = {"g", "svg", "switch", "a"}
_LEAVES = {"path", "rect", "circle", "ellipse", "line", "polyline", "polygon", "text"}


def _push_opacity(nodes: tuple[Node, ...], factor: float, fill: float, stroke: float) -> tuple[Node, ...]:
    out = []
    for node in nodes:
        attrs = dict(node.attrs)
        if node.tag not in _CONTAINERS and node.tag not in _LEAVES:
            out.append(node)  # defs, gradients, clip paths, <use>, images: left as they are
            continue
        own = float(attrs.pop("opacity", "1"))
        here_fill = float(attrs.get("fill-opacity", fill))
        here_stroke = float(attrs.get("stroke-opacity", stroke))
        total = factor * own
        if node.tag in _CONTAINERS:
            children = _push_opacity(node.children, total, here_fill, here_stroke)
            out.append(Node(node.tag, tuple(sorted(attrs.items())), children, node.text, node.tail))
            continue
        if total != 1.0 or "fill-opacity" in attrs:
            attrs["fill-opacity"] = number_text(here_fill * total)
        if total != 1.0 or "stroke-opacity" in attrs:
            attrs["stroke-opacity"] = number_text(here_stroke * total)
        out.append(Node(node.tag, tuple(sorted(attrs.items())), node.children, node.text, node.tail))
    return tuple(out)


def _inside_defs(element: Any) -> bool:
    parent = element.getparent()
    while parent is not None:
        if _local(parent)[1] == "defs":
            return True
        parent = parent.getparent()
    return False


def _attributes(element: Any, ctx: _Context, *, root: bool = False) -> tuple[tuple[str, str], ...]:
    _, tag = _local(element)
    out: dict[str, str] = {}
    if not root:
        for attr, value in element.attrib.items():
            name = _attr_name(attr)
            if name is None or name in PROPERTIES or name.startswith("on"):
                continue
            if name == "href":
                fragment = _fragment(value.strip())
                if fragment is not None and tag in ("use",):
                    out["xlink:href"] = "#" + fragment
                continue
            if name in GEOMETRY or name == "xml:space":
                out[name] = value
    props = dict(ctx.props.get(element, {}))
    for prop, value in props.items():
        fixed = _property(element, prop, value, ctx)
        if fixed is not None:
            out[prop] = fixed
    for name in list(out):
        if name in GEOMETRY or name in LENGTHS or name in RATIOS:
            fixed = _check_value(element, tag, name, out[name], ctx)
            if fixed is None:
                del out[name]
            else:
                out[name] = fixed
    mask = props.get("mask", "")
    match = _URL_RE.match(mask)
    fragment = _fragment(match.group(1).strip()) if match else None
    if fragment in ctx.masks_as_clips and "clip-path" not in out:
        out["clip-path"] = f"url(#{fragment})"
    if root:
        for name in ("width", "height", "x", "y", "viewBox", "preserveAspectRatio", "id"):
            out.pop(name, None)
    return tuple(sorted(out.items()))


def _attr_name(attr: str) -> str | None:
    if attr.startswith("{"):
        uri, _, local = attr[1:].partition("}")
        if uri == XLINK_URI and local == "href":
            return "href"
        if uri == XML_URI and local == "space":
            return "xml:space"
        return None
    return attr


def _property(element: Any, prop: str, value: str, ctx: _Context) -> str | None:
    """A property value as svglib reads it, or None to leave it out (with a warning if it showed)."""
    value = value.replace("!important", "").strip()
    lowered = value.lower()
    if lowered in ("inherit", "unset", "initial", "revert", ""):
        return None  # the inherited or initial value, which is what leaving it out gives
    if prop in PAINTS or prop in ("stop-color", "color"):
        return _paint(element, prop, value, ctx)
    if prop in REFERENCES:
        return _reference(element, prop, value, ctx)
    if prop == "font-family":
        return _family(element, value, ctx)
    if prop == "font-size" and lowered in FONT_SIZES:
        return FONT_SIZES[lowered]
    if prop == "font-weight":
        return "bold" if lowered in ("bold", "bolder", "600", "700", "800", "900") else "normal"
    if prop == "font-style":
        if lowered in ("italic", "oblique"):
            ctx.warn(
                f"picture {ctx.name}: {_describe(element)} asks for italic text, drawn upright "
                "(no italic font is available)"
            )
        return None
    if prop == "mix-blend-mode":
        if lowered != "normal":
            ctx.warn(f"picture {ctx.name}: {_describe(element)} blend mode {value!r} is drawn as normal")
        return None
    if prop == "paint-order":
        if lowered.startswith("stroke"):
            ctx.warn(
                f"picture {ctx.name}: {_describe(element)} paint-order {value!r}: the stroke is drawn over the fill"
            )
        return None
    if prop in ("letter-spacing", "word-spacing"):
        return None if lowered == "normal" else value
    if prop == "stroke-dasharray":
        if lowered == "none":
            return value
        numbers = [p for p in re.split(r"[\s,]+", value) if p]
        for part in numbers:
            match = _LENGTH_RE.fullmatch(part)
            if not match or not _sane(float(match.group(1))) or float(match.group(1)) < 0:
                raise ctx.fail(element, f"has stroke-dasharray={_short(value)}, which is not a list of lengths")
        return value
    if prop == "stroke-miterlimit":
        try:
            number = float(value)
        except ValueError:
            return None
        if not _sane(number):
            raise ctx.fail(element, f"has stroke-miterlimit={_short(value)}, not a finite number")
        return value
    return value


def _paint(element: Any, prop: str, value: str, ctx: _Context) -> str | None:
    lowered = value.lower()
    if lowered in ("none", "transparent"):
        return "none"
    if lowered == "currentcolor":
        return _current_colour(element, ctx) if prop != "color" else None
    if lowered.startswith("url("):
        match = _URL_RE.match(value)
        target, fallback = (match.group(1).strip(), match.group(2).strip()) if match else ("", "")
        fragment = _fragment(target)
        referenced = ctx.by_id.get(fragment) if fragment else None
        kind = _local(referenced)[1] if referenced is not None else ""
        if kind in ("linearGradient", "radialGradient") and prop == "fill":
            return f"url(#{fragment})"
        if kind in ("linearGradient", "radialGradient"):
            colour = _gradient_middle(referenced, ctx)
            ctx.warn(
                f"picture {ctx.name}: {_describe(element)} has a gradient {prop}, drawn in its middle colour {colour}"
            )
            return colour
        if fragment is None:
            what = "an outside reference" if target else "an empty url()"
            ctx.warn(f"picture {ctx.name}: {_describe(element)} {prop} names {what} ({_short(target)}), dropped")
        elif kind == "pattern":
            ctx.warn(
                f"picture {ctx.name}: {_describe(element)} {prop} is a pattern, which boardgen cannot "
                "draw; " + ("its fallback colour is used" if fallback else "left unpainted")
            )
        else:
            ctx.warn(f"picture {ctx.name}: {_describe(element)} {prop} refers to a missing paint #{fragment}")
        if fallback:
            return _paint(element, prop, fallback, ctx)
        return "none"
    try:
        return parse_colour(value)
    except ColourError:
        if lowered.startswith(("rgba(", "hsl", "#")) or lowered in ("context-fill", "context-stroke"):
            rgba = _rgba(value)
            if rgba is not None:
                return rgba
        ctx.warn(
            f"picture {ctx.name}: {_describe(element)} {prop}={_short(value)} is not a colour boardgen "
            "reads; ignored as a browser would"
        )
        return None


def _current_colour(element: Any, ctx: _Context) -> str:
    """currentColor: the nearest `color` up the tree (CSS inheritance), black if none."""
    node = element
    while node is not None:
        value = ctx.props.get(node, {}).get("color")
        if value and value.strip().lower() not in ("currentcolor", "inherit"):
            try:
                return parse_colour(value)
            except ColourError:
                return _rgba(value) or "#000000"
        node = node.getparent()
    return "#000000"


def _rgba(value: str) -> str | None:
    """hsl() and #rgba forms, which parse_colour leaves out, as #rrggbb (alpha dropped)."""
    text = value.strip().lower()
    if text.startswith("#") and len(text) in (5, 9):
        try:
            return parse_colour(text[: 4 if len(text) == 5 else 7])
        except ColourError:
            return None
    match = re.fullmatch(r"hsla?\(\s*([^)]*)\)", text)
    if not match:
        return None
    parts = [p for p in re.split(r"[\s,/]+", match.group(1)) if p]
    try:
        hue = float(parts[0].removesuffix("deg")) / 360
        sat = float(parts[1].rstrip("%")) / 100
        light = float(parts[2].rstrip("%")) / 100
    except (ValueError, IndexError):
        return None
    if not all(math.isfinite(v) for v in (hue, sat, light)):
        return None
    import colorsys

    r, g, b = colorsys.hls_to_rgb(hue % 1, min(max(light, 0), 1), min(max(sat, 0), 1))
    return "#" + "".join(f"{round(c * 255):02x}" for c in (r, g, b))


def _reference(element: Any, prop: str, value: str, ctx: _Context) -> str | None:
    if value.lower() == "none":
        return None
    match = _URL_RE.match(value)
    fragment = _fragment(match.group(1).strip()) if match else None
    referenced = ctx.by_id.get(fragment) if fragment else None
    kind = _local(referenced)[1] if referenced is not None else ""
    what = _describe(element)
    if fragment is None:
        ctx.warn(f"picture {ctx.name}: {what} {prop} names an outside reference, dropped")
        return None
    if prop == "clip-path" and referenced is not None and kind == "clipPath":
        if (referenced.get("clipPathUnits") or "").strip() == "objectBoundingBox":
            ctx.warn(f"picture {ctx.name}: {what} clip path in objectBoundingBox units is not applied")
            return None
        return f"url(#{fragment})"
    if prop == "mask" and fragment in ctx.masks_as_clips:
        if ctx.props.get(element, {}).get("clip-path"):
            ctx.warn(f"picture {ctx.name}: {what} has both a clip path and a mask; the mask is not applied")
            return None
        return None  # turned into clip-path below (see _attributes_mask)
    if prop == "mask":
        ctx.warn(
            f"picture {ctx.name}: {what} mask is not applied (only masks of opaque white shapes, "
            "which act as clip paths, can be printed); the content is drawn unmasked"
        )
    elif prop == "filter":
        ctx.warn(f"picture {ctx.name}: {what} filter effect (blur, shadow...) is not applied; drawn without it")
    elif prop.startswith("marker"):
        ctx.warn(f"picture {ctx.name}: {what} markers (arrow heads...) are not drawn")
    else:
        ctx.warn(f"picture {ctx.name}: {what} {prop} refers to a missing #{fragment}")
    return None


def _family(element: Any, value: str, ctx: _Context) -> str | None:
    wanted = [part.strip().strip("'\"").strip() for part in value.split(",")]
    known = {family.lower(): family for family in ctx.families} if ctx.families else {}
    if not known:
        from boardgen.data import fonts

        known = {family.lower(): family for family in fonts.families()}
    for family in wanted:
        if family.lower() in known:
            return known[family.lower()]
        if family.lower() in GENERIC_FAMILIES:
            return GENERIC_FAMILIES[family.lower()]
    first = wanted[0] if wanted else value
    hint = difflib.get_close_matches(first.lower(), list(known), n=1)
    ctx.warn(
        f"picture {ctx.name}: {_describe(element)} font {first!r} is not available; drawn in DejaVu Sans "
        f"(give the theme the font file{', or use ' + repr(known[hint[0]]) if hint else ''})"
    )
    return "DejaVu Sans"


def _check_value(element: Any, tag: str, name: str, value: str, ctx: _Context) -> str | None:
    """Numbers in geometry must be finite and of sane size; a malformed one is an error."""
    if _WORD_NUMBER_RE.search(value) and name not in (
        "id",
        "preserveAspectRatio",
        "href",
        "xlink:href",
        "spreadMethod",
        "gradientUnits",
        "clipPathUnits",
        "systemLanguage",
        "xml:space",
    ):
        raise ctx.fail(element, f"has {name}={_short(value)}: numbers must be finite")
    if name == "transform" or name == "gradientTransform":
        _matrix(element, name, value, ctx)
        return value
    if name == "d":
        _check_path(element, value, ctx)
        return value
    if name in ("points", "viewBox"):
        for token in _NUMBER_RE.findall(value):
            if not _sane(float(token)):
                raise ctx.fail(element, f"has {name} with the number {_short(token)}, out of range")
        if re.search(r"[^\d\s,.eE+-]", value):
            raise ctx.fail(element, f"has {name}={_short(value)}, which is not a list of numbers")
        numbers = [float(token) for token in _NUMBER_RE.findall(value)]
        if name == "viewBox" and (len(numbers) != 4 or numbers[2] < MIN_SIZE or numbers[3] < MIN_SIZE):
            raise ctx.fail(
                element, f"has viewBox={_short(value)}: it needs four numbers, width and height at least {MIN_SIZE:g}"
            )
        return value
    if name in RATIOS:
        match = _LENGTH_RE.fullmatch(value)
        if not match or match.group(2) not in (None, "%"):
            raise ctx.fail(element, f"has {name}={_short(value)}, which is not a number")
        number = float(match.group(1)) / (100 if match.group(2) else 1)
        if not math.isfinite(number):
            raise ctx.fail(element, f"has {name}={_short(value)}: numbers must be finite")
        return number_text(min(max(number, 0.0), 1.0))
    if name in LENGTHS:
        if name in ("width", "height") and value.strip() == "auto":
            return None
        parts = (
            [value]
            if not (tag in ("text", "tspan") and name in ("x", "y", "dx", "dy"))
            else [p for p in re.split(r"[\s,]+", value.strip()) if p]
        )
        for part in parts:
            match = _LENGTH_RE.fullmatch(part)
            if not match:
                raise ctx.fail(
                    element,
                    f"has {name}={_short(value)}, which is not a length (a number, "
                    "optionally with a unit such as px or mm)",
                )
            if not _sane(float(match.group(1))):
                raise ctx.fail(element, f"has {name}={_short(value)}, a number out of range")
        if name in ("width", "height", "r", "rx", "ry", "stroke-width", "font-size") and value.strip().startswith("-"):
            raise ctx.fail(element, f"has a negative {name}={_short(value)}")
    return value


def number_text(value: float) -> str:
    return f"{value:.6g}"


_PATH_ARGS = {"m": 2, "l": 2, "h": 1, "v": 1, "c": 6, "s": 4, "q": 4, "t": 2, "a": 7, "z": 0}


def _check_path(element: Any, value: str, ctx: _Context) -> None:
    """Path syntax, with the right count of finite numbers after every command."""
    position = 0
    command = ""
    count = 0

    def close(command: str, count: int) -> None:
        need = _PATH_ARGS[command.lower()]
        if (need == 0 and count) or (need and (count == 0 or count % need)):
            raise ctx.fail(
                element,
                f"has path data with {count} number(s) after {command!r}, which takes "
                f"{need if need else 'none'}{' (or a multiple)' if need else ''}",
            )

    for match in _PATH_RE.finditer(value):
        if match.start() != position:
            break
        position = match.end()
        token = match.group().strip()
        if not token or token == ",":
            continue
        if token[0] in "+-.0123456789":
            if not command:
                raise ctx.fail(element, "has path data that does not start with a move (M)")
            if not _sane(float(token)):
                raise ctx.fail(element, f"has path data with the number {_short(token)}, out of range")
            count += 1
            continue
        if command:
            close(command, count)
        elif token not in "Mm":
            raise ctx.fail(element, "has path data that does not start with a move (M)")
        command, count = token, 0
    rest = value[position:].strip()
    if rest:
        raise ctx.fail(element, f"has path data that is not SVG path syntax near {_short(rest, 20)}")
    if command:
        close(command, count)


Matrix = tuple[float, float, float, float, float, float]


def _matrix(element: Any, name: str, value: str, ctx: _Context) -> Matrix:
    """The transform as one matrix (a, b, c, d, e, f); malformed or non-finite ones are an error."""
    result: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    position = 0
    text = value.strip()
    for match in _TRANSFORM_RE.finditer(text):
        if match.start() != position:
            break
        position = match.end()
        kind, raw = match.group(1), match.group(2)
        args = [float(t) for t in _NUMBER_RE.findall(raw)]
        leftover = _NUMBER_RE.sub("", raw).replace(",", "").strip()
        if leftover or len(args) not in _TRANSFORM_ARGS[kind] or not all(_sane(a) for a in args):
            raise ctx.fail(
                element,
                f"has {name}={_short(value)}: {kind}() takes "
                f"{' or '.join(map(str, _TRANSFORM_ARGS[kind]))} finite numbers",
            )
        result = _multiply(result, _step(kind, args))
    if text[position:].strip():
        raise ctx.fail(element, f"has {name}={_short(value)}, which is not an SVG transform")
    return result


def _step(kind: str, args: list[float]) -> Matrix:
    if kind == "matrix":
        return args[0], args[1], args[2], args[3], args[4], args[5]
    if kind == "translate":
        return 1, 0, 0, 1, args[0], args[1] if len(args) > 1 else 0.0
    if kind == "scale":
        return args[0], 0, 0, args[1] if len(args) > 1 else args[0], 0, 0
    if kind == "rotate":
        a = math.radians(args[0])
        rot: Matrix = (math.cos(a), math.sin(a), -math.sin(a), math.cos(a), 0, 0)
        if len(args) == 3:
            return _multiply(_multiply((1, 0, 0, 1, args[1], args[2]), rot), (1, 0, 0, 1, -args[1], -args[2]))
        return rot
    if kind == "skewX":
        return 1, 0, math.tan(math.radians(args[0])), 1, 0, 0
    return 1, math.tan(math.radians(args[0])), 0, 1, 0, 0


def _multiply(m: Matrix, n: Matrix) -> Matrix:
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (
        a * a2 + c * b2,
        b * a2 + d * b2,
        a * c2 + c * d2,
        b * c2 + d * d2,
        a * e2 + c * f2 + e,
        b * e2 + d * f2 + f,
    )


def _check_text(element: Any, ctx: _Context) -> None:
    for child in element:
        uri, tag = _local(child)
        if uri == SVG_URI and tag == "textPath":
            ctx.warn(f"picture {ctx.name}: {_describe(child)} text on a path is not drawn")
    # The characters must exist in the font the text is drawn with: a missing one would print a box.
    from boardgen.data import fonts

    family, weight, node = "DejaVu Sans", "normal", element
    found_family = found_weight = False
    while node is not None and not (found_family and found_weight):
        props = ctx.props.get(node, {})
        if not found_family and props.get("font-family"):
            family = _family(node, props["font-family"], ctx) or family
            found_family = True
        if not found_weight and props.get("font-weight"):
            weight = _property(node, "font-weight", props["font-weight"], ctx) or weight
            found_weight = True
        node = node.getparent()
    own = "".join([element.text or ""] + [child.tail or "" for child in element])
    try:
        fonts.check_glyphs(own, family, weight)
    except (fonts.MissingGlyphError, fonts.UnknownFontError) as exc:
        ctx.warn(f"picture {ctx.name}: {_describe(element)} {exc}; those characters would print as boxes")


# Gradients ----------------------------------------------------------------------------------

_GRADIENT_ATTRS = (
    "x1",
    "y1",
    "x2",
    "y2",
    "cx",
    "cy",
    "r",
    "fx",
    "fy",
    "gradientUnits",
    "gradientTransform",
    "spreadMethod",
)


def _gradient_chain(element: Any, ctx: _Context) -> list[Any]:
    chain = [element]
    seen = {id(element)}
    while True:
        target = ctx.by_id.get(_fragment(_href(chain[-1])) or "")
        if target is None or id(target) in seen or _local(target)[1] not in ("linearGradient", "radialGradient"):
            return chain
        seen.add(id(target))
        chain.append(target)


def _gradient_node(element: Any, ctx: _Context) -> Node | None:
    """A gradient with its inherited attributes and stops copied in and its transform applied."""
    ident = element.get("id")
    if not ident:
        return None
    _, tag = _local(element)
    chain = _gradient_chain(element, ctx)
    attrs: dict[str, str] = {}
    for name in _GRADIENT_ATTRS:
        for link in chain:
            if link.get(name) is not None:
                attrs[name] = link.get(name)
                break
    stops_from = next((link for link in chain if any(_local(c)[1] == "stop" for c in link)), None)
    stops = _stops(stops_from, ctx) if stops_from is not None else []
    units = (attrs.get("gradientUnits") or "objectBoundingBox").strip()
    bbox = units != "userSpaceOnUse"
    width, height = ctx.viewbox[2], ctx.viewbox[3]

    def coord(name: str, default: str, extent: float) -> float:
        raw = (attrs.get(name) or default).strip()
        match = _LENGTH_RE.fullmatch(raw)
        if not match or not _sane(float(match.group(1))):
            raise ctx.fail(element, f"has {name}={_short(raw)}, which is not a coordinate")
        number = float(match.group(1))
        if match.group(2) == "%":
            return number / 100 * (1.0 if bbox else extent)
        return number * _PX.get(match.group(2) or "px", 1.0)

    out: dict[str, str] = {"id": ident, "gradientUnits": "objectBoundingBox" if bbox else "userSpaceOnUse"}
    spread = (attrs.get("spreadMethod") or "pad").strip()
    if spread != "pad":
        ctx.warn(f"picture {ctx.name}: {_describe(element)} spreadMethod {spread!r} is drawn as 'pad'")
    matrix = _matrix(element, "gradientTransform", attrs.get("gradientTransform", ""), ctx)
    if tag == "linearGradient":
        x1, y1 = coord("x1", "0%", width), coord("y1", "0%", height)
        x2, y2 = coord("x2", "100%", width), coord("y2", "0%", height)
        x1, y1, x2, y2 = _transform_linear(matrix, x1, y1, x2, y2)
        out.update(x1=number_text(x1), y1=number_text(y1), x2=number_text(x2), y2=number_text(y2))
    else:
        cx, cy, r = (
            coord("cx", "50%", width),
            coord("cy", "50%", height),
            coord("r", "50%", math.hypot(width, height) / math.sqrt(2)),
        )
        a, b, c, d, e, f = matrix
        if abs(a - d) > 1e-6 * max(1.0, abs(a)) or abs(b + c) > 1e-6 * max(1.0, abs(b)):
            ctx.warn(f"picture {ctx.name}: {_describe(element)} is an elliptical gradient, drawn circular")
        scale = math.sqrt(abs(a * d - b * c))
        cx, cy = a * cx + c * cy + e, b * cx + d * cy + f
        out.update(cx=number_text(cx), cy=number_text(cy), r=number_text(r * scale))
    if not all(_sane(float(v)) for k, v in out.items() if k in ("x1", "y1", "x2", "y2", "cx", "cy", "r")):
        raise ctx.fail(element, "has a gradient whose numbers are out of range")
    return Node(tag, tuple(sorted(out.items())), tuple(stops))


def _transform_linear(m: Matrix, x1: float, y1: float, x2: float, y2: float) -> tuple[float, float, float, float]:
    """The same gradient after transform m: lines of equal colour stay parallel, so only the axis moves."""
    a, b, c, d, e, f = m
    if m == (1.0, 0.0, 0.0, 1.0, 0.0, 0.0):
        return x1, y1, x2, y2
    px, py = a * x1 + c * y1 + e, b * x1 + d * y1 + f
    dx, dy = x2 - x1, y2 - y1
    ldx, ldy = a * dx + c * dy, b * dx + d * dy  # the axis, transformed
    nx, ny = -dy, dx  # a line of equal colour, before
    ux, uy = a * nx + c * ny, b * nx + d * ny  # ... and after
    gx, gy = uy, -ux  # the new axis is perpendicular to it
    length = math.hypot(gx, gy)
    if length == 0:
        return px, py, px + ldx, py + ldy
    gx, gy = gx / length, gy / length
    along = ldx * gx + ldy * gy
    return px, py, px + gx * along, py + gy * along


def _stops(element: Any, ctx: _Context) -> list[Node]:
    out = []
    last = 0.0
    translucent = False
    for child in element:
        if _local(child)[1] != "stop":
            continue
        props = ctx.props.get(child, {})
        raw = (child.get("offset") or "0").strip()
        match = _LENGTH_RE.fullmatch(raw)
        if not match or match.group(2) not in (None, "%") or not math.isfinite(float(match.group(1))):
            raise ctx.fail(child, f"has offset={_short(raw)}, which is not a number or percentage")
        offset = float(match.group(1)) / (100 if match.group(2) else 1)
        offset = min(max(offset, last), 1.0)
        last = offset
        colour = _paint(child, "stop-color", props.get("stop-color", "black"), ctx) or "#000000"
        if colour in ("none", "currentColor"):
            colour = "#000000"
        opacity_raw = props.get("stop-opacity", "1")
        opacity = float(_check_value(child, "stop", "stop-opacity", opacity_raw, ctx) or 1)
        if opacity < 1:
            translucent = True
            colour = _over_white(colour, opacity)
        out.append(Node("stop", (("offset", number_text(offset)), ("stop-color", colour))))
    if translucent:
        ctx.warn(
            f"picture {ctx.name}: {_describe(element)} has see-through gradient stops; printed as if over white paper"
        )
    return out


def _over_white(colour: str, opacity: float) -> str:
    channels = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(c * opacity + 255 * (1 - opacity)):02x}" for c in channels)


def _gradient_middle(element: Any, ctx: _Context) -> str:
    chain = _gradient_chain(element, ctx)
    holder = next((link for link in chain if any(_local(c)[1] == "stop" for c in link)), None)
    stops = _stops(holder, ctx) if holder is not None else []
    if not stops:
        return "#000000"
    colours = [dict(stop.attrs)["stop-color"] for stop in stops]
    channels = [round(sum(int(c[i : i + 2], 16) for c in colours) / len(colours)) for i in (1, 3, 5)]
    return "#" + "".join(f"{c:02x}" for c in channels)


# Masks and images ---------------------------------------------------------------------------


def _mask_is_clip(mask: Any, ctx: _Context) -> bool:
    """A mask of opaque white shapes (no gradient, no translucency) cuts exactly like a clip path."""
    if (mask.get("maskContentUnits") or "userSpaceOnUse").strip() != "userSpaceOnUse":
        return False
    shapes = 0

    def ok(element: Any, fill: str) -> bool:
        nonlocal shapes
        uri, tag = _local(element)
        if uri != SVG_URI:
            return True
        props = ctx.props.get(element, {})
        fill = props.get("fill", fill)
        for prop in ("opacity", "fill-opacity"):
            if props.get(prop, "1").strip() not in ("1", "1.0", "100%"):
                return False
        if props.get("stroke", "none").strip().lower() not in ("none", ""):
            return False
        if tag == "g":
            return all(ok(child, fill) for child in element)
        if tag in ("path", "rect", "circle", "ellipse", "polygon"):
            shapes += 1
            try:
                return parse_colour(fill) == "#ffffff"
            except ColourError:
                return False
        return tag in ("title", "desc", "metadata")

    return all(ok(child, "black") for child in mask) and shapes > 0


def _mask_clip_node(mask: Any, ident: str, ctx: _Context) -> Node:
    children = []
    for child in mask.iter():
        uri, tag = _local(child)
        if uri == SVG_URI and tag in ("path", "rect", "circle", "ellipse", "polygon"):
            attrs = dict(_attributes(child, ctx))
            attrs.pop("id", None)
            transform = _accumulated_transform(child, mask)
            if transform:
                attrs["transform"] = transform
            children.append(Node(tag, tuple(sorted(attrs.items()))))
    return Node("clipPath", (("id", ident),), tuple(children))


def _accumulated_transform(element: Any, stop_at: Any) -> str:
    parts = []
    node = element
    while node is not None and node is not stop_at:
        if node.get("transform"):
            parts.append(node.get("transform"))
        node = node.getparent()
    return " ".join(reversed(parts))


def _image_node(element: Any, ctx: _Context) -> Node | None:
    href = _href(element)
    match = re.match(r"data:image/(png|jpe?g);base64,", href, re.IGNORECASE)
    if not match:
        what = "an SVG image" if href.startswith("data:image/svg") else "an outside file"
        ctx.warn(f"picture {ctx.name}: {_describe(element)} shows {what}; dropped (embed PNG or JPEG data)")
        return None
    try:
        data = base64.b64decode(href[match.end() :], validate=False)
    except ValueError:
        raise ctx.fail(element, "has image data that is not valid base64") from None
    uri, width, height = raster_uri(data, f"{ctx.name} {_describe(element)}")
    attrs = dict(_attributes(element, ctx))
    attrs["xlink:href"] = uri
    attrs.setdefault("width", str(width))
    attrs.setdefault("height", str(height))
    return Node("image", tuple(sorted(attrs.items())))
