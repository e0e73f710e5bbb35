"""Every board size `boardgen generate` accepts passes the check with seed 1, and the
messages name the sizes it accepts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from boardgen.cli import cli


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


@pytest.mark.parametrize("size", ["4", "8", "15"])
def test_a_size_out_of_range_names_the_range(tmp_path: Path, size: str) -> None:
    code, out = run("generate", "classic", "--size", size, "-o", str(tmp_path / "x.toml"))
    assert code == 2 and "odd sizes from 5 to 13" in out, out
    assert not (tmp_path / "x.toml").exists()


@pytest.mark.parametrize("game", ["classic", "master"])
def test_the_largest_generated_board_passes_the_whole_check(tmp_path: Path, game: str) -> None:
    """13 x 13 with seed 1: the solver settles every start/target pair (some need four
    turns, beyond three full layers of pushes) and self-play passes. The slowest test of
    this file: the whole check, once per game."""
    path = tmp_path / f"{game}13.toml"
    code, out = run("generate", game, "--size", "13", "--seed", "1", "-o", str(path), "--tries", "0")
    assert code == 0, out
    code, out = run("validate", str(path), "--json")
    report = json.loads(out)
    assert code == 0 and report["playable"], report["reasons"]
    reach = report["stats"]["turns_to_target"]
    assert "unreached" not in reach and sum(reach.values()) == 4 * len(_targets(path, game))


def _targets(path: Path, game: str) -> list[str]:
    import tomllib

    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return [t["id"] for t in data["treasures" if game == "classic" else "objects"]]
