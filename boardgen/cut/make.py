"""The cut files of a rendered kit (`boardgen render GAME --cut MACHINE`), from the pieces the
kit placed (boardgen.geometry.Placement: the same geometry the PDF was drawn from) and the kit's
PDF. Every file goes under `cut/` of the kit folder:

- silhouette, scanncut: `<kit>-<machine>.pdf`, a page of instructions then every page of pieces
  with the machine's registration marks printed on it, and one cut file per page
  (`-page07.dxf` for Silhouette Studio, `-page07.svg` for CanvasWorkspace), in page millimetres,
  its outlines on the printed trims;
- cricut: one PNG per mat (at most the image Design Space prints, pieces of one page) and the SVG of
  the same mat's cut outlines, for Design Space's Print Then Cut;
- laser: every piece laid out anew on beds of `--bed` (SVG and DXF per bed, kerf compensated);
- `README.txt`: how to use each file with the machine.

Each machine's names, marks and limits are data (layouts/machines/*.toml, cut.machines).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, replace

from boardgen.cut import marks as marks_mod
from boardgen.cut.files import dxf, svg
from boardgen.cut.laser import lay_out
from boardgen.cut.machines import Mat
from boardgen.cut.machines import machine as find_machine
from boardgen.errors import UsageError
from boardgen.geometry import Placement, Rect
from boardgen.options import KitOptions
from boardgen.render.pdf import ImposedPdf

NOT_CUT = ("card-back",)  # the backs are printed on the other side of the fronts' page: not cut there
BY_HAND = ("board",)  # board sheets are cut by hand on their crop marks, seam by seam: no cut file


@dataclass(frozen=True)
class CutOptions:
    machine: str  # one of marks.MACHINES, "silhouette-4" for the 4-mark Silhouette pattern
    kerf: float = 0.0  # mm, laser
    bed: tuple[float, float] = (600.0, 400.0)  # mm, laser


def room_for_cutting(options: KitOptions) -> KitOptions:
    """The kit laid out for a print-and-cut machine: the pages of pieces and cards with margins
    wide enough for the registration marks and the clear ring round them (marks.margin_for;
    the board sheets, cut by hand, keep the kit's margin and its seams), the machine's bleed
    round every piece, and at least a laser bed's gap between pieces so a blade's overcut never
    enters a neighbour. A laser's pieces are laid out anew: no change."""
    if options.cut is not None and (options.only is not None or options.board_sheets is not None):
        raise UsageError("--cut writes the cut files of the whole kit: not with --only or --sheets")
    if options.cut in (None, "laser"):
        return options
    margin = marks_mod.margin_for(options.cut)
    return replace(
        options,
        piece_margin=margin if margin > options.margin else None,
        cut_bleed=find_machine(options.cut).bleed,
        gap=max(options.gap, find_machine("laser").gap),
    )


def outlines_by_page(placements: Sequence[Placement]) -> dict[int, list[Placement]]:
    """The cut outline of every piece placed, by page (0-based in the kit's PDF), in the order
    placed. A card back on its own page (duplex) is not cut: it is printed on the back of its
    front's page. A fold-over back beside its front on the same page is cut with it: one
    outline round both, the fold between them a score line. Board sheets are cut by hand."""
    fronts = {(p.piece, p.page) for p in placements if p.kind not in NOT_CUT}
    pages: dict[int, list[Placement]] = {}
    beside: dict[tuple[str, int], tuple[float, float, float, float]] = {}
    for p in placements:
        if p.kind in NOT_CUT and (p.piece, p.page) in fronts:
            t = p.trim
            beside[(p.piece, p.page)] = (t.x, t.y, t.x + t.w, t.y + t.h)
    for p in placements:
        if p.kind in NOT_CUT or p.kind in BY_HAND or p.stock != "card":
            continue
        t = p.trim
        x0, y0, x1, y1 = t.x, t.y, t.x + t.w, t.y + t.h
        back = beside.get((p.piece, p.page))
        if back is not None:
            x0, y0, x1, y1 = min(x0, back[0]), min(y0, back[1]), max(x1, back[2]), max(y1, back[3])
        pages.setdefault(p.page, []).append(replace(p, trim=Rect(x0, y0, x1 - x0, y1 - y0)))
    return pages


def marks_pdf(m: marks_mod.Marks, w: float, h: float, label: str = "") -> bytes:
    """A page of just the marks (black), to be laid over a page of the kit, with `label` (the
    page's cut file) at the middle of its bottom edge."""
    from reportlab.pdfgen import canvas

    from boardgen.units import pt

    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(pt(w), pt(h)), invariant=1)
    c.setFillColorRGB(0, 0, 0)
    c.setStrokeColorRGB(0, 0, 0)
    for b in m.boxes:
        c.rect(pt(b.x), pt(h - b.y - b.h), pt(b.w), pt(b.h), stroke=0, fill=1)
    for r in m.rings:
        if r.width:
            c.setLineWidth(pt(r.width))
            c.circle(pt(r.cx), pt(h - r.cy), pt(r.r), stroke=1, fill=0)
        else:
            c.circle(pt(r.cx), pt(h - r.cy), pt(r.r), stroke=0, fill=1)
    if label:
        c.setFont("Helvetica", 7)
        c.drawCentredString(pt(w / 2), pt(LABEL_FROM_BOTTOM), label)
    c.showPage()
    c.save()
    return buf.getvalue()


LABEL_FROM_BOTTOM = 4.0  # mm: the cut file's name, printed under the page's footer


def instructions_pdf(text: str, w: float, h: float) -> bytes:
    """The instructions as a page of their own (Helvetica: the text is English)."""
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph, SimpleDocTemplate

    from boardgen.units import pt

    buf = io.BytesIO()
    doc = SimpleDocTemplate(
        buf,
        pagesize=(pt(w), pt(h)),
        leftMargin=pt(22),
        rightMargin=pt(22),
        topMargin=pt(22),
        bottomMargin=pt(22),
        invariant=1,
        title="Cut files",
        author="boardgen",
        creator="boardgen",
    )
    style = ParagraphStyle("p", fontName="Helvetica", fontSize=9.5, leading=12.5, spaceAfter=5)
    head = ParagraphStyle("h", parent=style, fontName="Helvetica-Bold", fontSize=12, leading=15)
    flow = [
        Paragraph(_escape(line), head if i == 0 else style)
        for i, line in enumerate(part for part in text.split("\n\n") if part.strip())
    ]
    doc.build(flow)
    return buf.getvalue()


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\n", "<br/>")


def _marked_pdf(
    pdf: bytes,
    sizes: Sequence[tuple[float, float]],
    pages: Sequence[int],
    machine: str,
    intro: str,
    labels: Sequence[str] = (),
) -> tuple[bytes, list[marks_mod.Marks]]:
    """The instructions page, then the kit's pages of pieces with the machine's marks laid over,
    each named by `labels` (its cut file)."""
    from pypdf import PdfReader, PdfWriter

    reader = PdfReader(io.BytesIO(pdf))
    writer = PdfWriter()
    w0, h0 = sizes[pages[0]]
    writer.append(PdfReader(io.BytesIO(instructions_pdf(intro, w0, h0))))
    used = []
    for k, index in enumerate(pages):
        w, h = sizes[index]
        m = marks_mod.marks_for(machine, w, h)
        used.append(m)
        page = writer.add_page(reader.pages[index])
        page.merge_page(PdfReader(io.BytesIO(marks_pdf(m, w, h, labels[k] if k < len(labels) else ""))).pages[0])
    writer.add_metadata({"/Title": "Print and cut", "/Producer": "boardgen", "/Creator": "boardgen"})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue(), used


@dataclass(frozen=True)
class _Spot:
    """A piece put on a mat: the mat's number (0-based) and its trim's top-left there, mm."""

    mat: int
    x: float
    y: float


def pack_mats(outlines: Sequence[Placement], mat: Mat) -> tuple[list[_Spot | None], int]:
    """Every piece's place on as few mats as the shelves hold: the tallest first, each into the
    first shelf of any mat with room (a new shelf, then a new mat, if none), `mat.gap` between
    two pieces and `mat.margin` to the image's edges. None for a piece larger than a mat."""
    room_w, room_h = mat.w - 2 * mat.margin - 2 * 25.4 / mat.dpi, mat.h - 2 * mat.margin - 2 * 25.4 / mat.dpi
    shelves: list[list[list[float]]] = []  # per mat: [y, height, x taken]
    spots: list[_Spot | None] = [None] * len(outlines)
    order = sorted(range(len(outlines)), key=lambda i: (-round(outlines[i].h, 3), -round(outlines[i].w, 3), i))
    for i in order:
        o = outlines[i]
        if o.w > room_w + 1e-9 or o.h > room_h + 1e-9:
            continue
        spot = None
        for m, mat_shelves in enumerate(shelves):
            for shelf in mat_shelves:
                x = shelf[2] + (mat.gap if shelf[2] > 0 else 0.0)
                if o.h <= shelf[1] + 1e-9 and x + o.w <= room_w + 1e-9:
                    spot, shelf[2] = _Spot(m, x, shelf[0]), x + o.w
                    break
            if spot is None:
                top = max((sh[0] + sh[1] + mat.gap for sh in mat_shelves), default=0.0)
                if top + o.h <= room_h + 1e-9:
                    mat_shelves.append([top, o.h, o.w])
                    spot = _Spot(m, 0.0, top)
            if spot is not None:
                break
        if spot is None:
            shelves.append([[0.0, o.h, o.w]])
            spot = _Spot(len(shelves) - 1, 0.0, 0.0)
        spots[i] = _Spot(spot.mat, spot.x + mat.margin, spot.y + mat.margin)
    return spots, len(shelves)


def _cricut(pdf: bytes, pages: dict[int, list[Placement]], stem: str) -> tuple[dict[str, bytes], list[Placement]]:
    """The mats for Design Space's Print Then Cut: the pieces of every page packed onto as few
    images of at most the mat's size as they fit (pack_mats), each a transparent PNG where
    every piece is an island of its own art, opaque exactly inside its trim outline (Design
    Space cuts along the outline of the opaque pixels and prints its own bleed past it), with
    the SVG of the same outlines."""
    from PIL import Image, ImageDraw

    from boardgen.raster import opened, page_image

    mat_spec = find_machine("cricut").mat
    assert mat_spec is not None, "Cricut prints and cuts mats"
    px = mat_spec.dpi / 25.4
    outlines = [o for _, found in sorted(pages.items()) for o in found]
    spots, count = pack_mats(outlines, mat_spec)
    left_out = [o for o, spot in zip(outlines, spots, strict=True) if spot is None]
    placed: list[list[Placement]] = [[] for _ in range(count)]
    for o, spot in zip(outlines, spots, strict=True):
        if spot is not None:
            placed[spot.mat].append(o.moved(spot.x - o.x, spot.y - o.y))
    sizes = [
        (max(p.right for p in group) + mat_spec.margin, max(p.bottom for p in group) + mat_spec.margin)
        for group in placed
    ]
    mats = [Image.new("RGBA", (round(w * px), round(h * px)), (255, 255, 255, 0)) for w, h in sizes]
    spot_of = iter(spots)  # in the order of `outlines`: page by page
    with opened(pdf) as doc:
        for index, found in sorted(pages.items()):
            image = page_image(doc, index, scale=mat_spec.dpi / 72).convert("RGBA")
            for o in found:
                spot = next(spot_of)
                if spot is None:
                    continue
                box = (round(o.x * px), round(o.y * px), round(o.right * px), round(o.bottom * px))
                art = image.crop(box)
                mask = Image.new("L", art.size, 0)
                shape = o.moved(-box[0] / px, -box[1] / px).polygon()
                ImageDraw.Draw(mask).polygon([(x * px, y * px) for x, y in shape.exterior.coords], fill=255)
                mats[spot.mat].paste(art, (round(spot.x * px), round(spot.y * px)), mask)
    out: dict[str, bytes] = {}
    for n, (image, group) in enumerate(zip(mats, placed, strict=True), start=1):
        png = io.BytesIO()
        image.save(png, "PNG", dpi=(mat_spec.dpi, mat_spec.dpi), optimize=False)
        name = f"{stem}-cricut-mat{n:02}"
        out[f"{name}.png"] = png.getvalue()
        out[f"{name}.svg"] = svg(group, image.size[0] / px, image.size[1] / px)
    return out, left_out


def cut_files(
    imposed: ImposedPdf, options: CutOptions, *, stem: str, page_numbers: dict[int, int] | None = None
) -> tuple[dict[str, bytes], str]:
    """The files under cut/ (name -> bytes) and the instructions, for one machine, from the
    kit's whole PDF and the pieces placed on it. `stem` is the kit PDF's name without .pdf;
    `page_numbers` the number each page of the PDF prints (0-based index -> number), by
    default index + 1."""
    pdf, placements = imposed.data, imposed.placements
    pages = outlines_by_page(placements)
    numbers = page_numbers or {i: i + 1 for i in range(len(imposed.sizes))}
    machine = options.machine
    files: dict[str, bytes] = {}
    if not pages:
        return files, ""
    sizes = imposed.sizes
    if machine in ("silhouette", "silhouette-4", "scanncut"):
        order = sorted(pages)
        labels = []
        # Each cut file is named after its page in the print-and-cut PDF (page 1 the
        # instructions), and that page prints the file's name under its footer.
        for k, index in enumerate(order, start=2):
            w, h = sizes[index]
            name = f"{stem}-{machine}-page{k:02}"
            if machine == "scanncut":
                files[f"{name}.svg"] = svg(pages[index], w, h)
                labels.append(f"cut file: {name}.svg")
            else:
                files[f"{name}.dxf"] = dxf(pages[index], h)
                labels.append(f"cut file: {name}.dxf")
        boards = sorted({numbers.get(p.page, p.page + 1) for p in placements if p.kind in BY_HAND})
        text = instructions(machine, stem, list(range(2, len(order) + 2)), pages, order, boards=boards)
        files[f"{stem}-{machine}.pdf"], _ = _marked_pdf(pdf, sizes, order, machine, text, labels)
    elif machine == "cricut":
        mats, left_out = _cricut(pdf, pages, stem)
        files.update(mats)
        boards = sorted({numbers.get(p.page, p.page + 1) for p in placements if p.kind in BY_HAND})
        text = instructions(machine, stem, [], pages, sorted(pages), left_out=left_out, boards=boards)
    else:
        beds = lay_out([o for i in sorted(pages) for o in pages[i]], options.bed, kerf_mm=options.kerf)
        bw, bh = options.bed
        for n, bed in enumerate(beds, 1):
            files[f"{stem}-laser-bed{n:02}.svg"] = svg(bed, bw, bh)
            files[f"{stem}-laser-bed{n:02}.dxf"] = dxf(bed, bh)
        text = instructions(machine, stem, list(range(1, len(beds) + 1)), pages, sorted(pages), options=options)
    files["README.txt"] = text.encode("utf-8")
    return files, text


def _a(number: float) -> str:
    """The article before a number said aloud: an 8, an 11, an 18; a 5."""
    said = f"{number:g}"
    return "an" if said.startswith("8") or said.split(".")[0] in ("11", "18") else "a"


def instructions(
    machine: str,
    stem: str,
    numbers: list[int],
    pages: dict[int, list[Placement]],
    order: list[int],
    *,
    options: CutOptions | None = None,
    left_out: Sequence[Placement] = (),
    boards: Sequence[int] = (),
) -> str:
    """How to use the files with the machine, in words (the first page of the marked PDF and
    cut/README.txt)."""
    count = sum(len(pages[i]) for i in order)
    found = find_machine(machine)
    spec, mat = found.marks, found.mat
    lines = [
        f"Cutting this kit with a {found.name}",
        f"{count} pieces on {len(order)} pages of card. Print at 100 % (actual size, no 'fit to page'): "
        "the cut files are drawn at the printed size, in millimetres.",
    ]
    if spec is not None and spec.pattern.startswith("silhouette"):
        pattern = "4 marks (one more L at the bottom right)" if spec.pattern == "silhouette-4" else "3 marks"
        lines += [
            f"Print {stem}-{machine}.pdf from its second page on card. Each page carries Silhouette registration "
            f"marks ({pattern}: a filled {spec.arm:g} mm square at the top left, L marks at the other corners, "
            f"arms {spec.arm:g} mm long, {spec.thick:g} mm thick, {spec.inset:g} mm in from the paper's edges).",
            f"In Silhouette Studio open the DXF whose name the page prints at its bottom edge: "
            f"{stem}-{machine}-page02.dxf for the file's page 2 (its first page of pieces). "
            "Set the page size to the paper's, turn Registration Marks on "
            f"with the same style, length {spec.arm:g} mm, thickness {spec.thick:g} mm, inset {spec.inset:g} mm, "
            "and do not move the outlines: "
            "they are already where the printed pieces are. The CUT layer is every piece's outline; the "
            "SCORE layer holds fold lines (set it to a light pressure, or hide it).",
            "Put the printed page on the mat with the square at the top left, load it and Send: the machine "
            "reads the marks, then cuts.",
        ]
    elif spec is not None:
        lines += [
            f"Print {stem}-scanncut.pdf from its second page on card: each page has a bullseye near each corner "
            f"({_a(spec.ring)} {spec.ring:g} mm ring round a {spec.dot:g} mm dot, centred "
            f"{spec.inset + spec.ring / 2:g} mm in from both edges).",
            f"In CanvasWorkspace import the SVG whose name the page prints at its bottom edge "
            f"({stem}-scanncut-page02.svg for the file's page 2; "
            "page-sized, in millimetres, red outlines to cut, blue fold lines to score or delete), send it to "
            "the machine, put the printed page on the mat and let the machine scan it: align the cut data on "
            "the bullseyes and cut.",
        ]
    elif mat is not None:
        lines += [
            f"Print Then Cut: upload each mat's PNG ({mat.dpi} dpi, at most {mat.w:g} x {mat.h:g} mm, "
            f"{mat.w / 25.4:g} x {mat.h / 25.4:g} in) as a Print Then Cut image. It is transparent round the "
            f"pieces, {mat.gap:g} mm apart: each piece is an island of its own, which Design Space cuts along its "
            "outline, the piece's trim (the SVG of the same name holds the same outlines, to check or to cut "
            "with instead). Keep Design Space's Bleed on: it prints each piece's edge colours a little past "
            "the cut. Design Space prints its own marks round the image: print it from Design Space on card, "
            "then cut.",
        ]
        if left_out:
            lines.append(
                "Larger than a Cricut mat's image, to cut by hand from the kit's PDF: "
                + ", ".join(o.piece for o in left_out)
                + "."
            )
    else:
        assert options is not None
        bw, bh = options.bed
        lines += [
            f"{len(numbers)} bed(s) of {bw:g} x {bh:g} mm, {stem}-laser-bed01.svg and .dxf on: every piece's "
            f"outline, kerf compensated ({options.kerf:g} mm: the path runs {options.kerf / 2:g} mm outside the "
            f"trim), at least {found.gap:g} mm apart. Red hairlines (layer CUT) cut through; blue (SCORE) are fold "
            "lines, to score at low power. Map the colours to operations in your laser's software and import at 1:1 "
            "(millimetres). The pieces are laid out for the bed, not as printed: cut blank stock (card, board) "
            "and glue the printed faces on, or cut printed pieces from the pages one at a time.",
        ]
    if boards:
        lines.append(
            "The board sheets (pages " + ", ".join(map(str, boards)) + " of the kit's PDF) are not cut by "
            "the machine: print them from the kit's PDF and cut them by hand on their crop marks."
        )
    return "\n\n".join(lines) + "\n"
