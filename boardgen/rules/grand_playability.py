"""Playability of a Grand Labyrinthe layout: the route graph, then self-play with four policies.

The Grand engine (`boardgen.engines.grand`) checks the track (`model.grand.static_problems`), then plays,
for every player count, games with every seat choosing routes the same way ("greedy":
the way with the fewest expected turns left; "central"; "peripheral") and "mixed" games
where seats alternate central and peripheral (the seat order turning from game to game).
It judges: completion within the cap, mean and p95 length in rounds and seat balance (the
greedy games), how often each route is taken and how often a pawn that took it wins (the
mixed games: the two win rates may differ by at most ``max_route_gap``), every special field
reached, every card drawn, and every policy's games finishing (no deadlock left unresolved).
Every game has its own seed derived from `seed`, so the figures are reproducible.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from boardgen.model.grand import GrandLayout, label
from boardgen.rules.grand import CHOOSERS, ROUTES, GameResult, play_game, rules_for
from boardgen.rules.report import Check, Extra, self_play_check, thresholds
from boardgen.rules.simulate import GameRecord, SimulationStats, aggregate, game_seeds

Progress = Callable[[int, int, str], None]

DEFAULTS: dict[str, Any] = {
    "games_per_player_count": 150,
    "turn_cap": 400,  # rounds
    "min_completion_rate": 0.99,
    "max_mean_rounds": 40,
    "max_p95_rounds": 80,
    "max_seat_gap": 0.15,
    "seat_gap_significance": 0.01,
    "max_route_gap": 0.2,
    "route_gap_significance": 0.01,
    "min_visits": 1,
}
POLICIES = ("greedy", "central", "peripheral", "mixed")
# Games of the single-route policies, as a share of games_per_player_count: they only
# need to show that the route finishes and how long it takes.
SHARE = {"greedy": 1.0, "central": 0.4, "peripheral": 0.4, "mixed": 1.0}


def choosers(policy: str, seats: int, game: int) -> list[Any]:
    """The route choosers of one game's seats; mixed games alternate and turn the order."""
    if policy == "mixed":
        return [CHOOSERS[ROUTES[(seat + game) % 2]]() for seat in range(seats)]
    return [CHOOSERS[policy]() for _ in range(seats)]


def play_policy(layout: GrandLayout, seats: int, policy: str, seeds: Sequence[int],
                round_cap: int) -> list[GameResult]:
    rules = rules_for(layout)
    return [play_game(rules, choosers(policy, seats, i), s, round_cap=round_cap) for i, s in enumerate(seeds)]


def to_record(result: GameResult, seed: int, seats: int) -> GameRecord:
    """A result in the shared simulation format; lengths in turns (rounds x seats)."""
    finished = result.winner >= 0
    return GameRecord(seed, seats, result.winner if finished else None, result.rounds * seats, finished,
                      result.rounds * seats, result.rounds * seats, 3,
                      {k: float(v) for k, v in result.counters.items()})


def run(layout: GrandLayout, seed: int, games: int, round_cap: int, counts: Sequence[int],
        policies: Sequence[str] = POLICIES, progress: Progress | None = None
        ) -> dict[tuple[int, str], list[GameResult]]:
    """Self-play of every (player count, policy)."""
    out: dict[tuple[int, str], list[GameResult]] = {}
    total = sum(max(1, round(games * SHARE[p])) for p in policies) * len(counts)
    done = 0
    for seats in counts:
        for k, policy in enumerate(policies):
            n = max(1, round(games * SHARE[policy]))
            seeds = game_seeds(seed * 101 + seats * 7 + k, n)
            out[(seats, policy)] = play_policy(layout, seats, policy, seeds, round_cap)
            done += n
            if progress is not None:
                progress(done, total, f"self-play, {seats} players, {policy}")
    return out


def stats_of(results: Sequence[GameResult], seats: int, policy: str, round_cap: int,
             seed: int = 0) -> SimulationStats:
    records = [to_record(r, seed + i, seats) for i, r in enumerate(results)]
    return aggregate("grand", tuple(policy for _ in range(seats)), records, round_cap * seats)


def route_figures(results: Sequence[GameResult]) -> dict[str, dict[str, float]]:
    """Per route: pawns that took it (at field 3), share of pawns, and their win rate."""
    taken = {r: 0 for r in ROUTES}
    won = {r: 0 for r in ROUTES}
    pawns = 0
    for result in results:
        for seat, route in enumerate(result.first_route):
            pawns += 1
            if route >= 0:
                taken[ROUTES[route]] += 1
                won[ROUTES[route]] += result.winner == seat
    return {r: {"taken": taken[r], "share": round(taken[r] / pawns, 4) if pawns else 0.0,
                "win_rate": round(won[r] / taken[r], 4) if taken[r] else 0.0} for r in ROUTES}


def policy_table(layout: GrandLayout, runs: Mapping[tuple[int, str], list[GameResult]],
                 round_cap: int) -> list[dict[str, Any]]:
    """One row per (player count, policy): completion, mean/p95 rounds, seat and route win
    rates; the figures the closing table and the JSON report show."""
    rows = []
    for (seats, policy), results in sorted(runs.items(), key=lambda kv: (kv[0][0], POLICIES.index(kv[0][1]))):
        sim = stats_of(results, seats, policy, round_cap)
        routes = route_figures(results)
        rows.append({
            "players": seats, "policy": policy, "games": sim.games,
            "completion": round(sim.completion_rate, 4),
            "mean_rounds": None if sim.mean_length is None else round(sim.mean_length / seats, 2),
            "p95_rounds": None if sim.p95_length is None else round(sim.p95_length / seats, 2),
            "seat_win_rates": [round(r, 3) for r in sim.seat_win_rates],
            "route_taken": {r: routes[r]["share"] for r in ROUTES},
            "route_win_rate": {r: routes[r]["win_rate"] for r in ROUTES},
            "deadlocks_resolved": int(sim.extra_totals.get("deadlocks", 0)),
        })
    return rows


def play_checks(layout: GrandLayout, seed: int, limits: Mapping[str, Any], *,
                progress: Progress | None = None) -> Extra:
    """Self-play of every player count and policy, and its checks (after the track's)."""
    cap = limits["turn_cap"]
    counts = list(range(layout.players[0], layout.players[1] + 1))
    runs = run(layout, seed, limits["games_per_player_count"], cap, counts, progress=progress)
    sims = {seats: stats_of(runs[(seats, "greedy")], seats, "greedy", cap, seed) for seats in counts}
    stats: dict[str, Any] = {"self_play": {str(seats): sim.to_dict() for seats, sim in sims.items()}}
    checks = [self_play_check(sim, limits, unit="rounds") for sim in sims.values()]
    stats["policies"] = policy_table(layout, runs, cap)
    checks += [policies_check(stats["policies"], limits), routes_check(runs, counts, limits)]
    visits, visit_check = visits_check(layout, runs, limits)
    stats["visits"] = visits
    checks.append(visit_check)
    return Extra(checks, stats)


def policies_check(rows: Sequence[Mapping[str, Any]], limits: Mapping[str, Any]) -> Check:
    """Every policy's games end: no deadlock is left unresolved, no route traps pawns."""
    least = limits["min_completion_rate"]
    problems = [f"{row['players']} players, {row['policy']}: {row['completion']:.1%} of games finished "
                f"within {limits['turn_cap']} rounds (minimum {least:.0%})"
                for row in rows if row["completion"] < least]
    slowest = max(rows, key=lambda row: row["mean_rounds"] or 0)
    deadlocks = sum(row["deadlocks_resolved"] for row in rows)
    summary = (f"{len(rows)} player count x policy runs all finish; slowest {slowest['players']} players "
               f"{slowest['policy']}, mean {slowest['mean_rounds']} rounds; {deadlocks} deadlocks resolved")
    return Check("route policies", not problems, summary, problems)


def gap_p(wins_a: int, n_a: int, wins_b: int, n_b: int) -> float:
    """Chance that two equal win rates would differ at least this much in samples this size
    (two-proportion z-test, normal approximation)."""
    if not n_a or not n_b:
        return 1.0
    pooled = (wins_a + wins_b) / (n_a + n_b)
    spread = math.sqrt(pooled * (1 - pooled) * (1 / n_a + 1 / n_b))
    if spread == 0:
        return 1.0
    return math.erfc(abs(wins_a / n_a - wins_b / n_b) / spread / math.sqrt(2))


def routes_check(runs: Mapping[tuple[int, str], list[GameResult]], counts: Sequence[int],
                 limits: Mapping[str, Any]) -> Check:
    """In mixed games, a pawn on either route wins about as often as one on the other: a gap
    over ``max_route_gap`` fails when it is also significant at ``route_gap_significance``."""
    most, level = limits["max_route_gap"], limits["route_gap_significance"]
    problems, parts = [], []
    for seats in counts:
        routes = route_figures(runs[(seats, "mixed")])
        c, p = routes["central"], routes["peripheral"]
        central, peripheral = c["win_rate"], p["win_rate"]
        chance = gap_p(round(central * c["taken"]), int(c["taken"]), round(peripheral * p["taken"]), int(p["taken"]))
        parts.append(f"{seats}p {central:.2f}/{peripheral:.2f}")
        if abs(central - peripheral) > most and chance < level:
            problems.append(f"{seats} players: a pawn on the central route wins {central:.0%} of mixed games, "
                            f"one on the peripheral route {peripheral:.0%} (gap at most {most:.0%}; p = "
                            f"{chance:.4f} that equal routes would differ this much)")
    return Check("route balance", not problems, "win rate central/peripheral " + ", ".join(parts), problems)


def visits_check(layout: GrandLayout, runs: Mapping[tuple[int, str], list[GameResult]],
                 limits: Mapping[str, Any]) -> tuple[dict[str, Any], Check]:
    """Every special field is reached and every card drawn in self-play."""
    totals: dict[str, int] = {}
    games = 0
    for results in runs.values():
        for result in results:
            games += 1
            for key, value in result.counters.items():
                totals[key] = totals.get(key, 0) + value
    least = limits["min_visits"]
    landed = {label(f): totals.get(f"landed:{f}", 0) for f in layout.specials}
    drawn = {card.id: totals.get(f"card:{card.id}", 0) for card in layout.deck}
    problems = [f"special field {name} was reached {count} times in {games} games (minimum {least})"
                for name, count in landed.items() if count < least]
    problems += [f"card {name!r} was drawn {count} times in {games} games (minimum {least})"
                 for name, count in drawn.items() if count < least]
    rarest = min(landed, key=lambda k: landed[k])
    summary = (f"{len(landed)} special fields, rarest {rarest} ({landed[rarest] / games:.2f} per game); "
               f"{len(drawn)} cards, {sum(drawn.values()) / games:.1f} drawn per game; "
               f"{totals.get('reshuffles', 0)} reshuffles, {totals.get('replaced', 0)} replacements, "
               f"{totals.get('rescued', 0)} rescues")
    visits = {"games": games, "landed": landed, "cards": drawn,
              "events": {k: totals.get(k, 0) for k in ("puns", "reshuffles", "replaced", "rescued",
                                                        "deadlocks", "swaps", "freed_by_card")}}
    return visits, Check("special fields and cards", not problems, summary, problems)


def simulate_grand(layout: GrandLayout, *, games: int, players: int, seed: int,
                   progress: Progress | None = None, player: str = "greedy") -> SimulationStats:
    """Self-play `games` games with `players` seats of one policy (greedy, central,
    peripheral or mixed)."""
    if not layout.players[0] <= players <= layout.players[1]:
        raise ValueError(f"{layout.id!r} is for {layout.players[0]} to {layout.players[1]} players, "
                         f"not {players!r}")
    if player not in POLICIES:
        raise ValueError(f"unknown player {player!r}; use {', '.join(POLICIES)}")
    cap = thresholds(layout, defaults=DEFAULTS)["turn_cap"]
    seeds = game_seeds(seed, games)
    results = play_policy(layout, players, player, seeds, cap)
    return stats_of(results, players, player, cap, seed)
