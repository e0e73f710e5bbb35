"""`boardgen generate` takes its games and sizes from the generator table: every game listed
there has the command, makes a layout that loads with its engine, and sizes it does not make
are refused with the sizes it does."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from boardgen.cli import cli
from boardgen.engines import load_game
from boardgen.generate import GENERATORS


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


def test_the_command_offers_exactly_the_games_with_a_generator() -> None:
    code, out = run("generate", "--help")
    assert code == 0
    assert "{classic|master|minos|walls|grand}" in out
    assert set(GENERATORS) == {"classic", "master", "minos", "walls", "grand"}


@pytest.mark.parametrize("game", sorted(GENERATORS))
def test_each_game_generates_a_layout_its_engine_builds(tmp_path: Path, game: str) -> None:
    path = tmp_path / f"made-{game}.toml"
    code, out = run("generate", game, "--seed", "3", "-o", str(path), "--tries", "0")
    assert code == 0, out
    engine, layout = load_game(str(path))
    assert engine.name == GENERATORS[game].engine
    assert layout.id == f"made-{game}"
    assert f"({GENERATORS[game].default_size}x{GENERATORS[game].default_size})" in out


@pytest.mark.parametrize(
    ("game", "size", "sizes"),
    [
        ("classic", 8, "odd sizes from 5 to 13"),
        ("classic", 15, "odd sizes from 5 to 13"),
        ("master", 4, "odd sizes from 5 to 13"),
        ("minos", 13, "9 or 11"),
        ("walls", 19, "21"),
        ("grand", 11, "13"),
    ],
)
def test_a_size_the_game_does_not_make_names_the_sizes_it_does(
    tmp_path: Path, game: str, size: int, sizes: str
) -> None:
    path = tmp_path / "x.toml"
    code, out = run("generate", game, "--size", str(size), "-o", str(path))
    assert code == 2
    assert f"{game} boards are made in {sizes} squares a side, not {size}" in out
    assert not path.exists()


def test_the_largest_sliding_size_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "c13.toml"
    code, out = run("generate", "classic", "--size", "13", "-o", str(path), "--tries", "0")
    assert code == 0, out
    assert load_game(str(path))[1].size == 13


def test_a_file_name_with_underscores_gives_a_valid_layout_id(tmp_path: Path) -> None:
    path = tmp_path / "Master_Five.toml"
    code, out = run("generate", "master", "--size", "5", "-o", str(path), "--tries", "0")
    assert code == 0, out
    assert load_game(str(path))[1].id == "master-five"


@pytest.mark.parametrize("size", [5, 9])
def test_generate_writes_a_starting_layout_that_passes_its_check_and_says_so(tmp_path: Path, size: int) -> None:
    from boardgen.checks.harness import check

    unchecked, checked = tmp_path / "raw" / "board.toml", tmp_path / "board.toml"
    unchecked.parent.mkdir()
    assert run("generate", "classic", "--size", str(size), "-o", str(unchecked), "--tries", "0")[0] == 0
    code, out = run("generate", "classic", "--size", str(size), "-o", str(checked))
    assert code == 0, out
    engine, layout = load_game(str(checked))
    assert (
        f"its starting layout for default_seed = 1 fails the check, so default_seed = {layout.default_seed}, the "
        "nearest that passes, is written" in out
    )
    assert check(engine, layout, layout.default_seed).playable
    # Nothing else differs from the unchecked layout.
    assert checked.read_text(encoding="utf-8") == unchecked.read_text(encoding="utf-8").replace(
        "default_seed = 1\n", f"default_seed = {layout.default_seed}\n", 1
    )
