"""A data file that passed its schema is not run through jsonschema again while it, the schemas
and the loader are unchanged; a file with problems is reported every time."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from boardgen.data import loader
from boardgen.data.loader import load
from boardgen.errors import DataError

BAD = Path(__file__).parent / "fixtures" / "bad"


@pytest.fixture
def validations(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Counts the documents jsonschema really validates."""
    runs: list[str] = []
    real = loader._validator()

    def counted(schema: object, **kwargs: object) -> object:
        runs.append(str(schema.get("$id", "")) if isinstance(schema, dict) else "")
        return real(schema, **kwargs)

    monkeypatch.setattr(loader, "_validator", lambda: counted)
    return runs


def marks() -> list[Path]:
    return sorted((Path(os.environ["BOARDGEN_CACHE_DIR"]) / "schema-passes").rglob("*"))


def test_a_file_that_passed_is_not_validated_again(validations: list[str], tmp_path: Path) -> None:
    first = load("game", "classic")
    assert len(validations) == 1
    second = load("game", "classic")
    assert len(validations) == 1
    assert second.data == first.data
    own = tmp_path / "mine.toml"
    own.write_text('extends = "classic"\n[board]\npitch_mm = 31\n', encoding="utf-8")
    load("game", str(own))  # other data (after extends): validated; its parent already passed
    assert len(validations) == 2
    own.write_text('extends = "classic"\n[board]\npitch_mm = 32\n', encoding="utf-8")
    load("game", str(own))
    assert len(validations) == 3


def test_a_file_with_problems_is_reported_every_time(validations: list[str]) -> None:
    path = BAD / "size_typo.toml"
    for _ in range(2):
        with pytest.raises(DataError) as caught:
            load("game", str(path))
        assert [p.key for p in caught.value.problems] == ["board.sise"]
    assert len(validations) == 2 + 1  # the bad file twice, its parent (classic) once


def test_a_damaged_mark_is_ignored(validations: list[str]) -> None:
    load("theme", "classic")
    files = [p for p in marks() if p.is_file()]
    assert len(files) == 1 and len(validations) == 1
    files[0].write_text("not the key", encoding="ascii")
    load("theme", "classic")
    assert len(validations) == 2
    assert files[0].read_bytes().startswith(b"boardgen-cache-3 schema-passes " + files[0].name.encode())
    load("theme", "classic")
    assert len(validations) == 2
