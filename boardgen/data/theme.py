"""Themes: the presentation of any layout (palette, fonts, strokes, style, art)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from boardgen.data.loader import Document, load
from boardgen.errors import DataError


@dataclass(frozen=True)
class Theme:
    """A resolved theme: every value the renderers read, nothing hard-coded elsewhere."""

    doc: Document
    id: str
    name: dict[str, str]
    palette: dict[str, Any]
    fonts: dict[str, str]
    strokes: dict[str, float]
    style: dict[str, Any]
    art: dict[str, Path]

    def colour(self, key: str) -> str:
        return self.palette[key]

    def player(self, colour: str) -> str:
        return self.palette["players"].get(colour, self.palette["ink"])


def bundled_families() -> list[str]:
    """Font families listed in fonts/fonts.toml (the only ones a theme may name)."""
    listing = tomllib.loads((Path(str(resources.files("boardgen.fonts"))) / "fonts.toml").read_text(encoding="utf-8"))
    return sorted({entry["family"] for entry in listing["font"]})


def load_theme(name_or_path: str) -> Theme:
    doc = load("theme", name_or_path)
    data = doc.data
    # Art paths are relative to the theme file that names them; extends keeps the child's folder.
    art = {key: Path(value) for key, value in data.get("art", {}).items()}
    families = bundled_families()
    problems = [doc.problem(("fonts", role), f"font {family!r} is not bundled; available: {', '.join(families)}")
                for role, family in sorted(data.get("fonts", {}).items()) if family not in families]
    if problems:
        raise DataError(problems)
    return Theme(
        doc=doc, id=data["theme"]["id"], name=data["theme"]["name"],
        palette=data.get("palette", {}), fonts=data.get("fonts", {}),
        strokes=data.get("strokes", {}), style=data.get("style", {}), art=art,
    )
