"""How a Grand Labyrinthe layout is judged: the track's static problems, then, over the
self-play of every lineup (greedy, each route, mixed seatings: `boardgen.engines.grand`), the
route policies' completion, the route balance of the mixed games, and every special field and
card reached (`boardgen.checks.race`)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from boardgen.checks import race
from boardgen.checks.race import summed
from boardgen.checks.verdict import Check
from boardgen.model.grand import GrandLayout, static_problems
from boardgen.rules.grand import ROUTES
from boardgen.rules.simulate import SimulationStats

MIXED = ("mixed", "mixed-swapped")


def track_check(layout: GrandLayout) -> Check:
    """The track and deck as data: every problem `static_problems` finds."""
    summary = f"{len(layout.central)} central and {len(layout.peripheral)} peripheral fields, {len(layout.cards)} cards"
    return Check.of("track", static_problems(layout), summary)


def policy(sim: SimulationStats) -> str:
    """The lineup a run's seats make: greedy, central, peripheral, mixed or mixed-swapped."""
    names = set(sim.player_names)
    if len(names) == 1:
        return sim.player_names[0]
    return MIXED[0] if sim.player_names[0] == ROUTES[0] else MIXED[1]


def figures(stats: SimulationStats) -> dict[str, float]:
    """Per game: cards drawn, puns made, deadlocks resolved; per route: the share of pawns
    that took it first and how often one of them won."""
    totals, games = stats.extra_totals, stats.games
    cards = sum(v for k, v in totals.items() if k.startswith("card:"))
    out = {
        "cards": cards / games,
        "puns": totals.get("again", 0.0) / games,
        "deadlocks": totals.get("deadlock", 0.0) / games,
    }
    for route, shares in route_figures(totals, games * stats.seats).items():
        out[f"{route}_taken"] = shares["share"]
        out[f"{route}_win_rate"] = shares["win_rate"]
    return out


def self_play_checks(
    layout: GrandLayout, sims: Sequence[SimulationStats], limits: Mapping[str, Any]
) -> tuple[list[Check], dict[str, Any]]:
    """The route policies' table and completion, the route balance of the mixed games,
    and every special field and card reached."""
    rows = [policy_row(sim) for sim in sims]
    rows.sort(key=lambda r: (r["players"], ("greedy", *ROUTES, *MIXED).index(r["policy"])))
    checks = [policies_check(rows, limits), routes_check(sims, limits)]
    visits, check = visits_check(layout, layout.card_ids, sims, limits)
    return checks + [check], {"policies": rows, "visits": visits}


def route_figures(totals: Mapping[str, Any], pawns: int) -> dict[str, dict[str, float]]:
    """Per route, from summed counters: pawns that took it first (count and share of all
    `pawns`) and how often such a pawn won."""
    out = {}
    for route in ROUTES:
        taken = int(totals.get(f"route:{route}", 0))
        won = int(totals.get(f"won:{route}", 0))
        out[route] = {
            "taken": taken,
            "share": round(taken / pawns, 4) if pawns else 0.0,
            "win_rate": round(won / taken, 4) if taken else 0.0,
        }
    return out


def policy_row(sim: SimulationStats) -> dict[str, Any]:
    """One row of the closing table: completion, mean/p95 rounds, seat and route win rates."""
    seats = sim.seats
    routes = route_figures(sim.extra_totals, sim.games * seats)
    return {
        "players": seats,
        "policy": policy(sim),
        "games": sim.games,
        "completion": round(sim.completion_rate, 4),
        "mean_rounds": None if sim.mean_length is None else round(sim.mean_length / seats, 2),
        "p95_rounds": None if sim.p95_length is None else round(sim.p95_length / seats, 2),
        "seat_win_rates": [round(r, 3) for r in sim.seat_win_rates],
        "route_taken": {r: routes[r]["share"] for r in ROUTES},
        "route_win_rate": {r: routes[r]["win_rate"] for r in ROUTES},
        "deadlocks_resolved": int(sim.extra_totals.get("deadlock", 0)),
    }


def policies_check(rows: Sequence[Mapping[str, Any]], limits: Mapping[str, Any]) -> Check:
    """Every lineup's games end: no deadlock is left unresolved, no route traps pawns."""
    least = limits["min_completion_rate"]
    problems = [
        f"{row['players']} players, {row['policy']}: {row['completion']:.1%} of games finished "
        f"within {limits['turn_cap']} turns (minimum {least:.0%})"
        for row in rows
        if row["completion"] < least
    ]
    slowest = max(rows, key=lambda row: row["mean_rounds"] or 0)
    deadlocks = sum(row["deadlocks_resolved"] for row in rows)
    summary = (
        f"{len(rows)} player count x policy runs all finish; slowest {slowest['players']} players "
        f"{slowest['policy']}, mean {slowest['mean_rounds']} rounds; {deadlocks} deadlocks resolved"
    )
    return Check("route policies", not problems, summary, problems)


def gap_p(wins_a: int, n_a: int, wins_b: int, n_b: int) -> float:
    """Chance that pawns winning equally often on either route would split the wins at least
    this unevenly: each game has one winner, a pawn of route a with chance ``n_a / (n_a +
    n_b)`` if the routes are equal (two-sided binomial test, normal approximation; unlike two
    independent proportions, it knows that one route's win is the other's loss)."""
    wins, share = wins_a + wins_b, n_a / (n_a + n_b) if n_a + n_b else 0.0
    spread = math.sqrt(wins * share * (1 - share))
    if spread == 0:
        return 1.0
    return math.erfc(abs(wins_a - wins * share) / spread / math.sqrt(2))


def routes_check(sims: Sequence[SimulationStats], limits: Mapping[str, Any]) -> Check:
    """In the mixed games (both seatings together), a pawn on either route wins about as
    often as one on the other: a gap over ``max_route_gap`` fails when it is also
    significant at ``route_gap_significance``."""
    most, level = limits["max_route_gap"], limits["route_gap_significance"]
    problems, parts = [], []
    for seats in sorted({sim.seats for sim in sims}):
        totals: dict[str, float] = {}
        for sim in sims:
            if sim.seats == seats and policy(sim) in MIXED:
                for key in (f"{what}:{r}" for what in ("route", "won") for r in ROUTES):
                    totals[key] = totals.get(key, 0.0) + sim.extra_totals.get(key, 0.0)
        (c_taken, c_won), (p_taken, p_won) = (
            (int(totals.get(f"route:{r}", 0)), int(totals.get(f"won:{r}", 0))) for r in ROUTES
        )
        central, peripheral = c_won / c_taken if c_taken else 0.0, p_won / p_taken if p_taken else 0.0
        chance = gap_p(c_won, c_taken, p_won, p_taken)
        parts.append(f"{seats}p {central:.2f}/{peripheral:.2f}")
        if abs(central - peripheral) > most and chance < level:
            problems.append(
                f"{seats} players: a pawn on the central route wins {central:.0%} of mixed games, "
                f"one on the peripheral route {peripheral:.0%} (gap at most {most:.0%}; p = "
                f"{chance:.4f} that equal routes would differ this much)"
            )
    return Check("route balance", not problems, "win rate central/peripheral " + ", ".join(parts), problems)


def visits_check(
    layout: GrandLayout, card_ids: Sequence[str], sims: Sequence[SimulationStats], limits: Mapping[str, Any]
) -> tuple[dict[str, Any], Check]:
    """Every special field is reached and every card drawn in self-play."""
    totals, games = summed(sims)
    least = limits["min_visits"]
    landed = {layout.label(f): int(totals.get(f"landed:{layout.index(f)}", 0)) for f in layout.specials}
    drawn = {card.id: 0 for card in layout.deck}
    for index, card_id in enumerate(card_ids):
        drawn[card_id] += int(totals.get(f"card:{index}", 0))
    rarest = min(landed, key=lambda k: landed[k])
    events = {
        k: int(totals.get(k, 0)) for k in ("again", "reshuffle", "replaced", "rescued", "deadlock", "swap", "freed")
    }
    summary = (
        f"{len(landed)} special fields, rarest {rarest} ({landed[rarest] / games:.2f} per game); "
        f"{len(drawn)} cards, {sum(drawn.values()) / games:.1f} drawn per game; "
        f"{events['reshuffle']} reshuffles, {events['replaced']} replacements, {events['rescued']} rescues"
    )
    visits = {"games": games, "landed": landed, "cards": drawn, "events": events}
    counted = [(f"special field {name}", "reached", count) for name, count in landed.items()]
    counted += [(f"card {name!r}", "drawn", count) for name, count in drawn.items()]
    return visits, race.visits_check("special fields and cards", counted, games, least, summary)
