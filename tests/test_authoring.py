"""`boardgen new` and `boardgen show`: editable copies that load, and help for every key."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from boardgen.authoring import describe_key, descriptions
from boardgen.cli import cli
from boardgen.data.loader import layouts_root
from boardgen.data.theme import load_theme
from boardgen.engines import load_game
from boardgen.errors import BoardgenError

# Unchecked kits of their own, on the session's cache: none of these tests tests the cache.
pytestmark = pytest.mark.usefixtures("warm_cache")


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


@pytest.mark.parametrize("base", ["classic", "ink-saver", "minoan"])
def test_new_theme_is_an_editable_copy_with_the_same_values(tmp_path: Path, base: str) -> None:
    code, out = run("new", "theme", "mine", "--from", base, "-C", str(tmp_path))
    assert code == 0, out
    path = tmp_path / "mine.toml"
    text = path.read_text(encoding="utf-8")
    assert "# Corridor floors" in text or "floor =" in text
    mine, original = load_theme(str(path)), load_theme(base)
    assert mine.id == "mine"
    assert (mine.palette, mine.fonts, mine.strokes, mine.style) == (
        original.palette,
        original.fonts,
        original.strokes,
        original.style,
    )
    # Editing a value is all it takes.
    path.write_text(text.replace(f'floor = "{original.palette["floor"]}"', 'floor = "#123456"'), encoding="utf-8")
    assert load_theme(str(path)).palette["floor"] == "#123456"


def test_new_game_copies_the_layout_under_its_own_id(tmp_path: Path) -> None:
    code, out = run("new", "game", "my-maze", "--from", "classic", "-C", str(tmp_path))
    assert code == 0, out
    path = tmp_path / "my-maze.toml"
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    original = tomllib.loads((layouts_root() / "games" / "classic.toml").read_text(encoding="utf-8"))
    assert data["game"]["id"] == "my-maze"
    data["game"]["id"] = "classic"
    assert data == original
    _, layout = load_game(str(path))
    assert layout.id == "my-maze"


def test_new_refuses_to_overwrite_and_bad_names(tmp_path: Path) -> None:
    assert run("new", "theme", "mine", "-C", str(tmp_path))[0] == 0
    code, out = run("new", "theme", "mine", "-C", str(tmp_path))
    assert code != 0 and "already exists" in out
    assert run("new", "theme", "mine", "-C", str(tmp_path), "--force")[0] == 0
    code, out = run("new", "theme", "../escape", "-C", str(tmp_path))
    assert code != 0 and "name" in out and not (tmp_path.parent / "escape.toml").exists()
    code, out = run("new", "game", "x", "--from", "nosuchgame", "-C", str(tmp_path))
    assert code != 0 and "unknown game" in out


def test_show_game_lists_every_treasure_with_names_and_pictures() -> None:
    code, out = run("show", "classic")
    assert code == 0, out
    data = tomllib.loads((layouts_root() / "games" / "classic.toml").read_text(encoding="utf-8"))
    for treasure in data["treasures"]:
        line = next(line for line in out.splitlines() if line.strip().startswith(treasure["id"] + " "))
        assert treasure["name"]["en"] in line and treasure["name"]["fr"] in line


def test_show_theme_explains_every_palette_key() -> None:
    code, out = run("show", "ink-saver")
    assert code == 0, out
    theme = load_theme("ink-saver")
    for key in theme.palette:
        line = next(line for line in out.splitlines() if line.strip().startswith(key + " "))
        assert describe_key("theme", f"palette.{key}") in line


def test_show_pictures_lists_the_bundled_icons() -> None:
    code, out = run("show", "pictures")
    assert code == 0
    icons = sorted(p.stem for p in (layouts_root() / "art" / "game-icons").glob("*.svg"))
    assert f"{len(icons)} bundled pictures" in out
    assert all(name in out for name in icons)


def test_every_theme_key_has_help() -> None:
    """The theme schema and the help text describe the same keys (no key without help)."""
    schema = json.loads((layouts_root() / "schema" / "theme.schema.json").read_text(encoding="utf-8"))
    missing = []
    for table, spec in schema["properties"].items():
        if table != "theme" and not describe_key("theme", table):
            missing.append(table)
        for key in spec.get("properties", {}):
            if not describe_key("theme", f"{table}.{key}"):
                missing.append(f"{table}.{key}")
    assert not missing, f"keys without a description in layouts/schema/descriptions.toml: {missing}"
    assert set(descriptions()) == {"theme", "game"}


@pytest.mark.parametrize("size", [5, 9])
def test_generated_classic_boards_pass_the_static_checks_and_render(tmp_path: Path, size: int) -> None:
    """The generated layout follows the documented scaling, and its dealt board passes every
    static check and the solver (self-play is exercised by `boardgen validate` in the README)."""
    from boardgen.checks.sliding import static_checks
    from boardgen.model.sliding import deal

    path = tmp_path / f"g{size}.toml"
    code, out = run("generate", "classic", "--size", str(size), "-o", str(path))
    assert code == 0, out
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    fixed = ((size + 1) // 2) ** 2
    assert data["board"]["size"] == size and len(data["tiles"]["fixed"]) == fixed
    assert sum(t["count"] for t in data["tiles"]["loose"]) == size * size - fixed + 1
    assert data["board"]["sliding_lines"] == list(range(1, size, 2))
    assert size * data["board"]["pitch_mm"] + 2 * data["board"]["frame_mm"] <= 378
    ids = [t["id"] for t in data["treasures"]]
    assert len(ids) == len(set(ids))
    _, layout = load_game(str(path))
    checks = static_checks(deal(layout, layout.default_seed))
    assert all(check.ok for check in checks), [c.problems for c in checks if not c.ok]
    for players, cards in data["deal"].items():
        assert cards * int(players) <= len(ids)


def test_completion_offers_games_themes_and_papers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.toml").write_text("", encoding="utf-8")

    def complete(words: str) -> list[str]:
        env = {"COMP_WORDS": words, "COMP_CWORD": str(len(words.split()) - 1), "_BOARDGEN_COMPLETE": "bash_complete"}
        result = CliRunner().invoke(cli, [], env=env, prog_name="boardgen")
        return [line.split(",", 1)[1] for line in result.output.splitlines() if "," in line]

    assert complete("boardgen render cl") == ["classic"]
    assert set(complete("boardgen render classic --theme m")) == {"minoan", "mine.toml"}
    assert sorted(complete("boardgen render classic --paper le")) == ["legal", "letter"]


def test_exported_schemas_carry_help_for_editors() -> None:
    code, out = run("schema", "theme")
    assert code == 0
    theme = json.loads(out)
    for table in ("palette", "fonts", "strokes", "style", "art"):
        assert theme["properties"][table]["description"]
    assert all(spec.get("description") for spec in theme["properties"]["palette"]["properties"].values())
    code, out = run("schema", "game")
    game = json.loads(out)
    undescribed = [key for key, spec in game["properties"].items() if not spec.get("description")]
    assert not undescribed, undescribed


def test_a_copy_keeping_a_bundled_id_is_written_apart(tmp_path: Path) -> None:
    from boardgen.kit import render_kit
    from boardgen.options import KitOptions

    for stem, expected in (("my-copy", "my-copy"), ("classic", "classic-own")):
        folder = tmp_path / stem
        folder.mkdir()
        path = folder / f"{stem}.toml"
        path.write_text('extends = "classic"\n', encoding="utf-8")
        result = render_kit(str(path), tmp_path / "out", KitOptions(previews=False, svg=False, check=False))
        assert result.folder == tmp_path / "out" / expected and result.pdf.name == f"{expected}-a4.pdf"
    assert not (tmp_path / "out" / "classic").exists()


def test_generated_minos_layouts_get_their_own_id(tmp_path: Path) -> None:
    path = tmp_path / "my-minos.toml"
    code, out = run("generate", "minos", "--seed", "5", "-o", str(path))
    assert code == 0, out
    assert tomllib.loads(path.read_text(encoding="utf-8"))["game"]["id"] == "my-minos"


def test_contact_sheet_shows_every_picture(tmp_path: Path) -> None:
    from PIL import Image

    from boardgen.authoring import bundled_pictures

    path = tmp_path / "pictures.png"
    code, out = run("show", "pictures", "--contact-sheet", str(path))
    assert code == 0, out
    names = bundled_pictures()
    rows = -(-len(names) // 6)
    px = 110 / 25.4
    with Image.open(path) as image:
        assert abs(image.width - 6 * 32 * px) <= 2 and abs(image.height - rows * 32 * px) <= 2
        grey = image.convert("L")
        for index in range(len(names)):
            x, y = (index % 6) * 32 * px, (index // 6) * 32 * px
            # The picture's box (20 mm, centred, below the top edge) has ink in it.
            box = grey.crop((int(x + 8 * px), int(y + 4 * px), int(x + 24 * px), int(y + 22 * px)))
            darkest, _ = box.getextrema()
            assert isinstance(darkest, (int, float)) and darkest < 100, names[index]
        # An empty cell after the last picture has none.
        if len(names) % 6:
            x, y = (len(names) % 6) * 32 * px, (rows - 1) * 32 * px
            box = grey.crop((int(x + 8 * px), int(y + 4 * px), int(x + 24 * px), int(y + 22 * px)))
            darkest, _ = box.getextrema()
            assert isinstance(darkest, (int, float)) and darkest > 200


def test_a_layout_brings_its_own_rules_text_and_never_from_outside(tmp_path: Path) -> None:
    import pypdf

    from boardgen.kit import render_kit
    from boardgen.options import KitOptions

    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "x.toml").write_text('extends = "classic"\n\n[game]\nid = "mine"\nrules = "house"\n', encoding="utf-8")
    (folder / "house.en.md").write_text(
        "# House rules\n\n- Deal {deal_2} cards each to two players.\n", encoding="utf-8"
    )
    result = render_kit(
        str(folder / "x.toml"), tmp_path / "out", KitOptions(only=("rules",), previews=False, svg=False, check=False)
    )
    text = "".join(page.extract_text() or "" for page in pypdf.PdfReader(result.pdf).pages)
    assert "House rules" in text and "Deal 12 cards each to two players." in text
    # A name that climbs out of the folder is not looked for beside the layout.
    (tmp_path / "outside.en.md").write_text("# Stolen\n", encoding="utf-8")
    (folder / "y.toml").write_text(
        'extends = "classic"\n\n[game]\nid = "mine2"\nrules = "../outside"\n', encoding="utf-8"
    )
    with pytest.raises(Exception) as caught:
        render_kit(
            str(folder / "y.toml"),
            tmp_path / "out",
            KitOptions(only=("rules",), previews=False, svg=False, check=False),
        )
    assert "Stolen" not in str(caught.value)
    assert isinstance(caught.value, BoardgenError)


def test_a_theme_font_for_labels_is_used_on_the_pieces(tmp_path: Path) -> None:
    import shutil

    from boardgen.data.theme import load_theme
    from boardgen.engines import load_game

    fonts = Path(__file__).parent / "fixtures" / "fonts"
    font = next(fonts.glob("*.ttf"))
    shutil.copy(font, tmp_path / font.name)
    (tmp_path / "t.toml").write_text(
        f'[theme]\nid = "t"\nname = {{ en = "T", fr = "T" }}\nextends = "classic"\n\n[fonts]\nlabels = "{font.name}"\n',
        encoding="utf-8",
    )
    theme = load_theme(str(tmp_path / "t.toml"))
    engine, layout = load_game("classic")
    kit = engine.kit()
    drawings = kit.draw(layout, theme, kit.setup(layout, 1), "en")
    card = next(svg for name, svg in drawings.files().items() if name.startswith("card-") and name != "card-back")
    assert f'font-family="{theme.fonts["labels"]}"' in card
    assert theme.fonts["labels"] != theme.fonts["body"]
