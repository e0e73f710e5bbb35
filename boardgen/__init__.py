"""boardgen: labyrinth board games as data, printed as PDF kits and proven playable.

The Python API, for a script that makes kits without the command line::

    import boardgen

    build = boardgen.build_kit("classic", boardgen.KitOptions(paper="letter"))  # in memory
    build.catalogue            # every piece design: drawing, trim outline, copies
    build.pdf.data             # the kit's PDF; build.pdf.placements: every piece placed
    boardgen.render_kit("classic", Path("output"), boardgen.KitOptions())  # writes the folder
    engine, layout = boardgen.load_game("grand")
    report = boardgen.check(engine, layout, layout.default_seed)  # the playability verdict

The kit API is imported when first used, so that `import boardgen` (and the command line's
start) loads no PDF or image library.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from boardgen.errors import BoardgenError, DataError, OutputError, UnplayableError, UsageError

if TYPE_CHECKING:
    from boardgen.checks.harness import check
    from boardgen.engines import load_game
    from boardgen.kit import KitBuild, build_kit, render_kit
    from boardgen.options import KitOptions

__version__ = "0.1.0"

_LAZY = {
    "build_kit": "boardgen.kit",
    "render_kit": "boardgen.kit",
    "KitBuild": "boardgen.kit",
    "KitOptions": "boardgen.options",
    "load_game": "boardgen.engines",
    "check": "boardgen.checks.harness",
}

__all__ = [
    "BoardgenError",
    "DataError",
    "KitBuild",
    "KitOptions",
    "OutputError",
    "UnplayableError",
    "UsageError",
    "__version__",
    "build_kit",
    "check",
    "load_game",
    "render_kit",
]


def __getattr__(name: str) -> Any:
    """The kit API's names, imported on first use (PEP 562)."""
    if name in _LAZY:
        return vars(import_module(_LAZY[name]))[name]
    raise AttributeError(f"module 'boardgen' has no attribute {name!r}")
