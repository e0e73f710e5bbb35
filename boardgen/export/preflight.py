"""Preflight: what a print service checks in a file, read from the file itself (pypdf for the PDF's
objects, Pillow for images, Ghostscript's CMYK raster for the ink): page boxes and the bleed
between them, fonts embedded, colour spaces, image resolution, total ink, the die line's spot
colour and its overprint, the PDF/X output intent. `boardgen preflight FILE --for SERVICE`
prints it; `export` writes it beside the files and refuses files that fail.
"""

from __future__ import annotations

import io
import logging
import math
import re
from collections.abc import Iterator
from contextlib import closing, contextmanager
from typing import Any

from boardgen.errors import UsageError
from boardgen.export.services import INCH, Service

PT_MM = 25.4 / 72
INK_DPI = 50  # ink is sampled at this resolution: a pixel is half a millimetre

# Bounds on a PDF handed to preflight, checked before anything is rasterised: a file is anyone's,
# and an 11.8 KB PDF of 60 pages of 14400 pt took 4.7 GiB and 3 GiB of disk. A press sheet is at
# most SRA0-ish (A0 is 841 x 1189 mm) with bleed; a kit is tens of pages.
MAX_PDF_BYTES = 256 * 1024**2
MAX_PAGES = 500
MAX_PAGE_MM = 1300.0
# All pages together (square metres): what is rasterised, so the time Ghostscript takes, stays
# bounded (a kit of 30 A3 pages is 3.7 m2; A0 is 1 m2).
MAX_TOTAL_M2 = 40.0
# Raster of one Ghostscript run (4 bytes a pixel at INK_DPI): pages are rasterised in batches of
# at most this, each page measured and removed before the next, so disk and memory stay flat.
RASTER_BATCH_BYTES = 256 * 1024**2


def check_pdf(data: bytes, name: str) -> None:
    """A UsageError (exit 2) unless data is a PDF from its first byte: a PostScript program
    before a valid PDF passes pypdf, and Ghostscript would run the program."""
    if len(data) > MAX_PDF_BYTES:
        raise UsageError(f"{name}: {len(data):,} bytes, over the {MAX_PDF_BYTES // 1024**2} MiB preflight reads")
    if not data.startswith(b"%PDF-"):
        start = "".join(c if c.isprintable() and c.isascii() else "." for c in data[:8].decode("latin-1"))
        raise UsageError(
            f"{name}: not a readable PDF: a PDF starts with %PDF- at its first byte, this one with "
            f"{start!r} (anything before it, such as a PostScript program, is refused)"
        )


def page_sizes(reader: Any, name: str) -> list[tuple[float, float]]:
    """Every page's width and height in points (MediaBox, times its UserUnit), checked against
    MAX_PAGES and MAX_PAGE_MM before anything is rasterised: a UsageError naming the bound."""
    count = len(reader.pages)
    if count > MAX_PAGES:
        raise UsageError(f"{name}: {count} pages, over the {MAX_PAGES} preflight measures")
    sizes = []
    for number, page in enumerate(reader.pages, start=1):
        box = _box(page, "/MediaBox") or (0.0, 0.0, 612.0, 792.0)
        unit = float(_resolve(page.get("/UserUnit", 1.0)))
        w, h = abs(box[2] - box[0]) * unit, abs(box[3] - box[1]) * unit
        if not (w * PT_MM <= MAX_PAGE_MM and h * PT_MM <= MAX_PAGE_MM):  # nan fails too
            raise UsageError(
                f"{name} page {number}: {w * PT_MM:.0f} x {h * PT_MM:.0f} mm, over the "
                f"{MAX_PAGE_MM:g} mm a side preflight measures"
            )
        sizes.append((w, h))
    total = sum(w * h for w, h in sizes) * (PT_MM / 1000) ** 2
    if total > MAX_TOTAL_M2:
        raise UsageError(
            f"{name}: {count} pages of {total:.1f} square metres in all, over the {MAX_TOTAL_M2:g} m2 "
            "preflight measures"
        )
    return sizes


def batches(sizes: list[tuple[float, float]], dpi: int = INK_DPI) -> list[tuple[int, int]]:
    """(first, last) page ranges whose CMYK raster at `dpi` stays within RASTER_BATCH_BYTES
    (a page larger than that alone: one page a batch)."""
    out: list[tuple[int, int]] = []
    first, held = 1, 0.0
    for number, (w, h) in enumerate(sizes, start=1):
        size = (w / 72 * dpi + 1) * (h / 72 * dpi + 1) * 4
        if held and held + size > RASTER_BATCH_BYTES:
            out.append((first, number - 1))
            first, held = number, 0.0
        held += size
    if sizes:
        out.append((first, len(sizes)))
    return out


def _resolve(obj: Any) -> Any:
    return obj.get_object() if hasattr(obj, "get_object") else obj


def _walk_resources(resources: Any, seen: set[int], found: dict[str, Any]) -> None:
    """Fonts, colour spaces, images, graphics states and content of forms, recursively."""
    resources = _resolve(resources)
    if resources is None or id(resources) in seen:
        return
    seen.add(id(resources))
    for font in (_resolve(resources.get("/Font")) or {}).values():
        found["fonts"].append(_resolve(font))
    for space in (_resolve(resources.get("/ColorSpace")) or {}).values():
        found["spaces"].append(_resolve(space))
    for state in (_resolve(resources.get("/ExtGState")) or {}).values():
        found["states"].append(_resolve(state))
    for xobject in (_resolve(resources.get("/XObject")) or {}).values():
        xobject = _resolve(xobject)
        if xobject.get("/Subtype") == "/Image":
            found["images"].append(xobject)
            if xobject.get("/ColorSpace") is not None:
                found["spaces"].append(_resolve(xobject["/ColorSpace"]))
        elif xobject.get("/Subtype") == "/Form":
            if id(xobject) not in found["forms"]:  # a form shared by many pages is read once
                found["forms"].add(id(xobject))
                try:
                    _content(found, xobject.get_data())
                except UsageError:
                    raise
                except Exception:  # noqa: BLE001 - a stream pypdf cannot decode is reported as unread
                    found["unread"] += 1
            _walk_resources(xobject.get("/Resources"), seen, found)


# What the content streams of a file may decompress to, in all (pypdf keeps each decoded stream
# while the file is open, 75 MB at most each): 20 streams of 74 MB in a 1.4 MB file took 3 GiB.
# A kit's pages are vector drawings of a few MB at most in all.
MAX_CONTENT_BYTES = 256 * 1024**2
_RGB_OPERATOR = re.compile(rb"(?<![A-Za-z])(?:rg|RG)(?![A-Za-z])")


def _content(found: dict[str, Any], data: bytes) -> None:
    """Count a content stream's RGB operators, without keeping it (memory holds one stream)."""
    found["content_bytes"] += len(data)
    if found["content_bytes"] > MAX_CONTENT_BYTES:
        raise UsageError(
            f"{found['name']}: its content streams decompress to more than "
            f"{MAX_CONTENT_BYTES // 1024**2} MiB, over what preflight reads"
        )
    found["rgb_operators"] += len(_RGB_OPERATOR.findall(data))


def _space_name(space: Any) -> str:
    space = _resolve(space)
    if isinstance(space, list) and space:
        kind = str(_resolve(space[0]))
        if kind == "/ICCBased":
            n = int(_resolve(space[1]).get("/N", 0))
            return {1: "ICC gray", 3: "ICC RGB", 4: "ICC CMYK"}.get(n, "ICC")
        if kind in ("/Separation", "/DeviceN"):
            return f"{kind[1:]} {_resolve(space[1])}"
        if kind == "/Indexed":
            return "Indexed " + _space_name(space[1])
        return kind[1:]
    return str(space)[1:] if str(space).startswith("/") else str(space)


def _font_embedded(font: Any) -> tuple[str, bool]:
    name = str(font.get("/BaseFont", "?"))
    if font.get("/Subtype") == "/Type3":
        return name, True
    descendants = font.get("/DescendantFonts")
    if descendants is not None:
        font = _resolve(_resolve(descendants)[0])
    descriptor = _resolve(font.get("/FontDescriptor"))
    if descriptor is None:
        return name, False
    return name, any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3"))


def _box(page: Any, name: str) -> tuple[float, float, float, float] | None:
    box = page.get(name)
    if box is None:
        return None
    return tuple(float(v) for v in _resolve(box))  # type: ignore[return-value]


@contextmanager
def _pypdf_quiet() -> Iterator[None]:
    """pypdf's warnings on a damaged file ("EOF marker not found") kept off the terminal: what
    is wrong is said once, in boardgen's message."""
    logger = logging.getLogger("pypdf")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)


def report_pdf(
    data: bytes, service: Service, *, name: str = "file.pdf", pieces: list[str] | None = None
) -> dict[str, Any]:
    """Every check of a PDF for a service: a dict of findings and `problems` (empty: it passes).
    `pieces`: what each page is (a deck's card, a press page's piece), for the messages."""
    with _pypdf_quiet():
        return _report_pdf(data, service, name=name, pieces=pieces)


def _report_pdf(data: bytes, service: Service, *, name: str, pieces: list[str] | None) -> dict[str, Any]:
    from pypdf import PdfReader

    check_pdf(data, name)
    reader = PdfReader(io.BytesIO(data))
    sizes = page_sizes(reader, name)
    problems: list[str] = []
    pages_out = []
    found: dict[str, Any] = {
        "fonts": [],
        "spaces": [],
        "states": [],
        "images": [],
        "unread": 0,
        "name": name,
        "forms": set(),
        "content_bytes": 0,
        "rgb_operators": 0,
    }
    for number, page in enumerate(reader.pages, start=1):
        media = _box(page, "/MediaBox")
        trim = _box(page, "/TrimBox")
        bleed = _box(page, "/BleedBox")
        entry: dict[str, Any] = {"page": number, "media_mm": [round(v * PT_MM, 3) for v in media or ()]}
        if trim is None or bleed is None:
            problems.append(f"{name} page {number}: no {'TrimBox' if trim is None else 'BleedBox'}")
        else:
            sides = [trim[0] - bleed[0], trim[1] - bleed[1], bleed[2] - trim[2], bleed[3] - trim[3]]
            entry["trim_mm"] = [round(v * PT_MM, 3) for v in trim]
            entry["bleed_mm"] = [round(v * PT_MM, 3) for v in sides]
            if any(abs(v * PT_MM - service.bleed_mm) > 0.05 for v in sides):
                problems.append(
                    f"{name} page {number}: bleed {min(sides) * PT_MM:.2f}-{max(sides) * PT_MM:.2f} mm, "
                    f"{service.name} wants {service.bleed_mm:.2f} mm"
                )
        try:
            contents = page.get_contents()
            _content(found, contents.get_data() if contents is not None else b"")
        except UsageError:
            raise
        except Exception:  # noqa: BLE001
            found["unread"] += 1
        before = len(found["images"])
        _walk_resources(page.get("/Resources"), set(), found)
        images = found["images"][before:]
        if images and media is not None and media[2] > media[0]:
            # A page-filling raster (the deck files): its pixels over the page's width.
            entry["image_dpi"] = round(max(int(i.get("/Width", 0)) for i in images) * 72 / (media[2] - media[0]))
        pages_out.append(entry)
    fonts = sorted({_font_embedded(f) for f in found["fonts"]})
    missing = [font for font, embedded in fonts if not embedded]
    if missing:
        problems.append(f"{name}: fonts not embedded: {', '.join(missing)}")
    spaces = sorted({_space_name(s) for s in found["spaces"]})
    operators_rgb = found["rgb_operators"]
    rgb = [s for s in spaces if s in ("DeviceRGB", "ICC RGB", "CalRGB")]
    if operators_rgb:
        rgb.append("rg/RG operators")
    catalog: Any = _resolve(reader.trailer["/Root"])
    intents = [_resolve(i) for i in (_resolve(catalog.get("/OutputIntents")) or [])]
    pdfx = [str(i.get("/S")) for i in intents]
    info: Any = reader.metadata or {}
    overprint = any(bool(s.get("/OP")) for s in found["states"])
    report: dict[str, Any] = {
        "file": name,
        "service": service.key,
        "pages": len(reader.pages),
        "page_boxes": pages_out,
        "fonts": [{"name": f, "embedded": e} for f, e in fonts],
        "colour_spaces": spaces,
        "rgb_left": rgb,
        "output_intents": pdfx,
        "pdfx_version": str(info.get("/GTS_PDFXVersion", "")),
        "die_line": any(s == "Separation /die-cut" for s in spaces),
        "overprint": overprint,
    }
    if service.faces in ("pdf", "press"):
        if "/GTS_PDFX" not in pdfx:
            problems.append(f"{name}: no GTS_PDFX output intent (not PDF/X)")
        if rgb:
            problems.append(f"{name}: RGB colour left: {', '.join(rgb)}")
        low = [p["image_dpi"] for p in pages_out if p.get("image_dpi") and p["image_dpi"] < service.dpi]
        if low:
            problems.append(f"{name}: images at {min(low)} dpi, under {service.dpi}")
    if service.faces == "press":
        if not report["die_line"]:
            problems.append(f"{name}: no die line in a Separation colour named die-cut")
        if not overprint:
            problems.append(f"{name}: the die line does not overprint")
    if service.faces in ("pdf", "press"):
        problems += face_problems(data, reader, service, name=name, names=pieces)
    if service.ink_limit is not None and service.faces in ("pdf", "press"):
        report["max_ink_percent"] = max_ink(data, sizes)
        if report["max_ink_percent"] > service.ink_limit:
            problems.append(
                f"{name}: total ink reaches {report['max_ink_percent']} %, over {service.name}'s {service.ink_limit} %"
            )
    subject = str(info.get("/Subject", ""))
    if problems and subject.startswith(HOME_KIT):
        game = subject.removeprefix(HOME_KIT).split(",")[0].strip() or "GAME"
        make = "--for press" if service.faces == "press" else f"--for {service.key}"
        report["hint"] = (
            f"this is boardgen's kit for printing at home ({game}), not a file for {service.name}: "
            f"`boardgen export {game} {make}` writes the files {service.name} takes"
        )
    report["problems"] = problems
    return report


HOME_KIT = "boardgen kit:"  # the Subject of a kit's own PDF (kits.packing.impose)


def max_ink(data: bytes, sizes: list[tuple[float, float]] | None = None) -> int:
    """The highest total ink (C+M+Y+K, percent) at any pixel of any page, sampled at INK_DPI;
    pages rasterised in batches (`sizes`: each page's, from page_sizes) and measured one at a
    time, so memory holds one page."""
    import numpy as np
    from PIL import Image

    from boardgen.export.ghostscript import cmyk_pages

    highest = 0
    with closing(cmyk_pages(data, dpi=INK_DPI, batches=batches(sizes) if sizes else None)) as pages:
        for tiff in pages:
            with Image.open(tiff) as image:
                values = np.asarray(image.convert("CMYK"))
            highest = max(highest, int(values.sum(axis=-1, dtype=np.uint16).max()))
            del values
    return round(highest * 100 / 255)


def report_png(data: bytes, service: Service, *, name: str, sizes: set[tuple[int, int]]) -> dict[str, Any]:
    from PIL import Image

    with Image.open(io.BytesIO(data)) as image:
        size = image.size
        dpi = image.info.get("dpi", (0, 0))
        mode = image.mode
    problems = []
    if size not in sizes:
        problems.append(
            f"{name}: {size[0]} x {size[1]} px; {service.name} takes "
            + ", ".join(f"{w} x {h}" for w, h in sorted(sizes))
        )
    if round(dpi[0]) < service.dpi:
        problems.append(f"{name}: {round(dpi[0])} dpi, under {service.dpi}")
    safe = round(service.safe_mm / INCH * service.dpi + service.bleed_mm / INCH * service.dpi)
    problems += edge_problems(data, service, name=name)
    return {
        "file": name,
        "pixels": list(size),
        "dpi": round(dpi[0]),
        "mode": mode,
        "safe_zone_px": safe,
        "problems": problems,
    }


WHITE = 245  # every channel at least this: paper left unprinted
MARK_DIFF = 80  # a pixel this far (in a channel) from its side's bleed colour is something drawn there
MARKED = 0.01  # of a strip's pixels: that much drawn in the safe band (and not in the bleed) is a problem


def edge_problems(data: bytes, service: Service, *, name: str) -> list[str]:
    """What a face's bleed and safe band hold, side by side (a face is trim plus the service's
    bleed round it): a bleed left white where the art reaches the trim (a cut a little outside
    shows a white edge), and lines or text drawn in the band between the trim and the safe line
    that stop at the trim (a frame or words there are cut into, or sit unevenly, when the cut is
    off): art that runs on into the bleed is a full-bleed picture, not a problem."""
    import numpy as np
    from PIL import Image

    with Image.open(io.BytesIO(data)) as image:
        pixels = np.asarray(image.convert("RGB"), dtype=np.int16)
    bleed = round(service.bleed_mm / INCH * service.dpi)
    safe = round(service.safe_mm / INCH * service.dpi)
    return _strip_problems(pixels, bleed, safe, service, where=name)


def _strip_problems(pixels: Any, bleed: int, safe: int, service: Service, *, where: str, margin: int = 0) -> list[str]:
    """`edge_problems` of a face's pixels (RGB, rows top down) whose trim lies `bleed` pixels
    inside every edge, its safe line `safe` pixels further in. `margin` pixels each side of the
    trim are left out (a PDF's die line is drawn on the trim)."""
    height, width = pixels.shape[:2]
    if bleed - margin < 2 or safe - margin < 2 or width <= 2 * (bleed + safe) + 2 or height <= 2 * (bleed + safe) + 2:
        return []
    inset = bleed + safe  # the strips run along each side between the safe lines (corners left out)
    out, inner = bleed - margin, bleed + margin
    strips = {
        "top": (pixels[:out, inset : width - inset], pixels[inner : bleed + safe, inset : width - inset]),
        "bottom": (
            pixels[height - out :, inset : width - inset][::-1],
            pixels[height - bleed - safe : height - inner, inset : width - inset][::-1],
        ),
        "left": (
            pixels[inset : height - inset, :out].transpose(1, 0, 2),
            pixels[inset : height - inset, inner : bleed + safe].transpose(1, 0, 2),
        ),
        "right": (
            pixels[inset : height - inset, width - out :].transpose(1, 0, 2)[::-1],
            pixels[inset : height - inset, width - bleed - safe : width - inner].transpose(1, 0, 2)[::-1],
        ),
    }
    problems = []
    for side, (outer, band) in strips.items():
        # Rows from the paper's edge inwards: outer[-1] touches the trim from outside, band[0] from inside.
        found = _side_problem(outer.reshape(-1, 3), band.reshape(-1, 3), band[:2].reshape(-1, 3))
        if found is not None:
            problems.append(_side_text(found, where, side, service))
    return problems


def _side_problem(outer: Any, band: Any, edge: Any) -> tuple[str, float] | None:
    """What one side holds (each an N x 3 array of RGB pixels: the bleed, the safe band, the
    band's pixels touching the trim): ("white", 0) for a bleed left white where the art
    reaches the trim, ("marks", share of the band) for lines or text in the band that stop
    at the trim, else None."""
    import numpy as np

    if not len(outer) or not len(band) or not len(edge):
        return None
    white_bleed = float((outer.min(axis=-1) >= WHITE).mean())
    white_edge = float((edge.min(axis=-1) >= WHITE).mean())
    if white_bleed > 0.95 and white_edge < 0.5:
        return "white", 0.0
    colour = np.median(outer, axis=0)
    in_band = float((np.abs(band - colour).max(axis=-1) > MARK_DIFF).mean())
    in_bleed = float((np.abs(outer - colour).max(axis=-1) > MARK_DIFF).mean())
    if in_band > MARKED and in_bleed < MARKED / 5:
        return "marks", in_band
    return None


def _side_text(found: tuple[str, float], where: str, side: str, service: Service) -> str:
    kind, share = found
    if kind == "white":
        return (
            f"{where}: the bleed on the {side} is white where the art reaches the trim: a cut a little "
            f"outside shows a white edge (run the art {service.bleed_mm:g} mm past the trim)"
        )
    return (
        f"{where}: lines or text within {service.safe_mm:g} mm of the trim on the {side} "
        f"({share:.0%} of that band), where {service.name} asks for nothing that matters: "
        "a cut a little off cuts into them"
    )


def report_files(
    files: dict[str, bytes], service: Service, pieces: dict[str, list[str]] | None = None
) -> dict[str, Any]:
    """Preflight of every file an export writes (PNG and PDF); `problems` gathers them all.
    `pieces`: what each page of a PDF is, by its path (see `report_pdf`)."""
    sizes = {pixels for _, pixels in service.sizes.values()}
    reports = []
    for path, data in sorted(files.items()):
        if path.endswith(".pdf"):
            reports.append(report_pdf(data, service, name=path, pieces=(pieces or {}).get(path)))
        elif path.endswith(".png"):
            reports.append(report_png(data, service, name=path, sizes=sizes))
    hints = list(dict.fromkeys(r["hint"] for r in reports if "hint" in r))
    return {
        "service": service.key,
        "files": reports,
        "problems": [p for r in reports for p in r["problems"]],
        **({"hints": hints} if hints else {}),
    }


FACE_DPI = 150  # a deck's or press file's faces are rasterised at this to read their bleed and safe band
DIE_MARGIN_PX = 2  # pixels each side of a press page's trim left out: its die line is drawn there
# Pixels of all pages together (a file is anyone's): past this every page is drawn coarser, so
# the time and memory the faces take stay bounded. The bundled press files are 5-11 million at
# FACE_DPI; 3 mm of bleed is still 4 pixels, what the sides need, down to 34 dpi.
MAX_FACE_PIXELS = 120_000_000
# A page whose content is longer than this has its trim read from its TrimBox, not its die
# line (parsing the content is Python's work; the bundled pages are at most 200 KB).
MAX_DIE_CONTENT_BYTES = 2 * 1024**2
ROUND_STEPS = 12  # points a curve of a die line is flattened to


def die_outlines(reader: Any, page: Any) -> list[list[tuple[float, float]]]:
    """The die line of a press page as it is in the file: every path stroked in the Separation
    colour named die-cut, each subpath a list of points in page points (y up), curves
    flattened; the transformations (cm, q, Q) of the page's content applied."""
    from pypdf.generic import ContentStream

    spaces = _resolve((_resolve(page.get("/Resources")) or {}).get("/ColorSpace")) or {}
    die = {str(key) for key, space in spaces.items() if _space_name(space) == "Separation /die-cut"}
    if not die:
        return []
    contents = page.get_contents()
    if contents is None or len(contents.get_data()) > MAX_DIE_CONTENT_BYTES:
        return []
    matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    stack: list[tuple[tuple[float, ...], bool]] = []
    stroking_die = False
    subpaths: list[list[tuple[float, float]]] = []
    found: list[list[tuple[float, float]]] = []

    def at(x: float, y: float) -> tuple[float, float]:
        a, b, c, d, e, f = matrix
        return a * x + c * y + e, b * x + d * y + f

    for operands, operator in ContentStream(contents, reader).operations:
        op = operator.decode("latin-1") if isinstance(operator, bytes) else str(operator)
        values = [float(v) for v in operands if isinstance(v, (int, float))]
        if op == "q":
            stack.append((matrix, stroking_die))
        elif op == "Q" and stack:
            matrix, stroking_die = stack.pop()  # type: ignore[assignment]
        elif op == "cm" and len(values) == 6:
            a, b, c, d, e, f = values
            m = matrix
            matrix = (
                a * m[0] + b * m[2],
                a * m[1] + b * m[3],
                c * m[0] + d * m[2],
                c * m[1] + d * m[3],
                e * m[0] + f * m[2] + m[4],
                e * m[1] + f * m[3] + m[5],
            )
        elif op == "CS" and operands:
            stroking_die = str(operands[0]) in die
        elif op in ("G", "RG", "K"):
            stroking_die = False
        elif op == "m" and len(values) == 2:
            subpaths.append([at(*values)])
        elif op == "l" and len(values) == 2 and subpaths:
            subpaths[-1].append(at(*values))
        elif op in ("c", "v", "y") and subpaths:
            start = subpaths[-1][-1]
            ends = [at(values[k], values[k + 1]) for k in range(0, len(values) - 1, 2)]
            if op == "v":
                ends.insert(0, start)
            elif op == "y":
                ends.append(ends[-1])
            if len(ends) == 3:
                (x1, y1), (x2, y2), (x3, y3) = ends
                x0, y0 = start
                for k in range(1, ROUND_STEPS + 1):
                    t = k / ROUND_STEPS
                    u = 1 - t
                    subpaths[-1].append(
                        (
                            u**3 * x0 + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t**3 * x3,
                            u**3 * y0 + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t**3 * y3,
                        )
                    )
        elif op == "re" and len(values) == 4:
            x, y, w, h = values
            subpaths.append([at(x, y), at(x + w, y), at(x + w, y + h), at(x, y + h)])
        elif op in ("S", "s", "B", "B*", "b", "b*", "f", "F", "f*", "n"):
            if stroking_die and op in ("S", "s", "B", "B*", "b", "b*"):
                found += [path for path in subpaths if len(path) >= 3 and all(map(math.isfinite, sum(path, ())))]
            subpaths = []
    return found


def face_problems(
    data: bytes, reader: Any, service: Service, *, name: str, names: list[str] | None = None
) -> list[str]:
    """`edge_problems` of every page of a deck or press PDF, read from the pages as they print:
    each page rasterised (boardgen.raster) at FACE_DPI (coarser past MAX_FACE_PIXELS in all),
    its trim the die line stroked on it (a
    press page), else its TrimBox. A rectangular trim (a card, a tile, the board, with or
    without rounded corners) is read side by side as a PNG face is; any other outline (a round
    pawn, a die net) has its bleed read along the outline, its four quarters as the sides (its
    safe band is not: see `_face_sides`). Each problem names the
    file, the page and, given `names` (one a page), the piece."""
    import numpy as np

    from boardgen import raster

    problems: list[str] = []
    if names is not None and len(names) != len(reader.pages):
        names = None  # a list of another file's pages names none of these
    with raster.opened(data) as document:
        area = sum(w * h for w, h in (raster.page_size(document, k) for k in range(len(document))))
        scale = min(FACE_DPI / 72, (MAX_FACE_PIXELS / max(area, 1.0)) ** 0.5)
        for index, page in enumerate(reader.pages):
            media = _box(page, "/MediaBox") or (0.0, 0.0, 612.0, 792.0)
            trim = _box(page, "/TrimBox")
            outlines = die_outlines(reader, page) if service.faces == "press" else []
            if trim is None and not outlines:
                continue  # no trim to measure from (reported as a missing TrimBox)
            where = f"{name} page {index + 1}" + (f" ({names[index]})" if names else "")
            pixels = np.asarray(raster.page_image(document, index, scale=scale, annotations=False))

            shape = _trim_shape(outlines, trim)
            problems += _face_sides(pixels, shape, service, scale=scale, where=where, corner=(media[0], media[3]))
    return problems


def _trim_shape(outlines: list[list[tuple[float, float]]], trim: tuple[float, float, float, float] | None) -> Any:
    """The trim as a shapely polygon in page points: the die line's outline (the largest one a
    press page strokes), else the TrimBox."""
    from shapely.geometry import Polygon, box

    shapes = [Polygon(path).buffer(0) for path in outlines]
    shapes = [s for s in shapes if s.area > 0]
    if shapes:
        return max(shapes, key=lambda s: s.area)
    assert trim is not None
    return box(*trim)


RECT_FILL = 0.95  # of its bounding box: a trim filling this much is a rectangle (rounded corners or not)


def _face_sides(
    pixels: Any, shape: Any, service: Service, *, scale: float, where: str, corner: tuple[float, float]
) -> list[str]:
    """`edge_problems` of one rasterised page (pixels at `scale` a point) whose trim is `shape`
    (page points, y up); `corner`: the page's top left corner (its pixel 0, 0) in page points."""

    def to_pixels(x: float, y: float) -> tuple[float, float]:
        return (x - corner[0]) * scale, (corner[1] - y) * scale

    import numpy as np
    from shapely.affinity import affine_transform

    height, width = pixels.shape[:2]
    bleed = round(service.bleed_mm / INCH * 72 * scale)
    safe = round(service.safe_mm / INCH * 72 * scale)
    x0, y0 = to_pixels(shape.bounds[0], shape.bounds[3])
    x1, y1 = to_pixels(shape.bounds[2], shape.bounds[1])
    if shape.area >= RECT_FILL * shape.envelope.area:
        left, top, right, bottom = round(x0), round(y0), round(x1), round(y1)
        room = min(bleed, left, top, width - right, height - bottom)
        face = pixels[top - room : bottom + room, left - room : right + room]
        return _strip_problems(face, room, safe, service, where=where, margin=DIE_MARGIN_PX)
    ox, oy = to_pixels(0.0, 0.0)
    # Pixel (i, j) covers i..i+1 of the raster; _mask draws a point at its centre.
    outline = affine_transform(shape, [scale, 0.0, 0.0, -scale, ox - 0.5, oy - 0.5])
    margin = DIE_MARGIN_PX
    rings = {
        "outer": outline.buffer(bleed - 1).difference(outline.buffer(margin)),  # the page's bleed edge left out
        "band": outline.buffer(-margin).difference(outline.buffer(-safe)),
        "edge": outline.buffer(-margin).difference(outline.buffer(-margin - 2)),
    }
    masks = {key: _mask(ring, (width, height)) for key, ring in rings.items()}
    centre = outline.centroid
    yy, xx = np.ogrid[0:height, 0:width]
    dx, dy = xx - centre.x, yy - centre.y  # a row and a column, broadcast
    sides = {
        "top": (dy < 0) & (-dy >= np.abs(dx)),
        "bottom": (dy > 0) & (dy >= np.abs(dx)),
        "left": (dx < 0) & (-dx > np.abs(dy)),
        "right": (dx > 0) & (dx > np.abs(dy)),
    }
    problems = []
    for side, quarter in sides.items():
        found = _side_problem(*(pixels[masks[key] & quarter] for key in ("outer", "band", "edge")))
        # Only the bleed is read along such an outline: a card service's safe band is most of a
        # 15 mm pawn (its ring is a frame about the cut's centre), a die net's edges are its folds.
        if found is not None and found[0] == "white":
            problems.append(_side_text(found, where, side, service))
    return problems


def _mask(geometry: Any, size: tuple[int, int]) -> Any:
    """The pixels a shapely (multi)polygon in raster coordinates covers, as a boolean array."""
    import numpy as np
    from PIL import Image, ImageDraw

    image = Image.new("1", size, 0)
    draw = ImageDraw.Draw(image)
    import shapely

    for polygon in shapely.get_parts(geometry):
        if polygon.is_empty or polygon.geom_type != "Polygon":
            continue
        draw.polygon(list(polygon.exterior.coords), fill=1)
        for hole in polygon.interiors:
            draw.polygon(list(hole.coords), fill=0)
    return np.asarray(image, dtype=bool)
