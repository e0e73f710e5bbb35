"""Playability checks run before printing: one per engine, refusing an unplayable layout."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from boardgen.errors import UnplayableError

Progress = Callable[[int, int, str], None]


def _function(path: str) -> Callable:
    module, name = path.split(":")
    return getattr(importlib.import_module(module), name)


def check_layout(engine, layout, seed: int, *, games: int | None = None,
                 progress: Progress | None = None) -> Any:
    """The engine's playability report for the layout dealt or played with `seed`."""
    return _function(engine.check)(layout, seed, games=games, progress=progress)


def require_playable(engine, layout, seed: int, *, force: bool,
                     progress: Progress | None = None) -> Any:
    """Run the check; refuse an unplayable layout unless forced (the report still says why)."""
    report = check_layout(engine, layout, seed, progress=progress)
    if not report.playable and not force:
        reasons = "\n".join(f"  - {reason}" for reason in report.reasons)
        raise UnplayableError(f"{layout.id} with seed {seed} is not playable:\n{reasons}\n"
                              "(use --force to print it anyway)")
    return report


def simulate(engine, layout, *, games: int, players: int, seed: int,
             progress: Progress | None = None) -> Any:
    return _function(engine.simulate)(layout, games=games, players=players, seed=seed,
                                      progress=progress)
