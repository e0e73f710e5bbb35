"""The package follows the pipeline: a module imports only the stages before it (an AST test, so
an import inside a function counts too; imports only for type checking do not). The few
upward imports left are listed with their reason; a new one fails here."""

from __future__ import annotations

import ast
from pathlib import Path

import boardgen

PACKAGE = Path(boardgen.__file__).parent

# Each top-level module or package of boardgen, by its stage of the pipeline.
STAGE = {
    "layouts": 0,  # the bundled data, mapped into the package when it is installed
    "fonts": 0,
    "errors": 0,
    "units": 0,
    "geometry": 0,
    "draws": 0,
    "raster": 0,
    "data": 1,
    "cache": 1,
    "model": 2,
    "rules": 3,
    "processes": 0,  # the one process layer: the check beside a render, self-play and solver workers
    "checks": 4,
    "verdicts": 4,
    "engine": 5,
    "engines": 5,  # the one slot every game fills, and its registry
    "generate": 6,
    "options": 7,
    "render": 7,
    "kits": 8,
    "kit": 8,
    # The cut files are made from the pieces as placed on the imposed pages and written in the
    # kit folder with them (kit.py): an output beside the kit folder's writer.
    "cut": 8,
    "export": 9,
    "serve": 9,
    "tune": 9,
    "tune_storage": 9,
    "authoring": 9,
    "cli": 10,
    "__init__": 10,
    "__main__": 10,
}

# Upward imports still to remove, each with what it is: a new one is not added here, it is fixed.
KNOWN = {
    # The registry names every game's kit lazily: an engine's kit() is where the registry looks ahead.
    ("engines", "kits"),
}


def _type_checking_lines(tree: ast.AST) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for child in node.body:
                lines.update(range(child.lineno, (child.end_lineno or child.lineno) + 1))
    return lines


def upward_imports() -> set[tuple[str, str, str, int]]:
    found = set()
    for file in sorted(PACKAGE.rglob("*.py")):
        parts = file.relative_to(PACKAGE).parts
        me = parts[0].removesuffix(".py")
        tree = ast.parse(file.read_text(encoding="utf-8"))
        typing_only = _type_checking_lines(tree)
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Import, ast.ImportFrom)) or node.lineno in typing_only:
                continue
            names = (
                [node.module]
                if isinstance(node, ast.ImportFrom) and node.module
                else [alias.name for alias in node.names]
            )
            for name in names:
                if not name or not name.startswith("boardgen."):
                    continue
                target = name.split(".")[1]
                if STAGE[target] > STAGE[me]:
                    found.add((me, target, str(file.relative_to(PACKAGE)), node.lineno))
    return found


def test_every_module_has_a_stage() -> None:
    tops = {
        p.stem if p.is_file() else p.name
        for p in PACKAGE.iterdir()
        if (p.suffix == ".py" or (p.is_dir() and (p / "__init__.py").exists()))
    }
    assert tops <= set(STAGE), tops - set(STAGE)


def test_no_module_imports_up_the_pipeline_but_the_known_few() -> None:
    new = sorted(hit for hit in upward_imports() if hit[:2] not in KNOWN)
    assert new == [], "\n".join(
        f"{path}:{line} imports boardgen.{target} ({me} is below it)" for me, target, path, line in new
    )


def test_the_known_upward_imports_are_still_there() -> None:
    """An entry of KNOWN that nothing needs any more is taken out of the list."""
    assert {hit[:2] for hit in upward_imports()} >= KNOWN
