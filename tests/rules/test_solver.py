"""Hand-worked questions for the single-player solver."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from boardgen.data.loader import load
from boardgen.model.sliding import InsertionPoint, build, deal
from boardgen.rules.sliding import SPARE, Board, SlidingGame, distinct_rotations, flood
from boardgen.rules.solver import Solution, solve, solve_many

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
    hard = next(
        p
        for p, result in zip(pairs, solve_many(board, pairs[:400], max_turns=3), strict=False)
        if result.solution.turns == 3
    )
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
    results = solve_many(
        board,
        [((0, 0), "gem"), ((1, 1), "cup")],
        max_turns=3,
        progress=lambda done, total, label: calls.append((done, total)),
    )
    assert [r.treasure for r in results] == ["gem", "cup"]
    assert calls == [(1, 2), (2, 2)]


def reference_solve(
    board: Board,
    pawn: int,
    target: int,
    *,
    forbidden: InsertionPoint | None = None,
    max_turns: int = 8,
    budget: int = 200_000,
    rides: bool = False,
) -> Solution:
    """The search push by push and orientation by orientation, one flood per child: what
    `solve` does with every push's lanes at once, and how it counts the nodes."""
    geometry = board.geometry
    stride = geometry.stride
    points = geometry.points
    pushes = [geometry.pushes[p] for p in points]
    opposite = [points.index(p.opposite) for p in points]
    banned = -1 if forbidden is None else points.index(forbidden)
    start = target if rides else board.locate(target)
    layer = {(board.n, board.e, board.s, board.w, board.spare_mask, start, banned): 1 << pawn}
    seen = dict(layer)
    nodes = 0
    for turn in range(1, max_turns + 1):
        last = turn == max_turns
        following: dict[tuple[int, ...], int] = {}
        for (n, e, s, w, spare, goal, banned), pawns in layer.items():
            rotations = [mask for _, mask in distinct_rotations(spare)]
            region = flood(pawns, e & (w >> 1), s & (n >> stride), stride)
            for index, push in enumerate(pushes):
                if index == banned:
                    continue
                where = push.carry(goal) if rides else push.slide(goal)
                goal_bit = 0 if where == SPARE else 1 << where
                untouched = not region & push.halo
                if untouched and last:
                    nodes += 1
                    if region & goal_bit:
                        return Solution(turn, nodes)
                    continue
                out = push.exit
                ejected = board_mask(n, e, s, w, out)
                moved = push.move(pawns, (pawns >> out) & 1)
                for mask in rotations:
                    nodes += 1
                    n1, e1 = push.move(n, mask & 1), push.move(e, (mask >> 1) & 1)
                    s1, w1 = push.move(s, (mask >> 2) & 1), push.move(w, (mask >> 3) & 1)
                    reach = region if untouched else flood(moved, e1 & (w1 >> 1), s1 & (n1 >> stride), stride)
                    if reach & goal_bit:
                        return Solution(turn, nodes)
                    if last:
                        continue
                    key = (n1, e1, s1, w1, ejected, where, opposite[index])
                    known = seen.get(key, 0)
                    if reach & ~known:
                        seen[key] = known | reach
                        following[key] = following.get(key, 0) | reach
                if nodes > budget:
                    return Solution(None, nodes, proven=False)
        if last:
            break
        if not following:
            return Solution(None, nodes, exhausted=True)
        layer = following  # type: ignore[assignment]
    return Solution(None, nodes)


def board_mask(n: int, e: int, s: int, w: int, square: int) -> int:
    return ((n >> square) & 1) | (((e >> square) & 1) << 1) | (((s >> square) & 1) << 2) | (((w >> square) & 1) << 3)


FIXTURES = Path(__file__).parent.parent / "fixtures" / "layouts"


@pytest.mark.parametrize("name", ["classic", str(FIXTURES / "five.toml"), str(FIXTURES / "nine.toml"), "drawn"])
def test_the_lane_search_answers_as_the_push_by_push_search(name: str) -> None:
    """The same answer wherever the push-by-push search settles the question within its
    budget, for tiles and riding tokens, with and without a forbidden point, on the last
    layer too, with floods shared or not; where it runs out, any answer the lane search
    gives (it visits nearest first) is the fewest turns the unbudgeted search finds."""
    rng = random.Random(name)
    if name == "drawn":  # 3x3: lanes of 16 bits; a treasure on the spare
        boards = [Board.from_text("┌─┐\n│·╷\n└┘·", spare="┤", treasures={"spare": "gem", (1, 2): "cup"})]
    else:
        layout = build(load("game", name))
        boards = [Board.from_deal(deal(layout, seed)) for seed in (0, 9)]
    for board in boards:
        geometry = board.geometry
        memo: dict[tuple[int, ...], Any] = {}
        for _ in range(25):
            rides = rng.random() < 0.3
            pawn = rng.choice(geometry.squares)
            target = rng.choice(geometry.squares) if rides else rng.randrange(len(board.table))
            question: dict[str, Any] = {
                "forbidden": rng.choice([None, *geometry.points]),
                "rides": rides,
                "max_turns": rng.choice([1, 2, 3, 8]),
                "budget": rng.choice([10, 60, 400, 200_000]),
            }
            expected = reference_solve(board, pawn, target, **question)
            for found in (solve(board, pawn, target, **question), solve(board, pawn, target, memo=memo, **question)):
                if expected.proven and found.proven:
                    assert (found.turns, found.exhausted) == (expected.turns, expected.exhausted)
                elif expected.proven:
                    # Only a tiny budget may stop one search in a layer where the other,
                    # visiting in another order, happened on the answer first.
                    assert question["budget"] < 1000, (question, found, expected)
                elif found.turns is not None:
                    unbounded = reference_solve(board, pawn, target, **{**question, "budget": 10**7})
                    assert found.turns == unbounded.turns


def test_the_pairs_of_a_large_board_shared_among_processes_get_the_same_answers() -> None:
    """11 x 11 and up, each start's pairs go to a worker process; the answers, in order, are
    those of one process."""
    from boardgen.generate import sliding as sliding_generate

    data = sliding_generate.generate("classic", 11, 1)
    doc = load("game", "classic")
    layout = build(type(doc)(doc.name, doc.path, data, {}))
    board = Board.from_deal(deal(layout, 1))
    pairs = [(s.at, t.id) for s in layout.starts[:3] for t in layout.treasures[::4]]
    calls: list[tuple[int, int]] = []
    shared = solve_many(
        board,
        pairs,
        max_turns=3,
        budget=926_000,
        workers=2,
        progress=lambda done, total, _: calls.append((done, total)),
    )
    assert shared == solve_many(board, pairs, max_turns=3, budget=926_000, workers=1)
    assert calls[-1] == (len(pairs), len(pairs)) and len(calls) == 3  # one step per start


@pytest.mark.parametrize(
    "name",
    ["classic", str(FIXTURES / "five.toml"), str(FIXTURES / "nine.toml"), str(FIXTURES / "unreachable_treasure.toml")],
)
def test_one_search_for_every_target_of_a_square_answers_as_one_search_each(name: str) -> None:
    """`solve_many` (one `solve_from` per origin, `solve` again for a target it leaves
    unanswered) against `solve` per pair: the same fewest turns and the
    same proofs, from the starts and from random squares, with a tight turn bound too."""
    rng = random.Random(name)
    layout = build(load("game", name))
    for seed in (0, 9):
        board = Board.from_deal(deal(layout, seed))
        tile_of = {t.treasure: i for i, t in enumerate(board.table) if t.treasure}
        cells = [s.at for s in layout.starts]
        cells += [board.geometry.cell(square) for square in rng.sample(board.geometry.squares, 3)]
        pairs = [(cell, treasure) for cell in cells for treasure in tile_of]
        for max_turns in (2, 8):
            together = solve_many(board, pairs, max_turns=max_turns, budget=200_000, workers=1)
            alone = [
                solve(board, board.geometry.bit(*cell), tile_of[treasure], max_turns=max_turns, budget=200_000)
                for cell, treasure in pairs
            ]
            assert [(r.solution.turns, r.solution.proven, r.solution.exhausted) for r in together] == [
                (s.turns, s.proven, s.exhausted) for s in alone
            ]
