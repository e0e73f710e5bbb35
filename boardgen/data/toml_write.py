"""Writing layout and theme data as TOML: the one writer behind `generate` and `new`.

`value` and `key` give TOML literals; `document` writes a whole file, each top-level table a
section (with an optional comment line above it), arrays of tables as ``[[name]]`` entries.
With ``nested=True`` larger sub-tables and arrays of tables inside a section get sections of
their own (``[[board.starts]]``); otherwise every value of a section is written inline.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def value(item: Any) -> str:
    """A TOML literal for the plain values layouts and themes hold."""
    if isinstance(item, bool):
        return "true" if item else "false"
    if isinstance(item, int | float):
        return repr(item)
    if isinstance(item, str):
        escaped = item.replace("\\", "\\\\").replace('"', '\\"')
        return f'"{escaped}"'
    if isinstance(item, Mapping):
        return "{ " + ", ".join(f"{key(k)} = {value(v)}" for k, v in item.items()) + " }"
    if isinstance(item, list | tuple):
        return "[" + ", ".join(value(v) for v in item) + "]"
    raise TypeError(f"cannot write {item!r} as TOML")


def key(name: str) -> str:
    bare = name.replace("_", "").replace("-", "").isalnum() and name.isascii()
    return name if bare else value(name)


def document(data: Mapping[str, Any], *, header: Sequence[str] = (), comments: Mapping[str, str] | None = None,
             nested: bool = False) -> str:
    """The file: header lines as comments, then every top-level table as a section."""
    out = [f"# {line}" if line else "#" for line in header]
    if out:
        out.append("")
    for name, item in data.items():
        if comments and name in comments:
            out.append(f"# {comments[name]}")
        if _is_table_array(item):
            for entry in item:
                out.append(f"[[{key(name)}]]")
                _section(out, (name,), entry, nested)
                out.append("")
        elif isinstance(item, Mapping):
            out.append(f"[{key(name)}]")
            _section(out, (name,), item, nested)
            out.append("")
        else:
            out.insert(len(header) + 1 if header else 0, f"{key(name)} = {value(item)}")
    return "\n".join(out).rstrip("\n") + "\n"


def _is_table_array(item: Any) -> bool:
    return isinstance(item, list) and bool(item) and all(isinstance(v, Mapping) for v in item)


def _own_section(item: Any) -> bool:
    """Inside a nested document: arrays of tables and large or nested tables get sections."""
    if _is_table_array(item):
        return True
    return isinstance(item, Mapping) and (len(item) > 3 or any(isinstance(v, Mapping | list) for v in item.values()))


def _section(out: list[str], path: tuple[str, ...], table: Mapping[str, Any], nested: bool) -> None:
    later = {k: v for k, v in table.items() if nested and _own_section(v)}
    out.extend(f"{key(k)} = {value(v)}" for k, v in table.items() if k not in later)
    for name, item in later.items():
        child = ".".join(key(part) for part in (*path, name))
        for entry in item if _is_table_array(item) else [item]:
            out += ["", f"[[{child}]]" if _is_table_array(item) else f"[{child}]"]
            _section(out, (*path, name), entry, nested)
