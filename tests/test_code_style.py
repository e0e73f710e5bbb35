"""The code keeps the house style the project's tools check: ruff's rules and ruff's format over
the package, the tests, the benchmarks and the tools (configured in pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TREES = ["boardgen", "tests", "benchmarks", "tools"]


def ruff(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ruff", *args, *TREES], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


def test_ruff_finds_nothing() -> None:
    result = ruff("check", "--no-cache")
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_code_is_as_ruff_formats_it() -> None:
    result = ruff("format", "--check", "--no-cache")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_checks_the_package_with_every_strict_flag_and_the_tests_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """pyproject.toml spells `strict = true` out for boardgen.* (the tests are checked without the
    flags that want every function annotated): adding --strict to it changes nothing for the
    package's modules, so a flag a newer mypy adds to --strict is not silently left out."""
    from mypy.main import process_options

    monkeypatch.chdir(ROOT)  # the config's files are relative to the folder mypy runs in

    def options(*extra: str) -> tuple[list[str], dict[str, dict[str, object]]]:
        sources, opts = process_options(["--config-file", str(ROOT / "pyproject.toml"), *extra])
        modules = sorted(s.module for s in sources)
        return modules, {m: opts.clone_for_module(m).snapshot() for m in modules}

    modules, project = options()
    _, strict = options("--strict")
    package = [m for m in modules if m == "boardgen" or m.startswith("boardgen.")]
    assert len(package) > 100 and "conftest" in modules and "test_code_style" in modules
    for module in package:
        differing = {k for k, v in strict[module].items() if project[module].get(k) != v}
        assert not differing, (module, sorted(differing))
    test = project["test_code_style"]
    assert test["check_untyped_defs"] and not test["disallow_untyped_defs"]
