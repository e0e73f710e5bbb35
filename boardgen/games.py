"""The bundled games and the engine behind each: model builder, kit maker, playability check."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from boardgen.data.loader import bundled_names, load
from boardgen.errors import UsageError
from boardgen.model import grand as grand_model
from boardgen.model import master as master_model
from boardgen.model import minos as minos_model
from boardgen.model import sliding as sliding_model
from boardgen.model import walls as walls_model


@dataclass(frozen=True)
class Engine:
    name: str
    build: Callable[[Any], Any]
    kit: str  # module in boardgen.kits that makes this engine's kit
    check: str  # "module:function" of its playability check
    simulate: str  # "module:function" of its self-play statistics


ENGINES: dict[str, Engine] = {
    "sliding": Engine("sliding", sliding_model.build, "sliding",
                      "boardgen.rules.playability:check_sliding",
                      "boardgen.rules.playability:simulate_sliding"),
    "master": Engine("master", master_model.build, "master",
                     "boardgen.rules.master:check_master", "boardgen.rules.master:simulate_master"),
    "minos": Engine("minos", minos_model.build, "minos",
                    "boardgen.rules.minos:check_minos", "boardgen.rules.minos:simulate_minos"),
    "walls": Engine("walls", walls_model.build, "walls",
                    "boardgen.rules.walls_playability:check_walls",
                    "boardgen.rules.walls_playability:simulate_walls"),
    "grand": Engine("grand", grand_model.build, "grand",
                    "boardgen.rules.grand_playability:check_grand",
                    "boardgen.rules.grand_playability:simulate_grand"),
}


def game_names() -> list[str]:
    return bundled_names("game")


def load_game(name_or_path: str) -> tuple[Engine, Any]:
    """Load and validate a game file, and build its model with the engine it names."""
    doc = load("game", name_or_path)
    name = doc.data["game"]["engine"]
    if name not in ENGINES:
        raise UsageError(f"{doc.path}: engine {name!r} is not available in this version of boardgen")
    engine = ENGINES[name]
    return engine, engine.build(doc)
