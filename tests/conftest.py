"""Shared fixtures: kits rendered once per session, and the --update-golden flag."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from boardgen.cli import cli
from boardgen.kit import render_kit
from boardgen.options import KitOptions


def pytest_addoption(parser):
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="rewrite the golden files from the current output instead of comparing",
    )


@pytest.fixture(autouse=True)
def own_verdict_cache(tmp_path_factory, monkeypatch):
    """Every test starts with an empty cache and a cache key of its own (never the user's)."""
    monkeypatch.setenv("BOARDGEN_CACHE_DIR", str(tmp_path_factory.mktemp("verdicts")))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state")))
    # Nor the user's own languages: $XDG_DATA_HOME/boardgen/strings and rules.
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))


@pytest.fixture(scope="session")
def five(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A small generated layout (5 x 5, 20 games per player count) whose check is quick."""
    path = tmp_path_factory.mktemp("layout") / "five.toml"
    with pytest.MonkeyPatch.context() as patch:  # never the user's cache, even for a session fixture
        patch.setenv("BOARDGEN_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
        result = CliRunner().invoke(cli, ["generate", "classic", "--size", "5", "-o", str(path), "--tries", "0"])
    assert result.exit_code == 0, result.output
    text = path.read_text(encoding="utf-8")
    assert "games_per_player_count = 200" in text
    path.write_text(text.replace("games_per_player_count = 200", "games_per_player_count = 20"), encoding="utf-8")
    return str(path)


@pytest.fixture
def update_golden(request) -> bool:
    return bool(request.config.getoption("--update-golden"))


@pytest.fixture(scope="session")
def kit_factory(tmp_path_factory):
    """Render a kit once per distinct set of options in this test session: tests that only
    read a kit share it. Options are compared as the KitOptions they make, so a default
    given or left out (theme="classic" or nothing) is the same kit. A test that changes
    the files it is given renders its own."""
    made: dict[tuple[str, KitOptions], tuple[Path, object]] = {}

    def make(game: str = "classic", **options) -> tuple[Path, object]:
        options.setdefault("previews", False)
        # The playability check has its own tests; here only the printed kit matters.
        wanted = KitOptions(**options, check=False)
        key = (game, wanted)
        if key not in made:
            folder = tmp_path_factory.mktemp(f"kit-{game}")
            result = render_kit(game, folder, wanted)
            made[key] = (result.pdf, result)
        return made[key]

    return make
