"""What each print service takes, as data: one TOML file a service, ``layouts/services/<key>.toml``
for the bundled ones and ``$XDG_DATA_HOME/boardgen/services/<key>.toml`` (by default
``~/.local/share/boardgen/services/``) for the user's own, checked against
``layouts/schema/service.schema.json``: the card sizes it prints (its name for each and a face's
pixels), the bleed round each face, the resolution, the safe zone, its die's card corner, how
faces are supplied (one PNG a face, one PDF a deck, or press sheets of every piece), the total
ink limit and PDF/X version of its CMYK files. Adding a service is adding a file.

Sizes are boardgen's card size names (`model.sliding.CARD_SIZES`); a layout whose cards are
another size is refused with the sizes the service does print.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from boardgen.data.loader import Document, display_path, read_toml, validate_with
from boardgen.data.paths import layouts_root
from boardgen.data.toml_lines import key_lines
from boardgen.errors import UsageError

INCH = 25.4
_KEY = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
MAX_SERVICES = 200  # files read from a folder at the most


@dataclass(frozen=True)
class Service:
    key: str
    name: str
    # boardgen card size name -> the service's own name for it and the face's size in pixels
    # (trim and bleed at the service's resolution, as the service publishes it)
    sizes: dict[str, tuple[str, tuple[int, int]]]
    bleed_mm: float
    dpi: int
    safe_mm: float  # text and art that matter stay this far inside the trim
    faces: str  # "png": one image a face; "pdf": one PDF a deck; "press": PDF/X sheets of every piece
    ink_limit: int | None = None  # total ink, percent, at any point (CMYK files)
    corner_mm: float = 0.0  # the corner radius its die cuts cards with
    pdfx: str = "PDF/X-3:2002"  # faces pdf and press: the PDF/X version its files are made to
    url_hint: str = ""
    source: str = field(default="", compare=False)  # the file it was read from

    def pixels(self, size: str | None, trim: tuple[float, float]) -> tuple[int, int]:
        """A face's size in pixels: the service's published size for a card size it prints,
        else trim plus bleed on every side at its resolution."""
        if size in self.sizes:
            return self.sizes[size][1]
        w, h = ((side + 2 * self.bleed_mm) / INCH * self.dpi for side in trim)
        return round(w), round(h)


def user_folder() -> Path:
    """Where the user's own services are: $XDG_DATA_HOME/boardgen/services (an absolute
    XDG_DATA_HOME only, as the XDG specification says), else ~/.local/share/boardgen/services."""
    base = os.environ.get("XDG_DATA_HOME", "")
    root = Path(base) if base and os.path.isabs(base) else Path.home() / ".local" / "share"
    return root / "boardgen" / "services"


def _files(folder: Path) -> list[Path]:
    try:
        found = sorted(p for p in folder.glob("*.toml") if p.is_file() and not p.is_symlink())
    except OSError:
        return []
    return found[:MAX_SERVICES]


def _service(path: Path) -> Service:
    """One service file, checked against its schema (every problem named with file, key, line)."""
    key = path.stem
    shown = display_path(path)
    if not _KEY.match(key):
        raise UsageError(
            f"{shown}: a service's file name is its key for --for: lower-case letters, digits, '-' and '_', at most 40"
        )
    data, text = read_toml(path)
    validate_with("service", Document(key, shown, data, key_lines(text)))
    table: dict[str, Any] = data["service"]
    sizes = {
        name: (str(size["name"]), (int(size["pixels"][0]), int(size["pixels"][1])))
        for name, size in data.get("sizes", {}).items()
    }
    return Service(
        key,
        table["name"],
        sizes,
        float(table["bleed_mm"]),
        int(table["dpi"]),
        float(table.get("safe_mm", 0.0)),
        table["faces"],
        table.get("ink_limit"),
        float(table.get("corner_mm", 0.0)),
        table.get("pdfx", "PDF/X-3:2002"),
        table.get("url_hint", ""),
        shown,
    )


@cache
def _bundled() -> dict[str, Service]:
    return {path.stem: _service(path) for path in _files(layouts_root() / "services")}


def services() -> dict[str, Service]:
    """Every service by key: the bundled ones, then the user's (a user's file of a bundled
    key takes its place)."""
    found = dict(_bundled())
    for path in _files(user_folder()):
        found[path.stem] = _service(path)
    return found


def service(key: str) -> Service:
    """The service of this key; a UsageError listing the services there are."""
    known = services()
    if key not in known:
        import difflib

        close = difflib.get_close_matches(key, list(known), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise UsageError(
            f"unknown print service {key!r}{hint}; services: {', '.join(known)} "
            f"(add one as a TOML file in {user_folder()})"
        )
    return known[key]
