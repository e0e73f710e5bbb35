"""Outputs never replace what they should not (issue 28): a FIFO, a device, a socket or a folder
named as an output file is refused and left as it was; an existing file is replaced only with
--force; a kit folder that is a link is refused, not parked; an interrupted render leaves no
staging folder."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import stat
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from boardgen.cli import cli
from boardgen.errors import Interrupted, OutputError
from boardgen.kits.output import check_output, interruptible, write_atomic, write_kit


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    assert not (result.exception and not isinstance(result.exception, SystemExit)), result.output
    return result.exit_code, result.output


def fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def char_device(path: Path) -> Path:
    """A character device with /dev/null's numbers, made here (needs the right to make devices)."""
    try:
        os.mknod(path, stat.S_IFCHR | 0o600, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("making a device node needs privileges this test does not have")
    return path


def a_folder(path: Path) -> Path:
    path.mkdir()
    return path


def unix_socket(path: Path) -> Path:
    if len(os.fsencode(path)) > 100:
        pytest.skip("the temporary folder's path is too long for a socket")
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(path))
    sock.close()
    return path


MAKERS: dict[str, Callable[[Path], Path]] = {
    "FIFO": fifo,
    "character device": char_device,
    "socket": unix_socket,
    "folder": a_folder,
}


@pytest.mark.parametrize("kind", list(MAKERS))
@pytest.mark.parametrize("command", [["generate", "minos", "-o"], ["show", "pictures", "--contact-sheet"]])
def test_an_output_that_is_not_a_file_is_refused(tmp_path: Path, kind: str, command: list[str]) -> None:
    target = MAKERS[kind](tmp_path / "target")
    before = os.lstat(target)
    for extra in ([], ["--force"]):
        code, out = run(*command, str(target), *extra)
        if kind == "folder" and command[0] == "show":  # click's own check (dir_okay=False) comes first
            assert code == 2 and "is a directory" in out, out
        else:
            assert code == 3, out
            assert f"cannot write {target}: it is a {kind}, not a file" in out
        after = os.lstat(target)
        assert (after.st_mode, after.st_ino, after.st_rdev) == (before.st_mode, before.st_ino, before.st_rdev)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["target"]  # no temporary file left


@pytest.mark.parametrize("command", [["generate", "minos", "-o"], ["show", "pictures", "--contact-sheet"]])
def test_an_existing_file_is_replaced_only_with_force(tmp_path: Path, command: list[str]) -> None:
    target = tmp_path / "mine.toml"
    target.write_text("my own work\n", encoding="utf-8")
    code, out = run(*command, str(target))
    assert code == 3, out
    assert f"{target} already exists (use --force to replace it)" in out
    assert target.read_text(encoding="utf-8") == "my own work\n"
    code, out = run(*command, str(target), "--force")
    assert code == 0, out
    assert target.read_bytes() != b"my own work\n"


def test_the_kits_own_files_are_replaced(tmp_path: Path) -> None:
    for _ in range(2):
        code, out = run("dice", "-o", str(tmp_path))
        assert code == 0, out
    assert [p.name for p in (tmp_path / "dice").iterdir()] == ["dice-a4.pdf"]


def test_write_atomic_refuses_a_device_even_when_replacing(tmp_path: Path) -> None:
    device = char_device(tmp_path / "full")
    with pytest.raises(OutputError, match="it is a character device, not a file"):
        write_atomic(device, b"png", replace=True)
    assert stat.S_ISCHR(os.lstat(device).st_mode)


@pytest.mark.parametrize("kind", ["FIFO", "folder"])
def test_a_kit_file_that_is_not_a_file_is_refused_before_any_work(tmp_path: Path, kind: str) -> None:
    folder = tmp_path / "classic"
    folder.mkdir()
    MAKERS[kind](folder / "classic-a4.pdf")
    with pytest.raises(OutputError, match="classic-a4.pdf: something other than a file is in the way"):
        check_output(folder, ["classic-a4.pdf", "svg/"])


def test_a_render_into_a_fifo_is_refused(tmp_path: Path) -> None:
    pipe = fifo(tmp_path / "pipe")
    code, out = run("render", "classic", "-o", str(pipe), "--no-check", "--no-preview")
    assert code == 3, out
    assert f"{pipe} is a FIFO, not a folder" in out
    assert stat.S_ISFIFO(os.lstat(pipe).st_mode)


def test_a_kit_folder_that_is_a_link_is_refused_not_parked(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "keep.txt").write_text("mine", encoding="utf-8")
    out_root = tmp_path / "out"
    out_root.mkdir()
    (out_root / "classic").symlink_to(elsewhere)
    code, out = run("render", "classic", "-o", str(out_root), "--no-check", "--no-preview")
    assert code == 3, out
    assert "it is a link" in out and f"-o {tmp_path}" in out
    assert sorted(p.name for p in out_root.iterdir()) == ["classic"]  # nothing parked beside it
    assert (out_root / "classic").is_symlink() and os.readlink(out_root / "classic") == str(elsewhere)
    assert sorted(p.name for p in elsewhere.iterdir()) == ["keep.txt"]
    with pytest.raises(OutputError, match="it is a link"):
        write_kit(out_root / "classic", {"x.pdf": b"%PDF"})


# Interrupted at the worst moment ---------------------------------------------------------------


def ctrl_c() -> None:
    """SIGINT to the main thread, as a terminal's Ctrl-C reaches a one-thread boardgen. Sent to
    the process, it may land on another thread a test left running, whose handler flags it
    for the main thread at once, blocked or not (and the suite went red that way)."""
    main = threading.main_thread().ident
    assert main is not None
    signal.pthread_kill(main, signal.SIGINT)


def hidden(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def test_ctrl_c_right_after_the_staging_folder_is_made_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = tempfile.mkdtemp

    def made_then_interrupted(*args: object, **kwargs: object) -> str:
        made = real(*args, **kwargs)  # type: ignore[call-overload]
        ctrl_c()  # lands before the caller has the folder's name
        return str(made)

    monkeypatch.setattr(tempfile, "mkdtemp", made_then_interrupted)
    with pytest.raises(Interrupted), interruptible():
        write_kit(tmp_path / "classic", {"classic-a4.pdf": b"%PDF", "svg/board.svg": b"<svg/>"})
    assert hidden(tmp_path) == [] and not (tmp_path / "classic").exists()


def test_ctrl_c_while_a_failed_kit_is_cleaned_up_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = shutil.rmtree

    def interrupted_rmtree(path: object, *args: object, **kwargs: object) -> None:
        ctrl_c()  # Ctrl-C again while cleaning up
        real(path, *args, **kwargs)  # type: ignore[arg-type]

    def fails() -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(shutil, "rmtree", interrupted_rmtree)
    with pytest.raises(Interrupted), interruptible():
        write_kit(tmp_path / "classic", {"classic-a4.pdf": b"%PDF", "svg/board.svg": b"<svg/>"}, before_swap=fails)
    assert hidden(tmp_path) == []


def test_ctrl_c_right_after_a_temporary_file_is_made_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = tempfile.mkstemp

    def made_then_interrupted(*args: object, **kwargs: object) -> tuple[int, str]:
        made = real(*args, **kwargs)  # type: ignore[call-overload]
        ctrl_c()
        return made  # type: ignore[no-any-return]

    monkeypatch.setattr(tempfile, "mkstemp", made_then_interrupted)
    with pytest.raises(Interrupted), interruptible():
        write_atomic(tmp_path / "x.pdf", b"%PDF")
    assert hidden(tmp_path) == []
