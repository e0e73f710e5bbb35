"""Hostile input to the surfaces added late (issue 37): numeric options that are not finite,
house rules texts that are not regular files of text, PDFs handed to preflight that would
exhaust memory, disk or time. Each is refused with one clear line naming what is wrong.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from boardgen.cli import cli
from boardgen.errors import DataError, UsageError
from boardgen.options import KitOptions, check_kit_options

# Numeric options ---------------------------------------------------------------------------


@pytest.mark.parametrize("args, option", [
    (["--kerf", "nan", "--cut", "laser"], "--kerf"),
    (["--kerf", "inf", "--cut", "laser"], "--kerf"),
    (["--gap", "inf"], "--gap"),
    (["--gap", "-inf"], "--gap"),
    (["--margin", "nan"], "--margin"),
    (["--margin", "1e999"], "--margin"),
    (["--overlap", "nan"], "--overlap"),
    (["--back-offset", "nan,0"], "--back-offset"),
    (["--back-offset", "0,inf"], "--back-offset"),
    (["--bed", "nanx400", "--cut", "laser"], "--bed"),
])
def test_a_number_that_is_not_finite_is_refused_naming_the_option(tmp_path: Path, args: list[str],
                                                                   option: str) -> None:
    result = CliRunner().invoke(cli, ["render", "classic", "--no-check", "--no-preview", "--no-svg",
                                      "-o", str(tmp_path), *args])
    assert result.exit_code == 2, result.output
    assert option in result.stderr
    assert "Traceback" not in result.output
    assert not any(tmp_path.rglob("*")), "nothing is written for a refused option"


@pytest.mark.parametrize("command", [["tune", "classic", "--margin", "nan"], ["dice", "--face", "inf"],
                                     ["dice", "--margin", "nan"]])
def test_other_commands_refuse_nan_and_inf(tmp_path: Path, command: list[str]) -> None:
    result = CliRunner().invoke(cli, command)
    assert result.exit_code == 2, result.output
    assert command[-2] in result.stderr and "must be a finite number" in result.stderr


@pytest.mark.parametrize("options, named", [
    (KitOptions(kerf=float("nan")), "--kerf"), (KitOptions(kerf=float("inf")), "--kerf"),
    (KitOptions(kerf=3.0), "--kerf"), (KitOptions(bed=(float("inf"), 400.0)), "--bed"),
    (KitOptions(bed=(600.0, float("nan"))), "--bed"), (KitOptions(gap=float("nan")), "gap"),
    (KitOptions(margin=float("inf")), "margin"), (KitOptions(back_offset=(float("nan"), 0.0)), "back offset"),
])
def test_the_python_api_refuses_them_too(options: KitOptions, named: str) -> None:
    with pytest.raises(UsageError, match=named):
        check_kit_options(options)


# House rules and other text files of the user's --------------------------------------------

LAYOUT = 'extends = "classic"\n[game]\nrules = "house"\n'


def run_cli(*args: str, cwd: Path, seconds: float = 60) -> subprocess.CompletedProcess[str]:
    """The CLI in its own process, killed if it outlives `seconds` (a FIFO that blocks must fail
    this test, not hang the suite)."""
    env = {**os.environ, "XDG_CACHE_HOME": str(cwd / "cache")}
    try:
        return subprocess.run([sys.executable, "-m", "boardgen", *args], cwd=cwd, env=env, capture_output=True,
                              text=True, timeout=seconds, stdin=subprocess.DEVNULL, check=False)
    except subprocess.TimeoutExpired:
        pytest.fail(f"boardgen {' '.join(args)} still running after {seconds} s")


def house_rules(folder: Path, make: Callable[[Path], None]) -> Path:
    (folder / "g.toml").write_text(LAYOUT, encoding="utf-8")
    make(folder / "house.en.md")
    return folder / "g.toml"


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _link(path: Path) -> None:
    (path.parent / "elsewhere.md").write_text("# Rules\nplay\n", encoding="utf-8")
    path.symlink_to(path.parent / "elsewhere.md")


def _latin1(path: Path) -> None:
    path.write_bytes(b"# Rules\nplay well\nthe caf\xe9 rule\n")


def _huge(path: Path) -> None:
    with path.open("wb") as out:  # sparse: 400 MB that take no disk
        out.truncate(400 * 1024 * 1024)


def _one_word(path: Path) -> None:
    path.write_text("# Rules\n" + "a" * 1_000_000 + "\n", encoding="utf-8")


def _long_word(path: Path) -> None:
    path.write_text("# Rules\nplay\n" + "a" * 60_000 + "\n", encoding="utf-8")


def _long_paragraph(path: Path) -> None:
    path.write_text("# Rules\n" + "word " * 12_000 + "\n", encoding="utf-8")


@pytest.mark.parametrize("make, says, line", [
    (_fifo, "house.en.md: is a FIFO (named pipe), not a regular file", None),
    (_link, "house.en.md: is a symbolic link", None),
    (_latin1, "house.en.md:3: not UTF-8 text: byte 0xe9 at column 8", 3),
    (_huge, "house.en.md: file larger than 64 KiB (419,430,400 bytes)", None),
    (_one_word, "house.en.md: file larger than 64 KiB (1,000,009 bytes)", None),
    (_long_word, "house.en.md:3: a word of 60,000 characters; a word of a rules text has at most 200", 3),
    (_long_paragraph, "house.en.md:2: a paragraph of 60,000 characters", 2),
], ids=["fifo", "link", "not-utf8", "400MB", "1MB-word", "60k-word", "60k-paragraph"])
def test_house_rules_that_are_not_a_small_text_file_are_refused(tmp_path: Path, make: Callable[[Path], None],
                                                                 says: str, line: int | None) -> None:
    layout = house_rules(tmp_path, make)
    started = time.monotonic()
    done = run_cli("render", str(layout), "--no-check", "--no-preview", "--no-svg", "-o", str(tmp_path / "out"),
                   cwd=tmp_path, seconds=60)
    took = time.monotonic() - started
    assert done.returncode == 2, done.stderr[-600:]
    assert "Traceback" not in done.stderr
    assert says in done.stderr, done.stderr[-600:]
    assert done.stderr.startswith("boardgen: error: ")
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").rglob("*.pdf"))
    # A loose bound on a loaded machine: the refusal comes before anything is flowed or drawn.
    assert took < 30, f"{took:.1f} s"


def test_house_rules_within_the_bounds_still_print(tmp_path: Path) -> None:
    """Words and paragraphs just under the bounds: a kit with the text in it."""
    from pypdf import PdfReader

    def make(path: Path) -> None:
        path.write_text("# House rules\n" + ("b" * 200 + " ") * 19 + "\nplay the zebra rule\n", encoding="utf-8")

    layout = house_rules(tmp_path, make)
    done = run_cli("render", str(layout), "--no-check", "--no-preview", "--no-svg", "-o", str(tmp_path / "out"),
                   cwd=tmp_path, seconds=120)
    assert done.returncode == 0, done.stderr[-600:]
    pdf = next((tmp_path / "out").rglob("*.pdf"))
    text = "".join(page.extract_text() for page in PdfReader(pdf).pages)
    assert "zebra" in text


@pytest.mark.parametrize("make, says", [
    (_fifo, "is a FIFO (named pipe), not a regular file"),
    (_link, "is a symbolic link"),
    (_huge, "file larger than 1024 KiB (419,430,400 bytes)"),
], ids=["fifo", "link", "400MB"])
def test_a_layout_that_is_not_a_regular_file_is_refused(tmp_path: Path, make: Callable[[Path], None],
                                                         says: str) -> None:
    target = tmp_path / "mine.toml"
    if make is _link:
        (tmp_path / "real.toml").write_text('extends = "classic"\n', encoding="utf-8")
        target.symlink_to(tmp_path / "real.toml")
    else:
        make(target)
    done = run_cli("validate", str(target), cwd=tmp_path, seconds=60)
    assert done.returncode == 2, done.stderr[-600:]
    assert f"mine.toml: {says}" in done.stderr, done.stderr[-600:]


def test_a_csv_deck_that_is_a_link_is_refused(tmp_path: Path) -> None:
    from boardgen.engines import load_game

    (tmp_path / "real.csv").write_text("id,en\nbook,Book\n", encoding="utf-8")
    (tmp_path / "cards.csv").symlink_to(tmp_path / "real.csv")
    (tmp_path / "g.toml").write_text('extends = "classic"\ntreasures = "cards.csv"\n', encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load_game(str(tmp_path / "g.toml"))
    assert any(p.file.endswith("cards.csv") and "symbolic link" in p.message for p in caught.value.problems)
