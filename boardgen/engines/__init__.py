"""The registry: every engine boardgen knows, by the name layout files give in ``[game] engine``.

Each entry is a typed factory that imports its engine module only when asked, so that
`boardgen --help` and commands that need no game stay fast. To add a game, add its entry
here (see `boardgen.engine` for what the engine must provide).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any

from boardgen.errors import UsageError

if TYPE_CHECKING:
    from boardgen.engine import Engine

    AnyEngine = Engine[Any, Any, Any]


def _sliding() -> AnyEngine:
    from boardgen.engines.sliding import SlidingEngine

    return SlidingEngine()


def _master() -> AnyEngine:
    from boardgen.engines.master import MasterEngine

    return MasterEngine()


def _minos() -> AnyEngine:
    from boardgen.engines.minos import MinosEngine

    return MinosEngine()


def _walls() -> AnyEngine:
    from boardgen.engines.walls import WallsEngine

    return WallsEngine()


def _grand() -> AnyEngine:
    from boardgen.engines.grand import GrandEngine

    return GrandEngine()


ENGINES: dict[str, Callable[[], AnyEngine]] = {
    "sliding": _sliding,
    "master": _master,
    "minos": _minos,
    "walls": _walls,
    "grand": _grand,
}


def engine_names() -> list[str]:
    """Every engine name, in registry order."""
    return list(ENGINES)


@cache
def get_engine(name: str) -> AnyEngine:
    """The engine a layout's ``[game] engine`` names; UsageError if there is none."""
    try:
        factory = ENGINES[name]
    except KeyError:
        raise UsageError(
            f"engine {name!r} is not available in this version of boardgen; known: {', '.join(ENGINES)}"
        ) from None
    return factory()


def game_names() -> list[str]:
    """The bundled games (layout files), by name."""
    from boardgen.data.loader import bundled_names

    return bundled_names("game")


def load_game(name_or_path: str) -> tuple[AnyEngine, Any]:
    """Load and validate a game file, and build its model with the engine it names."""
    from boardgen.data.loader import load
    from boardgen.data.strings import own_folder, use_layout_folder

    doc = load("game", name_or_path)
    use_layout_folder(own_folder(doc.path))  # a layout of the user's may bring its strings files
    name = doc.data["game"]["engine"]
    if name not in ENGINES:
        raise UsageError(f"{doc.path}: engine {name!r} is not available in this version of boardgen")
    engine = get_engine(name)
    return engine, engine.build(doc)
