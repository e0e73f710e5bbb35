"""Where the bundled data lives (a module of its own so that light readers of the bundled
files, like the interface strings, need not load the layout loader)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path


def layouts_root() -> Path:
    """The folder holding the bundled layouts (works installed or from a checkout)."""
    return Path(str(resources.files("boardgen.layouts")))
