"""Processes as /proc shows them (Linux), for the tests that end renders and look for what is left."""

from __future__ import annotations

from pathlib import Path


def alive(pid: int) -> bool:
    """Whether the process exists and is not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def carrying(text: str, but: int) -> list[int]:
    """The live processes (other than `but`) whose command line holds `text` (a unique
    output path: forked children keep their parent's command line)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != but:
            try:
                if text.encode() in (entry / "cmdline").read_bytes() and alive(int(entry.name)):
                    found.append(int(entry.name))
            except OSError:
                continue
    return found
