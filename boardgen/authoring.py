"""Making your own: editable copies of bundled games and themes, and what each key changes.

`new_theme` and `new_game` return the text of a file a person edits (written by the CLI
into the current folder, never into the installed package); `describe_game` and
`describe_theme` list what can be changed, with the help text of `descriptions.toml`.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from functools import cache
from typing import Any

from boardgen.data import files, toml_write
from boardgen.data.languages import languages
from boardgen.data.loader import Document, layouts_root, load, resolve
from boardgen.data.theme import Theme
from boardgen.errors import UsageError

NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")


@cache
def descriptions() -> dict[str, dict[str, str]]:
    """Help text per dotted key, for themes ("theme") and layouts ("game")."""
    path = layouts_root() / "schema" / "descriptions.toml"
    data: dict[str, dict[str, str]] = tomllib.loads(path.read_text(encoding="utf-8"))
    return data


def describe_key(kind: str, key: str) -> str:
    """The help text of a dotted key ('palette.floor', 'treasures[].id'), or ''."""
    return descriptions()[kind].get(key, "")


def check_name(name: str) -> str:
    if not NAME.match(name):
        raise UsageError(
            f"name {name!r}: use 1-40 lower-case letters, digits, - or _, starting with a "
            "letter or digit (it becomes the file name and the id)"
        )
    return name


def _comment(text: str) -> str:
    return f"  # {text}" if text else ""


def new_theme(name: str, base: str) -> str:
    """A theme that extends `base`, every value listed with what it changes, ready to edit."""
    check_name(name)
    doc = load("theme", base)
    data = doc.data
    lines = [
        f"# Theme {name!r}, made with `boardgen new theme {name} --from {base}`.",
        "# Change any value and render with:  boardgen render GAME --theme " + f"{name}.toml",
        "# or watch it live with:              boardgen serve GAME --theme " + f"{name}.toml",
        f"# Colours: CSS names, #rgb, #rrggbb or rgb(r, g, b). Lines you delete keep the value of {base!r}.",
        "",
        "[theme]",
        f'id = "{name}"',
        f'name = {{ en = "{name}", fr = "{name}" }}',
        f"extends = {toml_write.value(data['theme']['id'] if _is_bundled('theme', base) else base)}",
    ]
    for table in ("palette", "fonts", "strokes", "style"):
        values = data.get(table, {})
        if not values:
            continue
        lines += ["", f"# {describe_key('theme', table)}", f"[{table}]"]
        nested = {k: v for k, v in values.items() if isinstance(v, Mapping)}
        for key, value in values.items():
            if key not in nested:
                lines.append(f"{key} = {toml_write.value(value)}{_comment(describe_key('theme', f'{table}.{key}'))}")
        for key, value in nested.items():
            lines += ["", f"# {describe_key('theme', f'{table}.{key}')}", f"[{table}.{key}]"]
            lines += [f"{k} = {toml_write.value(v)}" for k, v in value.items()]
    lines += [
        "",
        f"# {describe_key('theme', 'art')}",
        "# `boardgen show pictures` lists the picture names; for example:",
        "[art]",
        '# book = "pictures/my-book.svg"',
        "",
    ]
    return "\n".join(lines)


def _is_bundled(kind: str, name_or_path: str) -> bool:
    try:
        return resolve(kind, name_or_path).resolve().is_relative_to(layouts_root().resolve())
    except OSError:
        return False


def new_game(name: str, base: str) -> str:
    """A copy of the layout `base` under the id `name`, with a header saying what to change:
    the file as written (tomlkit keeps its comments and layout), only ``game.id`` changed."""
    import tomlkit

    check_name(name)
    path = resolve("game", base)
    text = files.read_text(path, what="a layout")
    load("game", base)  # the source must itself be valid
    doc = tomlkit.parse(text)
    game = doc.get("game")
    if not isinstance(game, Mapping) or "id" not in game:
        raise UsageError(f"{base}: no id in its [game] table to rename")
    toml_write.set_value(doc, ("game", "id"), name, {})
    body = toml_write.dump(doc)
    header = (
        f"# Game {name!r}, an editable copy of {base!r} made with "
        f"`boardgen new game {name} --from {base}`.\n"
        f"# `boardgen show {name}.toml` lists what you can change; check it with\n"
        f"# `boardgen validate {name}.toml` and print it with `boardgen render {name}.toml`.\n"
        "# Pictures and rules named here are the bundled ones; a path is relative to this file.\n\n"
    )
    return header + body


def pieces(doc: Document) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """Each array of named things in a layout (treasures, objects, fields...): what cards,
    tokens and pictures are made of."""
    for key, value in doc.data.items():
        if isinstance(value, list) and value and all(isinstance(v, dict) and "id" in v for v in value):
            yield key, value


def describe_game(
    doc: Document, reprint_ids: Mapping[str, Mapping[str, str]] | None = None, parts: Sequence[str] = ()
) -> str:
    """What a layout holds and what each table changes; `parts` (kits.reprint.parts_of) and
    `reprint_ids` (kits.reprint.piece_ids) list what `render --only` reprints: whole parts,
    and pieces one by one."""
    game = doc.data["game"]
    has = languages("game", doc.data)
    lines = [
        " / ".join(dict.fromkeys(game["title"][lang] for lang in has if lang in game["title"])) or game["id"],
        f"  file:    {_where(doc, 'game', game['id'])}",
        f"  engine:  {game['engine']}",
        f"  players: {game['players']['min']}-{game['players']['max']}",
        f"  languages: {', '.join(has)}",
        "",
    ]
    for key, entries in pieces(doc):
        lines.append(f"{key} ({len(entries)}): {describe_key('game', key)}")
        for entry in entries:
            names = entry.get("name", {})
            label = " / ".join(dict.fromkeys(str(names[lang]) for lang in has if lang in names))
            art = entry.get("art", entry["id"])
            lines.append(f"  {entry['id']:<16} {label:<44} picture: {art}")
        lines.append("")
    if parts:
        example = next((p for p in parts if p not in ("cover", "board")), parts[0])
        lines.append(f"Reprint parts: `boardgen render {game['id']} --only {example}`: {', '.join(parts)}")
    if reprint_ids:
        lines.append(
            f"Reprint single pieces: `boardgen render {game['id']} --only "
            + ",".join(f"{kind}:{next(iter(ids))}" for kind, ids in reprint_ids.items() if ids)
            + "`"
        )
        for kind, ids in reprint_ids.items():
            lines.append(f"  {kind} ids ({len(ids)}): {_runs(ids)}")
        lines.append("")
    lines.append("What you can change (top-level tables):")
    for key in doc.data:
        lines.append(f"  [{key}]  {describe_key('game', key)}")
    return "\n".join(lines)


def _where(doc: Document, kind: str, name: str) -> str:
    """The file a person edits; a bundled one is inside the installed package: say how to copy it."""
    if not doc.path.startswith("layouts/"):
        return doc.path
    return f"bundled with boardgen (an editable copy in this folder: `boardgen new {kind} my-{name} --from {name}`)"


def _runs(ids: Mapping[str, str]) -> str:
    """'01-12 straight, 13 corner: rat, ...': numbered pieces alike in a row as one range;
    other ids by themselves (their names are listed above)."""
    if not all(i.isdigit() for i in ids):
        return ", ".join(ids)
    runs: list[list[str]] = []
    for piece, what in ids.items():
        if runs and ids[runs[-1][-1]] == what and int(runs[-1][-1]) + 1 == int(piece):
            runs[-1].append(piece)
        else:
            runs.append([piece])
    return ", ".join((run[0] if len(run) == 1 else f"{run[0]}-{run[-1]}") + " " + ids[run[0]] for run in runs)


def describe_theme(theme: Theme) -> str:
    named = dict.fromkeys(theme.name[lang] for lang in languages("theme", theme.doc.data) if lang in theme.name)
    lines = [" / ".join(named) or theme.id, f"  file: {_where(theme.doc, 'theme', theme.id)}", ""]
    sections: list[tuple[str, Mapping[str, Any]]] = [
        ("palette", theme.palette),
        ("fonts", theme.fonts),
        ("strokes", theme.strokes),
        ("style", theme.style),
        ("art", {key: str(value) for key, value in theme.art.items()}),
    ]
    for table, values in sections:
        lines.append(f"[{table}]  {describe_key('theme', table)}")
        for key, value in values.items():
            shown = ", ".join(f"{k} {v}" for k, v in value.items()) if isinstance(value, Mapping) else value
            lines.append(f"  {key:<18} {str(shown):<12} {describe_key('theme', f'{table}.{key}')}")
        if not values:
            lines.append("  (none)")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def bundled_pictures() -> list[str]:
    """Names of the bundled pictures a layout or a theme's [art] can use."""
    folder = layouts_root() / "art" / "game-icons"
    return sorted(p.stem for p in folder.glob("*.svg"))


def with_descriptions(kind: str, schema: dict[str, Any]) -> dict[str, Any]:
    """The exported schema with the help text of every key it describes as "description"s,
    so an editor shows it on hover ('theme' or 'game' keys, see descriptions.toml)."""
    help_text = descriptions()[kind]

    def walk(node: Any, path: str) -> None:
        if not isinstance(node, dict):
            return
        if path and path in help_text and "description" not in node:
            node["description"] = help_text[path]
        for key, child in node.get("properties", {}).items():
            walk(child, f"{path}.{key}" if path else key)
        items = node.get("items")
        if isinstance(items, dict):
            walk(items, f"{path}[]")
        for branch in node.get("anyOf", []) + node.get("oneOf", []) + node.get("allOf", []):
            walk(branch, path)

    walk(schema, "")
    return schema


def new_language(lang: str, base: str) -> dict[str, str]:
    """The files of a new language `lang` to translate from the bundled `base`, by path under the
    user's data folder: strings/<lang>.toml and rules/<text>.<lang>.md for every bundled rules
    text (and its notes), each a commented copy (see boardgen.data.translation)."""
    from boardgen.data import translation
    from boardgen.data.strings import LANGUAGES

    if base not in LANGUAGES:
        raise UsageError(f"--from {base}: translate from a bundled language: {', '.join(LANGUAGES)}")
    if lang in LANGUAGES:
        raise UsageError(f"{lang!r} is bundled already; `boardgen new language` starts a language boardgen lacks")
    root = layouts_root()
    files = {
        f"strings/{lang}.toml": translation.strings_template(
            lang, base, (root / "strings" / f"{base}.toml").read_text(encoding="utf-8")
        )
    }
    for path in sorted((root / "rules").glob(f"*.{base}.md")):
        name = path.name.removesuffix(f".{base}.md")
        files[f"rules/{name}.{lang}.md"] = translation.rules_template(lang, base, path.read_text(encoding="utf-8"))
    return files


def language_problems(lang: str, layout_path: str | None = None) -> tuple[list[Any], list[str]]:
    """What a translation into `lang` still lacks, each at its file and line: its strings file
    against English's, then the rules texts (of every bundled game, or of the one layout) and
    their notes. Also the files read."""
    from boardgen.data import strings, translation
    from boardgen.engines import game_names, load_game
    from boardgen.errors import DataError, Problem
    from boardgen.kits import rules_text

    problems: list[Problem] = []
    read: list[str] = []
    layouts = [layout_path] if layout_path is not None else game_names()
    reference = strings.read(layouts_root() / "strings" / f"{strings.REFERENCE}.toml")
    for index, name in enumerate(layouts):
        engine, layout = load_game(name)
        if index == 0:  # the strings file: beside the layout, else the user's, else bundled
            path = strings.strings_file(lang)
            if path is None:
                places = ", ".join(str(p) for p in strings.search_path(lang))
                problems.append(Problem(f"strings/{lang}.toml", "", f"not found (looked for {places})"))
            else:
                read.append(strings.shown(path))
                problems += translation.strings_problems(
                    strings.read(path),
                    reference,
                    strings.shown(path),
                    strings.template_lines(path),
                    translation.key_lines(path),
                )
        if layout_path is not None:
            try:
                rules_text.check_language(layout, engine.name, lang)
            except DataError as exc:  # the layout's texts; the translations are looked at below
                problems += [p for p in exc.problems if p not in problems and "not translated" not in p.message]
            except UsageError:
                pass  # no strings file: said above
        notes = (f"{layout.rules}.interpretations", f"{engine.name}.interpretations")
        for text, optional in [(layout.rules, False), *((n, True) for n in notes)]:
            try:
                path = rules_text.rules_file(text, lang, layout.doc.path)
            except DataError:
                if not optional and layout_path is None:
                    problems.append(
                        Problem(
                            f"rules/{text}.{lang}.md", "", f"not found (looked in {rules_text.user_rules_folder()})"
                        )
                    )
                continue
            shown = rules_text.shown_path(path)
            if shown in read:
                continue
            read.append(shown)
            problems += translation.rules_problems(path, shown, None)
    return problems, read
