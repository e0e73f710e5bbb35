"""A kit's cover page: title, contents, how to print, the check's verdict, the assembly map."""

from __future__ import annotations

from boardgen.data.strings import word
from boardgen.errors import UsageError
from boardgen.geometry import Rect
from boardgen.options import KitOptions, Summary, print_plan
from boardgen.render.imposition import Tiling, place_keys
from boardgen.render.pdf import Form, PdfKit

MIN_MAP = 50.0  # mm: a smaller assembly map is not worth printing; it takes a cover page of its own
SIDE_SIZES = (2.8, 2.6, 2.4, 2.2)  # mm: the side panel's lines, smaller only to keep the cover one page


def assembly_map(pdf: PdfKit, board: Form, tiling: Tiling, box: Rect) -> None:
    """A small picture of the board with the sheet grid, numbers and place names."""
    scale = min(box.w / tiling.board_w, box.h / tiling.board_h)
    w, h = tiling.board_w * scale, tiling.board_h * scale
    x0, y0 = box.x + (box.w - w) / 2, box.y + (box.h - h) / 2
    pdf.place(board, x0, y0, scale=scale)
    width = pdf.theme.strokes["map_seam"]
    for sx in tiling.seams_x:
        pdf.line(x0 + sx * scale, y0 - 2, x0 + sx * scale, y0 + h + 2, colour="ink", width=width, dash=(2, 1))
    for sy in tiling.seams_y:
        pdf.line(x0 - 2, y0 + sy * scale, x0 + w + 2, y0 + sy * scale, colour="ink", width=width, dash=(2, 1))
    for piece in tiling.pieces:
        cx = x0 + (piece.trim.x + piece.trim.w / 2) * scale
        cy = y0 + (piece.trim.y + piece.trim.h / 2) * scale
        disc = Rect(cx - 5, cy - 5, 10, 10)
        pdf.rect(disc, fill="paper", stroke="ink", width=pdf.theme.strokes["tile_edge"], alpha=0.9)
        pdf.text(str(piece.index + 1), cx, cy + 1.5, size=4.2, weight="bold", anchor="middle")
        name = " ".join(word(pdf.lang, k) for k in place_keys(piece))
        if name:
            # On a light box so the name reads over the board's picture and the seam lines.
            width = min(pdf.text_width(name, size=2.8) + 2.0, piece.trim.w * scale * 0.9)
            pdf.rect(Rect(cx - width / 2, cy + 6.4, width, 3.8), fill="paper", alpha=0.9)
            pdf.text(name, cx, cy + 9, size=2.8, anchor="middle", width=width - 2.0)


def _bullets(lines: list[str]) -> list[tuple[str, str]]:
    return [("li", line.replace("&", "&amp;").replace("<", "&lt;")) for line in lines]


def _paragraph(text: str) -> list[tuple[str, str]]:
    return [("p", text.replace("&", "&amp;").replace("<", "&lt;"))]


def bullet_list(pdf: PdfKit, lines: list[str], x: float, y: float, width: float, *, size: float = 3.2) -> float:
    """Short bullet lines from y down; returns the y below the last one."""
    blocks = _bullets(lines)
    height = pdf.measure(blocks, width, size=size) + 2
    pdf.paragraphs(blocks, Rect(x, y, width, height), size=size)
    return y + height


def board_line(lang: str, tiling: Tiling) -> str:
    """The contents line for a tiled board."""
    return word(
        lang,
        "contents_board",
        sheets=len(tiling.pieces),
        rows=tiling.rows,
        cols=tiling.cols,
        w=tiling.board_w,
        h=tiling.board_h,
    )


def page_ranges(pages: list[int]) -> str:
    """1-based page numbers as '1-8, 15'."""
    out: list[str] = []
    for n in sorted(pages):
        if out and out[-1].split("-")[-1] == str(n - 1):
            out[-1] = out[-1].split("-")[0] + f"-{n}"
        else:
            out.append(str(n))
    return ", ".join(out)


def print_help(
    lang: str, options: KitOptions, kinds: list[str], tiling: Tiling, *, pieces_on_board: bool = False
) -> list[str]:
    """The cover's printing steps: the print plan by stock (options.print_plan; with --split,
    page numbers within each stock's file), then how to cut and join."""
    lines = [word(lang, "print_scale")]
    edge = word(lang, f"edge_{options.flip}")
    plan = print_plan(kinds, options.backs, split=options.split)
    for step in plan:
        pages = page_ranges(list(step.pages))
        if step.stock == "paper":
            lines.append(word(lang, "plan_paper", pages=pages))
        elif step.double:
            lines.append(word(lang, "plan_card_double", pages=pages, edge=edge))
        else:
            lines.append(word(lang, "plan_card", pages=pages))
    counts = {which: sum(s.sheets for s in plan if s.stock == which) for which in ("card", "paper")}
    lines.append(word(lang, "plan_sheets", card=counts["card"], paper=counts["paper"]))
    if options.split:
        lines.append(word(lang, "plan_files"))
    duplex = [n for s in plan if s.double for n in s.pages]
    if duplex:
        lines.append(word(lang, "print_duplex_test", pair=page_ranges(duplex[:2])))
    elif "cards" in kinds:
        lines.append(word(lang, "print_fold" if options.backs == "fold" else "print_no_backs"))
    lines.append(word(lang, "print_board_overlap" if tiling.style == "overlap" else "print_board_butt"))
    if pieces_on_board:
        lines.append(word(lang, "print_pieces_on_board"))
    lines += [word(lang, "print_warning", text=text) for text in tiling.warnings]
    return lines


def cover_page(
    pdf: PdfKit,
    *,
    title: str,
    tagline: str,
    contents: list[str],
    summary: Summary,
    board: Form,
    tiling: Tiling,
    options: KitOptions,
    side: tuple[str, Form, float] | None = None,
    side_lines: tuple[str, list[str]] | None = None,
) -> None:
    """Title, contents, print help, the check's verdict, the assembly map and one side panel:
    a picture (title, form, its size in mm) or a list of lines (title, lines). On paper too
    small for all of it, the print help, the map and the rest of the side panel flow onto
    further cover pages; paper too small even for that is refused, saying how much it needs."""
    lang = pdf.lang
    pdf.new_page(title, kind="cover")
    area = pdf.frame.content
    pdf.text(title, area.x, area.y + 10, size=11, role="title", weight="bold", width=area.w)
    pdf.text(tagline, area.x, area.y + 17, size=4.2, fill="muted", width=area.w)
    y = area.y + 25
    half = (area.w - 8) / 2
    # The steps name page numbers not known yet: room is measured with the longest numbers a
    # kit can have, and the text is drawn when the PDF is finished.
    widest = (
        ["cards", "card-backs"] * 2 + ["rules"] * 5 + ["pieces"] * 90 + ["rules"] * 3 + ["cards", "card-backs"] * 2
    )  # two ranges of up to three digits on each line
    sample = print_help(lang, options, widest, tiling, pieces_on_board=True)
    # The verdict is a sentence or two (boardgen.checks.words), wrapped; room is measured with
    # a long one, since it is drawn when the check is done.
    longest = word(
        lang,
        "playability_line",
        summary=word(lang, "verdict_passed", seed=2**63 - 1)
        + " "
        + word(lang, "verdict_length", players="2-8", median="100-999", p90=9999, minutes="100-999", per_turn="2.5")
        + " "
        + word(lang, "verdict_fair"),
    )
    room = pdf.measure(_paragraph(longest), area.w, size=3.2)
    side_by_side = (
        max(pdf.measure(_bullets(contents), half, size=3.2), pdf.measure(_bullets(sample), half, size=3.2)) + 2
    )
    wide = y + 2 + side_by_side + 3 + room + 8.0 <= area.bottom
    help_x, help_y, help_w = area.x + half + 8, y + 2, half

    def steps() -> None:  # drawn when the PDF is finished, where help_x, help_y end up
        lines = print_help(lang, options, pdf.kinds, tiling, pieces_on_board=pdf.pieces_on_board)
        bullet_list(pdf, lines, help_x, help_y, help_w)

    pdf.text(word(lang, "contents"), area.x, y, size=4.0, weight="bold")
    y_left = bullet_list(pdf, contents, area.x, y + 2, half if wide else area.w)
    if wide:
        pdf.text(word(lang, "how_to_print"), help_x, y, size=4.0, weight="bold")
        y_right = help_y + pdf.measure(_bullets(sample), half, size=3.2) + 2
        pdf.later("PrintHelp", steps)
        y = max(y_left, y_right) + 3
    else:
        y = y_left + 3
    _verdict(pdf, summary, area, y, room)
    y += room + 8.0  # room for the playability sentences and the accessibility line
    if y > area.bottom:
        raise _too_small(y - area.y, area)
    if not wide:
        # Small paper: the print help on a second cover page, the whole width of it.
        pdf.new_page(title, kind="cover")
        area = pdf.frame.content
        y = area.y + 4
        help_x, help_y, help_w = area.x, y + 2, area.w
        pdf.text(word(lang, "how_to_print"), help_x, y, size=4.0, weight="bold")
        pdf.later("PrintHelp", steps)
        y = help_y + pdf.measure(_bullets(sample), help_w, size=3.2) + 2 + 3
        if y > area.bottom:
            raise _too_small(y - area.y, area)
    half = (area.w - 8) / 2
    size = min(half, area.bottom - y - 8)
    if size < MIN_MAP:
        # The assembly map and the side panel go on a cover page of their own.
        pdf.new_page(title, kind="cover")
        area = pdf.frame.content
        y = area.y + 4
        size = min(half, area.bottom - y - 8)
    pdf.text(word(lang, "assembly"), area.x, y, size=3.6, weight="bold")
    assembly_map(pdf, board, tiling, Rect(area.x, y + 3, half, size))
    right = area.x + half + 8
    if side is not None:
        heading, form, form_mm = side
        pdf.text(heading, right, y, size=3.6, weight="bold", width=half)
        pdf.place(form, right + (half - size) / 2, y + 3, scale=size / form_mm, showcase=True)
    elif side_lines is not None:
        heading, lines = side_lines
        pdf.text(heading, right, y, size=3.6, weight="bold", width=half)
        # Set a little smaller (down to the 6 pt every printed word keeps) rather than leave a
        # line or two for a cover page of their own; what still does not fit beside the map
        # flows on, in two columns, on further cover pages.
        room = area.bottom - y - 3
        size = next((s for s in SIDE_SIZES if pdf.measure(_bullets(lines), half, size=s) <= room), SIDE_SIZES[0])
        rest = pdf.paragraphs(_bullets(lines), Rect(right, y + 3, half, room), size=size)
        while rest:
            pdf.new_page(title, kind="cover")
            area = pdf.frame.content
            pdf.text(heading, area.x, area.y + 4, size=3.6, weight="bold", width=area.w)
            before = len(rest)
            rest = pdf.flow(rest, Rect(area.x, area.y + 7, area.w, area.h - 7), size=2.8, columns=2, gutter=8)
            if rest and len(rest) >= before:
                raise UsageError(
                    f"a line of the cover's {heading.lower()} does not fit this paper: "
                    "use a larger paper or smaller margins"
                )


def _too_small(need: float, area: Rect) -> UsageError:
    return UsageError(
        f"the cover needs {need:.0f} mm of printable height on a page; this paper and margin "
        f"give {area.h:.0f} mm: use a larger paper or smaller margins"
    )


def _verdict(pdf: PdfKit, summary: Summary, area: Rect, line_y: float, room: float) -> None:
    """The check's verdict and the other checks' lines, drawn when the PDF is finished: the
    check may still be running while the pages are made."""
    lang = pdf.lang

    def verdict() -> None:
        said = summary() if callable(summary) else summary
        # Further lines of the summary are the other checks' (the accessibility line).
        said, *more = said.split("\n")
        text = word(lang, "playability_line", summary=said or word(lang, "not_checked"))
        pdf.paragraphs(_paragraph(text), Rect(area.x, line_y - 2.6, area.w, room + 1), size=3.2)
        for k, line in enumerate(more):
            pdf.text(line, area.x, line_y + room + 4.4 * k, size=3.2, width=area.w)

    pdf.later("Playability", verdict)
