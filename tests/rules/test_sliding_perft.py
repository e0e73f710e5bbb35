"""The sliding games' move generators against hand-counted tables (perft, as chess engines
are tested): tests/data/classic.perft and master.perft, each count worked out by hand in
the file's comments, one parametrised test per engine."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from boardgen.data.loader import load
from boardgen.model import master as master_model
from boardgen.model import sliding as sliding_model
from boardgen.model.sliding import InsertionPoint
from boardgen.rules.master import MasterGame
from boardgen.rules.sliding import SHIFT, Board, SlidingGame

DATA = Path(__file__).parent.parent / "data"
FIXTURES = Path(__file__).parent.parent / "fixtures" / "layouts"
CLASSIC = SlidingGame(sliding_model.build(load("game", str(FIXTURES / "five.toml"))))
MASTER = MasterGame(master_model.build(load("game", str(FIXTURES / "master_five.toml"))))


def read_table(name: str) -> list[tuple[dict[str, str], int, int]]:
    """(position fields, depth, count) of every count in a table: blocks of ``key: value``
    lines, one block a position, its counts as ``depth N: count``; ``#`` starts a comment."""
    rows = []
    for block in (DATA / name).read_text(encoding="utf-8").split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if line.strip() and not line.startswith("#"))
        if not fields:
            continue
        for key, value in fields.items():
            if key.startswith("depth "):
                rows.append((fields, int(key.split()[1]), int(value)))
    return rows


def perft(game: Any, state: Any, depth: int) -> int:
    """Sequences of `depth` legal decisions from `state` (fewer where the game ends)."""
    moves = game.legal_moves(state)
    if depth == 1:
        return len(moves)
    return sum(perft(game, game.apply(state, move), depth - 1) for move in moves)


def cells(text: str) -> list[tuple[int, int]]:
    return [(int(r), int(c)) for r, c in (cell.split(",") for cell in text.split())]


def banned(game: Any, last: str) -> int:
    """The forbidden point's index after the push `last` ("W1"; "-" for none)."""
    if last == "-":
        return -1
    index: int = game.geometry.point_index[InsertionPoint(last[0], int(last[1:])).opposite]
    return index


def board(fields: dict[str, str]) -> Board:
    return Board.from_text("\n".join(fields["board"].split()), spare=fields["spare"])


def classic_position(fields: dict[str, str]) -> Any:
    state = CLASSIC.start(board(fields), 2, 0)
    bit = CLASSIC.geometry.bit
    piles = [pile[: int(k)] for pile, k in zip(state.cards, fields["cards"].split(), strict=True)]
    return state.replaced(
        pawns=[bit(*cell) for cell in cells(fields["pawns"])],
        cards=tuple(piles),
        banned=banned(CLASSIC, fields["last"]),
    )


def master_position(fields: dict[str, str]) -> Any:
    squares = cells(fields["tokens"])
    left = len(MASTER.ids) - len(squares)
    tokens = dict(zip(squares, MASTER.ids[left:], strict=True))
    recipes = master_model.setup(MASTER.layout, 0).recipes[:2]
    state = MASTER.start(
        board(fields),
        2,
        tokens=tokens,
        recipes=recipes,
        pawns=cells(fields["pawns"]),
        taken=[i % 2 for i in range(left)],
        wands=[int(w) for w in fields["wands"].split()],
    )
    return state.replaced(extra=fields["extra"] == "yes", phase=fields["phase"], banned=banned(MASTER, fields["last"]))


def check(game: Any, state: Any, depth: int, count: int) -> None:
    assert perft(game, state, depth) == count
    if depth == 2 and state.phase == SHIFT:  # every shift flooded at once, the same turns
        assert game.count_turns(state) == count


@pytest.mark.parametrize(
    "fields, depth, count",
    [
        pytest.param(fields, depth, count, id=f"{fields['name']}-{depth}")
        for fields, depth, count in read_table("classic.perft")
    ],
)
def test_classic_counts(fields, depth, count):
    check(CLASSIC, classic_position(fields), depth, count)


@pytest.mark.parametrize(
    "fields, depth, count",
    [
        pytest.param(fields, depth, count, id=f"{fields['name']}-{depth}")
        for fields, depth, count in read_table("master.perft")
    ],
)
def test_master_counts(fields, depth, count):
    check(MASTER, master_position(fields), depth, count)
