"""Print-shop files from a kit's piece catalogue (each design's drawing, trim outline and
bleed): one image per card face at the service's exact
pixel size, a deck PDF of CMYK pages with its ink limited, and press pages (one piece a page,
TrimBox and BleedBox, the die line in a `die-cut` spot colour set to overprint) with the die line
again as SVG.

A piece drawn without bleed (tiles, tokens, the board) gets one made by mirroring its edges
outward, as print shops do: the colour at each edge runs on past the trim instead of a white
hairline where a cut lands a little outside.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

from boardgen.data.theme import Theme
from boardgen.kits.catalogue import PieceDesign
from boardgen.render.pdf import _WORDS, _draw, _drawing, svg_image

if TYPE_CHECKING:
    from PIL import Image

MM = 72 / 25.4
DIE_CUT = "die-cut"
# The die line's stroke: a hairline, the spot colour's stand-in 100 % magenta on proofs.
DIE_WIDTH_PT = 0.25


def rgb_raster(face: PieceDesign, theme: Theme, pixels: tuple[int, int]) -> Image.Image:
    """The face with its drawn bleed, rasterised to exactly `pixels` (RGB)."""
    return svg_image(face.svg, theme, pixels)


def png_bytes(image: Image.Image, dpi: int) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", dpi=(dpi, dpi), optimize=False)
    return buffer.getvalue()


def to_cmyk(image: Image.Image, profile: str, ink_limit: int) -> Image.Image:
    """RGB (sRGB) to CMYK through the output profile (perceptual), then total ink limited: where
    C+M+Y+K is over the limit, the C, M and Y are scaled down to meet it (black kept, so
    lines and text stay sharp)."""
    import numpy as np
    from PIL import Image, ImageCms

    srgb = ImageCms.createProfile("sRGB")
    cmyk_profile = ImageCms.getOpenProfile(profile)
    converted = ImageCms.profileToProfile(
        image, srgb, cmyk_profile, outputMode="CMYK", renderingIntent=ImageCms.Intent.PERCEPTUAL
    )
    assert converted is not None
    values = np.asarray(converted, dtype=np.float64)
    limit = ink_limit / 100 * 255
    cmy, k = values[..., :3], values[..., 3:]
    total = cmy.sum(axis=-1, keepdims=True) + k
    room = np.clip(limit - k, 0, None)
    over = total > limit
    scale = np.where(over, room / np.maximum(cmy.sum(axis=-1, keepdims=True), 1e-9), 1.0)
    cmy = np.floor(cmy * np.clip(scale, 0.0, 1.0))
    out = np.concatenate([cmy, k], axis=-1).astype(np.uint8)
    return Image.fromarray(out, mode="CMYK")


def _boxes(c: object, w: float, h: float, bleed: float) -> None:
    trim = (bleed * MM, bleed * MM, (bleed + w) * MM, (bleed + h) * MM)
    whole = (0.0, 0.0, (w + 2 * bleed) * MM, (h + 2 * bleed) * MM)
    c.setTrimBox(trim)  # type: ignore[attr-defined]
    c.setBleedBox(whole)  # type: ignore[attr-defined]


def raster_deck_pdf(
    pages: list[tuple[Image.Image, tuple[float, float]]], *, bleed: float, dpi: int, title: str
) -> bytes:
    """A PDF of raster pages (CMYK images from `to_cmyk`), each exactly its face with bleed,
    with TrimBox and BleedBox."""
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas as rl_canvas

    buffer = io.BytesIO()
    c = rl_canvas.Canvas(buffer, invariant=1, pageCompression=1)
    c.setTitle(title)
    c.setCreator("boardgen")
    for image, (w, h) in pages:
        size = ((w + 2 * bleed) * MM, (h + 2 * bleed) * MM)
        c.setPageSize(size)
        _boxes(c, w, h, bleed)
        c.drawImage(ImageReader(image), 0, 0, width=size[0], height=size[1])
        c.showPage()
    c.save()
    _ = dpi
    return buffer.getvalue()


def _die_path(c: object, face: PieceDesign, x: float, y: float) -> object:
    w, h = face.trim[0] * MM, face.trim[1] * MM
    path = c.beginPath()  # type: ignore[attr-defined]
    if face.outline.shape == "circle":
        path.circle(x + w / 2, y + h / 2, min(w, h) / 2)
    elif face.outline.shape == "polygon" and face.outline.points:
        # Drawing mm, y down, to page points, y up (x, y: the trim's lower-left corner).
        corners = [(x + px * MM, y + h - py * MM) for px, py in face.outline.points]
        path.moveTo(*corners[0])
        for corner in corners[1:]:
            path.lineTo(*corner)
        path.close()
    elif face.outline.shape == "rounded" and face.outline.radius > 0:
        path.roundRect(x, y, w, h, face.outline.radius * MM)
    else:
        path.rect(x, y, w, h)
    return path


def press_pdf(faces: list[PieceDesign], theme: Theme, *, bleed: float, title: str) -> bytes:
    """One page per face: the piece with `bleed` mm around its trim (drawn, or mirrored from its
    edges), TrimBox on the trim, BleedBox on the page, and the die line stroked in the
    `die-cut` spot colour with overprint on."""
    from reportlab.lib.colors import CMYKColorSep
    from reportlab.pdfgen import canvas as rl_canvas

    from boardgen.data import fonts

    body = fonts.face(theme.fonts["body"]).pdf_name
    die = CMYKColorSep(0, 1, 0, 0, spotName=DIE_CUT, density=1)
    buffer = io.BytesIO()
    c = rl_canvas.Canvas(buffer, invariant=1, pageCompression=1, initialFontName=body)
    c.setTitle(title)
    c.setCreator("boardgen")
    for face in faces:
        w, h = face.trim
        c.setPageSize(((w + 2 * bleed) * MM, (h + 2 * bleed) * MM))
        _boxes(c, w, h, bleed)
        drawing = _drawing(face.svg)
        # The drawing's own origin: its drawn bleed lies around the trim.
        ox, oy = (bleed - face.outline.inset) * MM, (bleed - face.outline.inset) * MM
        if face.outline.inset + 1e-6 < bleed:
            _made_bleed(c, face, _drawing(_WORDS.sub("", face.svg)), body, bleed, ox, oy)
        c.saveState()
        c.translate(ox, oy)
        _draw(drawing, c, body)
        c.restoreState()
        c.saveState()
        c.setStrokeColor(die)
        c.setStrokeOverprint(True)
        c.setOverprintMask(True)
        c.setLineWidth(DIE_WIDTH_PT)
        c.drawPath(_die_path(c, face, bleed * MM, bleed * MM), stroke=1, fill=0)
        c.restoreState()
        c.showPage()
    c.save()
    return buffer.getvalue()


def _made_bleed(c: Any, face: PieceDesign, drawing: Any, body: str, bleed: float, ox: float, oy: float) -> None:
    """The bleed a drawing lacks, from the piece's own art only (its words left out): a
    rectangle's edges mirrored outward, each copy clipped to the band past its edge; any other
    outline (a round pawn or token, a die net) its art enlarged under it about the trim's
    centre, clipped to the outline grown by the bleed, so nothing from outside the piece (the
    drawing's corners round a disc) reaches its bleed."""
    w, h = face.trim
    inset = face.outline.inset
    x0, y0, x1, y1 = bleed * MM, bleed * MM, (bleed + w) * MM, (bleed + h) * MM  # the trim, page points
    if face.outline.shape in ("rect", "rounded"):
        dw, dh = (w + 2 * inset) * MM, (h + 2 * inset) * MM
        side = bleed * MM
        spans = {-1: (0.0, x0), 0: (x0, x1), 1: (x1, x1 + side)}
        rows = {-1: (0.0, y0), 0: (y0, y1), 1: (y1, y1 + side)}
        for mx in (-1, 0, 1):
            for my in (-1, 0, 1):
                if mx == my == 0:
                    continue
                c.saveState()
                band = c.beginPath()
                band.rect(spans[mx][0], rows[my][0], spans[mx][1] - spans[mx][0], rows[my][1] - rows[my][0])
                c.clipPath(band, stroke=0, fill=0)
                # Across the left edge x -> ox - x; across the right one x -> ox + 2 dw - x (the
                # trim's edges, the drawing's own inset beyond them mirrored with it).
                tx = (ox + 2 * dw - 2 * inset * MM if mx == 1 else ox + 2 * inset * MM) if mx else ox
                ty = (oy + 2 * dh - 2 * inset * MM if my == 1 else oy + 2 * inset * MM) if my else oy
                c.translate(tx, ty)
                c.scale(-1 if mx else 1, -1 if my else 1)
                _draw(drawing, c, body)
                c.restoreState()
        return
    from shapely.geometry import Point, Polygon

    if face.outline.shape == "circle":
        ring = Point(bleed + w / 2, bleed + h / 2).buffer(min(w, h) / 2 + bleed, quad_segs=32)
    else:
        ring = Polygon([(bleed + px, bleed + py) for px, py in face.outline.points]).buffer(bleed, join_style=2)
    page_h = (h + 2 * bleed) * MM
    c.saveState()
    path = c.beginPath()
    points = list(ring.exterior.coords)
    path.moveTo(points[0][0] * MM, page_h - points[0][1] * MM)
    for px, py in points[1:]:
        path.lineTo(px * MM, page_h - py * MM)
    path.close()
    c.clipPath(path, stroke=0, fill=0)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    c.translate(cx, cy)
    c.scale((w + 2 * bleed) / w, (h + 2 * bleed) / h)
    c.translate(-cx, -cy)
    c.translate(ox, oy)
    _draw(drawing, c, body)
    c.restoreState()


def dieline_svg(face: PieceDesign, *, bleed: float) -> str:
    """The die line alone, in millimetres on the press page (trim plus bleed), stroked in the
    spot colour's name so a factory's prepress finds it."""
    w, h = face.trim
    pw, ph = w + 2 * bleed, h + 2 * bleed
    style = f'fill="none" stroke="#ff00ff" stroke-width="0.1" id="{DIE_CUT}"'
    if face.outline.shape == "circle":
        shape = f'<circle cx="{bleed + w / 2:.3f}" cy="{bleed + h / 2:.3f}" r="{min(w, h) / 2:.3f}" {style}/>'
    elif face.outline.shape == "polygon" and face.outline.points:
        corners = " ".join(f"{bleed + px:.3f},{bleed + py:.3f}" for px, py in face.outline.points)
        shape = f'<polygon points="{corners}" {style}/>'
    else:
        r = face.outline.radius if face.outline.shape == "rounded" else 0.0
        shape = (
            f'<rect x="{bleed:.3f}" y="{bleed:.3f}" width="{w:.3f}" height="{h:.3f}" rx="{r:.3f}" '
            f'ry="{r:.3f}" {style}/>'
        )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{pw:.3f}mm" height="{ph:.3f}mm" '
        f'viewBox="0 0 {pw:.3f} {ph:.3f}">\n  <title>{face.file}: die line ({DIE_CUT})</title>\n'
        f"  {shape}\n</svg>\n"
    )
