"""The verdict cache: a layout and seed checked once are not checked again, and a damaged or
stale entry is never trusted."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

import boardgen.kit
from boardgen import cache, verdicts
from boardgen.checks.harness import check as real_check
from boardgen.cli import cli


class Calls:
    """Playability checks that really ran, one line each in a file: a render runs its check in
    a child process (boardgen.processes), so a list in this process would not see them."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.write_text("", encoding="utf-8")

    def add(self) -> None:
        with self.path.open("a", encoding="utf-8") as log:
            log.write(f"{os.getpid()}\n")

    def __len__(self) -> int:
        return len(self.path.read_text(encoding="utf-8").splitlines())


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Calls:
    """Counts the playability checks that really run."""
    calls = Calls(tmp_path / "checks.log")

    def counted(*args: object, **kwargs: object) -> object:
        calls.add()
        return real_check(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(boardgen.kit, "check_layout", counted)
    return calls


def render(layout: str, out: Path, *extra: str) -> str:
    result = CliRunner().invoke(cli, ["render", layout, "-o", str(out), "--no-preview", "--no-svg", *extra])
    assert result.exit_code == 0, result.output
    return result.output


def entries() -> list[Path]:
    return sorted(p for p in (Path(os.environ["BOARDGEN_CACHE_DIR"]) / "verdicts").rglob("*") if p.is_file())


def test_a_second_render_reuses_the_verdict_and_writes_the_same_report(
    tmp_path: Path, checks: Calls, five: str
) -> None:
    first = render(five, tmp_path / "a")
    assert len(checks) == 1 and len(entries()) == 1
    second = render(five, tmp_path / "b", "--theme", "ink-saver", "--paper", "letter", "--lang", "fr")
    assert len(checks) == 1
    assert "playability" in first and "playability" in second
    report_a = json.loads((tmp_path / "a" / "five" / "five-playability.json").read_bytes())
    report_b = json.loads((tmp_path / "b" / "five" / "five-playability.json").read_bytes())
    # The verdict is the same; the accessibility part judges each render's theme.
    assert report_a.pop("accessibility")["theme"] == "classic"
    assert report_b.pop("accessibility")["theme"] == "ink-saver"
    assert report_a == report_b and report_a["playable"] is True


def test_recheck_seed_and_layout_changes_run_the_check(tmp_path: Path, checks: Calls, five: str) -> None:
    render(five, tmp_path / "a")
    render(five, tmp_path / "a", "--recheck")
    assert len(checks) == 2
    render(five, tmp_path / "a", "--seed", "3")
    assert len(checks) == 3 and len(entries()) == 2
    edited = tmp_path / "five-edited.toml"
    edited.write_text(
        Path(five).read_text(encoding="utf-8").replace("games_per_player_count = 20", "games_per_player_count = 21"),
        encoding="utf-8",
    )
    result = CliRunner().invoke(cli, ["render", str(edited), "-o", str(tmp_path / "b"), "--no-preview", "--no-svg"])
    assert result.exit_code == 0, result.output
    assert len(checks) == 4


@pytest.mark.parametrize("damage", ["truncate", "flip", "other-key", "garbage", "huge"])
def test_a_damaged_entry_is_never_trusted(tmp_path: Path, checks: Calls, damage: str, five: str) -> None:
    render(five, tmp_path / "a")
    (entry,) = entries()
    data = entry.read_bytes()
    head, _, payload = data.partition(b"\n")
    if damage == "truncate":
        entry.write_bytes(data[: len(data) // 2])
    elif damage == "flip":  # an edited verdict, same length: its signature no longer matches
        entry.write_bytes(head + b"\n" + payload.replace(b'"playable": true', b'"playable": fals'))
    elif damage == "other-key":  # the whole entry, moved under another key
        other = entry.parent.parent / "00" / ("0" * 64)
        other.parent.mkdir()
        other.write_bytes(data.replace(entry.name.encode(), other.name.encode()))
        assert verdicts.load(other.name) is None
        entry.unlink()
    elif damage == "garbage":
        entry.write_bytes(b"\xff\xfe not json")
    else:
        entry.write_bytes(b" " * (cache.VERDICTS.max_bytes + 1024))
    render(five, tmp_path / "b")
    assert len(checks) == 2
    assert verdicts.load(entry.name) is not None  # the fresh verdict replaced it


def test_another_engine_version_or_code_is_another_key() -> None:
    data = {"game": {"id": "x"}}
    key = verdicts.verdict_key("sliding", "1", data, 1)
    assert key == verdicts.verdict_key("sliding", "1", {"game": {"id": "x"}}, 1)
    assert (
        len(
            {
                key,
                verdicts.verdict_key("sliding", "2", data, 1),
                verdicts.verdict_key("master", "1", data, 1),
                verdicts.verdict_key("sliding", "1", data, 2),
                verdicts.verdict_key("sliding", "1", {"game": {"id": "y"}}, 1),
            }
        )
        == 5
    )


def test_an_unwritable_cache_only_means_checking_again(
    tmp_path: Path, checks: Calls, five: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "cache-is-a-file"
    blocked.write_text("", encoding="utf-8")
    monkeypatch.setenv("BOARDGEN_CACHE_DIR", str(blocked))
    render(five, tmp_path / "a")
    render(five, tmp_path / "b")
    assert len(checks) == 2


def test_validate_keeps_the_verdict_for_the_next_render(tmp_path: Path, checks: Calls, five: str) -> None:
    result = CliRunner().invoke(cli, ["validate", five])
    assert result.exit_code == 0, result.output
    assert len(entries()) == 1
    render(five, tmp_path / "a")
    assert not checks  # the render reused what validate found
    CliRunner().invoke(cli, ["validate", five, "--games", "3"])
    assert len(entries()) == 1  # a shortened check is not the render's verdict
