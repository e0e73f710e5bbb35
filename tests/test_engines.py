"""Every registered engine fills the one slot (`boardgen.engine.Engine`), and the package has
no import cycle."""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import pytest

import boardgen
from boardgen.checks.harness import check
from boardgen.data.loader import bundled_names, layouts_root, load
from boardgen.engine import Engine
from boardgen.engines import ENGINES, engine_names, get_engine, load_game
from boardgen.errors import UsageError

PACKAGE = Path(boardgen.__file__).parent


def test_every_bundled_game_names_a_registered_engine():
    used = {load("game", name).data["game"]["engine"] for name in bundled_names("game")}
    assert used <= set(ENGINES)
    # and every engine has a bundled layout to render
    assert set(ENGINES) <= used


@pytest.mark.parametrize("name", engine_names())
def test_the_engine_fills_every_member(name):
    engine = get_engine(name)
    assert isinstance(engine, Engine)
    assert engine.name == name
    assert engine.version and isinstance(engine.version, str)
    assert (layouts_root() / "schema" / f"{engine.schema}.schema.json").is_file()
    assert not inspect.isabstract(type(engine))
    assert engine.self_play_player in engine.players()
    assert get_engine(name) is engine  # one instance per engine
    kit = engine.kit()
    for member in ("setup", "draw", "build_pdf"):
        assert callable(getattr(kit, member)), f"{kit.__name__} has no {member}()"


@pytest.mark.parametrize("game", bundled_names("game"))
def test_the_harness_checks_every_bundled_game(game):
    engine, layout = load_game(game)
    seed = layout.default_seed
    # The kit shows the same start the check looks at.
    assert engine.kit().setup(layout, seed) == engine.setup(layout, seed)
    calls: list[tuple[int, int]] = []
    report = check(
        engine, layout, seed, games=2, workers=1, progress=lambda done, total, label: calls.append((done, total))
    )
    assert report.game == layout.id and report.seed == seed
    assert set(report.stats["self_play"]) == {str(k) for k in engine.player_counts(layout)}
    assert all(sim["games"] == 2 for sim in report.stats["self_play"].values())
    assert calls and calls[-1][0] == calls[-1][1]
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)


def test_an_unknown_engine_is_a_usage_error(tmp_path):
    with pytest.raises(UsageError, match="engine 'chess' is not available"):
        get_engine("chess")


# -- no import cycles -----------------------------------------------------------------------


def modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The package modules `name` imports when it runs: at the top and inside functions
    (lazy imports count), but not under ``if TYPE_CHECKING:``."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_checking_only(node):
            for statement in node.orelse:
                visit(statement)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in known else base)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return {m for m in found if m in known and m != name}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a path that ends where it starts, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt) :] + [nxt]
            if nxt not in state:
                cycle = walk(nxt)
                if cycle:
                    return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            cycle = walk(node)
            if cycle:
                return cycle
    return None


def test_find_cycle_finds_one():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


def test_the_package_has_no_import_cycle():
    found = modules()
    graph = {name: imports_of(name, path, set(found)) for name, path in found.items()}
    assert graph["boardgen.kit"] >= {"boardgen.engines", "boardgen.checks.harness"}  # the graph is real
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or [])


@pytest.mark.parametrize("name", sorted(set(modules()) - {"boardgen.__main__"}))  # that one runs the CLI
def test_every_module_imports(name):
    importlib.import_module(name)
