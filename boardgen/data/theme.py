"""Themes: the presentation of any layout (palette, fonts, strokes, style, art).

Every key is checked when the theme is loaded, and every problem is reported at once, before any
expensive work: unknown keys (with a "did you mean"), colours, fonts and picture files.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from boardgen.data.colours import ColourError, parse_colour, tint
from boardgen.data.loader import FONT_FILE_SUFFIXES as FONT_SUFFIXES
from boardgen.data.loader import Document, load
from boardgen.errors import Problem


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
    # Family name -> font file, for the fonts the theme brings itself.
    font_files: dict[str, Path] = field(default_factory=dict)
    # Player colour -> the symbol drawn with it as a second cue (empty: `symbols = false`).
    symbols: dict[str, str] = field(default_factory=dict)
    # The accessibility check's thresholds (boardgen.checks.accessibility.DEFAULTS fills the rest).
    accessibility: dict[str, Any] = field(default_factory=dict)

    def colour(self, key: str) -> str:
        return str(self.palette[key])

    def player(self, colour: str) -> str:
        return str(self.palette["players"].get(colour, self.palette["ink"]))

    def symbol(self, colour: str) -> str | None:
        """The symbol drawn with a player colour, or None."""
        return self.symbols.get(colour)


def symbols_tell_apart(theme: Theme, colours: Sequence[str]) -> bool:
    """Whether these player colours are told apart by more than their tints: each has a symbol of
    its own in the theme (drawn with it wherever the colour marks something)."""
    symbols = [theme.symbol(colour) for colour in colours]
    return None not in symbols and len(set(symbols)) == len(symbols)


def sequence_fill(theme: Theme, colour: str, *, central: bool = True) -> str:
    """The floor of a Grand sequence's fields: its colour tinted towards the paper (central fields
    more strongly than the corner labyrinths; half as strong where the theme saves ink). The
    board draws it and the colour-vision check compares it."""
    strength = 0.42 if central else 0.26
    if not theme.style["fill_walls"]:
        strength *= 0.5
    return tint(theme.player(colour), theme.colour("paper"), strength)


def bundled_families() -> list[str]:
    """Font families listed in fonts/fonts.toml."""
    listing = tomllib.loads((Path(str(resources.files("boardgen.fonts"))) / "fonts.toml").read_text(encoding="utf-8"))
    return sorted({entry["family"] for entry in listing["font"]})


def load_theme(name_or_path: str) -> Theme:
    doc = load("theme", name_or_path, check=_check)
    data = doc.data
    art = {key: Path(value) for key, value in data.get("art", {}).items()}
    fonts = dict(data.get("fonts", {}))
    font_files: dict[str, Path] = {}
    for role, value in sorted(fonts.items()):
        if value.lower().endswith(FONT_SUFFIXES):
            from boardgen.data import fonts as font_registry

            family = font_registry.register_file(Path(value))
            fonts[role] = family
            font_files[family] = Path(value)
    palette = _normalised_palette(data.get("palette", {}))
    theme = Theme(
        doc=doc,
        id=data["theme"]["id"],
        name=data["theme"]["name"],
        palette=palette,
        fonts=fonts,
        strokes=data.get("strokes", {}),
        style=data.get("style", {}),
        art=art,
        font_files=font_files,
        symbols=dict(data.get("symbols") or {}),
        accessibility=dict(data.get("accessibility", {})),
    )
    return theme


def _normalised_palette(palette: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in palette.items():
        if isinstance(value, dict):
            out[key] = {k: parse_colour(v) for k, v in value.items()}
        else:
            out[key] = parse_colour(value)
    return out


def _check(doc: Document) -> list[Problem]:
    """The checks JSON Schema cannot express, run with it so that all problems come at once."""
    data = doc.data
    problems: list[Problem] = []
    palette = data.get("palette")
    if isinstance(palette, dict):
        for key, value in palette.items():
            entries = value.items() if isinstance(value, dict) else [(None, value)]
            for sub, colour in entries:
                if not isinstance(colour, str):
                    continue  # the schema reports the type
                try:
                    parse_colour(colour)
                except ColourError as exc:
                    where = ("palette", key) if sub is None else ("palette", key, sub)
                    problems.append(doc.problem(where, str(exc)))
    for table in ("strokes", "style"):
        values = data.get(table)
        if not isinstance(values, dict):
            continue
        for key, value in values.items():
            if isinstance(value, float) and not math.isfinite(value):
                problems.append(doc.problem((table, key), f"{value!r} is not a finite number"))
    fonts = data.get("fonts")
    families: list[str] = []
    if isinstance(fonts, dict):
        problems += _font_problems(doc, fonts, families)
    art = data.get("art")
    if isinstance(art, dict):
        from boardgen.data.pictures import PictureError, bundled_keys, load_picture, picture_families

        known = bundled_keys()
        for key, value in sorted(art.items()):
            if not isinstance(value, str):
                continue
            if key not in known:
                # A layout may use pictures boardgen does not have; kit.py checks those names against
                # the game. A near miss of a bundled name is surely a typo.
                import difflib

                hint = difflib.get_close_matches(key, known, n=1, cutoff=0.75)
                if hint:
                    problems.append(
                        doc.problem(("art", key), f"unknown picture key {key!r} (did you mean {hint[0]!r}?)")
                    )
                    continue
            try:
                load_picture(Path(value), key, picture_families(families))
            except PictureError as exc:
                problems.append(doc.problem(("art", key), str(exc)))
    return problems


def _font_problems(doc: Document, fonts: dict[str, Any], families_out: list[str]) -> list[Problem]:
    problems = []
    families = bundled_families()
    for role, value in sorted(fonts.items()):
        if not isinstance(value, str):
            continue
        if value.lower().endswith(FONT_SUFFIXES):
            # A font file of the user's is registered with the PDF renderer (reportlab): only then.
            from boardgen.data import fonts as font_registry

            try:
                families_out.append(font_registry.register_file(Path(value)))
            except font_registry.FontFileError as exc:
                problems.append(doc.problem(("fonts", role), str(exc)))
        elif value in families:
            families_out.append(value)
        else:
            import difflib

            hint = difflib.get_close_matches(value, families, n=1)
            tail = f" (did you mean {hint[0]!r}?)" if hint else ""
            problems.append(
                doc.problem(
                    ("fonts", role),
                    f"font {value!r} is not bundled{tail}; available: "
                    f"{', '.join(families)}, or a .ttf/.otf file beside "
                    "the theme",
                )
            )
    return problems
