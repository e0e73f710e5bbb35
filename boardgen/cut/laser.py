"""Laying pieces out on a laser's bed: each piece's cut path (kerf compensated) on beds of
W x H mm, in shelves, at least `gap` mm between any two cut paths and from the bed's edges."""

from __future__ import annotations

import re
from collections.abc import Sequence

from boardgen.cut.machines import machine
from boardgen.errors import UsageError
from boardgen.geometry import Placement, kerf
from boardgen.options import BED_MM as BED_MM  # the option's bounds, checked for the Python API too
from boardgen.options import KERF_MM as KERF_MM

_BED = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*[x×]\s*(\d+(?:\.\d+)?)\s*$")


def bed_size(text: str) -> tuple[float, float]:
    """'600x400' (millimetres) -> (600.0, 400.0)."""
    m = _BED.match(text)
    if not m:
        raise UsageError(f"--bed {text!r}: give the laser's bed as WIDTHxHEIGHT in millimetres, e.g. 600x400")
    w, h = float(m.group(1)), float(m.group(2))
    for v in (w, h):
        if not BED_MM[0] <= v <= BED_MM[1]:
            raise UsageError(f"--bed {text!r}: each side must be {BED_MM[0]:g} to {BED_MM[1]:g} mm")
    return w, h


def lay_out(
    outlines: Sequence[Placement], bed: tuple[float, float], *, kerf_mm: float = 0.0, gap: float | None = None
) -> list[list[Placement]]:
    """The pieces' kerf-compensated cut paths on as many beds as they need, tallest first, in
    rows from the bed's top-left; each bed a list of outlines in bed mm (y down)."""
    gap = machine("laser").gap if gap is None else gap
    bed_w, bed_h = bed
    cut = [kerf(o, kerf_mm) for o in outlines]
    for o in cut:
        if o.w + 2 * gap > bed_w + 1e-9 or o.h + 2 * gap > bed_h + 1e-9:
            raise UsageError(
                f"--bed {bed_w:g}x{bed_h:g}: {o.piece} ({o.w:.1f} x {o.h:.1f} mm) does not fit with {gap:g} mm round it"
            )
    order = sorted(range(len(cut)), key=lambda i: (-round(cut[i].h, 3), i))
    beds: list[list[Placement]] = []
    x = y = row_h = 0.0
    current: list[Placement] | None = None
    for i in order:
        o = cut[i]
        if current is not None and x + o.w + gap > bed_w + 1e-9:  # next row
            x, y, row_h = gap, y + row_h + gap, 0.0
        if current is None or y + o.h + gap > bed_h + 1e-9:  # next bed
            current = []
            beds.append(current)
            x, y, row_h = gap, gap, 0.0
        current.append(o.moved(x - o.x, y - o.y))
        x += o.w + gap
        row_h = max(row_h, o.h)
    return beds
