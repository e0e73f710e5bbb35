"""Preflight: what a print service checks in a file, read from the file itself (pypdf for the PDF's
objects, Pillow for images, Ghostscript's CMYK raster for the ink): page boxes and the bleed
between them, fonts embedded, colour spaces, image resolution, total ink, the die line's spot
colour and its overprint, the PDF/X output intent. `boardgen preflight FILE --for SERVICE`
prints it; `export` writes it beside the files and refuses files that fail.
"""

from __future__ import annotations

import io
import logging
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


def report_pdf(data: bytes, service: Service, *, name: str = "file.pdf") -> dict[str, Any]:
    """Every check of a PDF for a service: a dict of findings and `problems` (empty: it passes)."""
    with _pypdf_quiet():
        return _report_pdf(data, service, name=name)


def _report_pdf(data: bytes, service: Service, *, name: str) -> dict[str, Any]:
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
    height, width = pixels.shape[:2]
    bleed = round(service.bleed_mm / INCH * service.dpi)
    safe = round(service.safe_mm / INCH * service.dpi)
    if bleed < 2 or safe < 2 or width <= 2 * (bleed + safe) + 2 or height <= 2 * (bleed + safe) + 2:
        return []
    inset = bleed + safe  # the strips run along each side between the safe lines (corners left out)
    strips = {
        "top": (pixels[:bleed, inset : width - inset], pixels[bleed : bleed + safe, inset : width - inset]),
        "bottom": (
            pixels[height - bleed :, inset : width - inset][::-1],
            pixels[height - bleed - safe : height - bleed, inset : width - inset][::-1],
        ),
        "left": (
            pixels[inset : height - inset, :bleed].transpose(1, 0, 2),
            pixels[inset : height - inset, bleed : bleed + safe].transpose(1, 0, 2),
        ),
        "right": (
            pixels[inset : height - inset, width - bleed :].transpose(1, 0, 2)[::-1],
            pixels[inset : height - inset, width - bleed - safe : width - bleed].transpose(1, 0, 2)[::-1],
        ),
    }
    problems = []
    for side, (outer, band) in strips.items():
        # Rows from the paper's edge inwards: outer[-1] touches the trim from outside, band[0] from inside.
        white_bleed = float((outer.min(axis=-1) >= WHITE).mean())
        white_edge = float((band[:2].min(axis=-1) >= WHITE).mean())
        if white_bleed > 0.95 and white_edge < 0.5:
            problems.append(
                f"{name}: the bleed on the {side} is white where the art reaches the trim: a cut a little "
                f"outside shows a white edge (run the art {service.bleed_mm:g} mm past the trim)"
            )
            continue
        colour = np.median(outer.reshape(-1, 3), axis=0)
        in_band = float((np.abs(band - colour).max(axis=-1) > MARK_DIFF).mean())
        in_bleed = float((np.abs(outer - colour).max(axis=-1) > MARK_DIFF).mean())
        if in_band > MARKED and in_bleed < MARKED / 5:
            problems.append(
                f"{name}: lines or text within {service.safe_mm:g} mm of the trim on the {side} "
                f"({in_band:.0%} of that band), where {service.name} asks for nothing that matters: "
                "a cut a little off cuts into them"
            )
    return problems


def report_files(files: dict[str, bytes], service: Service) -> dict[str, Any]:
    """Preflight of every file an export writes (PNG and PDF); `problems` gathers them all."""
    sizes = {pixels for _, pixels in service.sizes.values()}
    reports = []
    for path, data in sorted(files.items()):
        if path.endswith(".pdf"):
            reports.append(report_pdf(data, service, name=path))
        elif path.endswith(".png"):
            reports.append(report_png(data, service, name=path, sizes=sizes))
    hints = list(dict.fromkeys(r["hint"] for r in reports if "hint" in r))
    return {
        "service": service.key,
        "files": reports,
        "problems": [p for r in reports for p in r["problems"]],
        **({"hints": hints} if hints else {}),
    }
