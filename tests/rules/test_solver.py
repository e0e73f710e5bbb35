"""Hand-worked questions for the single-player solver."""

from __future__ import annotations

from boardgen.data.loader import load
from boardgen.model.sliding import InsertionPoint, build
from boardgen.rules.sliding import Board, SlidingGame
from boardgen.rules.solver import solve, solve_many

RING = """
┌─┐
│·│
└─┘
"""


def tile_with(board: Board, treasure: str) -> int:
    return next(i for i, t in enumerate(board.table) if t.treasure == treasure)


def test_a_treasure_in_the_same_corridor_takes_one_turn():
    board = Board.from_text(RING, spare="│", treasures={(2, 2): "gem"})
    solution = solve(board, board.geometry.bit(0, 0), tile_with(board, "gem"))
    assert solution.turns == 1 and solution.proven


def test_a_pawn_standing_on_its_treasure_still_needs_a_turn():
    board = Board.from_text(RING, spare="│", treasures={(0, 0): "gem"})
    assert solve(board, board.geometry.bit(0, 0), tile_with(board, "gem")).turns == 1


def test_a_treasure_on_the_spare_is_pushed_in_then_reached():
    # Pushing the crossroads in down column 1 joins it to the corner at (0, 0).
    board = Board.from_text(RING, spare="┼", treasures={"spare": "gem"})
    assert solve(board, board.geometry.bit(0, 0), tile_with(board, "gem")).turns == 1
    assert board.pushed(InsertionPoint("N", 1)).to_text().splitlines()[0] == "┌┼┐"


def test_a_closed_corner_can_never_be_reached_and_the_search_proves_it():
    board = Board.from_text("···\n···\n···", spare="·", treasures={(2, 2): "gem"})
    solution = solve(board, board.geometry.bit(0, 0), tile_with(board, "gem"), max_turns=8)
    assert solution.turns is None and solution.proven and solution.exhausted


def test_the_turn_bound_and_the_budget_are_reported_apart():
    layout = build(load("game", "classic"))
    board = SlidingGame(layout).initial_state(2, 1).board
    pairs = [((r, c), t.id) for r in range(7) for c in range(7) for t in layout.treasures]
    hard = next(p for p, result in zip(pairs, solve_many(board, pairs[:400], max_turns=3),
                                       strict=False) if result.solution.turns == 3)
    pawn, tile = board.geometry.bit(*hard[0]), tile_with(board, hard[1])
    bounded = solve(board, pawn, tile, max_turns=2)
    assert bounded.turns is None and bounded.proven and not bounded.exhausted
    starved = solve(board, pawn, tile, max_turns=8, budget=50)
    assert starved.turns is None and not starved.proven


def test_the_forbidden_point_is_respected():
    # The pawn's corner opens only south, every other tile is closed, and the gem rides
    # the spare straight. Pushed in from the west it lands under the pawn: one turn.
    # With that point forbidden, the gem needs two pushes to reach (1, 1) and a third
    # push from the east to slide it under the pawn (two turns cannot get it there).
    board = Board.from_text("╷··\n···\n···", spare="│", treasures={"spare": "gem"})
    pawn, gem = board.geometry.bit(0, 0), tile_with(board, "gem")
    assert solve(board, pawn, gem).turns == 1
    assert solve(board, pawn, gem, forbidden=InsertionPoint("W", 1)).turns == 3


def test_solve_many_reports_progress():
    board = Board.from_text(RING, spare="│", treasures={(2, 2): "gem", (0, 2): "cup"})
    calls = []
    results = solve_many(board, [((0, 0), "gem"), ((1, 1), "cup")], max_turns=3,
                         progress=lambda done, total, label: calls.append((done, total)))
    assert [r.treasure for r in results] == ["gem", "cup"]
    assert calls == [(1, 2), (2, 2)]
