"""Board tiling worked by hand: seams in the allowed zones, glue bands, the warning."""

from __future__ import annotations

import pytest

from boardgen.render.imposition import PageFrame, Paper, tile_board

A4 = Paper("a4", 210.0, 297.0)


def content_w(p: Paper, margin: float) -> float:
    return PageFrame(p, margin).content.w


def test_the_last_piece_carries_no_glue_band():
    # A4 with 8 mm margins: 178 mm of content a sheet. A 316 mm board, 10 mm glue band: a seam
    # at 138 gives 138 + 10 = 148 mm on the first sheet and 316 - 138 = 178 mm on the last,
    # which has no band: it fits exactly, so the only allowed zone must be used.
    assert content_w(A4, 8.0) == pytest.approx(178.0)
    tiling = tile_board(
        316.0,
        316.0,
        A4,
        8.0,
        style="overlap",
        overlap=10.0,
        orientation="portrait",
        zones_x=((138.0, 138.0),),
        zones_y=((138.0, 138.0),),
    )
    assert tiling.seams_x == (138.0,) and tiling.seams_y == (138.0,)
    assert tiling.warnings == ()
    widths = sorted({round(p.shown.w, 3) for p in tiling.pieces})
    assert widths == [148.0, 178.0]


def test_a_later_seam_may_move_so_an_earlier_zone_fits():
    # A 380 mm board on 136 mm of content needs three pieces; the even seams (126.7, 253.3) lie
    # outside both zones, so each seam takes the nearest zone point that leaves the rest fitting.
    p = Paper("custom", 168.0, 400.0)  # content 168 - 16 - 16 = 136 mm wide
    room = content_w(p, 8.0)
    assert room == pytest.approx(136.0)
    tiling = tile_board(380.0, 100.0, p, 8.0, orientation="portrait", zones_x=((110.0, 112.0), (240.0, 246.0)))
    assert tiling.cols == 3 and tiling.warnings == ()
    s1, s2 = tiling.seams_x
    assert 110 <= s1 <= 112 and 240 <= s2 <= 246
    assert s2 - s1 <= room and 380 - s2 <= room


def test_no_fitting_zone_is_said_not_silent():
    described = []

    def describe(axis: str, seam: float) -> str:
        described.append((axis, seam))
        return "the arrows of column 4"

    tiling = tile_board(
        316.0,
        316.0,
        A4,
        15.0,
        orientation="portrait",
        zones_x=((100.0, 140.0),),
        zones_y=((140.0, 160.0),),
        describe=describe,
    )
    # Margin 15: content 164 mm wide, so the seam must be in [152, 164]: the x zone cannot hold it.
    assert tiling.seams_x == (158.0,)
    assert described == [("x", 158.0)]
    assert len(tiling.warnings) == 1
    assert "vertical seam 158.0 mm" in tiling.warnings[0] and "arrows of column 4" in tiling.warnings[0]


def test_a_turned_sheet_is_tried_before_warning():
    square = Paper("sq", 300.0, 300.0)
    # Square paper: both orientations give 268 x 252 mm of content and 2 x 2 sheets; the zone
    # [100, 110] on y cannot hold a seam in either (the lower piece would exceed 252 mm).
    tiling = tile_board(400.0, 400.0, square, 8.0, zones_y=((100.0, 110.0),))
    assert tiling.warnings and "horizontal seam" in tiling.warnings[0]


def test_reprinted_sheets_keep_their_neighbours():
    tiling = tile_board(316.0, 316.0, A4, 8.0).select((2,))
    assert [p.index for p in tiling.pieces] == [1]
    assert tiling.piece_at(0, 0) is not None and tiling.piece_at(1, 1) is not None
