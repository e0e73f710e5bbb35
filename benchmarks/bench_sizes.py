"""Generated boards by size: the solver's instances per second and the time of a whole validate.

Run from the repository root:

    .venv/bin/python benchmarks/bench_sizes.py [--sizes 7,9,11,13] [--game classic] [--validate]

For each size, `boardgen generate GAME --size N --seed 1` is written to a temporary folder;
the solver then answers every start/target pair of the check (the pairs `validate` asks),
best of --repeat, in CPU seconds of one process (instances/s on one core) and by the clock
as `validate` runs it (11 x 11 and up: one process per start, as many as there are CPUs);
with --validate, `boardgen validate FILE` runs in a child process, timed by the clock and in
CPU seconds of it and its workers (the load average is printed: on a shared machine the
clock measures the neighbours too).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from timing import best_of

from boardgen.engines import load_game
from boardgen.generate import master as master_generate
from boardgen.generate import sliding as sliding_generate
from boardgen.processes import available_cpus
from boardgen.rules.sliding import Board
from boardgen.rules.solver import solve_many


def generated(game: str, size: int, folder: Path) -> Path:
    data = master_generate.generate(size, 1) if game == "master" else sliding_generate.generate(game, size, 1)
    data["game"]["id"] = f"{game}{size}"
    path = folder / f"{game}{size}.toml"
    path.write_text(sliding_generate.to_toml(data), encoding="utf-8")
    return path


def solver_rate(path: Path, repeat: int) -> str:
    engine, layout = load_game(str(path))
    if engine.name != "sliding":
        return "(solver rate: classic boards only)"
    board = Board.from_deal(engine.setup(layout, layout.default_seed))
    pairs = [(s.at, t.id) for s in layout.starts for t in layout.treasures]
    limits = engine.thresholds(layout)
    results: list = []

    def run(workers: int = 1) -> None:
        results[:] = solve_many(
            board, pairs, max_turns=limits["max_turns_to_target"], budget=limits["solver_budget"], workers=workers
        )

    took = best_of(repeat, run)
    wall = best_of(repeat, lambda: run(available_cpus()), time.perf_counter)
    turns = Counter("unreached" if r.solution.turns is None else r.solution.turns for r in results)
    shown = ", ".join(f"{turns[k]} in {k}" for k in sorted(turns, key=str))
    return (
        f"solver: {len(pairs)} pairs in {took:.2f} s CPU = {len(pairs) / took:.0f} instances/s "
        f"on one core, {wall:.2f} s wall as validate runs it "
        f"(budget {limits['solver_budget']}; {shown})"
    )


def validate_time(path: Path) -> str:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "boardgen", "validate", str(path)], cwd=path.parent, capture_output=True, text=True
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    verdict = done.stdout.splitlines()[0] if done.stdout else done.stderr.strip()
    return f"validate: {wall:.1f} s wall, {cpu:.1f} s CPU with its workers: {verdict}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=["classic", "master"], default="classic")
    parser.add_argument("--sizes", default="7,9,11,13")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--validate", action="store_true", help="also time a whole validate per size")
    args = parser.parse_args()
    print(f"{args.game}, seed 1; {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as folder:
        os.environ["BOARDGEN_CACHE_DIR"] = str(Path(folder) / "cache")  # never the user's
        for size in (int(s) for s in args.sizes.split(",")):
            path = generated(args.game, size, Path(folder))
            print(f"{size}x{size}: {solver_rate(path, args.repeat)}")
            if args.validate:
                print(f"{size}x{size}: {validate_time(path)}")


if __name__ == "__main__":
    main()
