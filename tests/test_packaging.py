"""`pip install .` (not only editable) must ship the layouts, themes, fonts and pictures."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_wheel_ships_the_data(tmp_path):
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(tmp_path),
            str(ROOT),
        ],
        check=True,
    )
    wheel = next(tmp_path.glob("boardgen-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    tracked = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "layouts", "fonts"], capture_output=True, text=True, check=True
    ).stdout.split()
    expected = {"boardgen/" + name for name in tracked if not name.endswith("__init__.py")}
    # Every module of the package too: a subpackage missing from setup.cfg's list installs
    # without its modules, which an editable install hides.
    code = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "boardgen"], capture_output=True, text=True, check=True
    ).stdout.split()
    expected |= {name for name in code if name.endswith(".py")}
    missing = sorted(expected - names)
    assert not missing, missing
    assert "boardgen/layouts/games/classic.toml" in names
    assert "boardgen/fonts/DejaVuSans.ttf" in names
    assert any(n.startswith("boardgen/layouts/art/game-icons/") and n.endswith(".svg") for n in names)


def test_installed_package_finds_its_data():
    from boardgen.data.fonts import fonts_root
    from boardgen.data.loader import layouts_root

    assert (layouts_root() / "games" / "classic.toml").is_file()
    assert (fonts_root() / "fonts.toml").is_file()
