"""Themes: the presentation of any layout (palette, fonts, strokes, style, art)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boardgen.data.loader import Document, load


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


def load_theme(name_or_path: str) -> Theme:
    doc = load("theme", name_or_path)
    data = doc.data
    # Art paths are relative to the theme file that names them; extends keeps the child's folder.
    art = {key: (doc.base_dir / value).resolve() for key, value in data.get("art", {}).items()}
    return Theme(
        doc=doc, id=data["theme"]["id"], name=data["theme"]["name"],
        palette=data.get("palette", {}), fonts=data.get("fonts", {}),
        strokes=data.get("strokes", {}), style=data.get("style", {}), art=art,
    )
