"""Bounds of every option a user gives (command line or KitOptions): finite numbers in a range
that means something, checked before any work. Each check returns the value or raises a
UsageError saying what is allowed; cli.py turns those into click's usual option errors.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from boardgen.errors import UsageError, quote

if TYPE_CHECKING:
    from boardgen.render.imposition import Paper

# boardgen.render.imposition (the page geometry, a tenth of `boardgen --help`'s CPU) is imported
# where it is used, not here: the command line reads this module's bounds at start.


def stock(kind: str) -> str:
    """'paper' or 'card': what a page of this kind is printed on (boardgen.render.imposition's)."""
    from boardgen.render.imposition import stock as of

    return of(kind)


# The check's one-line verdict for the cover, or what gives it once the check is done (it may
# still be running beside the drawing when the cover is made: see boardgen.processes).
Summary = str | Callable[[], str]


@dataclass(frozen=True)
class KitOptions:
    paper: str = "a4"
    margin: float = 8.0
    theme: str = "classic"
    lang: str = "en"
    seed: int | None = None
    joint: str = "butt"
    overlap: float = 10.0
    orientation: str = "auto"
    backs: str = "duplex"
    flip: str = "long"
    back_offset: tuple[float, float] = (0.0, 0.0)
    board_sheets: tuple[int, ...] | None = None
    only: tuple[str, ...] | None = None  # reprint only these parts and pieces (options.PARTS, PIECES)
    gap: float = 0.0  # mm between cards, tiles and tokens, each with its own crop marks (0: shared cut lines)
    split: bool = False  # the card pages and the paper pages in two files (<kit>-card.pdf, <kit>-paper.pdf)
    stock: str | None = None  # keep only the pages of this stock (how --split makes each of its files)
    previews: bool = True
    preview_dpi: int | None = None  # None: board.png at 150 dpi, pages at 60 (render.preview)
    svg: bool = True
    force: bool = False
    recheck: bool = False  # check the layout again even if its verdict is kept
    check: bool = True  # False (--no-check): no playability check; the cover says the kit is not checked
    strict: bool = False  # accessibility findings are errors, not warnings
    preview_vision: str | None = None  # previews as seen with a colour vision deficiency or in grey
    cut: str | None = None  # cut files for this machine in <kit>/cut/ (cut.marks.MACHINES; issue 22)
    kerf: float = 0.0  # mm a laser's beam takes away: cut paths run half of it outside the trim
    bed: tuple[float, float] = (600.0, 400.0)  # mm, the laser's bed the pieces are laid out on
    large_print: bool = False  # the rules in 18 pt, one column, and an HTML edition beside the PDF (issue 34)
    # Set by cut.make.room_for_cutting for a print-and-cut machine: the margin of the pages of
    # pieces and cards (room for the registration marks; the board keeps `margin`), and the art
    # run past each piece's trim on them.
    piece_margin: float | None = None
    cut_bleed: float = 0.0


def _mm(value: float) -> str:
    return f"{value:g}".replace("-", "m")


def kit_file_name(game: str, options: KitOptions) -> str:
    """The PDF's file name: the game and paper, then every option that changes the printed
    pages and differs from its default, so two variants of a kit never overwrite each other.
    The one place kit names are made (reprints, authoring commands and tests use it)."""
    from boardgen.render.imposition import paper as lookup

    default = KitOptions()
    parts = [game, lookup(options.paper).name, *_drawn_parts(options)]
    if options.orientation != default.orientation:
        parts.append(options.orientation)
    if options.margin != default.margin:
        parts.append(f"margin{_mm(options.margin)}")
    if options.piece_margin is not None:
        parts.append(f"pieces{_mm(options.piece_margin)}")
    if options.joint != default.joint:
        parts.append(options.joint + ("" if options.overlap == default.overlap else _mm(options.overlap)))
    if options.backs != default.backs:
        parts.append({"fold": "fold", "none": "nobacks"}.get(options.backs, options.backs))
    elif options.flip != default.flip:
        parts.append(f"flip{options.flip}")
    if options.backs == "duplex" and options.back_offset != default.back_offset:
        parts.append("offset" + "_".join(_mm(v) for v in options.back_offset))
    if options.gap != default.gap:
        parts.append(f"gap{_mm(options.gap)}")
    if options.large_print:
        parts.append("large-print")
    if options.board_sheets is not None:
        # A reprint of some board sheets gets its own file: it never replaces the whole kit.
        parts.append("sheets-" + "-".join(map(str, options.board_sheets)))
    if options.only is not None:
        only = "only-" + "-".join(options.only)
        if len(only) > 120:  # many single pieces: a file name stays well under the 255 bytes allowed
            import hashlib

            digest = hashlib.sha256(",".join(options.only).encode()).hexdigest()[:10]
            only = f"only-{len(options.only)}-parts-{digest}"
        parts.append(only)
    return re.sub(r"[^A-Za-z0-9._-]+", "_", "-".join(parts)) + ".pdf"


def svg_folder(options: KitOptions) -> str:
    """The kit's SVG folder: `svg` for the default drawings, else named after the options that
    change what is drawn (language, theme, seed: `svg-fr-ink-saver`), so a variant never
    replaces another's SVG files; variants that differ only in paper or print options draw
    the same pieces and share one folder."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", "-".join(["svg", *_drawn_parts(options)]))


def _drawn_parts(options: KitOptions) -> list[str]:
    """The options that change what is drawn on the pieces, where they differ from the default:
    language, theme, seed (one list for file and folder names)."""
    default = KitOptions()
    parts = []
    if options.lang != default.lang:
        parts.append(options.lang)
    if options.theme != default.theme:
        parts.append(Path(options.theme).stem if options.theme.endswith(".toml") else options.theme)
    if options.seed is not None:
        parts.append(f"seed{options.seed}")
    return parts


def split_name(pdf_name: str, which: str) -> str:
    """The file of one stock's pages in a split kit: classic-a4.pdf -> classic-a4-card.pdf."""
    return f"{pdf_name.removesuffix('.pdf')}-{which}.pdf"


# Millimetres. A printer's unprintable margin is 3-10 mm; 30 leaves room for odd printers.
MARGIN_MM = (0.0, 30.0)
# Room between cards, tiles and tokens cut with scissors (0: butted on shared cut lines).
GAP_MM = (0.0, 20.0)
# Width of the glue band of overlap joints.
OVERLAP_MM = (1.0, 40.0)
# A duplex printer's misregistration is a millimetre or two; more than this moves the backs off
# their cards (and, beyond the margin, off the page).
BACK_OFFSET_MM = 10.0
# Custom paper: from 80 mm a side up to A0 (841 x 1189 mm), in either orientation.
PAPER_MIN_MM = 80.0
PAPER_MAX_MM = (841.0, 1189.0)
SEED_MAX = 2**63 - 1
GAMES_MAX = 20_000  # self-play games per player count
PAIRS_MAX = 100_000  # solver pairs
PLAYERS_MAX = 8
SHEETS_MAX = 999  # board sheet numbers (and how many a reprint may list)
# A laser's beam width, and each side of its bed (cut.laser lays the pieces out on it).
KERF_MM = (0.0, 2.0)
BED_MM = (20.0, 3000.0)


def bounded(value: float, low: float, high: float, what: str, unit: str = " mm") -> float:
    """value if it is a finite number in [low, high]."""
    if not math.isfinite(value):
        raise UsageError(f"{what} must be a finite number, got {value!r}")
    if not low <= value <= high:
        raise UsageError(f"{what} must be between {low:g} and {high:g}{unit}, got {value:g}")
    return float(value)


def margin(value: float) -> float:
    return bounded(value, *MARGIN_MM, "the margin")


def overlap(value: float) -> float:
    return bounded(value, *OVERLAP_MM, "the glue band")


def gap(value: float) -> float:
    return bounded(value, *GAP_MM, "the gap")


def back_offset(text: str | None) -> tuple[float, float]:
    """'X,Y' in millimetres, each within BACK_OFFSET_MM of 0."""
    if not text:
        return (0.0, 0.0)
    try:
        x, y = (float(v) for v in text.split(","))
    except ValueError:
        raise UsageError(f"takes X,Y in millimetres, e.g. 0.5,-1; got {quote(text)}") from None
    return (bounded(x, -BACK_OFFSET_MM, BACK_OFFSET_MM, "X"), bounded(y, -BACK_OFFSET_MM, BACK_OFFSET_MM, "Y"))


def sheets(text: str | None) -> tuple[int, ...] | None:
    """'1,3' or '2-4' or '1,3-4': board sheet numbers to reprint."""
    if not text:
        return None
    parts = [part.strip() for part in text.split(",")]
    if len(parts) > SHEETS_MAX or not all(re.fullmatch(r"[0-9]{1,6}(-[0-9]{1,6})?", part) for part in parts):
        raise UsageError(f"takes sheet numbers and ranges like 1,3 or 2-4; got {quote(text)}")
    numbers: set[int] = set()
    for part in parts:
        low, _, high = part.partition("-")
        first, last = int(low), int(high or low)
        if first > last or not (1 <= first and last <= SHEETS_MAX):
            raise UsageError(f"sheet numbers go from 1 to {SHEETS_MAX}, a range from low to high; got {quote(text)}")
        numbers.update(range(first, last + 1))
    return tuple(sorted(numbers))


# What --only can ask for: whole parts of the kit (card backs come with their fronts; `pieces`
# is every loose piece), and single pieces by id, `kind:ID` (`card:book`, `tile:07`,
# `token:5`, `pawn:red`, `block:a6`, `die:1`, `wand:red-1`), as `boardgen show GAME` lists them.
PARTS = (
    "cover",
    "board",
    "tiles",
    "cards",
    "tokens",
    "pawns",
    "pieces",
    "blocks",
    "dice",
    "wands",
    "rules",
    "score-pad",
)
PIECES = {
    "card": "cards",
    "tile": "tiles",
    "token": "tokens",
    "pawn": "pawns",
    "block": "blocks",
    "die": "dice",
    "wand": "wands",
}  # piece kind -> the part it belongs to
# Parts printed on pages of their own kind; the others are loose pieces, packed on "pieces" pages.
PAGE_PARTS = ("cover", "board", "cards", "rules", "score-pad")
PIECE_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")


def parts(text: str | None) -> tuple[str, ...] | None:
    """'board,cards,card:book,tile:07': parts (names from PARTS) and single pieces (`kind:ID`,
    kinds from PIECES) to reprint. Whether the ids exist is the kit's to say
    (kits.reprint.resolve)."""
    if not text:
        return None
    names = [part.strip().lower() for part in text.split(",") if part.strip()]
    if len(names) > SHEETS_MAX:
        raise UsageError(f"--only takes at most {SHEETS_MAX} parts")
    for name in names:
        kind, colon, piece = name.partition(":")
        if colon:
            if kind not in PIECES or not PIECE_ID.fullmatch(piece):
                near = did_you_mean(kind, list(PIECES))
                raise UsageError(
                    f"unknown piece {quote(name)}{near}; single pieces are "
                    + ", ".join(f"{k}:ID" for k in PIECES)
                    + " (`boardgen show GAME` lists the ids)"
                )
        elif name not in PARTS:
            raise UsageError(
                f"unknown part {quote(name)}{did_you_mean(name, list(PARTS))}; parts: "
                f"{', '.join(PARTS)}, " + ", ".join(f"{k}:ID" for k in PIECES)
            )
    if not names:
        raise UsageError(f"unknown part {quote(text)}; parts: {', '.join(PARTS)}")
    whole = sorted({n for n in names if ":" not in n}, key=PARTS.index)
    single = list(dict.fromkeys(n for n in names if ":" in n))
    return tuple(whole + single)


def did_you_mean(asked: str, known: list[str]) -> str:
    """' (did you mean "x"?)' naming the closest of `known`, or '' when none is close."""
    import difflib

    close = difflib.get_close_matches(asked, known, n=1, cutoff=0.6)
    return f" (did you mean {quote(close[0])}?)" if close else ""


@dataclass(frozen=True)
class PlanStep:
    """One line of a kit's print plan: these pages (1-based, in the file they are in) on this
    stock, single- or double-sided, taking `sheets` sheets."""

    stock: str
    pages: tuple[int, ...]
    double: bool
    sheets: int


def print_plan(kinds: list[str], backs: str, *, split: bool = False) -> list[PlanStep]:
    """How a kit's pages are printed, by stock (paper first): single-sided, except card fronts
    followed by their backs (duplex backs), printed double-sided. With `split` the page numbers
    are those of each stock's own file; otherwise of the kit."""
    steps = []
    for which in ("paper", "card"):
        numbered = [(i + 1, kind) for i, kind in enumerate(kinds) if stock(kind) == which]
        if split:
            numbered = [(n, kind) for n, (_, kind) in enumerate(numbered, 1)]
        double = tuple(n for n, kind in numbered if backs == "duplex" and kind in ("cards", "card-backs", "blank"))
        single = tuple(n for n, _ in numbered if n not in double)
        if single:
            steps.append(PlanStep(which, single, False, len(single)))
        if double:
            steps.append(PlanStep(which, double, True, -(-len(double) // 2)))
    return steps


def sheet_counts(kinds: list[str], backs: str) -> dict[str, int]:
    """Sheets of each stock the kit's print plan takes."""
    from boardgen.render.imposition import STOCKS

    counts = dict.fromkeys(STOCKS, 0)
    for step in print_plan(kinds, backs):
        counts[step.stock] += step.sheets
    return counts


def page_kinds(only: tuple[str, ...] | None) -> tuple[str, ...] | None:
    """The kinds of page a reprint keeps: the page parts asked for, and the piece sheets when
    any loose piece is (whole parts or single pieces)."""
    if only is None:
        return None
    kinds = set()
    for name in only:
        kind, colon, _ = name.partition(":")
        part = PIECES[kind] if colon else name
        kinds.add(part if part in PAGE_PARTS else "pieces")
    return tuple(sorted(kinds, key=lambda k: (PARTS + ("pieces",)).index(k)))


def piece_parts(only: tuple[str, ...] | None) -> set[str] | None:
    """The piece kinds (PIECES) a reprint prints whole, or None for a whole kit."""
    if only is None:
        return None
    return {kind for kind, part in PIECES.items() if part in only or ("pieces" in only and part not in PAGE_PARTS)}


def single_pieces(only: tuple[str, ...] | None) -> dict[str, list[str]]:
    """The single pieces asked for, by kind ('card' -> ids), leaving out a kind whose pages are
    asked for whole (`--only cards,card:book` is every card)."""
    wanted: dict[str, list[str]] = {}
    for name in only or ():
        kind, colon, piece = name.partition(":")
        if colon and kind not in (piece_parts(only) or ()):
            wanted.setdefault(kind, []).append(piece)
    return wanted


# What every paper message offers: the named sizes and how to write one's own.
PAPER_HELP = (
    "use a4, letter, a3, legal or tabloid, or WxH with a unit: 210x297mm, 8.5x11in, 21x29.7cm "
    "(a bare WxH is millimetres)"
)


def paper(spec: str) -> Paper:
    """A known paper name or WxH (millimetres, or with a unit: 210x297mm, 8.5x11in, 21x29.7cm),
    from 80 mm a side up to A0. A size too small to be millimetres is most likely inches."""
    from boardgen.render.imposition import _CUSTOM
    from boardgen.render.imposition import paper as lookup

    if len(spec) > 40:
        raise UsageError(f"unknown paper {quote(spec)}; {PAPER_HELP}")
    bare = _CUSTOM.match(spec.lower().strip())
    if bare and not (bare.group(2) or bare.group(4)) and max(float(bare.group(1)), float(bare.group(3))) < PAPER_MIN_MM:
        w, h = bare.group(1), bare.group(3)
        raise UsageError(
            f"paper {quote(spec)} is {w} x {h} mm, too small (at least {PAPER_MIN_MM:g} mm a side): "
            f"sizes without a unit are millimetres. In inches write {w}x{h}in"
            + (" (or letter, 8.5 x 11 in)" if {w, h} == {"8.5", "11"} else "")
            + "; A4 is a4"
        )
    try:
        found = lookup(spec)
    except UsageError as exc:
        if str(exc).startswith("unknown paper"):
            raise UsageError(f"unknown paper {quote(spec)}; {PAPER_HELP}") from None
        raise
    short, long = sorted((found.w, found.h))
    for side in (found.w, found.h):
        if not math.isfinite(side) or side < PAPER_MIN_MM:
            raise UsageError(f"paper {quote(spec)} is too small (at least {PAPER_MIN_MM:g} mm a side); {PAPER_HELP}")
    if short > PAPER_MAX_MM[0] or long > PAPER_MAX_MM[1]:
        raise UsageError(
            f"paper {quote(spec)} is larger than A0 ({PAPER_MAX_MM[0]:g} x {PAPER_MAX_MM[1]:g} mm), "
            "the largest boardgen prints on"
        )
    return found


def seed(value: int) -> int:
    if not 0 <= value <= SEED_MAX:
        raise UsageError(f"the seed must be between 0 and {SEED_MAX}, got {quote(value)}")
    return value


def preview_dpi(value: int) -> int:
    from boardgen.render.preview import MAX_DPI, MIN_DPI

    if isinstance(value, bool) or not isinstance(value, int) or not MIN_DPI <= value <= MAX_DPI:
        raise UsageError(f"the preview resolution goes from {MIN_DPI} to {MAX_DPI} dpi")
    return value


def check_kit_options(options: KitOptions) -> Paper:
    """Every option of a kit, before anything is loaded or drawn; returns the paper."""
    found = paper(options.paper)
    margin(options.margin)
    overlap(options.overlap)
    for value in options.back_offset:
        bounded(value, -BACK_OFFSET_MM, BACK_OFFSET_MM, "the back offset")
    shift = max(abs(value) for value in options.back_offset)
    if options.backs == "duplex" and shift > options.margin:
        # Everything printed stays inside the margins; a larger shift pushes the backs off the paper.
        raise UsageError(
            f"a back offset of {shift:g} mm moves the card backs past the {options.margin:g} mm margin "
            "and off the paper: use a smaller offset or a larger --margin"
        )
    if options.seed is not None:
        seed(options.seed)
    if options.preview_dpi is not None:
        preview_dpi(options.preview_dpi)
    if options.board_sheets is not None and not all(1 <= n <= SHEETS_MAX for n in options.board_sheets):
        raise UsageError(f"board sheet numbers go from 1 to {SHEETS_MAX}")
    if options.only is not None:
        parts(",".join(options.only))
        if options.board_sheets is not None:
            raise UsageError("give --sheets (board sheets) or --only (kinds of page), not both")
    gap(options.gap)
    bounded(options.kerf, *KERF_MM, "the kerf (--kerf)")
    for side in options.bed:
        bounded(side, *BED_MM, "each side of the laser bed (--bed)")
    if options.split and (options.only is not None or options.board_sheets is not None):
        raise UsageError("--split writes a whole kit in two files: give it without --only or --sheets")
    return found
