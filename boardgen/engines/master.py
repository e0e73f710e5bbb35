"""The Labyrinthe Master engine: the sliding board with object tokens, recipes and wands."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from boardgen.checks import master as checks
from boardgen.checks import sliding as playability
from boardgen.checks.harness import Check, Extra, Progress, self_play_check
from boardgen.engine import Engine, Kit
from boardgen.model.master import MasterLayout, Setup, build, setup
from boardgen.rules import master
from boardgen.rules.simulate import GameRecord, SimulationStats

if TYPE_CHECKING:
    from boardgen.data.loader import Document


class MasterEngine(Engine[MasterLayout, Setup, master.MasterGame]):
    name = "master"
    prints_cards = True
    version = "4"  # 2: one rule set played in place; 3: players draw from boardgen.draws (issue 20);
    # 4: one mapping of a draw to a die, a choice or a swap; generated layouts drawn from boardgen.draws (issue 39)
    schema = "master"
    defaults = playability.DEFAULTS
    target_noun = "object"

    def build(self, doc: Document) -> MasterLayout:
        return build(doc)

    def setup(self, layout: MasterLayout, seed: int) -> Setup:
        return setup(layout, seed)

    def game(self, layout: MasterLayout) -> master.MasterGame:
        return master.MasterGame(layout)

    def kit(self) -> Kit[MasterLayout, Setup, Any]:
        from boardgen.kits import master as kit

        return kit

    def static_checks(self, layout: MasterLayout, start: Setup, limits: Mapping[str, Any]) -> list[Check]:
        return checks.static_checks(layout, start)

    def extra_checks(
        self, layout: MasterLayout, start: Setup, limits: Mapping[str, Any], *, progress: Progress | None = None
    ) -> Extra:
        """The solver: every object from every start used, within the turn limit."""
        starts = layout.starts[: max(self.player_counts(layout))]
        results = checks.solve_tokens(
            layout,
            start,
            max_turns=limits["max_turns_to_target"],
            budget=limits["solver_budget"],
            starts=starts,
            progress=progress,
        )
        return Extra(
            [playability.reach_check(layout, results, limits, "object")],
            {"turns_to_target": playability.distribution(results)},
        )

    def check_players(self, layout: MasterLayout, players: int) -> None:
        master.MasterGame(layout).check_players(players)

    def self_play_figures(
        self, layout: MasterLayout, stats: SimulationStats, records: Sequence[GameRecord]
    ) -> dict[str, float]:
        """The score spread and the wands played per game."""
        extra = checks.score_figures(records)
        extra["wands_used"] = stats.extra_totals.get("wands_used", 0.0) / len(records)
        return extra

    def self_play_check(self, sim: SimulationStats, limits: Mapping[str, Any]) -> Check:
        return self_play_check(sim, limits, extra=checks.self_play_extra(sim))
