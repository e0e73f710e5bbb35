"""`boardgen export GAME --for 3d` (issue 34): the solids read back with trimesh, an independent
mesh library, and checked against the game's model and the piece catalogue: every mesh closed
with a positive volume, each tile's walls where its corridor mask says, each footprint the
catalogue's outline, the plates inside the bed with nothing overlapping, the braille dots of
the standard size and spacing, the same seed giving the same bytes, and bad options refused.

Each game is built once for the module (a few seconds each); one kit folder is written.
"""

from __future__ import annotations

import functools
import io
import json
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest
from click.testing import CliRunner

trimesh = pytest.importorskip("trimesh")
pytest.importorskip("manifold3d")

from shapely import affinity as shapely_affinity  # noqa: E402
from shapely.geometry import Polygon  # noqa: E402
from shapely.ops import unary_union  # noqa: E402

from boardgen.cli import cli  # noqa: E402
from boardgen.engines import load_game  # noqa: E402
from boardgen.errors import UsageError  # noqa: E402
from boardgen.export import braille  # noqa: E402
from boardgen.export import solids as so  # noqa: E402
from boardgen.export.mesh import Made, MeshOptions, build_solids, export_mesh, parse_bed, plates  # noqa: E402
from boardgen.geometry import placement  # noqa: E402
from boardgen.model.tiles import E, N, S, W  # noqa: E402
from boardgen.options import KitOptions  # noqa: E402

if TYPE_CHECKING:
    from manifold3d import Manifold
    from trimesh import Trimesh

GAMES = ("classic", "master", "minos", "grand", "walls")
OPTIONS = MeshOptions()


@functools.cache
def made(game: str) -> Made:
    return build_solids(game, KitOptions(), OPTIONS)


def read_stl(solid: Manifold) -> Trimesh:
    """The solid as its STL file has it, read by trimesh (vertices merged by position)."""
    data = so.stl([so.arrays(solid)], "test")
    mesh: Trimesh = trimesh.load(io.BytesIO(data), file_type="stl")
    return mesh


@pytest.fixture(scope="module")
def classic_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("mesh")
    return export_mesh("classic", out, KitOptions(), OPTIONS).folder


@pytest.mark.parametrize("game", GAMES)
def test_every_solid_is_closed_with_a_positive_volume(game: str) -> None:
    built = made(game).built
    assert built.pieces
    for piece in built.pieces:
        mesh = read_stl(piece.solid)
        assert mesh.is_watertight, piece.id
        assert mesh.is_winding_consistent, piece.id
        assert mesh.volume > 0, piece.id
        assert abs(mesh.volume - piece.solid.volume()) < 1e-3 * piece.solid.volume() + 0.01, piece.id


def top_heights(mesh: Trimesh, points: list[tuple[float, float]]) -> list[float]:
    """The highest surface above each (x, y): a ray straight down, met by every triangle whose
    shadow holds the point (barycentric coordinates), the highest hit kept."""
    tri = mesh.triangles  # (n, 3, 3)
    a, b, c = tri[:, 0], tri[:, 1], tri[:, 2]
    out = []
    for x, y in points:
        v0, v1 = b[:, :2] - a[:, :2], c[:, :2] - a[:, :2]
        v2 = np.array([x, y]) - a[:, :2]
        den = v0[:, 0] * v1[:, 1] - v1[:, 0] * v0[:, 1]
        ok = np.abs(den) > 1e-12
        u = np.where(ok, (v2[:, 0] * v1[:, 1] - v1[:, 0] * v2[:, 1]) / np.where(ok, den, 1), -1)
        v = np.where(ok, (v0[:, 0] * v2[:, 1] - v2[:, 0] * v0[:, 1]) / np.where(ok, den, 1), -1)
        inside = ok & (u >= -1e-9) & (v >= -1e-9) & (u + v <= 1 + 1e-9)
        z = a[:, 2] + u * (b[:, 2] - a[:, 2]) + v * (c[:, 2] - a[:, 2])
        out.append(float(z[inside].max()) if inside.any() else -1.0)
    return out


@pytest.mark.parametrize("game", ["classic", "master"])
def test_each_tile_has_walls_where_its_corridor_mask_is_closed(game: str) -> None:
    _, layout = load_game(game)
    result = made(game)
    base, wall = OPTIONS.base, OPTIONS.wall
    by_id = {p.id: p for p in result.built.pieces}
    tiles = result.layout.loose
    assert len([i for i in by_id if i.startswith("tile:")]) == len(tiles)
    for tile in tiles:
        mesh = read_stl(by_id["tile:" + tile.id.removeprefix("tile-")].solid)
        size = layout.pitch_mm
        # Upright (y up): the drawing's top, the tile's north side, is at y = size.
        arms = {N: (size / 2, size - 2.0), S: (size / 2, 2.0), E: (size - 2.0, size / 2), W: (2.0, size / 2)}
        corners = [(2.0, 2.0), (size - 2.0, 2.0), (2.0, size - 2.0), (size - 2.0, size - 2.0)]
        heights = top_heights(mesh, [*arms.values(), *corners])
        for (side, _), height in zip(arms.items(), heights, strict=False):
            expected = base if tile.mask & side else base + wall
            assert height == pytest.approx(expected, abs=0.01), (tile.id, side, tile.mask)
        assert heights[4:] == pytest.approx([base + wall] * 4, abs=0.01), tile.id


def footprint(mesh: Trimesh) -> Polygon:
    """What the solid stands on: the union of its triangles lying on the bed, one polygon."""
    flat = [Polygon(t[:, :2]) for t in mesh.triangles if np.all(np.abs(t[:, 2]) < 1e-6)]
    found = unary_union([p for p in flat if p.area > 0])
    assert isinstance(found, Polygon), found.geom_type
    return found


@pytest.mark.parametrize("game", ["classic", "master", "walls", "minos"])
def test_each_footprint_is_its_catalogue_outline(game: str) -> None:
    result = made(game)
    solids = {p.id: p for p in result.built.pieces}
    checked = 0
    for piece in result.catalogue:
        if piece.kind not in ("tile", "card", "block", "token", "wand") and not (
            piece.kind == "pawn" and piece.outline.shape == "circle"
        ):
            continue
        w, h = piece.size
        placed = placement(piece.id, piece.kind, piece.outline, w, h, 0, 0, stock="card", page=0)
        expected = Polygon([(x, h - y) for x, y in placed.polygon().exterior.coords])  # y up
        found = footprint(read_stl(solids[piece.id].solid))
        assert found.hausdorff_distance(expected) < 0.1, piece.id
        checked += 1
    assert checked >= 4


def test_boards_are_cut_into_parts_that_fit_the_bed() -> None:
    result = made("minos")
    parts = [p for p in result.built.pieces if p.id.startswith("board:")]
    assert len(parts) == 4  # 320 mm on a 220 mm bed: two by two
    area = 0.0
    for part in parts:
        x0, y0, _, x1, y1, _ = part.solid.bounding_box()
        assert x1 - x0 <= 210 and y1 - y0 <= 210
        area += footprint(read_stl(part.solid)).area
    board = result.catalogue.get("board:1").size
    # The parts cover the board but for the dovetails' clearance.
    assert board[0] * board[1] * 0.99 < area <= board[0] * board[1]


def test_plates_fit_the_bed_and_nothing_overlaps(classic_folder: Path) -> None:
    report = json.loads((classic_folder / "report.json").read_text())
    pieces = made("classic").built.pieces
    expected_copies = sum(p.count for p in pieces)
    found = 0
    for plate in report["plates"]:
        scene = trimesh.load(classic_folder / plate["file"])
        boxes = []
        for name in scene.graph.nodes_geometry:
            transform, geometry = scene.graph[name]
            mesh = scene.geometry[geometry].copy().apply_transform(transform)
            (x0, y0, z0), (x1, y1, _) = mesh.bounds
            assert x0 >= 5 - 1e-6 and y0 >= 5 - 1e-6 and x1 <= 215 + 1e-6 and y1 <= 215 + 1e-6, name
            assert z0 == pytest.approx(0, abs=1e-6)
            boxes.append((x0, y0, x1, y1))
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (plate["file"], a, b)
        found += len(boxes)
    assert found == expected_copies


def test_a_bed_too_small_for_a_piece_is_refused() -> None:
    with pytest.raises(UsageError, match=r"--bed 60x60: \S+ \(\d+\.\d x \d+\.\d mm\) does not fit on the bed"):
        plates(made("classic").built.pieces, (60.0, 60.0))


def test_3mf_and_stl_files_open_with_trimesh(classic_folder: Path) -> None:
    manifest = (classic_folder / "manifest.csv").read_text().splitlines()
    assert manifest[0] == "file,piece,name,quantity"
    files = [line.split(",")[0] for line in manifest[1:]]
    assert all((classic_folder / f).is_file() for f in files)
    tile = trimesh.load(classic_folder / "pieces" / "tile-01.3mf")
    assert len(tile.geometry) == 1
    mesh = next(iter(tile.geometry.values()))
    assert mesh.is_watertight and mesh.volume > 0
    with zipfile.ZipFile(classic_folder / "pieces" / "tile-01.3mf") as package:
        assert set(package.namelist()) == {"[Content_Types].xml", "_rels/.rels", "3D/3dmodel.model"}
    stl = trimesh.load(classic_folder / "pieces" / "tile-01.stl")
    assert stl.volume == pytest.approx(mesh.volume, rel=1e-4)


def test_braille_of_a_known_word_is_the_standard_dots() -> None:
    tr = braille.translator("en", use_louis=False)
    assert [braille.dots(c) for c in tr.cells("book")] == [(1, 2), (1, 3, 5), (1, 3, 5), (1, 3)]
    assert [braille.dots(c) for c in tr.cells("12")] == [(3, 4, 5, 6), (1,), (1, 2)]
    assert [braille.dots(c) for c in tr.cells("Ox")] == [(6,), (1, 3, 5), (1, 3, 4, 6)]
    assert braille.to_ascii(tr.cells("Book 12")) == ",BOOK #AB"
    fr = braille.translator("fr", use_louis=False)
    assert [braille.dots(c) for c in fr.cells("é3")] == [(1, 2, 3, 4, 5, 6), (6,), (1, 4, 6)]


def raised_dots(
    mesh: Trimesh,
    floor: float,
    box: tuple[float, float, float, float] | None = None,
) -> list[tuple[float, float, float, float]]:
    """Each raised dot standing on the surface at `floor` (within the box x0, y0, x1, y1):
    (x, y, diameter, height)."""
    v = mesh.vertices
    keep = v[:, 2] > floor - 1e-4
    if box is not None:
        keep &= (v[:, 0] > box[0]) & (v[:, 0] < box[2]) & (v[:, 1] > box[1]) & (v[:, 1] < box[3])
    top = v[keep]
    # Vertices closer than 0.6 mm belong to one dot (dots stand 1 mm apart, edge to edge).
    near = np.hypot(*(top[:, None, :2] - top[None, :, :2]).transpose(2, 0, 1)) < 0.6
    group = np.arange(len(top))
    for _ in range(len(top)):
        merged = np.array([group[near[i]].min() for i in range(len(top))])
        if np.array_equal(merged, group):
            break
        group = merged[merged]
    out = []
    for label in np.unique(group):
        pts = top[group == label]
        low = pts[pts[:, 2] < floor + 0.05]
        if not floor + 0.3 < pts[:, 2].max() < floor + 1.0 or not len(low):
            continue  # the surface's own corners, or a wall
        out.append(
            (float(pts[:, 0].mean()), float(pts[:, 1].mean()), float(np.ptp(low[:, 0])), float(pts[:, 2].max() - floor))
        )
    return out


def test_card_braille_dots_are_of_the_standard_size_and_spacing() -> None:
    result = made("classic")
    card = next(p for p in result.built.pieces if p.id == "card:book")
    found = raised_dots(read_stl(card.solid), 1.2)
    assert all(abs(d - 1.5) < 0.06 and abs(h - 0.6) < 0.06 for _, _, d, h in found)
    # "1 Book": the number on the first line, the capital and the word on the second (the
    # card is 44 mm wide: six cells a line). Standard geometry: dots 2.5 mm apart in a cell,
    # cells 6 mm apart, lines 10 mm apart.
    lines = {"\u283c\u2801": 0, "\u2820\u2803\u2815\u2815\u2805": 1}
    expected = []
    for cells, line in lines.items():
        for i, one in enumerate(cells):
            for d in braille.dots(one):
                col, row = (d - 1) // 3, (d - 1) % 3
                expected.append((line, i * 6.0 + col * 2.5, -(line * 10.0 + row * 2.5)))
    ys = sorted({round(y, 1) for _, y, _, _ in found}, reverse=True)
    line_of = {y: 0 if y > ys[0] - 7.5 else 1 for y in ys}
    for line in (0, 1):
        got = sorted((round(x, 2), round(y, 2)) for x, y, _, _ in found if line_of[round(y, 1)] == line)
        want = sorted((x, y) for n, x, y in expected if n == line)
        assert len(got) == len(want)
        gx, gy = min(p[0] for p in got), max(p[1] for p in got)
        wx, wy = min(p[0] for p in want), max(p[1] for p in want)
        for (ax, ay), (bx, by) in zip(got, want, strict=True):
            assert ax - gx == pytest.approx(bx - wx, abs=0.05) and ay - gy == pytest.approx(by - wy, abs=0.05)
    top_line = max(y for _, y, _, _ in found)
    second = max(y for _, y, _, _ in found if line_of[round(y, 1)] == 1)
    assert top_line - second == pytest.approx(10.0, abs=0.05)


def test_the_rules_in_braille_are_an_embossable_brf(classic_folder: Path) -> None:
    data = (classic_folder / "braille" / "rules.brf").read_bytes()
    text = data.decode("ascii")
    pages = text.split("\f")
    assert pages[-1] == "" and len(pages) > 2
    for page in pages[:-1]:
        lines = page.split("\r\n")
        assert lines[-1] == "" and len(lines) - 1 <= 25
        assert all(len(line) <= 40 and set(line) <= set(braille.BRAILLE_ASCII) for line in lines)
    # The title first, then the rules' first heading, in NA Braille ASCII: letters are
    # themselves, "," the capital sign.
    lines = text.replace("\f", "").split("\r\n")
    assert lines[0].strip() == ",LABYRINTH"
    first = next(line for line in Path("layouts/rules/classic.en.md").read_text().splitlines() if line.startswith("# "))
    heading = " ".join("," + w.upper() if w[0].isupper() else w.upper() for w in first[2:].split())
    assert heading in [line.strip() for line in lines]


def test_the_same_seed_gives_the_same_bytes(tmp_path: Path) -> None:
    one = export_mesh("walls", tmp_path / "a", KitOptions(seed=5), OPTIONS).folder
    two = export_mesh("walls", tmp_path / "b", KitOptions(seed=5), OPTIONS).folder
    files = sorted(p.relative_to(one) for p in one.rglob("*") if p.is_file())
    assert files and files == sorted(p.relative_to(two) for p in two.rglob("*") if p.is_file())
    for f in files:
        assert (one / f).read_bytes() == (two / f).read_bytes(), f


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bed", "60x60"], "--bed 60x60: board:1 cannot be cut on its cell edges"),
        (["--bed", "big"], "--bed 'big': give the printer bed as WIDTHxHEIGHT"),
        (["--wall", "-3"], "--wall -3: a height in mm"),
        (["--base", "0"], "--base 0: a height in mm"),
        (["--braille", "xx"], "--braille 'xx': no grade 1 braille table"),
        (["--cards", "poker"], "--cards is for the card services"),
    ],
)
def test_bad_options_are_one_clear_line(tmp_path: Path, args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, ["export", "classic", "--for", "3d", "-o", str(tmp_path), *args])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "classic" / "3d").exists()


def test_parse_bed() -> None:
    assert parse_bed("220x220") == (220.0, 220.0)
    assert parse_bed("256 x 256") == (256.0, 256.0)
    with pytest.raises(UsageError, match="each side"):
        parse_bed("10x10")


# Words whose grade 1 braille the table and liblouis must agree on: capitals, a capitalised
# word, numbers, a letter after a number, each language's accented letters.
REFERENCE_WORDS = {
    "en": [
        "book",
        "the maze 12",
        "Troll",
        "Purse of gold",
        "VIII",
        "3a",
        "Spider, owl; bat.",
        "“lair”:",
        "I–IX,",
        "Möbius",
    ],
    "fr": ["livre", "épée 12", "Élan", "château où l'on rêve", "3 × 4", "Möbius", "X–XVIII,"],
    "de": ["Buch", "größe 12", "Ärger", "Tür, Öl", "13:", "(61).", "12,", "„Alle", "aus“:", "1–20),"],
}
SYSTEM_PYTHON = "/usr/bin/python3"


def louis_reference() -> dict[str, list[str]] | None:
    """The words translated by liblouis in the system's Python (Debian's python3-louis: a
    virtual environment does not see it), or None where it is not installed."""
    import subprocess

    script = (
        "import json, louis, sys\n"
        "asked = json.load(sys.stdin)\n"
        "print(json.dumps({lang: [louis.translateString([table], w, mode=louis.dotsIO | louis.ucBrl)"
        " for w in asked['words'][lang]] for lang, table in asked['tables'].items()}))"
    )
    if not Path(SYSTEM_PYTHON).is_file():
        return None
    done = subprocess.run(
        [SYSTEM_PYTHON, "-c", script],
        input=json.dumps({"words": REFERENCE_WORDS, "tables": braille.LOUIS_TABLES}),
        capture_output=True,
        text=True,
        timeout=60,
    )
    if done.returncode != 0:
        if "No module named 'louis'" in done.stderr:
            return None
        raise AssertionError(done.stderr)
    found: dict[str, list[str]] = json.loads(done.stdout)
    return found


def test_the_braille_table_agrees_with_liblouis() -> None:
    reference = louis_reference()
    if reference is None:
        pytest.skip("liblouis (python3-louis) is not installed for the system's Python")
    for lang, words in REFERENCE_WORDS.items():
        table = braille.translator(lang, use_louis=False)
        for word, louis_cells in zip(words, reference[lang], strict=True):
            assert table.cells(word) == louis_cells.replace(" ", braille.BLANK), (lang, word)


@pytest.mark.skipif(not braille.louis_available(), reason="liblouis's Python module is not importable here")
def test_liblouis_translates_where_it_imports() -> None:
    louis = braille.translator("en", use_louis=True)
    assert louis.source.startswith("liblouis")
    assert louis.cells("book 12") == braille.translator("en", use_louis=False).cells("book 12")


def test_pawns_of_each_colour_have_a_shape_of_their_own() -> None:
    result = made("classic")
    tops = {}
    for piece in result.built.pieces:
        if piece.id.startswith("pawn:"):
            mesh = read_stl(piece.solid)
            height = mesh.vertices[:, 2].max()
            flat = [Polygon(t[:, :2]) for t in mesh.triangles if np.all(np.abs(t[:, 2] - height) < 1e-6)]
            top = unary_union([p for p in flat if p.area > 0])
            tops[result.catalogue.get(piece.id).colour] = top
    assert set(tops) == {"red", "yellow", "green", "blue"}
    # The shapes are the theme's symbols, the ones printed beside each colour (classic: red
    # triangle, yellow star, green square, blue circle).
    corners = {c: len(t.simplify(0.01).exterior.coords) - 1 for c, t in tops.items()}
    assert (corners["red"], corners["yellow"], corners["green"]) == (3, 10, 4)
    assert corners["blue"] >= 32
    centred = {c: shapely_affinity.translate(t, -t.centroid.x, -t.centroid.y) for c, t in tops.items()}
    for a in centred:
        for b in centred:
            if a < b:  # told apart by touch: somewhere a millimetre or more apart
                assert centred[a].hausdorff_distance(centred[b]) > 1.0, (a, b)


def test_race_fields_have_their_number_in_braille_and_effects_in_large_dots() -> None:
    result = made("minos")
    parts = [read_stl(p.solid) for p in result.built.pieces if p.id.startswith("board:")]
    board = trimesh.util.concatenate(parts)  # the parts keep the board's coordinates
    graph = result.layout.track
    height = result.catalogue.get("board:1").size[1]
    floor = 2 * OPTIONS.base
    tr = braille.translator("en", use_louis=False)
    for index in (1, 10, 25):
        node = graph.node(index)
        left, top, right, bottom = node.shape.box
        inside = [
            (x, y, d)
            for x, y, d, h in raised_dots(
                board, floor, (left + 1.5, height - bottom + 1.5, right - 1.5, height - top - 1.5)
            )
            if h < 1.0
        ]
        small = [d for _, _, d in inside if d < 1.7]
        large = [d for _, _, d in inside if d >= 1.7]
        assert len(small) == sum(len(braille.dots(c)) for c in tr.cells(node.label)), index
        kinds = [e.kind for e in node.effects]
        from boardgen.export.mesh import EFFECT_DOTS

        expected = len(EFFECT_DOTS[kinds[0]]) if kinds and kinds[0] in EFFECT_DOTS else 0
        assert len(large) == expected, (index, kinds)


def test_the_fixed_tiles_are_built_onto_the_board_with_their_walls() -> None:
    result = made("classic")
    layout = result.layout
    board = trimesh.util.concatenate([read_stl(p.solid) for p in result.built.pieces if p.id.startswith("board:")])
    plate, base, wall = 2 * OPTIONS.base, OPTIONS.base, OPTIONS.wall
    size, frame, pitch = layout.board_mm, layout.frame_mm, layout.pitch_mm
    points, expected = [], []
    for (row, col), tile in sorted(layout.fixed.items()):
        x0, top = frame + col * pitch, frame + row * pitch  # drawing mm, y down
        arms = {N: (pitch / 2, 3.0), S: (pitch / 2, pitch - 3.0), E: (pitch - 3.0, pitch / 2), W: (3.0, pitch / 2)}
        for side, (u, v) in arms.items():
            points.append((x0 + u, size - (top + v)))  # upright: y up
            expected.append(plate + base + (0.0 if tile.mask & side else wall))
    heights = top_heights(board, points)
    assert heights == pytest.approx(expected, abs=0.06)  # 0.05 mm: a feature reaches into what it stands on
    # Between two fixed tiles, a loose tile's slot: the plate, bare.
    (row, col) = sorted(layout.fixed)[0]
    assert top_heights(board, [(frame + (col + 1.5) * pitch, size - (frame + (row + 0.5) * pitch))]) == (
        pytest.approx([plate], abs=1e-3)
    )


def test_a_treasure_tile_carries_its_treasure_number_in_braille() -> None:
    result = made("classic")
    numbers = {t.id: k for k, t in enumerate(result.layout.treasures, start=1)}
    tr = braille.translator("en", use_louis=False)
    checked = 0
    for tile in result.layout.loose:
        if tile.treasure is None:
            continue
        solid = next(p for p in result.built.pieces if p.id == "tile:" + tile.id.removeprefix("tile-"))
        found = raised_dots(read_stl(solid.solid), OPTIONS.base)
        assert len(found) == sum(len(braille.dots(c)) for c in tr.cells(str(numbers[tile.treasure]))), tile.id
        assert all(abs(h - 0.6) < 0.06 for *_, h in found)
        checked += 1
    assert checked >= 6


def test_without_manifold3d_the_message_names_the_extra(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "manifold3d", None)  # what an import of a missing module meets
    result = CliRunner().invoke(cli, ["export", "classic", "--for", "3d", "-o", str(tmp_path)])
    assert result.exit_code == 2
    assert "pip install 'boardgen[3d]'" in result.output
