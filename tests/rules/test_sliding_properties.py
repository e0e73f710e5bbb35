"""Property tests for the sliding-corridor engine, on the classic board and on 5x5 and 9x9."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardgen.data.loader import load
from boardgen.model.sliding import InsertionPoint, build
from boardgen.model.tiles import rotate
from boardgen.rules.players import GreedyPlayer, RandomPlayer
from boardgen.rules.simulate import play
from boardgen.rules.sliding import SHIFT, Board, SlidingGame, Walk, YoungSlidingGame
from boardgen.rules.solver import solve

FIXTURES = Path(__file__).parent.parent / "fixtures" / "layouts"
LAYOUTS = {
    "classic": build(load("game", "classic")),
    "five": build(load("game", str(FIXTURES / "five.toml"))),
    "nine": build(load("game", str(FIXTURES / "nine.toml"))),
}
GAMES = {name: SlidingGame(layout) for name, layout in LAYOUTS.items()}

layouts = st.sampled_from(sorted(LAYOUTS))
seeds = st.integers(min_value=0, max_value=2**31 - 1)
fast = settings(max_examples=40, deadline=None)


def contents(board: Board) -> Counter[str]:
    """Each tile with its treasure, wherever it is, ignoring how it is turned."""
    found = Counter(board.table[t].id for t in board.tiles if t >= 0)
    found[board.table[board.spare].id] += 1
    return found


def treasures(board: Board) -> set[str]:
    tiles = [t for t in board.tiles if t >= 0] + [board.spare]
    return {treasure for t in tiles if (treasure := board.table[t].treasure)}


@fast
@given(layouts, seeds, st.data())
def test_a_push_conserves_tiles_treasures_and_open_sides(name, seed, data):
    state = GAMES[name].initial_state(2, seed)
    board = state.board
    point = data.draw(st.sampled_from(board.geometry.points))
    rotation = data.draw(st.integers(0, 3))
    after = board.pushed(point, rotation)
    assert contents(after) == contents(board)
    assert treasures(after) == treasures(board)
    sides = Counter(board.mask_at(sq) for sq in board.geometry.squares)
    sides[rotate(board.spare_mask, rotation)] += 1
    sides_after = Counter(after.mask_at(sq) for sq in after.geometry.squares)
    sides_after[after.spare_mask] += 1
    assert sides == sides_after
    padding = ~board.geometry.full
    assert not (after.n | after.e | after.s | after.w) & padding


@fast
@given(layouts, seeds, st.data())
def test_a_push_then_the_opposite_push_restores_the_board(name, seed, data):
    board = GAMES[name].initial_state(2, seed).board
    point = data.draw(st.sampled_from(board.geometry.points))
    assert board.pushed(point).pushed(point.opposite) == board
    turned = board.pushed(point, 1).pushed(point.opposite)
    assert turned.tiles == board.tiles and turned.spare_mask == rotate(board.spare_mask, 1)


@fast
@given(layouts, seeds, st.integers(0, 3))
def test_fast_shift_scores_match_building_each_board(name, seed, warmup):
    game = GAMES[name]
    rng = random.Random(seed)
    state = game.initial_state(2, seed)
    for _ in range(warmup * 2):
        state = game.apply(state, rng.choice(game.legal_moves(state)))
    moves = game.legal_moves(state)
    assert state.phase == SHIFT
    fast_reaches = [reach for reach, _ in game.shift_reaches(state, moves)]
    slow_reaches = [game.apply(state, m).reach for m in moves]
    assert fast_reaches == slow_reaches
    seat = state.seat
    assert game.score_moves(state, moves, seat) == [game.heuristic(game.apply(state, m), seat) for m in moves]


@settings(max_examples=15, deadline=None)
@given(layouts, seeds, st.sampled_from([2, 3, 4]), st.booleans())
def test_random_playouts_keep_every_rule(name, seed, players, young):
    game = (YoungSlidingGame if young else SlidingGame)(LAYOUTS[name])
    rng = random.Random(seed)
    state = game.initial_state(players, seed)
    squares = set(game.geometry.squares)
    for _ in range(60):
        if game.outcome(state) is not None:
            break
        moves = game.legal_moves(state)
        assert moves, "no legal move before the end"
        move = rng.choice(list(moves))
        snapshot = state.key()  # what == compares, as plain data (a deep copy copied the geometry)
        after = game.apply(state, move)
        assert state.key() == snapshot, "apply changed its input"
        assert set(after.pawns) <= squares
        if isinstance(move, Walk):
            assert after.turn == state.turn + 1
        state = after


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(["classic", "five"]), seeds, st.sampled_from([2, 3, 4]))
def test_playouts_end_within_the_cap(name, seed, players):
    game = GAMES[name]
    record = play(game, [RandomPlayer()] * players, seed, turn_cap=50)
    assert record.turns <= 50 and record.decisions <= 100
    greedy = play(game, [GreedyPlayer()] * players, seed, turn_cap=400)
    assert greedy.finished and greedy.turns < 400
    assert greedy.scores is not None and greedy.winner is not None
    assert greedy.scores[greedy.winner] == LAYOUTS[name].deal[players]


def naive_turns(board: Board, pawn: int, tile: int, max_turns: int) -> int | None:
    """Breadth-first search with one node per pawn square: slow but obviously right."""
    layer: set[tuple[Board, int, InsertionPoint | None]] = {(board, pawn, None)}
    for turn in range(1, max_turns + 1):
        following: set[tuple[Board, int, InsertionPoint | None]] = set()
        for here, square, banned in layer:
            for point in here.geometry.points:
                if point == banned:
                    continue
                push = here.geometry.pushes[point]
                for rotation in range(4):
                    after = here.pushed(point, rotation)
                    reach = after.reach(1 << push.carry(square))
                    goal = after.locate(tile)
                    if goal >= 0 and (reach >> goal) & 1:
                        return turn
                    for cell in after.geometry.cells(reach):
                        following.add((after, after.geometry.bit(*cell), point.opposite))
        layer = following
    return None


@settings(max_examples=20, deadline=None)
@given(st.sampled_from([("five", 2), ("classic", 1)]), seeds, st.data())
def test_solver_agrees_with_a_naive_search(case, seed, data):
    name, depth = case
    game = GAMES[name]
    board = game.initial_state(2, seed).board
    pawn = data.draw(st.sampled_from(board.geometry.squares))
    treasure = data.draw(st.sampled_from(sorted(game.tile_of)))
    tile = game.tile_of[treasure]
    expected = naive_turns(board, pawn, tile, depth)
    assert solve(board, pawn, tile, max_turns=depth).turns == expected


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_every_seat_starts_on_its_corner(name):
    layout = LAYOUTS[name]
    state = GAMES[name].initial_state(layout.players[1], 1)
    assert [state.pawn_cell(s) for s in range(layout.players[1])] == [s.at for s in layout.starts]
