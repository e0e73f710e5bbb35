"""The cutting machines as data: ``layouts/machines/<key>.toml`` (checked against
``layouts/schema/machine.schema.json``) gives each machine's name, the files it reads, its
registration marks' geometry, a Cricut mat's image limit and a laser bed's gap. The code here
draws each pattern; its sizes and limits are read from those files."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from boardgen.data.loader import Document, display_path, read_toml, validate_with
from boardgen.data.paths import layouts_root
from boardgen.data.toml_lines import key_lines
from boardgen.errors import UsageError


@dataclass(frozen=True)
class MarkSpec:
    """Registration marks: `pattern` (silhouette, silhouette-4, bullseye) and their sizes, mm."""

    pattern: str
    inset: float
    thick: float
    clear: float
    arm: float = 0.0
    ring: float = 0.0
    dot: float = 0.0


@dataclass(frozen=True)
class Mat:
    """A print-then-cut image: at most w x h mm, at `dpi`, `margin` mm of transparent room round
    its pieces, `gap` mm between two of them."""

    w: float
    h: float
    dpi: int
    margin: float
    gap: float = 0.0


@dataclass(frozen=True)
class Machine:
    key: str
    name: str
    files: str  # page-dxf, page-svg, mats or beds
    marks: MarkSpec | None = None
    mat: Mat | None = None
    gap: float = 0.0  # beds: between cut paths
    bleed: float = 0.0  # printed pages: art run past each piece's trim


def _machine(key: str, data: dict[str, Any]) -> Machine:
    table = data["machine"]
    marks = data.get("marks")
    mat = data.get("mat")
    spec = (
        None
        if marks is None
        else MarkSpec(
            marks["pattern"],
            float(marks["inset_mm"]),
            float(marks["thick_mm"]),
            float(marks["clear_mm"]),
            float(marks.get("arm_mm", 0.0)),
            float(marks.get("ring_mm", 0.0)),
            float(marks.get("dot_mm", 0.0)),
        )
    )
    sheet = (
        None
        if mat is None
        else Mat(
            float(mat["width_mm"]),
            float(mat["height_mm"]),
            int(mat["dpi"]),
            float(mat["margin_mm"]),
            float(mat.get("gap_mm", 0.0)),
        )
    )
    return Machine(
        key,
        table["name"],
        table["files"],
        spec,
        sheet,
        float(data.get("bed", {}).get("gap_mm", 0.0)),
        float(table.get("bleed_mm", 0.0)),
    )


@cache
def machines() -> dict[str, Machine]:
    """Every machine by key (the file's name)."""
    out = {}
    for path in sorted((layouts_root() / "machines").glob("*.toml")):
        data, text = read_toml(path)
        validate_with("machine", Document(path.stem, display_path(path), data, key_lines(text)))
        out[path.stem] = _machine(path.stem, data)
    return out


def machine(key: str) -> Machine:
    known = machines()
    if key not in known:
        raise UsageError(f"unknown cutting machine {key!r}; machines: {', '.join(known)}")
    return known[key]
