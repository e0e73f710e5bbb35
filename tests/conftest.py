"""Shared fixtures: kits rendered once per session, and the --update-golden flag."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardgen.kit import render_kit
from boardgen.kits.common import KitOptions


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true",
                     help="rewrite the golden files from the current output instead of comparing")


@pytest.fixture(autouse=True)
def own_verdict_cache(tmp_path_factory, monkeypatch):
    """Every test starts with an empty verdict cache of its own (never the user's)."""
    monkeypatch.setenv("BOARDGEN_CACHE_DIR", str(tmp_path_factory.mktemp("verdicts")))


@pytest.fixture
def update_golden(request) -> bool:
    return request.config.getoption("--update-golden")


@pytest.fixture(scope="session")
def kit_factory(tmp_path_factory):
    """Render a kit once per distinct set of options in this test session."""
    made: dict[tuple, tuple[Path, object]] = {}

    def make(game: str = "classic", **options) -> tuple[Path, object]:
        key = (game, tuple(sorted(options.items())))
        if key not in made:
            folder = tmp_path_factory.mktemp(f"kit-{game}")
            options.setdefault("previews", False)
            # The playability check has its own tests; here only the printed kit matters.
            result = render_kit(game, folder, KitOptions(**options), check=False)
            made[key] = (result.pdf, result)
        return made[key]

    return make
