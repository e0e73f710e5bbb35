"""Hostile input to the surfaces added late (issue 37): numeric options that are not finite,
house rules texts that are not regular files of text, PDFs handed to preflight that would
exhaust memory, disk or time. Each is refused with one clear line naming what is wrong.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from boardgen.cli import cli
from boardgen.errors import UsageError
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
