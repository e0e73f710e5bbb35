"""Where things go on paper: sheet tiling of boards, grids of cards and tiles, duplex backs.

Pure geometry in millimetres with the origin at the top-left of a page, y pointing down.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from boardgen.errors import UsageError
from boardgen.geometry import Rect

PAPERS = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
    "a3": (297.0, 420.0),
    "legal": (215.9, 355.6),
    "tabloid": (279.4, 431.8),
}
# WxH, in millimetres unless a unit follows (after the pair, or after each number).
# The stock each kind of page is printed on: paper (80 g) for what is read or written on, card
# (250-300 g) for every piece that is cut out. A page never mixes the two.
PAPER_PAGES = ("cover", "rules", "score-pad")
STOCKS = ("card", "paper")


def stock(kind: str) -> str:
    """'paper' or 'card': what a page of this kind is printed on."""
    return "paper" if kind in PAPER_PAGES else "card"


_CUSTOM = re.compile(r"^(\d+(?:\.\d+)?)\s*(mm|cm|in)?\s*[x×]\s*(\d+(?:\.\d+)?)\s*(mm|cm|in)?$")
UNITS_MM = {"mm": 1.0, "cm": 10.0, "in": 25.4}


@dataclass(frozen=True)
class FreeArea(Rect):
    """Room beside a board part for other pieces. A butted block placed there keeps its crop
    marks out of the first `keep_left` mm, where the board's "joins ..." label stands."""

    keep_left: float = 0.0


@dataclass(frozen=True)
class Paper:
    name: str
    w: float
    h: float

    def turned(self) -> Paper:
        return Paper(self.name, self.h, self.w)


def paper(spec: str) -> Paper:
    """'a4', 'letter', ... or a custom 'WxH' in millimetres (portrait as given)."""
    key = spec.lower()
    if key in PAPERS:
        return Paper(key, *PAPERS[key])
    match = _CUSTOM.match(key.strip())
    if match:
        first, second = match.group(2), match.group(4)
        if first and second and first != second:
            raise UsageError(f"paper {spec!r} mixes units; write both sides in one, e.g. 210x297mm or 8.5x11in")
        scale = UNITS_MM[second or first or "mm"]
        w, h = float(match.group(1)) * scale, float(match.group(3)) * scale
        if min(w, h) < 80:
            raise UsageError(
                f"paper {spec!r} is {w:g} x {h:g} mm, too small (at least 80 mm a side); a4 and letter are named sizes"
            )
        return Paper(re.sub(r"\s+", "", key).replace("×", "x"), round(w, 2), round(h, 2))
    raise UsageError(f"unknown paper {spec!r}; use one of {', '.join(PAPERS)} or WxH in mm, e.g. 300x400")


@dataclass(frozen=True)
class PageFrame:
    """The zones of a page: margin (never printed on), header, footer, mark ring, content."""

    paper: Paper
    margin: float
    header: float = 11.0
    footer: float = 13.0
    marks: float = 8.0

    @property
    def window(self) -> Rect:
        """Everything printed stays inside this rectangle."""
        m = self.margin
        return Rect(m, m, self.paper.w - 2 * m, self.paper.h - 2 * m)

    @property
    def header_rect(self) -> Rect:
        win = self.window
        return Rect(win.x, win.y, win.w, self.header)

    @property
    def footer_rect(self) -> Rect:
        win = self.window
        return Rect(win.x, win.bottom - self.footer, win.w, self.footer)

    @property
    def marked(self) -> Rect:
        """Between header and footer: the content plus the ring where crop marks go."""
        win = self.window
        return Rect(win.x, win.y + self.header, win.w, win.h - self.header - self.footer)

    @property
    def content(self) -> Rect:
        return self.marked.inset(self.marks)


def frame_for(p: Paper, margin: float) -> PageFrame:
    frame = PageFrame(p, margin)
    if frame.content.w < 40 or frame.content.h < 40:
        raise UsageError(f"a {margin} mm margin leaves no room on {p.name} paper")
    return frame


# Boards across sheets -------------------------------------------------------------------------


@dataclass(frozen=True)
class Piece:
    """One sheet's share of a tiled board (board coordinates, mm)."""

    row: int
    col: int
    rows: int
    cols: int
    trim: Rect  # what remains after cutting on the seams
    shown: Rect  # trim plus the glue band(s) this sheet carries
    origin: tuple[float, float]  # page position of board point (0, 0)
    crosses: tuple[tuple[float, float], ...]  # registration crosses, board coordinates

    @property
    def index(self) -> int:
        return self.row * self.cols + self.col

    def to_page(self, bx: float, by: float) -> tuple[float, float]:
        return self.origin[0] + bx, self.origin[1] + by

    @property
    def page_rect(self) -> Rect:
        x, y = self.to_page(self.shown.x, self.shown.y)
        return Rect(x, y, self.shown.w, self.shown.h)


@dataclass(frozen=True)
class Tiling:
    frame: PageFrame
    board_w: float
    board_h: float
    overlap: float
    style: str  # "butt" or "overlap"
    seams_x: tuple[float, ...]
    seams_y: tuple[float, ...]
    pieces: tuple[Piece, ...]  # the sheets to print
    every: tuple[Piece, ...] = ()  # all the board's sheets (neighbours of a reprinted sheet)
    warnings: tuple[str, ...] = ()  # seams that had to cross art, in words

    def select(self, numbers: tuple[int, ...] | None) -> Tiling:
        """Only the sheets with these 1-based numbers (all of them for None), to reprint some."""
        if numbers is None:
            return self
        every = self.every or self.pieces
        missing = [n for n in numbers if not 1 <= n <= len(every)]
        if missing:
            raise UsageError(f"no sheet {', '.join(map(str, missing))}: this board has {len(every)} sheets")
        return replace(self, pieces=tuple(p for p in every if p.index + 1 in numbers), every=every)

    @property
    def rows(self) -> int:
        return len(self.seams_y) + 1

    @property
    def cols(self) -> int:
        return len(self.seams_x) + 1

    def piece_at(self, row: int, col: int) -> Piece | None:
        for piece in self.every or self.pieces:
            if (piece.row, piece.col) == (row, col):
                return piece
        return None


CROSS_OFFSET = 4.0  # registration crosses sit this far outside the board's outer edge
CROSS_SIZE = 6.0

Describe = Callable[[str, float], str]  # ("x" or "y", seam position in mm) -> what it cuts


def tile_board(
    board_w: float,
    board_h: float,
    p: Paper,
    margin: float,
    *,
    style: str = "butt",
    overlap: float = 10.0,
    orientation: str = "auto",
    zones_x: tuple[tuple[float, float], ...] = (),
    zones_y: tuple[tuple[float, float], ...] = (),
    describe: Describe | None = None,
) -> Tiling:
    """Split a board across the fewest sheets, seams inside the allowed zones.

    Among the arrangements with the fewest sheets (portrait or landscape, as allowed) the first
    whose seams all fit the zones wins; when none does, the even split is used and `warnings`
    names every seam that crosses art."""
    if style not in ("butt", "overlap"):
        raise UsageError(f"unknown joint {style!r}; use butt or overlap")
    g = overlap if style == "overlap" else 0.0
    options = {"portrait": [p], "landscape": [p.turned()], "auto": [p, p.turned()]}
    if orientation not in options:
        raise UsageError(f"unknown orientation {orientation!r}; use auto, portrait or landscape")
    candidates = []
    for candidate in options[orientation]:
        frame = frame_for(candidate, margin)
        area = frame.content
        if area.w <= g or area.h <= g:
            continue
        cols = max(1, math.ceil((board_w - g) / (area.w - g) - 1e-9))
        rows = max(1, math.ceil((board_h - g) / (area.h - g) - 1e-9))
        key = (cols * rows, 0 if candidate.h >= candidate.w else 1)
        candidates.append((key, frame, cols, rows))
    if not candidates:
        raise UsageError("the board cannot be tiled with these margins and overlap")
    candidates.sort(key=lambda item: item[0])
    fewest = [c for c in candidates if c[0][0] == candidates[0][0][0]]
    chosen: tuple[PageFrame, int, int, tuple[float, ...], tuple[float, ...], tuple[str, ...]] | None = None
    for _, frame, cols, rows in fewest:
        sx = _seams(board_w, cols, frame.content.w, g, zones_x)
        sy = _seams(board_h, rows, frame.content.h, g, zones_y)
        if sx is not None and sy is not None:
            chosen = (frame, cols, rows, sx, sy, ())
            break
    if chosen is None:
        _, frame, cols, rows = fewest[0]
        sx = _seams(board_w, cols, frame.content.w, g, zones_x)
        sy = _seams(board_h, rows, frame.content.h, g, zones_y)
        warnings: list[str] = []
        if sx is None:
            sx = _even(board_w, cols)
            warnings += [_cut_warning("x", s, describe) for s in sx if not _inside(s, zones_x)]
        if sy is None:
            sy = _even(board_h, rows)
            warnings += [_cut_warning("y", s, describe) for s in sy if not _inside(s, zones_y)]
        chosen = (frame, cols, rows, sx, sy, tuple(warnings))
    frame, cols, rows, seams_x, seams_y, notes = chosen
    area = frame.content
    xs = (0.0, *seams_x, board_w)
    ys = (0.0, *seams_y, board_h)
    pieces = []
    for r in range(rows):
        for c in range(cols):
            trim = Rect(xs[c], ys[r], xs[c + 1] - xs[c], ys[r + 1] - ys[r])
            band_x = g if c < cols - 1 else 0.0
            band_y = g if r < rows - 1 else 0.0
            shown = Rect(trim.x, trim.y, trim.w + band_x, trim.h + band_y)
            # Top-left in the content area: the space left below or beside it takes pieces.
            origin = (area.x - shown.x, area.y - shown.y)
            # Crosses only where a seam meets the board's outer edge: there they are on paper
            # that no seam cut removes, so they survive until the sheets are joined.
            crosses: list[tuple[float, float]] = []
            for seam_index in (c - 1, c):
                if 0 <= seam_index < cols - 1:
                    at_x = seams_x[seam_index]
                    if r == 0:
                        crosses.append((at_x, -CROSS_OFFSET))
                    if r == rows - 1:
                        crosses.append((at_x, board_h + CROSS_OFFSET))
            for seam_index in (r - 1, r):
                if 0 <= seam_index < rows - 1:
                    at_y = seams_y[seam_index]
                    if c == 0:
                        crosses.append((-CROSS_OFFSET, at_y))
                    if c == cols - 1:
                        crosses.append((board_w + CROSS_OFFSET, at_y))
            pieces.append(Piece(r, c, rows, cols, trim, shown, origin, tuple(crosses)))
    return Tiling(frame, board_w, board_h, g, style, seams_x, seams_y, tuple(pieces), tuple(pieces), notes)


def _even(length: float, parts: int) -> tuple[float, ...]:
    return tuple(length * i / parts for i in range(1, parts))


def _inside(value: float, zones: tuple[tuple[float, float], ...]) -> bool:
    return not zones or any(lo - 1e-6 <= value <= hi + 1e-6 for lo, hi in zones)


def _cut_warning(axis: str, seam: float, describe: Describe | None) -> str:
    where = "vertical seam" if axis == "x" else "horizontal seam"
    edge = "left" if axis == "x" else "top"
    what = describe(axis, seam) if describe else "the board's art"
    return (
        f"the {where} {seam:.1f} mm from the board's {edge} edge cuts through {what}: no seam "
        "position avoids the art with this paper, margin and joint"
    )


def _seams(
    length: float, parts: int, room: float, g: float, zones: tuple[tuple[float, float], ...]
) -> tuple[float, ...] | None:
    """Seam positions with every piece fitting `room` (a piece carries a glue band g unless it is
    the last), each seam inside a zone and as near its even share as possible; None when no
    choice of zones fits."""
    even = _even(length, parts)
    if not zones:
        return even if parts == 1 or max(_widths(even, length, g)) <= room + 1e-9 else None

    @functools.cache
    def search(i: int, previous: float) -> tuple[float, ...] | None:
        if i == parts - 1:
            return () if length - previous <= room + 1e-9 else None
        later = parts - i - 1  # pieces after this seam; only the last has no band
        options = sorted({_nearest(even[i], lo, hi) for lo, hi in zones}, key=lambda s: (abs(s - even[i]), s))
        for option in options:
            if option <= previous or option - previous + g > room + 1e-9:
                continue
            if length - option + (later - 1) * g > later * room + 1e-9:
                continue
            rest = search(i + 1, option)
            if rest is not None:
                return (option, *rest)
        # The nearest point of a zone may not fit while another point of it does: try the
        # point of each zone closest to the furthest this piece can reach.
        reach = previous + room - g
        for lo, hi in zones:
            option = min(hi, reach)
            if option < lo or option <= previous:
                continue
            if length - option + (later - 1) * g > later * room + 1e-9:
                continue
            rest = search(i + 1, option)
            if rest is not None:
                return (option, *rest)
        return None

    return search(0, 0.0)


def _widths(seams: tuple[float, ...], length: float, g: float) -> list[float]:
    edges = (0.0, *seams, length)
    return [edges[k + 1] - edges[k] + (g if k < len(seams) else 0.0) for k in range(len(edges) - 1)]


def _nearest(value: float, lo: float, hi: float) -> float:
    return min(max(value, lo), hi)


PLACE_NAMES = {
    "rows": {2: ("up", "down"), 3: ("up", "middle", "down")},
    "cols": {2: ("left", "right"), 3: ("left", "centre", "right")},
}


def place_keys(piece: Piece) -> tuple[str, ...]:
    """Words naming a sheet's place: ('up', 'left'), or () when the grid is larger than 3x3."""
    rows = PLACE_NAMES["rows"].get(piece.rows, ())
    cols = PLACE_NAMES["cols"].get(piece.cols, ())
    out = []
    if piece.rows > 1:
        if not rows:
            return ()
        out.append(rows[piece.row])
    if piece.cols > 1:
        if not cols:
            return ()
        out.append(cols[piece.col])
    return tuple(out)


# Grids of cards, tiles and pieces ---------------------------------------------------------


@dataclass(frozen=True)
class Grid:
    cols: int
    rows: int
    cell_w: float
    cell_h: float
    gap: float
    origin: tuple[float, float]

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    def cell(self, index: int) -> Rect:
        row, col = divmod(index, self.cols)
        return Rect(
            self.origin[0] + col * (self.cell_w + self.gap),
            self.origin[1] + row * (self.cell_h + self.gap),
            self.cell_w,
            self.cell_h,
        )


def grid(
    area: Rect,
    cell_w: float,
    cell_h: float,
    *,
    gap: float = 0.0,
    count: int | None = None,
    top: bool = False,
    what: str = "piece",
) -> Grid:
    """As many cells as fit the area, centred (or from the top, to leave room below);
    fewer rows when count needs fewer."""
    cols = int((area.w + gap + 1e-9) // (cell_w + gap))
    rows = int((area.h + gap + 1e-9) // (cell_h + gap))
    if cols < 1 or rows < 1:
        raise UsageError(
            f"a {cell_w:.1f} x {cell_h:.1f} mm {what} does not fit the "
            f"{area.w:.0f} x {area.h:.0f} mm printable area: use larger paper or smaller margins"
        )
    if count is not None:
        rows = max(1, min(rows, math.ceil(count / cols)))
    used_w = cols * cell_w + (cols - 1) * gap
    used_h = rows * cell_h + (rows - 1) * gap
    y = area.y if top else area.y + (area.h - used_h) / 2
    return Grid(cols, rows, cell_w, cell_h, gap, (area.x + (area.w - used_w) / 2, y))


MARK_GAP = 1.0  # crop marks start this far from the trim line
MARK_LEN = 5.0
CROP_RING = MARK_GAP + MARK_LEN  # room crop marks take outside what they mark


Mark = tuple[float, float, float, float]  # x1, y1 (the end nearest its piece), x2, y2


def mark_segments(trims: list[Rect], shared: bool, *, reach: float = 0.0) -> list[Mark]:
    """Crop marks of pieces cut on straight lines: for a butted grid (`shared`), every cut line
    extended outside the grid; otherwise two marks at each corner of each piece. `reach`
    lengthens them past a bleed."""
    out: list[Mark] = []
    a, b = MARK_GAP, MARK_GAP + MARK_LEN + reach
    if shared:
        # Each cut line extended past the last piece on it, at both ends (a partial last row
        # ends its lines where its pieces do).
        for x in sorted({round(v, 4) for t in trims for v in (t.x, t.right)}):
            on = [t for t in trims if abs(t.x - x) < 1e-3 or abs(t.right - x) < 1e-3]
            y0, y1 = min(t.y for t in on), max(t.bottom for t in on)
            out += [(x, y0 - a, x, y0 - b), (x, y1 + a, x, y1 + b)]
        for y in sorted({round(v, 4) for t in trims for v in (t.y, t.bottom)}):
            on = [t for t in trims if abs(t.y - y) < 1e-3 or abs(t.bottom - y) < 1e-3]
            x0, x1 = min(t.x for t in on), max(t.right for t in on)
            out += [(x0 - a, y, x0 - b, y), (x1 + a, y, x1 + b, y)]
        return out
    for t in trims:
        for x in (t.x, t.right):
            out += [(x, t.y - a, x, t.y - b), (x, t.bottom + a, x, t.bottom + b)]
        for y in (t.y, t.bottom):
            out += [(t.x - a, y, t.x - b, y), (t.right + a, y, t.right + b, y)]
    return out


CLEAR = 0.4  # mm a crop mark keeps from any piece


def clip_marks(segments: list[Mark], pieces: list[Rect]) -> list[Mark]:
    """Each mark (from its start near its own piece, outwards) cut short where it would reach
    another piece; marks left shorter than a millimetre are dropped, and repeated ones too."""
    out: dict[tuple[float, ...], Mark] = {}
    for x1, y1, x2, y2 in segments:
        length = abs(x2 - x1) + abs(y2 - y1)
        dx, dy = (x2 - x1) / length, (y2 - y1) / length
        reach = length
        for r in pieces:
            box = r.inset(-CLEAR)
            if dx:  # horizontal
                if not box.y <= y1 <= box.bottom:
                    continue
                enter = (box.x - x1) / dx if dx > 0 else (box.right - x1) / dx
                leave = (box.right - x1) / dx if dx > 0 else (box.x - x1) / dx
            else:
                if not box.x <= x1 <= box.right:
                    continue
                enter = (box.y - y1) / dy if dy > 0 else (box.bottom - y1) / dy
                leave = (box.bottom - y1) / dy if dy > 0 else (box.y - y1) / dy
            if leave < 0:
                continue
            reach = min(reach, max(enter, 0.0))
        if reach >= 1.0:
            segment = (x1, y1, x1 + dx * reach, y1 + dy * reach)
            out.setdefault(tuple(round(v, 3) for v in segment), segment)
    return list(out.values())


@dataclass(frozen=True)
class CardGrid:
    """Cards on a grid: butted edge to edge (`gap` 0: one cut serves two neighbours, bleed only
    around the block) or `gap` apart (each card its own cut, half the gap of bleed between).

    Cells are trim rectangles on the page; a turned grid holds the cards rotated 90 degrees.
    With fold-over backs (`fold`) each cell's back lies just right of it, mirrored across the
    fold line they share: the grid's columns come in front/back pairs."""

    cols: int
    rows: int
    trim_w: float  # of a cell on the page (card height when turned)
    trim_h: float
    bleed: float
    origin: tuple[float, float]  # top-left of the first trim cell
    turned: bool
    fold: bool = False
    gap: float = 0.0

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    def cells(self, count: int) -> list[tuple[Rect, Rect]]:
        """(trim, clip) of the first `count` fronts; the clip adds the bleed on the sides with no
        neighbouring card (half the gap, at most the bleed, beside one), so a card's bleed never
        covers the next card; a fold-over front has none on its fold."""
        n = min(count, self.per_page)
        out = []
        b = self.bleed
        inner = min(b, self.gap / 2)
        step_x = self.trim_w * (2 if self.fold else 1) + self.gap
        for i in range(n):
            r, c = divmod(i, self.cols)
            trim = Rect(
                self.origin[0] + c * step_x, self.origin[1] + r * (self.trim_h + self.gap), self.trim_w, self.trim_h
            )
            left = b if c == 0 else inner
            top = b if r == 0 else inner
            right = 0.0 if self.fold else (b if c == self.cols - 1 or i + 1 >= n else inner)
            bottom = b if i + self.cols >= n else inner
            out.append((trim, Rect(trim.x - left, trim.y - top, trim.w + left + right, trim.h + top + bottom)))
        return out

    def backs(self, count: int) -> list[tuple[Rect, Rect]]:
        """(trim, clip) of the fold-over backs of the first `count` fronts (fold only)."""
        out = []
        n = min(count, self.per_page)
        b, inner = self.bleed, min(self.bleed, self.gap / 2)
        for i, (trim, clip) in enumerate(self.cells(count)):
            c = i % self.cols
            right = b if c == self.cols - 1 or i + 1 >= n else inner
            back = Rect(trim.right, trim.y, trim.w, trim.h)
            out.append((back, Rect(back.x, clip.y, back.w + right, clip.h)))
        return out

    def pieces(self, count: int) -> list[Rect]:
        """What is cut out, card by card: the front, or front and back together (fold)."""
        return [Rect(t.x, t.y, t.w * (2 if self.fold else 1), t.h) for t, _ in self.cells(count)]

    def block(self, count: int) -> Rect:
        """The trimmed block of the first `count` cards (without the outer bleed)."""
        cells = self.pieces(count)
        x0, y0 = min(c.x for c in cells), min(c.y for c in cells)
        return Rect(x0, y0, max(c.right for c in cells) - x0, max(c.bottom for c in cells) - y0)


BOARD_CLEARANCE = 8.0  # around a board part: past its crop marks, neighbour labels and crosses


def free_areas(area: Rect, shown: Rect) -> tuple[Rect, FreeArea]:
    """The room below and beside a board part on its sheet that other pieces may take; a
    butted block beside it keeps its own crop marks (CROP_RING long) off the neighbour label."""
    clear = BOARD_CLEARANCE
    below = Rect(area.x, shown.bottom + clear, area.w, area.bottom - shown.bottom - clear)
    beside = FreeArea(
        shown.right + clear, area.y, area.right - shown.right - clear, shown.bottom - area.y, keep_left=CROP_RING
    )
    return below, beside


MIN_CARD_GAP = 0.5  # mm: a --gap is narrowed no further than this to save a sheet (each card keeps its marks)


def card_grid(
    frame: PageFrame,
    card_w: float,
    card_h: float,
    bleed: float,
    *,
    fold: bool = False,
    gap: float = 0.0,
    count: int | None = None,
) -> CardGrid:
    """The most cards a page holds, upright or turned (upright on a tie), from the top of the
    area inside the crop-mark ring, centred across. `card_w`/`card_h` are trim sizes; with
    `fold` each card takes its back beside it. For `count` cards, a `gap` that would leave one
    card alone on a last sheet (a whole sheet, and its back, for one card) is narrowed, down to
    MIN_CARD_GAP, until the cards take a sheet fewer."""
    grid = _card_grid(frame, card_w, card_h, bleed, fold=fold, gap=gap)
    if count is None or gap <= MIN_CARD_GAP or count % grid.per_page != 1 or count == 1:
        return grid
    sheets = -(-count // grid.per_page)
    steps = int(round((gap - MIN_CARD_GAP) / 0.05))
    for k in range(1, steps + 1):
        narrower = _card_grid(frame, card_w, card_h, bleed, fold=fold, gap=round(gap - 0.05 * k, 3))
        if -(-count // narrower.per_page) < sheets:
            return narrower
    return grid


def _card_grid(frame: PageFrame, card_w: float, card_h: float, bleed: float, *, fold: bool, gap: float) -> CardGrid:
    area = frame.marked.inset(CROP_RING)
    best: tuple[int, CardGrid] | None = None
    for turned in (False, True):
        tw, th = (card_h, card_w) if turned else (card_w, card_h)
        pw = 2 * tw if fold else tw
        cols = int((area.w - 2 * bleed + gap + 1e-9) // (pw + gap))
        rows = int((area.h - 2 * bleed + gap + 1e-9) // (th + gap))
        if cols < 1 or rows < 1:
            continue
        x = area.x + (area.w - cols * pw - (cols - 1) * gap) / 2
        candidate = CardGrid(cols, rows, tw, th, bleed, (x, area.y + bleed), turned, fold, gap)
        if best is None or candidate.per_page > best[0]:
            best = (candidate.per_page, candidate)
    if best is None:
        raise UsageError(
            f"a {card_w:.1f} x {card_h:.1f} mm card (with {bleed:g} mm bleed) does not fit the "
            f"{area.w:.0f} x {area.h:.0f} mm printable area: use larger paper or smaller margins"
        )
    return best[1]


def back_rect(front: Rect, p: Paper, *, flip: str, offset: tuple[float, float] = (0.0, 0.0)) -> Rect:
    """Where a front's back goes on the following page so the two meet after a duplex flip.

    `offset` (x, y) in mm moves the backs as seen from the front, looking through the sheet:
    +x to the right, +y down, whatever the flip edge."""
    dx, dy = offset
    if flip == "long":
        return Rect(p.w - front.right - dx, front.y + dy, front.w, front.h)
    if flip == "short":
        return Rect(front.x + dx, p.h - front.bottom - dy, front.w, front.h)
    raise UsageError(f"unknown flip {flip!r}; use long or short")


_SVG_TAG = re.compile(r"<svg\b[^>]*>")
_SVG_WIDTH = re.compile(r'\swidth="([0-9.]+)mm"')
_SVG_HEIGHT = re.compile(r'\sheight="([0-9.]+)mm"')


def svg_size(svg: str) -> tuple[float, float] | None:
    """The (width, height) in mm of one of boardgen's drawings, read from its <svg> tag; None
    when the tag gives no size in millimetres."""
    tag = _SVG_TAG.search(svg[:2000])
    if tag is None:
        return None
    width, height = _SVG_WIDTH.search(tag.group(0)), _SVG_HEIGHT.search(tag.group(0))
    if width is None or height is None:
        return None
    try:
        return float(width.group(1)), float(height.group(1))
    except ValueError:
        return None
