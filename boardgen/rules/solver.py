"""Single-player solver: the fewest turns (shift + walk) that bring a pawn onto a target.

Breadth-first search over boards. Where the pawn can be is kept as a set (a bitboard) per
board, not one search node per square: every square of a set is one walk away from every
other, so a layer holds one node per distinct board (open sides, spare, target square and
forbidden point) with the union of the pawn sets that reached it. A node met again with no
new pawn square is dropped. Other pawns are ignored: they never block a corridor.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from boardgen.model.sliding import InsertionPoint
from boardgen.rules.sliding import _TURNED, SPARE, Board, distinct_rotations, flood

DEFAULT_BUDGET = 200_000


@dataclass(frozen=True)
class Solution:
    """The answer for one (pawn square, target) question.

    ``turns`` is the fewest turns, or None when not found within ``max_turns``.
    ``proven`` is False only when the node budget ran out first, so that a longer or
    absent answer is not a proof; when ``turns`` is None and ``proven`` is True and
    ``exhausted`` is True, no sequence of turns can ever reach the target.
    """

    turns: int | None
    nodes: int
    proven: bool = True
    exhausted: bool = False


def solve(board: Board, pawn: int, target: int, *, forbidden: InsertionPoint | None = None,
          max_turns: int = 8, budget: int = DEFAULT_BUDGET, rides: bool = False) -> Solution:
    """Fewest turns from bit square `pawn` until a walk can end on the tile `target`.

    `target` is an index into ``board.table``; `forbidden` is the insertion point the
    previous push makes illegal, if any. A pawn already on the target still needs a turn.
    With `rides`, `target` is instead the bit square of a token riding the pushes like a
    pawn (onto the inserted tile, never into the spare), as Labyrinthe Master's tokens do.
    """
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
        following: dict[tuple[int, int, int, int, int, int, int], int] = {}
        for (n, e, s, w, spare, goal, banned), pawns in layer.items():
            turned = _TURNED[spare]
            rotations = [turned[t] for t, _ in distinct_rotations(spare)]
            # Where the pawns could walk without a push; after a walk that is `pawns` itself.
            region = flood(pawns, e & (w >> 1), s & (n >> stride), stride)
            for index, push in enumerate(pushes):
                if index == banned:
                    continue
                where = push.carry(goal) if rides else push.slide(goal)
                goal_bit = 0 if where == SPARE else 1 << where
                untouched = not region & push.halo
                if untouched and last:
                    # Nothing near the pawns changes and the target cannot come closer.
                    nodes += 1
                    if region & goal_bit:
                        return Solution(turn, nodes)
                    continue
                out = push.exit
                ejected = (((n >> out) & 1) | (((e >> out) & 1) << 1)
                           | (((s >> out) & 1) << 2) | (((w >> out) & 1) << 3))
                n0, e0 = push.move(n, 0), push.move(e, 0)
                s0, w0 = push.move(s, 0), push.move(w, 0)
                moved = push.move(pawns, (pawns >> out) & 1)
                entry = push.entry
                ban = opposite[index]
                for mask in rotations:
                    nodes += 1
                    n1 = n0 | (mask & 1) << entry
                    e1 = e0 | ((mask >> 1) & 1) << entry
                    s1 = s0 | ((mask >> 2) & 1) << entry
                    w1 = w0 | ((mask >> 3) & 1) << entry
                    reach = region if untouched else flood(
                        moved, e1 & (w1 >> 1), s1 & (n1 >> stride), stride)
                    if reach & goal_bit:
                        return Solution(turn, nodes)
                    if last:
                        continue
                    key = (n1, e1, s1, w1, ejected, where, ban)
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
        layer = following
    return Solution(None, nodes)


@dataclass(frozen=True)
class PairResult:
    """One solved (start or square, treasure) pair."""

    origin: tuple[int, int]
    treasure: str
    solution: Solution


def solve_many(board: Board, pairs: Sequence[tuple[tuple[int, int], str]], *, max_turns: int,
               budget: int = DEFAULT_BUDGET,
               progress: Callable[[int, int, str], None] | None = None,
               label: str = "solver") -> list[PairResult]:
    """Solve (pawn cell, treasure id) pairs on one board."""
    geometry = board.geometry
    tile_of = {t.treasure: i for i, t in enumerate(board.table) if t.treasure}
    results = []
    for done, (cell, treasure) in enumerate(pairs, start=1):
        solution = solve(board, geometry.bit(*cell), tile_of[treasure], max_turns=max_turns,
                         budget=budget)
        results.append(PairResult(cell, treasure, solution))
        if progress is not None:
            progress(done, len(pairs), label)
    return results


def next_turn_hits(board: Board, pawns: int, tiles: Sequence[int], squares: int, *,
                   forbidden: InsertionPoint | None = None) -> int:
    """How many (insertion point, orientation) shifts let a pawn in `pawns` walk onto a
    target next turn: the tiles `tiles` (indices into ``board.table``) or the fixed
    `squares`. A planning player prefers squares from which many shifts work, since the
    other players push in between."""
    geometry = board.geometry
    stride = geometry.stride
    where = [board.locate(t) for t in tiles]
    spare = board.spare_mask
    turned = _TURNED[spare]
    rotations = [turned[t] for t, _ in distinct_rotations(spare)]
    region = board.reach(pawns)
    hits = 0
    for point in geometry.points:
        if point == forbidden:
            continue
        push = geometry.pushes[point]
        goals = squares
        for square in where:
            moved = push.slide(square)
            if moved != SPARE:
                goals |= 1 << moved
        if not region & push.halo:
            hits += len(rotations) if region & goals else 0
            continue
        n0, e0 = push.move(board.n, 0), push.move(board.e, 0)
        s0, w0 = push.move(board.s, 0), push.move(board.w, 0)
        moved_pawns = push.move(pawns, (pawns >> push.exit) & 1)
        entry = push.entry
        for mask in rotations:
            n1 = n0 | (mask & 1) << entry
            e1 = e0 | ((mask >> 1) & 1) << entry
            s1 = s0 | ((mask >> 2) & 1) << entry
            w1 = w0 | ((mask >> 3) & 1) << entry
            if flood(moved_pawns, e1 & (w1 >> 1), s1 & (n1 >> stride), stride) & goals:
                hits += 1
    return hits
