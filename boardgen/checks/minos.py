"""How a King Minos layout is judged: the board's geometry, self-play figures and the
special fields.

The check harness (`boardgen.checks.harness.check`, through `boardgen.engines.minos`)
re-checks the board's geometry, then plays ``games_per_player_count`` games for every
player count with greedy players (dice drawn from seeds derived from the check's seed) and
compares completion, length, seat balance and how often each special field is reached
(`visits_check`) with the layout's ``[playability]`` thresholds (defaults in `DEFAULTS`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from boardgen.checks import race
from boardgen.checks.verdict import Check
from boardgen.model.minos import PLAYABILITY_DEFAULTS, MinosLayout, geometry_problems
from boardgen.rules.simulate import SimulationStats

DEFAULTS: dict[str, Any] = PLAYABILITY_DEFAULTS


def geometry_check(layout: MinosLayout) -> Check:
    """The board as drawn: every problem `geometry_problems` finds."""
    summary = f"{layout.goal} fields on a {layout.size}x{layout.size} grid, {len(layout.links)} links"
    return Check.of("geometry", geometry_problems(layout), summary)


def special_fields(layout: MinosLayout) -> list[int]:
    """Fields that do something, whose visits self-play counts (plain sanctuaries 1-5 and
    the entrance are left out: every piece passes there)."""
    return [f.number for f in layout.fields if set(f.kinds) - {"entrance", "sanctuary"} or f.number in layout.exact]


def figures(layout: MinosLayout, stats: SimulationStats) -> dict[str, float]:
    """One player count's ``extra`` figures: rides, crossings, swaps and lost-turn traps per
    game."""
    totals = stats.extra_totals
    extra = {key: totals.get(key, 0.0) / stats.games for key in ("rides", "crossings", "swaps")}
    extra["traps"] = sum(totals.get(f"landed:{field}", 0.0) for field in layout.lose_turns) / stats.games
    return extra


def visits_check(
    layout: MinosLayout, sims: list[SimulationStats], limits: Mapping[str, Any]
) -> tuple[dict[str, Any], Check]:
    """Special fields that self-play never (or too rarely) reaches are suspect."""
    totals, games = race.summed(sims)
    landed = race.landed(totals, special_fields(layout))
    least = limits["min_visits"]
    counted = [
        (f"special field {field} ({_describe(layout, field)})", "reached", count) for field, count in landed.items()
    ]
    for key, what in (("rides", "the Orbit ride"), ("crossings", "the Millstone crossing")):
        if layout.orbit if key == "rides" else layout.millstone:
            counted.append((what, "taken", int(totals.get(key, 0))))
    rides, crossings, swaps = (int(totals.get(key, 0)) for key in ("rides", "crossings", "swaps"))
    visits: dict[str, Any] = {
        "games": games,
        "landed": {str(field): count for field, count in landed.items()},
        "per_game": {str(field): round(count / games, 3) for field, count in landed.items()},
        "rides": rides,
        "crossings": crossings,
        "swaps": swaps,
    }
    rarest = min(landed, key=landed.__getitem__) if landed else None
    summary = (
        f"{len(landed)} special fields, rarest {rarest} "
        f"({landed[rarest] / games:.2f} per game); {rides / games:.2f} rides, "
        f"{crossings / games:.2f} crossings, {swaps / games:.1f} "
        f"swaps per game"
        if rarest is not None
        else "no special fields"
    )
    return visits, race.visits_check("special fields", counted, games, least, summary)


def _describe(layout: MinosLayout, field: int) -> str:
    name = layout.names.get(field)
    kinds = ", ".join(layout.kinds(field))
    return f"{name['en']}: {kinds}" if name else kinds
