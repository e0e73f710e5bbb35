"""The cover on every paper the command line accepts: it fits the printable window (flowing
onto further cover pages where it must), or the paper is refused with a message."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from pdfcheck import mm, open_plumber

from boardgen.cli import cli
from boardgen.render.imposition import frame_for, paper

PAPERS = ["210x210", "148x210", "105x148", "80x80", "297x210", "a4"]


@pytest.mark.parametrize("game", ["grand", "minos", "walls", "classic", "master"])
def test_every_cover_fits_its_paper_or_the_paper_is_refused(tmp_path: Path, game: str) -> None:
    printed = 0
    for spec in PAPERS:
        out = tmp_path / spec
        result = CliRunner().invoke(
            cli,
            [
                "render",
                game,
                "--paper",
                spec,
                "--only",
                "cover",
                "--no-check",
                "--no-preview",
                "--no-svg",
                "-o",
                str(out),
            ],
        )
        if result.exit_code != 0:
            assert result.exit_code == 2 and "Traceback" not in result.output, result.output
            assert "paper" in result.output, result.output  # a message that names what to change
            continue
        printed += 1
        pdf = next((out / game).glob("*.pdf"))
        with open_plumber(pdf) as doc:
            for number, page in enumerate(doc.pages, start=1):
                frame = frame_for(paper(spec), 8.0)
                if abs(mm(page.width) - frame.paper.w) > 0.5:  # turned to landscape by the kit
                    frame = frame_for(paper(spec).turned(), 8.0)
                window, content = frame.window, frame.content
                for ch in page.chars:
                    x0, x1, top, bottom = mm(ch["x0"]), mm(ch["x1"]), mm(ch["top"]), mm(ch["bottom"])
                    where = f"{spec} cover page {number}: {ch['text']!r} at ({x0:.1f}, {top:.1f})"
                    assert window.x - 0.5 <= x0 and x1 <= window.right + 0.5, where
                    assert window.y - 0.5 <= top and bottom <= window.bottom + 0.5, where
                    # Below the content area is the footer's own line (the 100 mm bar, the number).
                    if ch["size"] != page.chars[-1]["size"] and top > content.bottom:
                        assert top >= frame.footer_rect.y - 0.5, where
                # The assembly map is drawn right way up and whole: every rectangle inside the window.
                for rect in page.rects:
                    assert window.x - 0.5 <= mm(rect["x0"]) and mm(rect["x1"]) <= window.right + 0.5, spec
                    assert window.y - 0.5 <= mm(rect["top"]) and mm(rect["bottom"]) <= window.bottom + 0.5, spec
    assert printed >= 3  # 210 x 210, A5 and A4 at least give a cover
