"""Pictures on the page: a theme's picture for a key (its own or the bundled icon), made ready to
place in an SVG (ids made unique), and the check before a kit is made that every picture it
needs exists and draws. Reading and cleaning picture files is data-layer work:
`boardgen.data.pictures`."""

from __future__ import annotations

import difflib
import logging
import re
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path

from boardgen.data.pictures import (
    NAME_RE,
    SVG_URI,
    XLINK_URI,
    Node,
    Picture,
    PictureError,
    bundled_keys,
    bundled_picture,
    icons_root,
    load_picture,
    number_text,
    picture_families,
    reason,
)
from boardgen.data.theme import Theme
from boardgen.errors import BoardgenError, DataError, Problem
from boardgen.model.game import GameInfo

logger = logging.getLogger("boardgen.pictures")


def picture(theme: Theme, key: str) -> Picture:
    """The theme's own picture for key if it names one, else the bundled icon."""
    override = theme.art.get(key)
    if override is not None:
        try:
            return load_picture(override, key, font_families(theme))
        except PictureError as exc:
            raise DataError([theme.doc.problem(("art", key), str(exc))]) from None
    path = icons_root() / f"{key}.svg"
    if not NAME_RE.match(key) or not path.is_file():
        raise DataError([theme.doc.problem(("art", key), f"no bundled picture {key!r} and the theme names none")])
    return bundled_picture(str(path), key)


def font_families(theme: Theme) -> tuple[str, ...]:
    """Families a picture's text may use: the theme's own and the bundled ones."""
    return picture_families(theme.fonts.values())


def rename_ids(nodes: Iterable[Node], prefix: str) -> tuple[Node, ...]:
    """The nodes with every id and internal reference prefixed: one picture may appear many times."""

    def walk(node: Node) -> Node:
        attrs = []
        for name, value in node.attrs:
            if name == "id":
                value = prefix + value
            elif name == "xlink:href" and value.startswith("#"):
                value = "#" + prefix + value[1:]
            elif "url(#" in value:
                value = re.sub(r"url\(#([^)]*)\)", lambda m: f"url(#{prefix}{m.group(1)})", value)
            attrs.append((name, value))
        return Node(node.tag, tuple(attrs), tuple(walk(child) for child in node.children), node.text, node.tail)

    return tuple(walk(node) for node in nodes)


# SVG's initial values for what a picture inherits, set on its group so that nothing around it leaks in.
PICTURE_DEFAULTS = (
    ("fill", "#000000"),
    ("stroke", "none"),
    ("font-family", "DejaVu Sans"),
    ("font-size", "16"),
    ("font-weight", "normal"),
)


def picture_document(pic: Picture) -> str:
    """A standalone SVG of a cleaned picture (used to check it draws, and in tests)."""
    from xml.etree import ElementTree as ET

    root = ET.Element(
        "svg",
        {
            "xmlns": SVG_URI,
            "xmlns:xlink": XLINK_URI,
            "viewBox": " ".join(number_text(v) for v in pic.viewbox),
            "width": number_text(pic.viewbox[2]),
            "height": number_text(pic.viewbox[3]),
        },
    )
    group = ET.SubElement(root, "g", dict((*PICTURE_DEFAULTS, *pic.root_attrs)))

    def add(parent: ET.Element, node: Node) -> None:
        element = ET.SubElement(parent, node.tag, dict(node.attrs))
        element.text = node.text
        element.tail = node.tail
        for child in node.children:
            add(element, child)

    for node in pic.nodes:
        add(group, node)
    return ET.tostring(root, encoding="unicode")


def require_pictures(theme: Theme, layout: GameInfo) -> None:
    """Before any expensive work: the theme's picture keys all mean something for this game,
    every picture the game needs exists, and each of the theme's own pictures draws (svglib,
    once per file: it catches what the reading checks cannot foresee; its notes are warnings)."""
    problems = check_theme_pictures(theme, layout.picture_keys(), where=_used_at(layout))
    for key in sorted(theme.art) if not problems else ():
        path = theme.art[key]
        if path.suffix.lower() != ".svg":
            continue
        try:
            _draw_once(str(path), path.stat().st_mtime_ns, font_families(theme), key)
        except PictureError as exc:
            problems.append(theme.doc.problem(("art", key), str(exc)))
    if problems:
        raise DataError(problems)


@cache
def _draw_once(path: str, _mtime: int, families: tuple[str, ...], key: str) -> None:
    """Draw a picture into a throwaway PDF; svglib's notes are logged once, a failure is a PictureError."""
    from boardgen.render.pdf import trial_render

    pic = load_picture(Path(path), key, families)
    name = Path(path).name
    try:
        notes = trial_render(picture_document(pic))
    except BoardgenError:
        raise
    except Exception as exc:  # svglib/reportlab on input we did not foresee: still a clear error
        raise PictureError(f"picture {name} cannot be drawn: {reason(exc)}") from None
    for note in notes:
        logger.warning("warning: picture %s: %s", name, note)


def _used_at(layout: GameInfo) -> dict[str, tuple[str, str, int | None]]:
    """Where the layout first names each picture: file (a deck's CSV), dotted key, line."""
    from boardgen.data.decks import DECK_KEYS

    doc = layout.doc
    data = doc.data
    out: dict[str, tuple[str, str, int | None]] = {}
    for table in DECK_KEYS:
        items = data.get(table)
        for index, item in enumerate(items if isinstance(items, list) else []):
            if not isinstance(item, dict):
                continue
            column = "art" if isinstance(item.get("art"), str) else "id"
            name = item.get(column)
            if isinstance(name, str) and name not in out:
                out[name] = doc.where(table, index, column)
    return out


def check_theme_pictures(
    theme: Theme, used: Iterable[str] = (), where: Mapping[str, tuple[str, str, int | None]] | None = None
) -> list[Problem]:
    """Every picture problem of a theme at once: unknown keys, missing or broken files, and
    pictures a layout needs that neither boardgen nor the theme has (named where the layout
    uses them, `where`: a deck's CSV file, its line and column, with the closest picture)."""
    problems: list[Problem] = []
    bundled = set(bundled_keys())
    used_set = set(used)
    known = bundled | used_set
    for key in sorted(theme.art):
        if key not in known:
            hint = difflib.get_close_matches(key, sorted(known), n=1, cutoff=0.6)
            tail = f" (did you mean {hint[0]!r}?)" if hint else " (it is not a bundled picture or one the game uses)"
            problems.append(theme.doc.problem(("art", key), f"unknown picture key {key!r}{tail}"))
            continue
        try:
            load_picture(theme.art[key], key, font_families(theme))
        except PictureError as exc:
            problems.append(theme.doc.problem(("art", key), str(exc)))
    for key in sorted(used_set - bundled - set(theme.art)):
        hint = difflib.get_close_matches(key, sorted(bundled | set(theme.art)), n=1, cutoff=0.5)
        closest = f"; the closest picture is {hint[0]!r}" if hint else ""
        if where and key in where:
            file, dotted, line = where[key]
            column = dotted.rsplit(".", 1)[-1]
            row = f"line {line}, " if line is not None and file.lower().endswith(".csv") else ""
            problems.append(
                Problem(
                    file,
                    dotted,
                    f"no picture {key!r} ({row}column {column!r}){closest}; or give "
                    f"the theme a file for it in [art] ({theme.doc.path})",
                    line,
                )
            )
            continue
        problems.append(
            Problem(
                theme.doc.path,
                f"art.{key}",
                f"the game needs a picture {key!r}: boardgen has none by that name, so the theme "
                f"must name a file for it{closest}",
            )
        )
    return problems
