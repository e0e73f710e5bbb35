"""The moving-walls engine (Le Jeu du Labyrinthe)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from boardgen.checks import walls as checks
from boardgen.checks.verdict import Check, Extra
from boardgen.engine import Engine, Kit
from boardgen.model.walls import PLAYABILITY_DEFAULTS, WallsLayout, build
from boardgen.rules.protocol import Player
from boardgen.rules.simulate import GameRecord, SimulationStats, game_seeds
from boardgen.rules.walls import PLAYERS, WallsGame

if TYPE_CHECKING:
    from boardgen.data.loader import Document


class WallsEngine(Engine[WallsLayout, WallsLayout, WallsGame]):
    name = "walls"
    version = "4"  # 3: players and game seeds draw from boardgen.draws (issue 20); 4: generated
    # layouts drawn from boardgen.draws, one mapping of a draw to a choice (issue 39)
    schema = "walls"
    defaults = PLAYABILITY_DEFAULTS
    self_play_player = "heuristic"

    def build(self, doc: Document) -> WallsLayout:
        return build(doc)

    def setup(self, layout: WallsLayout, seed: int) -> WallsLayout:
        """The blocks start as printed: the seed only drives self-play."""
        return layout

    def game(self, layout: WallsLayout) -> WallsGame:
        """The rules, counting stalls by the layout's ``stall_rounds`` (self-play's events)."""
        return WallsGame(layout, stall_rounds=self.thresholds(layout)["stall_rounds"])

    def kit(self) -> Kit[WallsLayout, WallsLayout, Any]:
        from boardgen.kits import walls

        return walls

    def static_checks(self, layout: WallsLayout, start: WallsLayout, limits: Mapping[str, Any]) -> list[Check]:
        return checks.static_checks(layout, limits)

    def static_figures(self, layout: WallsLayout, start: WallsLayout) -> dict[str, Any]:
        return {"start_distances": checks.start_distances(layout)}

    def players(self) -> Mapping[str, Callable[[], Player]]:
        return {**PLAYERS, "greedy": PLAYERS["heuristic"]}

    def player_counts(self, layout: WallsLayout) -> list[int]:
        return list(layout.player_counts)

    def check_players(self, layout: WallsLayout, players: int) -> None:
        if players not in layout.player_counts:
            counts = " or ".join(map(str, layout.player_counts))
            raise ValueError(f"{layout.id} is played by {counts} players, not {players}")

    def self_play_seeds(self, seed: int, players: int, games: int) -> Sequence[int]:
        return game_seeds(seed + players, games)

    def self_play_figures(
        self, layout: WallsLayout, stats: SimulationStats, records: Sequence[GameRecord]
    ) -> dict[str, float]:
        return checks.figures(records)

    def self_play_check(self, sim: SimulationStats, limits: Mapping[str, Any]) -> Check:
        return checks.self_play_judged(sim, limits)

    def self_play_checks(
        self, layout: WallsLayout, sims: Sequence[SimulationStats], limits: Mapping[str, Any]
    ) -> Extra:
        return Extra([checks.blocks_moved(layout, list(sims), limits["min_block_moves"])])
