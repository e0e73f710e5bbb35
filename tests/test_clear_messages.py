"""Inputs that ended in a traceback (issue 28) end in one clear line and a non-zero exit:
file names over 255 bytes, a Grand field number of 5,001 digits, a picture scaled past what a
PDF can hold."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from boardgen.cli import cli
from boardgen.data.paths import layouts_root

LONG = "a" * 300


def run(*args: str) -> tuple[int, str, BaseException | None]:
    result = CliRunner().invoke(cli, list(args))
    crashed = result.exception if not isinstance(result.exception, SystemExit) else None
    return result.exit_code, result.output, crashed


@pytest.mark.parametrize(
    "args",
    [
        ["render", f"{LONG}.toml", "-o", "{tmp}/o"],
        ["render", "classic", "-o", f"{{tmp}}/{LONG}", "--no-preview"],
        ["render", "classic", "-o", f"{{tmp}}/{LONG}/kits", "--no-preview"],
        ["render", "classic", "--theme", f"{LONG}.toml", "-o", "{tmp}/o"],
        ["validate", f"{{tmp}}/{LONG}/x.toml"],
        ["validate", f"{{tmp}}/{'b' * 250}/{'c' * 250}/" * 10 + "x.toml"],
    ],
)
def test_a_file_name_too_long_is_a_message(tmp_path: Path, args: list[str]) -> None:
    code, output, crashed = run(*(a.format(tmp=tmp_path) for a in args))
    assert crashed is None, output
    assert code == 2, output
    assert "file name too long" in output and "Traceback" not in output
    assert len(output.splitlines()) == 1


def grand_with(tmp_path: Path, old: str, new: str) -> str:
    text = (layouts_root() / "games" / "grand.toml").read_text(encoding="utf-8")
    changed = re.sub(old, new, text, count=1)
    assert changed != text
    path = tmp_path / "grand-mine.toml"
    path.write_text(changed, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    "old,new,key",
    [
        (r"\[fields\]\n", "[fields]\n" + "9" * 5001 + " = [0, 0]\n", "fields.999"),
        (r'at = "\d+"', 'at = "' + "7" * 5001 + '"', "branches[0].at"),
    ],
)
def test_a_grand_field_number_of_5001_digits_is_a_message(tmp_path: Path, old: str, new: str, key: str) -> None:
    code, output, crashed = run("validate", grand_with(tmp_path, old, new))
    assert crashed is None, output
    assert code == 2, output
    assert key in output and ("is not a field number" in output or "does not exist" in output)
    assert max(len(line) for line in output.splitlines()) < 500  # the number is shortened, not printed whole


@pytest.mark.parametrize(
    "svg,said",
    [
        (
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1e-300 1e-300"><rect width="1" height="1"/></svg>',
            "has viewBox='0 0 1e-300 1e-300': it needs four finite numbers, width and height at least 1e-06",
        ),
        (
            '<svg xmlns="http://www.w3.org/2000/svg" width="1e-300px" height="1e-300px">'
            '<rect width="1" height="1"/></svg>',
            "has a width or height under 1e-06",
        ),
        (
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><svg width="10" height="10" '
            'viewBox="0 0 1e-300 1e-300"><rect width="1" height="1"/></svg></svg>',
            "has viewBox='0 0 1e-300 1e-300': it needs four numbers, width and height at least 1e-06",
        ),
    ],
)
def test_a_picture_scaled_past_a_pdf_number_is_a_message(tmp_path: Path, svg: str, said: str) -> None:
    (tmp_path / "pic.svg").write_text(svg, encoding="utf-8")
    theme = tmp_path / "mine.toml"
    theme.write_text(
        '[theme]\nid = "mine"\nname = { en = "Mine", fr = "Le mien" }\nextends = "classic"\n\n'
        '[art]\nbook = "pic.svg"\n',
        encoding="utf-8",
    )
    code, output, crashed = run("render", "classic", "--theme", str(theme), "-o", str(tmp_path / "o"), "--no-preview")
    assert crashed is None, output
    assert code == 2, output
    assert "art.book: picture pic.svg" in output and said in output
    assert not (tmp_path / "o").exists() or not any((tmp_path / "o").rglob("*.pdf"))
