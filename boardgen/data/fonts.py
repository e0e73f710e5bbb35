"""The fonts a kit can use: the bundled faces (fonts/fonts.toml) and a theme's own TrueType
files, registered by their exact family names with reportlab; which characters each draws (and
the fallback family for signs), and how wide a text is. The SVG converter's font map, made from
these faces, is boardgen.render.font_map."""

from __future__ import annotations

import re
import tomllib
import unicodedata
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from struct import error as struct_error

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import registerFontFamily
from reportlab.pdfbase.ttfonts import TTFError, TTFont

from boardgen.errors import BoardgenError, quote


class MissingGlyphError(BoardgenError, ValueError):
    """A label uses a character the chosen font cannot draw."""

    exit_code = 2


class FontFileError(BoardgenError, ValueError):
    """A theme's font file that cannot be used (missing, too big, not TrueType outlines)."""

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
        return re.sub(r"[^A-Za-z0-9]", "", self.family) + ("-Bold" if self.weight == "bold" else "")


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
        # Parsed afresh each time (4 faces: 0.04 s of CPU): a kept copy of reportlab's font object
        # could only be a pickle, and the cache holds data only (see boardgen.cache).
        pdfmetrics.registerFont(TTFont(face.pdf_name, str(face.path)))
        found[(face.family, face.weight)] = face
    for family in {f.family for f in found.values()}:
        normal = found[(family, "normal")].pdf_name
        bold = found.get((family, "bold"), found[(family, "normal")]).pdf_name
        # Lets rich text (<b>) in paragraphs switch faces within a bundled family.
        registerFontFamily(normal, normal=normal, bold=bold, italic=normal, boldItalic=bold)
    return found


MAX_FONT_BYTES = 30_000_000


@cache
def register_file(path: Path) -> str:
    """Register a theme's own TrueType file (both weights use it); returns the family it is known by.

    reportlab embeds it as a subset, as it does the bundled fonts."""
    name = path.name
    try:
        size = path.stat().st_size
    except (OSError, ValueError) as exc:
        raise FontFileError(
            f"font file {name} not found or unreadable ({getattr(exc, 'strerror', None) or exc})"
        ) from None
    if not path.is_file():
        raise FontFileError(f"font file {name} is not a file")
    if size > MAX_FONT_BYTES:
        raise FontFileError(f"font file {name} is {size:,} bytes; the limit is {MAX_FONT_BYTES:,}")
    try:
        probe = TTFont("boardgen-probe", str(path))
    except TTFError as exc:
        if "postscript outlines" in str(exc):
            raise FontFileError(
                f"font file {name} has PostScript (CFF) outlines, which cannot be embedded; "
                "use a TrueType (.ttf) version of the font"
            ) from None
        raise FontFileError(f"font file {name} cannot be read as a TrueType font: {exc}") from None
    except (OSError, ValueError, KeyError, IndexError, AssertionError, struct_error) as exc:
        raise FontFileError(f"font file {name} cannot be read as a TrueType font ({type(exc).__name__})") from None
    family = (
        str(
            probe.face.familyName.decode("latin-1")
            if isinstance(probe.face.familyName, bytes)
            else probe.face.familyName
        ).strip()
        or path.stem
    )
    known = faces()
    if (family, "normal") in known and known[(family, "normal")].path != path:
        family = f"{family} {path.stem}"
    for weight in ("normal", "bold"):
        face_ = Face(family, weight, path)
        font = TTFont(face_.pdf_name, str(path))
        # reportlab keeps one font per PostScript name: a file named like a face already
        # registered (a theme's own "DejaVu Sans") would silently print as that face.
        taken = {
            f.face.name
            for f in map(pdfmetrics.getFont, pdfmetrics.getRegisteredFontNames())
            if isinstance(f, TTFont) and f.face.filename != str(path)
        }
        if font.face.name in taken:  # both weights are the one file, known by its family's own name
            font.face.name = known.get((family, "normal"), face_).pdf_name.encode("ascii")
        pdfmetrics.registerFont(font)
        known[(family, weight)] = face_
    normal = known[(family, "normal")].pdf_name
    bold = known[(family, "bold")].pdf_name
    registerFontFamily(normal, normal=normal, bold=bold, italic=normal, boldItalic=bold)
    return family


def families() -> list[str]:
    return sorted({family for family, _ in faces()})


def face(family: str, weight: str = "normal") -> Face:
    try:
        return faces()[(family, weight)]
    except KeyError:
        raise UnknownFontError(
            f"font {family!r} ({weight}) is not bundled; available: {', '.join(families())}"
        ) from None


# boardgen's own arrows, signs and punctuation (→ × ⌀ – ’ ...) are drawn whatever font a theme
# picks: a character the theme's font lacks that is not a letter or a digit comes from this
# bundled family instead, glyph by glyph. Letters and digits are the text's own: a font that
# lacks them is an error (every such character of the kit named at once, see `collecting`).
FALLBACK_FAMILY = "DejaVu Sans"


def _cmap(family: str, weight: str) -> dict[int, int]:
    return dict(pdfmetrics.getFont(face(family, weight).pdf_name).face.charToGlyph)


_CMAPS: dict[str, dict[int, int]] = {}


def _has(family: str, weight: str) -> dict[int, int]:
    name = face(family, weight).pdf_name
    cmap = _CMAPS.get(name)
    if cmap is None:
        cmap = _CMAPS[name] = _cmap(family, weight)
    return cmap


def _falls_back(ch: str, weight: str) -> bool:
    """A character the fallback family draws for a font that lacks it: not a letter or digit."""
    return unicodedata.category(ch)[0] not in "LN" and ord(ch) in _has(FALLBACK_FAMILY, weight)


def runs(text: str, family: str, weight: str = "normal") -> list[tuple[str, str]]:
    """The text in runs of one family each: the font's own, and FALLBACK_FAMILY for the signs
    it lacks (one run, the font's, for text it draws whole)."""
    cmap = _has(family, weight)
    if all(ord(ch) in cmap or ch.isspace() for ch in text):
        return [(text, family)]
    out: list[tuple[str, str]] = []
    for ch in text:
        own = ord(ch) in cmap or ch.isspace() or not _falls_back(ch, weight)
        used = family if own else FALLBACK_FAMILY
        if out and out[-1][1] == used:
            out[-1] = (out[-1][0] + ch, used)
        else:
            out.append((ch, used))
    return out


_COLLECTED: list[list[tuple[str, str, str, str]]] = []


@contextmanager
def collecting() -> Iterator[list[tuple[str, str, str, str]]]:
    """Within it, text a font cannot draw is noted (family, weight, character, where) instead
    of raising at once; on leaving, one MissingGlyphError names every such character."""
    found: list[tuple[str, str, str, str]] = []
    _COLLECTED.append(found)
    try:
        yield found
    finally:
        _COLLECTED.pop()
    if found:
        raise missing_error(found)


def noted() -> int:
    """How many missing characters the innermost `collecting` has noted so far."""
    return len(_COLLECTED[-1]) if _COLLECTED else 0


def missing_error(found: Sequence[tuple[str, str, str, str]]) -> MissingGlyphError:
    """One error for every character the kit's fonts cannot draw: per font, the characters,
    then where the first few were met."""
    by_font: dict[tuple[str, str], dict[str, None]] = {}
    places: dict[tuple[str, str], dict[str, None]] = {}
    for family, weight, ch, where in found:
        by_font.setdefault((family, weight), {})[ch] = None
        places.setdefault((family, weight), {})[where] = None
    lines = []
    for key, chars in by_font.items():
        listed = [f"{ch!r} (U+{ord(ch):04X})" for ch in sorted(chars)]
        lines.append(f"font {key[0]!r} ({key[1]}) has no glyph for:")
        lines += ["  " + ", ".join(listed[k : k + 16]) for k in range(0, len(listed), 16)]
        seen = list(places[key])
        lines += [f"  in {place}" for place in seen[:3]]
        if len(seen) > 3:
            lines.append(f"  and {len(seen) - 3} more places")
    lines.append("use a font that has them for that role, or change the text")
    return MissingGlyphError("\n".join(lines))


def missing_glyphs(text: str, family: str, weight: str = "normal") -> list[str]:
    """The characters of text the face cannot draw and the fallback does not draw for it
    (see FALLBACK_FAMILY; white space aside), sorted."""
    cmap = _has(family, weight)
    return sorted({ch for ch in text if ord(ch) not in cmap and not ch.isspace() and not _falls_back(ch, weight)})


def check_glyphs(text: str, family: str, weight: str = "normal", *, where: str = "") -> None:
    """Raise MissingGlyphError naming the characters the face lacks and the fallback does not
    draw for it (see FALLBACK_FAMILY); inside `collecting`, note them instead."""
    missing = missing_glyphs(text, family, weight)
    if not missing:
        return
    if _COLLECTED:
        place = f"{where}: {quote(text)}" if where else quote(text)
        _COLLECTED[-1].extend((family, weight, ch, place) for ch in missing)
        return
    shown = ", ".join(f"{ch!r} (U+{ord(ch):04X})" for ch in missing)
    place = f" in {where}" if where else ""
    raise MissingGlyphError(f"font {family!r} has no glyph for {shown}{place}: {text!r}")


def text_width(text: str, family: str, weight: str, size: float) -> float:
    """Advance width of text, in the same unit as size (millimetres in, millimetres out); the
    signs the font lacks are measured in the fallback family that draws them."""
    parts = runs(text, family, weight)
    return float(sum(pdfmetrics.stringWidth(chunk, face(used, weight).pdf_name, size) for chunk, used in parts))


def fit_size(text: str, family: str, weight: str, *, width: float, size: float, smallest: float) -> float:
    """The largest size up to `size` at which text fits `width`, never under `smallest`."""
    natural = text_width(text, family, weight, size)
    if natural <= width:
        return size
    return max(smallest, size * width / natural)
