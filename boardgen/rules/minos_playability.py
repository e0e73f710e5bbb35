"""Playability report for a King Minos layout: geometry checks, then self-play statistics.

`check_minos(layout, seed)` re-checks the board's geometry, then plays
``games_per_player_count`` games for every player count with greedy players (dice drawn
from seeds derived from `seed`) and compares completion, length, seat balance and how often
each special field is reached with the layout's ``[playability]`` thresholds (defaults in
`DEFAULTS`). Games are shared out over worker processes; the figures do not depend on how
many, since every game has its own seed and the records are aggregated in seed order.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from typing import Any

from boardgen.model.minos import PLAYABILITY_DEFAULTS, MinosLayout, geometry_problems
from boardgen.rules.minos import MinosGame, count_events
from boardgen.rules.playability import Check, Report, self_play_check, thresholds
from boardgen.rules.players import find_player
from boardgen.rules.simulate import GameRecord, SimulationStats, aggregate, game_seeds, play

Progress = Callable[[int, int, str], None]

DEFAULTS: dict[str, Any] = PLAYABILITY_DEFAULTS

CHUNK = 50  # games per task handed to a worker: small enough for smooth progress


def special_fields(layout: MinosLayout) -> list[int]:
    """Fields that do something, whose visits self-play counts (plain sanctuaries 1-5 and
    the entrance are left out: every piece passes there)."""
    return [f.number for f in layout.fields
            if set(f.kinds) - {"entrance", "sanctuary"} or f.number in layout.exact]


def _play_chunk(layout: MinosLayout, seats: int, seeds: list[int], turn_cap: int,
                player: str) -> list[GameRecord]:
    game = MinosGame(layout)
    players = [find_player(player) for _ in range(seats)]
    return [play(game, players, s, turn_cap=turn_cap, hook=count_events) for s in seeds]


def self_play(layout: MinosLayout, *, games: int, seed: int, turn_cap: int,
              counts: list[int] | None = None, progress: Progress | None = None,
              workers: int | None = None, player: str = "greedy") -> dict[int, SimulationStats]:
    """Self-play for each player count, every seat with the same kind of player; the same
    figures for any number of workers. ``extra`` has rides, crossings, swaps and traps per
    game; ``extra_totals`` also counts landings on every field (``landed:N``)."""
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games!r}")
    find_player(player)
    counts = counts or list(range(layout.players[0], layout.players[1] + 1))
    tasks = []
    for seats in counts:
        seeds = game_seeds(seed + seats, games)
        tasks += [(seats, seeds[i:i + CHUNK]) for i in range(0, games, CHUNK)]
    total = games * len(counts)
    workers = workers or min(4, os.cpu_count() or 1)
    started = time.perf_counter()
    chunks = None
    if workers > 1 and len(tasks) > 1:
        chunks = _run_in_processes(layout, tasks, turn_cap, player, workers, total, progress)
    if chunks is None:
        chunks = []
        for seats, seeds in tasks:
            chunks.append(_play_chunk(layout, seats, seeds, turn_cap, player))
            if progress is not None:
                progress(sum(map(len, chunks)), total, f"self-play, {seats} players")
    records: dict[int, list[GameRecord]] = {s: [] for s in counts}
    for (seats, _), chunk in zip(tasks, chunks, strict=True):
        records[seats].extend(chunk)
    elapsed = time.perf_counter() - started
    out = {}
    traps = [f"landed:{field}" for field in layout.lose_turns]
    for seats in counts:
        flat = records[seats]
        stats = aggregate(MinosGame.id, tuple(player for _ in range(seats)), flat, turn_cap)
        totals = stats.extra_totals
        extra = {key: totals.get(key, 0.0) / len(flat) for key in ("rides", "crossings", "swaps")}
        extra["traps"] = sum(totals.get(key, 0.0) for key in traps) / len(flat)
        out[seats] = replace(stats, extra=extra, elapsed_s=elapsed)
    return out


def _run_in_processes(layout: MinosLayout, tasks: list[tuple[int, list[int]]], turn_cap: int,
                      player: str, workers: int, total: int,
                      progress: Progress | None) -> list[list[GameRecord]] | None:
    """Play the tasks in worker processes, in task order; None where processes cannot be
    had (some sandboxes forbid them), so the caller plays them itself."""
    context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    try:
        pool = ProcessPoolExecutor(workers, mp_context=context)
    except (OSError, NotImplementedError):
        return None
    chunks = []
    try:
        with pool:
            futures = [pool.submit(_play_chunk, layout, seats, seeds, turn_cap, player)
                       for seats, seeds in tasks]
            for (seats, _), future in zip(tasks, futures, strict=True):
                chunks.append(future.result())
                if progress is not None:
                    progress(sum(map(len, chunks)), total, f"self-play, {seats} players")
    except BrokenProcessPool:
        return None
    return chunks


def simulate_minos(layout: MinosLayout, *, games: int, players: int, seed: int,
                   progress: Progress | None = None, turn_cap: int | None = None,
                   player: str = "greedy", workers: int | None = None) -> SimulationStats:
    """Self-play `games` games with `players` seats of one kind of player."""
    if not layout.players[0] <= players <= layout.players[1]:
        raise ValueError(f"{layout.id!r} is for {layout.players[0]} to {layout.players[1]} "
                         f"players, not {players!r}")
    cap = thresholds(layout, defaults=DEFAULTS, turn_cap=turn_cap)["turn_cap"]
    return self_play(layout, games=games, seed=seed, turn_cap=cap, counts=[players],
                     progress=progress, workers=workers, player=player)[players]


def check_minos(layout: MinosLayout, seed: int, *, games: int | None = None,
                progress: Progress | None = None, workers: int | None = None) -> Report:
    """Decide whether the layout plays well with dice from `seed`, and say why."""
    started = time.perf_counter()
    limits = thresholds(layout, defaults=DEFAULTS, games_per_player_count=games)
    problems = geometry_problems(layout)
    links = len(layout.links)
    checks = [Check("geometry", not problems,
                    f"{layout.goal} fields on a {layout.size}x{layout.size} grid, {links} links"
                    if not problems else f"{len(problems)} problem(s)", problems)]
    stats: dict[str, Any] = {"thresholds": dict(limits)}
    if not problems:
        sims = self_play(layout, games=limits["games_per_player_count"], seed=seed,
                         turn_cap=limits["turn_cap"], progress=progress, workers=workers)
        stats["self_play"] = {str(seats): sim.to_dict() for seats, sim in sims.items()}
        checks += [self_play_check(sim, limits, unit="rounds") for sim in sims.values()]
        visits, check = _visits_check(layout, list(sims.values()), limits)
        stats["visits"] = visits
        checks.append(check)
    reasons = [problem for check in checks for problem in check.problems]
    return Report(layout.id, seed, not reasons, reasons, checks, stats,
                  time.perf_counter() - started)


def _visits_check(layout: MinosLayout, sims: list[SimulationStats],
                  limits: dict[str, Any]) -> tuple[dict[str, Any], Check]:
    """Special fields that self-play never (or too rarely) reaches are suspect."""
    games = sum(sim.games for sim in sims)
    totals: dict[str, float] = {}
    for sim in sims:
        for key, value in sim.extra_totals.items():
            totals[key] = totals.get(key, 0.0) + value
    landed = {field: int(totals.get(f"landed:{field}", 0)) for field in special_fields(layout)}
    least = limits["min_visits"]
    problems = [f"special field {field} ({_describe(layout, field)}) was reached {count} times "
                f"in {games} games (minimum {least})"
                for field, count in landed.items() if count < least]
    for key, what in (("rides", "the Orbit ride"), ("crossings", "the Millstone crossing")):
        present = layout.orbit if key == "rides" else layout.millstone
        if present and totals.get(key, 0) < least:
            problems.append(f"{what} was taken {int(totals.get(key, 0))} times in {games} "
                            f"games (minimum {least})")
    rides, crossings, swaps = (int(totals.get(key, 0)) for key in ("rides", "crossings", "swaps"))
    visits: dict[str, Any] = {
        "games": games,
        "landed": {str(field): count for field, count in landed.items()},
        "per_game": {str(field): round(count / games, 3) for field, count in landed.items()},
        "rides": rides, "crossings": crossings, "swaps": swaps,
    }
    rarest = min(landed, key=landed.__getitem__) if landed else None
    summary = (f"{len(landed)} special fields, rarest {rarest} "
               f"({landed[rarest] / games:.2f} per game); {rides / games:.2f} rides, "
               f"{crossings / games:.2f} crossings, {swaps / games:.1f} "
               f"swaps per game" if rarest is not None else "no special fields")
    return visits, Check("special fields", not problems, summary, problems)


def _describe(layout: MinosLayout, field: int) -> str:
    name = layout.names.get(field)
    kinds = ", ".join(layout.kinds(field))
    return f"{name['en']}: {kinds}" if name else kinds
