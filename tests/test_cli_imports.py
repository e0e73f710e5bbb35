"""What the command line loads: `boardgen --help` none of the heavy libraries, a render only
those it uses (issue 38). Each case is a real `python -m boardgen` process, read through
Python's own import log (-X importtime), not a list kept by the code under test."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from boardgen.cli import BED, cli
from boardgen.cut.laser import bed_size
from boardgen.options import KitOptions

# numpy and shapely cost a tenth of a second or more each; pypdfium2 rasterises the previews,
# optuna is the tuner's, reportlab's platypus lays out the rules pages.
HEAVY = ("numpy", "shapely", "pypdfium2", "optuna", "reportlab.platypus")


def imported(args: list[str], tmp_path: Path) -> tuple[set[str], subprocess.CompletedProcess[str]]:
    """Every module the process imported (from its -X importtime log), and the process."""
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "BOARDGEN_CACHE_DIR": str(tmp_path / "cache")}
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "boardgen", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=600,
    )
    names = {
        line.rsplit("|", 1)[1].strip()
        for line in proc.stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    }
    return names, proc


def heavy(names: set[str], which: tuple[str, ...] = HEAVY) -> list[str]:
    return sorted(n for n in names if any(n == h or n.startswith(h + ".") for h in which))


def test_help_loads_none_of_the_heavy_libraries(tmp_path: Path) -> None:
    names, proc = imported(["--help"], tmp_path)
    assert proc.returncode == 0 and "render" in proc.stdout and "validate" in proc.stdout
    assert "click" in names  # the log is read: the command line's own library is in it
    assert heavy(names) == []
    # nor the page geometry, the TOML reader or the bundled strings: the start reads no data file
    assert heavy(names, ("boardgen.render", "tomllib", "boardgen.data", "json")) == []


def test_the_heavy_libraries_are_the_issues_five() -> None:
    """Issue 38 names what the start must not load: numpy, shapely, pypdfium2, optuna and
    reportlab's platypus, each with its submodules (`heavy` matches a name and its children)."""
    assert sorted(HEAVY) == ["numpy", "optuna", "pypdfium2", "reportlab.platypus", "shapely"]
    assert heavy({"numpy.linalg", "numpyx", "reportlab.pdfgen", "reportlab.platypus.paragraph"}) == [
        "numpy.linalg",
        "reportlab.platypus.paragraph",
    ]


@pytest.mark.parametrize("command", sorted(cli.commands))
def test_every_commands_help_loads_none_of_the_heavy_libraries(command: str, tmp_path: Path) -> None:
    names, proc = imported([command, "--help"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert f"Usage: boardgen {command}" in proc.stdout
    assert "click" in names
    assert heavy(names) == []


def test_a_subcommands_help_lists_the_languages_without_the_heavy_libraries(tmp_path: Path) -> None:
    names, proc = imported(["render", "--help"], tmp_path)
    assert proc.returncode == 0 and "--lang CODE" in proc.stdout
    assert heavy(names) == []


@pytest.mark.parametrize("lang", ["xx", "zz-Latn"])
def test_an_unknown_language_is_still_refused_by_name(lang: str, tmp_path: Path) -> None:
    _, proc = imported(["render", "classic", "--lang", lang, "--no-check"], tmp_path)
    assert proc.returncode == 2 and "--lang" in proc.stderr and repr(lang) in proc.stderr


def test_a_render_without_a_laser_loads_neither_shapely_nor_the_tuner(tmp_path: Path) -> None:
    names, proc = imported(
        ["render", "classic", "--only", "cards", "--no-check", "--no-preview", "--no-svg", "-o", str(tmp_path / "out")],
        tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "out" / "classic" / "classic-a4-only-cards.pdf").is_file()
    assert "reportlab.pdfgen.canvas" in names  # it did draw
    assert heavy(names, ("shapely", "optuna", "boardgen.tune", "boardgen.cut.laser")) == []
    # nor the accessibility check's colour science and rasteriser: a reprint of the cards has no
    # cover to state the colours' verdict on, and no previews or text contrast are measured
    assert heavy(names, ("numpy", "colorspacious", "pypdfium2")) == []


def test_a_bad_bed_is_refused_without_a_laser_too(tmp_path: Path) -> None:
    _, proc = imported(["render", "classic", "--bed", "1x1", "--no-check", "-o", str(tmp_path / "out")], tmp_path)
    assert proc.returncode == 2 and "--bed '1x1'" in proc.stderr
    assert not (tmp_path / "out").exists()


def test_the_default_bed_is_the_kit_options_bed() -> None:
    """A render without --cut laser takes KitOptions.bed for --bed's default without parsing it."""
    assert bed_size(BED) == KitOptions.bed
