"""The Grand Labyrinthe engine: a branching dice race on the shared race engine.

The check plays, through the one self-play pool, five lineups per player count: greedy
players (the way with the fewest expected turns left; the lineup judged for completion,
length and seat balance), every seat central, every seat peripheral (40 % of the games
each: they show that each route finishes and how long it takes), and "mixed" games where
seats alternate central and peripheral, and as many again with the seats swapped on the same
dice (a paired comparison: seat order cancels out). It then
judges every lineup's completion (no deadlock left unresolved), the route balance of the
mixed games (the two routes' win rates may differ by at most ``max_route_gap``, failing only
when the gap is also significant at ``route_gap_significance``), and that every special
field is reached and every card drawn.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from boardgen.engine import Engine, Kit
from boardgen.model.grand import GrandLayout, build, static_problems
from boardgen.model.grand_generate import PLAYABILITY_DEFAULTS
from boardgen.rules.grand import PLAYERS, ROUTES, GrandGame, count_events, route_figures
from boardgen.rules.players import GENERIC_PLAYERS
from boardgen.rules.protocol import Player
from boardgen.rules.report import Check, Extra, Lineup, self_play_check
from boardgen.rules.simulate import GameRecord, Hook, SimulationStats

if TYPE_CHECKING:
    from boardgen.data.loader import Document

DEFAULTS = PLAYABILITY_DEFAULTS
POLICY_SHARE = {"central": 0.4, "peripheral": 0.4}
MIXED = ("mixed", "mixed-swapped")


def policy(sim: SimulationStats) -> str:
    """The lineup a run's seats make: greedy, central, peripheral, mixed or mixed-swapped."""
    names = set(sim.player_names)
    if len(names) == 1:
        return sim.player_names[0]
    return MIXED[0] if sim.player_names[0] == ROUTES[0] else MIXED[1]


class GrandEngine(Engine[GrandLayout, GrandLayout, GrandGame]):
    name = "grand"
    version = "2"
    schema = "grand"
    defaults = DEFAULTS

    def build(self, doc: Document) -> GrandLayout:
        return build(doc)

    def setup(self, layout: GrandLayout, seed: int) -> GrandLayout:
        """Nothing is dealt: the seed only drives the dice and cards of self-play."""
        return layout

    def game(self, layout: GrandLayout) -> GrandGame:
        """The rules, with the tables self-play needs worked out before it forks its
        processes (they share them)."""
        game = GrandGame(layout)
        game.prepare()
        return game

    def kit(self) -> Kit[GrandLayout, GrandLayout, Any]:
        from boardgen.kits import grand

        return grand

    def players(self) -> Mapping[str, Callable[[], Player]]:
        """The generic players (greedy: the way with the fewest expected turns left), and the
        route players."""
        return {**GENERIC_PLAYERS, **PLAYERS}

    def static_checks(self, layout: GrandLayout, start: GrandLayout, limits: Mapping[str, Any]) -> list[Check]:
        problems = static_problems(layout)
        summary = (f"{len(layout.central)} central and {len(layout.peripheral)} peripheral fields, "
                   f"{len(layout.cards)} cards")
        return [Check.of("track", problems, summary)]

    # -- self-play ------------------------------------------------------------------------------

    def self_play_lineups(self, layout: GrandLayout, players: int) -> Sequence[Lineup]:
        lineups = [Lineup("", ("greedy",) * players)]
        lineups += [Lineup(route, (route,) * players, POLICY_SHARE[route]) for route in ROUTES]
        # The two mixed seatings play the same dice (paired), so seat order cancels out.
        lineups += [Lineup(name, tuple(ROUTES[(seat + k) % 2] for seat in range(players)), 1.0, stream=3)
                    for k, name in enumerate(MIXED)]
        return lineups

    def self_play_hook(self, game: GrandGame, limits: Mapping[str, Any]) -> Hook:
        return count_events

    def self_play_figures(self, layout: GrandLayout, stats: SimulationStats,
                          records: Sequence[GameRecord]) -> dict[str, float]:
        """Per game: cards drawn, puns made, deadlocks resolved; per route: the share of pawns
        that took it first and how often one of them won."""
        totals, games = stats.extra_totals, stats.games
        cards = sum(v for k, v in totals.items() if k.startswith("card:"))
        out = {"cards": cards / games, "puns": totals.get("again", 0.0) / games,
               "deadlocks": totals.get("deadlock", 0.0) / games}
        for route, figures in route_figures(totals, games * stats.seats).items():
            out[f"{route}_taken"] = figures["share"]
            out[f"{route}_win_rate"] = figures["win_rate"]
        return out

    def self_play_check(self, sim: SimulationStats, limits: Mapping[str, Any]) -> Check:
        return self_play_check(sim, limits, unit="rounds")

    def self_play_checks(self, layout: GrandLayout, sims: Sequence[SimulationStats],
                         limits: Mapping[str, Any]) -> Extra:
        """The route policies' table and completion, the route balance of the mixed games,
        and every special field and card reached."""
        rows = [policy_row(sim) for sim in sims]
        rows.sort(key=lambda r: (r["players"], ("greedy", *ROUTES, *MIXED).index(r["policy"])))
        checks = [policies_check(rows, limits), routes_check(sims, limits)]
        visits, check = visits_check(layout, layout.card_ids, sims, limits)
        return Extra(checks + [check], {"policies": rows, "visits": visits})


def policy_row(sim: SimulationStats) -> dict[str, Any]:
    """One row of the closing table: completion, mean/p95 rounds, seat and route win rates."""
    seats = sim.seats
    routes = route_figures(sim.extra_totals, sim.games * seats)
    return {
        "players": seats, "policy": policy(sim), "games": sim.games,
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
    problems = [f"{row['players']} players, {row['policy']}: {row['completion']:.1%} of games finished "
                f"within {limits['turn_cap']} turns (minimum {least:.0%})"
                for row in rows if row["completion"] < least]
    slowest = max(rows, key=lambda row: row["mean_rounds"] or 0)
    deadlocks = sum(row["deadlocks_resolved"] for row in rows)
    summary = (f"{len(rows)} player count x policy runs all finish; slowest {slowest['players']} players "
               f"{slowest['policy']}, mean {slowest['mean_rounds']} rounds; {deadlocks} deadlocks resolved")
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
        (c_taken, c_won), (p_taken, p_won) = ((int(totals.get(f"route:{r}", 0)), int(totals.get(f"won:{r}", 0)))
                                              for r in ROUTES)
        central, peripheral = c_won / c_taken if c_taken else 0.0, p_won / p_taken if p_taken else 0.0
        chance = gap_p(c_won, c_taken, p_won, p_taken)
        parts.append(f"{seats}p {central:.2f}/{peripheral:.2f}")
        if abs(central - peripheral) > most and chance < level:
            problems.append(f"{seats} players: a pawn on the central route wins {central:.0%} of mixed games, "
                            f"one on the peripheral route {peripheral:.0%} (gap at most {most:.0%}; p = "
                            f"{chance:.4f} that equal routes would differ this much)")
    return Check("route balance", not problems, "win rate central/peripheral " + ", ".join(parts), problems)


def visits_check(layout: GrandLayout, card_ids: Sequence[str], sims: Sequence[SimulationStats],
                 limits: Mapping[str, Any]) -> tuple[dict[str, Any], Check]:
    """Every special field is reached and every card drawn in self-play."""
    totals: dict[str, float] = {}
    for sim in sims:
        for key, value in sim.extra_totals.items():
            totals[key] = totals.get(key, 0.0) + value
    games = sum(sim.games for sim in sims)
    least = limits["min_visits"]
    landed = {layout.label(f): int(totals.get(f"landed:{layout.index(f)}", 0)) for f in layout.specials}
    drawn = {card.id: 0 for card in layout.deck}
    for index, card_id in enumerate(card_ids):
        drawn[card_id] += int(totals.get(f"card:{index}", 0))
    problems = [f"special field {name} was reached {count} times in {games} games (minimum {least})"
                for name, count in landed.items() if count < least]
    problems += [f"card {name!r} was drawn {count} times in {games} games (minimum {least})"
                 for name, count in drawn.items() if count < least]
    rarest = min(landed, key=lambda k: landed[k])
    events = {k: int(totals.get(k, 0)) for k in ("again", "reshuffle", "replaced", "rescued", "deadlock", "swap",
                                                  "freed")}
    summary = (f"{len(landed)} special fields, rarest {rarest} ({landed[rarest] / games:.2f} per game); "
               f"{len(drawn)} cards, {sum(drawn.values()) / games:.1f} drawn per game; "
               f"{events['reshuffle']} reshuffles, {events['replaced']} replacements, {events['rescued']} rescues")
    visits = {"games": games, "landed": landed, "cards": drawn, "events": events}
    return visits, Check("special fields and cards", not problems, summary, problems)
