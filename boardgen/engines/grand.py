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

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from boardgen.checks import grand as checks
from boardgen.checks.common import self_play_check
from boardgen.checks.grand import MIXED
from boardgen.checks.verdict import Check, Extra, Lineup
from boardgen.data.theme import sequence_fill, symbols_tell_apart
from boardgen.engine import Engine, Kit
from boardgen.model.grand import PLAYABILITY_DEFAULTS, GrandLayout, build
from boardgen.rules.grand import PLAYERS, ROUTES, GrandGame
from boardgen.rules.players import GENERIC_PLAYERS
from boardgen.rules.protocol import Player
from boardgen.rules.simulate import GameRecord, SimulationStats

if TYPE_CHECKING:
    from boardgen.checks.accessibility import ColourGroup
    from boardgen.data.loader import Document
    from boardgen.data.theme import Theme

DEFAULTS = PLAYABILITY_DEFAULTS
POLICY_SHARE = {"central": 0.4, "peripheral": 0.4}


class GrandEngine(Engine[GrandLayout, GrandLayout, GrandGame]):
    name = "grand"
    prints_cards = True
    version = "7"  # 5: players and game seeds draw from boardgen.draws (issue 20); 6: "nearest the lair"
    # is the fewest fields to walk, as players count it, not the expected turns (issue 40); 7: one
    # mapping of a draw to a die or a swap (dice and deck shuffles change), generated layouts drawn
    # from boardgen.draws (issue 39)
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

    def colour_groups(self, layout: GrandLayout, theme: Theme) -> list[ColourGroup]:
        """The four sequences, as their fields are tinted; the legend names them, but a field is
        told by its tint unless it carries its sequence's symbol."""
        from boardgen.checks.accessibility import ColourGroup, region_minimum

        if not layout.sequences:
            return []
        members = tuple((seq.name["en"], sequence_fill(theme, seq.colour)) for seq in layout.sequences)
        cue = "sequence_symbols" if symbols_tell_apart(theme, [seq.colour for seq in layout.sequences]) else None
        return [ColourGroup("sequences", members, cue, region_minimum(theme))]

    def players(self) -> Mapping[str, Callable[[], Player]]:
        """The generic players (greedy: the way with the fewest expected turns left), and the
        route players."""
        return {**GENERIC_PLAYERS, **PLAYERS}

    def static_checks(self, layout: GrandLayout, start: GrandLayout, limits: Mapping[str, Any]) -> list[Check]:
        return [checks.track_check(layout)]

    # -- self-play ------------------------------------------------------------------------------

    def self_play_lineups(self, layout: GrandLayout, players: int) -> Sequence[Lineup]:
        lineups = [Lineup("", ("greedy",) * players)]
        lineups += [Lineup(route, (route,) * players, POLICY_SHARE[route]) for route in ROUTES]
        # The two mixed seatings play the same dice (paired), so seat order cancels out.
        lineups += [
            Lineup(name, tuple(ROUTES[(seat + k) % 2] for seat in range(players)), 1.0, stream=3)
            for k, name in enumerate(MIXED)
        ]
        return lineups

    def self_play_figures(
        self, layout: GrandLayout, stats: SimulationStats, records: Sequence[GameRecord]
    ) -> dict[str, float]:
        return checks.figures(stats)

    def self_play_check(self, sim: SimulationStats, limits: Mapping[str, Any]) -> Check:
        return self_play_check(sim, limits, unit="rounds")

    def self_play_checks(
        self, layout: GrandLayout, sims: Sequence[SimulationStats], limits: Mapping[str, Any]
    ) -> Extra:
        found, stats = checks.self_play_checks(layout, sims, limits)
        return Extra(found, stats)
