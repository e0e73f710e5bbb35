"""Labyrinthe Master's checks: static checks of a set-up, the solver from every start to
every token, and the score figures of its self-play.

The check harness (`boardgen.checks.harness.check`, through `boardgen.engines.master`) runs
them, as for the classic game (`boardgen.checks.sliding`), whose tile checks it shares.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from boardgen.checks.harness import Check, Progress
from boardgen.checks.sliding import check_fixed, check_insertion_points, check_inventory
from boardgen.model.master import MasterLayout, Setup, recipe_problems
from boardgen.rules.master import turns_to_token
from boardgen.rules.simulate import GameRecord, SimulationStats
from boardgen.rules.sliding import Board, opens_onto_board
from boardgen.rules.solver import DEFAULT_BUDGET, Flooded, PairResult


def check_starts(layout: MasterLayout, start: Setup) -> list[str]:
    """Starts on distinct squares, each opening onto the board, enough for every player."""
    size = layout.size
    problems = []
    grid = start.deal.grid
    seen: dict[tuple[int, int], str] = {}
    for s in layout.starts:
        row, col = s.at
        if s.at in seen:
            problems.append(f"starts {seen[s.at]!r} and {s.colour!r} share [{row}, {col}]")
        seen.setdefault(s.at, s.colour)
        if not opens_onto_board(grid[row][col].mask, row, col, size):
            problems.append(f"start {s.colour!r} at [{row}, {col}]: no side opens onto the board")
    if layout.players[1] > len(layout.starts):
        problems.append(f"up to {layout.players[1]} players but {len(layout.starts)} starts")
    return problems


def check_tokens(layout: MasterLayout, start: Setup) -> list[str]:
    """One token per object, on distinct inner squares that are not starts."""
    size, inner = layout.size, layout.size - 2
    problems = []
    outside = [sq for sq in layout.token_squares if not (1 <= sq[0] <= size - 2 and 1 <= sq[1] <= size - 2)]
    if outside:
        problems.append(
            f"token squares outside the inner {inner}x{inner} (rows and columns 1-{size - 2}): {_cells(outside)}"
        )
    for square, count in sorted(Counter(layout.token_squares).items()):
        if count > 1:
            problems.append(f"token square {_cells([square])} is listed {count} times")
    starts = {s.at: s.colour for s in layout.starts}
    for square in sorted(start.tokens):
        if square in starts:
            problems.append(f"token square {_cells([square])} is the {starts[square]!r} start")
    placed = Counter(start.tokens.values())
    for o in layout.by_value:
        if placed[o.id] != 1:
            problems.append(f"object {o.id!r} lies on {placed[o.id]} squares, expected 1")
    known = {o.id for o in layout.objects}
    for object_id in sorted(set(placed) - known):
        problems.append(f"a token square holds unknown object {object_id!r}")
    if len(start.tokens) != len(layout.objects):
        problems.append(f"{len(start.tokens)} token squares for {len(layout.objects)} objects")
    return problems


def check_recipes(layout: MasterLayout, start: Setup) -> list[str]:
    """The designed (or fixed) recipe cards keep every design rule; one per player."""
    spec = {"cards": layout.recipe_cards, "per_card": layout.per_card, "per_object": layout.per_object}
    problems = [
        f"recipe cards: {message}" for message in recipe_problems(start.recipes, [o.id for o in layout.by_value], spec)
    ]
    if len(start.recipes) < layout.players[1]:
        problems.append(f"{len(start.recipes)} recipe cards for up to {layout.players[1]} players")
    return problems


STATIC_CHECKS: tuple[tuple[str, Callable[[MasterLayout, Setup], list[str]]], ...] = (
    ("tile inventory", lambda layout, start: check_inventory(start.deal)),
    ("fixed tiles", lambda layout, start: check_fixed(start.deal)),
    ("insertion points", lambda layout, start: check_insertion_points(start.deal)),
    ("starts", check_starts),
    ("tokens", check_tokens),
    ("recipes", check_recipes),
)


def static_checks(layout: MasterLayout, start: Setup) -> list[Check]:
    """Every static check on the set-up; each lists all of its problems."""
    return [Check.of(name, run(layout, start)) for name, run in STATIC_CHECKS]


def solve_tokens(
    layout: MasterLayout,
    start: Setup,
    *,
    max_turns: int,
    budget: int = DEFAULT_BUDGET,
    starts: Sequence[Any] | None = None,
    progress: Progress | None = None,
) -> list[PairResult]:
    """Fewest turns from every start to every token of the set-up."""
    board = Board.from_deal(start.deal)
    bit = board.geometry.bit
    where = {object_id: cell for cell, object_id in start.tokens.items()}
    pairs = [(s.at, o.id) for s in (starts or layout.starts) for o in layout.by_value]
    results = []
    memo: dict[tuple[int, ...], Flooded] = {}  # the searches from one start meet the same boards
    for done, (cell, object_id) in enumerate(pairs, start=1):
        solution = turns_to_token(
            board, bit(*cell), bit(*where[object_id]), max_turns=max_turns, budget=budget, memo=memo
        )
        results.append(PairResult(cell, object_id, solution))
        if progress is not None:
            progress(done, len(pairs), "solver")
    return results


def score_figures(records: Sequence[GameRecord]) -> dict[str, float]:
    """Score spread over the finished games: mean, lowest and highest score of any seat,
    and the mean lead of the best seat over the next."""
    scored = [r.scores for r in records if r.finished and r.scores]
    if not scored:
        return {}
    every = [s for scores in scored for s in scores]
    margins = [ranked[0] - ranked[1] for ranked in (sorted(s, reverse=True) for s in scored)]
    return {
        "score_mean": sum(every) / len(every),
        "score_min": float(min(every)),
        "score_max": float(max(every)),
        "winner_margin": sum(margins) / len(margins),
    }


def self_play_extra(sim: SimulationStats) -> str:
    """The end of a self-play summary: shared wins, the score spread, wands played."""
    text = f", {sim.draws} shared wins"
    extra = sim.extra
    if "score_mean" in extra:
        text += (
            f"; scores mean {extra['score_mean']:.1f}, min {extra['score_min']:.0f}, "
            f"max {extra['score_max']:.0f}, winner margin {extra['winner_margin']:.1f}; "
            f"{extra['wands_used']:.1f} wands a game"
        )
    return text


def _cells(cells: Sequence[tuple[int, int]]) -> str:
    return ", ".join(f"[{r}, {c}]" for r, c in cells)
