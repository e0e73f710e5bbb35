"""A sheet of die nets on its own, for any game played with dice (or a lost die)."""

from __future__ import annotations

from boardgen.data.strings import word
from boardgen.data.theme import Theme
from boardgen.errors import UsageError
from boardgen.kits.catalogue import die_designs
from boardgen.kits.packing import dice_block, pack_pieces
from boardgen.options import KitOptions
from boardgen.render.imposition import frame_for, paper
from boardgen.render.pdf import PdfKit
from boardgen.render.svg import pieces

FACE_MM = (10.0, 40.0)  # a die's face: smaller ones cannot be folded, larger ones roll badly


def dice_sheet(theme: Theme, options: KitOptions, *, count: int, face_mm: float) -> tuple[bytes, dict[str, str]]:
    """The PDF of `count` die nets with faces of `face_mm`, and each net as SVG."""
    if not FACE_MM[0] <= face_mm <= FACE_MM[1]:
        raise UsageError(f"--face: a die face is {FACE_MM[0]:g} to {FACE_MM[1]:g} mm, got {face_mm:g}")
    lang = options.lang
    frame = frame_for(paper(options.paper), options.margin)
    width, height = pieces.die_net_size(face_mm)
    content = frame.content
    if not (width <= content.w and height <= content.h):
        raise UsageError(
            f"a die net of {width:.0f} x {height:.0f} mm does not fit on {options.paper} "
            f"with {options.margin:g} mm margins"
        )
    svgs = {f"die-{k}": pieces.die_net_svg(face_mm, theme, lang=lang, id=f"die-{k}") for k in range(1, count + 1)}
    pdf = PdfKit(frame, theme, lang, title=word(lang, "dice"), subject=f"boardgen dice sheet, theme {theme.id}")
    pack_pieces(pdf, [dice_block(pdf, die_designs(svgs))], heading=f"{word(lang, 'dice')} ({face_mm:g} mm)")
    return pdf.finish().data, svgs
