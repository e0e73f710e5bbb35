"""Impose SVG drawings onto PDF pages: forms, tiled boards, card sheets, marks, text pages."""

from __future__ import annotations

import hashlib
import io
import logging
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from reportlab.graphics import renderPDF
from reportlab.graphics.shapes import STATE_DEFAULTS, Path
from reportlab.lib.colors import HexColor
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen import canvas as rl_canvas

from boardgen.data import fonts
from boardgen.data.strings import word
from boardgen.errors import UsageError
from boardgen.geometry import Outline, Placement, Rect, placement
from boardgen.render import drawing_cache
from boardgen.render.font_map import font_map
from boardgen.render.imposition import (
    CROP_RING,
    CROSS_SIZE,
    MARK_GAP,
    MARK_LEN,
    CardGrid,
    PageFrame,
    Piece,
    Tiling,
    back_rect,
    card_grid,
    clip_marks,
    free_areas,
    mark_segments,
    place_keys,
    stock,
    svg_size,
)
from boardgen.units import pt

if TYPE_CHECKING:
    from PIL import Image
    from reportlab.platypus import Paragraph  # imported when text is flowed: most of a reprint has none

    from boardgen.data.theme import Theme  # the theme checks its pictures through the PDF renderer

# svglib's notes on pictures are collected once per picture (trial_render) and shown by art.py;
# repeating them raw during the kit's render would only add noise.
logging.getLogger("svglib").addHandler(logging.NullHandler())

_FRENCH_BEFORE = re.compile(r"(?<=\S) ([:;!?%»])")
_FRENCH_AFTER = re.compile(r"« ")
_WORDS = re.compile(r"<text\b.*?</text>|<text\b[^>]*/>", re.S)  # an SVG's text elements
PIECE_PAGES = ("pieces", "cards", "card-backs", "blank")  # pages laid out in the piece frame
GLYPH_SLACK = 0.5  # mm kept between the window's edge and a line of text starting or ending on it


@dataclass(frozen=True)
class Form:
    name: str
    w: float
    h: float


@dataclass(frozen=True)
class Showcase:
    """Where a kept page shows a whole drawing alone, upright: a preview of that drawing is
    cut from the page instead of drawing it again (see render.preview)."""

    page: int  # 0-based, among the pages of the PDF
    rect: Rect  # where it is, mm from the page's top-left
    scale: float  # its size there over its own


@dataclass(frozen=True)
class ImposedPdf:
    """A finished PDF and what it holds: the kind (``cover``, ``board``, ``cards``, ...) and
    size (mm) of every page laid out, in order (a reprint drops some of them from `data`);
    every piece placed on those pages (see Placement: what cut and press files read), and by
    SVG (svg_key) the drawings its kept pages show whole (showcases, for previews)."""

    data: bytes
    kinds: tuple[str, ...]
    sizes: tuple[tuple[float, float], ...]
    placements: tuple[Placement, ...]
    showcases: Mapping[str, Showcase]


def svg_key(svg: str) -> str:
    return hashlib.sha256(svg.encode("utf-8")).hexdigest()


class PdfKit:
    """One PDF being written; every length passed in is millimetres from the page's top-left."""

    def __init__(
        self,
        frame: PageFrame,
        theme: Theme,
        lang: str,
        *,
        title: str,
        subject: str,
        only: Sequence[str] | None = None,
        keep_stock: str | None = None,
        piece_frame: PageFrame | None = None,
        bleed_under: float = 0.0,
    ):
        self.buffer = io.BytesIO()
        self.base_frame = frame
        # Pages of pieces and cards (print and cut: margins that leave room for the marks).
        self.piece_frame = piece_frame or frame
        self.bleed_under = bleed_under  # mm of art run past the trim of every piece placed
        self.svgs: dict[str, str] = {}  # each form's SVG, by name (its bleed is drawn from it)
        self.frame = frame
        self.theme = theme
        self.lang = lang
        self.title = title
        self.c = rl_canvas.Canvas(
            self.buffer,
            pagesize=(pt(frame.paper.w), pt(frame.paper.h)),
            invariant=1,
            pageCompression=1,
            initialFontName=self._font("body", "normal"),
            initialFontSize=10,
        )
        self.c.setViewerPreference("PrintScaling", "None")
        self.c.setTitle(title)
        self.c.setSubject(subject)
        self.c.setAuthor("boardgen")
        self.c.setCreator("boardgen")
        self.forms: dict[str, Form] = {}
        # A form is drawn (its SVG converted) only once a kept page shows it, when the PDF is
        # finished: a reprint never converts the pieces it leaves out. In order of first use.
        self.pending: dict[str, str | Any] = {}
        self.on_page: list[str] = []
        self.needed: dict[str, None] = {}
        self.sources: dict[str, str] = {}  # form name -> svg_key of its SVG
        self.showcases: dict[str, Showcase] = {}
        self.page_number = 0
        self.page_open = False
        self.kinds: list[str] = []
        self.sizes: list[tuple[float, float]] = []  # of each page laid out, mm
        # Every piece placed, page by page: the one record cut files and print-shop files read.
        self.placements: list[Placement] = []
        # A reprint keeps only pages of these kinds (card backs go with "cards"); the others are
        # still laid out, so page numbers and piece order are the kit's, then dropped.
        self.only = None if only is None else frozenset(only) | ({"card-backs"} if "cards" in only else set())
        self.kept = 0
        # Only the pages of this stock are kept (one file of a split kit), numbered in it.
        self.keep_stock = keep_stock
        self.large_print = False  # the rules in LARGE_PRINT_MM type, one column (kits.rules_text)
        self.shown_number = 0
        self.deferred: list[tuple[str, PageFrame, Callable[[], None]]] = []
        self.pieces_on_board = False  # some board sheets also carry pieces below the board
        self.flow_end = (0, 0.0, 0.0, 0.0)  # last flow: column, mm used in it, column width, gutter

    def typeset(self, text: str) -> str:
        """French puts a no-break space before : ; ! ? % » and after «, so a line never starts
        with the mark (whatever spaces the strings or data files used)."""
        if self.lang != "fr":
            return text
        return _FRENCH_AFTER.sub("\u00ab\u00a0", _FRENCH_BEFORE.sub("\u00a0\\1", text))

    # Coordinates and colours -----------------------------------------------------------------

    def _x(self, x: float) -> float:
        return pt(x)

    def _y(self, y: float) -> float:
        return pt(self.frame.paper.h - y)

    def _colour(self, key: str) -> Any:
        return HexColor(key if key.startswith("#") else self.theme.colour(key))

    def _font(self, role: str, weight: str) -> str:
        return fonts.face(self.theme.fonts[role], weight).pdf_name

    # Forms -------------------------------------------------------------------------------

    def add_svg_form(self, name: str, svg: str) -> Form:
        """An SVG as a PDF Form XObject, to be placed many times; its size in mm comes from the
        SVG itself, and it is converted when the PDF is finished if a kept page shows it."""
        if name in self.forms:
            return self.forms[name]
        size = svg_size(svg)
        if size is None:  # not one of boardgen's drawings in mm: svglib tells its size
            drawing = _drawing(svg)
            form = Form(name, drawing.width / pt(1), drawing.height / pt(1))
            self.pending[name] = drawing
        else:
            form = Form(name, *size)
            self.pending[name] = svg
            self.svgs[name] = svg
        self.sources[name] = svg_key(svg)
        self.forms[name] = form
        return form

    def _define_form(self, name: str) -> None:
        source = self.pending.pop(name)
        drawing = _drawing(source) if isinstance(source, str) else source
        self.c.beginForm(name, lowerx=0, lowery=0, upperx=drawing.width, uppery=drawing.height)
        _draw(drawing, self.c, self._font("body", "normal"))
        shading = dict(self.c._shadingUsed)
        self.c.endForm()
        _complete_form_resources(self.c, name, shading)

    def place(
        self,
        form: Form,
        x: float,
        y: float,
        *,
        clip: Rect | None = None,
        scale: float = 1.0,
        rotate: int = 0,
        showcase: bool = False,
    ) -> None:
        """Draw a form with its top-left corner at (x, y), optionally clipped to a page rectangle.
        showcase: nothing else is drawn over it, so a preview may be cut from this page."""
        if (
            showcase
            and clip is None
            and rotate == 0
            and form.name in self.sources
            and self.page_open
            and self._keeps(self.kinds[-1])
        ):
            self.showcases.setdefault(
                self.sources[form.name], Showcase(self.kept, Rect(x, y, form.w * scale, form.h * scale), scale)
            )
        c = self.c
        c.saveState()
        if clip is not None:
            path = c.beginPath()
            path.rect(self._x(clip.x), self._y(clip.bottom), pt(clip.w), pt(clip.h))
            c.clipPath(path, stroke=0, fill=0)
        w, h = form.w * scale, form.h * scale
        if rotate == 180:
            c.translate(self._x(x + w), self._y(y))
            c.rotate(180)
        elif rotate == 90:  # the form's top to the page's left; it covers h x w from (x, y)
            c.translate(self._x(x + h), self._y(y + w))
            c.rotate(90)
        elif rotate == 270:  # the form's top to the page's right
            c.translate(self._x(x), self._y(y))
            c.rotate(-90)
        else:
            c.translate(self._x(x), self._y(y + h))
        if scale != 1.0:
            c.scale(scale, scale)
        c.doForm(form.name)
        c.restoreState()
        if form.name in self.pending:
            self.on_page.append(form.name)

    def place_piece(
        self,
        form: Form,
        x: float,
        y: float,
        *,
        piece: str,
        outline: Outline,
        rotate: int = 0,
        clip: Rect | None = None,
        bleed: float = 0.0,
    ) -> Placement:
        """Place a piece's drawing like `place` and record where its trim outline lies on the
        page (`placements`); `piece` is its id, ``kind:ID``. With `bleed_under` (print and cut)
        a piece drawn with less bleed gets its own art enlarged under it, clipped to its outline
        grown by that much: a cut that lands a little outside the trim shows no white sliver."""
        found = self.record(form, x, y, piece=piece, outline=outline, rotate=rotate, bleed=bleed)
        if self.bleed_under > bleed + 1e-9:
            self._underlay(form, x, y, found, rotate)
        self.place(form, x, y, clip=clip, rotate=rotate)
        return found

    def _underlay(self, form: Form, x: float, y: float, placed: Placement, rotate: int) -> None:
        """Art for `bleed_under` mm past the trim. A rectangle's edges are mirrored outward, as
        print shops make bleed (export.press): the colour at each edge runs on past it. Any
        other outline gets the form enlarged about its trim's centre under it, so the trim grows
        by that much on every side, clipped to the outline grown so much."""
        grow = self.bleed_under
        t = placed.trim
        c = self.c
        # The copies under the piece carry its shapes, not its words: no mirrored letters in
        # the bleed, nor a piece's text found nine times in the PDF.
        source = self.svgs.get(form.name)
        if source is not None:
            form = self.add_svg_form(f"Bleed-{form.name}", _WORDS.sub("", source))
        if placed.shape in ("rect", "rounded"):
            spans = {-1: (t.x - grow, grow), 0: (t.x, t.w), 1: (t.right, grow)}
            rows = {-1: (t.y - grow, grow), 0: (t.y, t.h), 1: (t.bottom, grow)}
            for mx in (-1, 0, 1):
                for my in (-1, 0, 1):
                    if mx == my == 0:
                        continue
                    c.saveState()
                    band = Rect(spans[mx][0], rows[my][0], spans[mx][1], rows[my][1])
                    path = c.beginPath()
                    path.rect(self._x(band.x), self._y(band.bottom), pt(band.w), pt(band.h))
                    c.clipPath(path, stroke=0, fill=0)
                    if mx:  # across the left (or right) edge
                        edge = self._x(t.x if mx < 0 else t.right)
                        c.translate(2 * edge, 0)
                        c.scale(-1, 1)
                    if my:
                        edge = self._y(t.y if my < 0 else t.bottom)
                        c.translate(0, 2 * edge)
                        c.scale(1, -1)
                    self.place(form, x, y, rotate=rotate)
                    c.restoreState()
            return
        ring = placed.polygon().buffer(grow, join_style=2)
        c.saveState()
        path = c.beginPath()
        points = list(ring.exterior.coords)
        path.moveTo(self._x(points[0][0]), self._y(points[0][1]))
        for px, py in points[1:]:
            path.lineTo(self._x(px), self._y(py))
        path.close()
        c.clipPath(path, stroke=0, fill=0)
        cx, cy = self._x(t.x + t.w / 2), self._y(t.y + t.h / 2)
        c.translate(cx, cy)
        c.scale((t.w + 2 * grow) / t.w, (t.h + 2 * grow) / t.h)
        c.translate(-cx, -cy)
        self.place(form, x, y, rotate=rotate)
        c.restoreState()

    def record(
        self,
        form: Form,
        x: float,
        y: float,
        *,
        piece: str,
        outline: Outline,
        rotate: int = 0,
        bleed: float = 0.0,
        scale: float = 1.0,
        kind: str | None = None,
        folds: tuple[tuple[float, float], tuple[float, float]] | None = None,
    ) -> Placement:
        """Record a piece placed on this page (see Placement) without drawing it; `kind`
        defaults to the id's, `folds` adds a fold line already in page mm."""
        found = placement(
            piece,
            kind or piece.partition(":")[0],
            outline,
            form.w,
            form.h,
            x,
            y,
            stock=stock(self.kinds[-1]),
            page=len(self.kinds) - 1,
            rotate=rotate,
            scale=scale,
            bleed=bleed,
        )
        if folds is not None:
            found = replace(found, folds=(*found.folds, folds))
        self.placements.append(found)
        return found

    # Pages -----------------------------------------------------------------------------

    def new_page(self, heading: str, *, kind: str, frame: PageFrame | None = None) -> None:
        """Start a page; a board may use its own (turned) frame, other pages the kit's."""
        if self.page_open:
            self._close_page()
        self.frame = frame or (self.piece_frame if kind in PIECE_PAGES else self.base_frame)
        self.c.setPageSize((pt(self.frame.paper.w), pt(self.frame.paper.h)))
        self.page_number += 1
        self.kinds.append(kind)
        self.sizes.append((self.frame.paper.w, self.frame.paper.h))
        self.shown_number = (
            self.page_number if self.keep_stock is None else sum(stock(k) == self.keep_stock for k in self.kinds)
        )
        self.page_open = True
        self._furniture(heading)

    def _furniture(self, heading: str) -> None:
        """Header line and calibration bar, on every page, inside the printable window."""
        head = self.frame.header_rect
        # Some glyphs (a bold "J") reach left of their origin: half a millimetre keeps them in.
        self.text(
            heading, head.x + GLYPH_SLACK, head.y + 5.5, size=3.6, weight="bold", width=head.w * 0.72 - GLYPH_SLACK
        )
        self.text(
            self.title,
            head.right - GLYPH_SLACK,
            head.y + 5.5,
            size=3.0,
            anchor="end",
            fill="muted",
            width=head.w * 0.26 - GLYPH_SLACK,
        )
        self.line(
            head.x, head.bottom - 2, head.right, head.bottom - 2, colour="muted", width=self.theme.strokes["rule"]
        )
        self.calibration_bar()

    def calibration_bar(self) -> None:
        foot = self.frame.footer_rect
        # The bar's outline is stroked on its edge: half the stroke would fall in the margin.
        x0, y0 = foot.x + self.theme.strokes["calibration"] / 2, foot.y + 4.5
        c = self.c
        c.setStrokeColor(self._colour("ink"))
        c.setFillColor(self._colour("ink"))
        c.setLineWidth(pt(self.theme.strokes["calibration"]))
        c.rect(self._x(x0), self._y(y0 + 1.6), pt(100), pt(1.6), stroke=1, fill=0)
        for mm in range(0, 101, 10):
            if mm % 20 == 0 and mm < 100:
                c.rect(self._x(x0 + mm), self._y(y0 + 1.6), pt(10), pt(1.6), stroke=0, fill=1)
            tick = 2.6 if mm % 50 == 0 else 1.6
            self.line(
                x0 + mm, y0 - tick + 1.6, x0 + mm, y0 + 1.6, colour="ink", width=self.theme.strokes["calibration"]
            )
        self.text(word(self.lang, "calibration"), x0, y0 + 5.6, size=2.6, fill="ink", width=100)
        self.text(str(self.shown_number), foot.right, y0 + 5.6, size=3.0, anchor="end", fill="muted")

    def _keeps(self, kind: str) -> bool:
        if self.keep_stock is not None and stock(kind) != self.keep_stock:
            return False
        if self.only is None:
            return True
        if kind == "blank":  # it puts card fronts on odd pages: kept where the reprint needs it
            return self.kept % 2 == 1 and "cards" in self.only
        return kind in self.only

    def _close_page(self) -> None:
        if self._keeps(self.kinds[-1]):
            self.c.showPage()
            self.kept += 1
            self.needed.update(dict.fromkeys(self.on_page))
            self.on_page = []
        else:
            self.on_page = []
            # Dropped from a reprint: forget the page's drawing and start afresh, as showPage would.
            self.c._startPage()
            self.c._pageNumber -= 1

    def later(self, name: str, draw: Callable[[], None]) -> None:
        """Show on this page what `draw` paints once every page exists (a form referenced now,
        filled in by finish): for text that needs the page numbers of what follows, or the
        verdict of a check still running. Nothing is drawn for a page a reprint drops."""
        if self.page_open and not self._keeps(self.kinds[-1]):
            return
        self.c.doForm(name)
        self.deferred.append((name, self.frame, draw))

    def finish(self) -> ImposedPdf:
        if self.page_open:
            self._close_page()
            self.page_open = False
        # The forms kept pages show are converted first: a deferred drawing may wait (for the
        # verdict of the check running beside the render).
        for name in list(self.needed):
            if name in self.pending:
                self._define_form(name)
        current = self.frame
        for name, frame, draw in self.deferred:
            self.frame = frame
            self.c.beginForm(name, lowerx=0, lowery=0, upperx=pt(frame.paper.w), uppery=pt(frame.paper.h))
            draw()
            self.c.endForm()
        self.frame = current
        # Forms shown by the deferred drawings just made (or on the last page), in order of first use.
        self.needed.update(dict.fromkeys(self.on_page))
        for name in self.needed:
            if name in self.pending:
                self._define_form(name)
        self.c.save()
        return ImposedPdf(
            self.buffer.getvalue(), tuple(self.kinds), tuple(self.sizes), tuple(self.placements), dict(self.showcases)
        )

    # Primitives ------------------------------------------------------------------------

    def text(
        self,
        content: str,
        x: float,
        y: float,
        *,
        size: float,
        role: str = "body",
        weight: str = "normal",
        anchor: str = "start",
        fill: str = "ink",
        width: float | None = None,
        angle: float = 0,
    ) -> None:
        """A single line of text with its baseline at y; shrunk to fit width if given."""
        family = self.theme.fonts[role]
        content = self.typeset(content)
        fonts.check_glyphs(content, family, weight, where="page text")
        if width is not None:
            size = fonts.fit_size(content, family, weight, width=width, size=size, smallest=size * 0.55)
        c = self.c
        c.saveState()
        c.setFillColor(self._colour(fill))
        c.setFont(self._font(role, weight), pt(size))
        c.translate(self._x(x), self._y(y))
        if angle:
            c.rotate(angle)
        parts = fonts.runs(content, family, weight)
        if len(parts) == 1:
            draw = {"start": c.drawString, "middle": c.drawCentredString, "end": c.drawRightString}[anchor]
            draw(0, 0, content)
        else:  # signs the font lacks, from the fallback family, run after run
            widths = [fonts.text_width(chunk, used, weight, size) for chunk, used in parts]
            at = -{"start": 0.0, "middle": sum(widths) / 2, "end": sum(widths)}[anchor]
            for (chunk, used), wide in zip(parts, widths, strict=True):
                c.setFont(fonts.face(used, weight).pdf_name, pt(size))
                c.drawString(pt(at), 0, chunk)
                at += wide
        c.restoreState()

    def text_width(self, content: str, *, size: float, role: str = "body", weight: str = "normal") -> float:
        return fonts.text_width(content, self.theme.fonts[role], weight, size)

    def line(
        self,
        x1: float,
        y1: float,
        x2: float,
        y2: float,
        *,
        colour: str = "marks",
        width: float | None = None,
        dash: Sequence[float] | None = None,
    ) -> None:
        c = self.c
        c.saveState()
        c.setStrokeColor(self._colour(colour))
        c.setLineWidth(pt(width if width is not None else self.theme.strokes["crop_mark"]))
        if dash:
            c.setDash([pt(d) for d in dash])
        c.line(self._x(x1), self._y(y1), self._x(x2), self._y(y2))
        c.restoreState()

    def rect(
        self,
        r: Rect,
        *,
        stroke: str | None = None,
        fill: str | None = None,
        width: float = 0.2,
        alpha: float = 1.0,
        dash: Sequence[float] | None = None,
    ) -> None:
        c = self.c
        c.saveState()
        if fill:
            c.setFillColor(self._colour(fill))
            if alpha < 1:
                c.setFillAlpha(alpha)
        if stroke:
            c.setStrokeColor(self._colour(stroke))
            c.setLineWidth(pt(width))
            if dash:
                c.setDash([pt(d) for d in dash])
        c.rect(self._x(r.x), self._y(r.bottom), pt(r.w), pt(r.h), stroke=1 if stroke else 0, fill=1 if fill else 0)
        c.restoreState()

    def crop_marks(self, xs: Sequence[float], ys: Sequence[float], bounds: Rect) -> None:
        """Marks in the ring outside `bounds` extending each trim line (xs vertical, ys horizontal)."""
        for x in xs:
            self.line(x, bounds.y - MARK_GAP, x, bounds.y - MARK_GAP - MARK_LEN)
            self.line(x, bounds.bottom + MARK_GAP, x, bounds.bottom + MARK_GAP + MARK_LEN)
        for y in ys:
            self.line(bounds.x - MARK_GAP, y, bounds.x - MARK_GAP - MARK_LEN, y)
            self.line(bounds.right + MARK_GAP, y, bounds.right + MARK_GAP + MARK_LEN, y)

    def cross(self, x: float, y: float) -> None:
        """A registration cross: two CROSS_SIZE lines and a small circle."""
        half = CROSS_SIZE / 2
        width = self.theme.strokes["registration"]
        self.line(x - half, y, x + half, y, width=width)
        self.line(x, y - half, x, y + half, width=width)
        c = self.c
        c.saveState()
        c.setStrokeColor(self._colour("marks"))
        c.setLineWidth(pt(width))
        c.circle(self._x(x), self._y(y), pt(half * 0.55), stroke=1, fill=0)
        c.restoreState()

    def _flowables(self, blocks: Sequence[tuple[str, str]], size: float) -> list[Paragraph]:
        from reportlab.lib.styles import ParagraphStyle
        from reportlab.platypus import Paragraph

        body = ParagraphStyle(
            "body",
            fontName=self._font("body", "normal"),
            fontSize=pt(size),
            bulletFontName=self._font("body", "normal"),
            leading=pt(size * 1.32),
            spaceAfter=pt(size * 0.45),
            textColor=self._colour("ink"),
        )
        styles = {
            "p": body,
            "li": ParagraphStyle("li", parent=body, leftIndent=pt(4), bulletIndent=pt(0.8)),
            "h": ParagraphStyle(
                "h",
                parent=body,
                fontName=self._font("title", "bold"),
                fontSize=pt(size * 1.35),
                leading=pt(size * 1.7),
                spaceBefore=pt(size * 0.8),
                textColor=self._colour("ink"),
            ),
        }
        flow = []
        for kind, text in blocks:
            text = self.typeset(text)
            family = self.theme.fonts["title" if kind == "h" else "body"]
            weight = "bold" if kind == "h" else "normal"
            fonts.check_glyphs(re.sub(r"<[^>]+>", "", text), family, weight, where="page text")
            text = _fallback_markup(text, family, weight)
            bullet = {"bulletText": "•"} if kind == "li" else {}
            paragraph = Paragraph(text, styles[kind], **bullet)
            paragraph.boardgen_block = (kind, text)
            flow.append(paragraph)
        return flow

    def measure(self, blocks: Sequence[tuple[str, str]], width: float, *, size: float = 3.4) -> float:
        """Height in mm that blocks take when flowed into a column of the given width."""
        total = 0.0
        for paragraph in self._flowables(blocks, size):
            _, h = paragraph.wrap(pt(width), pt(1000))
            total += h + paragraph.style.spaceAfter + paragraph.style.spaceBefore
        return total / pt(1)

    def paragraphs(
        self, blocks: Sequence[tuple[str, str]], area: Rect, *, size: float = 3.4, columns: int = 1
    ) -> list[Any]:
        """Flow (kind, text) blocks into the area; returns what did not fit (see flow)."""
        return self.flow(self._flowables(blocks, size), area, size=size, columns=columns)

    def flowables(self, blocks: Sequence[tuple[str, str]], *, size: float = 3.4) -> list[Any]:
        return self._flowables(blocks, size)

    def flow(
        self, flow: list[Any], area: Rect, *, size: float = 3.4, columns: int = 1, gutter: float = 6.0
    ) -> list[Any]:
        """Flow paragraphs into columns; returns the ones (or the part of one) that did not fit.

        A paragraph may continue in the next column; a heading never ends a column.
        """
        flow = list(flow)
        col_w = pt((area.w - gutter * (columns - 1)) / columns)
        column, used = 0, 0.0
        height = pt(area.h)
        while flow and column < columns:
            item = flow[0]
            room = height - used
            _, h = item.wrap(col_w, room)
            need = h + (item.style.spaceBefore if used else 0)
            if item.boardgen_block[0] == "h" and len(flow) > 1:
                _, next_h = flow[1].wrap(col_w, room)
                need += min(next_h, pt(size * 1.32 * 2)) + item.style.spaceAfter
            if need <= room:
                top = used + (item.style.spaceBefore if used else 0)
                item.drawOn(self.c, self._x(area.x) + column * (col_w + pt(gutter)), self._y(area.y) - top - h)
                used = top + h + item.style.spaceAfter
                flow.pop(0)
                continue
            parts = item.split(col_w, room) if item.boardgen_block[0] != "h" else []
            if len(parts) == 2:
                for part in parts:
                    part.boardgen_block = item.boardgen_block
                flow[0:1] = parts
                _, h = parts[0].wrap(col_w, room)
                parts[0].drawOn(self.c, self._x(area.x) + column * (col_w + pt(gutter)), self._y(area.y) - used - h)
                flow.pop(0)
            column, used = column + 1, 0.0
        self.flow_end = (column, used / pt(1), (area.w - gutter * (columns - 1)) / columns, gutter)
        return flow

    # Composite pages -------------------------------------------------------------------

    def board_sheets(
        self, board: Form, tiling: Tiling, *, heading: str, fill: Callable[[Rect], int] | None = None
    ) -> None:
        """One page per piece of a tiled board, with its place label, marks and joints; `fill`
        gets the free areas below and beside the board part and returns how many pieces it put
        there."""
        total = tiling.rows * tiling.cols  # the whole board, even when reprinting a few sheets
        for piece in tiling.pieces:
            keys = place_keys(piece)
            place = self.place_name(keys)
            label = f"{heading} — {place} · " if place else f"{heading} · "
            label += word(self.lang, "row_col", row=piece.row + 1, col=piece.col + 1)
            label += " · " + word(self.lang, "sheet_of", k=piece.index + 1, n=total)
            self.new_page(label, kind="board", frame=tiling.frame)
            shown = piece.page_rect
            ox, oy = piece.origin
            self.place(board, ox, oy, clip=shown)
            # What this sheet keeps once cut (its share of the board and any glue band it carries).
            self.record(
                Form(board.name, shown.w, shown.h),
                shown.x,
                shown.y,
                piece=f"board:{piece.index + 1}",
                outline=Outline(),
            )
            if tiling.style == "overlap":
                self._glue_bands(piece, tiling)
            trim = Rect(ox + piece.trim.x, oy + piece.trim.y, piece.trim.w, piece.trim.h)
            self._seam_cut_lines(piece, trim, shown, tiling)
            # Every edge of what this sheet keeps is cut: the board's own edges, the seams, and
            # the outer edge of a glue band (which stays on, under the neighbour).
            self.crop_marks((shown.x, shown.right), (shown.y, shown.bottom), shown)
            for bx, by in piece.crosses:
                self.cross(*piece.to_page(bx, by))
            self._neighbour_labels(piece, tiling, shown)
            if fill is not None:
                # Pieces keep their own crop-mark ring (a grid's marks lie inside the room it takes),
                # so they may use the page's mark ring too, outside the board's.
                for free in free_areas(tiling.frame.marked, shown):
                    if free.w > 0 and free.h > 0 and fill(free):
                        self.pieces_on_board = True

    def place_name(self, keys: tuple[str, ...]) -> str:
        """'Up Left', 'Haut gauche': a sheet's place in the kit's language only."""
        return " ".join(word(self.lang, k) for k in keys)

    def _glue_bands(self, piece: Piece, tiling: Tiling) -> None:
        ox, oy = piece.origin
        g = tiling.overlap
        bands = []
        if piece.col < piece.cols - 1:
            bands.append((Rect(ox + piece.trim.right, oy + piece.shown.y, g, piece.shown.h), 90))
        if piece.row < piece.rows - 1:
            bands.append((Rect(ox + piece.shown.x, oy + piece.trim.bottom, piece.shown.w, g), 0))
        for band, angle in bands:
            self.rect(band, fill="glue_band", alpha=0.75)
            cx, cy = band.x + band.w / 2, band.y + band.h / 2
            length = band.h if angle else band.w
            self.text(
                word(self.lang, "glue_here"),
                cx + (1.0 if angle else 0),
                cy + (0 if angle else 1.0),
                size=2.6,
                anchor="middle",
                angle=angle,
                width=length * 0.8,
            )

    def _seam_cut_lines(self, piece: Piece, trim: Rect, shown: Rect, tiling: Tiling) -> None:
        """Dashed cut lines where this sheet meets a neighbour: on the seam, or on the outer edge
        of the glue band this sheet carries (its other edges are the board's)."""
        dash = (2.0, 1.2)
        width = self.theme.strokes["cut_line"]
        if piece.col < piece.cols - 1:
            self.line(shown.right, shown.y, shown.right, shown.bottom, colour="cut", width=width, dash=dash)
        if piece.row < piece.rows - 1:
            self.line(shown.x, shown.bottom, shown.right, shown.bottom, colour="cut", width=width, dash=dash)
        if piece.col > 0:
            self.line(trim.x, trim.y, trim.x, trim.bottom, colour="cut", width=width, dash=dash)
        if piece.row > 0:
            self.line(trim.x, trim.y, trim.right, trim.y, colour="cut", width=width, dash=dash)

    def _neighbour_labels(self, piece: Piece, tiling: Tiling, shown: Rect) -> None:
        sides = {"right": (0, 1), "left": (0, -1), "down": (1, 0), "up": (-1, 0)}
        for side, (dr, dc) in sides.items():
            other = tiling.piece_at(piece.row + dr, piece.col + dc)
            if other is None:
                continue
            name = self.place_name(place_keys(other)) or word(
                self.lang, "row_col", row=other.row + 1, col=other.col + 1
            )
            arrow = {"right": "→", "left": "←", "down": "↓", "up": "↑"}[side]
            label = f"{arrow} {word(self.lang, 'neighbour', place=name)} ({other.index + 1})"
            if side in ("left", "right"):
                x = shown.x - 3.4 if side == "left" else shown.right + 3.4
                self.text(
                    label,
                    x,
                    shown.y + shown.h / 2,
                    size=2.4,
                    anchor="middle",
                    angle=90 if side == "left" else -90,
                    width=shown.h * 0.5,
                    fill="muted",
                )
            else:
                y = shown.y - 3.2 if side == "up" else shown.bottom + 5.2
                self.text(label, shown.x + shown.w / 2, y, size=2.4, anchor="middle", width=shown.w * 0.5, fill="muted")

    def card_sheets(
        self,
        fronts: Sequence[Form],
        back: Form,
        *,
        bleed: float,
        outline: Outline,
        heading: str,
        back_heading: str,
        backs: str,
        flip: str,
        back_offset: tuple[float, float],
        ids: Sequence[str] | None = None,
        gap: float = 0.0,
        cut: Callable[[int], str] | None = None,
    ) -> None:
        """Cards on a grid, upright or turned, whichever holds more: butted on shared cut lines
        (bleed around the block) or `gap` apart with their own crop marks; backs as duplex
        pages, fold-over (each back beside its front) or none. `ids` name the cards in the
        placements (``card:ID``); `outline` is a card's trim inside its drawing; `cut(n)`, the
        cut list of a sheet of n cards, follows the heading of each front page."""
        if backs not in ("duplex", "fold", "none"):
            raise UsageError(f"unknown backs {backs!r}; use duplex, fold or none")
        if flip not in ("long", "short"):
            raise UsageError(f"unknown flip {flip!r}; use long or short")
        if not fronts:
            return
        names = list(ids) if ids is not None else [form.name for form in fronts]
        card = fronts[0]
        g = card_grid(
            self.piece_frame,
            card.w - 2 * bleed,
            card.h - 2 * bleed,
            bleed,
            fold=backs == "fold",
            gap=gap,
            count=len(fronts),
        )
        rotate = 90 if g.turned else 0
        # Never a sheet and its back for one card: then as many cards on each sheet as the
        # others (21 on sheets of 10: 7 + 7 + 7).
        per_sheet = (
            g.per_page
            if len(fronts) % g.per_page != 1 or len(fronts) == 1
            else -(-len(fronts) // -(-len(fronts) // g.per_page))
        )
        for start in range(0, len(fronts), per_sheet):
            chunk = fronts[start : start + per_sheet]
            chunk_ids = names[start : start + per_sheet]
            if backs == "duplex" and self.only is not None:
                # A reprint is printed whole, double-sided: fronts go on odd pages (the blank is
                # kept only where needed, see _keeps). A whole kit names its duplex pages instead.
                self.new_page(word(self.lang, "blank"), kind="blank")
            self.new_page(heading if cut is None else f"{heading} — {cut(len(chunk))}", kind="cards")
            cells = g.cells(len(chunk))
            for form, name, (trim, clip) in zip(chunk, chunk_ids, cells, strict=True):
                self.place(form, trim.x - bleed, trim.y - bleed, clip=clip, rotate=rotate)
                self.record(
                    form,
                    trim.x - bleed,
                    trim.y - bleed,
                    piece=f"card:{name}",
                    outline=outline,
                    rotate=rotate,
                    bleed=bleed,
                    folds=((trim.right, trim.y), (trim.right, trim.bottom)) if backs == "fold" else None,
                )
            self._card_marks(g, len(chunk))
            if backs == "fold":
                # Folding mirrors across a vertical line, like a long-edge flip.
                for name, (trim, clip) in zip(chunk_ids, g.backs(len(chunk)), strict=True):
                    self.place(back, trim.x - bleed, trim.y - bleed, clip=clip, rotate=-rotate % 360)
                    self.record(
                        back,
                        trim.x - bleed,
                        trim.y - bleed,
                        piece=f"card:{name}",
                        kind="card-back",
                        outline=outline,
                        rotate=-rotate % 360,
                        bleed=bleed,
                    )
                block = g.block(len(chunk))
                top, bottom = block.y - bleed - CROP_RING, block.bottom + bleed + CROP_RING
                for trim, _ in g.cells(len(chunk))[: g.cols]:
                    fold_x = trim.right
                    self.line(
                        fold_x,
                        top,
                        fold_x,
                        top + CROP_RING,
                        colour="cut",
                        width=self.theme.strokes["cut_line"],
                        dash=(1.5, 1),
                    )
                    self.line(
                        fold_x,
                        bottom - CROP_RING,
                        fold_x,
                        bottom,
                        colour="cut",
                        width=self.theme.strokes["cut_line"],
                        dash=(1.5, 1),
                    )
                    self.text(word(self.lang, "fold"), fold_x + 1, top + 2.5, size=2.4, fill="muted")
            elif backs == "duplex":
                mark = self._duplex_test_mark(g, len(chunk), front=True)
                self.new_page(back_heading, kind="card-backs")
                paper_ = self.frame.paper
                back_cells = [
                    (
                        back_rect(trim, paper_, flip=flip, offset=back_offset),
                        back_rect(clip, paper_, flip=flip, offset=back_offset),
                    )
                    for trim, clip in cells
                ]
                self._check_backs(back_cells, bleed, back_offset)
                # The flip mirrors the sheet: across a vertical line (long edge) a card turned by
                # a has its top where a back turned by -a has its own; across a horizontal line
                # (short edge) by 180 - a: upright cards get upside-down backs.
                turn = (180 - rotate if flip == "short" else -rotate) % 360
                for name, (trim, clip) in zip(chunk_ids, back_cells, strict=True):
                    self.place(back, trim.x - bleed, trim.y - bleed, clip=clip, rotate=turn)
                    self.record(
                        back,
                        trim.x - bleed,
                        trim.y - bleed,
                        piece=f"card:{name}",
                        kind="card-back",
                        outline=outline,
                        rotate=turn,
                        bleed=bleed,
                    )
                # No crop marks here: cards are cut from the front, on its marks.
                if mark is not None:
                    spot = back_rect(Rect(mark[0], mark[1], 0, 0), paper_, flip=flip, offset=back_offset)
                    self._duplex_test_mark_back(spot.x, spot.y)

    def _check_backs(self, cells: Sequence[tuple[Rect, Rect]], bleed: float, offset: tuple[float, float]) -> None:
        """--back-offset may only move the backs (with their bleed) within the printable area."""
        room = self.frame.window
        over = max(
            room.x - min(c.x for _, c in cells),
            room.y - min(c.y for _, c in cells),
            max(c.right for _, c in cells) - room.right,
            max(c.bottom for _, c in cells) - room.bottom,
        )
        if over > 1e-6:
            raise UsageError(
                f"--back-offset {offset[0]:g},{offset[1]:g} moves the card backs {over:.1f} mm off the "
                "printable area; printers are rarely off by more than 2 mm: measure yours with the "
                "duplex test mark under the first card sheet"
            )

    def _duplex_test_mark(self, g: CardGrid, count: int, *, front: bool) -> tuple[float, float] | None:
        """A 10 mm scale under the card block on the front page; its back page carries a cross at
        the mirrored place. Held to the light, the cross shows the printer's misregistration."""
        block = g.block(count)
        area = self.frame.marked
        cx, cy = area.x + 8.0, block.bottom + g.bleed + CROP_RING + 8.0
        if cy + 6.0 > area.bottom:
            return None
        width = self.theme.strokes["crop_mark"]
        self.line(cx - 5, cy, cx + 5, cy, colour="ink", width=width)
        self.line(cx, cy - 5, cx, cy + 5, colour="ink", width=width)
        for k in range(-5, 6):
            tick = 1.4 if k % 5 == 0 else 0.7
            self.line(cx + k, cy - tick, cx + k, cy, colour="ink", width=width / 2)
            self.line(cx - tick, cy + k, cx, cy + k, colour="ink", width=width / 2)
        self.text(
            word(self.lang, "duplex_test"), cx + 7.5, cy - 1.0, size=2.2, fill="muted", width=area.right - cx - 8.0
        )
        self.text(
            word(self.lang, "duplex_test_how"), cx + 7.5, cy + 2.2, size=2.2, fill="muted", width=area.right - cx - 8.0
        )
        return cx, cy

    def _duplex_test_mark_back(self, x: float, y: float) -> None:
        width = self.theme.strokes["crop_mark"]
        self.line(x - 2, y, x + 2, y, colour="ink", width=width)
        self.line(x, y - 2, x, y + 2, colour="ink", width=width)

    def _card_marks(self, g: CardGrid, count: int) -> None:
        """Crop marks on every cut line: butted cards' outside the block and its bleed, spaced
        cards' around each card (in the gaps, short of the next card)."""
        pieces = g.pieces(count)
        b = g.bleed
        if g.gap > 0:
            for x1, y1, x2, y2 in clip_marks(mark_segments(pieces, False, reach=b), pieces):
                self.line(x1, y1, x2, y2)
            return
        bounds = Rect(
            min(c.x for c in pieces) - b,
            min(c.y for c in pieces) - b,
            max(c.right for c in pieces) - min(c.x for c in pieces) + 2 * b,
            max(c.bottom for c in pieces) - min(c.y for c in pieces) + 2 * b,
        )
        xs = sorted({round(v, 4) for c in pieces for v in (c.x, c.right)})
        ys = sorted({round(v, 4) for c in pieces for v in (c.y, c.bottom)})
        self.crop_marks(xs, ys, bounds)


def svg_page(svg: str, theme: Theme) -> bytes:
    """A one-page PDF exactly the size of an SVG drawing (for previews of a whole board)."""
    drawing = _drawing(svg)
    buffer = io.BytesIO()
    body = fonts.face(theme.fonts["body"]).pdf_name
    c = rl_canvas.Canvas(buffer, pagesize=(drawing.width, drawing.height), invariant=1, initialFontName=body)
    _draw(drawing, c, body)
    c.showPage()
    c.save()
    return buffer.getvalue()


# The last drawings used in this process, by drawing_cache key: few, since the cache folder
# gives any other back in a millisecond and a kit's hundred drawings weigh megabytes.
_CONVERTED: dict[str, Any] = {}
_CONVERTED_MAX = 8


def svg_image(svg: str, theme: Theme, pixels: tuple[int, int]) -> Image.Image:
    """One of boardgen's drawings as exactly `pixels` (RGB), drawn through a page of its own so
    it looks as it prints (the PDF renderer's fonts and pictures)."""
    from PIL import Image

    from boardgen.raster import opened, page_image, page_size

    with opened(svg_page(svg, theme)) as document:
        width_pt, _ = page_size(document, 0)
        image = page_image(document, 0, scale=pixels[0] / width_pt, annotations=False)
    if image.size != pixels:  # pdfium rounds each side up: at most a pixel to take back
        image = image.resize(pixels, Image.Resampling.LANCZOS)
    return image


def _fallback_markup(text: str, family: str, weight: str) -> str:
    """Paragraph markup with the signs the font lacks set in the fallback family (see
    fonts.runs); tags and entities are left as they are."""
    if len(fonts.runs(re.sub(r"<[^>]+>|&[#\w]+;", "", text), family, weight)) == 1:
        return text
    fallback = fonts.face(fonts.FALLBACK_FAMILY, weight).pdf_name
    out = []
    for piece in re.split(r"(<[^>]+>|&[#\w]+;)", text):
        if not piece or piece.startswith(("<", "&")):
            out.append(piece)
            continue
        out += [
            chunk if used == family else f'<font name="{fallback}">{chunk}</font>'
            for chunk, used in fonts.runs(piece, family, weight)
        ]
    return "".join(out)


def _fonts_state() -> list[tuple[str, str]]:
    """What a drawing's text depends on: each family and weight svglib may name, and the face
    file (path, size, time) it is drawn with. Read again only when a face is registered (a
    face, once registered, is the one drawn with for the rest of the process)."""
    known = fonts.faces()
    if _FONTS_STATE and _FONTS_STATE[0][0] == len(known):
        return _FONTS_STATE[0][1]
    out = []
    for (family, weight), face in known.items():
        try:
            stat = face.path.stat()
            where = f"{face.path}|{stat.st_size}|{stat.st_mtime_ns}"
        except OSError:
            where = str(face.path)
        out.append((f"{family}|{weight}", f"{face.pdf_name}|{where}"))
    _FONTS_STATE[:] = [(len(known), out)]
    return out


_FONTS_STATE: list[tuple[int, list[tuple[str, str]]]] = []


def _drawing(svg: str) -> Any:
    """The reportlab drawing of an SVG: converted by svglib once, then kept (see drawing_cache)."""
    key = drawing_cache.drawing_key(svg, _fonts_state())
    drawing = _CONVERTED.get(key)
    if drawing is None:
        drawing = drawing_cache.load(key, substitutes=_SVGLIB_PATHS)
        if drawing is None:
            drawing = _convert(svg)
            drawing_cache.store(key, drawing, substitutes=_SVGLIB_PATHS)
        if len(_CONVERTED) >= _CONVERTED_MAX:
            del _CONVERTED[next(iter(_CONVERTED))]  # the oldest
        _CONVERTED[key] = drawing
    return drawing


class _NoStrokePath(Path):  # type: ignore[misc]  # reportlab is untyped
    """svglib's NoStrokePath as it draws (a filled, never stroked path), so that reading a kept
    drawing does not import svglib (and lxml and the CSS parsers) for two tiny classes."""

    def getProperties(self, *args: Any, **kwargs: Any) -> dict[str, Any]:  # noqa: N802 (reportlab's name)
        props: dict[str, Any] = super().getProperties(*args, **kwargs)
        if "strokeWidth" in props:
            props["strokeWidth"] = 0
        if "strokeColor" in props:
            props["strokeColor"] = None
        return props


class _ClippingPath(Path):  # type: ignore[misc]  # reportlab is untyped
    """svglib's ClippingPath as it draws: a clip, neither filled nor stroked (isClipPath is
    in the kept drawing's state)."""

    def getProperties(self, *args: Any, **kwargs: Any) -> dict[str, Any]:  # noqa: N802 (reportlab's name)
        props: dict[str, Any] = super().getProperties(*args, **kwargs)
        if "fillColor" in props:
            props["fillColor"] = None
        if "strokeColor" in props:
            props["strokeColor"] = None
        return props


_SVGLIB_PATHS = {("svglib.svglib", "NoStrokePath"): _NoStrokePath, ("svglib.svglib", "ClippingPath"): _ClippingPath}


def _convert(svg: str) -> Any:
    from svglib.svglib import SvgRenderer, load_svg_file

    root = load_svg_file(io.BytesIO(svg.encode("utf-8")))
    return SvgRenderer("", font_map=font_map()).render(root)


def _draw(drawing: Any, c: Any, default_font: str) -> None:
    """Render a drawing; reportlab's graphics state starts with Helvetica, a base-14 font
    that is never embedded, so the starting font is a bundled one for the duration."""
    saved = STATE_DEFAULTS["fontName"]
    STATE_DEFAULTS["fontName"] = default_font
    try:
        _AlphaRenderer().draw(renderPDF.renderScaledDrawing(drawing), c, 0, 0)
    finally:
        STATE_DEFAULTS["fontName"] = saved


def _complete_form_resources(c: Any, name: str, shading: dict[str, Any]) -> None:
    """reportlab gives a form only fonts and XObjects as resources: a gradient (shading) or a
    see-through fill (ExtGState) in a picture would print black or opaque. Add them."""
    form = c._doc.idToObject[pdfdoc.xObjectName(name)]
    resources = pdfdoc.PDFResourceDictionary()
    resources.basicFonts()
    resources.allProcs()
    if form.XObjects:
        resources.XObject = form.XObjects
    if getattr(form, "ExtGState", None):
        resources.ExtGState = form.ExtGState
    if shading:
        resources.setShading(shading)
    form.Resources = resources


class _AlphaRenderer(renderPDF._PDFRenderer):  # type: ignore[misc]  # reportlab is untyped
    """reportlab draws pictures as inline images, which drop the alpha channel (a transparent
    PNG would print on black); an image XObject with its alpha as a soft mask keeps it."""

    def drawImage(self, image: Any) -> None:  # noqa: N802 (reportlab's name)
        if hasattr(image.path, "mode"):
            self._canvas.drawImage(ImageReader(image.path), image.x, image.y, image.width, image.height, mask="auto")
        else:
            super().drawImage(image)


def trial_render(svg: str) -> list[str]:
    """Draw an SVG into a throwaway PDF (a picture is checked once, before any kit work) and
    return what svglib warned about; any failure propagates to the caller."""
    notes: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if record.levelno >= logging.WARNING:
                notes.append(record.getMessage())

    log = logging.getLogger("svglib")
    handler = Collect()
    log.addHandler(handler)
    propagate, log.propagate = log.propagate, False
    try:
        drawing = _convert(svg)
        c = rl_canvas.Canvas(io.BytesIO(), pagesize=(max(drawing.width, 1), max(drawing.height, 1)), invariant=1)
        _draw(drawing, c, fonts.face("DejaVu Sans").pdf_name)
        c.showPage()
        c.save()
    finally:
        log.removeHandler(handler)
        log.propagate = propagate
    return notes
