"""The stand-alone dice sheet: nets at the asked size, all on the paper, opposite faces add to 7."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pypdf
import pytest
from click.testing import CliRunner
from pdfcheck import pdf_array, pdf_dict

from boardgen.cli import cli
from boardgen.data.theme import load_theme
from boardgen.kits.dice import dice_sheet
from boardgen.options import KitOptions
from boardgen.render.svg.pieces import DIE_NET, die_net_size


def placed_nets(page: pypdf.PageObject) -> list[tuple[float, float]]:
    """Width and height in mm of each die net drawn on the page (its form's box)."""
    contents = page.get_contents()
    assert contents is not None
    names = re.findall(rb"/(FormXob\.Die-die-\d+) Do", contents.get_data())
    forms = pdf_dict(page, "/Resources", "/XObject")
    sizes = []
    for name in names:
        x0, y0, x1, y1 = (float(v) * 25.4 / 72 for v in pdf_array(forms, "/" + name.decode(), "/BBox"))
        sizes.append((round(x1 - x0, 3), round(y1 - y0, 3)))
    return sizes


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_die_is_placed_once_and_measures_right(paper: str) -> None:
    pdf, svgs = dice_sheet(load_theme("classic"), KitOptions(paper=paper), count=7, face_mm=20.0)
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    nets = [size for page in reader.pages for size in placed_nets(page)]
    width, height = die_net_size(20.0)
    assert nets == [pytest.approx((width, height))] * 7
    assert len(svgs) == 7


def test_the_command_writes_one_file_and_refuses_what_cannot_fold(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["dice", "-o", str(tmp_path), "--count", "3"])
    assert result.exit_code == 0, result.output
    assert [p.name for p in (tmp_path / "dice").iterdir()] == ["dice-a4.pdf"]
    for args, message in (
        (["--face", "5"], "10 to 40 mm"),
        (["--face", "nan"], "--face: must be a finite number"),
        (["--paper", "100x120", "--face", "30"], "does not fit"),
        (["--count", "0"], "--count"),
    ):
        result = runner.invoke(cli, ["dice", "-o", str(tmp_path), *args])
        assert result.exit_code != 0 and message in result.output, result.output


def test_opposite_faces_add_up_to_seven() -> None:
    """Fold the cross net: the faces two apart in the middle row are opposite, so are the top
    and bottom flaps."""
    assert sorted(DIE_NET.values()) == [1, 2, 3, 4, 5, 6]
    assert DIE_NET[(0, 1)] + DIE_NET[(2, 1)] == 7
    assert DIE_NET[(1, 0)] + DIE_NET[(1, 2)] == 7 and DIE_NET[(1, 1)] + DIE_NET[(1, 3)] == 7
