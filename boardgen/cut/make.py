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


@dataclass(frozen=True)
class CutOptions:
    machine: str  # one of marks.MACHINES, "silhouette-4" for the 4-mark Silhouette pattern
    kerf: float = 0.0  # mm, laser
    bed: tuple[float, float] = (600.0, 400.0)  # mm, laser


def room_for_cutting(options: KitOptions) -> KitOptions:
    """The kit laid out for a print-and-cut machine: margins wide enough for the registration
    marks and the clear ring round them (marks.margin_for), and at least a laser bed's gap between pieces so
    a blade's overcut never enters a neighbour. A laser's pieces are laid out anew: no change."""
    if options.cut is not None and (options.only is not None or options.board_sheets is not None):
        raise UsageError("--cut writes the cut files of the whole kit: not with --only or --sheets")
    if options.cut in (None, "laser"):
        return options
    margin = marks_mod.margin_for(options.cut)
    return replace(options, margin=max(options.margin, margin), gap=max(options.gap, find_machine("laser").gap))


def outlines_by_page(placements: Sequence[Placement]) -> dict[int, list[Placement]]:
    """The cut outline of every piece placed, by page (0-based in the kit's PDF), in the order
    placed. A card back on its own page (duplex) is not cut: it is printed on the back of its
    front's page. A fold-over back beside its front on the same page is cut with it: one
    outline round both, the fold between them a score line."""
    fronts = {(p.piece, p.page) for p in placements if p.kind not in NOT_CUT}
    pages: dict[int, list[Placement]] = {}
    beside: dict[tuple[str, int], tuple[float, float, float, float]] = {}
    for p in placements:
        if p.kind in NOT_CUT and (p.piece, p.page) in fronts:
            t = p.trim
            beside[(p.piece, p.page)] = (t.x, t.y, t.x + t.w, t.y + t.h)
    for p in placements:
        if p.kind in NOT_CUT or p.stock != "card":
            continue
        t = p.trim
        x0, y0, x1, y1 = t.x, t.y, t.x + t.w, t.y + t.h
        back = beside.get((p.piece, p.page))
        if back is not None:
            x0, y0, x1, y1 = min(x0, back[0]), min(y0, back[1]), max(x1, back[2]), max(y1, back[3])
        pages.setdefault(p.page, []).append(replace(p, trim=Rect(x0, y0, x1 - x0, y1 - y0)))
    return pages


def marks_pdf(m: marks_mod.Marks, w: float, h: float) -> bytes:
    """A page of just the marks (black), to be laid over a page of the kit."""
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
    c.showPage()
    c.save()
    return buf.getvalue()


def instructions_pdf(text: str, w: float, h: float) -> bytes:
    """The instructions as a page of their own (Helvetica: the text is English)."""
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph, SimpleDocTemplate

    from boardgen.units import pt

    buf = io.BytesIO()
    doc = SimpleDocTemplate(buf, pagesize=(pt(w), pt(h)), leftMargin=pt(22), rightMargin=pt(22),
                            topMargin=pt(22), bottomMargin=pt(22), invariant=1, title="Cut files",
                            author="boardgen", creator="boardgen")
    style = ParagraphStyle("p", fontName="Helvetica", fontSize=9.5, leading=12.5, spaceAfter=5)
    head = ParagraphStyle("h", parent=style, fontName="Helvetica-Bold", fontSize=12, leading=15)
    flow = [Paragraph(_escape(line), head if i == 0 else style)
            for i, line in enumerate(part for part in text.split("\n\n") if part.strip())]
    doc.build(flow)
    return buf.getvalue()


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\n", "<br/>")


def _marked_pdf(pdf: bytes, sizes: Sequence[tuple[float, float]], pages: Sequence[int], machine: str,
                intro: str) -> tuple[bytes, list[marks_mod.Marks]]:
    """The instructions page, then the kit's pages of pieces with the machine's marks laid over."""
    from pypdf import PdfReader, PdfWriter

    reader = PdfReader(io.BytesIO(pdf))
    writer = PdfWriter()
    w0, h0 = sizes[pages[0]]
    writer.append(PdfReader(io.BytesIO(instructions_pdf(intro, w0, h0))))
    used = []
    for index in pages:
        w, h = sizes[index]
        m = marks_mod.marks_for(machine, w, h)
        used.append(m)
        page = writer.add_page(reader.pages[index])
        page.merge_page(PdfReader(io.BytesIO(marks_pdf(m, w, h))).pages[0])
    writer.add_metadata({"/Title": "Print and cut", "/Producer": "boardgen", "/Creator": "boardgen"})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue(), used


def _fits(box: tuple[float, float, float, float], mat: Mat) -> bool:
    slack = 2 * 25.4 / mat.dpi  # the mat is cut on whole pixels: a pixel more at each side at most
    return box[2] - box[0] <= mat.w - slack and box[3] - box[1] <= mat.h - slack


def _mats(outlines: Sequence[Placement], bleed: dict[str, float],
          mat: Mat) -> tuple[list[tuple[list[Placement], float]], list[Placement]]:
    """Pieces of one page grouped into mats, in reading order: each group's box (bleed and its
    white margin included) at most the mat's image. A piece alone too large with the margin
    round it goes on a mat with no margin; one larger than a mat even so is left out (returned
    apart)."""
    groups: list[tuple[list[Placement], float]] = []
    too_large: list[Placement] = []
    box: tuple[float, float, float, float] | None = None

    def around(o: Placement, margin: float) -> tuple[float, float, float, float]:
        b = bleed.get(o.piece, 0.0) + margin
        return o.x - b, o.y - b, o.right + b, o.bottom + b

    for o in sorted(outlines, key=lambda o: (round(o.y, 3), round(o.x, 3))):
        mine = around(o, mat.margin)
        if box is not None and groups[-1][1] == mat.margin:
            grown = (min(box[0], mine[0]), min(box[1], mine[1]), max(box[2], mine[2]), max(box[3], mine[3]))
            if _fits(grown, mat):
                groups[-1][0].append(o)
                box = grown
                continue
        if _fits(mine, mat):
            groups.append(([o], mat.margin))
            box = mine
        elif _fits(around(o, 0.0), mat):
            groups.append(([o], 0.0))
            box = None
        else:
            too_large.append(o)
    return groups, too_large


def _cricut(pdf: bytes, pages: dict[int, list[Placement]], bleed: dict[str, float],
            stem: str) -> tuple[dict[str, bytes], list[Placement]]:
    from PIL import Image, ImageDraw

    from boardgen.raster import opened, page_image

    mat_spec = find_machine("cricut").mat
    assert mat_spec is not None, "Cricut prints and cuts mats"
    out: dict[str, bytes] = {}
    left_out: list[Placement] = []
    px = mat_spec.dpi / 25.4
    n = 0
    with opened(pdf) as doc:
        for index, outlines in sorted(pages.items()):
            image = page_image(doc, index, scale=mat_spec.dpi / 72)
            groups, too_large = _mats(outlines, bleed, mat_spec)
            left_out += too_large
            for group, margin in groups:
                n += 1
                boxes = [(o.x - bleed.get(o.piece, 0.0), o.y - bleed.get(o.piece, 0.0),
                          o.right + bleed.get(o.piece, 0.0), o.bottom + bleed.get(o.piece, 0.0)) for o in group]
                x0 = min(b[0] for b in boxes) - margin
                y0 = min(b[1] for b in boxes) - margin
                x1 = max(b[2] for b in boxes) + margin
                y1 = max(b[3] for b in boxes) + margin
                crop = (round(x0 * px), round(y0 * px), round(x1 * px), round(y1 * px))
                mat = Image.new("RGB", (crop[2] - crop[0], crop[3] - crop[1]), "white")
                mask = Image.new("L", mat.size, 0)
                draw = ImageDraw.Draw(mask)
                for b in boxes:  # only this mat's pieces: a neighbour's edge stays off the mat
                    draw.rectangle((b[0] * px - crop[0], b[1] * px - crop[1], b[2] * px - crop[0] - 1,
                                    b[3] * px - crop[1] - 1), fill=255)
                mat.paste(image.crop(crop), (0, 0), mask)
                png = io.BytesIO()
                mat.save(png, "PNG", dpi=(mat_spec.dpi, mat_spec.dpi), optimize=False)
                name = f"{stem}-cricut-mat{n:02}"
                out[f"{name}.png"] = png.getvalue()
                w, h = (crop[2] - crop[0]) / px, (crop[3] - crop[1]) / px
                out[f"{name}.svg"] = svg([o.moved(-crop[0] / px, -crop[1] / px) for o in group], w, h)
    return out, left_out


def cut_files(imposed: ImposedPdf, options: CutOptions, *, stem: str,
              page_numbers: dict[int, int] | None = None) -> tuple[dict[str, bytes], str]:
    """The files under cut/ (name -> bytes) and the instructions, for one machine, from the
    kit's whole PDF and the pieces placed on it. `stem` is the kit PDF's name without .pdf;
    `page_numbers` the number each page of the PDF prints (0-based index -> number), by
    default index + 1."""
    pdf, placements = imposed.data, imposed.placements
    pages = outlines_by_page(placements)
    numbers = page_numbers or {i: i + 1 for i in pages}
    bleed = {p.piece: p.bleed for p in placements if p.kind not in NOT_CUT}
    machine = options.machine
    files: dict[str, bytes] = {}
    if not pages:
        return files, ""
    sizes = imposed.sizes
    if machine in ("silhouette", "silhouette-4", "scanncut"):
        order = sorted(pages)
        for index in order:
            w, h = sizes[index]
            name = f"{stem}-{machine}-page{numbers[index]:02}"
            if machine == "scanncut":
                files[f"{name}.svg"] = svg(pages[index], w, h)
            else:
                files[f"{name}.dxf"] = dxf(pages[index], h)
        text = instructions(machine, stem, [numbers[i] for i in order], pages, order)
        files[f"{stem}-{machine}.pdf"], _ = _marked_pdf(pdf, sizes, order, machine, text)
    elif machine == "cricut":
        mats, left_out = _cricut(pdf, pages, bleed, stem)
        files.update(mats)
        text = instructions(machine, stem, [], pages, sorted(pages), left_out=left_out)
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


def instructions(machine: str, stem: str, numbers: list[int], pages: dict[int, list[Placement]],
                 order: list[int], *, options: CutOptions | None = None, left_out: Sequence[Placement] = ()) -> str:
    """How to use the files with the machine, in words (the first page of the marked PDF and
    cut/README.txt)."""
    count = sum(len(pages[i]) for i in order)
    found = find_machine(machine)
    spec, mat = found.marks, found.mat
    lines = [f"Cutting this kit with a {found.name}",
             f"{count} pieces on {len(order)} pages of card. Print at 100 % (actual size, no 'fit to page'): "
             "the cut files are drawn at the printed size, in millimetres."]
    if spec is not None and spec.pattern.startswith("silhouette"):
        pattern = "4 marks (one more L at the bottom right)" if spec.pattern == "silhouette-4" else "3 marks"
        lines += [
            f"Print {stem}-{machine}.pdf from its second page on card. Each page carries Silhouette registration "
            f"marks ({pattern}: a filled {spec.arm:g} mm square at the top left, L marks at the other corners, "
            f"arms {spec.arm:g} mm long, {spec.thick:g} mm thick, {spec.inset:g} mm in from the paper's edges).",
            f"In Silhouette Studio open the DXF named after the page's number (the number in its footer): "
            f"{stem}-{machine}-page07.dxf for page 7. Set the page size to the paper's, turn Registration Marks on "
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
            f"In CanvasWorkspace import the SVG named after the page's number ({stem}-scanncut-page07.svg for page 7; "
            "page-sized, in millimetres, red outlines to cut, blue fold lines to score or delete), send it to "
            "the machine, put the printed page on the mat and let the machine scan it: align the cut data on "
            "the bullseyes and cut.",
        ]
    elif mat is not None:
        lines += [
            f"Print Then Cut: for each mat upload the PNG ({mat.dpi} dpi, at most {mat.w:g} x {mat.h:g} mm) as a "
            "printed image and "
            "the SVG of the same name as its cut line; both are the same size, so place them at the same "
            "position, select both and Flatten. Design Space prints its own marks round the image: print it "
            "from Design Space on card, then cut.",
        ]
        if left_out:
            lines.append("Larger than a Cricut mat's image, to cut by hand from the kit's PDF: "
                         + ", ".join(o.piece for o in left_out) + ".")
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
    return "\n\n".join(lines) + "\n"
