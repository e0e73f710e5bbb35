"""The Grand Labyrinthe engine: a branching dice race on a track graph."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from boardgen.engine import Engine, Kit
from boardgen.model.grand import GrandLayout, build, static_problems
from boardgen.rules import grand_playability as checks
from boardgen.rules.grand import PLAYERS, GrandGame
from boardgen.rules.players import GENERIC_PLAYERS
from boardgen.rules.protocol import Player
from boardgen.rules.report import Check, Extra, Progress

if TYPE_CHECKING:
    from boardgen.data.loader import Document


class GrandEngine(Engine[GrandLayout, GrandLayout, GrandGame]):
    name = "grand"
    version = "1"
    schema = "grand"
    defaults = checks.DEFAULTS

    def build(self, doc: Document) -> GrandLayout:
        return build(doc)

    def setup(self, layout: GrandLayout, seed: int) -> GrandLayout:
        """Nothing is dealt: the seed only drives the dice and cards of self-play."""
        return layout

    def game(self, layout: GrandLayout) -> GrandGame:
        return GrandGame(layout)

    def kit(self) -> Kit[GrandLayout, GrandLayout, Any]:
        from boardgen.kits import grand

        return grand

    def players(self) -> Mapping[str, Callable[[], Player]]:
        """The generic players, and the route policies (greedy: the shorter expected route)."""
        return {**GENERIC_PLAYERS, **PLAYERS}

    def static_checks(self, layout: GrandLayout, start: GrandLayout, limits: Mapping[str, Any]) -> list[Check]:
        problems = static_problems(layout)
        summary = (f"{len(layout.central)} central and {len(layout.peripheral)} peripheral fields, "
                   f"{len(layout.cards)} cards")
        return [Check.of("track", problems, summary)]

    def play_checks(self, layout: GrandLayout, seed: int, limits: Mapping[str, Any], *,
                    workers: int | None = None, progress: Progress | None = None) -> Extra:
        """Grand's self-play seats route policies (greedy, central, peripheral, mixed), not
        protocol players, and plays them with its own table-based loop; it keeps it until
        those policies are players of `GrandGame`."""
        return checks.play_checks(layout, seed, limits, progress=progress)
