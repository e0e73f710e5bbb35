"""Self-play throughput of the sliding games, one process: greedy players in every seat.

Run from the repository root:  .venv/bin/python benchmarks/bench_selfplay.py [--games 300]

Prints games per second of this process's CPU time (best of `--repeat`) for classic with
2, 3 and 4 players and for Labyrinthe Master; `--check` adds the playability check of both
games in this one process (the solver, then the whole check, as `boardgen validate` runs it
but without worker processes), the first run of a fresh process apart; `--profile` shows
where classic with four players spends its time. The machine may be shared: CPU time, not
the clock, is what counts.
"""

from __future__ import annotations

import argparse
import cProfile
import platform
import pstats
import time
from collections.abc import Sequence

from boardgen.checks.harness import check
from boardgen.data.loader import load
from boardgen.engines import load_game
from boardgen.model.master import build as build_master
from boardgen.model.sliding import build
from boardgen.rules.master import MasterGame
from boardgen.rules.players import GreedyPlayer
from boardgen.rules.simulate import GameRecord, game_seeds, play
from boardgen.rules.sliding import SlidingGame, SlidingRules


def games_per_second(
    game: SlidingRules[object], players: int, seeds: Sequence[int], repeat: int
) -> tuple[float, float]:
    """(games/s of CPU time, mean turns per game), best of `repeat` runs over `seeds`."""
    team = [GreedyPlayer()] * players
    best, turns = float("inf"), 0.0
    for _ in range(repeat):
        started = time.process_time()
        records: list[GameRecord] = [play(game, team, seed, turn_cap=400) for seed in seeds]
        best = min(best, time.process_time() - started)
        turns = sum(r.turns for r in records) / len(records)
    return len(seeds) / best, turns


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--profile", action="store_true", help="profile classic, 4 players")
    parser.add_argument("--check", action="store_true", help="time the playability checks too")
    args = parser.parse_args()
    if args.check:  # first, while nothing is warm: what a fresh `boardgen validate` pays
        for name in ("classic", "master"):
            check_seconds(name, args.repeat)
    seeds = game_seeds(1, args.games)
    classic = SlidingGame(build(load("game", "classic")))
    master = MasterGame(build_master(load("game", "master")))
    print(
        f"sliding self-play, one process, {args.games} games, best of {args.repeat}, Python {platform.python_version()}"
    )
    runs: list[tuple[str, SlidingRules[object], int]] = [
        ("classic", classic, 2),
        ("classic", classic, 3),
        ("classic", classic, 4),
        ("master", master, 2),
        ("master", master, 4),
    ]
    for name, game, players in runs:
        rate, turns = games_per_second(game, players, seeds, args.repeat)
        print(
            f"{name:8} {players} greedy players: {rate:7.0f} games/s  ({turns:.1f} turns a game, "
            f"{rate * turns:.0f} turns/s)"
        )
    if args.profile:

        def run() -> object:
            return [play(classic, [GreedyPlayer()] * 4, s, turn_cap=400) for s in seeds]

        profiler = cProfile.Profile(time.process_time)
        profiler.runcall(run)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(14)


def check_seconds(name: str, repeat: int) -> None:
    """Print the CPU seconds of a game's extra checks (the solver) and of its whole check
    in one process: the first run, then the best of `repeat`."""
    engine, layout = load_game(name)
    seed = layout.default_seed
    runs: dict[str, list[float]] = {"solver": [], "check": []}
    for _ in range(repeat):
        started = time.process_time()
        engine.extra_checks(layout, engine.setup(layout, seed), engine.thresholds(layout))
        runs["solver"].append(time.process_time() - started)
        started = time.process_time()
        check(engine, layout, seed, workers=1)
        runs["check"].append(time.process_time() - started)
    print(
        f"{name:8} check, one process: "
        + ", ".join(f"{part} {times[0]:.3f} s first, {min(times):.3f} s best" for part, times in runs.items())
    )


if __name__ == "__main__":
    main()
