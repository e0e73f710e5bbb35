"""One piece catalogue that every output reads (issue 32): for every bundled game the pieces the
catalogue declares, times the copies the game uses, are what the home PDF prints (counted in the
PDF's content streams with pypdf), what every cutting machine's files cut (read with ezdxf and an
XML parser) and what every print service is sent (files, manifests and deck pages read back)."""

from __future__ import annotations

import ast
import csv
import io
import re
import shutil
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from ezdxf.filemanagement import read
from pypdf import PdfReader

import boardgen
from boardgen.cli import cli
from boardgen.cut.make import CutOptions, cut_files
from boardgen.kit import KitBuild
from boardgen.options import KitOptions

GAMES = ("classic", "master", "minos", "grand", "walls")
MACHINES = ("silhouette", "scanncut", "cricut", "laser")
SVG = "{http://www.w3.org/2000/svg}"
# The PDF names each piece's form after its kind; what each name prints, as `--only` calls it.
FORM_KINDS = {
    "Card": "card",
    "Tile": "tile",
    "Pawn": "pawn",
    "Disc": "pawn",
    "Die": "die",
    "Block": "block",
    "Token": "token",
    "Wand": "wand",
}
GS = shutil.which("gs")


@pytest.fixture(scope="module")
def builds() -> dict[str, KitBuild]:
    """Each game built once in memory, laid out for a print-and-cut machine (room for its marks)."""
    options = KitOptions(check=False, previews=False, svg=False, cut="silhouette")
    return {game: boardgen.build_kit(game, options) for game in GAMES}


def printed(pdf: bytes) -> Counter[str]:
    """How many times the PDF draws each piece form, by the form's name (FormXob.Card-book)."""
    found: Counter[str] = Counter()
    for page in PdfReader(io.BytesIO(pdf)).pages:
        contents = page.get_contents()
        assert contents is not None
        found.update(re.findall(r"/FormXob\.([A-Za-z]+-\S+) Do", contents.get_data().decode("latin-1")))
    return found


def cut_pieces(build: KitBuild) -> int:
    """The pieces a cutting machine cuts: every catalogue piece but the paper score pad, each
    as often as the game uses it; not the board sheets (cut by hand on their crop marks)."""
    return build.catalogue.copies() - len(build.catalogue.of_kind("board", "score-pad"))


@pytest.mark.parametrize("game", GAMES)
def test_the_home_pdf_prints_every_catalogue_piece_as_often_as_the_game_uses_it(
    game: str, builds: dict[str, KitBuild]
) -> None:
    build = builds[game]
    forms = printed(build.pdf.data)
    by_kind: Counter[str] = Counter()
    for name, times in forms.items():
        prefix = name.split("-", 1)[0]
        if prefix in FORM_KINDS and name != "Card-back":
            by_kind[FORM_KINDS[prefix]] += times
    wanted = {
        kind: build.catalogue.copies(kind) for kind in build.catalogue.kinds if kind not in ("board", "score-pad")
    }
    assert dict(by_kind) == wanted
    # A card design is printed as many times as the deck holds it, and each card has its back.
    for card in build.catalogue.of_kind("card"):
        assert forms[f"Card-{card.key}"] == card.count, card.id
    assert forms["Card-back"] == build.catalogue.copies("card")


def test_grand_prints_its_sixteen_event_cards_twice_each(builds: dict[str, KitBuild]) -> None:
    cards = builds["grand"].catalogue.of_kind("card")
    assert len(cards) == 16 and {card.count for card in cards} == {2}
    assert builds["grand"].catalogue.copies("card") == 32


def _dxf_cuts(data: bytes) -> int:
    doc = read(io.StringIO(data.decode("utf-8")))
    return sum(1 for e in doc.modelspace() if e.dxf.layer == "CUT" and e.dxftype() in ("LWPOLYLINE", "CIRCLE"))


def _svg_cuts(data: bytes) -> int:
    root = ET.fromstring(data)
    group = next(g for g in root.iter(f"{SVG}g") if g.get("id") == "CUT")
    return len(list(group))


@pytest.mark.parametrize("machine", MACHINES)
@pytest.mark.parametrize("game", GAMES)
def test_every_cutting_machine_cuts_every_printed_piece_once(
    game: str, machine: str, builds: dict[str, KitBuild]
) -> None:
    build = builds[game]
    files, text = cut_files(build.pdf, CutOptions(machine), stem=game)
    if machine in ("silhouette", "laser"):
        cuts = sum(_dxf_cuts(data) for name, data in files.items() if name.endswith(".dxf"))
    else:
        cuts = sum(_svg_cuts(data) for name, data in files.items() if name.endswith(".svg"))
    if machine == "cricut":  # pieces larger than a mat's image are named, to cut by hand
        marker = "to cut by hand from the kit's PDF:"
        by_hand = text.split(marker)[-1].split("\n")[0] if marker in text else ""
        cuts += len(re.findall(r"\b[a-z-]+:[\w-]+", by_hand))
    assert cuts == cut_pieces(build)


def _manifest(folder: Path) -> list[dict[str, str]]:
    with (folder / "manifest.csv").open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


@pytest.mark.parametrize("service", ["tgc", "mpc"])
def test_image_services_get_each_card_face_once_with_its_quantity(service: str, grand_exports: Path) -> None:
    fronts = sorted((grand_exports / service / "grand").glob("front-*.png"))
    assert len(fronts) == 16
    quantities = [int(m.group(1)) if (m := re.search(r"-x(\d+)\.png$", f.name)) else 1 for f in fronts]
    assert sum(quantities) == 32
    rows = _manifest(grand_exports / service)
    assert sum(int(r["quantity"]) for r in rows if r["piece"].startswith("card:")) == 32
    assert [r["quantity"] for r in rows if r["piece"] == "card-back:1"] == ["32"]


def test_the_drivethru_deck_holds_all_32_cards_back_then_front(grand_exports: Path) -> None:
    deck = PdfReader(grand_exports / "drivethru" / "grand-deck.pdf")
    assert len(deck.pages) == 64  # 32 cards, each its back then its front
    rows = _manifest(grand_exports / "drivethru")
    assert sum(int(r["quantity"]) for r in rows if r["piece"].startswith("card:")) == 32


def test_press_files_hold_every_design_once_and_the_manifest_every_copy(
    grand_exports: Path, builds: dict[str, KitBuild]
) -> None:
    catalogue = builds["grand"].catalogue
    press = PdfReader(grand_exports / "press" / "grand-press.pdf")
    designs = [p for p in catalogue if p.kind != "score-pad"]
    assert len(press.pages) == len(designs) + 1  # and the deck's back
    rows = _manifest(grand_exports / "press")
    assert sum(int(r["quantity"]) for r in rows if r["piece"].startswith("card:")) == 32
    assert {r["piece"] for r in rows} == {p.id for p in designs} | {"card-back:1"}


def test_home_cut_cards_and_press_die_lines_round_the_corners_alike(
    tmp_path: Path, builds: dict[str, KitBuild]
) -> None:
    if GS is None:
        pytest.skip("Ghostscript is not installed (CI installs it)")
    files, _ = cut_files(builds["classic"].pdf, CutOptions("scanncut"), stem="classic")
    rects = [
        e
        for name, data in files.items()
        if name.endswith(".svg")
        for e in ET.fromstring(data).iter(f"{SVG}rect")
        if (e.get("id") or "").startswith("card:")
    ]
    assert rects and {e.get("rx") for e in rects} == {"3"}
    result = CliRunner().invoke(cli, ["export", "classic", "--for", "press", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    die = ET.parse(next((tmp_path / "classic" / "press" / "dielines").glob("card-*.svg"))).getroot()
    assert {float(e.get("rx", "0")) for e in die.iter(f"{SVG}rect")} == {3.0}


def test_a_service_added_as_a_file_is_listed_and_exported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "data" / "boardgen" / "services"
    folder.mkdir(parents=True)
    (folder / "cardshop.toml").write_text(
        '# A card printer of our town\n[service]\nname = "Our card shop"\nfaces = "png"\nbleed_mm = 2.0\n'
        'safe_mm = 3.0\ndpi = 300\ncorner_mm = 3.0\n\n[sizes.mini-euro]\nname = "Mini"\npixels = [567, 838]\n',
        encoding="utf-8",
    )
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    listed = CliRunner().invoke(cli, ["list"])
    assert listed.exit_code == 0 and "cardshop" in listed.output and "Our card shop" in listed.output
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["export", "classic", "--for", "cardshop", "--cards", "mini-euro", "-o", str(out)])
    assert result.exit_code == 0, result.output
    from PIL import Image

    fronts = sorted((out / "classic" / "cardshop" / "classic").glob("front-*.png"))
    assert fronts and {Image.open(f).size for f in fronts} == {(567, 838)}


def test_a_broken_service_file_is_named_with_its_key_and_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "boardgen" / "services"
    folder.mkdir(parents=True)
    (folder / "odd.toml").write_text(
        '[service]\nname = "Odd"\nfaces = "png"\nbleed_mm = 3.0\ndpi = "many"\n', encoding="utf-8"
    )
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    result = CliRunner().invoke(
        cli, ["export", "classic", "--for", "odd", "--cards", "poker", "-o", str(tmp_path / "out")]
    )
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert "odd.toml:5: service.dpi: expected integer" in result.output


def test_build_kit_makes_classic_in_memory_without_writing_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    build = boardgen.build_kit("classic", KitOptions(check=False))
    assert list(tmp_path.iterdir()) == []
    assert build.files[build.plan.pdf_name].startswith(b"%PDF-")
    assert len(PdfReader(io.BytesIO(build.pdf.data)).pages) == len(build.pdf.kinds)
    assert build.catalogue.copies("tile") == 34 and build.catalogue.copies("card") == 24
    assert any(name.startswith("preview/") for name in build.files)


def test_no_module_reads_an_output_through_getattr() -> None:
    """The kit is a typed value: nothing fetches placements, showcases or kinds off an object."""
    package = Path(boardgen.__file__).parent
    for file in package.rglob("*.py"):
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr":
                names = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
                assert not set(names) & {"placements", "showcases", "kinds"}, f"{file}:{node.lineno}"


def test_every_cutting_machine_the_cli_offers_is_a_data_file_with_its_limits() -> None:
    from boardgen.cut.machines import machines

    render = cli.commands["render"]
    choice = next(p for p in render.params if p.name == "cut_machine").type
    found = machines()
    assert isinstance(choice, click.Choice) and set(choice.choices) == set(found)
    assert found["cricut"].mat is not None and found["laser"].gap > 0
    assert all(found[k].marks is not None for k in ("silhouette", "silhouette-4", "scanncut"))
