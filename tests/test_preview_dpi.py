"""Preview resolution: board.png at 150 dpi by default, every preview at --preview-dpi if given."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from PIL import Image

from boardgen.cli import cli
from boardgen.errors import UsageError
from boardgen.kit import render_kit
from boardgen.options import KitOptions
from boardgen.render import preview

# Unchecked kits of their own, on the session's cache: none of these tests tests the cache.
pytestmark = pytest.mark.usefixtures("warm_cache")


def pngs(result) -> dict[str, Image.Image]:
    return {path.name: Image.open(path) for path in result.files if path.suffix == ".png"}


@pytest.mark.parametrize(("dpi", "board_dpi", "page_dpi"), [(None, 150, 60), (100, 100, 100)])
def test_preview_sizes_follow_the_resolution(tmp_path, dpi, board_dpi, page_dpi):
    result = render_kit("classic", tmp_path, KitOptions(preview_dpi=dpi, svg=False, check=False))
    images = pngs(result)
    board_mm = 316.0  # the classic board: 7 tiles of 40 mm and its frame (the kit's cover says so)
    assert abs(images["board.png"].width - board_mm / 25.4 * board_dpi) <= 2
    cover = images["page-01-cover.png"]
    assert abs(cover.width - 210 / 25.4 * page_dpi) <= 2 and abs(cover.height - 297 / 25.4 * page_dpi) <= 2


def test_preview_dpi_is_bounded():
    result = CliRunner().invoke(cli, ["render", "--preview-dpi", "5000", "-o", "/nonexistent"])
    assert result.exit_code == 2 and "30<=x<=600" in result.output
    with pytest.raises(UsageError, match="30 to 600 dpi"):
        render_kit("classic", __import__("pathlib").Path("/nonexistent"), KitOptions(preview_dpi=0, check=False))


def test_a_preview_never_exceeds_the_pixel_cap():
    import io

    from reportlab.pdfgen import canvas

    buffer = io.BytesIO()
    page = canvas.Canvas(buffer, pagesize=(3000, 3000))  # about 1 m square
    page.showPage()
    page.save()
    image = preview.render_page(buffer.getvalue(), 0, dpi=600)
    assert image.width * image.height <= preview.MAX_PREVIEW_PIXELS
