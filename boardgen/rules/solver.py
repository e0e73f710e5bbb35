"""Single-player solver: the fewest turns (shift + walk) that bring a pawn onto a target.

Breadth-first search over boards. Where the pawn can be is kept as a set (a bitboard) per
board, not one search node per square: every square of a set is one walk away from every
other, so a layer holds one node per distinct board (open sides, spare, target square and
forbidden point) with the union of the pawn sets that reached it. A node met again with no
new pawn square is dropped. Other pawns are ignored: they never block a corridor.

Speed: a node's children are every push and orientation of the spare at once, as the lanes
of one big int (`boardgen.rules.sliding.Lanes`): one flood finds every child's pawn set. A
layer is first flooded node by node, looking only for the target; the children are made
only if no node reaches it (a search ends in the layer that finds the target, so that
layer's children would be thrown away). Every node counts against the budget as a
push-by-push search would count it (`Solution.nodes`).

Larger boards: a layer is visited nearest first (the nodes whose pawns stand closest to the
target), and a layer whose full expansion would overrun the budget is searched lazily, child
by child, nearest first, until one reaches the target; so a 13 x 13 board's four-turn hunts
are found after three full layers. `solve_many` answers every target of one start with one
search (`solve_from`: a node also records where each target tile lies, and every layer is
flooded once for all of them), and from 11 x 11 gives each start to a worker process.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from boardgen.model.sliding import InsertionPoint
from boardgen.processes import Workers, available_cpus, can_fork
from boardgen.rules.sliding import (
    _ORIENTATIONS,
    _TURNED,
    SPARE,
    Board,
    Geometry,
    Lanes,
    ShiftMoves,
    distinct_rotations,
    flood,
)

DEFAULT_BUDGET = 200_000
# `solve_many` keeps at most this many nodes' floods for the next pair (a few kB each).
MEMO_NODES = 4096

# The floods of a node: its lanes' pawn sets, then the lanes' open sides (N, E, S, W).
Flooded = tuple[int, int, int, int, int]
NodeKey = tuple[int, int, int, int, int, int, int]  # n, e, s, w, spare, goal, banned point


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


class _Fan:
    """A node's children for one forbidden point and spare: the `Lanes` of every push
    allowed, grouped by insertion point (``per`` orientations of the spare each), and what
    the search keeps of each group."""

    def __init__(self, lanes: Lanes, per: int):
        self.lanes = lanes
        self.per = per
        self.count = lanes.count
        geometry = lanes.geometry
        first = range(0, lanes.count, per)
        self.groups = tuple(lanes.pushes[k] for k in first)
        self.exits = tuple(push.exit for push in self.groups)
        self.halos = tuple(push.halo for push in self.groups)
        # The point each child forbids (the opposite of its push), per lane.
        self.bans = tuple(geometry.opposites[lanes.point_ids[k]] for k in range(lanes.count))
        self._goals: dict[tuple[int, bool], tuple[tuple[int, ...], int]] = {}

    def goal(self, square: int, rides: bool) -> tuple[tuple[int, ...], int]:
        """Where the target on `square` is after each lane's push (SPARE where pushed off),
        and those squares as lanes; a riding target never goes into the spare."""
        found = self._goals.get((square, rides))
        if found is None:
            lanes = self.lanes
            if rides:
                where = tuple(push.carry(square) for push in lanes.pushes)
                found = (where, lanes.carried(square))
            else:
                where = tuple(push.slide(square) for push in lanes.pushes)
                found = (where, lanes.slid(square))
            self._goals[(square, rides)] = found
        return found


class _Fans(ShiftMoves):
    """The `_Fan` of every forbidden point (by index, -1 for none) and spare of a geometry."""

    def __init__(self, geometry: Geometry):
        self.geometry = geometry
        self._lanes = {}
        self.fans: dict[int, _Fan] = {}

    def fan(self, banned: int, spare: int) -> _Fan:
        per = _ORIENTATIONS[spare]
        found = self.fans[banned * 8 + per] = _Fan(
            self.lanes(None if banned < 0 else self.geometry.points[banned], spare), per
        )
        return found


# The fans by board size and insertion points: every board of a layout shares them.
_FANS: dict[tuple[int, tuple[InsertionPoint, ...]], _Fans] = {}


def _fans(geometry: Geometry) -> _Fans:
    key = (geometry.size, geometry.points)
    found = _FANS.get(key)
    if found is None:
        if len(_FANS) >= 16:
            _FANS.clear()
        found = _FANS[key] = _Fans(geometry)
    return found


def solve(
    board: Board,
    pawn: int,
    target: int,
    *,
    forbidden: InsertionPoint | None = None,
    max_turns: int = 8,
    budget: int = DEFAULT_BUDGET,
    rides: bool = False,
    memo: dict[tuple[int, ...], Flooded] | None = None,
) -> Solution:
    """Fewest turns from bit square `pawn` until a walk can end on the tile `target`.

    `target` is an index into ``board.table``; `forbidden` is the insertion point the
    previous push makes illegal, if any. A pawn already on the target still needs a turn.
    With `rides`, `target` is instead the bit square of a token riding the pushes like a
    pawn (onto the inserted tile, never into the spare), as Labyrinthe Master's tokens do.
    `memo`, if given, keeps the nodes' floods for other searches on the same geometry.
    """
    geometry = board.geometry
    stride = geometry.stride
    fans = _fans(geometry)
    table, make = fans.fans, fans.fan
    banned = -1 if forbidden is None else geometry.points.index(forbidden)
    start = target if rides else board.locate(target)
    layer: dict[NodeKey, int] = {(board.n, board.e, board.s, board.w, board.spare_mask, start, banned): 1 << pawn}
    seen = dict(layer)
    floods = memo if memo is not None else {}
    nodes = 0
    rings = geometry.rings
    far = 2 * geometry.size

    def nearest(pawns: int, square: int) -> int:
        if square == SPARE:
            return far
        for distance, ring in enumerate(rings[square]):
            if pawns & ring:
                return distance
        return far

    for turn in range(1, max_turns + 1):
        last = turn == max_turns
        expanded: list[tuple[_Fan, NodeKey, tuple[int, ...], Flooded]] = []
        # Nearest first: a layer's nodes whose pawns stand closest to their target are
        # likelier to answer, and the search ends at the first node that does.
        order = sorted(layer.items(), key=lambda item: nearest(item[1], item[0][5]))
        for key, pawns in order:
            n, e, s, w, spare, goal, banned = key
            fan = table.get(banned * 8 + _ORIENTATIONS[spare])
            if fan is None:
                fan = make(banned, spare)
            where, goals = fan.goal(goal, rides)
            lanes = fan.lanes
            found = floods.get((n, e, s, w, spare, banned, pawns))
            if found is None:
                found = lanes.flooded(n, e, s, w, spare, lanes.ride(pawns))
                if memo is not None:
                    if len(memo) >= MEMO_NODES:
                        memo.clear()
                    memo[(n, e, s, w, spare, banned, pawns)] = found
            if last:
                answer = _last_layer(
                    fan, found[0], where, nodes, budget, turn, flood(pawns, e & (w >> 1), s & (n >> stride), stride)
                )
                if isinstance(answer, Solution):
                    return answer
                nodes = answer
                continue
            per, hits = fan.per, found[0] & goals
            # A push-by-push search counts every child, and stops at the first child that
            # reaches the target or after the first push that takes it over the budget.
            if hits:
                k = ((hits & -hits).bit_length() - 1) >> lanes.bits
                if k < per or nodes + (k // per) * per <= budget:
                    return Solution(turn, nodes + k + 1)
            if nodes + fan.count > budget:
                return Solution(None, nodes + (max(0, budget - nodes) // per + 1) * per, proven=False)
            nodes += fan.count
            expanded.append((fan, key, where, found))
        if last:
            break
        # The next layer floods about one fan per child. When that would overrun the budget,
        # its children are searched lazily instead, those whose pawns stand nearest their
        # target first; the first that reaches it answers, since no shorter answer exists.
        children = sum(fan.count for fan, _, _, _ in expanded)
        if nodes + children * children // max(1, len(expanded)) > budget:
            return _nearest_first(
                expanded,
                seen,
                table,
                make,
                floods,
                memo is not None,
                rides,
                nodes,
                budget,
                turn + 1,
                turn + 1 == max_turns,
            )
        following: dict[NodeKey, int] = {}
        seen_get, following_get = seen.get, following.get
        for fan, (n, e, s, w, _, _, _), where, (reaches, ln, le, ls, lw) in expanded:
            split, ejected = fan.lanes.split, _ejected(fan, n, e, s, w)
            for reach, a, b, c, d, out, goal, ban in zip(
                split(reaches), split(ln), split(le), split(ls), split(lw), ejected, where, fan.bans, strict=True
            ):
                child_key = (a, b, c, d, out, goal, ban)
                known = seen_get(child_key, 0)
                if reach & ~known:
                    seen[child_key] = known | reach
                    following[child_key] = following_get(child_key, 0) | reach
        if not following:
            return Solution(None, nodes, exhausted=True)
        layer = following
    return Solution(None, nodes)


def _nearest_first(
    expanded: list[tuple[_Fan, NodeKey, tuple[int, ...], Flooded]],
    seen: dict[NodeKey, int],
    table: dict[int, _Fan],
    make: Callable[[int, int], _Fan],
    floods: dict[tuple[int, ...], Flooded],
    keep: bool,
    rides: bool,
    nodes: int,
    budget: int,
    turn: int,
    last: bool,
) -> Solution:
    """Layer `turn` searched child by child, nearest first (`_nearest_children`). Each child
    flooded counts its fan against the budget. Without a hit the search stops here:
    unproven, unless this was the last turn allowed."""
    parents = [[fan, key, found, fan.goal(key[5], rides)[1], 0, None] for fan, key, _, found in expanded]
    for (fan, key, *_), k, (reach, a, b, c, d, out) in _nearest_children(parents):
        goal = fan.goal(key[5], rides)[0][k]
        child = _new_child(seen, (a, b, c, d, out, goal, fan.bans[k]), reach, fan.bans[k], out, table, make)
        if child is None:
            continue
        flooded = floods.get((a, b, c, d, out, fan.bans[k], reach))
        if flooded is None:
            flooded = child.lanes.flooded(a, b, c, d, out, child.lanes.ride(reach))
            if keep:
                if len(floods) >= MEMO_NODES:
                    floods.clear()
                floods[(a, b, c, d, out, fan.bans[k], reach)] = flooded
        hits = flooded[0] & child.goal(goal, rides)[1]
        if hits:
            return Solution(turn, nodes + (((hits & -hits).bit_length() - 1) >> child.lanes.bits) + 1)
        nodes += child.count
        if nodes > budget:
            return Solution(None, nodes, proven=False)
    return Solution(None, nodes, proven=last)


def _nearest_children(parents: list[list[Any]]) -> Iterator[tuple[list[Any], int, tuple[int, ...]]]:
    """The children of `parents` (each ``[fan, key, found, target lanes, lanes done, lanes
    split]``) nearest first: those whose pawns stand within Manhattan distance 1 of a target,
    then 2, and so on (the target lanes grown a step at a time in every lane at once), any
    left (a target gone into the spare) last. Each child as its parent, its lane and its
    (reach, n, e, s, w, spare)."""
    size = parents[0][0].lanes.geometry.size if parents else 0
    for radius in range(1, 2 * size + 2):
        for parent in parents:
            fan, key, found, ring, done, parts = parent
            lanes = fan.lanes
            if radius > 2 * size:
                picked = [k for k in range(lanes.count) if not (done >> k) & 1]
            else:
                ring = parent[3] = lanes.grow(ring)
                picked = [k for k in lanes.chosen_indices(found[0] & ring) if not (done >> k) & 1]
            if not picked:
                continue
            if parts is None:
                parts = parent[5] = [lanes.split(found[i]) for i in range(5)] + [_ejected(fan, *key[:4])]
            for k in picked:
                parent[4] |= 1 << k
                yield parent, k, tuple(part[k] for part in parts)


def _new_child(
    seen: dict[Any, int],
    key: Any,
    reach: int,
    ban: int,
    out: int,
    table: dict[int, _Fan],
    make: Callable[[int, int], _Fan],
) -> _Fan | None:
    """The fan of the child `key` (forbidden point `ban`, spare `out`), or None when `seen`
    already holds every square of its `reach` (then it adds nothing)."""
    known = seen.get(key, 0)
    if not reach & ~known:
        return None
    seen[key] = known | reach
    child = table.get(ban * 8 + _ORIENTATIONS[out])
    return make(ban, out) if child is None else child


def _ejected(fan: _Fan, n: int, e: int, s: int, w: int) -> list[int]:
    """Per lane of `fan`, the open sides of the tile its push ejects: the child's spare."""
    return [
        ((n >> out) & 1) | (((e >> out) & 1) << 1) | (((s >> out) & 1) << 2) | (((w >> out) & 1) << 3)
        for out in fan.exits
        for _ in range(fan.per)
    ]


def _last_layer(
    fan: _Fan, reaches: int, where: tuple[int, ...], nodes: int, budget: int, turn: int, region: int
) -> Solution | int:
    """A node of the last layer, counted as a push-by-push search counts it: a push that
    changes nothing next to the pawns' `region` is one node (its orientations cannot
    differ), any other one node per orientation. The answer, or the nodes counted."""
    per = fan.per
    lanes = fan.lanes.split(reaches)
    for group, halo in enumerate(fan.halos):
        first = group * per
        if not region & halo:
            nodes += 1
            if where[first] != SPARE and (region >> where[first]) & 1:
                return Solution(turn, nodes)
            continue
        for k in range(first, first + per):
            nodes += 1
            if where[k] != SPARE and (lanes[k] >> where[k]) & 1:
                return Solution(turn, nodes)
        if nodes > budget:
            return Solution(None, nodes, proven=False)
    return nodes


MultiKey = tuple[int, int, int, int, int, int, tuple[int, ...]]  # n, e, s, w, spare, banned point, targets


def solve_from(
    board: Board, pawn: int, targets: Sequence[int], *, max_turns: int = 8, budget: int = DEFAULT_BUDGET
) -> list[Solution]:
    """`solve` for several target tiles from one pawn square at once, each answer the one
    `solve` gives (its fewest turns; not found within `max_turns`; never reachable; out of
    budget). One search serves them all: a node is a board with where every target tile
    lies, each layer is flooded once, and a target is answered in the first layer where a
    child reaches it. `budget` bounds the whole search (the nodes of its hardest target),
    and ``Solution.nodes`` is the count when each target was answered."""
    geometry = board.geometry
    stride, full = geometry.stride, geometry.full
    fans = _fans(geometry)
    table, make = fans.fans, fans.fan
    answers: list[Solution | None] = [None] * len(targets)
    open_targets = list(range(len(targets)))
    start: MultiKey = (
        board.n,
        board.e,
        board.s,
        board.w,
        board.spare_mask,
        -1,
        tuple(board.locate(t) for t in targets),
    )
    layer: dict[MultiKey, int] = {start: 1 << pawn}
    seen = dict(layer)
    nodes = 0
    far = 2 * geometry.size

    def nearest(pawns: int, where: tuple[int, ...]) -> int:
        """Steps (walls ignored) from the pawns to the nearest target still open."""
        goals = 0
        for t in open_targets:
            if where[t] != SPARE:
                goals |= 1 << where[t]
        for distance in range(far):
            if pawns & goals:
                return distance
            pawns = (pawns | pawns << 1 | pawns >> 1 | pawns << stride | pawns >> stride) & full
        return far

    def settle(solution: Solution) -> list[Solution]:
        for t in open_targets:
            answers[t] = solution
        return [a if a is not None else solution for a in answers]

    for turn in range(1, max_turns + 1):
        expanded: list[tuple[_Fan, MultiKey, Flooded]] = []
        for key, pawns in sorted(layer.items(), key=lambda item: nearest(item[1], item[0][6])):
            n, e, s, w, spare, banned, where = key
            fan = table.get(banned * 8 + _ORIENTATIONS[spare])
            if fan is None:
                fan = make(banned, spare)
            lanes = fan.lanes
            found = lanes.flooded(n, e, s, w, spare, lanes.ride(pawns))
            for t in list(open_targets):
                hits = found[0] & fan.goal(where[t], False)[1]
                if hits:
                    answers[t] = Solution(turn, nodes + (((hits & -hits).bit_length() - 1) >> lanes.bits) + 1)
                    open_targets.remove(t)
            if not open_targets:
                return [a for a in answers if a is not None]
            if nodes + fan.count > budget:
                return settle(Solution(None, nodes + fan.count, proven=False))
            nodes += fan.count
            expanded.append((fan, key, found))
        if turn == max_turns:
            break
        children = sum(fan.count for fan, _, _ in expanded)
        if nodes + children * children // max(1, len(expanded)) > budget:
            return _nearest_first_all(
                expanded, seen, table, make, answers, open_targets, nodes, budget, turn + 1, turn + 1 == max_turns
            )
        following: dict[MultiKey, int] = {}
        seen_get, following_get = seen.get, following.get
        for fan, (n, e, s, w, _, _, where), (reaches, ln, le, ls, lw) in expanded:
            split, ejected = fan.lanes.split, _ejected(fan, n, e, s, w)
            moved = [fan.goal(square, False)[0] for square in where]
            for k, (reach, a, b, c, d, out, ban) in enumerate(
                zip(split(reaches), split(ln), split(le), split(ls), split(lw), ejected, fan.bans, strict=True)
            ):
                child_key = (a, b, c, d, out, ban, tuple(m[k] for m in moved))
                known = seen_get(child_key, 0)
                if reach & ~known:
                    seen[child_key] = known | reach
                    following[child_key] = following_get(child_key, 0) | reach
        if not following:
            return settle(Solution(None, nodes, exhausted=True))
        layer = following
    return settle(Solution(None, nodes))


def _nearest_first_all(
    expanded: list[tuple[_Fan, MultiKey, Flooded]],
    seen: dict[MultiKey, int],
    table: dict[int, _Fan],
    make: Callable[[int, int], _Fan],
    answers: list[Solution | None],
    open_targets: list[int],
    nodes: int,
    budget: int,
    turn: int,
    last: bool,
) -> list[Solution]:
    """`_nearest_first` for `solve_from`: the children nearest any open target first, each
    target answered by the first child that reaches it."""
    parents: list[list[Any]] = []
    for fan, key, found in expanded:
        ring = 0
        for t in open_targets:
            ring |= fan.goal(key[6][t], False)[1]
        parents.append([fan, key, found, ring, 0, None])
    for (fan, key, *_), k, (reach, a, b, c, d, out) in _nearest_children(parents):
        where = tuple(fan.goal(square, False)[0][k] for square in key[6])
        child = _new_child(seen, (a, b, c, d, out, fan.bans[k], where), reach, fan.bans[k], out, table, make)
        if child is None:
            continue
        flooded = child.lanes.flooded(a, b, c, d, out, child.lanes.ride(reach))
        for t in list(open_targets):
            hits = flooded[0] & child.goal(where[t], False)[1]
            if hits:
                answers[t] = Solution(turn, nodes + (((hits & -hits).bit_length() - 1) >> child.lanes.bits) + 1)
                open_targets.remove(t)
        if not open_targets:
            return [a for a in answers if a is not None]
        nodes += child.count
        if nodes > budget:
            return [a or Solution(None, nodes, proven=False) for a in answers]
    return [a or Solution(None, nodes, proven=last) for a in answers]


@dataclass(frozen=True)
class PairResult:
    """One solved (start or square, treasure) pair."""

    origin: tuple[int, int]
    treasure: str
    solution: Solution


def solve_many(
    board: Board,
    pairs: Sequence[tuple[tuple[int, int], str]],
    *,
    max_turns: int,
    budget: int = DEFAULT_BUDGET,
    progress: Callable[[int, int, str], None] | None = None,
    label: str = "solver",
    workers: int | None = None,
) -> list[PairResult]:
    """Solve (pawn cell, treasure id) pairs on one board, in order. On a board of
    `PARALLEL_SIZE` or more a side, the pairs of each origin (whose searches share their
    floods) go to one of `workers` forked processes (default: the CPUs available); the
    answers are the same."""
    workers = available_cpus() if workers is None else workers
    groups: dict[tuple[int, int], list[int]] = {}
    for index, (cell, _) in enumerate(pairs):
        groups.setdefault(cell, []).append(index)
    if board.geometry.size >= PARALLEL_SIZE and workers > 1 and len(groups) > 1 and can_fork():
        found = _in_processes(board, pairs, list(groups.values()), max_turns, budget, workers, progress, label)
        if found is not None:
            return found
    return _solve_group(board, pairs, range(len(pairs)), max_turns, budget, progress, label)


# Boards this many squares a side or more share their pairs among processes.
PARALLEL_SIZE = 11


def _solve_group(
    board: Board,
    pairs: Sequence[tuple[tuple[int, int], str]],
    indices: Sequence[int],
    max_turns: int,
    budget: int,
    progress: Callable[[int, int, str], None] | None,
    label: str,
) -> list[PairResult]:
    """The pairs at `indices`, in order: the targets of each origin in one `solve_from`."""
    geometry = board.geometry
    tile_of = {t.treasure: i for i, t in enumerate(board.table) if t.treasure}
    by_origin: dict[tuple[int, int], list[int]] = {}
    for index in indices:
        by_origin.setdefault(pairs[index][0], []).append(index)
    found: dict[int, Solution] = {}
    done = 0
    for cell, group in by_origin.items():
        targets = [tile_of[pairs[index][1]] for index in group]
        pawn = geometry.bit(*cell)
        for index, target, solution in zip(
            group, targets, solve_from(board, pawn, targets, max_turns=max_turns, budget=budget), strict=True
        ):
            if solution.turns is None and not solution.exhausted:
                # Unanswered: a search for this target alone merges the boards that differ only
                # where the other targets lie, so it may prove what the shared one could not.
                solution = solve(board, pawn, target, max_turns=max_turns, budget=budget)
            found[index] = solution
        for _ in group:
            done += 1
            if progress is not None:
                progress(done, len(indices), label)
    return [PairResult(pairs[index][0], pairs[index][1], found[index]) for index in indices]


# What the solver's workers inherit (boardgen.processes.Workers): the board, the pairs, the turn
# limit and the budget; no board is pickled, only the groups of pairs go out.
_Job = tuple[Board, Sequence[tuple[tuple[int, int], str]], int, int]


def _solve_indices(job: _Job, indices: list[int]) -> tuple[list[int], list[PairResult]]:
    board, pairs, max_turns, budget = job
    return indices, _solve_group(board, pairs, indices, max_turns, budget, None, "")


def _in_processes(
    board: Board,
    pairs: Sequence[tuple[tuple[int, int], str]],
    groups: list[list[int]],
    max_turns: int,
    budget: int,
    workers: int,
    progress: Callable[[int, int, str], None] | None,
    label: str,
) -> list[PairResult] | None:
    """Each origin's pairs in a worker; None where processes cannot be had."""
    results: list[PairResult | None] = [None] * len(pairs)
    done = 0
    with Workers((board, pairs, max_turns, budget), min(workers, len(groups))) as pool:
        if not pool.start():
            return None
        for indices, solved in pool.imap_unordered(_solve_indices, groups):
            for index, result in zip(indices, solved, strict=True):
                results[index] = result
            done += len(indices)
            if progress is not None:
                progress(done, len(pairs), label)
    return [r for r in results if r is not None]


def next_turn_hits(
    board: Board, pawns: int, tiles: Sequence[int], squares: int, *, forbidden: InsertionPoint | None = None
) -> int:
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
