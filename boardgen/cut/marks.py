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

The sizes are the machines' data (layouts/machines/*.toml, boardgen.cut.machines).
"""

from __future__ import annotations

from dataclasses import dataclass

from boardgen.cut.machines import MarkSpec, machine

MACHINES = ("silhouette", "cricut", "scanncut", "laser")


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

    clear: float = 0.0  # mm round each mark kept free of print and cuts

    def keep_out(self) -> list[Box]:
        """The zones round each mark where nothing may be printed or cut (mark plus `clear`)."""
        zones = []
        for b in self.boxes:
            zones.append(Box(b.x - self.clear, b.y - self.clear, b.w + 2 * self.clear, b.h + 2 * self.clear))
        for r in self.rings:
            reach = r.r + r.width / 2 + self.clear
            zones.append(Box(r.cx - reach, r.cy - reach, 2 * reach, 2 * reach))
        return zones


def _l_mark(spec: MarkSpec, cx: float, cy: float, sx: int, sy: int) -> tuple[Box, Box]:
    """An L whose outer corner is (cx, cy); its arms run the spec's arm length towards the page's
    inside (sx, sy: +1 right/down, -1 left/up)."""
    arm, thick = spec.arm, spec.thick
    x = cx if sx > 0 else cx - arm
    y = cy if sy > 0 else cy - arm
    horizontal = Box(x, cy if sy > 0 else cy - thick, arm, thick)
    vertical = Box(cx if sx > 0 else cx - thick, y, thick, arm)
    return horizontal, vertical


def silhouette(paper_w: float, paper_h: float, *, four: bool = False) -> Marks:
    key = "silhouette-4" if four else "silhouette"
    spec = _spec(key)
    inset = spec.inset
    left, top, right, bottom = inset, inset, paper_w - inset, paper_h - inset
    boxes = [Box(left, top, spec.arm, spec.arm), *_l_mark(spec, right, top, -1, 1), *_l_mark(spec, left, bottom, 1, -1)]
    if four:
        boxes += _l_mark(spec, right, bottom, -1, -1)
    return Marks(key, tuple(boxes), clear=spec.clear)


def scanncut(paper_w: float, paper_h: float) -> Marks:
    spec = _spec("scanncut")
    c = spec.inset + spec.ring / 2
    rings: list[Ring] = []
    for cx, cy in ((c, c), (paper_w - c, c), (c, paper_h - c), (paper_w - c, paper_h - c)):
        rings += [Ring(cx, cy, (spec.ring - spec.thick) / 2, spec.thick), Ring(cx, cy, spec.dot / 2)]
    return Marks("scanncut", rings=tuple(rings), clear=spec.clear)


def _spec(key: str) -> MarkSpec:
    spec = machine(key).marks
    assert spec is not None, f"{key} prints registration marks"
    return spec


def marks_for(machine_key: str, paper_w: float, paper_h: float) -> Marks:
    """The marks a page for the machine carries (none for Cricut and lasers)."""
    if machine_key == "silhouette":
        return silhouette(paper_w, paper_h)
    if machine_key == "silhouette-4":
        return silhouette(paper_w, paper_h, four=True)
    if machine_key == "scanncut":
        return scanncut(paper_w, paper_h)
    return Marks(machine_key)


def margin_for(machine_key: str) -> float:
    """Room a page's content needs from the paper's edges for the machine's marks and their
    clear ring (Cricut's marks are Design Space's, round the image: none needed)."""
    spec = machine(machine_key).marks
    if spec is None:
        return 0.0
    reach = spec.ring if spec.pattern == "bullseye" else spec.arm
    return spec.inset + reach + spec.clear
