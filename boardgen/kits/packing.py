"""Laying a kit out on pages: the board imposed on its sheets, card sections, and pieces packed
into the free room under the board and onto piece pages."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from boardgen.data.strings import word
from boardgen.data.theme import Theme
from boardgen.errors import UsageError
from boardgen.options import KitOptions, page_kinds
from boardgen.render.imposition import CROP_RING, FreeArea, Rect, Tiling, frame_for, paper, svg_size
from boardgen.render.pdf import Form, PdfKit


def pieces_fit(files: dict[str, str], content_w: float, content_h: float, *, paper_name: str,
               backs: str, skip: tuple[str, ...] = ("board", "setup", "score-pad")) -> None:
    """Every piece drawn (each SVG's size in mm) fits the printable area: checked before the
    playability check, so a paper too small is known at once. Folded card backs need twice
    the width. (The score pad is not a true-size piece: the packer shrinks it to the page.)"""
    misfits: dict[str, str] = {}
    for name, svg in files.items():
        if name in skip:
            continue
        size = svg_size(svg)
        if size is None:
            continue
        w, h = size
        what = "score pad" if name == "score-pad" else name.split("-")[0]
        need_w = 2 * w if what == "card" and backs == "fold" else w
        if (need_w > content_w + 1e-6 or h > content_h + 1e-6) and what not in misfits:
            misfits[what] = (f"a {w:.1f} x {h:.1f} mm {what} does not fit the {content_w:.0f} x {content_h:.0f} mm "
                             f"printable area of {paper_name} paper")
    if misfits:
        raise UsageError("; ".join(misfits.values()) + ": use larger paper or smaller margins")


def impose(layout: Any, theme: Theme, options: KitOptions, drawings: Any, tiling: Tiling, *, subject: str,
           pages: Callable[[PdfKit, Form], None]) -> tuple[bytes, list[str]]:
    """Open the kit's PDF and make the board a form once; then either reprint only the board
    sheets asked for, or lay out the whole kit with `pages(pdf, board)`. Returns the PDF and
    the kind of each page."""
    lang = options.lang
    pdf = PdfKit(frame_for(paper(options.paper), options.margin), theme, lang, title=layout.title[lang],
                 subject=subject, only=page_kinds(options.only))
    board = pdf.add_svg_form("Board", drawings.board)
    if options.board_sheets is not None:
        pdf.board_sheets(board, tiling.select(options.board_sheets), heading=word(lang, "board"))
    else:
        pages(pdf, board)
    return pdf.finish(), pdf.kinds


def card_section(pdf: PdfKit, fronts: list[Form], back: Form, *, bleed: float, options: KitOptions,
                 heading: str) -> None:
    """Card fronts with the backs the user chose (duplex pages, fold-over or none)."""
    pdf.card_sheets(fronts, back, bleed=bleed, heading=heading, back_heading=word(pdf.lang, "card_backs"),
                    backs=options.backs, flip=options.flip, back_offset=options.back_offset)


@dataclass
class Block:
    """Pieces of one size: butted ones share cut lines (crop marks around the block), the others
    have their own cut outlines and a gap between them. A `scalable` piece (a score pad) may be
    shrunk to fit a page that is smaller than it."""

    title: str
    forms: list[Form]
    gap: float = 2.0
    butted: bool = False
    scalable: bool = False
    turnable: bool = False  # may lie turned 90 degrees where upright it does not fit


class Packer:
    """Pieces packed block after block into free areas: first the space under the board parts
    of board sheets, then as many pages as the rest needs."""

    TITLE = 6.0  # room for a block's title line
    SPACING = 4.0  # between blocks

    def __init__(self, pdf: PdfKit, blocks: list[Block]) -> None:
        self.pdf = pdf
        self.blocks = [replace(b, forms=list(b.forms)) for b in blocks if b.forms]
        self.heading = ""

    @property
    def done(self) -> bool:
        return all(not b.forms for b in self.blocks)

    def fill(self, area: Rect, *, titles: bool = True) -> int:
        """Place what fits in the area of another kind of page (board sheets, rules), from its
        top; returns how many pieces were placed. Nothing goes on a page a reprint drops: the
        pieces would be lost with it (they go on their own pages)."""
        pdf = self.pdf
        if pdf.only is not None and pdf.kinds and pdf.kinds[-1] not in pdf.only:
            return 0
        return self._fill(area, titles=titles)

    def _fill(self, area: Rect, *, titles: bool = True) -> int:
        placed_total = 0
        y = area.y
        keep_left = area.keep_left if isinstance(area, FreeArea) else 0.0
        for block in self.blocks:
            while block.forms:
                placed, bottom = self._place(block, Rect(area.x, y, area.w, area.bottom - y), titles=titles,
                                             keep_left=keep_left)
                if not placed:
                    break
                placed_total += placed
                y = bottom + self.SPACING
        return placed_total

    def _place(self, block: Block, room: Rect, *, titles: bool, keep_left: float = 0.0) -> tuple[int, float]:
        pdf = self.pdf
        form = block.forms[0]
        if block.butted and keep_left:  # its crop marks reach CROP_RING to its left
            room = Rect(room.x + keep_left, room.y, room.w - keep_left, room.h)
        titled = titles and block.title != self.heading  # the page heading already says it
        top = room.y + (self.TITLE if titled else 0.0) + (CROP_RING if block.butted else 0.0)
        gap = 0.0 if block.butted else block.gap
        best = (0, 0, 0, 0)
        for turned in (False, True) if block.turnable else (False,):
            w, h = (form.h, form.w) if turned else (form.w, form.h)
            cols = int((room.w + gap + 1e-9) // (w + gap))
            rows = int((room.bottom - top + gap + 1e-9) // (h + gap))
            if min(cols * rows, len(block.forms)) > best[0]:
                best = (min(cols * rows, len(block.forms)), cols, rows, 90 if turned else 0)
        count, cols, rows, rotate = best
        if count < 1:
            return 0, room.y
        w, h = (form.h, form.w) if rotate else (form.w, form.h)
        cols = min(cols, count)
        rows = -(-count // cols)
        used_w = cols * w + (cols - 1) * gap
        x0 = room.x + (room.w - used_w) / 2
        if titled:
            pdf.text(block.title, room.x, room.y + 4.5, size=3.4, weight="bold", width=room.w)
        for i in range(count):
            r, c = divmod(i, cols)
            pdf.place(block.forms[i], x0 + c * (w + gap), top + r * (h + gap), rotate=rotate)
        form = Form(form.name, w, h)
        bottom = top + rows * h + (rows - 1) * gap
        if block.butted:
            # Marks extend every cut line outside the block (a partial last row's edges included).
            xs = [x0 + k * form.w for k in range(cols + 1)]
            ys = [top + k * form.h for k in range(rows + 1)]
            pdf.crop_marks(xs, ys, Rect(x0, top, used_w, bottom - top))
            bottom += CROP_RING
        del block.forms[:count]
        return count, bottom

    def pages(self, *, kind: str, heading: str | None = None) -> None:
        """New pages until every piece is placed; a piece too big for an empty page is named.
        Pages are headed `heading`, or else the title of the first block they hold."""
        pdf = self.pdf
        area = pdf.base_frame.content  # not the board's (maybe turned) frame
        while not self.done:
            first = next(b for b in self.blocks if b.forms)
            self.heading = heading or first.title
            pdf.new_page(self.heading, kind=kind)
            if self._fill(area):
                continue
            form = first.forms[0]
            if first.scalable:
                titled = first.title != self.heading  # the page heading already says it
                top = area.y + (self.TITLE if titled else 0.0)
                scale = min(area.w / form.w, (area.bottom - top) / form.h)
                if titled:
                    pdf.text(first.title, area.x, area.y + 4.5, size=3.4, weight="bold", width=area.w)
                pdf.place(form, area.x + (area.w - form.w * scale) / 2, top, scale=scale)
                del first.forms[0]
                continue
            raise UsageError(f"a {form.w:.1f} x {form.h:.1f} mm {first.title.lower()} piece does not fit the "
                             f"{area.w:.0f} x {area.h:.0f} mm printable area: use larger paper or smaller margins")


def pack_pieces(pdf: PdfKit, blocks: list[tuple[str, list[Form], float]], *, heading: str, kind: str) -> None:
    """Pieces with their own cut outlines on new pages, block after block: (title, forms of one
    size, gap in mm). The Packer does it; kits that want the room under their board parts or
    beside their rules use it directly."""
    packer = Packer(pdf, [Block(title, forms, gap=gap) for title, forms, gap in blocks])
    packer.pages(kind=kind, heading=heading)
