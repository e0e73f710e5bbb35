"""House rules of the code that a test can hold: no ``getattr``/``hasattr`` standing in for a
declared member (of an engine, a kit, a layout, a game or a player) anywhere in boardgen.

The members a game, a player, a layout or a kit may have are declared on their protocol or
base class, with a default where they are optional (`boardgen.rules.protocol.Game`,
`boardgen.model.game.GameInfo`, `boardgen.engine.Kit`); shared code reads them as
attributes. What is left are reads of objects boardgen does not define, each listed below
with its reason; a file may use fewer of them than listed, never more."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import boardgen

PACKAGE = Path(boardgen.__file__).parent

# file (under boardgen/) -> (the most getattr/hasattr calls it may make, why they are not
# members of ours).
ALLOWED: dict[str, tuple[int, str]] = {
    "model/master.py": (1, "copies a dataclass's fields by name (dataclasses.fields)"),
    "export/solids.py": (1, "shapely: a multi-part geometry has `geoms`, a single one does not"),
    "export/preflight.py": (1, "pypdf: an indirect object resolves with `get_object`, a direct one has none"),
    "render/drawing_cache.py": (4, "reportlab.graphics.shapes' classes and modules looked up by name"),
    "data/fonts.py": (1, "an OSError's `strerror`, which some errors lack"),
    "render/pdf.py": (2, "reportlab internals: a form's `ExtGState`, an image's PIL `mode`"),
    "data/loader.py": (1, "any value from a data file: whether it has a length"),
    "data/languages.py": (1, "an exception's own `heading`, absent on one rebuilt without __init__"),
    "processes.py": (1, "the signal module: `pthread_sigmask` exists on some platforms only"),
    "kits/output.py": (1, "the signal module: `pthread_sigmask` exists on some platforms only"),
}


def attribute_lookups(path: Path) -> int:
    """The calls of getattr and hasattr in a source file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return sum(
        1
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr")
    )


def test_no_getattr_stands_in_for_a_declared_member():
    found = Counter(
        {
            path.relative_to(PACKAGE).as_posix(): count
            for path in PACKAGE.rglob("*.py")
            if (count := attribute_lookups(path))
        }
    )
    over = {name: count for name, count in found.items() if count > ALLOWED.get(name, (0, ""))[0]}
    assert not over, f"getattr/hasattr beyond the allowed non-engine uses (declare the member instead): {over}"


def test_the_scan_finds_what_it_looks_for(tmp_path):
    """The scan itself, on a file written here: calls are counted, names and strings not."""
    source = tmp_path / "sample.py"
    source.write_text(
        "x = getattr(a, 'b', None)\nif hasattr(a, 'c'):\n    pass\ndef __getattr__(name): ...\ny = 'getattr(a)'\n",
        encoding="utf-8",
    )
    assert attribute_lookups(source) == 2
