"""A render's verdict: the check runs in a child process beside the drawing (boardgen.processes);
the cover states the verdict the written report holds, in the kit's language, and a layout that
fails is refused (exit 4) with nothing written, unless --force."""

from __future__ import annotations

import json
from pathlib import Path

import pdfplumber
import pytest
from click.testing import CliRunner

from boardgen.cli import cli
from boardgen.data.strings import word

FIXTURES = Path(__file__).parent / "fixtures" / "layouts"


def render(out: Path, layout: str, *extra: str) -> tuple[int, str]:
    result = CliRunner().invoke(
        cli, ["render", layout, "-o", str(out), "--no-preview", "--no-svg", "--recheck", *extra]
    )
    return result.exit_code, result.output


def cover_text(pdf: Path) -> str:
    with pdfplumber.open(pdf) as doc:
        return " ".join((doc.pages[0].extract_text() or "").split())


@pytest.mark.parametrize(
    "lang,line,passed", [("en", "Playability: ", "passed (seed 1)"), ("fr", "Jouabilité : ", "validée (graine 1)")]
)
def test_the_cover_states_the_verdict_of_the_written_report(
    tmp_path: Path, five: str, lang: str, line: str, passed: str
) -> None:
    code, output = render(tmp_path, five, "--lang", lang)
    assert code == 0, output
    report = json.loads((tmp_path / "five" / "five-playability.json").read_text(encoding="utf-8"))
    games = sum(s["games"] for s in report["stats"]["self_play"].values())
    finished = sum(s["finished"] for s in report["stats"]["self_play"].values())
    text = cover_text(next((tmp_path / "five").glob("*.pdf")))
    assert report["playable"] is True
    assert f"{line}{passed}" in text
    counts = sorted(int(k) for k in report["stats"]["self_play"])
    assert counts == list(range(counts[0], counts[-1] + 1))  # a run of counts is said as a range
    players = f"{counts[0]}-{counts[-1]}" if lang == "en" else f"{counts[0]} à {counts[-1]}"
    # The verdict in words (boardgen.checks.words): for whom it was checked, and the length
    # the report measured; the statistics stay in the report.
    said = word(lang, "verdict_length", players=players, median="", p90="", minutes="", per_turn="")
    assert " ".join(said.split(":")[0].split()) in text
    p90 = max(s["p90_length"] for s in report["stats"]["self_play"].values())
    assert f" {p90}" in text.split(line)[1] and finished <= games


def test_a_failing_layout_is_refused_with_nothing_written(tmp_path: Path) -> None:
    code, output = render(tmp_path, str(FIXTURES / "turn_cap_too_low.toml"))
    assert code == 4, output
    assert "not playable" in output.lower() or "failed" in output.lower()
    assert not (tmp_path / "turn_cap_too_low").exists() or not any((tmp_path / "turn_cap_too_low").iterdir())


def test_force_prints_a_failing_layout_and_says_so_on_the_cover(tmp_path: Path) -> None:
    code, output = render(tmp_path, str(FIXTURES / "turn_cap_too_low.toml"), "--force")
    assert code == 0, output
    folder = tmp_path / "turn_cap_too_low"
    report = json.loads(next(folder.glob("*-playability.json")).read_text(encoding="utf-8"))
    assert report["playable"] is False
    assert "Playability: FAILED (seed" in cover_text(next(folder.glob("*.pdf")))


def test_no_check_draws_a_draft_that_says_it_is_not_checked(tmp_path: Path) -> None:
    # A layout the check refuses (exit 4 above) still draws as a draft: nothing judged it, and
    # the cover and the output say so; no report is written.
    result = CliRunner().invoke(
        cli,
        [
            "render",
            str(FIXTURES / "turn_cap_too_low.toml"),
            "-o",
            str(tmp_path),
            "--no-preview",
            "--no-svg",
            "--no-check",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "playability: not checked (--no-check)" in result.output
    folder = tmp_path / "turn_cap_too_low"
    assert not list(folder.glob("*-playability.json"))
    assert f"Playability: {word('en', 'not_checked')}" in cover_text(next(folder.glob("*.pdf")))


@pytest.mark.parametrize("other", ["--force", "--recheck"])
def test_no_check_with_an_option_of_the_check_is_refused(tmp_path: Path, other: str) -> None:
    result = CliRunner().invoke(cli, ["render", "classic", "-o", str(tmp_path), "--no-check", other])
    assert result.exit_code == 2
    assert f"give --no-check or {other}, not both" in result.output
