"""Count tables (``tests/data/<game>.perft``): from a position written out, the number of
decision sequences of each depth, hand-checked at depth 1-2 (each file says how), played
through `apply` (a frozen position in, a new one out) and, for the games self-play plays in
place, on one mutable position too (the moving-walls game plays its frozen positions). A rule
change that alters what is on offer changes a count."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from boardgen.data.loader import load
from boardgen.model.grand import build
from boardgen.model.minos import build as build_minos
from boardgen.model.walls import build as build_walls
from boardgen.rules.grand import GrandGame
from boardgen.rules.minos import MinosGame, MinosPosition, MinosState
from boardgen.rules.race import Position, RaceState
from boardgen.rules.walls import WallsGame

DATA = Path(__file__).parent.parent / "data"


def lines(name: str) -> list[tuple[str, int, int]]:
    out = []
    for line in (DATA / f"{name}.perft").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            position, depth, count = (part.strip() for part in line.split(";"))
            out.append((position, int(depth), int(count)))
    return out


def fields(text: str) -> dict[str, str]:
    return dict(part.split("=", 1) for part in text.split())


def ints(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in text.split(","))


def perft(game: Any, state: Any, depth: int) -> int:
    if depth == 0:
        return 1
    if game.outcome(state) is not None:
        return 0
    return sum(perft(game, game.apply(state, move), depth - 1) for move in game.legal_moves(state))


def perft_in_place(game: Any, position: Any, depth: int) -> int:
    if depth == 0:
        return 1
    if game.outcome(position) is not None:
        return 0
    total = 0
    for move in list(game.legal_moves(position)):
        child = position.copy()
        game.play(child, move)
        total += perft_in_place(game, child, depth - 1)
    return total


GRAND = build(load("game", "grand"))


def grand_position(text: str) -> tuple[GrandGame, RaceState]:
    given = fields(text)
    game = GrandGame(dataclasses.replace(GRAND, exact_one_die=given["one_die"] == "1"))
    pos = ints(given["pos"])
    n = len(pos)
    stuck = ints(given["stuck"]) if "stuck" in given else (0,) * n
    state = RaceState(
        n,
        int(given.get("turn", 0)),
        pos,
        (0,) * n,
        ints(given["dice"]),
        None,
        int(given.get("rng", 11)),
        stuck=stuck,
        route=(0,) * n,
        first_route=(-1,) * n,
        deck=tuple(range(len(game.deck))),
    )
    return game, state


@pytest.mark.parametrize(("position", "depth", "count"), lines("grand"))
def test_grand_counts(position: str, depth: int, count: int) -> None:
    game, state = grand_position(position)
    assert perft(game, state, depth) == count
    assert perft_in_place(game, Position(state), depth) == count


MINOS = MinosGame(build_minos(load("game", "minos")))


def minos_position(text: str) -> MinosState:
    given = fields(text)
    pos = [0] * 8
    for pair in filter(None, given["at"].split(",")):
        piece, field = pair.split(":")
        pos[int(piece)] = int(field)
    return MinosState(2, 0, tuple(pos), (0,) * 8, ints(given["dice"]), None, int(given.get("rng", 1)))


@pytest.mark.parametrize(("position", "depth", "count"), lines("minos"))
def test_minos_counts(position: str, depth: int, count: int) -> None:
    assert perft(MINOS, minos_position(position), depth) == count


@pytest.mark.parametrize(("position", "depth", "count"), lines("minos"))
def test_minos_counts_in_place(position: str, depth: int, count: int) -> None:
    assert perft_in_place(MINOS, MinosPosition(MINOS, minos_position(position)), depth) == count


FIXTURES = Path(__file__).parent.parent / "fixtures" / "layouts"


@pytest.mark.parametrize(("position", "depth", "count"), lines("walls"))
def test_walls_counts(position: str, depth: int, count: int) -> None:
    given = fields(position)
    name = given["layout"]
    game = WallsGame(build_walls(load("game", name if name == "walls" else str(FIXTURES / f"{name}.toml"))))
    state = game.initial_state(2)
    state = state._replace(turn=state.turn + state.seats * int(given["round"]))
    assert perft(game, state, depth) == count
