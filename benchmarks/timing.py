"""What the self-play benchmarks share: the best of several timed runs."""

from __future__ import annotations

import time
from collections.abc import Callable


def best_of(repeat: int, run: Callable[[], object], clock: Callable[[], float] = time.process_time) -> float:
    """The fastest of `repeat` runs, in seconds of `clock`."""
    best = float("inf")
    for _ in range(repeat):
        started = clock()
        run()
        best = min(best, clock() - started)
    return best
