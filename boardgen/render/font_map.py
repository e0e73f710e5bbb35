"""The font map svglib converts SVG text with: only the faces boardgen.data.fonts knows (the
bundled ones and a theme's own files), never a guessed system font."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from boardgen.data.fonts import UnknownFontError, faces

if TYPE_CHECKING:  # svglib (lxml, css parsers) is imported only when an SVG is converted
    from svglib.fonts import FontMap

# The reportlab names of the faces the map has (a face registered after it was made is added).
_KNOWN: set[str] = set()


def font_map() -> FontMap:
    """The map, made when the first SVG is converted; a face registered since (a theme's own
    font file) is added to it here."""
    fm: FontMap = _strict_map()
    for f in faces().values():
        if f.pdf_name not in _KNOWN:
            fm.register_font(f.family, weight=f.weight, rlgFontName=f.pdf_name)
    return fm


@cache
def _strict_map() -> Any:
    """An svglib font map that knows only the faces registered with it and never guesses."""
    from svglib.fonts import FontMap

    class StrictFontMap(FontMap):
        def __init__(self) -> None:
            super().__init__()
            self._map.clear()
            self._family_index.clear()
            for f in faces().values():
                self.register_font(f.family, weight=f.weight, rlgFontName=f.pdf_name)

        def register_default_fonts(self) -> None:
            """No defaults: an unknown family must fail, not fall back to Helvetica."""

        def register_font(
            self,
            font_family: str,
            font_path: str | None = None,
            weight: str = "normal",
            style: str = "normal",
            rlgFontName: str | None = None,
        ) -> tuple[str, bool]:  # noqa: N803
            internal: str = self.build_internal_name(font_family, weight, style)
            self._map[internal] = {
                "svg_family": font_family,
                "svg_weight": weight,
                "svg_style": style,
                "rlgFont": rlgFontName or "",
                "exact": True,
            }
            self._family_index.setdefault(font_family.lower(), font_family)
            _KNOWN.add(rlgFontName or "")
            return internal, True

        def find_font(self, font_name: str, weight: str = "normal", style: str = "normal") -> tuple[str, bool]:
            family = self._family_index.get(font_name.lower(), font_name)
            weight = "bold" if str(weight) in ("bold", "700", "800", "900") else "normal"
            internal: str = self.build_internal_name(family, weight, "normal")
            if internal in self._map:
                return str(self._map[internal]["rlgFont"]), True
            raise UnknownFontError(f"SVG asks for font {font_name!r} ({weight}), which is not bundled")

    return StrictFontMap()
