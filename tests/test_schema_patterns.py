"""Schema patterns end at the end of the text: a value with a trailing newline is refused
(Python's `$` also matches before a final newline; JSON Schema's does not)."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardgen.data.loader import load
from boardgen.data.paths import layouts_root
from boardgen.errors import DataError


@pytest.mark.parametrize(
    "kind,source,line",
    [
        ("game", "games/classic.toml", 'id = "classic"\n'),
        ("theme", "themes/classic.toml", 'id = "classic"\n'),
    ],
)
@pytest.mark.parametrize("value", ["ab\\n", "ab\\r\\n", "ab\\nc"])
def test_a_trailing_newline_in_an_id_is_refused(tmp_path: Path, kind: str, source: str, line: str, value: str) -> None:
    text = (layouts_root() / source).read_text(encoding="utf-8")
    assert line in text
    path = tmp_path / "mine.toml"
    path.write_text(text.replace(line, f'id = "{value}"\n', 1), encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load(kind, str(path))
    keys = [p.key for p in caught.value.problems]
    assert keys == [f"{'game' if kind == 'game' else 'theme'}.id"], caught.value.format()
    assert "does not match the expected form" in caught.value.format()


def test_the_same_id_without_the_newline_is_taken(tmp_path: Path) -> None:
    text = (layouts_root() / "games/classic.toml").read_text(encoding="utf-8")
    path = tmp_path / "mine.toml"
    path.write_text(text.replace('id = "classic"\n', 'id = "ab"\n', 1), encoding="utf-8")
    assert load("game", str(path)).data["game"]["id"] == "ab"
