"""`export --for tts`: the Tabletop Simulator saved object of every game, read back as a file:
its shape against the hand-written reference (tests/fixtures/tts/saved_object.json), every
catalogue piece as many times as the game uses it, each loose piece where the checked start
puts it (the Deal's tiles and turns, Master's tokens, the walls blocks' cells), the images and
meshes it names, the deck sheets, and the same bytes for the same seed."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
import trimesh
from click.testing import CliRunner
from PIL import Image
from shapely.geometry import Polygon, box
from shapely.ops import unary_union
from tts_view import footprint, local_file, turn

from boardgen.cli import cli
from boardgen.export.tts import BOARD_SHORT_UNITS, MM_PER_UNIT, export_table
from boardgen.model.tiles import rotate
from boardgen.options import KitOptions

GAMES = ("classic", "master", "walls", "minos", "grand")
FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "tts" / "saved_object.json").read_text())
LAYOUTS = Path(__file__).parent / "fixtures" / "layouts"


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Each game exported once (not checked: the verdict is not the point here)."""
    root = tmp_path_factory.mktemp("tables")
    return {game: export_table(game, root, KitOptions(check=False)) for game in GAMES}


def saved(made: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((made.folder / f"{made.build.name}.json").read_text(encoding="utf-8"))
    return data


def every_object(save: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for obj in save["ObjectStates"]:
        out.append(obj)
        out += obj.get("ContainedObjects", [])
    return out


def reference(name: str) -> dict[str, Any]:
    found: dict[str, Any] = next(o for o in every_object(FIXTURE) if o["Name"] == name)
    return found


def board_mm(made: Any, obj: dict[str, Any]) -> tuple[float, float]:
    """An object's position back in board mm (origin top-left, y down), from the JSON."""
    w, h = made.build.catalogue.get("board:1").trim
    t = obj["Transform"]
    return t["posX"] * MM_PER_UNIT + w / 2, h / 2 - t["posZ"] * MM_PER_UNIT


@pytest.mark.parametrize("game", GAMES)
def test_the_save_has_the_saved_object_shape(exported: dict[str, Any], game: str) -> None:
    save = saved(exported[game])
    assert set(save) == set(FIXTURE) - {"_comment"}
    names = {o["Name"] for o in every_object(save)}
    assert names <= {o["Name"] for o in every_object(FIXTURE)}
    for obj in every_object(save):
        ref = reference(obj["Name"])
        assert set(obj) == set(ref), obj["Name"]
        assert set(obj["Transform"]) == set(ref["Transform"])
        for table in ("CustomImage", "CustomMesh"):
            if table in ref:
                assert set(obj[table]) == set(ref[table]), (obj["Name"], table)
                if "CustomTile" in ref[table]:
                    assert set(obj[table]["CustomTile"]) == set(ref[table]["CustomTile"])
        for entry in obj.get("CustomDeck", {}).values():
            assert set(entry) == set(next(iter(ref["CustomDeck"].values())))
    board = next(o for o in save["ObjectStates"] if o["Name"] == "Custom_Board")
    assert board["Locked"] is True and board["AttachedSnapPoints"]
    assert f"seed {exported[game].build.plan.seed}" in save["Note"] and "Verdict: not checked" in save["Note"]


@pytest.mark.parametrize("game", GAMES)
def test_every_piece_lies_on_the_table_as_often_as_the_game_uses_it(exported: dict[str, Any], game: str) -> None:
    made = exported[game]
    found: dict[str, int] = {}
    for obj in every_object(saved(made)):
        if obj["GMNotes"]:
            found[obj["GMNotes"]] = found.get(obj["GMNotes"], 0) + 1
    assert found == {p.id: p.count for p in made.build.catalogue}


@pytest.mark.parametrize("game", ["classic", "master"])
def test_each_tile_lies_on_its_dealt_square_turned_as_dealt(exported: dict[str, Any], game: str) -> None:
    made = exported[game]
    layout = made.build.plan.layout
    deal = made.build.setup if game == "classic" else made.build.setup.deal
    base = {t.id: t for t in layout.loose}
    key = {p.id: p.key for p in made.build.catalogue}
    on_board = 0
    spare = None
    for obj in saved(made)["ObjectStates"]:
        if not obj["GMNotes"].startswith("tile:"):
            continue
        x, y = board_mm(made, obj)
        turns = round((obj["Transform"]["rotY"] - 180.0) / 90.0) % 4
        tile_id = key[obj["GMNotes"]]
        col, row = (x - layout.frame_mm) / layout.pitch_mm - 0.5, (y - layout.frame_mm) / layout.pitch_mm - 0.5
        if not (0 <= round(row) < layout.size and 0 <= round(col) < layout.size) or x > layout.board_mm:
            spare = (tile_id, turns)
            continue
        assert abs(row - round(row)) < 1e-3 and abs(col - round(col)) < 1e-3
        dealt = deal.tile_at(round(row), round(col))
        assert dealt.id == tile_id
        assert rotate(base[tile_id].mask, turns) == dealt.mask  # turned clockwise as the deal turned it
        on_board += 1
    assert on_board == len(layout.loose) - 1
    assert spare is not None and spare[0] == deal.spare.id and rotate(base[spare[0]].mask, spare[1]) == deal.spare.mask


def test_masters_tokens_lie_on_their_squares(exported: dict[str, Any]) -> None:
    made = exported["master"]
    layout, setup = made.build.plan.layout, made.build.setup
    key = {p.id: p.key for p in made.build.catalogue}
    where = {}
    for obj in saved(made)["ObjectStates"]:
        if obj["GMNotes"].startswith("token:"):
            x, y = board_mm(made, obj)
            where[key[obj["GMNotes"]]] = (
                round((y - layout.frame_mm) / layout.pitch_mm - 0.5),
                round((x - layout.frame_mm) / layout.pitch_mm - 0.5),
            )
    for square, object_id in setup.tokens.items():
        assert where[object_id] == square


def test_the_walls_blocks_lie_on_their_start_cells_and_are_solid(exported: dict[str, Any]) -> None:
    """Each block's mesh, placed as the JSON says, covers exactly its start cells (to 0.1 mm),
    and is watertight; its outline is the catalogue's."""
    made = exported["walls"]
    layout = made.build.plan.layout
    w, h = made.build.catalogue.get("board:1").trim
    cells = {f"block:{b.id.lower()}": b.cells for b in layout.blocks}
    models = [o for o in saved(made)["ObjectStates"] if o["Name"] == "Custom_Model"]
    assert len(models) == len(layout.blocks)
    for obj in models:
        path = local_file(obj["CustomMesh"]["MeshURL"])
        mesh = trimesh.load(path, file_type="obj", force="mesh", process=True)
        assert isinstance(mesh, trimesh.Trimesh)
        assert mesh.is_watertight and mesh.is_winding_consistent and mesh.volume > 0
        t = obj["Transform"]
        ring = []
        for x, z in footprint(path.read_text()):
            wx, wz = turn(-x * t["scaleX"], z * t["scaleZ"], t["rotY"])  # TTS reads an OBJ mirrored in x
            ring.append(((t["posX"] + wx) * MM_PER_UNIT + w / 2, h / 2 - (t["posZ"] + wz) * MM_PER_UNIT))
        placed = Polygon(ring)
        p = layout.pitch_mm
        squares = unary_union(
            [
                box(
                    layout.border_mm + c * p,
                    layout.border_mm + r * p,
                    layout.border_mm + (c + 1) * p,
                    layout.border_mm + (r + 1) * p,
                )
                for r, c in cells[obj["GMNotes"]]
            ]
        )
        assert placed.symmetric_difference(squares).area < 0.1 * placed.length
        assert placed.hausdorff_distance(squares) < 0.1
        outline = Polygon(made.build.catalogue.get(obj["GMNotes"]).outline.points)
        assert abs(outline.area - Polygon(footprint(path.read_text())).area * MM_PER_UNIT**2) < 0.1 * outline.length


@pytest.mark.parametrize("game", GAMES)
def test_every_file_named_exists_and_every_image_is_rgb_within_4096(exported: dict[str, Any], game: str) -> None:
    made = exported[game]
    urls = set()
    for obj in every_object(saved(made)):
        for table in ("CustomImage", "CustomMesh"):
            urls |= {v for k, v in obj.get(table, {}).items() if k.endswith("URL") and v}
        for entry in obj.get("CustomDeck", {}).values():
            urls |= {entry["FaceURL"], entry["BackURL"]}
    assert urls
    for url in urls:
        path = local_file(url)
        assert path.is_file() and path.resolve().is_relative_to(made.folder.resolve()), url
        if path.suffix == ".png":
            with Image.open(path) as image:
                assert image.mode == "RGB" and max(image.size) <= 4096, path


@pytest.mark.parametrize("game", ["classic", "master", "grand"])
def test_decks_are_face_down_on_sheets_of_at_most_10_by_7_with_the_hidden_face_last(
    exported: dict[str, Any], game: str
) -> None:
    made = exported[game]
    decks = [o for o in saved(made)["ObjectStates"] if o["Name"] == "DeckCustom"]
    assert len(decks) == 1
    deck = decks[0]
    assert deck["Transform"]["rotZ"] == 180.0  # face down
    assert [c["CardID"] for c in deck["ContainedObjects"]] == deck["DeckIDs"]
    for key, entry in deck["CustomDeck"].items():
        cols, rows = entry["NumWidth"], entry["NumHeight"]
        assert 1 <= cols <= 10 and 1 <= rows <= 7
        used = [i % 100 for i in deck["DeckIDs"] if i // 100 == int(key)]
        assert max(used) < cols * rows - 1  # the last slot is not a card's
        with Image.open(local_file(entry["FaceURL"])) as sheet, Image.open(local_file(entry["BackURL"])) as back:
            cw, ch = sheet.size[0] // cols, sheet.size[1] // rows
            hidden = sheet.crop(((cols - 1) * cw, (rows - 1) * ch, cols * cw, rows * ch))
            expected = back.convert("RGB").resize((cw, ch))
            diff = sum(abs(a - b) for a, b in zip(hidden.tobytes(), expected.tobytes(), strict=True))
            assert diff / len(expected.tobytes()) < 8  # the back, in the hidden slot


def test_the_classic_deck_is_in_the_order_the_rules_shuffle_it(exported: dict[str, Any]) -> None:
    made = exported["classic"]
    layout, seed = made.build.plan.layout, made.build.plan.seed
    order = [t.id for t in layout.treasures]
    made.build.plan.engine.game(layout).deal_cards(order, layout.players[0], seed)
    key = {p.id: p.key for p in made.build.catalogue}
    deck = next(o for o in saved(made)["ObjectStates"] if o["Name"] == "DeckCustom")
    assert [key[c["GMNotes"]] for c in deck["ContainedObjects"]] == order


def test_the_board_is_its_printed_size_and_snaps_lie_on_the_squares(exported: dict[str, Any]) -> None:
    made = exported["classic"]
    layout = made.build.plan.layout
    board = next(o for o in saved(made)["ObjectStates"] if o["Name"] == "Custom_Board")
    scale = board["Transform"]["scaleX"]
    assert math.isclose(BOARD_SHORT_UNITS * scale * MM_PER_UNIT, layout.board_mm, rel_tol=1e-4)
    snaps = board["AttachedSnapPoints"]
    assert len(snaps) == layout.size**2
    # In the board's frame (turned half round, scaled): back to board mm, on square centres.
    for snap in snaps:
        x = -snap["Position"]["x"] * scale * MM_PER_UNIT + layout.board_mm / 2
        y = layout.board_mm / 2 + snap["Position"]["z"] * scale * MM_PER_UNIT
        col, row = ((v - layout.frame_mm) / layout.pitch_mm - 0.5 for v in (x, y))
        assert abs(col - round(col)) < 1e-3 and abs(row - round(row)) < 1e-3


def test_the_same_seed_gives_the_same_bytes(exported: dict[str, Any]) -> None:
    made = exported["walls"]
    before = {p: p.read_bytes() for p in made.folder.rglob("*") if p.is_file()}
    again = export_table("walls", made.folder.parent.parent, KitOptions(check=False))
    after = {p: p.read_bytes() for p in again.folder.rglob("*") if p.is_file()}
    assert before == after


def test_a_base_url_names_every_file_under_it_and_a_bad_one_is_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli,
        ["export", "walls", "--for", "tts", "-o", str(tmp_path), "--no-check", "--base-url", "ftp://example.org/walls"],
    )
    assert result.exit_code != 0 and "--base-url" in result.output and "http" in result.output
    assert "Traceback" not in result.output and not (tmp_path / "walls").exists()


def test_an_output_folder_in_the_way_is_refused_with_nothing_written(tmp_path: Path) -> None:
    (tmp_path / "walls").write_text("a file where the kit's folder goes")
    result = CliRunner().invoke(cli, ["export", "walls", "--for", "tts", "-o", str(tmp_path), "--no-check"])
    assert result.exit_code != 0 and "walls" in result.output and "Traceback" not in result.output
    assert (tmp_path / "walls").read_text() == "a file where the kit's folder goes"


def test_a_failing_layout_is_refused_unless_forced(tmp_path: Path) -> None:
    layout = str(LAYOUTS / "turn_cap_too_low.toml")
    refused = CliRunner().invoke(cli, ["export", layout, "--for", "tts", "-o", str(tmp_path)])
    assert refused.exit_code == 4, refused.output
    assert not (tmp_path / "turn_cap_too_low" / "tts").exists()
    forced = CliRunner().invoke(
        cli, ["export", layout, "--for", "tts", "-o", str(tmp_path), "--force", "--base-url", "https://example.org/kit"]
    )
    assert forced.exit_code == 0, forced.output
    save = json.loads((tmp_path / "turn_cap_too_low" / "tts" / "turn_cap_too_low.json").read_text())
    assert "FAILED" in save["Note"] or "not playable" in save["Note"].lower()
    urls = [o["CustomImage"]["ImageURL"] for o in save["ObjectStates"] if "CustomImage" in o]
    assert urls and all(u.startswith("https://example.org/kit/images/") for u in urls)
