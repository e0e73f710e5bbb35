"""Shared fixtures: kits rendered once per session, and the --update-golden flag."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
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


@pytest.fixture(scope="session", autouse=True)
def session_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """One cache, with its own key, for what the session's and modules' fixtures render (never
    the user's): they are set up before any test's own empty cache below. A piece drawn or
    converted for one kit is reused by the next kit of the same game, as for a user rendering
    variants; a kit from the cache is byte for byte the one drawn afresh (test_drawing_cache)."""
    env = {
        "BOARDGEN_CACHE_DIR": str(tmp_path_factory.mktemp("session-cache")),
        "XDG_STATE_HOME": str(tmp_path_factory.mktemp("session-state")),  # where the cache's key is
        "XDG_DATA_HOME": str(tmp_path_factory.mktemp("session-data")),
    }
    with pytest.MonkeyPatch.context() as patch:
        for name, value in env.items():
            patch.setenv(name, value)
        yield env


@pytest.fixture
def warm_cache(session_cache: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The session's cache for a test that renders unchecked kits of its own and tests no
    cache: it starts with the pieces other kits drew. (Not for a checked render: a module's
    fixture may have left a verdict in it.)"""
    for name in ("BOARDGEN_CACHE_DIR", "XDG_STATE_HOME"):
        monkeypatch.setenv(name, session_cache[name])


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
def kit_factory(tmp_path_factory, session_cache):
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
            with pytest.MonkeyPatch.context() as patch:  # the session's cache, not the test's
                for name in ("BOARDGEN_CACHE_DIR", "XDG_STATE_HOME"):
                    patch.setenv(name, session_cache[name])
                result = render_kit(game, folder, wanted)
            made[key] = (result.pdf, result)
        return made[key]

    return make


@pytest.fixture(scope="session")
def grand_exports(tmp_path_factory: pytest.TempPathFactory, session_cache: dict[str, str]) -> Path:
    """`export grand --for` The Game Crafter, MakePlayingCards, DriveThruCards and a factory's
    press, made once for the session into one folder (its ``grand`` folder is returned, one
    folder per service in it): the tests that read them never change them."""
    if shutil.which("gs") is None:
        pytest.skip("Ghostscript is not installed (CI installs it)")
    out: Path = tmp_path_factory.mktemp("exports")
    with pytest.MonkeyPatch.context() as patch:  # the session's cache, not the test's
        for name in ("BOARDGEN_CACHE_DIR", "XDG_STATE_HOME"):
            patch.setenv(name, session_cache[name])
        for service, size in (("tgc", "poker"), ("mpc", "standard"), ("drivethru", "poker"), ("press", None)):
            args = ["export", "grand", "--for", service, "-o", str(out)] + (["--cards", size] if size else [])
            result = CliRunner().invoke(cli, args)
            assert result.exit_code == 0, result.output
            if service == "press":  # its preflight
                assert "no problems" in result.output, result.output
    return out / "grand"


@pytest.fixture(scope="session")
def drivethru_deck(tmp_path_factory: pytest.TempPathFactory, session_cache: dict[str, str]) -> Path:
    """`export classic --for drivethru --cards poker` made once for the session (the folder
    holding classic-deck.pdf and its manifest.csv): the tests that read it never change it."""
    out: Path = tmp_path_factory.mktemp("drivethru")
    with pytest.MonkeyPatch.context() as patch:  # the session's cache, not the test's
        for name in ("BOARDGEN_CACHE_DIR", "XDG_STATE_HOME"):
            patch.setenv(name, session_cache[name])
        result = CliRunner().invoke(
            cli, ["export", "classic", "--for", "drivethru", "--cards", "poker", "-o", str(out)]
        )
    assert result.exit_code == 0, result.output
    assert "no problems" in result.output
    return out / "classic" / "drivethru"
