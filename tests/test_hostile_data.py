"""Hostile layouts and themes: every one is a DataError naming file, key and line, never a
traceback, a hang or a file read from outside. The files live in tests/fixtures/hostile/;
those that need symlinks or sizes are made in a temporary folder.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from boardgen.data.loader import MAX_EXTENDS, MAX_FILE_BYTES, MAX_NESTING
from boardgen.data.theme import load_theme
from boardgen.engines import load_game
from boardgen.errors import MESSAGE_CHARS, DataError, Problem

HOSTILE = Path(__file__).parent / "fixtures" / "hostile"


def problems_of(call, *args) -> list[Problem]:
    started = time.perf_counter()
    with pytest.raises(DataError) as caught:
        call(*args)
    # Refused up front, not after building a billion tiles (a loose generous bound, not a timing test).
    assert time.perf_counter() - started < 120
    assert caught.value.problems
    for problem in caught.value.problems:
        assert len(str(problem)) < 2 * MESSAGE_CHARS, str(problem)[:300]
    return caught.value.problems


def one(call, *args) -> Problem:
    found = problems_of(call, *args)
    assert len(found) == 1, "\n".join(map(str, found))
    return found[0]


def fixture(name: str) -> str:
    return str(HOSTILE / name)


# Numbers ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, key, line, written",
    [
        ("count_float.toml", "board.size", 5, "7.0"),
        ("loose_count_float.toml", "tiles.loose[0].count", 5, "12.0"),
    ],
)
def test_whole_number_written_as_a_float_is_refused(name, key, line, written):
    problem = one(load_game, fixture(name))
    assert (problem.file, problem.key) == (fixture(name), key)
    # An element of an inline array written over several lines points at its own line.
    assert problem.line == line
    assert f"expected integer (a whole number), got {written}" in problem.message


def test_nan_and_inf_are_refused_with_their_lines():
    found = problems_of(load_game, fixture("pitch_nan.toml"))
    assert [(p.key, p.line) for p in found] == [("board.pitch_mm", 4), ("board.frame_mm", 5)]
    assert "expected a finite number, got nan" in found[0].message
    assert "got inf" in found[1].message


def test_nan_in_a_theme_is_refused():
    found = problems_of(load_theme, fixture("theme_stroke_inf.toml"))
    assert [(p.key, p.line) for p in found] == [("strokes.tile_edge", 7), ("style.art_size", 10)]


@pytest.mark.parametrize(
    "name, key, bound",
    [
        ("count_huge.toml", "tiles.loose[0].count", "maximum 225"),
        ("field_digits.toml", "jumps[0].to", "maximum 999"),
    ],
)
def test_counts_and_field_numbers_have_a_ceiling(name, key, bound):
    problem = one(load_game, fixture(name))
    assert problem.key == key
    assert bound in problem.message


def test_field_number_as_a_key_has_a_ceiling():
    problem = one(load_game, fixture("field_huge.toml"))
    assert (problem.key, problem.line) == ("fields.99999999999", 4)
    assert "a field number, 1 to 999" in problem.message


def test_number_of_thousands_of_digits():
    problem = one(load_game, fixture("digits.toml"))
    assert problem.line == 4
    assert "thousands of digits" in problem.message
    assert "9999999999" not in str(problem)  # not echoed


# Structure and encoding ------------------------------------------------------------------------


def test_nesting_a_thousand_deep():
    problem = one(load_game, fixture("deep.toml"))
    assert problem.line == 3
    assert f"nested more than {MAX_NESTING} deep" in problem.message


def test_nesting_just_over_the_limit_that_toml_accepts(tmp_path):
    path = tmp_path / "nested.toml"
    path.write_text(
        'extends = "classic"\nx = ' + "[" * (MAX_NESTING + 2) + "]" * (MAX_NESTING + 2) + "\n", encoding="utf-8"
    )
    problem = one(load_game, str(path))
    assert problem.line == 2
    assert "nested more than" in problem.message


def test_not_utf8_names_the_line_and_column():
    problem = one(load_game, fixture("latin1.toml"))
    assert problem.line == 3
    assert "not UTF-8" in problem.message and "0xe9" in problem.message


def test_file_too_large(tmp_path):
    path = tmp_path / "big.toml"
    path.write_text('extends = "classic"\n' + "# padding\n" * (MAX_FILE_BYTES // 10 + 1), encoding="utf-8")
    problem = one(load_game, str(path))
    assert "larger than 1024 KiB" in problem.message


def test_a_long_value_is_shortened_in_the_message(tmp_path):
    path = tmp_path / "long.toml"
    path.write_text(
        'extends = "classic"\n[game]\ntitle = { en = "' + "x" * 900_000 + '", fr = "y" }\n', encoding="utf-8"
    )
    found = problems_of(load_game, str(path))
    text = DataError(found).format()
    assert len(text) < 1000
    assert "title.en" in text


def test_bom_is_accepted(tmp_path):
    path = tmp_path / "bom.toml"
    path.write_bytes(b'\xef\xbb\xbfextends = "classic"\n')
    assert load_game(str(path))[1].id == "classic"


def test_nul_inside_a_string(tmp_path):
    path = tmp_path / "nul.toml"
    path.write_text('extends = "classic"\n[game]\nrules = "classic\\u0000x"\n', encoding="utf-8")
    problem = one(load_game, str(path))
    assert (problem.key, problem.line) == ("game.rules", 3)
    assert "NUL" in problem.message


def test_theme_key_that_is_a_number_in_a_game_file():
    problem = one(load_game, fixture("theme_is_a_number.toml"))
    assert (problem.key, problem.line) == ("theme", 2)


# Root cause first ---------------------------------------------------------------------------------


def test_misspelt_engine_is_the_only_problem():
    problem = one(load_game, fixture("engine_typo.toml"))
    assert (problem.key, problem.line) == ("game.engine", 5)
    assert "unknown engine 'mino' (did you mean 'minos'?)" in problem.message


def test_problems_are_listed_in_file_order(tmp_path):
    path = tmp_path / "order.toml"
    path.write_text(
        'extends = "classic"\n[board]\nsize = 7.5\n[cards]\nbleed_mm = -1\n[game]\ndefault_seed = -2\n',
        encoding="utf-8",
    )
    found = problems_of(load_game, str(path))
    assert [p.line for p in found] == [3, 5, 7]


# extends -------------------------------------------------------------------------------------------


def test_extends_chain_longer_than_the_limit(tmp_path):
    (tmp_path / "f0.toml").write_text('extends = "classic"\n', encoding="utf-8")
    for i in range(1, MAX_EXTENDS + 2):
        (tmp_path / f"f{i}.toml").write_text(f'extends = "f{i - 1}.toml"\n', encoding="utf-8")
    problem = one(load_game, str(tmp_path / f"f{MAX_EXTENDS + 1}.toml"))
    assert (problem.key, problem.line) == ("extends", 1)
    assert f"more than {MAX_EXTENDS} files" in problem.message
    # A chain within the limit is fine.
    assert load_game(str(tmp_path / f"f{MAX_EXTENDS - 2}.toml"))[1].id == "classic"


def test_extends_loop_names_the_chain(tmp_path):
    (tmp_path / "a.toml").write_text('# a\nextends = "b.toml"\n', encoding="utf-8")
    (tmp_path / "b.toml").write_text('extends = "a.toml"\n', encoding="utf-8")
    problem = one(load_game, str(tmp_path / "a.toml"))
    assert problem.key == "extends"
    assert problem.file == str(tmp_path / "b.toml") and problem.line == 1
    assert "circular extends" in problem.message and "a.toml -> " in problem.message


def test_extends_a_symlink_loop(tmp_path):
    os.symlink(tmp_path / "loop.toml", tmp_path / "loop.toml")
    (tmp_path / "child.toml").write_text('extends = "loop.toml"\n', encoding="utf-8")
    problem = one(load_game, str(tmp_path / "child.toml"))
    assert (problem.key, problem.line) == ("extends", 1)
    assert "not found" in problem.message


# Paths stay inside the layout's folder or the bundled data ------------------------------------------


@pytest.mark.parametrize(
    "name, key, line",
    [
        ("rules_absolute.toml", "game.rules", 4),
        ("rules_dotdot.toml", "game.rules", 4),
        ("art_outside.toml", "treasures[0].art", 6),
    ],
)
def test_layout_path_leaving_its_folder(name, key, line):
    problem = one(load_game, fixture(name))
    assert (problem.file, problem.key, problem.line) == (fixture(name), key, line)
    assert "leads outside" in problem.message


def test_theme_pictures_leaving_its_folder():
    found = problems_of(load_theme, fixture("theme_art_outside.toml"))
    assert [(p.key, p.line) for p in found] == [("art.book", 7), ("art.purse", 8)]
    assert all("leads outside" in p.message for p in found)


def test_symlink_inside_the_folder_pointing_outside(tmp_path):
    outside = tmp_path / "outside"
    inside = tmp_path / "theme"
    outside.mkdir()
    inside.mkdir()
    (outside / "secret.svg").write_text("<svg/>", encoding="utf-8")
    os.symlink(outside / "secret.svg", inside / "book.svg")
    (inside / "t.toml").write_text(
        '[theme]\nid = "t"\nname = { en = "T", fr = "T" }\nextends = "classic"\n[art]\nbook = "book.svg"\n',
        encoding="utf-8",
    )
    problem = one(load_theme, str(inside / "t.toml"))
    assert (problem.key, problem.line) == ("art.book", 6)
    assert "leads outside" in problem.message


def test_picture_that_is_a_symlink_loop(tmp_path):
    os.symlink(tmp_path / "loop.svg", tmp_path / "loop.svg")
    (tmp_path / "t.toml").write_text(
        '[theme]\nid = "t"\nname = { en = "T", fr = "T" }\nextends = "classic"\n[art]\nbook = "loop.svg"\n',
        encoding="utf-8",
    )
    problem = one(load_theme, str(tmp_path / "t.toml"))
    assert (problem.key, problem.line) == ("art.book", 6)
    assert "symlink loop" in problem.message


def test_paths_inside_are_accepted(tmp_path):
    (tmp_path / "pics").mkdir()
    # The picture must exist: a theme's files are read (and checked) when it is loaded.
    (tmp_path / "pics" / "book.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><rect width="4" height="4"/></svg>', encoding="utf-8"
    )
    (tmp_path / "t.toml").write_text(
        '[theme]\nid = "t"\nname = { en = "T", fr = "T" }\nextends = "classic"\n[art]\nbook = "pics/book.svg"\n',
        encoding="utf-8",
    )
    theme = load_theme(str(tmp_path / "t.toml"))
    assert theme.art["book"] == (tmp_path / "pics" / "book.svg").resolve()
    # A bundled rules text named by a user layout is inside the bundled data.
    (tmp_path / "g.toml").write_text('extends = "classic"\n[game]\nrules = "master"\n', encoding="utf-8")
    assert load_game(str(tmp_path / "g.toml"))[1].rules == "master"


def test_theme_that_extends_nothing_must_give_every_key():
    found = problems_of(load_theme, fixture("theme_incomplete.toml"))
    assert [(p.key, p.line) for p in found][:1] == [("palette", 7)]
    assert {p.key for p in found} == {"palette", "fonts", "strokes", "style"}
    assert "'frame'" in found[0].message and "'paper'" not in found[0].message
    assert 'extends = "classic"' in found[0].message
