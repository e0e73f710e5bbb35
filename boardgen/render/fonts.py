"""The bundled fonts: registered by their exact family names for reportlab and svglib."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import registerFontFamily
from reportlab.pdfbase.ttfonts import TTFont
from svglib.fonts import FontMap

from boardgen.errors import BoardgenError


class MissingGlyphError(BoardgenError, ValueError):
    """A label uses a character the chosen font cannot draw."""

    exit_code = 2


class UnknownFontError(BoardgenError, ValueError):
    """A theme names a font family that boardgen does not bundle."""

    exit_code = 2


@dataclass(frozen=True)
class Face:
    family: str
    weight: str
    path: Path

    @property
    def pdf_name(self) -> str:
        """The name reportlab knows this face by (family and weight, no spaces)."""
        return self.family.replace(" ", "") + ("-Bold" if self.weight == "bold" else "")


def fonts_root() -> Path:
    return Path(str(resources.files("boardgen.fonts")))


@cache
def faces() -> dict[tuple[str, str], Face]:
    """Every bundled face, keyed by (family, weight), registered with reportlab once."""
    root = fonts_root()
    listing = tomllib.loads((root / "fonts.toml").read_text(encoding="utf-8"))
    found = {}
    for entry in listing["font"]:
        face = Face(entry["family"], entry["weight"], root / entry["file"])
        pdfmetrics.registerFont(TTFont(face.pdf_name, str(face.path)))
        found[(face.family, face.weight)] = face
    for family in {f.family for f in found.values()}:
        normal = found[(family, "normal")].pdf_name
        bold = found.get((family, "bold"), found[(family, "normal")]).pdf_name
        # Lets rich text (<b>) in paragraphs switch faces within a bundled family.
        registerFontFamily(normal, normal=normal, bold=bold, italic=normal, boldItalic=bold)
    return found


def families() -> list[str]:
    return sorted({family for family, _ in faces()})


def face(family: str, weight: str = "normal") -> Face:
    try:
        return faces()[(family, weight)]
    except KeyError:
        raise UnknownFontError(
            f"font {family!r} ({weight}) is not bundled; available: {', '.join(families())}"
        ) from None


class StrictFontMap(FontMap):
    """An svglib font map that knows only the bundled fonts and never guesses a system one."""

    def __init__(self) -> None:
        super().__init__()
        self._map.clear()
        self._family_index.clear()
        for f in faces().values():
            self.register_font(f.family, weight=f.weight, rlgFontName=f.pdf_name)

    def register_default_fonts(self) -> None:
        """No defaults: an unknown family must fail, not fall back to Helvetica."""

    def register_font(self, font_family, font_path=None, weight="normal", style="normal",
                      rlgFontName=None):
        internal = self.build_internal_name(font_family, weight, style)
        self._map[internal] = {"svg_family": font_family, "svg_weight": weight,
                               "svg_style": style, "rlgFont": rlgFontName, "exact": True}
        self._family_index.setdefault(font_family.lower(), font_family)
        return internal, True

    def find_font(self, font_name, weight="normal", style="normal"):
        family = self._family_index.get(font_name.lower(), font_name)
        weight = "bold" if str(weight) in ("bold", "700", "800", "900") else "normal"
        internal = self.build_internal_name(family, weight, "normal")
        if internal in self._map:
            return str(self._map[internal]["rlgFont"]), True
        raise UnknownFontError(f"SVG asks for font {font_name!r} ({weight}), which is not bundled")


@cache
def font_map() -> StrictFontMap:
    return StrictFontMap()


def check_glyphs(text: str, family: str, weight: str = "normal", *, where: str = "") -> None:
    """Raise MissingGlyphError naming the characters the face lacks."""
    font = pdfmetrics.getFont(face(family, weight).pdf_name)
    cmap = font.face.charToGlyph
    missing = sorted({ch for ch in text if ord(ch) not in cmap and not ch.isspace()})
    if missing:
        shown = ", ".join(f"{ch!r} (U+{ord(ch):04X})" for ch in missing)
        place = f" in {where}" if where else ""
        raise MissingGlyphError(f"font {family!r} has no glyph for {shown}{place}: {text!r}")


def text_width(text: str, family: str, weight: str, size: float) -> float:
    """Advance width of text, in the same unit as size (millimetres in, millimetres out)."""
    return pdfmetrics.stringWidth(text, face(family, weight).pdf_name, size)


def fit_size(text: str, family: str, weight: str, *, width: float, size: float,
             smallest: float) -> float:
    """The largest size up to `size` at which text fits `width`, never under `smallest`."""
    natural = text_width(text, family, weight, size)
    if natural <= width:
        return size
    return max(smallest, size * width / natural)
