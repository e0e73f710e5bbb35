"""The check the dice races share: every special field (and every card, ride...) is reached
often enough in self-play, counted from the games' events."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from boardgen.checks.verdict import Check
from boardgen.rules.simulate import SimulationStats


def summed(sims: Iterable[SimulationStats]) -> tuple[dict[str, float], int]:
    """Every counter summed over all the runs, and the number of games."""
    totals: dict[str, float] = {}
    games = 0
    for sim in sims:
        games += sim.games
        for key, value in sim.extra_totals.items():
            totals[key] = totals.get(key, 0.0) + value
    return totals, games


def visits_check(name: str, counted: Sequence[tuple[str, str, int]], games: int, least: int, summary: str) -> Check:
    """`counted` lists what must happen at least `least` times over `games` games: (what,
    how it happens, how often it did), say ("special field 54", "reached", 12)."""
    problems = [
        f"{what} was {how} {count} times in {games} games (minimum {least})"
        for what, how, count in counted
        if count < least
    ]
    return Check(name, not problems, summary, problems)


def landed(totals: Mapping[str, float], fields: Iterable[int]) -> dict[int, int]:
    """How often a count ended on each field (its ``landed:<index>`` events)."""
    return {field: int(totals.get(f"landed:{field}", 0)) for field in fields}
