"""Data files through the loader and the model: every problem found, each with its file, key and line.

The negative layouts and themes live in tests/fixtures/bad/; most `extends = "classic"` and
change only what they break (tables merge deeply, arrays replace).
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from click.testing import CliRunner

from boardgen.cli import cli
from boardgen.data.loader import bundled_names, load
from boardgen.data.theme import load_theme
from boardgen.engines import load_game
from boardgen.errors import DataError, Problem
from boardgen.model import sliding
from boardgen.options import KitOptions, svg_folder
from boardgen.render import art

BAD = Path(__file__).parent / "fixtures" / "bad"


def problems(call, *args) -> list[Problem]:
    """The problems of the DataError that call(*args) raises."""
    with pytest.raises(DataError) as caught:
        call(*args)
    found = caught.value.problems
    assert found, "a DataError must list at least one problem"
    return found


def only(found: list[Problem]) -> Problem:
    assert len(found) == 1, "\n".join(map(str, found))
    return found[0]


def theme_file(folder: Path, *, art_lines: str = "", extends: str = "classic", id: str = "mine") -> Path:
    path = folder / f"{id}.toml"
    path.write_text(
        f'[theme]\nid = "{id}"\nname = {{ en = "Mine", fr = "Le mien" }}\nextends = "{extends}"\n\n[art]\n{art_lines}',
        encoding="utf-8",
    )
    return path


# The bundled data is clean ------------------------------------------------------------------


def test_bundled_classic_game_loads_and_builds():
    layout = sliding.build(load("game", "classic"))
    assert layout.id == "classic"
    assert len(layout.loose) == 34
    assert len(layout.treasures) == 24


@pytest.mark.parametrize("name", bundled_names("theme"))
def test_bundled_themes_load(name):
    theme = load_theme(name)
    assert theme.id == name


# Syntax, types, unknown keys -------------------------------------------------------------------


def test_broken_toml_names_the_file_and_the_line():
    path = BAD / "broken_syntax.toml"
    problem = only(problems(load, "game", str(path)))
    assert problem.file == str(path)
    assert problem.line == 5
    assert problem.message.startswith("invalid TOML")
    assert str(problem).startswith(f"{path}:5: invalid TOML")


def test_wrong_type_names_the_key_path_line_and_expected_type():
    path = BAD / "size_not_integer.toml"
    problem = only(problems(load, "game", str(path)))
    assert (problem.file, problem.key, problem.line) == (str(path), "board.size", 5)
    assert "expected integer" in problem.message
    assert "'seven'" in problem.message
    assert str(problem) == f"{path}:5: board.size: {problem.message}"


def test_unknown_key_suggests_the_known_one():
    path = BAD / "size_typo.toml"
    problem = only(problems(load, "game", str(path)))
    assert (problem.key, problem.line) == ("board.sise", 5)
    assert problem.message == "unknown key 'sise' (did you mean 'size'?)"


def test_every_problem_is_reported_at_once():
    path = BAD / "three_problems.toml"
    found = problems(load, "game", str(path))
    assert len(found) == 3, "\n".join(map(str, found))
    by_key = {p.key: p for p in found}
    assert set(by_key) == {"board.sise", "board.pitch_mm", "cards.bleed"}
    assert by_key["board.sise"].line == 5
    assert "did you mean 'size'?" in by_key["board.sise"].message
    assert by_key["board.pitch_mm"].line == 6
    assert "expected number" in by_key["board.pitch_mm"].message
    assert by_key["cards.bleed"].line == 9
    assert "did you mean 'bleed_mm'?" in by_key["cards.bleed"].message
    # The error's own text lists all three, one per line.
    with pytest.raises(DataError) as caught:
        load("game", str(path))
    text = caught.value.format()
    assert text.startswith("3 problems in the data:\n")
    assert all(str(p) in text for p in found)


def test_missing_required_keys_are_all_listed(tmp_path):
    path = tmp_path / "bare.toml"
    path.write_text('[game]\nid = "bare"\n', encoding="utf-8")
    found = problems(load, "game", str(path))
    missing = {p.message for p in found}
    for key in ("board", "shapes", "tiles", "treasures", "deal", "engine", "title", "players"):
        assert f"missing key {key!r}" in missing


def test_file_that_is_not_utf8(tmp_path):
    path = tmp_path / "latin1.toml"
    path.write_bytes('extends = "classic"\n[game]\ntitle = { en = "Caf\xe9", fr = "Caf\xe9" }\n'.encode("latin-1"))
    problem = only(problems(load, "game", str(path)))
    assert problem.file == str(path)
    assert "not UTF-8" in problem.message


# extends -------------------------------------------------------------------------------------


def test_extends_merges_tables_deeply_and_replaces_arrays(tmp_path):
    path = tmp_path / "child.toml"
    path.write_text('extends = "classic"\n\n[board]\npitch_mm = 35\nsliding_lines = [3]\n', encoding="utf-8")
    doc = load("game", str(path))
    classic = load("game", "classic").data
    assert doc.data["board"]["pitch_mm"] == 35
    assert doc.data["board"]["size"] == classic["board"]["size"]  # kept from the parent table
    assert doc.data["board"]["starts"] == classic["board"]["starts"]
    assert doc.data["board"]["sliding_lines"] == [3]  # arrays replace, never concatenate
    assert doc.data["treasures"] == classic["treasures"]
    assert doc.path == str(path)
    assert doc.where("board", "pitch_mm") == (str(path), "board.pitch_mm", 4)


def test_circular_extends_is_a_data_error():
    problem = only(problems(load, "game", str(BAD / "circular_a.toml")))
    assert problem.key == "extends"
    assert "circular extends" in problem.message


def test_unknown_parent_is_named_with_a_suggestion(tmp_path):
    path = tmp_path / "child.toml"
    path.write_text('extends = "clasic"\n', encoding="utf-8")
    problem = only(problems(load, "game", str(path)))
    # The child file, key and line that name the parent, so the user knows what to edit.
    assert (problem.file, problem.key, problem.line) == (str(path), "extends", 1)
    assert "unknown game 'clasic' (did you mean 'classic'?)" in problem.message


@pytest.mark.parametrize("name", ["x" * 5000, "x" * 5000 + ".toml", "a/" + "x" * 5000 + ".toml"])
def test_a_parent_name_too_long_for_the_system_is_a_message_not_a_traceback(tmp_path, name):
    """The file system refuses to look a name this long up (ENAMETOOLONG, which
    `Path.is_file` raises): said so, with the child's key and line, as for any unknown parent."""
    path = tmp_path / "child.toml"
    path.write_text(f'[theme]\nid = "mine"\nextends = "{name}"\n', encoding="utf-8")
    problem = only(problems(load_theme, str(path)))
    assert (problem.file, problem.key, problem.line) == (str(path), "theme.extends", 3)
    assert "theme file name too long" in problem.message
    assert "5,0" in problem.message  # the name is shortened, its length given


def test_bundled_name_wins_over_a_folder_of_the_same_name_in_cwd(tmp_path, monkeypatch):
    (tmp_path / "classic").mkdir()  # what `boardgen render -o .` leaves behind
    monkeypatch.chdir(tmp_path)
    assert load("game", "classic").data["game"]["id"] == "classic"
    assert load_theme("classic").id == "classic"


# Model consistency -----------------------------------------------------------------------------


def test_treasure_declared_but_on_no_tile():
    path = BAD / "treasure_on_no_tile.toml"
    problem = only(problems(load_game, str(path)))
    assert problem.message == "treasure 'bat' is on no tile"
    classic_ids = [t["id"] for t in load("game", "classic").data["treasures"]]
    assert problem.key == f"treasures[{classic_ids.index('bat')}].id"
    assert problem.file == str(path)


def test_treasure_placed_on_two_tiles():
    path = BAD / "treasure_placed_twice.toml"
    messages = [p.message for p in problems(load_game, str(path))]
    assert "treasure 'book' is already on fixed tile [0, 2]" in messages
    assert "treasure 'bat' is on no tile" in messages


def test_treasure_declared_twice():
    doc = load("game", "classic")
    doc.data = copy.deepcopy(doc.data)
    doc.data["treasures"].append({"id": "book", "name": {"en": "Another book", "fr": "Un autre livre"}})
    found = problems(sliding.build, doc)
    duplicate = [p for p in found if p.message == "duplicate treasure 'book'"]
    assert len(duplicate) == 1
    assert duplicate[0].key == f"treasures[{len(doc.data['treasures']) - 1}].id"


def test_wrong_loose_tile_inventory():
    path = BAD / "wrong_inventory.toml"
    problem = only(problems(load_game, str(path)))
    assert problem.key == "tiles.loose"
    assert problem.message.startswith("expected 34 loose tiles")
    assert problem.message.endswith("got 33")
    assert problem.line == 4  # the first [[tiles.loose]] of the fixture


def test_model_problems_are_collected_together(tmp_path):
    path = tmp_path / "even.toml"
    path.write_text('extends = "classic"\n\n[board]\nsize = 8\n', encoding="utf-8")
    found = problems(load_game, str(path))
    messages = [p.message for p in found]
    assert "expected an odd size, got 8" in messages
    assert any(m.startswith("expected 49 loose tiles") for m in messages)
    size = next(p for p in found if p.key == "board.size")
    assert size.line == 4


# Themes ---------------------------------------------------------------------------------------


def test_theme_with_an_unknown_palette_key():
    path = BAD / "theme_palette_typo.toml"
    problem = only(problems(load_theme, str(path)))
    assert (problem.file, problem.key, problem.line) == (str(path), "palette.flor", 8)
    assert problem.message == "unknown key 'flor' (did you mean 'floor'?)"


def test_ink_saver_inherits_what_it_does_not_override():
    classic, ink = load_theme("classic"), load_theme("ink-saver")
    assert ink.id == "ink-saver"
    assert ink.strokes == classic.strokes
    assert ink.strokes["crop_mark"] == 0.2
    assert ink.fonts == classic.fonts
    assert ink.palette["players"] == classic.palette["players"]
    assert ink.palette["ink"] == classic.palette["ink"]
    # ... and overrides what it names.
    assert ink.palette["floor"] == "#ffffff" != classic.palette["floor"]
    assert ink.style["fill_walls"] is False and classic.style["fill_walls"] is True
    assert ink.style["corridor_width"] == classic.style["corridor_width"]


def test_user_theme_chain_of_three(tmp_path):
    middle = theme_file(tmp_path, id="middle", extends="ink-saver")
    with middle.open("a", encoding="utf-8") as out:
        out.write("\n[strokes]\ncut_line = 0.3\n")
    child = theme_file(tmp_path, id="child", extends="middle.toml")
    theme = load_theme(str(child))
    assert theme.id == "child"
    assert theme.strokes["cut_line"] == 0.3  # from middle
    assert theme.palette["floor"] == "#ffffff"  # from ink-saver
    assert theme.strokes["tile_edge"] == load_theme("classic").strokes["tile_edge"]  # from classic


def test_user_theme_picture_that_does_not_exist(tmp_path):
    path = theme_file(tmp_path, art_lines='book = "mine.svg"\n')
    # Reported when the theme is loaded, with its other problems, before any expensive work.
    problem = only(problems(load_theme, str(path)))
    assert problem.file == str(path)
    assert problem.key == "art.book"
    assert problem.line == 7
    assert "picture file not found" in problem.message
    assert str(tmp_path / "mine.svg") in problem.message


def test_user_theme_picture_of_an_unsupported_type(tmp_path):
    (tmp_path / "mine.gif").write_bytes(b"GIF89a")
    problem = only(problems(load_theme, str(theme_file(tmp_path, art_lines='book = "mine.gif"\n'))))
    assert problem.key == "art.book"
    assert "unsupported picture type '.gif'" in problem.message


def test_user_theme_picture_that_is_not_an_svg(tmp_path):
    (tmp_path / "mine.svg").write_text("<html>not a picture</html>", encoding="utf-8")
    problem = only(problems(load_theme, str(theme_file(tmp_path, art_lines='book = "mine.svg"\n'))))
    assert problem.key == "art.book"
    assert "mine.svg is not an SVG document" in problem.message


def test_picture_named_by_a_parent_theme_is_relative_to_the_parent(tmp_path):
    parent_dir, child_dir = tmp_path / "parent", tmp_path / "child"
    parent_dir.mkdir()
    child_dir.mkdir()
    (parent_dir / "book.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><rect width="4" height="4"/></svg>', encoding="utf-8"
    )
    theme_file(parent_dir, id="parent", art_lines='book = "book.svg"\n')
    child = theme_file(child_dir, id="child", extends="../parent/parent.toml")
    theme = load_theme(str(child))
    assert theme.art["book"] == (parent_dir / "book.svg").resolve()
    assert art.picture(theme, "book").viewbox == (0.0, 0.0, 4.0, 4.0)


def test_user_svg_and_png_pictures_replace_bundled_ones(tmp_path):
    """One render: `book` drawn from the user's SVG, `purse` from the user's PNG."""
    from PIL import Image

    marker = "M1 1 L9 1 L5 9 Z"
    (tmp_path / "mine.svg").write_text(
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="{marker}" fill="#123456"/>'
        "<script>alert(1)</script></svg>",
        encoding="utf-8",
    )
    Image.new("RGB", (6, 4), (200, 30, 30)).save(tmp_path / "mine.png")
    path = theme_file(tmp_path, art_lines='book = "mine.svg"\npurse = "mine.png"\n')
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["render", "--theme", str(path), "-o", str(out), "--no-preview", "--no-check"])
    assert result.exit_code == 0, result.output
    svg = out / "classic" / svg_folder(KitOptions(theme=str(path)))  # a theme's drawings: a folder of their own
    book = (svg / "card-book.svg").read_text(encoding="utf-8")
    assert marker in book
    assert "#123456" in book  # a user's picture keeps its own colours
    assert "<script" not in book  # only shapes are copied
    purse = (svg / "card-purse.svg").read_text(encoding="utf-8")
    assert "<image" in purse
    assert "data:image/png;base64," in purse
    # Other treasures keep their pictures.
    assert marker not in (svg / "card-crown.svg").read_text(encoding="utf-8")
    assert (out / "classic" / f"classic-a4-{path.stem}.pdf").stat().st_size > 0  # the theme is in the name
