"""The cache trusts only what this user's boardgen wrote: no code from an entry, no forged
verdict, no folder others can write, no link, FIFO or device followed (issue 28's reproducers)."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import stat
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from boardgen import cache, verdicts
from boardgen.cli import cli
from boardgen.data import fonts
from boardgen.engines import load_game
from boardgen.render import pdf

FIXTURES = Path(__file__).parent / "fixtures" / "layouts"
KEY = "ab" * 32


@pytest.fixture(autouse=True)
def nothing_converted_yet(monkeypatch: pytest.MonkeyPatch) -> None:
    """Drawings converted by earlier tests in this process are looked up in the cache again."""
    monkeypatch.setattr(pdf, "_CONVERTED", {})
    monkeypatch.setattr(cache, "_told", set())  # what earlier tests were told is told again


def cache_root() -> Path:
    return Path(os.environ["BOARDGEN_CACHE_DIR"])


def files(store: str) -> list[Path]:
    return sorted(p for p in (cache_root() / store).rglob("*") if p.is_file())


def run_code_pickle(marker: Path) -> bytes:
    """The issue's payload: a protocol-4 pickle naming os.system through a dotted name inside
    a module an allow-list of module prefixes lets through; loading it creates marker."""
    module, name, command = b"reportlab.pdfbase.ttfonts", b"os.system", f"touch {marker}".encode()

    def text(data: bytes) -> bytes:
        return b"\x8c" + bytes([len(data)]) + data  # SHORT_BINUNICODE

    return b"\x80\x04" + text(module) + text(name) + b"\x93" + text(command) + b"\x85R."


def plant_old_font_entries(payload: bytes) -> int:
    """The payload as the pickled-font entry of every bundled face, in the format and under the
    keys boardgen used up to 8252df2 (fonts/<key[:2]>/<key>.bin, unkeyed SHA-256 digest)."""
    listing = tomllib.loads((fonts.fonts_root() / "fonts.toml").read_text(encoding="utf-8"))
    old_format = b"boardgen-drawing-2"
    for entry in listing["font"]:
        face = fonts.Face(entry["family"], entry["weight"], fonts.fonts_root() / entry["file"])
        info = face.path.stat()
        material = f"{face.pdf_name}\0{face.path.resolve()}\0{info.st_size}\0{info.st_mtime_ns}\0"
        material += cache.installed("reportlab", "pdfbase/ttfonts.py", "pdfbase/pdfmetrics.py") + sys.version
        key = hashlib.sha256(old_format + b" font " + material.encode("utf-8", "surrogatepass")).hexdigest()
        path = cache_root() / "fonts" / key[:2] / f"{key}.bin"
        path.parent.mkdir(parents=True, exist_ok=True)
        head = b"\n".join((old_format, key.encode(), hashlib.sha256(payload).hexdigest().encode()))
        path.write_bytes(head + b"\n\n" + payload)
    return len(listing["font"])


def sign(store: cache.Store, key: str, payload: bytes, secret: bytes) -> bytes:
    """An entry as boardgen.cache writes it, signed with `secret`."""
    mac = cache._sign(secret, store.name, key, payload).encode()
    return (
        b" ".join((cache.FORMAT, store.name.encode(), key.encode(), str(len(payload)).encode(), mac)) + b"\n" + payload
    )


def dice(out: Path) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["dice", "--count", "3", "-o", str(out)])
    return result.exit_code, result.output


# No code from the cache ------------------------------------------------------------------------


def test_a_planted_pickle_runs_nothing(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    payload = run_code_pickle(marker)
    assert plant_old_font_entries(payload) == 4
    code, output = dice(tmp_path / "a")  # fills the cache: drawings
    assert code == 0, output
    own = cache._secret()
    assert own is not None
    for store in (cache.DRAWINGS, cache.KIT_SVGS, cache.VERDICTS):
        for path in files(store.name):  # every entry, even signed with the user's own key
            path.write_bytes(sign(store, path.name, payload, own))
    code, output = dice(tmp_path / "b")
    assert code == 0, output
    assert not marker.exists()
    assert (tmp_path / "b" / "dice").is_dir()


def test_no_entry_holds_a_pickle(tmp_path: Path) -> None:
    code, output = dice(tmp_path)
    assert code == 0, output
    entries = [p for p in cache_root().rglob("*") if p.is_file()]
    assert entries
    for path in entries:
        head, _, payload = path.read_bytes().partition(b"\n")
        assert head.startswith(cache.FORMAT + b" ")
        assert payload == b"" or isinstance(json.loads(payload), (dict, list))


# Forged entries ---------------------------------------------------------------------------------


def failing_layout_report(tmp_path: Path) -> tuple[str, dict[str, object]]:
    """The key and report of a layout that fails its check, the report forged to say it passes."""
    layout_file = str(FIXTURES / "turn_cap_too_low.toml")
    result = CliRunner().invoke(
        cli, ["render", layout_file, "-o", str(tmp_path / "forced"), "--force", "--no-preview", "--no-svg"]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(next((tmp_path / "forced").rglob("*-playability.json")).read_text(encoding="utf-8"))
    assert report["playable"] is False
    report["playable"] = True
    report["reasons"] = []
    engine, layout = load_game(layout_file)
    key = verdicts.verdict_key(engine.name, engine.version, layout.doc.data, layout.default_seed)
    assert key is not None
    for path in files("verdicts"):  # start from an empty store: only the forgeries are there
        path.unlink()
    return key, report


def test_a_forged_verdict_is_ignored_and_said_to_be(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    key, report = failing_layout_report(tmp_path)
    blob = json.dumps(report, ensure_ascii=False).encode("utf-8")
    # The forger knows the format and the key, not the user's secret...
    forged = cache_root() / "verdicts" / key[:2] / key
    forged.parent.mkdir(parents=True, exist_ok=True)
    forged.write_bytes(sign(cache.VERDICTS, key, blob, b"attacker's own key"))
    # ... and plants the entry 8252df2 read too (verdicts/<key>.json, unkeyed digest).
    digest = hashlib.sha256(
        json.dumps(report, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    ).hexdigest()
    (cache_root() / "verdicts" / f"{key}.json").write_text(
        json.dumps({"format": 2, "key": key, "digest": digest, "report": report}), encoding="utf-8"
    )
    result = CliRunner().invoke(
        cli, ["render", str(FIXTURES / "turn_cap_too_low.toml"), "-o", str(tmp_path / "x"), "--no-preview", "--no-svg"]
    )
    assert result.exit_code == 4, result.output
    assert "ignored a kept verdict not signed with your cache key" in caplog.text
    assert str(forged) in caplog.text
    assert not (tmp_path / "x" / "turn_cap_too_low").exists()


def test_an_entry_signed_with_another_users_key_is_ignored(caplog: pytest.LogCaptureFixture) -> None:
    cache.VERDICTS.write(KEY, b'{"playable": true}')
    assert cache.VERDICTS.read(KEY) == b'{"playable": true}'
    path = cache_root() / "verdicts" / KEY[:2] / KEY
    path.write_bytes(sign(cache.VERDICTS, KEY, b'{"playable": true}', bytes(32)))
    others = [f"{i:02d}" * 32 for i in range(3)]
    for key in others:
        cache.VERDICTS.write(key, b"{}")
        (cache_root() / "verdicts" / key[:2] / key).write_bytes(sign(cache.VERDICTS, key, b"{}", bytes(32)))
    with caplog.at_level(logging.WARNING, logger="boardgen.cache"):
        assert cache.VERDICTS.read(KEY) is None
        assert all(cache.VERDICTS.read(key) is None for key in others)
    assert "not signed with your cache key" in caplog.text
    assert caplog.text.count("not signed") == 1  # said once for the store, not once an entry


def test_a_forged_schema_pass_is_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from boardgen.data import loader
    from boardgen.data.paths import layouts_root

    huge = tmp_path / "huge.toml"  # a tile count the schema refuses; believed past it, validate hangs
    text = (layouts_root() / "games" / "classic.toml").read_text(encoding="utf-8")
    huge.write_text(text.replace("count = 12\n", "count = 1000000000000\n", 1), encoding="utf-8")
    asked: list[str] = []
    real = loader._schema_mark

    def spy(*args: object) -> str | None:
        mark = real(*args)  # type: ignore[arg-type]
        if mark is not None:
            asked.append(mark)
        return mark

    monkeypatch.setattr(loader, "_schema_mark", spy)
    result = CliRunner().invoke(cli, ["validate", str(huge)])
    assert result.exit_code == 2, result.output
    for mark in asked:  # a pass for every mark the loader looks for, signed with a key not the user's
        path = cache_root() / "schema-passes" / mark[:2] / mark
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(sign(cache.SCHEMA_PASSES, mark, b"", b"attacker"))
    child = subprocess.run(
        [sys.executable, "-m", "boardgen", "validate", str(huge)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert child.returncode == 2, child.stderr
    assert "ignored a kept schema pass not signed with your cache key" in child.stderr
    assert "tiles.loose" in child.stderr


# Folders and entries that are not the user's own ---------------------------------------------------


@pytest.mark.parametrize("where", ["root", "store"])
def test_a_folder_others_can_write_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str, caplog: pytest.LogCaptureFixture
) -> None:
    root = tmp_path / "shared"
    root.mkdir(mode=0o700)
    folder = root if where == "root" else root / "drawings"
    folder.mkdir(exist_ok=True)
    os.chmod(folder, 0o777)
    monkeypatch.setenv("BOARDGEN_CACHE_DIR", str(root))
    code, output = dice(tmp_path / "a")
    assert code == 0, output
    assert f"not using {folder}: it can be written by others than you (mode 777)" in caplog.text
    assert not [p for p in folder.rglob("*") if p.is_file()]  # nothing written in it


def test_a_folder_of_another_user_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    if os.getuid() != 0:
        pytest.skip("giving a folder to another user needs root")
    root = tmp_path / "theirs"
    root.mkdir(mode=0o700)
    os.chown(root, 65534, 65534)
    monkeypatch.setenv("BOARDGEN_CACHE_DIR", str(root))
    code, output = dice(tmp_path / "a")
    assert code == 0, output
    assert f"not using {root}: it belongs to another user (uid 65534)" in caplog.text
    assert not list(root.iterdir())


def test_a_store_folder_that_is_a_link_is_refused_and_pruning_stays_inside(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "ab").mkdir()
    precious = victim / "ab" / KEY
    precious.write_bytes(b"the victim's file")
    cache_root().mkdir(exist_ok=True)
    (cache_root() / "drawings").symlink_to(victim)
    code, output = dice(tmp_path / "a")
    assert code == 0, output
    assert f"not using {cache_root() / 'drawings'}: it is a link" in caplog.text
    cache.prune(limit=0, keep=0)
    assert precious.read_bytes() == b"the victim's file"
    assert sorted(p.name for p in victim.rglob("*")) == ["ab", KEY]


def test_a_fifo_a_link_and_a_huge_entry_are_not_read(tmp_path: Path) -> None:
    """Run in a child so that a blocking open fails the test instead of hanging it. The cache is
    filled by a child too: a drawing's key names the fonts its process has registered, and
    earlier tests in this process register others (a fresh process would never ask for those)."""
    first = subprocess.run(
        [sys.executable, "-m", "boardgen", "dice", "--count", "3", "-o", str(tmp_path / "a")],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert first.returncode == 0, first.stderr
    entries = files("drawings")
    assert len(entries) >= 3
    entries[0].unlink()
    os.mkfifo(entries[0])
    entries[1].unlink()
    entries[1].symlink_to("/dev/zero")
    with entries[2].open("ab") as out:
        out.truncate(cache.DRAWINGS.max_bytes + 4096)
    child = subprocess.run(
        [sys.executable, "-m", "boardgen", "dice", "--count", "3", "-o", str(tmp_path / "b")],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert child.returncode == 0, child.stderr
    assert "is not a regular file" in child.stderr and "is a link, not a cache entry" in child.stderr
    assert (tmp_path / "b" / "dice").is_dir()


# The key ----------------------------------------------------------------------------------------


def test_the_key_is_made_once_private_and_outside_the_cache() -> None:
    cache.VERDICTS.write(KEY, b"{}")
    path = cache.key_file()
    assert not path.is_relative_to(cache_root())
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert len(path.read_text(encoding="ascii").strip()) == 64
    again = cache._secret_at.__wrapped__(str(path))
    assert again == bytes.fromhex(path.read_text(encoding="ascii"))


@pytest.mark.parametrize("damage", ["mode", "folder"])
def test_a_key_others_can_read_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str, caplog: pytest.LogCaptureFixture
) -> None:
    state = tmp_path / "state"
    (state / "boardgen").mkdir(parents=True)
    key = state / "boardgen" / "cache-key"
    key.write_text("0" * 64 + "\n", encoding="ascii")
    os.chmod(key, 0o644 if damage == "mode" else 0o600)
    if damage == "folder":
        os.chmod(state / "boardgen", 0o777)
    monkeypatch.setenv("XDG_STATE_HOME", str(state))
    code, output = dice(tmp_path / "a")
    assert code == 0, output
    assert "working without a cache" in caplog.text
    assert not files("drawings")


def test_store_round_trip_and_bounds() -> None:
    cache.KIT_SVGS.write(KEY, b"[1]")
    assert cache.KIT_SVGS.read(KEY) == b"[1]"
    assert cache.KIT_SVGS.read("../" + KEY[3:]) is None  # keys are digests, nothing else
    cache.SCHEMA_PASSES.write(KEY, b"not empty")  # over the store's bound: not kept
    assert cache.SCHEMA_PASSES.read(KEY) is None
