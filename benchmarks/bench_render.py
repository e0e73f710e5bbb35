"""Time and peak memory of whole `boardgen render` processes, as a user runs them.

Usage: python benchmarks/bench_render.py [--runs 3] [GAME ...]
Prints one line per game: best and median wall time, peak RSS of the process, PDF size, pages.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def run_once(game: str, out: Path, extra: list[str]) -> tuple[float, int]:
    """Wall seconds and peak resident memory (KiB) of one render in a fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    started = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "boardgen", "render", game, "-o", str(out), *extra], capture_output=True, text=True
    )
    took = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(f"render {game} failed:\n{proc.stderr}")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return took, max(peak, before)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="*", default=["classic"])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    from pypdf import PdfReader

    for game in args.games:
        times, peaks = [], []
        with tempfile.TemporaryDirectory() as tmp:
            for _ in range(args.runs):
                took, peak = run_once(game, Path(tmp), [])
                times.append(took)
                peaks.append(peak)
            pdf = next(Path(tmp, game).glob("*.pdf"))
            pages = len(PdfReader(str(pdf)).pages)
            size = pdf.stat().st_size
        print(
            f"render {game}: best {min(times):.2f} s, median {statistics.median(times):.2f} s, "
            f"peak RSS {max(peaks) / 1024:.0f} MiB, PDF {size / 1024:.0f} KiB, {pages} pages "
            f"({args.runs} runs)"
        )


if __name__ == "__main__":
    main()
