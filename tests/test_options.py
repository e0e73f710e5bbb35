"""Option bounds on the command line: every bad value is one clear error naming the option, with
exit 2, before any work (no kit folder is created), and a long value is never echoed whole."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from boardgen import options
from boardgen.cli import cli
from boardgen.errors import UsageError

HUGE = "9" * 5000


@pytest.mark.parametrize(
    "args, says",
    [
        (["--margin", "nan"], "--margin: the margin must be a finite number, got nan"),
        (["--margin", "-inf"], "--margin: the margin must be a finite number"),
        (["--margin", "-1e308"], "between 0 and 30 mm"),
        (["--margin", "-1"], "between 0 and 30 mm, got -1"),
        (["--overlap", "nan"], "--overlap: the glue band must be a finite number"),
        (["--overlap", "-3"], "between 1 and 40 mm"),
        (["--back-offset", "nan,nan"], "--back-offset: X must be a finite number"),
        (["--back-offset", "inf,0"], "X must be a finite number"),
        (["--back-offset", "1e308,0"], "X must be between -10 and 10 mm"),
        (["--back-offset", "-1000,-1000"], "between -10 and 10 mm"),
        (["--back-offset", "500,0"], "between -10 and 10 mm"),
        (["--sheets", "0"], "--sheets: sheet numbers go from 1 to 999"),
        (["--sheets", HUGE], "--sheets: takes sheet numbers"),
        (["--paper", "99999x99999"], "larger than A0"),
        (["--paper", "5000x5000"], "larger than A0"),
        (["--paper", "1190x841"], "larger than A0"),
        (["--paper", HUGE + "x100"], "unknown paper"),
        (["--seed", HUGE], "Invalid value for '--seed'"),
        (["--seed", str(2**63)], "not in the range"),
    ],
)
def test_render_option_out_of_bounds(tmp_path, args, says):
    result = CliRunner().invoke(cli, ["render", "classic", *args, "-o", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)
    assert says in result.stderr
    assert "Traceback" not in result.output
    assert max(len(line) for line in result.stderr.splitlines()) < 500
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    "args, says",
    [
        (["validate", "--games", "0"], "0 is not in the range 1<=x<=20000"),
        (["validate", "--games", "-1"], "not in the range"),
        (["simulate", "--games", "0"], "not in the range"),
        (["simulate", "--players", "0"], "not in the range 1<=x<=8"),
        (["simulate", "--players", "99999999999"], "not in the range"),
        (["solve", "--pairs", "0"], "not in the range 1<=x<=100000"),
        (["solve", "--pair-seed", "-1"], "not in the range"),
    ],
)
def test_command_option_out_of_bounds(args, says):
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.output
    assert says in result.stderr


def test_bounds_accept_their_limits():
    assert options.margin(0) == 0 and options.margin(30) == 30
    assert options.back_offset("-10,10") == (-10.0, 10.0)
    assert options.sheets(" 3,1,3") == (1, 3)
    assert (options.paper("841x1189").w, options.paper("1189x841").w) == (841, 1189)
    assert options.paper("a3").name == "a3"
    with pytest.raises(UsageError):
        options.paper("80x79")
