"""What each cache store saves: `render classic` with every store warm, then with one store
emptied at a time, and from an empty cache (whole processes, wall and CPU seconds including
the check's children, median of N).

Usage: python benchmarks/bench_cache.py [--runs 5] [--game classic]

A store's saving is "without it" minus "warm". Figures go in the README, never in timed tests.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

STORES = ("verdicts", "schema-passes", "kit-svgs", "drawings")  # boardgen.cache.STORES, by name


def render(game: str, cache: Path) -> tuple[float, float]:
    """Wall and CPU seconds (the process and its children) of one render into a fresh folder."""
    env = dict(os.environ, BOARDGEN_CACHE_DIR=str(cache / "cache"), XDG_STATE_HOME=str(cache / "state"))
    with tempfile.TemporaryDirectory() as out:
        before = os.times()
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "boardgen", "render", game, "-o", out],
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wall = time.perf_counter() - started
        after = os.times()
    return wall, (after.children_user - before.children_user) + (after.children_system - before.children_system)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--game", default="classic")
    args = parser.parse_args()
    cases = ["empty cache", "warm", *(f"without {store}" for store in STORES)]
    for name in cases:
        walls, cpus = [], []
        for _ in range(args.runs):
            root = Path(tempfile.mkdtemp(prefix="bench-cache-"))
            try:
                if name != "empty cache":
                    render(args.game, root)
                    if name.startswith("without "):
                        shutil.rmtree(root / "cache" / name.removeprefix("without "), ignore_errors=True)
                wall, cpu = render(args.game, root)
            finally:
                shutil.rmtree(root, ignore_errors=True)
            walls.append(wall)
            cpus.append(cpu)
        print(f"{name:<24} wall {statistics.median(walls):5.2f} s  cpu {statistics.median(cpus):5.2f} s", flush=True)


if __name__ == "__main__":
    main()
