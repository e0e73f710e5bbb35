"""A real PostgreSQL server for the tests: initdb in a temporary folder, started on 127.0.0.1
on a free port, stopped at the end. PostgreSQL refuses to run as root, so as root the server
runs as the ``postgres`` user (made by Debian's package) or else ``nobody``."""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from glob import glob
from pathlib import Path


def binaries() -> Path | None:
    """The folder of initdb and pg_ctl: on PATH, else Debian's /usr/lib/postgresql/N/bin."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).resolve().parent
    versions = sorted(glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    return Path(versions[-1]).parent if versions else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def server(folder_bin: Path) -> Iterator[str]:
    """A running server; yields the URL of its ``postgres`` database for the user ``boardgen``."""
    folder = Path(tempfile.mkdtemp(prefix="boardgen-pg-"))
    prefix: list[str] = []
    if os.geteuid() == 0:
        user = "postgres"
        try:
            pwd.getpwnam(user)
        except KeyError:
            user = "nobody"
        info = pwd.getpwnam(user)
        os.chown(folder, info.pw_uid, info.pw_gid)
        prefix = ["runuser", "-u", user, "--"]
    data, port = folder / "data", _free_port()
    run = dict(check=True, capture_output=True, text=True, timeout=120)
    try:
        subprocess.run(
            [
                *prefix,
                str(folder_bin / "initdb"),
                "-D",
                str(data),
                "-U",
                "boardgen",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-sync",
                "--no-instructions",
            ],
            **run,
        )  # type: ignore[call-overload]
        subprocess.run(
            [
                *prefix,
                str(folder_bin / "pg_ctl"),
                "-D",
                str(data),
                "-l",
                str(folder / "log"),
                "-w",
                "-t",
                "60",
                "-o",
                f"-h 127.0.0.1 -p {port} -k {folder} -F -c max_connections=100",
                "start",
            ],
            **run,
        )  # type: ignore[call-overload]
    except subprocess.CalledProcessError as exc:
        log = (folder / "log").read_text(errors="replace") if (folder / "log").exists() else ""
        shutil.rmtree(folder, ignore_errors=True)
        raise RuntimeError(f"PostgreSQL did not start: {exc.stderr}\n{log}") from None
    try:
        yield f"postgresql://boardgen@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            [*prefix, str(folder_bin / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
            capture_output=True,
            timeout=120,
        )
        shutil.rmtree(folder, ignore_errors=True)


def new_database(url: str) -> str:
    """A fresh, empty database on the server of `url`: its URL."""
    import psycopg

    name = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(url.replace("postgresql://", "postgresql://", 1), autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return url.rsplit("/", 1)[0] + f"/{name}"
