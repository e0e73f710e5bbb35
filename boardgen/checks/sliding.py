"""The sliding games' checks: static checks of a deal and the solver's reachability.

The check harness (`boardgen.checks.harness.check`, through `boardgen.engines.sliding`) runs
them: static checks look at the printed deal and collect every problem, each with a precise
message; the solver then looks for every treasure from every start on that board; then
self-play. Thresholds come from the layout's ``[playability]`` table, with the defaults in
`DEFAULTS`.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from boardgen.checks.harness import Check, Progress, format_distribution, thresholds
from boardgen.draws import Draws
from boardgen.model.sliding import Deal, SlidingLayout, deal
from boardgen.model.tiles import Tile, mask_of, quarter_turns_between, sides_of
from boardgen.rules.simulate import percentile
from boardgen.rules.sliding import Board, opens_onto_board
from boardgen.rules.solver import DEFAULT_BUDGET, PairResult, solve_many

DEFAULTS: dict[str, Any] = {
    "max_turns_to_target": 8,
    "games_per_player_count": 200,
    "turn_cap": 400,
    "min_completion_rate": 0.95,
    "max_seat_gap": 0.15,
    "seat_gap_significance": 0.01,
    "solver_budget": DEFAULT_BUDGET,
}

# -- static checks on a deal -------------------------------------------------------------


def check_inventory(the_deal: Deal) -> list[str]:
    """Tiles of each shape on the board and spare, as the layout declares."""
    layout = the_deal.layout
    expected = Counter(t.shape for t in layout.all_tiles)
    found = Counter(t.shape for t in _all_dealt(the_deal))
    problems = []
    for shape in sorted(set(expected) | set(found)):
        if expected[shape] != found[shape]:
            problems.append(
                f"tile inventory: {found[shape]} {shape} tiles on the board and "
                f"spare, the layout declares {expected[shape]}"
            )
    known = {t.id for t in layout.all_tiles}
    counts = Counter(t.id for t in _all_dealt(the_deal))
    for tile_id, count in sorted(counts.items()):
        if tile_id not in known:
            problems.append(f"tile inventory: tile {tile_id!r} is not in the layout")
        elif count > 1:
            problems.append(f"tile inventory: tile {tile_id!r} is dealt {count} times")
    shapes = layout.doc.data["shapes"]
    for tile in _all_dealt(the_deal):
        base = shapes.get(tile.shape)
        if base is not None and quarter_turns_between(mask_of(base), tile.mask) is None:
            problems.append(
                f"tile {tile.id!r} ({tile.shape}) is open {sides_of(tile.mask)!r}, not a rotation of {base!r}"
            )
    return problems


def check_treasures(the_deal: Deal) -> list[str]:
    """Every treasure on exactly one tile; no tile carries an unknown treasure."""
    declared = [t.id for t in the_deal.layout.treasures]
    carriers: dict[str, list[str]] = {}
    for where, tile in _placed(the_deal):
        if tile.treasure:
            carriers.setdefault(tile.treasure, []).append(where)
    problems = []
    for treasure in declared:
        places = carriers.get(treasure, [])
        if not places:
            problems.append(f"treasure {treasure!r} is on no tile")
        elif len(places) > 1:
            problems.append(f"treasure {treasure!r} is on {len(places)} tiles: {', '.join(places)}")
    for treasure in sorted(set(carriers) - set(declared)):
        problems.append(f"treasure {treasure!r} on {carriers[treasure][0]} is not declared in the layout's treasures")
    return problems


def check_fixed(the_deal: Deal) -> list[str]:
    """Each fixed tile on its square, turned as declared; no fixed tile anywhere else."""
    layout = the_deal.layout
    problems = []
    for (row, col), fixed in sorted(layout.fixed.items()):
        if not (0 <= row < len(the_deal.grid) and 0 <= col < len(the_deal.grid[row])):
            continue
        tile = the_deal.grid[row][col]
        if tile.id != fixed.id:
            problems.append(
                f"square [{row}, {col}] must hold its fixed {fixed.shape} "
                f"{sides_of(fixed.mask)!r}, found tile {tile.id!r}"
            )
        elif tile.mask != fixed.mask:
            problems.append(
                f"fixed tile at [{row}, {col}] is open {sides_of(tile.mask)!r}, "
                f"the layout declares {sides_of(fixed.mask)!r}"
            )
    for tile in _all_dealt(the_deal):
        if tile.fixed and tile.id not in {t.id for t in layout.fixed.values()}:
            problems.append(f"tile {tile.id!r} is marked fixed but the layout fixes no such tile")
    if the_deal.spare.fixed:
        problems.append(f"the spare is the fixed tile {the_deal.spare.id!r}")
    return problems


def check_starts(the_deal: Deal) -> list[str]:
    """Starts on the board's corners, on their start tiles, opening onto the board."""
    layout = the_deal.layout
    size = layout.size
    corners = {(0, 0), (0, size - 1), (size - 1, 0), (size - 1, size - 1)}
    problems = []
    for start in layout.starts:
        row, col = start.at
        if start.at not in corners:
            problems.append(f"start {start.colour!r} at [{row}, {col}] is not on a corner of the {size}x{size} board")
        if not (0 <= row < size and 0 <= col < size):
            continue
        tile = the_deal.grid[row][col]
        if tile.start != start.colour:
            problems.append(f"start {start.colour!r} at [{row}, {col}] is on tile {tile.id!r}, not on its start tile")
        if not opens_onto_board(tile.mask, row, col, size):
            problems.append(
                f"start {start.colour!r} at [{row}, {col}] is open "
                f"{sides_of(tile.mask)!r}: no side opens onto the board"
            )
    most = max(layout.deal, default=0)
    if most > len(layout.starts):
        problems.append(f"the deal goes up to {most} players but there are {len(layout.starts)} starts")
    return problems


def check_cards(the_deal: Deal) -> list[str]:
    """Every card names a treasure on the board or the spare, and every deal fits the deck."""
    layout = the_deal.layout
    on_tiles = {t.treasure for t in _all_dealt(the_deal) if t.treasure}
    problems = [
        f"card {t.id!r} has no treasure on the board or the spare" for t in layout.treasures if t.id not in on_tiles
    ]
    for players, cards in sorted(layout.deal.items()):
        if players * cards > len(layout.treasures):
            problems.append(
                f"{players} players x {cards} cards needs {players * cards} cards, the deck has {len(layout.treasures)}"
            )
    return problems


def check_insertion_points(the_deal: Deal) -> list[str]:
    """At least one insertion point; every sliding line on the board and free of fixed tiles."""
    layout = the_deal.layout
    size = layout.size
    if not layout.sliding_lines:
        return ["there is no insertion point: no row or column slides"]
    problems = []
    for line in layout.sliding_lines:
        if not 0 <= line < size:
            problems.append(f"sliding line {line} is off the {size}x{size} board")
            continue
        for row, col in sorted(layout.fixed):
            if line in (row, col):
                direction = "row" if row == line else "column"
                problems.append(
                    f"insertion points {direction} {line}: the fixed tile at [{row}, {col}] would have to move"
                )
    return problems


STATIC_CHECKS: tuple[tuple[str, Callable[[Deal], list[str]]], ...] = (
    ("tile inventory", check_inventory),
    ("treasures", check_treasures),
    ("fixed tiles", check_fixed),
    ("starts", check_starts),
    ("cards", check_cards),
    ("insertion points", check_insertion_points),
)


def static_checks(the_deal: Deal) -> list[Check]:
    """Run every static check on a deal; each lists all of its problems."""
    return [Check.of(name, run(the_deal)) for name, run in STATIC_CHECKS]


# -- solver and self-play ----------------------------------------------------------------


@dataclass
class PairsSummary:
    """Solver answers for many (pawn square, treasure) pairs on one deal."""

    game: str
    seed: int
    max_turns: int
    results: list[PairResult]
    elapsed_s: float = 0.0

    @property
    def distribution(self) -> dict[str, int]:
        return distribution(self.results)

    def to_dict(self) -> dict[str, Any]:
        turns = [r.solution.turns for r in self.results if r.solution.turns is not None]
        return {
            "game": self.game,
            "seed": self.seed,
            "pairs": len(self.results),
            "max_turns": self.max_turns,
            "turns_to_target": self.distribution,
            "mean": round(sum(turns) / len(turns), 3) if turns else None,
            "p95": percentile(turns, 0.95) if turns else None,
            "max": max(turns) if turns else None,
            "unresolved": [
                {"from": list(r.origin), "treasure": r.treasure, "proven": r.solution.proven}
                for r in self.results
                if r.solution.turns is None
            ],
        }

    def to_text(self) -> str:
        data = self.to_dict()
        total = len(self.results)
        lines = [
            f"{self.game} (seed {self.seed}): {total} pairs, search up to {self.max_turns} turns",
            "",
            "  turns   pairs   share",
        ]
        for key, count in data["turns_to_target"].items():
            lines.append(f"  {key:>5}  {count:>6}  {count / total:6.1%}")
        lines.append("")
        lines.append(f"  mean {data['mean']}, p95 {data['p95']}, max {data['max']}")
        if self.elapsed_s:
            lines.append(f"  {self.elapsed_s:.2f} s, {1000 * self.elapsed_s / total:.2f} ms per pair")
        return "\n".join(lines)


def distribution(results: Sequence[PairResult]) -> dict[str, int]:
    """Pairs per number of turns, in order, with "unreached" last."""
    counts = Counter(r.solution.turns for r in results)
    out = {str(k): counts[k] for k in sorted(k for k in counts if k is not None)}
    if None in counts:
        out["unreached"] = counts[None]
    return out


def solve_pairs(
    layout: SlidingLayout,
    seed: int,
    *,
    pairs: int,
    rng_seed: int,
    progress: Progress | None = None,
    max_turns: int | None = None,
) -> PairsSummary:
    """Solve `pairs` random (pawn square, treasure) pairs on the deal of `seed`."""
    limits = thresholds(layout, DEFAULTS, max_turns_to_target=max_turns)
    board = Board.from_deal(deal(layout, seed))
    rng = Draws(rng_seed)
    chosen = [((rng.below(layout.size), rng.below(layout.size)), rng.choice(layout.treasures).id) for _ in range(pairs)]
    started = time.perf_counter()
    results = solve_many(
        board, chosen, max_turns=limits["max_turns_to_target"], budget=limits["solver_budget"], progress=progress
    )
    return PairsSummary(layout.id, seed, limits["max_turns_to_target"], results, time.perf_counter() - started)


def solve_starts(
    layout: SlidingLayout,
    the_deal: Deal,
    counts: Sequence[int],
    limits: Mapping[str, Any],
    *,
    progress: Progress | None = None,
) -> list[PairResult]:
    """The solver from every start used by `counts` players to every treasure."""
    starts = layout.starts[: max(counts, default=len(layout.starts))]
    pairs = [(s.at, t.id) for s in starts for t in layout.treasures]
    return solve_many(
        Board.from_deal(the_deal),
        pairs,
        max_turns=limits["max_turns_to_target"],
        budget=limits["solver_budget"],
        progress=progress,
        label="solver",
    )


def reach_check(
    layout: SlidingLayout, results: list[PairResult], limits: Mapping[str, Any], noun: str = "treasure"
) -> Check:
    """The solver's answers from the starts as a check: every target `noun` ("treasure",
    "object") must be found within ``max_turns_to_target`` turns."""
    colour = {s.at: s.colour for s in layout.starts}
    bound = limits["max_turns_to_target"]
    problems = []
    for r in results:
        if r.solution.turns is not None:
            continue
        start = f"the {colour[r.origin]} start {list(r.origin)}"
        if not r.solution.proven:
            problems.append(
                f"{noun} {r.treasure!r}: the search from {start} ran out of "
                f"budget ({limits['solver_budget']} boards) before reaching it"
            )
        elif r.solution.exhausted:
            problems.append(
                f"{noun} {r.treasure!r} can never be reached from {start}: every board the pushes can make was searched"
            )
        else:
            problems.append(
                f"{noun} {r.treasure!r} cannot be reached from {start} within {bound} turn{'' if bound == 1 else 's'}"
            )
    summary = f"{len(results)} start/{noun} pairs: {format_distribution(distribution(results))}"
    return Check("reachability", not problems, summary, problems)


def _all_dealt(the_deal: Deal) -> Iterator[Tile]:
    for line in the_deal.grid:
        yield from line
    yield the_deal.spare


def _placed(the_deal: Deal) -> Iterator[tuple[str, Tile]]:
    """Each dealt tile with where it is: "[row, col]" or "the spare"."""
    for row, line in enumerate(the_deal.grid):
        for col, tile in enumerate(line):
            yield f"[{row}, {col}]", tile
    yield "the spare", the_deal.spare
