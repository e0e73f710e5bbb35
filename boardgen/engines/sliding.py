"""The sliding-corridor engine (the classic game and any board of that family)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from boardgen.checks import sliding as playability
from boardgen.checks.harness import Check, Extra, Progress, self_play_check
from boardgen.engine import Engine, Kit
from boardgen.model.sliding import Deal, SlidingLayout, build, deal
from boardgen.rules.planner import PlannerPlayer
from boardgen.rules.players import GENERIC_PLAYERS
from boardgen.rules.protocol import Player
from boardgen.rules.simulate import GameRecord, SimulationStats
from boardgen.rules.sliding import SlidingGame

if TYPE_CHECKING:
    from boardgen.data.loader import Document


class SlidingEngine(Engine[SlidingLayout, Deal, SlidingGame]):
    name = "sliding"
    prints_cards = True
    version = "5"  # 2: one rule set played in place; 3: players draw from boardgen.draws (issue 20);
    # 4: a card the seat compensation keeps out of the first pile is not counted as found (issue 40);
    # 5: one mapping of a draw to a die, a choice or a swap for every game (issue 39)
    schema = "sliding"
    defaults = playability.DEFAULTS
    target_noun = "treasure"
    solves = True

    def build(self, doc: Document) -> SlidingLayout:
        return build(doc)

    def setup(self, layout: SlidingLayout, seed: int) -> Deal:
        return deal(layout, seed)

    def game(self, layout: SlidingLayout) -> SlidingGame:
        return SlidingGame(layout)

    def kit(self) -> Kit[SlidingLayout, Deal, Any]:
        from boardgen.kits import sliding

        return sliding

    def static_checks(self, layout: SlidingLayout, start: Deal, limits: Mapping[str, Any]) -> list[Check]:
        return playability.static_checks(start)

    def extra_checks(
        self, layout: SlidingLayout, start: Deal, limits: Mapping[str, Any], *, progress: Progress | None = None
    ) -> Extra:
        """The solver: every treasure from every start used, within the turn limit."""
        results = playability.solve_starts(layout, start, self.player_counts(layout), limits, progress=progress)
        return Extra(
            [playability.reach_check(layout, results, limits)], {"turns_to_target": playability.distribution(results)}
        )

    def players(self) -> Mapping[str, Callable[[], Player]]:
        return {**GENERIC_PLAYERS, "planner": PlannerPlayer}

    def player_counts(self, layout: SlidingLayout) -> list[int]:
        return [k for k in sorted(layout.deal) if layout.players[0] <= k <= layout.players[1]]

    def check_players(self, layout: SlidingLayout, players: int) -> None:
        if players not in layout.deal:
            raise ValueError(
                f"{layout.id!r} has no deal for {players!r} players; "
                f"it deals for {', '.join(map(str, sorted(layout.deal)))}"
            )

    def self_play_figures(
        self, layout: SlidingLayout, stats: SimulationStats, records: Sequence[GameRecord]
    ) -> dict[str, float]:
        """The mean number of complete turns on offer, sampled every
        `SlidingRules.branching_every` turns (the game's events)."""
        totals = stats.extra_totals
        if not totals.get("branching_samples"):
            return {}
        return {"turn_branching": totals["turn_branching"] / totals["branching_samples"]}

    def self_play_check(self, sim: SimulationStats, limits: Mapping[str, Any]) -> Check:
        return self_play_check(sim, limits, extra=f", branching {sim.branching_mean:.1f}")
