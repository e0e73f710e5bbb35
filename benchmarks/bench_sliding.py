"""Timings of the sliding-corridor engine: solver pairs, self-play speed, a full validate.

Run from the repository root:  .venv/bin/python benchmarks/bench_sliding.py [--pairs 10000]

Self-play speed is given in games per second of this process's CPU time as well as of the
clock, with the load average: on a shared machine the clock measures the neighbours too.
`--profile` prints where one run of 4-player greedy self-play spends its time.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import platform
import pstats
import time

from boardgen.checks.harness import check
from boardgen.checks.sliding import solve_pairs
from boardgen.data.loader import load
from boardgen.engines import get_engine
from boardgen.model.sliding import build, deal
from boardgen.rules.planner import PlannerPlayer
from boardgen.rules.players import GreedyPlayer
from boardgen.rules.simulate import SimulationStats, available_cpus, simulate
from boardgen.rules.sliding import Board, SlidingGame
from boardgen.rules.solver import solve_many


def best_of(repeat: int, run, clock=time.perf_counter):
    """The fastest of `repeat` runs (seconds of `clock`) and the last result."""
    best, result = float("inf"), None
    for _ in range(repeat):
        started = clock()
        result = run()
        best = min(best, clock() - started)
    return best, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layout", default="classic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pairs", type=int, default=2000, help="random pairs for the solver")
    parser.add_argument("--games", type=int, default=200, help="self-play games to time")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--planner", action="store_true", help="also time planner vs greedy")
    parser.add_argument("--profile", action="store_true", help="profile 4-player greedy self-play")
    args = parser.parse_args()

    layout = build(load("game", args.layout))
    print(
        f"boardgen sliding benchmark: {args.layout}, seed {args.seed}, "
        f"Python {platform.python_version()}, best of {args.repeat}"
    )

    game = SlidingGame(layout)
    board = Board.from_deal(deal(layout, args.seed))
    starts = [(s.at, t.id) for s in layout.starts for t in layout.treasures]
    seconds, results = best_of(args.repeat, lambda: solve_many(board, starts, max_turns=8))
    nodes = sum(r.solution.nodes for r in results)
    print(
        f"solver, {len(starts)} start/treasure pairs: {seconds:.3f} s, "
        f"{1000 * seconds / len(starts):.2f} ms per pair, {nodes} boards"
    )

    summary = solve_pairs(layout, args.seed, pairs=args.pairs, rng_seed=0)
    print(
        f"solver, {args.pairs} random (square, treasure) pairs: {summary.elapsed_s:.2f} s, "
        f"{1000 * summary.elapsed_s / args.pairs:.2f} ms per pair"
    )
    data = summary.to_dict()
    print(
        "  turns to target: "
        + ", ".join(f"{k}: {v} ({v / args.pairs:.1%})" for k, v in data["turns_to_target"].items())
        + f"; mean {data['mean']}, p95 {data['p95']}, max {data['max']}"
    )

    print(f"load average {', '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    for players in (2, 3, 4):

        def run(p: int = players) -> SimulationStats:
            return simulate(game, [GreedyPlayer()] * p, games=args.games, seed=args.seed, turn_cap=400)

        cpu, stats = best_of(args.repeat, run, time.process_time)
        seconds, _ = best_of(1, run)
        turns = stats.mean_length * stats.finished
        print(
            f"self-play, {players} greedy players, one process: {args.games / cpu:.0f} games/s "
            f"of CPU time ({args.games / seconds:.0f} by the clock), {turns / cpu:.0f} turns/s "
            f"(mean {stats.mean_length:.1f} turns, p95 {stats.p95_length}, seat gap {stats.seat_gap:.2f})"
        )
    if args.profile:
        profiler = cProfile.Profile(time.process_time)
        profiler.runcall(simulate, game, [GreedyPlayer()] * 4, games=args.games, seed=args.seed, turn_cap=400)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(12)

    if args.planner:
        games = max(10, args.games // 10)
        started = time.perf_counter()
        first = simulate(game, [PlannerPlayer(), GreedyPlayer()], games=games, seed=1, turn_cap=400)
        second = simulate(game, [GreedyPlayer(), PlannerPlayer()], games=games, seed=2, turn_cap=400)
        wins = first.seat_wins[0] + second.seat_wins[1]
        seconds = time.perf_counter() - started
        print(
            f"planner vs greedy, {2 * games} games (both seats): planner wins {wins} "
            f"({wins / (2 * games):.0%}), {2 * games / seconds:.1f} games/s"
        )

    games = layout.playability.get("games_per_player_count", 200)
    for workers in sorted({1, available_cpus()}):
        seconds, report = best_of(
            args.repeat, lambda w=workers: check(get_engine("sliding"), layout, args.seed, workers=w)
        )
        print(
            f"full validate (solver + {games} games x "
            f"{len(report.stats.get('self_play', {}))} player counts), {workers} "
            f"process(es): {seconds:.2f} s, playable={report.playable}"
        )


if __name__ == "__main__":
    main()
