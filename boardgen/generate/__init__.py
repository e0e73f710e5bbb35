"""Layout generators by game: which games `boardgen generate` makes, the board sizes each
accepts, and the layout file text for a size and seed. The command line, its help and its
messages read this table; a game with a generator adds one entry here.

Each `make` imports its model module only when called, so `boardgen --help` stays fast.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from dataclasses import dataclass

from boardgen.errors import UsageError


@dataclass(frozen=True)
class Generator:
    """A game's generator: `make(size, seed, layout_id)` returns the layout file's text."""

    engine: str
    sizes: tuple[int, ...]
    default_size: int
    make: Callable[[int, int, str], str]
    what: str  # the sizes in words, for help and messages

    def check_size(self, game: str, size: int | None) -> int:
        """The size to make (the default when none is given); a size it does not make is refused
        with the sizes it does."""
        if size is None:
            return self.default_size
        if size not in self.sizes:
            raise UsageError(f"{game} boards are made in {self.what} squares a side, not {size}")
        return size


def _classic(size: int, seed: int, layout_id: str) -> str:
    from boardgen.generate import sliding as sliding_generate

    data = sliding_generate.generate("classic", size, seed)
    data["game"]["id"] = layout_id
    return sliding_generate.to_toml(
        data,
        header=(
            f"A {size}x{size} classic board made by `boardgen generate classic --size {size} --seed {seed}`.\n"
            "How the tiles and treasures scale with the size: see boardgen/generate/sliding.py."
        ),
    )


def _master(size: int, seed: int, layout_id: str) -> str:
    from boardgen.generate import master as master_generate
    from boardgen.generate import sliding as sliding_generate

    data = master_generate.generate(size, seed)
    data["game"]["id"] = layout_id
    return sliding_generate.to_toml(
        data,
        header=(
            f"A {size}x{size} Labyrinthe Master board made by `boardgen generate master --size {size} --seed {seed}`.\n"
            + "\n".join(textwrap.wrap("How it scales: " + master_generate.how_it_scales(), 92))
            + "\nThe details are at the top of boardgen/generate/master.py."
        ),
    )


def _minos(size: int, seed: int, layout_id: str) -> str:
    from boardgen.generate.minos import GenerationError, generate, to_toml

    try:
        data = generate(seed, size)
    except (ValueError, GenerationError) as exc:
        raise UsageError(str(exc)) from None
    data["game"]["id"] = layout_id
    return to_toml(data)


def _walls(size: int, seed: int, layout_id: str) -> str:
    from boardgen.generate import walls as walls_generate

    try:
        made = walls_generate.generate(seed, size=size)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return walls_generate.to_toml(made, game_id=layout_id)


def _grand(size: int, seed: int, layout_id: str) -> str:
    from boardgen.generate import grand as grand_generate

    data = grand_generate.generate(seed)
    data["game"]["id"] = layout_id
    return grand_generate.to_toml(data)


# Game name -> its generator. Sizes: the sliding boards any odd size the solver and the page
# allow; King Minos its two mosaics; Le Jeu du Labyrinthe and Le Grand Labyrinthe their one board.
GENERATORS: dict[str, Generator] = {
    "classic": Generator("sliding", (5, 7, 9, 11, 13), 7, _classic, "odd sizes from 5 to 13"),
    "master": Generator("master", (5, 7, 9, 11, 13), 7, _master, "odd sizes from 5 to 13"),
    "minos": Generator("minos", (9, 11), 9, _minos, "9 or 11"),
    "walls": Generator("walls", (21,), 21, _walls, "21"),
    "grand": Generator("grand", (13,), 13, _grand, "13"),
}


def sizes_help() -> str:
    """The --size help: each game's sizes and default."""
    return "; ".join(f"{game} {g.what} (default {g.default_size})" for game, g in GENERATORS.items())
