"""The King Minos race engine."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from boardgen.checks import minos as checks
from boardgen.checks.common import self_play_check
from boardgen.checks.verdict import Check, Extra, Progress
from boardgen.engine import Engine, Kit
from boardgen.model.minos import PLAYABILITY_DEFAULTS, MinosLayout, build
from boardgen.rules.minos import MinosGame
from boardgen.rules.simulate import GameRecord, SimulationStats, game_seeds

if TYPE_CHECKING:
    from boardgen.checks.accessibility import ColourGroup
    from boardgen.data.loader import Document
    from boardgen.data.theme import Theme


class MinosEngine(Engine[MinosLayout, MinosLayout, MinosGame]):
    name = "minos"
    version = "4"  # 2: one rule set (issue 20); 3: players draw from boardgen.draws; 4: one mapping of
    # a draw to a die (the dice change), generated layouts drawn from boardgen.draws (issue 39)
    schema = "minos"
    defaults = PLAYABILITY_DEFAULTS

    def build(self, doc: Document) -> MinosLayout:
        return build(doc)

    def setup(self, layout: MinosLayout, seed: int) -> MinosLayout:
        """A race board has no seeded set-up: the seed only drives the dice of self-play."""
        return layout

    def game(self, layout: MinosLayout) -> MinosGame:
        return MinosGame(layout)

    def kit(self) -> Kit[MinosLayout, MinosLayout, Any]:
        from boardgen.kits import minos

        return minos

    def colour_groups(self, layout: MinosLayout, theme: Theme) -> list[ColourGroup]:
        """The mosaic's two realms, each in two tints, named in the board's legend."""
        from boardgen.checks.accessibility import ColourGroup, region_minimum

        if not {"earth", "sky"} <= {node.colour for node in layout.track.nodes}:
            return []
        members = tuple((key, theme.colour(key)) for key in ("earth", "earth_alt", "sky", "sky_alt"))
        return [ColourGroup("realms", members, "names", region_minimum(theme))]

    def static_checks(self, layout: MinosLayout, start: MinosLayout, limits: Mapping[str, Any]) -> list[Check]:
        return []

    def extra_checks(
        self, layout: MinosLayout, start: MinosLayout, limits: Mapping[str, Any], *, progress: Progress | None = None
    ) -> Extra:
        """The board's geometry; self-play only on a sound board."""
        check = checks.geometry_check(layout)
        return Extra([check], play=check.ok)

    def self_play_seeds(self, seed: int, players: int, games: int) -> Sequence[int]:
        return game_seeds(seed + players, games)

    def self_play_figures(
        self, layout: MinosLayout, stats: SimulationStats, records: Sequence[GameRecord]
    ) -> dict[str, float]:
        """Rides, crossings, swaps and lost-turn traps per game."""
        return checks.figures(layout, stats)

    def self_play_check(self, sim: SimulationStats, limits: Mapping[str, Any]) -> Check:
        return self_play_check(sim, limits, unit="rounds")

    def self_play_checks(
        self, layout: MinosLayout, sims: Sequence[SimulationStats], limits: Mapping[str, Any]
    ) -> Extra:
        """How often each special field is reached over all of self-play."""
        visits, check = checks.visits_check(layout, list(sims), limits)
        return Extra([check], {"visits": visits})
