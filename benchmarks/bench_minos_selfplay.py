"""Self-play speed of King Minos: greedy games per second on one core, per player count.

Run from the repository root:  .venv/bin/python benchmarks/bench_minos_selfplay.py [--games 300]

Games are played as the playability check plays them (`play` with the engine's counters),
in one process. Speed is given per second of this process's CPU time (the clock on a
shared machine also measures the neighbours) and by the clock, with the load average.
`--profile` prints where one run of 4-player greedy self-play spends its time.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import platform
import pstats
import time

from timing import best_of  # benchmarks/timing.py (run as a script, its folder is on the path)

from boardgen.data.loader import load
from boardgen.model.minos import build
from boardgen.rules.minos import MinosGame
from boardgen.rules.players import GreedyPlayer
from boardgen.rules.simulate import GameRecord, game_seeds, play


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--layout", default="minos")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=300, help="self-play games to time per player count")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--profile", action="store_true", help="profile 4-player greedy self-play")
    args = parser.parse_args()

    layout = build(load("game", args.layout))
    game = MinosGame(layout)
    print(
        f"boardgen minos self-play benchmark: {args.layout}, seed {args.seed}, "
        f"Python {platform.python_version()}, best of {args.repeat}"
    )
    print(f"load average {', '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    for players in (2, 3, 4):
        seeds = game_seeds(args.seed + players, args.games)
        seats = [GreedyPlayer()] * players

        def run(seats: list[GreedyPlayer] = seats, seeds: list[int] = seeds) -> list[GameRecord]:
            return [play(game, seats, s, turn_cap=1000) for s in seeds]

        cpu = best_of(args.repeat, run)
        clock = best_of(1, run, time.perf_counter)
        decisions = sum(r.decisions for r in run())
        print(
            f"{players} greedy players: {args.games / cpu:.0f} games/s of CPU time "
            f"({args.games / clock:.0f} by the clock), {decisions / cpu:.0f} decisions/s"
        )
    if args.profile:
        seeds = game_seeds(args.seed + 4, args.games)
        profiler = cProfile.Profile()
        profiler.enable()
        for s in seeds:
            play(game, [GreedyPlayer()] * 4, s, turn_cap=1000)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(14)


if __name__ == "__main__":
    main()
