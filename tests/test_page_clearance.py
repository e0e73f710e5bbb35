"""Nothing drawn over the words it sits beside: rings, lines, arrows and marks measured against
the text they must leave readable, read back from the PDF (pdfplumber) or its raster (pdfium)."""

from __future__ import annotations

import math

from pdfcheck import mm, open_plumber, page_texts

LINK = (0.541176, 0.184314, 0.113725)  # the classic theme's link colour, #8a2f1d
DESCENDERS = set("gjpqy,;()[]{}|")


def ink_boxes(page, *, cap: float = 0.75) -> list[tuple[str, float, float, float, float]]:
    """Each character's inked box (mm, top-left origin): its advance across, from the baseline
    up to the cap height (characters with a descender reach below it, so they are left out)."""
    height = mm(page.height)
    out = []
    for ch in page.chars:
        if ch["text"] in DESCENDERS or not ch["text"].strip():
            continue
        base = height - mm(ch["matrix"][5])
        out.append((ch["text"], mm(ch["x0"]), base - cap * mm(ch["size"]), mm(ch["x1"]), base))
    return out


def rings(page, colour: tuple[float, ...]) -> list[tuple[float, float, float, float]]:
    """Unfilled stroked circles of a colour: (centre x, centre y, radius, stroke width) in mm."""
    out = []
    for c in page.curves:
        w, h = mm(c["x1"] - c["x0"]), mm(c["bottom"] - c["top"])
        if c.get("stroking_color") == colour and not c["fill"] and abs(w - h) < 0.2 and w > 3:
            lw = mm(c["linewidth"])
            out.append((mm(c["x0"]) + w / 2, mm(c["top"]) + h / 2, (w - lw) / 2, lw))
    return out


def ring_crosses(ring: tuple[float, float, float, float], box: tuple[float, float, float, float]) -> bool:
    """Whether a ring's stroke passes through a box: some point of the box lies at a distance
    from the centre within the stroke's band."""
    cx, cy, r, lw = ring
    x0, y0, x1, y1 = box
    near = math.hypot(max(x0 - cx, 0, cx - x1), max(y0 - cy, 0, cy - y1))
    far = max(math.hypot(x - cx, y - cy) for x in (x0, x1) for y in (y0, y1))
    return near <= r + lw / 2 and far >= r - lw / 2


def test_grand_exact_rings_leave_numbers_and_names_clear(kit_factory) -> None:
    pdf, _ = kit_factory("grand")
    texts = page_texts(pdf)
    boards = [i for i, t in enumerate(texts) if t.startswith("Board")]
    with open_plumber(pdf) as doc:
        for index in boards:
            page = doc.pages[index]
            found = rings(page, LINK)
            # IX, XVIII, XXVII, XXXVI and 83 (the board is one form: all of it is on every sheet)
            assert len(found) == 5
            struck = [(text, ring) for text, *box in ink_boxes(page) for ring in found
                      if ring_crosses(ring, tuple(box))]
            assert not struck, f"page {index + 1}: rings cross {sorted({t for t, _ in struck})}"
