"""Errors name the obvious cause: the kind of file given, a file in the current folder, the
paper's unit, every problem of a theme at once."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from boardgen.cli import cli
from boardgen.data.loader import resolve
from boardgen.errors import UsageError
from boardgen.options import paper


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


@pytest.fixture
def my_files(tmp_path, monkeypatch):
    """A theme and a game written by `boardgen new` into the current folder."""
    monkeypatch.chdir(tmp_path)
    assert run("new", "theme", "dusk").exit_code == 0
    assert run("new", "game", "my-maze", "--from", "classic").exit_code == 0
    return tmp_path


def test_a_theme_given_as_a_game_says_it_is_a_theme(my_files):
    result = run("render", "dusk.toml", "-o", "out")
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 2  # one problem, not one per key of the theme
    assert (
        "dusk.toml:6: this file is a theme (it has a [theme] table), not a game: give it with --theme" in result.stderr
    )


def test_a_game_given_as_a_theme_says_it_is_a_game(my_files):
    result = run("render", "classic", "--theme", "my-maze.toml", "-o", "out")
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 2
    assert (
        "this file is a game layout (it has a [game] table), not a theme: give it as the game, "
        "e.g. `boardgen render my-maze.toml`" in result.stderr
    )


def test_a_bare_name_finds_the_toml_file_in_the_current_folder(my_files):
    assert resolve("theme", "dusk").name == "dusk.toml"
    assert resolve("game", "my-maze").resolve() == (my_files / "my-maze.toml").resolve()
    assert resolve("game", "classic").parent.name == "games"  # a bundled name comes first
    with pytest.raises(UsageError, match=r"unknown theme 'dsuk' \(did you mean the file 'dusk.toml'\?\)"):
        resolve("theme", "dsuk")
    result = run("render", "classic", "--theme", "dusk", "--no-check", "--only", "cover", "-o", "out")
    assert result.exit_code == 0, result.output
    assert "classic-a4-dusk-only-cover.pdf" in result.stdout


@pytest.mark.parametrize(
    "spec, w, h",
    [
        ("210x297mm", 210.0, 297.0),
        ("8.5x11in", 215.9, 279.4),
        ("21x29.7cm", 210.0, 297.0),
        ("210 x 297", 210.0, 297.0),
        ("8.5in x 11in", 215.9, 279.4),
    ],
)
def test_paper_sizes_take_units(spec, w, h):
    found = paper(spec)
    assert (found.w, found.h) == (w, h)


@pytest.mark.parametrize(
    "spec, said",
    [
        (
            "8.5x11",
            "paper '8.5x11' is 8.5 x 11 mm, too small (at least 80 mm a side): sizes without a unit are "
            "millimetres. In inches write 8.5x11in (or letter, 8.5 x 11 in); A4 is a4",
        ),
        ("8.5inx11cm", "paper '8.5inx11cm' mixes units; write both sides in one, e.g. 210x297mm or 8.5x11in"),
        ("a5", "unknown paper 'a5'; use a4, letter, a3, legal or tabloid, or WxH with a unit: 210x297mm, 8.5x11in"),
        ("3x3in", "paper '3x3in' is 76.2 x 76.2 mm, too small (at least 80 mm a side); a4 and letter are named sizes"),
    ],
)
def test_paper_messages_name_the_unit_and_the_named_sizes(spec, said):
    with pytest.raises(UsageError) as caught:
        paper(spec)
    assert str(caught.value).startswith(said)


def test_every_problem_of_a_theme_at_once(tmp_path):
    theme = tmp_path / "two.toml"
    theme.write_text(
        '[theme]\nid = "two"\nname = { en = "Two" }\nextends = "classic"\n\n[palette]\n'
        'flor = "#fff"\nink = "bleu"\n\n[fonts]\ntitle = "../Outside.ttf"\n'
        'body = "fonts/Missing.ttf"\nlabels = "DejaVu Sanz"\n',
        encoding="utf-8",
    )
    result = run("render", "classic", "--theme", str(theme), "-o", str(tmp_path / "out"))
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert lines[0] == "boardgen: error: 5 problems in the data:"
    assert [line.split(": ")[1] for line in lines[1:]] == [
        "palette.flor",
        "palette.ink",
        "fonts.title",
        "fonts.body",
        "fonts.labels",
    ]
    assert "leads outside this file's folder" in lines[3] and "Missing.ttf not found" in lines[4]


def test_new_game_points_at_nothing_the_user_lacks_and_show_names_no_package_path(my_files):
    text = (my_files / "my-maze.toml").read_text(encoding="utf-8")
    assert "shared/" not in text and "# The sliding-corridor Labyrinth." in text
    shown = run("show", "classic").stdout
    assert "site-packages" not in shown and "layouts/games" not in shown
    assert (
        "file:    bundled with boardgen (an editable copy in this folder: "
        "`boardgen new game my-classic --from classic`)" in shown
    )
    assert "languages: en, de, fr" in shown
    mine = run("show", "my-maze.toml").stdout
    assert "file:    my-maze.toml" in mine


def test_every_missing_glyph_of_every_font_at_once(tmp_path):
    layout = tmp_path / "cjk.toml"
    layout.write_text(
        'extends = "classic"\n[game]\nid = "cjk"\nengine = "sliding"\n'
        'title = { en = "迷宫 maze" }\nplayers = { min = 2, max = 4 }\nrules = "house"\n',
        encoding="utf-8",
    )
    (tmp_path / "house.en.md").write_text("# Goal\n- 规则 find the treasures\n", encoding="utf-8")
    result = run("render", str(layout), "-o", str(tmp_path / "out"), "--no-check")
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert lines[0] == "boardgen: error: 2 problems in the data:"
    assert lines[1].endswith(
        f"fonts.title: font 'DejaVu Serif' has no glyph for '宫' (U+5BAB), '迷' (U+8FF7), "
        f"used in {layout}:5: game.title ('迷宫 maze')"
    )
    assert lines[2].endswith(
        "fonts.body: font 'DejaVu Sans' has no glyph for '则' (U+5219), '规' (U+89C4), "
        "used in the rules text (house.en.md)"
    )
    assert not (tmp_path / "out").exists()


def test_show_takes_a_bare_name_of_a_file_here_as_what_it_is(my_files):
    theme = run("show", "dusk")
    assert theme.exit_code == 0, theme.output
    assert theme.stdout.splitlines()[1] == "  file: dusk.toml" and "[palette]" in theme.stdout
    game = run("show", "my-maze")
    assert game.exit_code == 0 and "  file:    my-maze.toml" in game.stdout
