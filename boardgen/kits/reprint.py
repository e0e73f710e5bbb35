"""Single pieces reprinted by id: `render GAME --only card:book,tile:07`.

A piece's id is the name of its SVG file in the kit's `svg/` folder without the kind:
`card-book.svg` is `card:book`, `tile-07.svg` is `tile:07` (a tile may also be asked as
`tile:7`). `boardgen show GAME` lists them. A kit module that prints single pieces says which
with ``piece_ids(layout) -> {"card": {id: what it is}, "tile": {...}}``, and which of its `Drawings`
fields share the pages of its tiles with ``TILE_PAGE_PIECES`` (left out of a reprint of some
tiles). The ids are checked as soon as the layout is loaded, before anything is drawn.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

from boardgen.errors import UsageError
from boardgen.options import PIECES, KitOptions, single_pieces

DrawingsT = TypeVar("DrawingsT")
SHOWN = 12  # valid ids listed in an error, at most (the messages are kept short)


def piece_ids(kit: Any, layout: Any) -> dict[str, dict[str, str]]:
    """Every single piece the kit can reprint, by kind, with what each is (empty for a kit
    that has none)."""
    ids = getattr(kit, "piece_ids", None)
    return {} if ids is None else dict(ids(layout))


def _canonical(kind: str, asked: str, valid: list[str]) -> str | None:
    if asked in valid:
        return asked
    if kind == "tile" and asked.isdigit():
        return next((v for v in valid if v.isdigit() and int(v) == int(asked)), None)
    return None


def resolve(kit: Any, layout: Any, options: KitOptions, game: str) -> KitOptions:
    """The options with every single piece spelt as `show` lists it; a UsageError naming the
    valid ids for one the kit does not have. `game` is the name or file the user gave."""
    if not options.only or not any(":" in name for name in options.only):
        return options
    ids = piece_ids(kit, layout)
    spelt = []
    for name in options.only:
        kind, colon, asked = name.partition(":")
        if not colon:
            spelt.append(name)
            continue
        valid = list(ids.get(kind, {}))
        found = _canonical(kind, asked, valid)
        if found is None:
            if not valid:
                raise UsageError(f"--only: {layout.id} has no {PIECES[kind]} to reprint one by one"
                                 + (f"; single pieces: {', '.join(f'{k}:ID' for k in ids)}" if ids else ""))
            listed = ", ".join(valid[:SHOWN]) + (f" and {len(valid) - SHOWN} more" if len(valid) > SHOWN else "")
            raise UsageError(f"--only: {layout.id} has no {kind} {asked!r}; its {kind} ids: {listed} "
                             f"(`boardgen show {game}` lists them)")
        spelt.append(f"{kind}:{found}")
    return dataclasses.replace(options, only=tuple(dict.fromkeys(spelt)))


def select(kit: Any, drawings: DrawingsT, options: KitOptions) -> DrawingsT:
    """The drawings with only the single pieces asked for in their kinds: card fronts
    (`fronts`) and loose tiles (`tiles`, keyed ``tile-NN``), and none of the other pieces
    that share the tiles' pages (the kit's TILE_PAGE_PIECES)."""
    wanted = single_pieces(options.only)
    if not wanted:
        return drawings
    every: Any = drawings  # a kit's own Drawings dataclass
    changes: dict[str, Any] = {}
    if "card" in wanted:
        changes["fronts"] = {key: svg for key, svg in every.fronts.items() if key in wanted["card"]}
    if "tile" in wanted:
        changes["tiles"] = {key: svg for key, svg in every.tiles.items()
                            if key.removeprefix("tile-") in wanted["tile"]}
        for name in getattr(kit, "TILE_PAGE_PIECES", ()):
            changes[name] = type(getattr(every, name))()  # {} or ""
    selected: DrawingsT = dataclasses.replace(every, **changes)
    return selected
