"""Writing layout and theme data as TOML, through tomlkit: the one writer behind `generate`,
`new` and `tune`.

tomlkit is a round-trip TOML library: what it writes is valid TOML whatever the strings hold
(a newline, a quote, a backslash), and a file it has read it writes back as it was, comments,
order and multi-line strings included (`set_value` changes one key of such a file).

`value` and `key` give TOML literals; `document` builds a whole file, each top-level table a
section (with an optional comment line above it), arrays of tables as ``[[name]]`` entries.
With ``nested=True`` larger sub-tables and arrays of tables inside a section get sections of
their own (``[[board.starts]]``); otherwise every value of a section is written inline.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import tomlkit
from tomlkit.items import AoT, Item, Table


def inline(item: Any) -> Item:
    """A tomlkit item holding `item` on one line: tables inline, arrays of anything."""
    if isinstance(item, Mapping):
        table = tomlkit.inline_table()
        for name, entry in item.items():
            table.append(name, inline(entry))
        entries = [v for k, v in table.value.body if k is not None]
        if entries:  # written as boardgen always has: { a = 1, b = 2 }
            entries[0].trivia.indent = " "
            entries[-1].trivia.trail = " "
        return table
    if isinstance(item, list | tuple):
        array = tomlkit.array()
        for entry in item:
            array.append(inline(entry))
        return array
    if isinstance(item, bool | int | float | str):
        return tomlkit.item(item)
    raise TypeError(f"cannot write {item!r} as TOML")


def value(item: Any) -> str:
    """A TOML literal for the plain values layouts and themes hold."""
    return inline(item).as_string()


def key(name: str) -> str:
    return tomlkit.key(name).as_string()


def document(
    data: Mapping[str, Any],
    *,
    header: Sequence[str] = (),
    comments: Mapping[str, str] | None = None,
    nested: bool = False,
) -> str:
    """The file: header lines as comments, top-level values, then every top-level table as a
    section."""
    doc = tomlkit.document()
    for line in header:
        doc.add(tomlkit.comment(line))
    if header:
        doc.add(tomlkit.nl())
    scalars = {k: v for k, v in data.items() if not (_is_table_array(v) or isinstance(v, Mapping))}
    for name, item in scalars.items():
        doc.add(name, inline(item))
    if scalars:
        doc.add(tomlkit.nl())
    for name, item in data.items():
        if name in scalars:
            continue
        note = comments.get(name) if comments else None
        if note:
            if len(doc.body) > 0:
                doc.add(tomlkit.nl())
            doc.add(tomlkit.comment(note))
        section: Table | AoT = _aot((name,), item, nested) if _is_table_array(item) else _table((name,), item, nested)
        doc.add(name, section)
        if note:  # the comment sits right above its section
            (section if isinstance(section, Table) else section.body[0]).trivia.indent = ""
    return dump(doc)


def dump(doc: tomlkit.TOMLDocument) -> str:
    """The text of `doc`, ending in one newline."""
    return tomlkit.dumps(doc).rstrip("\n") + "\n"


def _is_table_array(item: Any) -> bool:
    return isinstance(item, list) and bool(item) and all(isinstance(v, Mapping) for v in item)


def _own_section(item: Any) -> bool:
    """Inside a nested document: arrays of tables and large or nested tables get sections."""
    if _is_table_array(item):
        return True
    return isinstance(item, Mapping) and (len(item) > 3 or any(isinstance(v, Mapping | list) for v in item.values()))


def _aot(path: tuple[str, ...], items: Sequence[Mapping[str, Any]], nested: bool) -> AoT:
    out = tomlkit.aot()
    for entry in items:
        out.append(_table(path, entry, nested))
    return out


def _table(path: tuple[str, ...], table: Mapping[str, Any], nested: bool) -> Table:
    out = tomlkit.table(is_super_table=False)  # a header even for a table of tables: [tiles]
    later = {k: v for k, v in table.items() if nested and _own_section(v)}
    for name, item in table.items():
        if name not in later:
            out.append(name, inline(item))
    for name, item in later.items():
        out.append(
            name, _aot((*path, name), item, nested) if _is_table_array(item) else _table((*path, name), item, nested)
        )
    if later and len(later) == len(table):  # only tables inside: a blank line under the header
        first = out.value.body[0][1]
        (first.body[0] if isinstance(first, AoT) else first).trivia.indent = "\n"
    return out


def set_value(doc: tomlkit.TOMLDocument, path: Sequence[str | int], new: Any, whole: Mapping[str, Any]) -> None:
    """Set the key at `path` (table keys and array indexes) of a document read by tomlkit to
    `new`, leaving the rest as written. A table the file does not have yet (its values come
    from the file it extends) is added; an array it does not have is written whole, from
    `whole`, the data after `extends` with `new` already set."""
    node: Any = doc
    for depth, part in enumerate(path[:-1]):
        if isinstance(part, int):
            node = node[part]
            continue
        if part not in node:
            rest = path[depth + 1 :]
            if any(isinstance(p, int) for p in rest):
                node[part] = _whole(whole, path[: depth + 1])
                return
            node[part] = tomlkit.table()
        node = node[part]
    last = path[-1]
    old = node[last] if (isinstance(last, int) or last in node) else None
    fresh = inline(new)
    if isinstance(old, Item) and isinstance(fresh, Item) and old.trivia.comment:
        fresh.comment(old.trivia.comment.lstrip("# "))  # a comment at the end of its line stays
    node[last] = fresh


def _whole(data: Mapping[str, Any], path: Sequence[str | int]) -> Item:
    node: Any = data
    for part in path:
        node = node[part]
    return _aot(tuple(str(p) for p in path), node, True) if _is_table_array(node) else inline(node)
