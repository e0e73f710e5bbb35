"""What every game layout says about itself in its [game] table."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from boardgen.data.loader import Document


@dataclass(frozen=True)
class GameInfo:
    """The base of every game model: its file, names, player count, seed and rules text,
    and its ``[playability]`` table (thresholds over the engine's defaults)."""

    doc: Document
    id: str
    title: dict[str, str]
    tagline: dict[str, str]
    players: tuple[int, int]
    default_seed: int
    rules: str
    playability: dict[str, Any]

    @property
    def minutes_per_turn(self) -> float | None:
        """The ``[game] minutes_per_turn`` the layout gives, if any."""
        game = self.doc.data.get("game", {})
        value = game.get("minutes_per_turn") if isinstance(game, dict) else None
        return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None

    def picture_keys(self) -> set[str]:
        """The picture keys the layout's own items name (treasures, magic objects...); the
        fixed pictures of boards and card backs are bundled ones. None by default."""
        return set()


def game_fields(doc: Document) -> dict[str, Any]:
    """GameInfo's fields read from a schema-valid document, as keyword arguments."""
    game = doc.data["game"]
    return {
        "doc": doc,
        "id": game["id"],
        "title": game["title"],
        "tagline": game.get("tagline", game["title"]),
        "players": (game["players"]["min"], game["players"]["max"]),
        "default_seed": game.get("default_seed", 1),
        "rules": game.get("rules", game["id"]),
    }
