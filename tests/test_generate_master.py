"""`boardgen generate master --size N`: grown Labyrinthe Master boards that pass the check and print."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pypdf
import pypdfium2
import pytest
from click.testing import CliRunner

from boardgen.checks.master import static_checks
from boardgen.cli import cli
from boardgen.data.loader import layouts_root
from boardgen.data.theme import load_theme
from boardgen.engines import load_game
from boardgen.kit import render_kit
from boardgen.model.master import setup
from boardgen.options import KitOptions

THEMES = sorted(p.stem for p in (layouts_root() / "themes").glob("*.toml"))


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


_GROWN: dict[tuple[int, int], str] = {}  # (size, seed): the file generate wrote, made once per session


def generated(tmp_path: Path, size: int, seed: int = 1) -> tuple[Path, dict[str, Any]]:
    """The layout `generate master` writes (checked, as a user gets it) in tmp_path: generated
    once for each size and seed, since the same arguments write the same file, then copied."""
    path = tmp_path / f"master{size}.toml"
    if (size, seed) not in _GROWN:
        code, out = run("generate", "master", "--size", str(size), "--seed", str(seed), "-o", str(path))
        assert code == 0, out
        _GROWN[size, seed] = path.read_text(encoding="utf-8")
    else:
        path.write_text(_GROWN[size, seed], encoding="utf-8")
    return path, tomllib.loads(_GROWN[size, seed])


def test_seven_by_seven_is_the_bundled_master(tmp_path: Path) -> None:
    """Grown to the master's own size, the rules reproduce its board, tokens and objects."""
    _, data = generated(tmp_path, 7)
    bundled = tomllib.loads((layouts_root() / "games" / "master.toml").read_text(encoding="utf-8"))

    def tiles(d: dict[str, Any]) -> list[tuple[object, ...]]:
        return [(tuple(t["at"]), t["shape"], frozenset(t["open"]), t.get("start")) for t in d["tiles"]["fixed"]]

    assert tiles(data) == tiles(bundled)
    assert data["tiles"]["loose"] == bundled["tiles"]["loose"]
    assert data["board"]["starts"] == bundled["board"]["starts"]
    assert data["tokens"] == bundled["tokens"] and data["recipes"] == bundled["recipes"]
    assert data["objects"] == bundled["objects"]


# Sizes 5, 9 and 13 (the largest), worked by hand from the rules in
# boardgen/generate/master.py. 5 x 5: the inner 3 x 3 (centre 1, its four neighbours 4,
# the four diagonals 4 = 9 <= 21 * 25 / 49). 9 x 9 and 13 x 13: around the centre, in rings
# (offsets sorted): (0,0) 1, (0,1) 4, (1,1) 4, (0,2) 4, (1,2) 8, [(2,2) are the starts],
# (0,3) 4, (1,3) 8 = 33; the next class would pass 33.
def patch(size: int) -> set[tuple[int, int]]:
    m = size // 2
    offsets = [(0, 0), (0, 1), (1, 1), (0, 2), (1, 2), (0, 3), (1, 3)]
    return {
        (m + sr * a, m + sc * b) for p, q in offsets for a, b in {(p, q), (q, p)} for sr in (1, -1) for sc in (1, -1)
    }


EXPECTED = {
    5: {
        "starts": [[0, 0], [0, 4], [4, 0], [4, 4]],
        "objects": 9,
        "players": 3,
        "squares": {(r, c) for r in (1, 2, 3) for c in (1, 2, 3)},
    },
    9: {"starts": [[2, 2], [2, 6], [6, 2], [6, 6]], "objects": 33, "players": 4, "squares": patch(9)},
    13: {"starts": [[4, 4], [4, 8], [8, 4], [8, 8]], "objects": 33, "players": 4, "squares": patch(13)},
}


@pytest.mark.parametrize("size", sorted(EXPECTED))
def test_generated_master_follows_the_documented_scaling(tmp_path: Path, size: int) -> None:
    path, data = generated(tmp_path, size)
    want = EXPECTED[size]
    fixed = ((size + 1) // 2) ** 2
    assert data["board"]["size"] == size and len(data["tiles"]["fixed"]) == fixed
    assert sum(t["count"] for t in data["tiles"]["loose"]) == size * size - fixed + 1
    assert data["board"]["sliding_lines"] == list(range(1, size, 2))
    assert size * data["board"]["pitch_mm"] + 2 * data["board"]["frame_mm"] <= 378
    assert [s["at"] for s in data["board"]["starts"]] == want["starts"]
    objects = data["objects"]
    assert len(objects) == want["objects"] == data["recipes"]["cards"]
    assert [o["value"] for o in objects] == list(range(1, len(objects))) + [len(objects) + 4]
    assert objects[-1]["id"] == data["scoring"]["last_object"] == "mistletoe"
    assert len({o["id"] for o in objects}) == len(objects)
    assert data["game"]["players"]["max"] == want["players"]
    assert not any("treasure" in t for t in data["tiles"]["fixed"])
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# A ") and "How it scales" in text
    # The model accepts it and the seeded start passes the static checks.
    _, layout = load_game(str(path))
    squares = set(layout.token_squares)
    assert squares == want["squares"] and len(squares) == len(objects)
    # Every quarter turn and mirror about the centre keeps the patch (and the starts) as they are.
    last = size - 1
    for image in (lambda r, c: (c, r), lambda r, c: (r, last - c), lambda r, c: (last - c, r)):
        assert {image(r, c) for r, c in squares} == squares
        assert {image(*s.at) for s in layout.starts} == {s.at for s in layout.starts}
    checks = static_checks(layout, setup(layout, layout.default_seed))
    assert all(check.ok for check in checks), [c.problems for c in checks if not c.ok]


@pytest.mark.parametrize("size", [5, 9])
def test_generated_master_passes_validate(tmp_path: Path, size: int) -> None:
    """The whole check (static checks, solver from every start to every object, self-play at
    every player count), with few self-play games to stay quick. The largest size, 13, has
    the whole check in tests/test_board_sizes.py."""
    path, _ = generated(tmp_path, size)
    code, out = run("validate", str(path), "--games", "3")
    assert code == 0, out
    assert "reachability" in out and "FAIL" not in out


def board_pixels(pdf: Path, page: int = 0) -> set[tuple[int, int, int]]:
    doc = pypdfium2.PdfDocument(str(pdf))
    try:
        image = doc[page].render(scale=30 / 72).to_pil().convert("RGB")
    finally:
        doc.close()
    return {colour for _, colour in image.getcolors(maxcolors=1 << 24)}


def hex_rgb(colour: str) -> tuple[int, int, int]:
    colour = colour.lstrip("#")
    return int(colour[0:2], 16), int(colour[2:4], 16), int(colour[4:6], 16)


def near(colour: tuple[int, int, int], pixels: set[tuple[int, int, int]], tol: int = 6) -> bool:
    return any(all(abs(a - b) <= tol for a, b in zip(colour, p, strict=True)) for p in pixels)


@pytest.mark.usefixtures("warm_cache")  # unchecked renders on the session's drawings
@pytest.mark.parametrize("theme", THEMES)
def test_generated_master_board_prints_with_every_theme(tmp_path: Path, theme: str) -> None:
    """The 9 x 9 board prints on its six A4 sheets in every bundled theme, its floor in the theme's colour."""
    path, _ = generated(tmp_path, 9)
    result = render_kit(
        str(path), tmp_path / "out", KitOptions(theme=theme, only=("board",), previews=False, svg=False, check=False)
    )
    engine, layout = load_game(str(path))
    sheets = len(engine.kit().board_tiling(layout, KitOptions()).pieces)
    reader = pypdf.PdfReader(result.pdf)
    assert sheets == 6 and len(reader.pages) == result.pages == sheets  # 3 x 2: its middle column is fixed
    floor = hex_rgb(load_theme(theme).palette["floor"])
    assert near(floor, board_pixels(result.pdf))


@pytest.mark.usefixtures("warm_cache")  # unchecked renders on the session's drawings
def test_generated_master_kits_render(tmp_path: Path) -> None:
    """The whole kit of the smallest board (every object has its token, one recipe card per
    object), and the largest board's sheets."""
    path, data = generated(tmp_path, 5)
    result = render_kit(str(path), tmp_path / "out", KitOptions(previews=False, check=False))
    svgs = {p.stem for p in (result.folder / "svg").glob("*.svg")}
    assert {f"token-{o['id']}" for o in data["objects"]} <= svgs
    assert len([s for s in svgs if s.startswith("card-recipe-")]) == len(data["objects"])
    text = "\n".join(page.extract_text() or "" for page in pypdf.PdfReader(result.pdf).pages)
    assert data["game"]["title"]["en"] in text
    path, data = generated(tmp_path, 13)
    result = render_kit(
        str(path), tmp_path / "out", KitOptions(only=("board",), previews=False, svg=False, check=False)
    )
    assert result.pages == 6 and near(hex_rgb(load_theme("classic").palette["floor"]), board_pixels(result.pdf))
