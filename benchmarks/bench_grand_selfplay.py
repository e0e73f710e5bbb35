"""Self-play speed of Le Grand Labyrinthe: games per second on one core, per lineup and player count.

Run from the repository root:  .venv/bin/python benchmarks/bench_grand_selfplay.py [--games 200]

Games are played as the playability check plays them (`play` with the engine's players, the
game's events counted, each lineup of `GrandEngine.self_play_lineups`), in one process, on one
position played in place (the rules' own kernel: there is no second copy to compare). Speed
is given per second of this process's CPU time (the clock on a shared machine
also measures the neighbours), best of `--repeat`, with the load average. The check's own
work outside self-play (static checks, the game's tables) is timed once, on a fresh layout,
and the whole check (`boardgen validate grand` without the process start: static checks,
every lineup's self-play, the closing checks) in this one process, best of `--repeat`.
`--profile` prints where one round of every lineup's self-play spends its time.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import platform
import pstats
import time
from collections.abc import Callable, Sequence

from timing import best_of  # benchmarks/timing.py (run as a script, its folder is on the path)

from boardgen.checks.harness import check
from boardgen.data.loader import load
from boardgen.engines.grand import GrandEngine
from boardgen.model.grand import GrandLayout, build, static_problems
from boardgen.rules.grand import GrandGame
from boardgen.rules.protocol import Player
from boardgen.rules.simulate import GameRecord, game_seeds, play


def seats_of(names: Sequence[str]) -> list[Player]:
    factories = GrandEngine().players()
    return [factories[name]() for name in names]


def static_work(name: str) -> dict[str, float]:
    """CPU seconds of the check's work outside self-play, each on a fresh layout: the static
    checks, and the game with the tables self-play needs (`GrandEngine.game`)."""
    works: dict[str, Callable[[GrandLayout], object]] = {
        "static checks": static_problems,
        "game tables": GrandEngine().game,
    }
    out = {}
    for label, work in works.items():
        layout = build(load("game", name))
        started = time.process_time()
        work(layout)
        out[label] = time.process_time() - started
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--layout", default="grand")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=200, help="self-play games to time per lineup and count")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--profile", action="store_true", help="profile one round of every lineup")
    args = parser.parse_args()

    engine = GrandEngine()
    layout: GrandLayout = engine.build(load("game", args.layout))
    game: GrandGame = engine.game(layout)
    turn_cap = int(engine.thresholds(layout)["turn_cap"])
    print(
        f"boardgen grand self-play benchmark: {args.layout}, seed {args.seed}, {args.games} games per run, "
        f"Python {platform.python_version()}, best of {args.repeat}"
    )
    print(f"load average {', '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    for label, seconds in static_work(args.layout).items():
        print(f"{label}: {seconds * 1000:.0f} ms of CPU time")
    whole = best_of(args.repeat, lambda: check(engine, build(load("game", args.layout)), args.seed, workers=1))
    print(f"the whole check, one process: {whole:.3f} s of CPU time")
    runs = []
    for players in (2, 3, 4):
        for lineup in engine.self_play_lineups(layout, players):
            seats = seats_of(lineup.seats)
            seeds = game_seeds(args.seed + players, args.games)

            def run(seats: list[Player] = seats, seeds: list[int] = seeds) -> list[GameRecord]:
                return [play(game, seats, s, turn_cap=turn_cap) for s in seeds]

            runs.append(run)
            cpu = best_of(args.repeat, run)
            decisions = sum(r.decisions for r in run())
            name = lineup.name or "greedy"
            print(
                f"{players} players {name:<14} {args.games / cpu:7.0f} games/s of CPU time, "
                f"{decisions / cpu:8.0f} decisions/s"
            )
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        for run in runs:
            run()
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(14)


if __name__ == "__main__":
    main()
