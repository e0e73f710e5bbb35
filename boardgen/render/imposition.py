"""Where things go on paper: sheet tiling of boards, grids of cards and tiles, duplex backs.

Pure geometry in millimetres with the origin at the top-left of a page, y pointing down.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace

from boardgen.errors import UsageError

PAPERS = {
    "a4": (210.0, 297.0), "letter": (215.9, 279.4), "a3": (297.0, 420.0),
    "legal": (215.9, 355.6), "tabloid": (279.4, 431.8),
}
_CUSTOM = re.compile(r"^(\d+(?:\.\d+)?)x(\d+(?:\.\d+)?)$")


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    def inset(self, d: float) -> Rect:
        return Rect(self.x + d, self.y + d, self.w - 2 * d, self.h - 2 * d)


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
    match = _CUSTOM.match(key)
    if match:
        w, h = float(match.group(1)), float(match.group(2))
        if min(w, h) < 80:
            raise UsageError(f"paper {spec!r} is too small (at least 80 mm a side)")
        return Paper(key, w, h)
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
    pieces: tuple[Piece, ...]

    def select(self, numbers: tuple[int, ...] | None) -> Tiling:
        """Only the sheets with these 1-based numbers (all of them for None), to reprint some."""
        if numbers is None:
            return self
        missing = [n for n in numbers if not 1 <= n <= len(self.pieces)]
        if missing:
            raise UsageError(f"no sheet {', '.join(map(str, missing))}: this board has "
                             f"{len(self.pieces)} sheets")
        return replace(self, pieces=tuple(p for p in self.pieces if p.index + 1 in numbers))

    @property
    def rows(self) -> int:
        return len(self.seams_y) + 1

    @property
    def cols(self) -> int:
        return len(self.seams_x) + 1


CROSS_OFFSET = 4.0  # registration crosses sit this far outside the shown board area
CROSS_SIZE = 6.0


def tile_board(board_w: float, board_h: float, p: Paper, margin: float, *, style: str = "butt",
               overlap: float = 10.0, orientation: str = "auto",
               zones_x: tuple[tuple[float, float], ...] = (),
               zones_y: tuple[tuple[float, float], ...] = ()) -> Tiling:
    """Split a board across the fewest sheets; seams snap into the allowed zones when they fit."""
    if style not in ("butt", "overlap"):
        raise UsageError(f"unknown joint {style!r}; use butt or overlap")
    g = overlap if style == "overlap" else 0.0
    options = {"portrait": [p], "landscape": [p.turned()], "auto": [p, p.turned()]}
    if orientation not in options:
        raise UsageError(f"unknown orientation {orientation!r}; use auto, portrait or landscape")
    best = None
    for candidate in options[orientation]:
        frame = frame_for(candidate, margin)
        area = frame.content
        if area.w <= g or area.h <= g:
            continue
        cols = max(1, math.ceil((board_w - g) / (area.w - g) - 1e-9))
        rows = max(1, math.ceil((board_h - g) / (area.h - g) - 1e-9))
        key = (cols * rows, 0 if candidate.h >= candidate.w else 1)
        if best is None or key < best[0]:
            best = (key, frame, cols, rows)
    if best is None:
        raise UsageError("the board cannot be tiled with these margins and overlap")
    _, frame, cols, rows = best
    area = frame.content
    seams_x = _seams(board_w, cols, area.w, g, zones_x)
    seams_y = _seams(board_h, rows, area.h, g, zones_y)
    xs = (0.0, *seams_x, board_w)
    ys = (0.0, *seams_y, board_h)
    pieces = []
    for r in range(rows):
        for c in range(cols):
            trim = Rect(xs[c], ys[r], xs[c + 1] - xs[c], ys[r + 1] - ys[r])
            band_x = g if c < cols - 1 else 0.0
            band_y = g if r < rows - 1 else 0.0
            shown = Rect(trim.x, trim.y, trim.w + band_x, trim.h + band_y)
            origin = (area.x + (area.w - shown.w) / 2 - shown.x, area.y + (area.h - shown.h) / 2 - shown.y)
            crosses = []
            for seam_index in (c - 1, c):
                if 0 <= seam_index < cols - 1:
                    sx = seams_x[seam_index]
                    crosses += [(sx, shown.y - CROSS_OFFSET), (sx, shown.bottom + CROSS_OFFSET)]
            for seam_index in (r - 1, r):
                if 0 <= seam_index < rows - 1:
                    sy = seams_y[seam_index]
                    crosses += [(shown.x - CROSS_OFFSET, sy), (shown.right + CROSS_OFFSET, sy)]
            pieces.append(Piece(r, c, rows, cols, trim, shown, origin, tuple(crosses)))
    return Tiling(frame, board_w, board_h, g, style, seams_x, seams_y, tuple(pieces))


def _seams(length: float, parts: int, room: float, g: float,
           zones: tuple[tuple[float, float], ...]) -> tuple[float, ...]:
    """Seam positions: each as near its even share as the zones allow, every piece fitting."""
    even = tuple(length * i / parts for i in range(1, parts))
    if not zones:
        return even
    chosen: list[float] = []
    for i, ideal in enumerate(even):
        previous = chosen[-1] if chosen else 0.0
        options = sorted((_nearest(ideal, lo, hi) for lo, hi in zones), key=lambda s: abs(s - ideal))
        pick = ideal
        for option in options:
            remaining = length - option
            later = parts - i - 1
            fits_here = option - previous + g <= room + 1e-9 and option > previous
            fits_rest = remaining + later * g <= later * room + 1e-9 if later else remaining <= room
            if fits_here and fits_rest:
                pick = option
                break
        chosen.append(pick)
    return tuple(chosen)


def _nearest(value: float, lo: float, hi: float) -> float:
    return min(max(value, lo), hi)


PLACE_NAMES = {"rows": {2: ("up", "down"), 3: ("up", "middle", "down")},
               "cols": {2: ("left", "right"), 3: ("left", "centre", "right")}}


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
        return Rect(self.origin[0] + col * (self.cell_w + self.gap),
                    self.origin[1] + row * (self.cell_h + self.gap), self.cell_w, self.cell_h)


def grid(area: Rect, cell_w: float, cell_h: float, *, gap: float = 0.0, count: int | None = None,
         top: bool = False, what: str = "piece") -> Grid:
    """As many cells as fit the area, centred (or from the top, to leave room below);
    fewer rows when count needs fewer."""
    cols = int((area.w + gap + 1e-9) // (cell_w + gap))
    rows = int((area.h + gap + 1e-9) // (cell_h + gap))
    if cols < 1 or rows < 1:
        raise UsageError(f"a {cell_w:.1f} x {cell_h:.1f} mm {what} does not fit the "
                         f"{area.w:.0f} x {area.h:.0f} mm printable area: use larger paper or smaller margins")
    if count is not None:
        rows = max(1, min(rows, math.ceil(count / cols)))
    used_w = cols * cell_w + (cols - 1) * gap
    used_h = rows * cell_h + (rows - 1) * gap
    y = area.y if top else area.y + (area.h - used_h) / 2
    return Grid(cols, rows, cell_w, cell_h, gap, (area.x + (area.w - used_w) / 2, y))


def back_rect(front: Rect, p: Paper, *, flip: str, offset: tuple[float, float] = (0.0, 0.0)) -> Rect:
    """Where a front's back goes on the following page so the two meet after a duplex flip."""
    dx, dy = offset
    if flip == "long":
        return Rect(p.w - front.right + dx, front.y + dy, front.w, front.h)
    if flip == "short":
        return Rect(front.x + dx, p.h - front.bottom + dy, front.w, front.h)
    raise UsageError(f"unknown flip {flip!r}; use long or short")


def fold_rect(front: Rect, fold_x: float) -> Rect:
    """Mirror a front across a vertical fold line (fold-over backs)."""
    return Rect(2 * fold_x - front.right, front.y, front.w, front.h)
