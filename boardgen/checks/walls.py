"""Playability report for a moving-walls layout: static checks of the printed start, then
self-play with 2 and 4 players.

Static checks: the blocks are as many as declared and quartered by the board's rotation,
none starts on the centre or a starting corner, each touches another at the start; the start
is a labyrinth yet not sealed (every starting square is between ``min_start_distance`` and
``max_start_distance`` pawn moves from the centre, blocks as printed); every seat has moves.
Self-play (heuristic players on every seat) checks completion within ``turn_cap`` turns,
mean and p95 length in rounds, seat balance, how often a game stalls (``stall_rounds``
rounds in which no seat gets closer to the centre than before, at most ``max_stall_rate``
of games), the branching factor (``min_branching`` decisions on average) and that every
block is moved at least ``min_block_moves`` times over all games.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from boardgen.checks.common import self_play_check
from boardgen.checks.verdict import Check
from boardgen.model.walls import QUADRANTS, WallsLayout, placement_problems
from boardgen.rules.simulate import GameRecord, SimulationStats
from boardgen.rules.walls import WallsGame, distances

Progress = Callable[[int, int, str], None]


def start_distances(layout: WallsLayout) -> dict[str, list[int]]:
    """Pawn moves from each starting square to the centre, blocks as printed, per colour."""
    game = WallsGame(layout)
    g = game.geometry
    levels = g.levels(game.initial_state(max(layout.player_counts)).walls)
    return {colour: distances(levels, [g.bit(cell) for cell in layout.starts(colour)]) for colour in layout.colours}


def static_checks(layout: WallsLayout, limits: Mapping[str, Any]) -> list[Check]:
    placement = placement_problems(layout)
    if len(layout.blocks) != layout.block_count:
        placement.append(f"{len(layout.blocks)} blocks listed, the layout declares {layout.block_count}")
    quadrants = {q: sum(1 for b in layout.blocks if b.id.startswith(q)) for q in QUADRANTS}
    if len(set(quadrants.values())) > 1:
        placement.append("blocks per quadrant differ: " + ", ".join(f"{q} {n}" for q, n in quadrants.items()))
    shapes = sorted({b.shape for b in layout.blocks if b.id.startswith("A")})
    cells = sum(len(b.cells) for b in layout.blocks)
    checks = [
        Check(
            "blocks",
            not placement,
            f"{len(layout.blocks)} blocks ({len(shapes)} shapes per quadrant: {' '.join(shapes)}; "
            f"{cells} squares), quartered, clear of the centre and corners, each touching another",
            placement,
        )
    ]
    far = start_distances(layout)
    low, high = limits["min_start_distance"], limits["max_start_distance"]
    problems = [
        f"a {colour} pawn starting on {list(cell)} is {d} pawn moves from the centre "
        f"({'sealed in' if d > high else 'too near'}: {low} to {high} wanted)"
        for colour in layout.colours
        for cell, d in zip(layout.starts(colour), far[colour], strict=True)
        if not low <= d <= high
    ]
    shown = sorted({d for ds in far.values() for d in ds})
    checks.append(
        Check(
            "labyrinth",
            not problems,
            f"every start is {'-'.join(map(str, (shown[0], shown[-1])))} pawn moves from the centre "
            f"with the blocks as printed ({low} to {high} wanted)",
            problems,
        )
    )
    game = WallsGame(layout)
    counts = []
    problems = []
    for seats in layout.player_counts:
        # The first turn is a pawn, then a block: both must be there to play.
        state = game.initial_state(seats)
        pawn, blocks = len(game.pawn_moves(state)), len(game.block_moves(state))
        counts.append(f"{seats} players: {pawn} pawn and {blocks} block moves")
        if not pawn or not blocks:
            problems.append(f"{seats} players: the first player has {pawn} pawn moves and {blocks} block moves")
    checks.append(Check("first moves", not problems, "; ".join(counts), problems))
    return checks


def figures(records: Sequence[GameRecord]) -> dict[str, float]:
    """One player count's ``extra`` figures: block slides and stalls per game and the share
    of games that stalled."""
    games = len(records)
    slides = sum(v for r in records for k, v in r.counters.items() if k.startswith("moved:"))
    return {
        "block_slides": slides / games,
        "stalls": sum(r.counters.get("stalls", 0.0) for r in records) / games,
        "stalled_games": sum(1 for r in records if r.counters.get("stalls", 0.0) or not r.finished) / games,
    }


def self_play_judged(sim: SimulationStats, limits: Mapping[str, Any]) -> Check:
    """One player count's self-play as a check: the shared criteria, then stalls and
    branching."""
    check = self_play_check(
        sim,
        limits,
        unit="rounds",
        extra=f", stalled {sim.extra['stalled_games']:.0%}, branching {sim.branching_mean:.0f}",
    )
    if sim.extra["stalled_games"] > limits["max_stall_rate"]:
        check.problems.append(
            f"{check.name}: {sim.extra['stalled_games']:.0%} of games stalled for "
            f"{limits['stall_rounds']} rounds (maximum {limits['max_stall_rate']:.0%})"
        )
    if sim.branching_mean < limits.get("min_branching", 0):
        check.problems.append(
            f"{check.name}: {sim.branching_mean:.1f} moves per decision on average (minimum {limits['min_branching']})"
        )
    check.ok = not check.problems
    return check


def blocks_moved(layout: WallsLayout, sims: list[SimulationStats], least: int) -> Check:
    games = sum(sim.games for sim in sims)
    moved = {
        block.id: int(sum(sim.extra_totals.get(f"moved:{k}", 0.0) for sim in sims))
        for k, block in enumerate(layout.blocks)
    }
    problems = [
        f"block {block_id} was moved {count} times in {games} games (minimum {least})"
        for block_id, count in moved.items()
        if count < least
    ]
    rarest = min(moved, key=lambda k: (moved[k], k))
    return Check(
        "blocks moved",
        not problems,
        f"every block moved; rarest {rarest} ({moved[rarest]} times in {games} games)"
        if not problems
        else f"{len(problems)} blocks moved too rarely",
        problems,
    )
