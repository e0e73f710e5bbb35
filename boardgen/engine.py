"""The one slot every game fills: how to add a game to boardgen.

A game is an *engine* (the layout file's ``[game] engine = "..."`` names it) plus layouts
of it (``layouts/games/*.toml``). To add one:

1. **Data.** A JSON Schema ``layouts/schema/<schema>.schema.json`` for its layout files
   (reuse ``common.schema.json``), at least one layout in ``layouts/games/``, its rules
   text ``layouts/rules/<rules>.<lang>.md`` in every language, and any printed words in
   ``layouts/strings/<lang>.toml``.
2. **Model.** A frozen dataclass extending `boardgen.model.game.GameInfo` built from the
   validated layout `Document` (every data problem raised as one `DataError` naming file,
   key and line), and the seeded start of a game (the deal, the shuffled cards; the layout
   itself when the seed changes nothing on the table).
3. **Rules.** A subclass of `boardgen.rules.protocol.Game` (or of its `HeuristicGame`):
   `legal_moves`, `apply`, `outcome`, chance drawn from `boardgen.draws` (seeded from the
   game's seed, never Python's `random`); ``heuristic(state, seat)`` (lower is better) so
   the greedy player can play it; ``turns_played`` when a turn is several decisions;
   ``events(state)`` for self-play counters (what a decision set off); ``position`` and
   ``play(state, move)`` when positions are mutable; ``count_moves``, ``best_moves`` and
   ``score_moves`` where it can work them out faster than the defaults, to make self-play
   fast in that one rule set (every member with a default is declared on the protocol).
   A count table ``tests/data/<game>.perft`` (position, depth, number of decision
   sequences; hand-checked at depth 1-2 on a small board, the reasoning beside the counts)
   with its parametrised test in ``tests/rules/test_perft.py``. The checks of its layouts
   go in ``boardgen/checks/<game>.py``.
4. **Kit.** A module of `boardgen.kits` that satisfies `Kit`: ``setup``, ``draw`` (every SVG,
   a `Drawings`), ``catalogue`` (every piece design, its outline and count) and ``build_pdf``
   (the imposed PDF, its pages and every piece placed on them).
5. **Engine.** A subclass of `Engine` below, filling every abstract member and overriding
   the defaults it needs, then one entry in the registry, `boardgen.engines.ENGINES` (and,
   if layouts of it can be generated, one in `boardgen.generate.GENERATORS`, which
   `boardgen generate` reads).

Nothing else names games: the command line, the check harness (`boardgen.checks.harness`),
the verdict cache and the kit writer ask the engine. `tests/test_engines.py` runs every
registered engine through the same tests.

The check every render runs (`boardgen.checks.harness.check`) goes: `Engine.static_checks` on
the seeded start; if they pass, `Engine.extra_checks` (a solver, a geometry check); then,
unless those said stop, self-play of up to ``games_per_player_count`` games for each of
`Engine.player_counts` with `Engine.self_play_player`, in one process pool, judged by
`Engine.self_play_check` per player count and `Engine.self_play_checks` over them all
(every lineup's statistics, when `Engine.self_play_lineups` seats more than one). It stops
early once each criterion is settled (see `boardgen.checks.harness.settle`), so both
checks must judge whatever sample they are given: a count-based minimum (a field reached at
least once) holds for good once met.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar

from boardgen.checks.common import self_play_check
from boardgen.checks.verdict import Check, Extra, Lineup, Progress, thresholds
from boardgen.model.game import GameInfo
from boardgen.rules.players import GENERIC_PLAYERS
from boardgen.rules.protocol import Game, Player
from boardgen.rules.simulate import GameRecord, SimulationStats, game_seeds

if TYPE_CHECKING:
    from boardgen.checks.accessibility import ColourGroup
    from boardgen.data.loader import Document
    from boardgen.data.theme import Theme
    from boardgen.kits.catalogue import Catalogue
    from boardgen.options import KitOptions, Summary
    from boardgen.render.imposition import Tiling
    from boardgen.render.pdf import ImposedPdf

LayoutT = TypeVar("LayoutT", bound=GameInfo)
SetupT = TypeVar("SetupT")
GameT = TypeVar("GameT", bound=Game[Any, Any])
LayoutC = TypeVar("LayoutC", contravariant=True)
SetupC = TypeVar("SetupC", contravariant=True)
DrawingsT = TypeVar("DrawingsT", bound="Drawings")


class Drawings(Protocol):
    """Every SVG of a kit, as text: the bare board, the board as set up for the first game
    (previews show it; the bare board where nothing is dealt), and all of them by file name
    without ``.svg`` for the kit's ``svg/`` folder."""

    @property
    def board(self) -> str: ...

    @property
    def setup(self) -> str: ...

    def files(self) -> dict[str, str]: ...


class Kit(Protocol[LayoutC, SetupC, DrawingsT]):
    """What a kit module (``boardgen/kits/<game>.py``) provides, as module functions.

    - ``setup(layout, seed)``: the seeded start the cover shows (the same as
      `Engine.setup`, which the check plays);
    - ``draw(layout, theme, start, lang)``: every drawing, in memory;
    - ``catalogue(layout, drawings)``: every printable piece design with its drawing, trim
      outline, bleed and the copies the game uses (a `boardgen.kits.catalogue.Catalogue`), the
      one description of the pieces that the PDF and every other output read;
    - ``build_pdf(layout, theme, start, drawings, pieces, options, *, summary)``: the PDF of
      the drawings and the catalogue's pieces, with
      the kind and size of each page ("cover", "board", "tiles", "cards", ...) and every piece
      placed (a `boardgen.render.pdf.ImposedPdf`); `summary` is the
      check's one-line verdict for the cover, or a function that gives it (called when the
      PDF is finished: the check may run beside the drawing);
    - ``board_tiling(layout, options)``: how the board is cut into sheets (its warnings
      reach the command line);
    - ``rules_text(layout, lang)``: the rules as blocks (``h``, ``p``, ``li``), what the
      rules pages set and the braille and large-print editions read.

    And, read by `boardgen.kit.draw_kit` and `boardgen.kits.reprint`: ``Drawings``, the
    dataclass `draw` returns (drawings are cached between renders only for such a kit);
    ``piece_ids(layout)``, every single piece it can reprint, by kind; ``printed_numbers(layout)``,
    the number printed on a piece whose id is not one (a token's value), by kind; ``PIECE_FIELDS``,
    where each kind's drawings are; ``EXTRA_PARTS``, parts printed on pages of their own
    besides the usual ones.

    Nothing is written to disk here; `boardgen.kit.render_kit` writes the files.
    """

    def setup(self, layout: LayoutC, seed: int, /) -> Any: ...

    def draw(self, layout: LayoutC, theme: Theme, start: SetupC, lang: str, /) -> DrawingsT: ...

    def catalogue(self, layout: LayoutC, drawings: DrawingsT, /) -> Catalogue: ...

    def build_pdf(
        self,
        layout: LayoutC,
        theme: Theme,
        start: SetupC,
        drawings: DrawingsT,
        pieces: Catalogue,
        options: KitOptions,
        /,
        *,
        summary: Summary,
    ) -> ImposedPdf: ...

    def board_tiling(self, layout: LayoutC, options: KitOptions, /) -> Tiling: ...

    def rules_text(self, layout: LayoutC, lang: str, /) -> list[tuple[str, str]]: ...

    @property
    def Drawings(self) -> type: ...  # noqa: N802 (the dataclass's own name)

    @property
    def PIECE_FIELDS(self) -> Mapping[str, tuple[str, str]]: ...  # noqa: N802 (a module constant)

    @property
    def EXTRA_PARTS(self) -> tuple[str, ...]: ...  # noqa: N802 (a module constant)

    @property
    def __name__(self) -> str: ...

    def piece_ids(self, layout: LayoutC, /) -> Mapping[str, Mapping[str, str]]: ...

    def printed_numbers(self, layout: LayoutC, /) -> Mapping[str, Mapping[str, str]]: ...


class Engine(ABC, Generic[LayoutT, SetupT, GameT]):
    """A game: its layout model, rules, checks, players and kit. One instance per engine,
    from `boardgen.engines.get_engine`; it holds no state.

    Class attributes every engine sets:

    - `name`: the layout's ``[game] engine`` value;
    - `version`: bump it whenever a change could change a verdict (rules, checks, players,
      self-play counters): it is part of the verdict cache's key;
    - `schema`: the name of its layout schema, ``layouts/schema/<schema>.schema.json``;
    - `defaults`: the ``[playability]`` thresholds a layout may override.
    """

    name: ClassVar[str]
    version: ClassVar[str]
    schema: ClassVar[str]
    defaults: ClassVar[Mapping[str, Any]]
    target_noun: ClassVar[str] = "treasure"  # what `extra_checks` solves for, in reports
    self_play_player: ClassVar[str] = "greedy"  # the kind of player the check seats
    solves: ClassVar[bool] = False  # `boardgen solve` works on its layouts
    prints_cards: ClassVar[bool] = False  # its layouts have a deck (card services print it)

    # -- model ------------------------------------------------------------------------------

    @abstractmethod
    def build(self, doc: Document) -> LayoutT:
        """The layout model from a schema-valid document; DataError on bad data."""

    @abstractmethod
    def setup(self, layout: LayoutT, seed: int) -> SetupT:
        """The seeded start of a game: what the cover shows and the static checks look at."""

    @abstractmethod
    def game(self, layout: LayoutT) -> GameT:
        """The rules, for self-play."""

    @abstractmethod
    def kit(self) -> Kit[LayoutT, SetupT, Any]:
        """The kit module (imported here, lazily: it pulls in the PDF libraries)."""

    # -- checks -----------------------------------------------------------------------------

    @abstractmethod
    def static_checks(self, layout: LayoutT, start: SetupT, limits: Mapping[str, Any]) -> list[Check]:
        """Checks of the seeded start that need no play; each lists all of its problems."""

    def static_figures(self, layout: LayoutT, start: SetupT) -> dict[str, Any]:
        """Figures of the start for the report's ``stats``, given whatever the checks say
        (none by default)."""
        return {}

    def extra_checks(
        self, layout: LayoutT, start: SetupT, limits: Mapping[str, Any], *, progress: Progress | None = None
    ) -> Extra:
        """Checks after the static ones pass, before self-play (none by default)."""
        return Extra()

    def thresholds(self, layout: LayoutT, **overrides: Any) -> dict[str, Any]:
        """`defaults`, then the layout's ``[playability]`` table, then non-None overrides."""
        return thresholds(layout, self.defaults, **overrides)

    def colour_groups(self, layout: LayoutT, theme: Theme) -> list[ColourGroup]:
        """The colours that carry meaning in this game beyond the players' (the accessibility
        check tells each group apart in every colour vision): none by default."""
        return []

    # -- self-play --------------------------------------------------------------------------

    def players(self) -> Mapping[str, Callable[[], Player]]:
        """The players that can play it, by name (for `boardgen simulate --player`)."""
        return GENERIC_PLAYERS

    def player_counts(self, layout: LayoutT) -> list[int]:
        """The player counts the check plays."""
        low, high = layout.players
        return list(range(low, high + 1))

    def check_players(self, layout: LayoutT, players: int) -> None:
        """ValueError if the layout cannot be played by `players` players."""
        low, high = layout.players
        if not low <= players <= high:
            raise ValueError(f"{layout.id!r} is for {low} to {high} players, not {players!r}")

    def self_play_seeds(self, seed: int, players: int, games: int) -> Sequence[int]:
        """The seed of each self-play game for a player count, derived from the check's."""
        return game_seeds(seed, games)

    def self_play_lineups(self, layout: LayoutT, players: int) -> Sequence[Lineup]:
        """Who plays the check's games at each player count: by default one lineup, every
        seat a `self_play_player`. An engine may add lineups (route policies, say), each for
        a share of the games; the first stays the one judged per player count."""
        return [Lineup("", (self.self_play_player,) * players)]

    def self_play_figures(
        self, layout: LayoutT, stats: SimulationStats, records: Sequence[GameRecord]
    ) -> dict[str, float]:
        """The ``extra`` figures of one player count's statistics (default: the game's
        events, as a mean per game)."""
        return stats.extra

    def self_play_check(self, sim: SimulationStats, limits: Mapping[str, Any]) -> Check:
        """One player count's statistics as a check."""
        return self_play_check(sim, limits)

    def self_play_checks(self, layout: LayoutT, sims: Sequence[SimulationStats], limits: Mapping[str, Any]) -> Extra:
        """Checks over the self-play of every player count and lineup (none by default)."""
        return Extra()
