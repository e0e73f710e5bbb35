"""Same arguments and seed give the same bytes; a golden SVG pins one seeded board."""

from __future__ import annotations

import re
from pathlib import Path

from boardgen.data.loader import load
from boardgen.data.theme import load_theme
from boardgen.kit import render_kit
from boardgen.model.sliding import build, deal
from boardgen.options import KitOptions
from boardgen.render.svg.sliding import board_svg

GOLDEN = Path(__file__).parent / "golden" / "classic-setup-seed7.svg"


def test_same_seed_same_bytes(tmp_path):
    options = KitOptions(seed=5, theme="ink-saver", previews=True)
    first = render_kit("classic", tmp_path / "a", options)
    second = render_kit("classic", tmp_path / "b", options)
    assert first.pdf.read_bytes() == second.pdf.read_bytes()
    names = sorted(p.relative_to(first.folder) for p in first.folder.rglob("*") if p.is_file())
    assert names == sorted(p.relative_to(second.folder) for p in second.folder.rglob("*") if p.is_file())
    for name in names:
        assert (first.folder / name).read_bytes() == (second.folder / name).read_bytes(), name


def test_another_seed_changes_the_layout(tmp_path):
    layout = build(load("game", "classic"))
    assert deal(layout, 7).grid != deal(layout, 8).grid


def test_golden_seeded_board(update_golden):
    layout = build(load("game", "classic"))
    svg = board_svg(layout, load_theme("classic"), lang="en", deal=deal(layout, 7))
    if update_golden:
        GOLDEN.write_text(svg, encoding="utf-8")
    assert GOLDEN.exists(), "no golden file yet: run pytest --update-golden once and review it"
    assert svg == GOLDEN.read_text(encoding="utf-8")


def test_svg_ids_are_explicit_and_unique(kit_factory):
    _, result = kit_factory()  # the session's classic kit (its drawings are the same checked or not)
    for path in sorted((result.folder / "svg").glob("*.svg")):
        ids = re.findall(r' id="([^"]+)"', path.read_text(encoding="utf-8"))
        assert len(ids) == len(set(ids)), path.name
        assert not any(i.startswith("id") and i[2:].isdigit() for i in ids), path.name
