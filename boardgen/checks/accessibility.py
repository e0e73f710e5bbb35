"""The accessibility check: colours that carry meaning, text size and text contrast.

Three questions about a kit, for everyone at the table:

- **Colours.** The colours that carry meaning (the players', and a game's coloured regions:
  Grand's four sequences, King Minos's earth and sky) are compared two by two under normal
  vision, deuteranopia, protanopia, tritanopia (Machado, Oliveira and Fernandes 2009 at full
  severity) and greyscale, as distances in CIECAM02-UCS (colorspacious: the published colour
  science, not a hand-written copy of it). In grey only lightness is left, so the distance is
  the difference of J'. A pair closer than the theme's threshold (`[accessibility]`
  ``player_min_de``, ``region_min_de``; 20 by default) is a finding unless a second cue tells
  them apart: the player symbols (theme key ``symbols``), the region names drawn on the board, or
  (Le Grand Labyrinthe) the sequence's symbol drawn on each of its fields.
- **Text size.** Every text object of the printed PDF, measured as pdfium reads it (its font
  size times its matrix), against ``min_text_pt_pieces`` (6 pt) on pieces,
  ``min_text_pt_sheets`` (6 pt) for the notes around them (joins, duplex test, footers) and
  ``min_text_pt_rules`` (8 pt) in the rules (the rules pages above their foot); the
  smallest of each kind is reported with its text, piece and page. A piece shown smaller
  than it is printed (the set-up pictured on the cover) is an illustration, not checked.
- **Contrast.** The WCAG 2 contrast ratio of each text's colour on the colour printed around
  it (read from the rendered page: the commonest colour of the text's box that is not the
  text's), against ``min_contrast`` (4.5:1), or ``min_contrast_large`` (3:1) for large text
  (WCAG's 18 pt, or 14 pt bold).

Findings are warnings, or errors when the theme says ``strict = true`` or the render asks
(``--strict``).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from boardgen.data.colours import contrast_ratio
from boardgen.data.strings import word

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from boardgen.data.theme import Theme

VISIONS = ("normal", "deuteranopia", "protanopia", "tritanopia", "grey")
# colorspacious names Machado's simulation after the anomaly; severity 100 is the full dichromacy.
_CVD = {"deuteranopia": "deuteranomaly", "protanopia": "protanomaly", "tritanopia": "tritanomaly"}
DEFAULTS: dict[str, Any] = {
    "player_min_de": 20.0,
    "region_min_de": 20.0,
    "min_text_pt_pieces": 6.0,
    "min_text_pt_rules": 8.0,
    "min_text_pt_sheets": 6.0,
    "min_contrast": 4.5,
    "min_contrast_large": 3.0,
    "strict": False,
}
MM_TO_PT = 72 / 25.4
# Text whose bottom lies this close above the page's bottom margin is page furniture (the
# calibration bar's caption, the page number), held to the sheets' minimum, not the rules'.
FOOTER_MM = 8.0
RULES_KINDS = ("rules",)


def thresholds(theme: Theme) -> dict[str, Any]:
    """The theme's `[accessibility]` table over the defaults."""
    return {**DEFAULTS, **theme.accessibility}


# Colour maths --------------------------------------------------------------------------------


def _rgb(colours: Sequence[str]) -> NDArray[np.float64]:
    import numpy as np

    return np.array([[int(c[i : i + 2], 16) for i in (1, 3, 5)] for c in colours], dtype=float).reshape(-1, 3)


def simulate(rgb255: NDArray[Any], vision: str) -> NDArray[np.float64]:
    """Colours (N x 3, sRGB 0-255) as seen with `vision`, sRGB 0-255 (clipped to the gamut).
    Grey keeps each colour's CIECAM02-UCS lightness J' and drops its hue and chroma."""
    import numpy as np
    from colorspacious import cspace_convert

    rgb = np.asarray(rgb255, dtype=float)
    if vision == "normal":
        return rgb
    if vision == "grey":
        # The sRGB grey of the same J' (greys' J' rises with their level: interpolated).
        levels = np.arange(256, dtype=float)
        grey_j = cspace_convert(np.repeat(levels[:, None], 3, axis=1), "sRGB255", "CAM02-UCS")[:, 0]
        j = cspace_convert(rgb, "sRGB255", "CAM02-UCS")[..., 0]
        return np.repeat(np.interp(j, grey_j, levels)[..., None], 3, axis=-1)
    if vision not in _CVD:
        raise ValueError(f"unknown vision {vision!r}; one of {', '.join(VISIONS)}")
    seen = cspace_convert(rgb / 255, {"name": "sRGB1+CVD", "cvd_type": _CVD[vision], "severity": 100}, "sRGB1")
    return np.asarray(np.clip(seen, 0, 1) * 255, dtype=float)


def distances(colours: Sequence[str], vision: str) -> dict[tuple[int, int], float]:
    """CIECAM02-UCS distance of every pair of colours as seen with `vision`; in grey the
    difference of lightness J' alone."""
    import numpy as np
    from colorspacious import cspace_convert

    seen = simulate(_rgb(colours), vision) if vision != "grey" else _rgb(colours)
    jab = cspace_convert(seen, "sRGB255", "CAM02-UCS")
    out = {}
    for i, j in itertools.combinations(range(len(colours)), 2):
        if vision == "grey":
            out[(i, j)] = float(abs(jab[i, 0] - jab[j, 0]))
        else:
            out[(i, j)] = float(np.linalg.norm(jab[i] - jab[j]))
    return out


# What carries meaning ------------------------------------------------------------------------


@dataclass(frozen=True)
class ColourGroup:
    """Colours that must be told apart: their names and #rrggbb values, the second cue that
    tells them apart without colour (None: colour alone), and the least distance wanted."""

    name: str
    members: tuple[tuple[str, str], ...]
    cue: str | None
    minimum: float


def colour_groups(theme: Theme, games: Sequence[ColourGroup] = ()) -> list[ColourGroup]:
    """The colours that carry meaning with this theme: the players', then the game's own
    (`Engine.colour_groups`: Grand's sequences, King Minos's realms)."""
    limits = thresholds(theme)
    players = tuple(sorted(theme.palette["players"].items(), key=lambda item: _SEAT_ORDER.get(item[0], 9)))
    cue = "symbols" if theme.symbols and all(name in theme.symbols for name, _ in players) else None
    return [ColourGroup("players", players, cue, float(limits["player_min_de"])), *games]


def region_minimum(theme: Theme) -> float:
    """The least distance wanted between the colours of a game's regions (sequences, realms)."""
    return float(thresholds(theme)["region_min_de"])


_SEAT_ORDER = {"red": 0, "yellow": 1, "green": 2, "blue": 3}


def _realm(name: str) -> str:
    return name.split("_")[0]


# Text as printed -----------------------------------------------------------------------------


@dataclass(frozen=True)
class PrintedText:
    """One text object of the PDF: where, what, how large, its colour and what is around it."""

    page: int  # 1-based
    page_kind: str
    text: str
    size_pt: float
    bold: bool
    colour: str
    background: str | None  # None: nothing of it shows here (clipped away at a sheet's edge)
    bottom_mm: float  # from the foot of the page


def printed_texts(pdf_bytes: bytes, kinds: Sequence[str], *, dpi: int = 72) -> list[PrintedText]:
    """Every text object on every page, read by pdfium: the size as printed (font size times
    the text matrix), the fill colour, and the background from the page rendered at `dpi`."""
    import ctypes

    import pypdfium2.raw as raw

    from boardgen.raster import opened, page_pixels

    out: list[PrintedText] = []
    with opened(pdf_bytes) as document:
        for index in range(len(document)):
            page = document[index]
            text_page = page.get_textpage()
            try:
                objects = _text_objects(text_page, raw, ctypes)
                if not objects:
                    continue
                scale = dpi / 72
                pixels = page_pixels(page, scale=scale)
                height = page.get_height()
                backgrounds = _backgrounds(
                    pixels, [(colour, boxes) for _, _, colour, _, boxes in objects], height, scale
                )
                for (size, bold, colour, text, boxes), seen in zip(objects, backgrounds, strict=True):
                    bottom = min(box[1] for box in boxes)
                    kind = kinds[index] if index < len(kinds) else ""
                    out.append(PrintedText(index + 1, kind, text.strip(), size, bold, colour, seen, bottom / MM_TO_PT))
            finally:
                text_page.close()
                page.close()
    return out


Box = tuple[float, float, float, float]


def _text_objects(text_page: Any, raw: Any, ctypes: Any) -> list[tuple[float, bool, str, str, list[Box]]]:
    """(size in pt, colour, text, the box of each visible character in pt from the page's
    lower left) of each text object."""
    found: dict[int, list[Any]] = {}
    matrix = raw.FS_MATRIX()
    r, g, b, a = (ctypes.c_uint() for _ in range(4))
    left, right, bottom, top = (ctypes.c_double() for _ in range(4))
    page = text_page.raw
    # Looked up once: these run for each of the page's characters (15,000 on Grand's pages).
    get_object, get_unicode, get_box = raw.FPDFText_GetTextObject, raw.FPDFText_GetUnicode, raw.FPDFText_GetCharBox
    address = ctypes.addressof
    for k in range(raw.FPDFText_CountChars(page)):
        handle = get_object(page, k)
        if not handle:
            continue  # a space or line break pdfium made up
        key = address(handle.contents)  # the text object's address (cheaper than a cast to c_void_p)
        char = chr(get_unicode(page, k))
        entry = found.get(key)
        if entry is None:
            raw.FPDFText_GetMatrix(page, k, matrix)
            scale = math.sqrt(abs(matrix.a * matrix.d - matrix.b * matrix.c))
            size = raw.FPDFText_GetFontSize(page, k) * scale
            raw.FPDFText_GetFillColor(page, k, r, g, b, a)
            bold = raw.FPDFText_GetFontWeight(page, k) >= 600
            entry = found[key] = [size, bold, f"#{r.value:02x}{g.value:02x}{b.value:02x}", "", []]
        entry[3] += char
        if char.strip():
            get_box(page, k, left, right, bottom, top)
            entry[4].append((left.value, bottom.value, right.value, top.value))
    return [(float(size), bold, colour, text, boxes) for size, bold, colour, text, boxes in found.values() if boxes]


def _backgrounds(
    pixels: Any, texts: Sequence[tuple[str, Sequence[Box]]], height: float, scale: float
) -> list[str | None]:
    """The background of each (text colour, character boxes) of a page (`pixels`, H x W x 3
    RGB, or H x W of 0xRRGGBB values with any byte above them):
    the commonest colour around the text's characters that is not near the text's own (the
    glyphs and their anti-aliased edges), over the characters that show on the page; None
    when none shows. All the texts of a page at once: the pixels of every character box in
    one array, each box's and each text's commonest colour found by sorting (group, colour)
    keys rather than box by box (13,000 boxes in the Grand kit)."""
    import numpy as np

    rows, cols = pixels.shape[:2]
    n_texts = len(texts)
    targets = np.array(
        [[int(colour[i : i + 2], 16) for i in (1, 3, 5)] for colour, _ in texts], dtype=np.int64
    ).reshape(-1, 3)
    owner = np.repeat(np.arange(n_texts), [len(boxes) for _, boxes in texts])
    corners = np.array([box for _, boxes in texts for box in boxes], dtype=np.float64).reshape(-1, 4)
    left, bottom, right, top = corners.T
    xa, xb = left * scale, right * scale
    ya, yb = (height - top) * scale, (height - bottom) * scale
    top_ = np.clip(np.floor(np.minimum(ya, yb)).astype(np.int64) - 1, 0, rows)
    bottom_ = np.clip(np.ceil(np.maximum(ya, yb)).astype(np.int64) + 1, 0, rows)
    left_ = np.clip(np.floor(np.minimum(xa, xb)).astype(np.int64) - 1, 0, cols)
    right_ = np.clip(np.ceil(np.maximum(xa, xb)).astype(np.int64) + 1, 0, cols)
    width, tall = right_ - left_, bottom_ - top_
    on_page = (width > 0) & (tall > 0)  # the others are off the page
    tall = np.where(on_page, tall, 0)
    # Every pixel of every box (a pixel under two boxes counted twice, as box by box), a box's
    # rows one after the other: each row a run of flat indices `width` long.
    row_box = np.repeat(np.arange(len(corners)), tall)
    row_y = top_[row_box] + np.arange(len(row_box)) - (np.cumsum(tall) - tall)[row_box]
    row_len = width[row_box]
    row_at = np.cumsum(row_len) - row_len
    flat = np.repeat(row_y * cols + left_[row_box] - row_at, row_len) + np.arange(int(row_len.sum()))
    if pixels.ndim == 3:
        rgb = pixels.reshape(-1, 3)[flat].astype(np.int64)
        packed = (rgb[:, 0] << 16) | (rgb[:, 1] << 8) | rgb[:, 2]
    else:
        packed = pixels.reshape(-1)[flat].astype(np.int64) & 0xFFFFFF
    box_of = np.repeat(row_box, row_len)
    # The distinct colours of each box and how often each comes: what follows counts them, not pixels.
    box_ids, colours, counts = _runs((box_of << 24) | packed)
    target = targets[owner[box_ids]]
    distance = (
        np.abs((colours >> 16) - target[:, 0])
        + np.abs(((colours >> 8) & 255) - target[:, 1])
        + np.abs((colours & 255) - target[:, 2])
    )
    # Each box's commonest colour (ties: the smallest value) is what lies under its character.
    # (The runs come box by box, each box's colours in ascending order.)
    most = _commonest(box_ids, counts)
    most = most[_firsts(box_ids[most])]  # the first: the smallest colour
    under_distance = np.zeros(len(corners), dtype=np.int64)
    under_distance[box_ids[most]] = distance[most]
    # A character shows where pixels come at least halfway from what is under it to the text's colour.
    halfway = np.zeros(len(corners), dtype=bool)
    halfway[box_ids[distance < under_distance[box_ids] / 2]] = True
    shown_box = on_page & ((under_distance <= 30) | halfway)
    shown = np.zeros(n_texts, dtype=bool)
    shown[owner[shown_box]] = True
    # Each text's commonest colour of its shown boxes not near its own (ties: the largest value).
    keep = shown_box[box_ids] & (distance > 60)
    keys = (owner[box_ids[keep]] << 24) | colours[keep]
    order = np.argsort(keys)  # any order among equal keys: their counts are added up
    keys, weights = keys[order], counts[keep][order]
    starts = np.flatnonzero(_firsts(keys))
    keys, totals = keys[starts], np.add.reduceat(weights, starts) if len(starts) else weights
    text_ids = keys >> 24
    most = _commonest(text_ids, totals)
    most = most[_firsts(text_ids[most][::-1])[::-1]]  # the last: the largest colour
    best = dict(zip(text_ids[most].tolist(), (keys[most] & 0xFFFFFF).tolist(), strict=True))
    out: list[str | None] = []
    for index, (colour, _) in enumerate(texts):
        if index in best:
            out.append(f"#{best[index]:06x}")
        else:  # nothing shows, or nothing but the text's colour: no contrast at all
            # White on white is what a white label cut off at a sheet's edge leaves over the bare
            # margin (the sheet shows the board clipped to its part): not a text that prints.
            out.append(colour if shown[index] and colour != "#ffffff" else None)
    return out


def _runs(keys: Any) -> tuple[Any, Any, Any]:
    """(group, colour, count) of each distinct `group << 24 | colour` key, in ascending order."""
    import numpy as np

    keys = np.sort(keys)
    starts = np.flatnonzero(_firsts(keys))
    counts = np.diff(np.append(starts, len(keys)))
    values = keys[starts]
    return values >> 24, values & 0xFFFFFF, counts


def _commonest(groups: Any, counts: Any) -> Any:
    """Where, in runs of equal `groups`, the count is its run's largest."""
    import numpy as np

    starts = np.flatnonzero(_firsts(groups))
    if not len(starts):
        return starts
    top = np.maximum.reduceat(counts, starts)
    return np.flatnonzero(counts == np.repeat(top, np.diff(np.append(starts, len(groups)))))


def _firsts(groups: Any) -> Any:
    """Where each run of equal values in `groups` starts."""
    import numpy as np

    return np.concatenate(([True], groups[1:] != groups[:-1])) if len(groups) else np.zeros(0, dtype=bool)


def _spaces(text: str) -> str:
    """No-break spaces (French 'sanctuaire\u00a0:') as plain ones: the PDF's text and the SVG's
    may differ in them."""
    return text.replace("\u00a0", " ").replace("\u202f", " ")


def svg_texts(files: Mapping[str, str]) -> dict[str, list[tuple[str, float]]]:
    """Text content -> [(piece, size in pt at print size)] over the kit's SVG pieces."""
    import xml.etree.ElementTree as ET

    out: dict[str, list[tuple[str, float]]] = {}
    for name, svg in sorted(files.items()):
        try:
            root = ET.fromstring(svg)
        except ET.ParseError:
            continue
        for element in root.iter():
            if not element.tag.endswith("}text") and element.tag != "text":
                continue
            content = _spaces("".join(element.itertext())).strip()
            try:
                size = float(element.get("font-size", "0")) * MM_TO_PT
            except ValueError:
                continue
            if content:
                out.setdefault(content, []).append((name, size))
    return out


# The check -----------------------------------------------------------------------------------


@dataclass
class AccessibilityReport:
    """The figures of the check and what it found."""

    theme: str
    strict: bool
    colours: list[dict[str, Any]] = field(default_factory=list)
    text: list[dict[str, Any]] = field(default_factory=list)
    contrast: list[dict[str, Any]] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)
    text_checked: bool = False

    @property
    def passed(self) -> bool:
        return not self.findings

    @property
    def failed(self) -> bool:
        """Findings that stop a render: only in strict mode."""
        return self.strict and bool(self.findings)

    def to_dict(self) -> dict[str, Any]:
        return {
            "theme": self.theme,
            "passed": self.passed,
            "strict": self.strict,
            "severity": ("error" if self.strict else "warning") if self.findings else "none",
            "findings": list(self.findings),
            "colours": self.colours,
            "text_sizes": self.text,
            "contrast": self.contrast,
            "text_checked": self.text_checked,
        }

    def to_text(self) -> str:
        verdict = "passed" if self.passed else f"{len(self.findings)} {'error' if self.strict else 'warning'}(s)"
        lines = [f"Accessibility ({self.theme} theme): {verdict}"]
        for group in self.colours:
            cue = f", second cue: {group['cue']}" if group["cue"] else ", no second cue"
            lines.append(f"  {group['group']} (closest pair, CIECAM02-UCS dE; grey: J' difference{cue}):")
            lines.append(
                "    " + "; ".join(f"{vision} {c['pair']} {c['de']:.1f}" for vision, c in group["closest"].items())
            )
        for row in self.text:
            lines.append(
                f"  smallest text on {row['kind']}: {row['size_pt']:.1f} pt (minimum {row['minimum']:g}), "
                f"{row['text']!r} on {row['piece']}, page {row['page']}"
            )
        if self.contrast:
            worst = min(self.contrast, key=lambda row: row["ratio"])
            lines.append(
                f"  lowest text contrast: {worst['ratio']:.2f}:1 (minimum {worst['minimum']:g}), "
                f"{worst['text']!r} {worst['colour']} on {worst['background']}, page {worst['page']}"
            )
        lines += [f"  - {finding}" for finding in self.findings]
        return "\n".join(lines)

    def summary_line(self, lang: str = "en") -> str:
        """One line for the kit's cover: the colour verdict (the text is measured on the
        finished PDF, after the cover is drawn: its figures are in the report)."""
        colour_findings = [f for f in self.findings if f.startswith("colours")]
        if colour_findings:
            return word(lang, "a11y_findings", count=len(colour_findings), first=colour_findings[0])
        cues = sorted({word(lang, f"cue_{g['cue']}") for g in self.colours if g["cue"]})
        return word(lang, "a11y_colours", cues=", ".join(cues) or "-")

    def cover_line(self, lang: str = "en") -> str:
        return word(lang, "accessibility_line", summary=self.summary_line(lang))


def check_colours(
    theme: Theme, games: Sequence[ColourGroup] = (), *, strict: bool | None = None
) -> AccessibilityReport:
    """The colour part of the check, which needs only the theme and the game's own colour
    groups (`Engine.colour_groups`)."""
    limits = thresholds(theme)
    report = AccessibilityReport(theme.id, bool(strict) or bool(limits["strict"]))
    for group in colour_groups(theme, games):
        names = [name for name, _ in group.members]
        values = [value for _, value in group.members]
        closest: dict[str, dict[str, Any]] = {}
        for vision in VISIONS:
            pairs = {
                (i, j): d
                for (i, j), d in distances(values, vision).items()
                if group.name != "realms" or _realm(names[i]) != _realm(names[j])
            }
            (i, j), de = min(pairs.items(), key=lambda item: (item[1], item[0]))
            closest[vision] = {"pair": f"{names[i]}/{names[j]}", "de": round(de, 1)}
            if de < group.minimum and group.cue is None:
                report.findings.append(
                    f"colours: {group.name} {names[i]} and {names[j]} are {de:.1f} apart in "
                    f"{vision} (at least {group.minimum:g} wanted, or a second cue such as "
                    "the theme's symbols)"
                )
        report.colours.append(
            {
                "group": group.name,
                "cue": group.cue,
                "minimum": group.minimum,
                "members": dict(group.members),
                "closest": closest,
            }
        )
    return report


def check_text(
    report: AccessibilityReport,
    theme: Theme,
    texts: Iterable[PrintedText],
    pieces: Mapping[str, str],
    *,
    margin_mm: float = 8.0,
) -> AccessibilityReport:
    """Add the text sizes and contrasts of the printed kit to `report`. `pieces` are the
    kit's SVG files by name, to tell which piece a text is on; `margin_mm` is the pages'
    margin (the footer sits just above it)."""
    limits = thresholds(theme)
    by_text = svg_texts(pieces)
    smallest: dict[str, dict[str, Any]] = {}
    best: dict[tuple[str, str, str, float], dict[str, Any]] = {}
    # A text printed several times on one page (twelve wands' 'Wand') names each piece that
    # prints it in turn; one printed once a page (the board's title on each of its sheets) is
    # the same piece each time.
    texts = list(texts)
    per_page = Counter((item.text, item.page) for item in texts)
    crowded = {text for (text, _page), count in per_page.items() if count > 1}
    seen: dict[tuple[str, ...], int] = {}
    for item in texts:
        kind, piece, minimum = _kind_of(
            item, by_text, limits, margin_mm + FOOTER_MM, seen if item.text in crowded else None
        )
        if kind is None:
            continue  # a piece pictured smaller than printed (the cover's set-up)
        size: dict[str, Any] = {
            "kind": kind,
            "piece": piece,
            "page": item.page,
            "text": _short(item.text),
            "size_pt": round(item.size_pt, 2),
            "minimum": minimum,
        }
        if kind not in smallest or size["size_pt"] < smallest[kind]["size_pt"]:
            smallest[kind] = size
        if item.size_pt < minimum - 0.005:
            report.findings.append(
                f"text: {item.size_pt:.1f} pt under the {minimum:g} pt minimum for {kind}: "
                f"{_short(item.text)!r} on {piece}, page {item.page}"
            )
        if item.background is None:
            continue  # its size counts wherever it is printed, its contrast where it shows
        ratio = contrast_ratio(item.colour, item.background)
        large = item.size_pt >= 18 or (item.bold and item.size_pt >= 14)
        wanted = float(limits["min_contrast_large" if large else "min_contrast"])
        # A board piece is printed across sheets that overlap, each clipped to its part: a text
        # is judged where it shows best (cut at a sheet's edge it may lie over the bare margin).
        key = (piece, item.text, item.colour, round(item.size_pt, 2))
        row: dict[str, Any] = {
            "page": item.page,
            "piece": piece,
            "text": _short(item.text),
            "colour": item.colour,
            "background": item.background,
            "ratio": round(ratio, 2),
            "minimum": wanted,
        }
        if key not in best or row["ratio"] > best[key]["ratio"]:
            best[key] = row
    report.text = [smallest[kind] for kind in sorted(smallest)]
    for row in sorted(best.values(), key=lambda row: (row["page"], row["piece"], row["text"])):
        if row["ratio"] < row["minimum"] - 0.005:
            report.findings.append(
                f"contrast: {row['ratio']:.2f}:1 under {row['minimum']:g}:1 for {row['text']!r} "
                f"({row['colour']} on {row['background']}) on {row['piece']}, page {row['page']}"
            )
    report.contrast = sorted(best.values(), key=lambda row: (row["ratio"], row["page"], row["text"]))[:20]
    report.text_checked = True
    return report


def _kind_of(
    item: PrintedText,
    by_text: Mapping[str, list[tuple[str, float]]],
    limits: Mapping[str, Any],
    footer_mm: float,
    seen: dict[tuple[str, ...], int] | None = None,
) -> tuple[str | None, str, float]:
    """(kind of piece, piece or page part, minimum size) of a printed text. Where several pieces
    print the same text at the same size (twelve wands' 'Wand'), `seen` counts the times it was
    met, and each time names the next of them of the first one's kind, in the order of their names."""
    pieces_min = float(limits["min_text_pt_pieces"])
    drawn = by_text.get(_spaces(item.text).strip())
    if drawn:
        same = [name for name, size in drawn if abs(size - item.size_pt) <= max(0.05, size * 0.02)]
        if same:
            same = [name for name in same if _piece_kind(name) == _piece_kind(same[0])]  # the board, not the set-up
            key = (item.text, *same)
            count = seen.get(key, 0) if seen is not None else 0
            if seen is not None:
                seen[key] = count + 1
            piece = same[count % len(same)]
            return _piece_kind(piece), piece, pieces_min
        if all(size > item.size_pt for _, size in drawn):
            return None, drawn[0][0], pieces_min
    if item.page_kind in RULES_KINDS and item.bottom_mm > footer_mm:
        return item.page_kind, f"{item.page_kind} page", float(limits["min_text_pt_rules"])
    return "page furniture", f"{item.page_kind or 'a'} page", float(limits["min_text_pt_sheets"])


def _piece_kind(name: str) -> str:
    """'card-book' -> 'card', 'pawn-red' -> 'pawn', 'board' -> 'board'."""
    return name.split("-")[0]


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:39] + "…"


def run(
    theme: Theme,
    games: Sequence[ColourGroup] = (),
    *,
    strict: bool = False,
    pdf_bytes: bytes | None = None,
    kinds: Sequence[str] = (),
    pieces: Mapping[str, str] | None = None,
    measure: Callable[[bytes, Sequence[str]], list[PrintedText]] = printed_texts,
) -> AccessibilityReport:
    """The whole check: colours, and with a printed kit its text sizes and contrasts."""
    report = check_colours(theme, games, strict=strict)
    if pdf_bytes is not None:
        check_text(report, theme, measure(pdf_bytes, kinds), pieces or {})
    return report
