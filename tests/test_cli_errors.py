"""The command line, through click's CliRunner: every user mistake is one clear line on stderr
("boardgen: error: ...") with a non-zero exit code and no traceback, and a failed render never
touches a kit that is already on disk.

Full renders are slow (about a second each), so this file makes few of them: one good kit
shared by the module, one in French, one `--all`, plus the few that the tests of write
failures need.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from pypdf import PdfReader

from boardgen.cli import cli
from boardgen.data.loader import layouts_root
from boardgen.engines import game_names, load_game
from boardgen.errors import BoardgenError

BAD = Path(__file__).parent / "fixtures" / "bad"


def run(*args: str | Path) -> Result:
    """The command line; a render skips the playability check (--no-check): these tests are about
    errors and files, and the check has its own tests."""
    words = [str(a) for a in args]
    if words[:1] == ["render"] and "--help" not in words:
        words.append("--no-check")
    return CliRunner().invoke(cli, words)


def assert_clean_error(result: Result, *, code: int | None = None, quiet: bool = True) -> str:
    """A handled error: non-zero exit, one 'boardgen: error:' message on stderr, no traceback
    (and nothing on stdout if quiet). Returns the message."""
    # CliRunner swallows uncaught exceptions into result.exception; a handled error is a SystemExit.
    assert isinstance(result.exception, SystemExit), f"unhandled {type(result.exception).__name__}: {result.exception}"
    assert result.exit_code != 0
    if code is not None:
        assert result.exit_code == code, result.stderr
    assert "Traceback" not in result.output
    assert result.stderr.startswith("boardgen: error: "), result.stderr
    assert result.stderr.count("boardgen: error:") == 1
    if quiet:
        assert result.stdout == ""
    return result.stderr


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under folder (hidden ones included): its bytes and modification time."""
    out = {}
    for root, _dirs, files in os.walk(folder):
        for name in files:
            path = Path(root) / name
            out[path.relative_to(folder).as_posix()] = (path.read_bytes(), path.stat().st_mtime_ns)
    return out


def leftovers(folder: Path) -> list[str]:
    """Temporary files or folders a write may leave: *.part files and hidden staging entries."""
    found = []
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            if name.endswith(".part") or name.startswith("."):
                found.append((Path(root) / name).relative_to(folder).as_posix())
    return found


def classic_with_treasure_name(folder: Path, english: str) -> Path:
    """classic.toml with the Book's English name replaced (treasures is an array, so a short
    `extends` file would have to repeat all 24; a copy keeps the test data obvious)."""
    text = (layouts_root() / "games" / "classic.toml").read_text(encoding="utf-8")
    original = 'name = { en = "Book", fr = "Grimoire", de = "Zauberbuch" }'
    assert original in text
    path = folder / "classic-cjk.toml"
    path.write_text(
        text.replace(original, f'name = {{ en = "{english}", fr = "Grimoire", de = "Zauberbuch" }}'), encoding="utf-8"
    )
    return path


@pytest.fixture(scope="module")
def good_kit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A classic kit rendered once; returns the output root (the kit is in <root>/classic)."""
    out = tmp_path_factory.mktemp("good-kit")
    result = run("render", "classic", "-o", out, "--no-preview")
    assert result.exit_code == 0, result.output
    assert (out / "classic" / "classic-a4.pdf").is_file()
    assert (out / "classic" / "svg" / "board.svg").is_file()
    assert leftovers(out) == []
    return out


# Help, list, schema --------------------------------------------------------------------------


def test_help():
    result = run("--help")
    assert result.exit_code == 0
    for command in ("render", "list", "schema"):
        assert command in result.stdout


def test_render_help_lists_the_options():
    result = run("render", "--help")
    assert result.exit_code == 0
    for option in ("--paper", "--theme", "--seed", "--lang", "--output", "--all", "--no-preview"):
        assert option in result.stdout


def test_list_shows_games_themes_and_papers():
    result = run("list")
    assert result.exit_code == 0, result.output
    out = result.stdout
    games = out.split("Themes:")[0]
    themes = out.split("Themes:")[1].split("Papers")[0]
    papers = out.split("Papers")[1]
    assert "classic" in games and "Labyrinth" in games
    assert {"classic", "ink-saver"} <= set(themes.split())
    for name in ("a4", "letter", "a3"):
        assert f"  {name} " in papers
    assert "210 x 297" in papers
    assert "Languages: en, de, fr" in out and "Labyrinth (2-4 players; prints in en, de, fr)" in games


@pytest.mark.parametrize("kind", ["game", "theme"])
def test_schema_is_valid_json(kind):
    args = ["schema"] if kind == "game" else ["schema", kind]
    result = run(*args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert "properties" in data
    assert data["type"] == "object"
    if kind == "game":
        assert {"game", "board", "tiles", "treasures"} <= set(data["properties"])
        assert "common.schema.json" not in result.stdout  # refs made local for editors
        assert "ident" in data["$defs"]
    else:
        assert {"theme", "palette", "fonts", "art"} <= set(data["properties"])


# Usage errors ---------------------------------------------------------------------------------


def test_unknown_game_suggests_the_right_one(tmp_path):
    message = assert_clean_error(run("render", "clasic", "-o", tmp_path), code=2)
    assert "unknown game 'clasic'" in message
    assert "(did you mean 'classic'?)" in message
    assert list(tmp_path.iterdir()) == []


def test_game_file_that_does_not_exist(tmp_path):
    message = assert_clean_error(run("render", tmp_path / "nowhere.toml", "-o", tmp_path / "out"), code=2)
    assert "nowhere.toml" in message


def test_unknown_theme(tmp_path):
    message = assert_clean_error(run("render", "--theme", "ink-saber", "-o", tmp_path), code=2)
    assert "unknown theme 'ink-saber'" in message
    assert "(did you mean 'ink-saver'?)" in message


@pytest.mark.parametrize("paper", ["a9", "3x4", "legalish"])
def test_unknown_paper(tmp_path, paper):
    message = assert_clean_error(run("render", "--paper", paper, "-o", tmp_path), code=2)
    assert f"paper {paper!r}" in message
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "args",
    [
        ("render", "classic", "--all"),
        ("render", "--back-offset", "1"),
        ("render", "--sheets", "one"),
    ],
)
def test_bad_option_values(tmp_path, args):
    assert_clean_error(run(*args, "-o", tmp_path), code=2)
    assert list(tmp_path.iterdir()) == []


# Data errors ---------------------------------------------------------------------------------


def test_broken_layout_file_passed_as_a_path(tmp_path):
    path = BAD / "broken_syntax.toml"
    message = assert_clean_error(run("render", path, "-o", tmp_path), code=2)
    assert f"{path}:5: invalid TOML" in message
    assert "1 problem in the data" in message


def test_all_problems_of_a_layout_are_listed(tmp_path):
    path = BAD / "three_problems.toml"
    message = assert_clean_error(run("render", path, "-o", tmp_path), code=2)
    assert "3 problems in the data" in message
    for where in (f"{path}:5: board.sise:", f"{path}:6: board.pitch_mm:", f"{path}:9: cards.bleed:"):
        assert where in message


def test_theme_naming_a_font_that_is_not_bundled(tmp_path):
    message = assert_clean_error(
        run("render", "--theme", BAD / "theme_unknown_font.toml", "-o", tmp_path, "--no-preview"), code=2
    )
    assert "'Comic Sans MS'" in message
    assert "not bundled" in message
    assert "DejaVu Sans" in message  # what is available


def test_label_with_a_glyph_the_font_lacks(tmp_path):
    game = classic_with_treasure_name(tmp_path, "Book 本")
    message = assert_clean_error(run("render", game, "-o", tmp_path / "out", "--no-preview"), code=2)
    assert "U+672C" in message
    assert "本" in message
    assert "Book 本" in message


def test_extends_that_is_not_a_string(tmp_path):
    message = assert_clean_error(run("render", BAD / "extends_not_string.toml", "-o", tmp_path), code=2)
    assert "extends" in message


# Output errors -------------------------------------------------------------------------------


def test_output_folder_under_a_regular_file(tmp_path):
    blocker = tmp_path / "file.txt"
    blocker.write_text("not a folder", encoding="utf-8")
    message = assert_clean_error(run("render", "-o", blocker / "out", "--no-preview"), code=3)
    assert str(blocker / "out") in message
    assert blocker.read_text(encoding="utf-8") == "not a folder"


# A failed render leaves the kit on disk untouched ------------------------------------------------


def broken_art_theme(folder: Path) -> Path:
    path = folder / "missing-art.toml"
    path.write_text(
        '[theme]\nid = "missing-art"\nname = { en = "M", fr = "M" }\nextends = "classic"\n'
        '\n[art]\nbook = "nowhere.svg"\n',
        encoding="utf-8",
    )
    return path


@pytest.mark.parametrize("failure", ["glyph", "font", "art", "layout", "paper"])
def test_failed_render_leaves_the_existing_kit_untouched(good_kit, tmp_path, failure):
    kit = good_kit / "classic"
    before = snapshot(kit)
    pdf = kit / "classic-a4.pdf"
    assert "classic-a4.pdf" in before and "svg/board.svg" in before

    cases: dict[str, list[str | Path]] = {
        "glyph": [classic_with_treasure_name(tmp_path, "Book 本")],
        "font": ["classic", "--theme", BAD / "theme_unknown_font.toml"],
        "art": ["classic", "--theme", broken_art_theme(tmp_path)],
        "layout": [BAD / "wrong_inventory.toml"],
        "paper": ["classic", "--paper", "b7"],
    }
    args = cases[failure]
    result = run("render", *args, "-o", good_kit, "--no-preview")
    assert_clean_error(result)

    after = snapshot(kit)
    assert after.keys() == before.keys()
    assert after["classic-a4.pdf"] == before["classic-a4.pdf"]  # same bytes, same mtime
    assert after == before
    assert pdf.read_bytes()[:5] == b"%PDF-"
    assert leftovers(good_kit) == []


def test_failed_write_leaves_no_temporary_files(tmp_path):
    kit = tmp_path / "classic"
    (kit / "classic-a4.pdf").mkdir(parents=True)  # the PDF cannot replace a folder
    message = assert_clean_error(run("render", "-o", tmp_path, "--no-preview", "--no-svg"), code=3)
    assert "classic-a4.pdf" in message
    assert [p.name for p in kit.rglob("*.part")] == []
    assert leftovers(tmp_path) == []


def test_failure_while_making_previews_leaves_the_kit_untouched(good_kit, tmp_path, monkeypatch):
    out = tmp_path / "out"
    shutil.copytree(good_kit, out)
    before = snapshot(out / "classic")

    def broken_previews(*_args, **_kwargs):
        raise BoardgenError("cannot rasterise the previews")

    monkeypatch.setattr("boardgen.render.preview.previews", broken_previews)
    assert_clean_error(run("render", "classic", "--seed", "2", "-o", out), code=1)
    assert snapshot(out / "classic") == before
    assert leftovers(out) == []


# Renders that work --------------------------------------------------------------------------------


def test_french_kit_has_french_labels(tmp_path):
    result = run("render", "classic", "--lang", "fr", "-o", tmp_path, "--no-preview", "--no-svg")
    assert result.exit_code == 0, result.output
    pdf = tmp_path / "classic" / "classic-a4-fr.pdf"  # the language is in the name
    assert str(pdf) in result.stdout
    reader = PdfReader(str(pdf))
    cover = reader.pages[0].extract_text()
    assert "Labyrinthe" in cover
    assert "Haut gauche" in cover  # the assembly map names the board sheets
    assert "Contenu" in cover and "Contents" not in cover
    assert reader.metadata is not None and reader.metadata.title == "Labyrinthe"
    assert not [p.name for p in (tmp_path / "classic").iterdir() if p.name.startswith("svg")]
    assert not (tmp_path / "classic" / "preview").exists()


@pytest.mark.usefixtures("warm_cache")  # unchecked renders on the session's drawings
def test_render_all_renders_every_bundled_game(tmp_path):
    result = run("render", "--all", "-o", tmp_path, "--no-preview", "--no-svg")
    assert result.exit_code == 0, result.output
    assert set(game_names()) >= {"classic", "master", "minos"}
    for name in game_names():
        game_id = load_game(name)[1].id
        assert (tmp_path / game_id / f"{game_id}-a4.pdf").is_file(), result.output
    assert result.stdout.count(".pdf (") == len(game_names())


@pytest.mark.usefixtures("warm_cache")  # unchecked renders on the session's drawings
def test_default_render_uses_the_bundled_icons(tmp_path):
    result = run("render", "-o", tmp_path, "--no-preview", "--no-svg")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "classic" / "classic-a4.pdf").is_file()


def test_negative_seed_is_refused(tmp_path):
    # Python seeds a generator with |n|, so -3 would silently give seed 3's layout.
    result = run("render", "classic", "--seed", "-3", "-o", tmp_path)
    assert result.exit_code == 2 and "-3 is not in the range" in result.output


def test_paper_too_small_names_the_piece(tmp_path):
    message = assert_clean_error(run("render", "classic", "--paper", "100x100", "-o", tmp_path), code=2)
    assert "pawn does not fit" in message and "larger paper" in message
