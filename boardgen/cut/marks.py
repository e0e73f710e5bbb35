"""Registration marks each print-and-cut machine reads, as geometry in page mm (origin top-left,
y down): filled rectangles and rings. The cut file of a page is drawn in the same page
coordinates, so the machine that finds the marks finds every outline.

- Silhouette (Cameo, Portrait: Studio's "Type 1" marks): a filled 5 mm square at the top-left
  corner and L marks at the top-right and bottom-left (the 3-mark pattern), or one more L at the
  bottom-right (the 4-mark variant); 5 mm arms, 1 mm thick, their outer corner 10 mm in from
  both edges of the paper.
- ScanNCut: a bullseye (a 1 mm ring 8 mm across round a 3 mm dot) near each corner, its centre
  14 mm in from both edges.
- Cricut Print Then Cut: Design Space prints its own marks round the image: none of ours.
"""

from __future__ import annotations

from dataclasses import dataclass

MACHINES = ("silhouette", "cricut", "scanncut", "laser")
INSET = 10.0  # mm from the paper's edges to a mark's outer corner (Silhouette), a bullseye's box
ARM = 5.0  # length of an L mark's arms, side of the square
THICK = 1.0  # an L mark's arms
BULLSEYE = 8.0  # outer diameter of a ScanNCut bullseye ring
BULLSEYE_DOT = 3.0
CLEAR = 3.0  # mm around a mark kept free of print and cuts: a sensor scans past its edges


@dataclass(frozen=True)
class Box:
    """A filled rectangle, page mm."""

    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True)
class Ring:
    """A stroked circle (`width` mm thick, centred on radius r) or, with width 0, a filled disc."""

    cx: float
    cy: float
    r: float
    width: float = 0.0


@dataclass(frozen=True)
class Marks:
    machine: str
    boxes: tuple[Box, ...] = ()
    rings: tuple[Ring, ...] = ()

    def keep_out(self) -> list[Box]:
        """The zones round each mark where nothing may be printed or cut (mark plus CLEAR)."""
        zones = []
        for b in self.boxes:
            zones.append(Box(b.x - CLEAR, b.y - CLEAR, b.w + 2 * CLEAR, b.h + 2 * CLEAR))
        for r in self.rings:
            reach = r.r + r.width / 2 + CLEAR
            zones.append(Box(r.cx - reach, r.cy - reach, 2 * reach, 2 * reach))
        return zones


def _l_mark(cx: float, cy: float, sx: int, sy: int) -> tuple[Box, Box]:
    """An L whose outer corner is (cx, cy); its arms run ARM mm towards the page's inside
    (sx, sy: +1 right/down, -1 left/up)."""
    x = cx if sx > 0 else cx - ARM
    y = cy if sy > 0 else cy - ARM
    horizontal = Box(x, cy if sy > 0 else cy - THICK, ARM, THICK)
    vertical = Box(cx if sx > 0 else cx - THICK, y, THICK, ARM)
    return horizontal, vertical


def silhouette(paper_w: float, paper_h: float, *, four: bool = False) -> Marks:
    left, top, right, bottom = INSET, INSET, paper_w - INSET, paper_h - INSET
    boxes = [Box(left, top, ARM, ARM), *_l_mark(right, top, -1, 1), *_l_mark(left, bottom, 1, -1)]
    if four:
        boxes += _l_mark(right, bottom, -1, -1)
    return Marks("silhouette-4" if four else "silhouette", tuple(boxes))


def scanncut(paper_w: float, paper_h: float) -> Marks:
    c = INSET + BULLSEYE / 2
    rings: list[Ring] = []
    for cx, cy in ((c, c), (paper_w - c, c), (c, paper_h - c), (paper_w - c, paper_h - c)):
        rings += [Ring(cx, cy, (BULLSEYE - THICK) / 2, THICK), Ring(cx, cy, BULLSEYE_DOT / 2)]
    return Marks("scanncut", rings=tuple(rings))


def marks_for(machine: str, paper_w: float, paper_h: float) -> Marks:
    """The marks a page for `machine` carries (none for Cricut and lasers)."""
    if machine == "silhouette":
        return silhouette(paper_w, paper_h)
    if machine == "silhouette-4":
        return silhouette(paper_w, paper_h, four=True)
    if machine == "scanncut":
        return scanncut(paper_w, paper_h)
    return Marks(machine)


def margin_for(machine: str) -> float:
    """Room a page's content needs from the paper's edges for the machine's marks and their
    clear ring (Cricut's marks are Design Space's, round the image: none needed)."""
    if machine.startswith("silhouette"):
        return INSET + ARM + CLEAR
    if machine == "scanncut":
        return INSET + BULLSEYE + CLEAR
    return 0.0
