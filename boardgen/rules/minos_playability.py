"""King Minos's part of the playability check: self-play figures and the special fields.

The check harness (`boardgen.rules.report.check`, through `boardgen.engines.minos`)
re-checks the board's geometry, then plays ``games_per_player_count`` games for every
player count with greedy players (dice drawn from seeds derived from the check's seed) and
compares completion, length, seat balance and how often each special field is reached
(`visits_check`) with the layout's ``[playability]`` thresholds (defaults in `DEFAULTS`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from boardgen.model.minos import PLAYABILITY_DEFAULTS, MinosLayout
from boardgen.rules.report import Check
from boardgen.rules.simulate import SimulationStats

DEFAULTS: dict[str, Any] = PLAYABILITY_DEFAULTS



def special_fields(layout: MinosLayout) -> list[int]:
    """Fields that do something, whose visits self-play counts (plain sanctuaries 1-5 and
    the entrance are left out: every piece passes there)."""
    return [f.number for f in layout.fields
            if set(f.kinds) - {"entrance", "sanctuary"} or f.number in layout.exact]


def figures(layout: MinosLayout, stats: SimulationStats) -> dict[str, float]:
    """One player count's ``extra`` figures: rides, crossings, swaps and lost-turn traps per
    game."""
    totals = stats.extra_totals
    extra = {key: totals.get(key, 0.0) / stats.games for key in ("rides", "crossings", "swaps")}
    extra["traps"] = sum(totals.get(f"landed:{field}", 0.0) for field in layout.lose_turns) / stats.games
    return extra


def visits_check(layout: MinosLayout, sims: list[SimulationStats],
                  limits: Mapping[str, Any]) -> tuple[dict[str, Any], Check]:
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
