"""The seeded generator of moving-walls block sets, and `boardgen generate walls`."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from boardgen.checks.walls import static_checks
from boardgen.cli import cli
from boardgen.data.loader import layouts_root, load
from boardgen.engines import get_engine
from boardgen.generate.walls import generate, to_toml
from boardgen.model.walls import build, placement_problems

thresholds = get_engine("walls").thresholds


def test_the_bundled_layout_is_what_its_generator_seed_gives() -> None:
    text = (layouts_root() / "games" / "walls.toml").read_text(encoding="utf-8")
    seed = build(load("game", "walls")).doc.data["board"]["generator_seed"]
    assert to_toml(generate(seed)) == text


def test_every_seed_gives_a_fair_labyrinth(tmp_path: Path) -> None:
    sets = set()
    for seed in range(6):
        path = tmp_path / f"w{seed}.toml"
        path.write_text(to_toml(generate(seed), game_id=f"w{seed}"), encoding="utf-8")
        layout = build(load("game", str(path)))
        assert placement_problems(layout) == []
        assert all(check.ok for check in static_checks(layout, thresholds(layout))), seed
        sets.add(tuple(b.cells for b in layout.blocks))
    assert len(sets) == 6


def test_generate_walls_writes_a_layout_that_loads(tmp_path: Path) -> None:
    out = tmp_path / "mine.toml"
    result = CliRunner().invoke(cli, ["generate", "walls", "--seed", "4", "-o", str(out)])
    assert result.exit_code == 0, result.output
    layout = build(load("game", str(out)))
    assert layout.id == "mine" and len(layout.blocks) == 32
    refused = CliRunner().invoke(cli, ["generate", "walls", "--size", "9", "-o", str(out)])
    assert refused.exit_code == 2 and "21" in refused.output
