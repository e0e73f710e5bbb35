"""Laying a kit out on pages: the board imposed on its sheets, card sections, and pieces packed
into the free room under the board and onto piece pages."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from boardgen.data.strings import counted, noun, noun_one, word
from boardgen.data.theme import Theme
from boardgen.errors import UsageError
from boardgen.geometry import Outline, Rect
from boardgen.kits.catalogue import Catalogue, PieceDesign
from boardgen.options import KitOptions, page_kinds
from boardgen.render.imposition import (
    CROP_RING,
    Mark,
    Tiling,
    clip_marks,
    frame_for,
    mark_segments,
    paper,
)
from boardgen.render.pdf import Form, ImposedPdf, PdfKit


def pieces_fit(pieces: Catalogue, content_w: float, content_h: float, *, paper_name: str, backs: str) -> None:
    """Every piece drawn fits the printable area: checked before the playability check, so a
    paper too small is known at once. Folded card backs need twice the width. (The board is
    tiled across sheets; the score pad, not a true-size piece, is shrunk to the page.)"""
    misfits: dict[str, str] = {}
    for piece in pieces:
        if piece.kind in ("board", "score-pad"):
            continue
        w, h = piece.size
        what = piece.kind
        need_w = 2 * w if what == "card" and backs == "fold" else w
        if (need_w > content_w + 1e-6 or h > content_h + 1e-6) and what not in misfits:
            misfits[what] = (
                f"a {w:.1f} x {h:.1f} mm {what} does not fit the {content_w:.0f} x {content_h:.0f} mm "
                f"printable area of {paper_name} paper"
            )
    if misfits:
        raise UsageError("; ".join(misfits.values()) + ": use larger paper or smaller margins")


def impose(
    layout: Any,
    theme: Theme,
    options: KitOptions,
    drawings: Any,
    tiling: Tiling,
    *,
    subject: str,
    pages: Callable[[PdfKit, Form], None],
) -> ImposedPdf:
    """Open the kit's PDF and make the board a form once; then either reprint only the board
    sheets asked for, or lay out the whole kit with `pages(pdf, board)`."""
    lang = options.lang
    sheet = paper(options.paper)
    pdf = PdfKit(
        frame_for(sheet, options.margin),
        theme,
        lang,
        title=layout.title[lang],
        subject=subject,
        only=page_kinds(options.only),
        keep_stock=options.stock,
        piece_frame=None if options.piece_margin is None else frame_for(sheet, options.piece_margin),
        bleed_under=options.cut_bleed,
    )
    pdf.large_print = options.large_print
    board = pdf.add_svg_form("Board", drawings.board)
    if options.board_sheets is not None:
        pdf.board_sheets(board, tiling.select(options.board_sheets), heading=word(lang, "board"))
    else:
        pages(pdf, board)
    return pdf.finish()


def card_section(pdf: PdfKit, cards: Sequence[PieceDesign], *, options: KitOptions, what: str) -> None:
    """The catalogue's cards, each design as many times as the game uses it (one of each in a
    reprint of single cards), with the backs the user chose (duplex pages, fold-over or none),
    butted or `--gap` apart; `what` (a strings key: "cards") heads their pages, with the cut list
    of each sheet, as piece sheets have."""
    if not cards:
        return
    single = options.only is not None and "cards" not in options.only
    ids = [card.label for card in cards for _ in range(1 if single else card.count)]
    forms = {card.label: pdf.add_svg_form(f"Card-{card.key}", card.svg) for card in cards}
    back = cards[0].back
    assert back is not None, "every card has a back"
    pdf.card_sheets(
        [forms[i] for i in ids],
        pdf.add_svg_form("Card-back", back.svg),
        bleed=cards[0].bleed,
        outline=cards[0].outline,
        heading=word(pdf.lang, what),
        back_heading=word(pdf.lang, "card_backs"),
        cut=lambda n: word(pdf.lang, "cut_list", pieces=counted(pdf.lang, n, what)),
        backs=options.backs,
        flip=options.flip,
        back_offset=options.back_offset,
        ids=ids,
        gap=options.gap,
    )


@dataclass(frozen=True)
class Item:
    """One piece to pack: its id as `--only` takes it (``tile:07``), its drawing and the trim
    outline inside the drawing (what its Placement records)."""

    piece: str
    form: Form
    outline: Outline = field(default_factory=Outline)


@dataclass
class Block:
    """Pieces of one kind, laid out in grids: `title` is what the sheet's cut list calls them
    ("corridor tiles", strings.noun). With `marks` they are cut on straight lines: butted on shared cut lines
    (gap 0) with crop marks around the grid, or spaced by `gap` with each piece's own marks.
    Without, each carries its cut outline in its drawing and `gap` is room for scissors.
    `note` is the assembly note printed on every sheet that carries them; `under_board`: may
    go in the free room under the board (not a piece its sheet is glued onto card for)."""

    title: str
    items: list[Item]
    gap: float = 2.0
    marks: bool = False
    turnable: bool = False
    note: str = ""
    under_board: bool = True
    one: str = ""  # what the cut list calls one of them ("die"; strings.noun_one), if not `title`

    @property
    def forms(self) -> list[Form]:
        return [item.form for item in self.items]


@dataclass(frozen=True)
class Unit:
    """A grid of a block's pieces placed on a page: `cols` x `rows` cells of cell_w x cell_h
    (on the page, turned when `rotate`) from (x, y), `gap` apart."""

    block: Block
    items: tuple[Item, ...]
    cols: int
    rows: int
    cell_w: float
    cell_h: float
    x: float
    y: float
    gap: float
    rotate: int

    def cells(self) -> list[Rect]:
        out = []
        for i in range(len(self.items)):
            r, c = divmod(i, self.cols)
            out.append(
                Rect(
                    self.x + c * (self.cell_w + self.gap),
                    self.y + r * (self.cell_h + self.gap),
                    self.cell_w,
                    self.cell_h,
                )
            )
        return out

    def ring(self) -> float:
        """Room kept around the grid: its crop marks, or half the gap to the next piece."""
        return CROP_RING if self.block.marks else self.block.gap / 2


def _fits(inner: Rect, outer: Rect) -> bool:
    return (
        inner.x >= outer.x - 1e-6
        and inner.y >= outer.y - 1e-6
        and inner.right <= outer.right + 1e-6
        and inner.bottom <= outer.bottom + 1e-6
    )


def _overlaps(a: Rect, b: Rect) -> bool:
    return a.x < b.right - 1e-6 and b.x < a.right - 1e-6 and a.y < b.bottom - 1e-6 and b.y < a.bottom - 1e-6


class FreeSpace:
    """The free rectangles of an area (maximal rectangles, possibly overlapping): a box taken
    splits every free rectangle it overlaps into the parts left of, right of, above and below it."""

    def __init__(self, area: Rect) -> None:
        self.free = [area] if area.w > 0 and area.h > 0 else []

    def take(self, box: Rect) -> None:
        out: list[Rect] = []
        for f in self.free:
            if not _overlaps(f, box):
                out.append(f)
                continue
            parts = [
                Rect(f.x, f.y, box.x - f.x, f.h),
                Rect(box.right, f.y, f.right - box.right, f.h),
                Rect(f.x, f.y, f.w, box.y - f.y),
                Rect(f.x, box.bottom, f.w, f.bottom - box.bottom),
            ]
            out += [p for p in parts if p.w > 1e-6 and p.h > 1e-6]
        self.free = [
            r
            for i, r in enumerate(out)
            if not any(j != i and _fits(r, o) and (r != o or j < i) for j, o in enumerate(out))
        ]


def _shape(block: Block) -> tuple[float, float]:
    form = block.items[0].form
    return form.w, form.h


def _uniform(block: Block) -> bool:
    if not block.items:
        return True
    w, h = _shape(block)
    return all(abs(i.form.w - w) < 1e-6 and abs(i.form.h - h) < 1e-6 for i in block.items)


ORDERS: tuple[Callable[[Item], tuple[float, ...]], ...] = (
    lambda i: (-max(i.form.w, i.form.h), -i.form.w * i.form.h),
    lambda i: (-i.form.w * i.form.h,),
    lambda i: (-i.form.h, -i.form.w),
    lambda i: (-i.form.w, -i.form.h),
)
FITS = ("bottom-left", "short-side")


def plan_area(area: Rect, blocks: list[Block]) -> tuple[list[Unit], FreeSpace]:
    """Grids of the blocks' pieces packed into the area, block after block, each grid as large as
    one free rectangle holds (upright, or turned for a `turnable` block); pieces of several sizes
    one by one, in whichever of a few orders and rules of fit places the most. The pieces placed
    are taken out of their blocks; the free space left comes with them."""
    if all(_uniform(b) for b in blocks):
        return _plan(area, blocks, "short-side")
    best: tuple[tuple[float, ...], int, str] | None = None
    for k, order in enumerate(ORDERS):
        for fit in FITS:
            trial = [replace(b, items=list(b.items) if _uniform(b) else sorted(b.items, key=order)) for b in blocks]
            units, _ = _plan(area, trial, fit)
            bottom = max((max(c.bottom for c in u.cells()) for u in units), default=0.0)
            key = (-sum(len(u.items) for u in units), bottom)
            if best is None or key < best[0]:
                best = (key, k, fit)
    assert best is not None
    for b in blocks:
        if not _uniform(b):
            b.items.sort(key=ORDERS[best[1]])
    return _plan(area, blocks, best[2])


def _plan(area: Rect, blocks: list[Block], fit: str) -> tuple[list[Unit], FreeSpace]:
    space = FreeSpace(area)
    units: list[Unit] = []
    for block in blocks:
        while block.items:
            unit = _best_unit(space, block, fit)
            if unit is None:
                break
            ring = unit.ring()
            cells = unit.cells()
            box = Rect(
                unit.x - ring,
                unit.y - ring,
                max(c.right for c in cells) - unit.x + 2 * ring,
                max(c.bottom for c in cells) - unit.y + 2 * ring,
            )
            space.take(box)
            units.append(unit)
            del block.items[: len(unit.items)]
    return units, space


def _best_unit(space: FreeSpace, block: Block, fit: str) -> Unit | None:
    uniform = _uniform(block)
    w, h = _shape(block)
    ring = CROP_RING if block.marks else block.gap / 2
    gap = block.gap
    best: tuple[tuple[float, ...], Unit] | None = None
    for free in space.free:
        for turned in (False, True) if block.turnable else (False,):
            cw, ch = (h, w) if turned else (w, h)
            cols = int((free.w - 2 * ring + gap + 1e-9) // (cw + gap))
            rows = int((free.h - 2 * ring + gap + 1e-9) // (ch + gap))
            if cols < 1 or rows < 1:
                continue
            count = min(cols * rows, len(block.items)) if uniform else 1
            cols = min(cols, count)
            rows = -(-count // cols)
            # The most pieces, then the tightest fit (least room wasted beside the grid).
            used_w, used_h = cols * (cw + gap) - gap + 2 * ring, rows * (ch + gap) - gap + 2 * ring
            if uniform or fit == "short-side":
                key: tuple[float, ...] = (-count, min(free.w - used_w, free.h - used_h), free.y, free.x)
            else:  # bottom-left: the lowest top edge, then the leftmost
                key = (-count, round(free.y + used_h, 3), free.x)
            if best is None or key < best[0]:
                unit = Unit(
                    block,
                    tuple(block.items[:count]),
                    cols,
                    rows,
                    cw,
                    ch,
                    free.x + ring,
                    free.y + ring,
                    gap,
                    90 if turned else 0,
                )
                best = (key, unit)
    return None if best is None else best[1]


def _shift(units: list[Unit], area: Rect) -> float:
    """How far sideways the units move to centre the whole packing in the area."""
    if not units:
        return 0.0
    left = min(u.x - u.ring() for u in units)
    right = max(max(c.right for c in u.cells()) + u.ring() for u in units)
    return (area.x + area.w / 2) - (left + right) / 2


def cut_list(lang: str, units: list[Unit]) -> str:
    """'Cut: 8 × corridor tiles, 2 × pawns' for the pieces of these units, in order."""
    counts: dict[str, int] = {}
    ones: dict[str, str] = {}
    for unit in units:
        counts[unit.block.title] = counts.get(unit.block.title, 0) + len(unit.items)
        ones[unit.block.title] = unit.block.one or unit.block.title
    listed = ", ".join(
        word(lang, "count_line", count=n, what=ones[title] if n == 1 else title) for title, n in counts.items()
    )
    return word(lang, "cut_list", pieces=listed)


NOTE_SIZE = 2.7  # mm: the assembly notes above pieces


class Packer:
    """Pieces packed into free areas: first the room under the board parts of board sheets
    (smallest pieces first), then as few piece sheets as the rest needs (largest first).
    Nothing goes on a cover or rules page: pieces are card, those pages paper."""

    CAPTION = 6.0  # room for the cut list line above pieces under a board

    def __init__(self, pdf: PdfKit, blocks: list[Block]) -> None:
        self.pdf = pdf
        # Pieces of several sizes go largest first: the small ones fill the gaps left.
        self.blocks = [
            replace(
                b,
                items=list(b.items)
                if _uniform(b)
                else sorted(b.items, key=lambda i: (-max(i.form.w, i.form.h), -i.form.w * i.form.h)),
            )
            for b in blocks
            if b.items
        ]

    @property
    def done(self) -> bool:
        return all(not b.items for b in self.blocks)

    def fill(self, area: Rect, *, avoid: tuple[Rect, ...] = ()) -> int:
        """Place what fits in the free room of a board sheet (smallest pieces first), under a
        line saying what to cut from it, with the assembly notes of what it carries; returns
        how many pieces were placed. Nothing goes on a page a reprint drops: the pieces would
        be lost with it (they go on their own pages)."""
        pdf = self.pdf
        if pdf.only is not None and pdf.kinds and pdf.kinds[-1] not in pdf.only:
            return 0
        if pdf.piece_frame is not pdf.base_frame:
            return 0  # print and cut: pieces go on pages with room for the marks, the board sheets are cut by hand
        smallest = sorted(
            (b for b in self.blocks if b.under_board and b.items), key=lambda b: _shape(b)[0] * _shape(b)[1]
        )
        # The cut list wraps in a narrow room (its words keep their size): the room it takes is
        # measured on what would go there, once more if it then needs more lines.
        caption = self.CAPTION
        for _ in range(3):
            if area.h <= caption:
                return 0
            room = Rect(area.x, area.y + caption, area.w, area.h - caption)
            units, _, _ = self._layout(room, [replace(b, items=list(b.items)) for b in smallest])
            if not units:
                return 0
            need = pdf.measure(_caption(pdf.lang, units), area.w, size=CAPTION_SIZE) + 1.0
            if need <= caption + 1e-6:
                break
            caption = need
        else:
            return 0
        units, notes, spot = self._layout(room, smallest)
        pdf.paragraphs(_caption(pdf.lang, units), Rect(area.x, area.y + 0.5, area.w, caption), size=CAPTION_SIZE)
        self._draw(units, notes, spot, avoid)
        return sum(len(u.items) for u in units)

    def pages(self, *, heading: str) -> None:
        """New piece sheets until every piece is placed, each headed with its cut list and the
        assembly notes of what it carries; a piece too big for an empty page is named."""
        pdf = self.pdf
        room = pdf.piece_frame.marked  # grids keep their own crop-mark ring
        largest = sorted(self.blocks, key=lambda b: -max(i.form.w * i.form.h for i in b.items) if b.items else 0)
        while not self.done:
            units, notes, spot = self._layout(room, largest)
            if not units:
                first = next(b for b in largest if b.items)
                form = first.items[0].form
                raise UsageError(
                    f"a {form.w:.1f} x {form.h:.1f} mm piece ({first.title}) does not fit the "
                    f"{room.w:.0f} x {room.h:.0f} mm printable area: use larger paper or smaller "
                    "margins"
                )
            pdf.new_page(f"{heading} — {cut_list(pdf.lang, units)}", kind="pieces")
            self._draw(units, notes, spot, ())

    NOTE_MIN_W = 45.0  # mm: a note is set in a free rectangle at least this wide

    def _layout(self, room: Rect, blocks: list[Block]) -> tuple[list[Unit], list[str], Rect | None]:
        """The pieces planned into the room (taken out of their blocks), centred across it, and
        where their assembly notes go: in the room the pieces leave if a free rectangle holds
        them, else above the pieces, in room kept for them."""
        measure = self.pdf.measure
        trial = [replace(b, items=list(b.items)) for b in blocks]
        units, space = plan_area(room, trial)
        notes = list(dict.fromkeys(u.block.note for u in units if u.block.note))
        spot: Rect | None = None
        if notes:
            for free in sorted(space.free, key=lambda r: (r.y, r.x)):
                height = (
                    measure(_note_blocks(notes), free.w - 1.0, size=NOTE_SIZE) + 1.0
                    if free.w >= self.NOTE_MIN_W
                    else math.inf
                )
                if height <= free.h:
                    spot = Rect(free.x + 0.5, free.y, free.w - 1.0, height)
                    break
        if not notes or spot is not None:
            units, _ = plan_area(room, blocks)  # the very plan tried
        else:
            height = measure(_note_blocks(notes), room.w, size=NOTE_SIZE) + 1.0
            units, _ = plan_area(Rect(room.x, room.y + height, room.w, room.h - height), blocks)
            notes = list(dict.fromkeys(u.block.note for u in units if u.block.note))
            spot = Rect(room.x, room.y, room.w, height)
        dx = 0.0 if spot is not None and spot.w < room.w - 1.0 else _shift(units, room)
        return [replace(u, x=u.x + dx) for u in units], notes, spot

    def _draw(self, units: list[Unit], notes: list[str], spot: Rect | None, avoid: tuple[Rect, ...]) -> None:
        pdf = self.pdf
        if notes and spot is not None:
            pdf.paragraphs(_note_blocks(notes), spot, size=NOTE_SIZE)
        trims: list[Rect] = list(avoid)
        marks: list[Mark] = []
        for unit in units:
            cells = unit.cells()
            for item, cell in zip(unit.items, cells, strict=True):
                placed = pdf.place_piece(
                    item.form, cell.x, cell.y, piece=item.piece, outline=item.outline, rotate=unit.rotate
                )
                trims.append(placed.trim)
            if unit.block.marks:
                marks += mark_segments(cells, shared=unit.gap == 0)
        for x1, y1, x2, y2 in clip_marks(marks, trims):
            pdf.line(x1, y1, x2, y2)


CAPTION_SIZE = 3.0  # mm: the cut list above pieces under a board


def _caption(lang: str, units: list[Unit]) -> list[tuple[str, str]]:
    return [("p", "<b>" + cut_list(lang, units).replace("&", "&amp;").replace("<", "&lt;") + "</b>")]


def _note_blocks(notes: list[str]) -> list[tuple[str, str]]:
    return [("li", note.replace("&", "&amp;").replace("<", "&lt;")) for note in notes]


def pack_pieces(pdf: PdfKit, blocks: list[Block], *, heading: str) -> None:
    """Pieces on piece sheets of their own (the Packer without a board)."""
    Packer(pdf, blocks).pages(heading=heading)


def items(pdf: PdfKit, designs: Sequence[PieceDesign], *, form_prefix: str, strip: str = "") -> list[Item]:
    """The catalogue's pieces to pack, each drawn once as a form named `form_prefix` + its key
    (less `strip`), with its id and trim outline."""
    return [
        Item(p.id, pdf.add_svg_form(f"{form_prefix}{p.key.removeprefix(strip)}", p.svg), p.outline) for p in designs
    ]


def discs_block(pdf: PdfKit, title: str, discs: Sequence[PieceDesign], options: KitOptions) -> Block:
    """Round pieces (``pawn:red-1``, drawn by pieces.disc_svg with a 1 mm margin), a few mm apart
    or `--gap` apart with their own crop marks; `title` names them in the cut list (a strings key)."""
    found = items(pdf, discs, form_prefix="Disc-")
    return Block(
        noun(pdf.lang, title), found, gap=options.gap or 3.0, marks=options.gap > 0, one=noun_one(pdf.lang, title)
    )


def dice_block(pdf: PdfKit, dice: Sequence[PieceDesign], gap: float = 0.0) -> Block:
    """Die nets (``die:1``): their cut outline and fold lines, their assembly note; 4 mm apart,
    or `gap` (--gap) if more."""
    found = items(pdf, dice, form_prefix="Die-")
    return Block(
        noun(pdf.lang, "dice"),
        found,
        gap=max(4.0, gap),
        turnable=True,
        note=word(pdf.lang, "dice_note"),
        one=noun_one(pdf.lang, "dice"),
    )
