"""`export --for tabletop-club` (issue 33): a Tabletop Club asset pack read back as the game reads it:
the sub-folders its docs name, each config.cfg parsed as a Godot ConfigFile, every catalogue piece
there once at its printed size in centimetres with its copies in its description, textures in the
game's UV layouts (Pillow), the walls blocks' OBJ meshes watertight with their outline's footprint
(trimesh)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
import trimesh
from click.testing import CliRunner
from PIL import Image

import boardgen
from boardgen.cli import cli
from boardgen.export.tabletop_club import pack_files
from boardgen.options import KitOptions

GAMES = ("classic", "master", "minos", "grand", "walls")
FOLDERS = {"cards", "pieces/cube", "pieces/custom", "tokens/cube", "tokens/cylinder"}
Packs = dict[str, tuple[boardgen.KitBuild, dict[str, bytes]]]  # each game's build and pack files


def parse_config(text: str) -> dict[str, dict[str, str]]:
    """A Godot ConfigFile: [section] then key = value lines; ';' starts a comment."""
    out: dict[str, dict[str, str]] = {}
    section: dict[str, str] | None = None
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(";"):
            continue
        head = re.fullmatch(r"\[(.+)\]", line)
        if head:
            section = out.setdefault(head.group(1), {})
            continue
        key, sep, value = line.partition(" = ")
        assert sep and section is not None, line
        section[key] = value
    return out


def vector(value: str) -> tuple[float, float, float]:
    found = re.fullmatch(r"Vector3\(([-\d.]+), ([-\d.]+), ([-\d.]+)\)", value)
    assert found, value
    x, y, z = (float(v) for v in found.groups())
    return x, y, z


@pytest.fixture(scope="module")
def packs() -> Packs:
    out = {}
    for game in GAMES:
        build = boardgen.build_kit(game, KitOptions(check=False, previews=False, svg=False))
        out[game] = (build, pack_files(build))
    return out


@pytest.mark.parametrize("game", GAMES)
def test_every_piece_is_in_the_pack_once_at_its_printed_size(game: str, packs: Packs) -> None:
    build, files = packs[game]
    folders = {path.rsplit("/", 1)[0] for path in files}
    assert folders <= FOLDERS
    sections: dict[str, tuple[str, dict[str, str]]] = {}
    for path, data in files.items():
        if path.endswith("config.cfg"):
            folder = path.rsplit("/", 1)[0]
            for name, keys in parse_config(data.decode("utf-8")).items():
                if name not in ("*", "back.png"):
                    assert name not in sections, name
                    sections[name] = (folder, keys)
                    assert f"{folder}/{name}" in files, name
    for piece in build.catalogue:
        if piece.kind in ("score-pad", "die"):
            continue
        model = piece.kind == "block"
        name = piece.file + (".obj" if model else ".png")
        folder, keys = sections.pop(name)
        assert f"({piece.id}): {piece.count} in the game" in keys["desc"]
        if model:
            continue
        x, y, z = vector(keys["scale"])
        w, h = piece.trim
        if folder == "pieces/cube" and piece.kind == "pawn":  # a standee stands up: one face's height
            assert x == pytest.approx(w / 10, abs=0.01) and z == pytest.approx(0.1)
        else:
            assert (x, z) == pytest.approx((w / 10, h / 10), abs=0.01)
            assert 0 < y <= 0.2
    assert sections == {}


@pytest.mark.parametrize("game", ["classic", "grand"])
def test_cards_take_the_decks_back_and_the_back_is_not_a_card(game: str, packs: Packs) -> None:
    _, files = packs[game]
    config = parse_config(files["cards/config.cfg"].decode("utf-8"))
    assert config["*"] == {"back_face": '"back.png"'} and config["back.png"] == {"ignore": "true"}
    assert Image.open(io.BytesIO(files["cards/back.png"])).mode == "RGB"


@pytest.mark.parametrize("game", GAMES)
def test_textures_follow_the_uv_layouts(game: str, packs: Packs) -> None:
    _, files = packs[game]
    for path, data in files.items():
        if not path.endswith(".png"):
            continue
        image = Image.open(io.BytesIO(data))
        assert image.mode == "RGB"
        w, h = image.size
        if path.startswith(("pieces/cube/", "tokens/cube/")):
            assert w % 3 == 0 and h % 2 == 0  # 3 x 2 cells of a cube
        if path.startswith("tokens/cylinder/"):
            assert w == h  # the side above, the two discs below


def test_walls_blocks_are_watertight_solids_of_their_outline(packs: Packs) -> None:
    build, files = packs["walls"]
    for piece in build.catalogue.of_kind("block"):
        mesh = trimesh.load(io.BytesIO(files[f"pieces/custom/{piece.file}.obj"]), file_type="obj", force="mesh")
        assert isinstance(mesh, trimesh.Trimesh)
        assert mesh.is_watertight and mesh.volume > 0
        xs = [x for x, _ in piece.outline.points]
        ys = [y for _, y in piece.outline.points]
        lo, hi = mesh.bounds
        assert hi[0] - lo[0] == pytest.approx((max(xs) - min(xs)) / 10, abs=0.01)  # cm
        assert hi[2] - lo[2] == pytest.approx((max(ys) - min(ys)) / 10, abs=0.01)


def test_the_export_writes_the_pack_folder_and_is_the_same_for_the_same_seed(tmp_path: Path) -> None:
    def export(out: Path) -> dict[str, bytes]:
        result = CliRunner().invoke(cli, ["export", "walls", "--for", "tabletop-club", "--no-check", "-o", str(out)])
        assert result.exit_code == 0, result.output
        root = out / "walls" / "tabletop-club"
        return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}

    first, second = export(tmp_path / "a"), export(tmp_path / "b")
    assert first == second
    assert "README.txt" in first and any(name.endswith("/pieces/custom/config.cfg") for name in first)
    refused = CliRunner().invoke(
        cli, ["export", "walls", "--for", "tabletop-club", "--cards", "poker", "-o", str(tmp_path / "c")]
    )
    assert refused.exit_code == 2 and "not for --for tabletop-club" in refused.output
