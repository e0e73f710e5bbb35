"""The kit folder always holds one complete kit, the old one or the new one: failures, a full
disk, SIGINT and SIGTERM leave the old kit byte for byte and no temporary folder; a new kit
replaces the old one whole; modes follow the umask; inputs are all checked before the slow
playability check.

The render here skips the playability check (it has its own tests) and most skip the previews.
"""

from __future__ import annotations

import errno
import os
import signal
import stat
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from pypdf import PdfReader

from boardgen.errors import Interrupted, OutputError, UsageError
from boardgen.kit import render_kit
from boardgen.kits.output import write_kit
from boardgen.options import KitOptions

# Unchecked kits of their own, on the session's cache: none of these tests tests the cache.
pytestmark = pytest.mark.usefixtures("warm_cache")


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    out = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            out[path.relative_to(folder).as_posix()] = (path.read_bytes(), path.stat().st_mtime_ns)
    return out


def hidden(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob(".*"))


@pytest.fixture(scope="module")
def kit_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An output root holding a classic kit (seed 1, no previews)."""
    root = tmp_path_factory.mktemp("kits")
    render_kit("classic", root, KitOptions(previews=False, check=False))
    return root


@pytest.fixture
def old_kit(kit_root: Path, tmp_path: Path) -> Path:
    """A private copy of the kit, plus a user's file and a reprint that are not part of it."""
    out = tmp_path / "out"
    subprocess.run(["cp", "-a", str(kit_root), str(out)], check=True)
    (out / "classic" / "notes.txt").write_text("mine", encoding="utf-8")
    (out / "classic" / "classic-a4-sheets-2.pdf").write_bytes(b"%PDF-reprint")
    return out


def no_check_expected(monkeypatch) -> None:
    """Any call to the playability check fails the test: the error had to come before it."""

    def refuse(*_args, **_kwargs):
        raise AssertionError("the playability check ran before an input error was found")

    monkeypatch.setattr("boardgen.kit.require_playable", refuse)


# Replacing a kit --------------------------------------------------------------------------------


def test_new_kit_replaces_the_old_one_whole_and_keeps_other_files(old_kit):
    kit = old_kit / "classic"
    before = snapshot(kit)
    render_kit("classic", old_kit, KitOptions(previews=False, seed=2, check=False))
    after = snapshot(kit)
    assert after["notes.txt"] == before["notes.txt"]
    assert after["classic-a4-sheets-2.pdf"][0] == b"%PDF-reprint"
    assert after["classic-a4.pdf"] == before["classic-a4.pdf"]  # another variant's PDF stays
    metadata = PdfReader(kit / "classic-a4-seed2.pdf").metadata
    assert metadata is not None and "seed 2" in str(metadata["/Subject"])
    # The new seed's drawings go in a folder of their own: the setup picture differs, the set
    # of files does not, and the first variant's svg/ stays as it was.
    assert {k.replace("svg-seed2/", "svg/") for k in after if k.startswith("svg-seed2/")} == {
        k for k in before if k.startswith("svg/")
    }
    assert after["svg-seed2/setup.svg"][0] != before["svg/setup.svg"][0]
    assert {k: v for k, v in after.items() if k.startswith("svg/")} == {
        k: v for k, v in before.items() if k.startswith("svg/")
    }
    assert hidden(old_kit) == []


def test_kit_without_svg_drops_its_own_svg_folder_only(old_kit):
    render_kit("classic", old_kit, KitOptions(previews=False, seed=2, check=False))
    assert (old_kit / "classic" / "svg-seed2" / "setup.svg").exists()
    render_kit("classic", old_kit, KitOptions(previews=False, svg=False, seed=2, check=False))
    assert not (old_kit / "classic" / "svg-seed2").exists()
    assert (old_kit / "classic" / "svg" / "setup.svg").exists()  # the seed 1 kit's, beside its PDF
    assert (old_kit / "classic" / "notes.txt").exists()


def test_a_second_variant_never_overwrites_the_first_ones_svg(old_kit):
    # `render classic` then `render classic --lang fr --paper letter`: svg/ stays English.
    kit = old_kit / "classic"
    english = (kit / "svg" / "card-book.svg").read_text(encoding="utf-8")
    render_kit("classic", old_kit, KitOptions(previews=False, lang="fr", paper="letter", check=False))
    assert (kit / "svg" / "card-book.svg").read_text(encoding="utf-8") == english
    assert "Book" in english and "Grimoire" not in english
    assert "Grimoire" in (kit / "svg-fr" / "card-book.svg").read_text(encoding="utf-8")
    # Paper alone draws the same pieces: the French A4 kit shares the French folder.
    render_kit("classic", old_kit, KitOptions(previews=False, lang="fr", check=False))
    assert sorted(p.name for p in kit.iterdir() if p.name.startswith("svg")) == ["svg", "svg-fr"]


def test_modes_follow_the_umask(tmp_path):
    old = os.umask(0o022)
    try:
        written = write_kit(tmp_path / "k", {"a.pdf": b"x", "svg/b.svg": b"y"})
        os.umask(0o077)
        write_kit(tmp_path / "k2", {"a.pdf": b"x"})
    finally:
        os.umask(old)
    assert [p.name for p in written] == ["a.pdf", "b.svg"]
    assert stat.S_IMODE((tmp_path / "k" / "a.pdf").stat().st_mode) == 0o644
    assert stat.S_IMODE((tmp_path / "k" / "svg" / "b.svg").stat().st_mode) == 0o644
    assert stat.S_IMODE((tmp_path / "k" / "svg").stat().st_mode) == 0o755
    assert stat.S_IMODE((tmp_path / "k").stat().st_mode) == 0o755
    assert stat.S_IMODE((tmp_path / "k2" / "a.pdf").stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "k2").stat().st_mode) == 0o700


# Failures leave the old kit ------------------------------------------------------------------------


def test_full_disk_while_writing_leaves_the_old_kit(old_kit, monkeypatch):
    kit = old_kit / "classic"
    before = snapshot(kit)
    real_open = Path.open
    calls = {"n": 0}

    def filling_up(self, mode="r", *args, **kwargs):
        if "x" in mode:
            calls["n"] += 1
            if calls["n"] > 20:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(self))
        return real_open(self, mode, *args, **kwargs)

    monkeypatch.setattr(Path, "open", filling_up)
    with pytest.raises(OutputError, match="No space left on device"):
        render_kit("classic", old_kit, KitOptions(previews=False, seed=2, check=False))
    assert calls["n"] > 20
    assert snapshot(kit) == before
    assert hidden(old_kit) == []


def test_signal_swallowed_inside_the_previews_still_stops_the_render(old_kit, monkeypatch):
    """pypdfium2 calls back into Python; an exception raised there is printed and dropped. The
    render must stop anyway, before the swap."""
    kit = old_kit / "classic"
    before = snapshot(kit)
    handler = signal.getsignal(signal.SIGINT)  # Python's own, or SIG_IGN if started in the background
    swallowed = []
    main = threading.main_thread().ident
    assert main is not None

    def previews_that_swallow(*_args, **_kwargs):
        try:
            # To this thread (the main one, where Python runs signal handlers), not to the
            # process: a process-wide signal may land on another thread, its handler running
            # whenever the machine gets round to it, after this block on a loaded machine.
            signal.pthread_kill(main, signal.SIGINT)
            time.sleep(600)  # the event: the handler's exception ends the wait (at once, in practice)
        except KeyboardInterrupt:
            swallowed.append(True)  # what a C callback does with it
        return {"board.png": b"png"}

    monkeypatch.setattr("boardgen.render.preview.previews", previews_that_swallow)
    with pytest.raises(Interrupted) as caught:
        render_kit("classic", old_kit, KitOptions(previews=True, seed=2, check=False))
    assert swallowed == [True]  # the handler ran inside the previews, which dropped its exception
    assert caught.value.exit_code == 128 + signal.SIGINT
    assert snapshot(kit) == before
    assert hidden(old_kit) == []
    assert signal.getsignal(signal.SIGINT) is handler  # handlers put back


DRIVER = textwrap.dedent("""
    import sys
    import boardgen.render.preview as preview

    real = preview._render

    def announced(*args, **kwargs):
        print("PREVIEW", flush=True)
        return real(*args, **kwargs)

    preview._render = announced
    from boardgen.cli import main
    sys.argv = ["boardgen", *sys.argv[1:]]
    main()
""")


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_signal_during_the_previews_of_a_real_process(old_kit, signum):
    kit = old_kit / "classic"
    before = snapshot(kit)
    process = subprocess.Popen(
        [sys.executable, "-c", DRIVER, "render", "classic", "--seed", "2", "--no-check", "-o", str(old_kit)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=old_kit,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    assert line == "PREVIEW\n", line + process.communicate()[1]
    process.send_signal(signum)
    _out, err = process.communicate(timeout=120)
    assert process.returncode == 128 + signum, err
    assert "Traceback" not in err
    assert "boardgen: interrupted" in err
    assert snapshot(kit) == before
    assert hidden(old_kit) == []


# Checked before the playability check ------------------------------------------------------------


def test_file_named_svg_where_the_svg_folder_goes(old_kit, monkeypatch):
    kit = old_kit / "classic"
    subprocess.run(["rm", "-r", str(kit / "svg")], check=True)
    (kit / "svg").write_text("a file of mine", encoding="utf-8")
    before = snapshot(kit)
    no_check_expected(monkeypatch)
    with pytest.raises(OutputError, match=r"classic/svg: something other than a folder is in the way"):
        render_kit("classic", old_kit, KitOptions(previews=False))
    assert snapshot(kit) == before
    assert hidden(old_kit) == []


def test_missing_picture_found_before_the_check(tmp_path, monkeypatch):
    theme = tmp_path / "t.toml"
    theme.write_text(
        '[theme]\nid = "t"\nname = { en = "T", fr = "T" }\nextends = "classic"\n[art]\nbook = "nowhere.svg"\n',
        encoding="utf-8",
    )
    no_check_expected(monkeypatch)
    with pytest.raises(Exception, match="picture file not found"):
        render_kit("classic", tmp_path / "out", KitOptions(theme=str(theme), previews=False))
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    "options, message",
    [
        (KitOptions(paper="100x100"), "pawn does not fit"),
        (KitOptions(paper="100x100", margin=15), "leaves no room"),
        (KitOptions(paper="99999x99999"), "larger than A0"),
        (KitOptions(paper="5000x5000"), "larger than A0"),
        (KitOptions(margin=float("nan")), "finite"),
        (KitOptions(margin=-1), "between 0 and 30"),
        (KitOptions(overlap=float("-inf")), "finite"),
        (KitOptions(back_offset=(500.0, 0.0)), "between -10 and 10"),
        (KitOptions(back_offset=(0.0, -9.0)), "past the 8 mm margin"),
        (KitOptions(back_offset=(3.0, 0.0), margin=2), "past the 2 mm margin"),
        (KitOptions(seed=2**64), "seed"),
    ],
)
def test_options_refused_before_the_check(tmp_path, monkeypatch, options, message):
    no_check_expected(monkeypatch)
    with pytest.raises(UsageError, match=message):
        render_kit("classic", tmp_path, options)
    assert list(tmp_path.iterdir()) == []


def test_staging_left_by_a_killed_render_is_removed_by_the_next(old_kit):
    """A render killed outright (SIGKILL) cannot clean up: its hidden staging folder, named
    with its pid, is removed by the next render of that kit; a running render's is kept."""
    gone = subprocess.Popen(["true"])
    gone.wait()  # a pid that no longer runs
    stale = old_kit / f".classic.new-{gone.pid}-abc123"
    (stale / "svg").mkdir(parents=True)
    (stale / "classic-a4.pdf").write_bytes(b"half a kit")
    stale_old = old_kit / f".classic.old-{gone.pid}-def456"
    stale_old.mkdir()
    running = old_kit / f".classic.new-{os.getppid()}-ghi789"  # pytest's parent: alive
    running.mkdir()
    other = old_kit / f".walls.new-{gone.pid}-jkl012"  # another kit's: not this render's business
    other.mkdir()
    render_kit("classic", old_kit, KitOptions(previews=False, check=False))
    assert hidden(old_kit) == sorted([running.name, other.name])
