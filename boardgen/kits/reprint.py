"""Parts and single pieces reprinted: `render GAME --only tokens,card:book,tile:07`.

A piece's id is the name of its SVG file in the kit's `svg/` folder without the kind (and
any prefix the kit strips): `card-book.svg` is `card:book`, `tile-07.svg` is `tile:07` (a tile
may also be asked as `tile:7`), `pawn-red.svg` is `pawn:red`; a piece whose id is not the number
printed on it may be asked by that number too (``printed_numbers``: `token:5` is the token of
value 5). `boardgen show GAME` lists them. A kit module that prints pieces says which with
``piece_ids(layout) -> {"card": {id: what it is}, ...}`` and where each kind's drawings are with
``PIECE_FIELDS = {kind: (Drawings field, key prefix)}``. The ids are checked as soon as the
layout is loaded, before anything is drawn; a reprint draws only the pieces asked for.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

from boardgen.errors import UsageError
from boardgen.options import PIECES, KitOptions, did_you_mean, piece_parts, single_pieces

DrawingsT = TypeVar("DrawingsT")
SHOWN = 12  # valid ids listed in an error, at most (the messages are kept short)


def piece_ids(kit: Any, layout: Any) -> dict[str, dict[str, str]]:
    """Every single piece the kit can reprint, by kind, with what each is."""
    return {kind: dict(found) for kind, found in kit.piece_ids(layout).items()}


def _canonical(kind: str, asked: str, valid: list[str]) -> str | None:
    if asked in valid:
        return asked
    if asked.isdigit():
        return next((v for v in valid if v.isdigit() and int(v) == int(asked)), None)
    return next((v for v in valid if v.lower() == asked.lower()), None)


def resolve(kit: Any, layout: Any, options: KitOptions, game: str) -> KitOptions:
    """The options with every single piece spelt as `show` lists it; a UsageError naming what
    the game has, with the closest, for a part or piece id it does not have. `game` is the
    name or file the user gave."""
    if not options.only:
        return options
    ids = piece_ids(kit, layout)
    spelt = []
    known = parts_of(kit, ids)
    for name in options.only:
        kind, colon, asked = name.partition(":")
        if not colon:
            if name not in known and not (name == "pieces" and any(k != "card" for k in ids)):
                raise UsageError(
                    f"--only: {layout.id} has no {name}{did_you_mean(name, known)}; "
                    f"its parts: {', '.join(known)} (`boardgen show {game}` lists them)"
                )
            spelt.append(name)
            continue
        valid = list(ids.get(kind, {}))
        found = _canonical(kind, asked, valid) or _by_number(kit, layout, kind, asked)
        if found is None:
            if not valid:
                kinds = [f"{k}:ID" for k in ids]
                raise UsageError(
                    f"--only: {layout.id} has no {PIECES[kind]} to reprint one by one"
                    + did_you_mean(f"{kind}:ID", kinds)
                    + (f"; single pieces: {', '.join(kinds)}" if ids else "")
                )
            listed = ", ".join(valid[:SHOWN]) + (f" and {len(valid) - SHOWN} more" if len(valid) > SHOWN else "")
            raise UsageError(
                f"--only: {layout.id} has no {kind} {asked!r}{did_you_mean(asked, valid)}; "
                f"its {kind} ids: {listed} (`boardgen show {game}` lists them)"
            )
        spelt.append(f"{kind}:{found}")
    return dataclasses.replace(options, only=tuple(dict.fromkeys(spelt)))


def _by_number(kit: Any, layout: Any, kind: str, asked: str) -> str | None:
    """The id of the one piece of `kind` printed with the number `asked` (``token:5``, the
    token of value 5); a UsageError if several are."""
    if not asked.isdigit():
        return None
    found = [
        piece
        for piece, number in kit.printed_numbers(layout).get(kind, {}).items()
        if number.isdigit() and int(number) == int(asked)
    ]
    if len(found) > 1:
        raise UsageError(
            f"--only: {layout.id} prints {asked} on {len(found)} {PIECES[kind]} "
            f"({', '.join(found)}): name one by its id, e.g. {kind}:{found[0]}"
        )
    return found[0] if found else None


def parts_of(kit: Any, ids: dict[str, dict[str, str]]) -> list[str]:
    """The parts a kit with these pieces prints, as --only names them (and `show` lists)."""
    pieces = [PIECES[k] for k in ids if k != "card"]
    return ["cover", "board", *pieces, *(["cards"] if "card" in ids else []), "rules", *kit.EXTRA_PARTS]


def select(kit: Any, drawings: DrawingsT, options: KitOptions) -> DrawingsT:
    """For a reprint (--only), the drawings with only the pieces asked for: whole kinds, or the
    single pieces of a kind; every other kind of piece left out (its pages would be empty)."""
    if options.only is None:
        return drawings
    whole = piece_parts(options.only) or set()
    wanted = single_pieces(options.only)
    every: Any = drawings  # a kit's own Drawings dataclass
    changes: dict[str, Any] = {}
    fields = vars(every)  # the Drawings dataclass's fields, by name
    for kind, (name, prefix) in kit.PIECE_FIELDS.items():
        if kind in whole:
            continue
        keep = {piece.lower() for piece in wanted.get(kind, ())}
        changes[name] = {key: svg for key, svg in fields[name].items() if key.removeprefix(prefix).lower() in keep}
    if "score-pad" not in options.only and "score-pad" in kit.EXTRA_PARTS:  # (its Drawings' `score_pad`)
        changes["score_pad"] = ""
    selected: DrawingsT = dataclasses.replace(every, **changes)
    return selected
