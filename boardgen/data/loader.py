"""Load layout and theme files: TOML, `extends`, schema validation, every problem at once."""

from __future__ import annotations

import difflib
import errno
import json
import math
import os
import re
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boardgen.cache import SCHEMA_PASSES, canonical_json, digest, installed
from boardgen.data import files, languages
from boardgen.data.decks import DECK_KEYS, is_deck_file, read_deck
from boardgen.data.paths import layouts_root as layouts_root  # re-exported: the bundled data's folder
from boardgen.data.strings import LANGUAGES
from boardgen.data.toml_lines import key_lines, line_of
from boardgen.errors import MESSAGE_CHARS, DataError, Problem, UsageError, quote, shorten

if TYPE_CHECKING:  # jsonschema is imported when a file is validated that was not validated before
    import jsonschema
    from referencing import Registry

# A theme's [fonts] value ending so is a file relative to the theme, held to its folder like pictures.
FONT_FILE_SUFFIXES = (".ttf", ".otf")

KINDS = {"game": "games", "theme": "themes"}

# Limits on what a data file may hold, far above anything real (bundled files: 5 KiB, nesting 4,
# one level of extends) and far below what would exhaust memory or time.
MAX_FILE_BYTES = files.MAX_TEXT_BYTES
MAX_NESTING = 16
MAX_EXTENDS = 8
# Larger than any count, size or seed can usefully be (2**63 - 1, a 64-bit integer as TOML defines).
MAX_INTEGER = 2**63 - 1


@dataclass
class Document:
    """A data file after `extends` is applied: its merged data and where each key came from."""

    name: str
    path: str
    data: dict[str, Any]
    lines: dict[tuple[Any, ...], int] = field(default_factory=dict)
    # Top-level keys whose data came from a file of their own (a deck from CSV): that file.
    sources: dict[str, str] = field(default_factory=dict)

    def file_of(self, key: tuple[Any, ...]) -> str:
        """The file a key's value was read from: the CSV of a deck, else this file."""
        return self.sources.get(key[0], self.path) if key and isinstance(key[0], str) else self.path

    def where(self, *key: Any) -> tuple[str, str, int | None]:
        """File, dotted key and line for a key path, for building a Problem."""
        return self.file_of(tuple(key)), dotted(key), line_of(self.lines, tuple(key))

    def problem(self, key: tuple[Any, ...], message: str) -> Problem:
        path, dotted_key, line = self.where(*key)
        return Problem(path, dotted_key, message, line)


def dotted(key: tuple[Any, ...]) -> str:
    out = ""
    for part in key:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def bundled_names(kind: str) -> list[str]:
    folder = layouts_root() / KINDS[kind]
    return sorted(p.stem for p in folder.glob("*.toml"))


def resolve(kind: str, name_or_path: str, *, relative_to: Path | None = None) -> Path:
    """A bundled name ('classic') or a path to a .toml file of the user's (relative to the
    current folder, or to the folder of the file naming it)."""
    if "\0" in name_or_path:
        raise UsageError(f"{kind} name or path contains a NUL character: {quote(name_or_path)}")
    candidate = Path(name_or_path)
    # A bare word is a bundled name even if a folder of that name happens to be around.
    if candidate.suffix == ".toml" or "/" in name_or_path or os.sep in name_or_path:
        if relative_to is not None:
            candidate = relative_to / candidate
        if not _is_file(candidate, kind, name_or_path):
            if _is_special(candidate):  # a FIFO, a device, a socket: the reader says which, at once
                return candidate
            raise UsageError(f"{kind} file not found: {quote(name_or_path, MESSAGE_CHARS)}")
        return candidate
    bundled = layouts_root() / KINDS[kind] / f"{name_or_path}.toml"
    if _is_file(bundled, kind, name_or_path):
        return bundled
    # A bare name is the file of that name in the folder it is read from (`boardgen new theme
    # dusk` writes dusk.toml here; `--theme dusk` finds it), after the bundled names.
    here = (relative_to or Path(".")) / f"{name_or_path}.toml"
    if _is_file(here, kind, name_or_path):
        return here
    known = bundled_names(kind)
    hint = difflib.get_close_matches(name_or_path, known, n=1)
    nearby = sorted(p.name for p in (relative_to or Path(".")).glob("*.toml"))[:200]
    close = difflib.get_close_matches(f"{name_or_path}.toml", nearby, n=1)
    extra = f" (did you mean {hint[0]!r}?)" if hint else (f" (did you mean the file {close[0]!r}?)" if close else "")
    raise UsageError(f"unknown {kind} {quote(name_or_path)}{extra}; known: {', '.join(known)}, or a .toml file")


def _is_file(path: Path, kind: str, name: str) -> bool:
    """Whether `path` is a file (False where the system cannot look: a NUL, a loop). A name
    too long for the system (`Path.is_file` raises there) is said as such, so a parent named
    in a file gets the file, key and line of the name, as any other unknown parent does."""
    try:
        return path.is_file()
    except OSError as exc:
        if exc.errno == errno.ENAMETOOLONG:
            raise UsageError(
                f"{kind} file name too long (at most 255 bytes a name, 4096 a path): {quote(name, MESSAGE_CHARS)}"
            ) from None
        return False
    except ValueError:
        return False


def _is_special(path: Path) -> bool:
    """Whether path is there but neither a file nor a folder (a FIFO, a device, a socket)."""
    try:
        return path.exists() and not path.is_dir()
    except (OSError, ValueError):
        return False


def real_path(path: Path) -> Path | None:
    """path with every symlink followed, or None if that is impossible (a loop, a NUL)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError, ValueError):
        return None


def display_path(path: Path) -> str:
    """Bundled files are named relative to the layouts folder, others as given."""
    real = real_path(path)
    if real is not None and real.is_relative_to(real_path(layouts_root()) or layouts_root()):
        return "layouts/" + real.relative_to(real_path(layouts_root()) or layouts_root()).as_posix()
    return str(path)


def read_toml(path: Path) -> tuple[dict[str, Any], str]:
    """The file's table and its text; a regular file (no link, no FIFO) of at most
    MAX_FILE_BYTES, UTF-8 (boardgen.data.files), valid TOML."""
    shown = display_path(path)
    text = files.read_text(path, shown, limit=MAX_FILE_BYTES, what="a layout or theme")
    try:
        return tomllib.loads(text), text
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        line = None
        if "(at line " in message:
            line = int(message.rsplit("(at line ", 1)[1].split(",")[0])
            message = message.rsplit(" (at line ", 1)[0]
        elif "(at end of document)" in message:
            line = text.count("\n") + 1
            message = message.replace(" (at end of document)", " at the end of the file")
        raise DataError([Problem(shown, "", f"invalid TOML: {message}", line)]) from None
    except RecursionError:
        raise DataError(
            [
                Problem(
                    shown,
                    "",
                    f"invalid TOML: arrays or tables nested more than {MAX_NESTING} deep",
                    _deepest_line(text),
                )
            ]
        ) from None
    except ValueError:  # an integer of thousands of digits
        line = next(
            (
                number
                for number, line_text in enumerate(text.splitlines(), start=1)
                if re.search(r"\d{4000}", line_text)
            ),
            None,
        )
        raise DataError([Problem(shown, "", "invalid TOML: a number with thousands of digits", line)]) from None


def _deepest_line(text: str) -> int | None:
    """The line where brackets first open more than MAX_NESTING deep (strings ignored roughly)."""
    depth = 0
    for number, line in enumerate(text.splitlines(), start=1):
        for char in line:
            if char in "[{":
                depth += 1
                if depth > MAX_NESTING:
                    return number
            elif char in "]}":
                depth -= 1
    return None


def scan(data: dict[str, Any], lines: dict[tuple[Any, ...], int], shown: str) -> list[Problem]:
    """What a schema cannot say about values: nesting depth, numbers that are not finite or
    too large for any use, NUL characters. Walks without recursion (depth is what it checks)."""
    problems: list[Problem] = []

    def problem(key: tuple[Any, ...], message: str) -> None:
        problems.append(Problem(shown, dotted(key), message, line_of(lines, key)))

    stack: list[tuple[tuple[Any, ...], Any]] = [((), data)]
    while stack:
        key, value = stack.pop()
        if isinstance(value, dict | list):
            if len(key) > MAX_NESTING:
                problem(key, f"nested more than {MAX_NESTING} deep")
                continue
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for sub, item in items:
                if isinstance(sub, str) and "\0" in sub:
                    problem(key, f"key {quote(sub)} contains a NUL character")
                    continue
                stack.append((key + (sub,), item))
        elif isinstance(value, float) and not math.isfinite(value):
            problem(key, f"expected a finite number, got {value!r}")
        elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INTEGER:
            problem(key, f"number {quote(value)} is out of range (at most {MAX_INTEGER})")
        elif isinstance(value, str) and "\0" in value:
            problem(key, f"{quote(value)} contains a NUL character")
    return sorted(problems, key=_problem_order)


def _problem_order(problem: Problem) -> tuple[bool, int, str]:
    return (problem.line is None, problem.line or 0, problem.key)


def merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """Deep-merge tables; arrays and values from `over` replace those of `base`, and so do
    texts: `title = { en = "My maze" }` is the whole title, not the English half of the base's."""
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict) and not languages.is_text(value):
            out[key] = merge(out[key], value)
        else:
            out[key] = value
    return out


def contained(
    path: Path, key: tuple[Any, ...], value: str, candidates: list[Path], lines: dict[tuple[Any, ...], int], shown: str
) -> Problem | None:
    """The path rule for every path taken from data: each file it resolves to (symlinks followed)
    must lie inside the folder of the file naming it, or inside the bundled data. None if so."""
    roots = [root for root in (real_path(path.parent), real_path(layouts_root())) if root is not None]
    for candidate in candidates:
        real = real_path(candidate)
        if real is None:
            return Problem(
                shown, dotted(key), f"{quote(value)} cannot be resolved (a symlink loop?)", line_of(lines, key)
            )
        if not any(real.is_relative_to(root) for root in roots):
            return Problem(
                shown,
                dotted(key),
                f"{quote(value)} leads outside this file's folder and the bundled "
                "data; pictures and texts must stay inside them",
                line_of(lines, key),
            )
    return None


def _data_paths(kind: str, data: dict[str, Any], folder: Path) -> list[tuple[tuple[Any, ...], str, list[Path]]]:
    """Every path a game or theme file names: key, value, and the files it resolves to."""
    root = layouts_root()
    found: list[tuple[tuple[Any, ...], str, list[Path]]] = []
    # `extends` may name a file anywhere: it only brings in data, validated like any other, and
    # the paths that file names are held to its own folder when it is read.
    if kind == "theme":
        for name, value in _table(data, "art").items():
            if isinstance(value, str):
                found.append((("art", name), value, [folder / value]))
        for name, value in _table(data, "fonts").items():
            if isinstance(value, str) and value.lower().endswith(FONT_FILE_SUFFIXES):
                found.append((("fonts", name), value, [folder / value]))
        return found
    rules = _table(data, "game").get("rules")
    if isinstance(rules, str):
        found.append((("game", "rules"), rules, [root / "rules" / f"{rules}.{lang}.md" for lang in LANGUAGES]))
    for table in ("treasures", "objects"):
        items = data.get(table)
        for index, item in enumerate(items if isinstance(items, list) else []):
            if isinstance(item, dict) and isinstance(item.get("art"), str):
                found.append(((table, index, "art"), item["art"], [root / "art" / "game-icons" / f"{item['art']}.svg"]))
    return found


def _table(data: dict[str, Any], key: str) -> dict[str, Any]:
    value = data.get(key)
    return value if isinstance(value, dict) else {}


def load(
    kind: str,
    name_or_path: str,
    _chain: tuple[Path, ...] = (),
    check: Callable[[Document], list[Problem]] | None = None,
) -> Document:
    """Read a game or theme file, following `extends`, and validate it against its schema
    (and `check`, whose problems are reported with the schema's, all at once)."""
    path = resolve(kind, name_or_path)
    return _load(kind, path, _chain, check)


def _load(
    kind: str, path: Path, chain: tuple[Path, ...], check: Callable[[Document], list[Problem]] | None = None
) -> Document:
    shown = display_path(path)
    real = real_path(path)
    if real is None:
        raise DataError([Problem(shown, "", "cannot be resolved (a symlink loop?)")])
    data, text = read_toml(path)
    lines = key_lines(text)
    problems = scan(data, lines, shown)
    if problems:
        raise DataError(problems)
    _check_kind(kind, data, shown, lines)
    # A path leading out of the folder is reported with every other problem of the file, and
    # left out of the data so that nothing reads it.
    outside_problems: list[Problem] = []
    sources: dict[str, str] = {}
    if kind == "game":
        outside_problems += _read_decks(path, data, lines, sources, shown)
    for key, value, candidates in _data_paths(kind, data, path.parent):
        outside = contained(path, key, value, candidates, lines, shown)
        if outside is not None:
            if key[0] in sources:
                outside = Problem(sources[key[0]], outside.key, outside.message, outside.line)
            outside_problems.append(outside)
            table = data
            for part in key[:-1]:
                table = table[part]
            del table[key[-1]]
    extends_key = ("extends",) if kind == "game" else ("theme", "extends")
    parent_name = data.get("extends") if kind == "game" else _table(data, "theme").get("extends")
    if kind == "game" and "extends" not in data and "extends" in _table(data, "theme"):
        parent_name, extends_key = data["theme"]["extends"], ("theme", "extends")
    if kind == "theme" and isinstance(data.get("art"), dict):
        # Pictures are relative to the file naming them, even when a child theme extends it.
        data["art"] = {
            k: str(real_path(path.parent / v) or v) if isinstance(v, str) else v for k, v in data["art"].items()
        }
    if kind == "theme" and isinstance(data.get("fonts"), dict):
        # So are font files (family names stay as they are).
        data["fonts"] = {
            k: str(real_path(path.parent / v) or v)
            if isinstance(v, str) and v.lower().endswith(FONT_FILE_SUFFIXES)
            else v
            for k, v in data["fonts"].items()
        }
    if parent_name is not None and not isinstance(parent_name, str):
        raise DataError(
            [
                Problem(
                    shown,
                    dotted(extends_key),
                    f"expected the name or path of a file, got {quote(parent_name)}",
                    line_of(lines, extends_key),
                )
            ]
        )
    if parent_name:
        here = line_of(lines, extends_key)
        if len(chain) + 1 >= MAX_EXTENDS:
            raise DataError(
                [
                    Problem(
                        shown,
                        dotted(extends_key),
                        f"more than {MAX_EXTENDS} files linked by extends; shorten the chain",
                        here,
                    )
                ]
            )
        try:
            parent_path = resolve(kind, parent_name, relative_to=path.parent)
        except UsageError as exc:
            raise DataError([Problem(shown, dotted(extends_key), str(exc), here)]) from None
        seen = chain + (real,)
        if real_path(parent_path) in seen:
            loop = " -> ".join([display_path(p) for p in seen] + [display_path(parent_path)])
            raise DataError([Problem(shown, dotted(extends_key), f"circular extends: {shorten(loop, 300)}", here)])
        parent = _load(kind, parent_path, seen)
        data = merge(parent.data, data)
        for deck, source in parent.sources.items():  # a deck the parent read from CSV, kept as it is
            if deck not in sources and data.get(deck) is parent.data.get(deck):
                sources[deck] = source
                lines.update({k: v for k, v in parent.lines.items() if k and k[0] == deck})
    doc = Document(path.stem, shown, data, lines, sources)
    validate(kind, doc, check, found=outside_problems)
    return doc


def _read_decks(
    path: Path, data: dict[str, Any], lines: dict[tuple[Any, ...], int], sources: dict[str, str], shown: str
) -> list[Problem]:
    """Replace each deck named by a CSV file (``treasures = "treasures.csv"``) with its cards,
    their lines taken from the CSV; the problems of the files themselves."""
    problems = []
    for key in DECK_KEYS:
        value = data.get(key)
        if not isinstance(value, str) or not is_deck_file(value):
            continue
        csv_path = path.parent / value
        outside = contained(path, (key,), value, [csv_path], lines, shown)
        if outside is not None:
            problems.append(outside)
            del data[key]
            continue
        sources[key] = display_path(csv_path)
        if not csv_path.is_file():
            problems.append(
                Problem(
                    shown,
                    key,
                    f"{quote(value)}: no such CSV file beside the layout (in {path.parent})",
                    line_of(lines, (key,)),
                )
            )
            del data[key]
            del sources[key]
            continue
        cards, card_lines, found = read_deck(csv_path, key, sources[key])
        problems += found
        data[key] = cards
        lines.update(card_lines)
    return problems


def _check_kind(kind: str, data: dict[str, Any], shown: str, lines: dict[tuple[Any, ...], int]) -> None:
    """A theme given where a game goes (or the other way round) is said to be one, alone: its
    keys would otherwise each be reported unknown."""
    other = "theme" if kind == "game" else "game"
    if kind in data or not isinstance(data.get(other), dict):
        return
    if other == "theme":
        said = (
            f"this file is a theme (it has a [theme] table), not a game: give it with --theme, "
            f"e.g. `boardgen render classic --theme {shown}`"
        )
    else:
        said = (
            f"this file is a game layout (it has a [game] table), not a theme: give it as the game, "
            f"e.g. `boardgen render {shown}`, and a theme with --theme"
        )
    raise DataError([Problem(shown, "", said, line_of(lines, (other,)))])


@cache
def _schema_registry() -> Registry:
    from referencing import Registry, Resource

    folder = layouts_root() / "schema"
    resources_ = []
    for file in sorted(folder.glob("*.schema.json")):
        contents = json.loads(file.read_text(encoding="utf-8"))
        resources_.append((contents["$id"], Resource.from_contents(contents)))
    return Registry().with_resources(resources_)


def engine_names() -> list[str]:
    """The engines a game may name: the `engine` enum of common.schema.json that have a layout
    schema (layouts/schema/<engine>.schema.json)."""
    folder = layouts_root() / "schema"
    common = json.loads((folder / "common.schema.json").read_text(encoding="utf-8"))
    listed = common["$defs"]["game"]["properties"]["engine"].get("enum", [])
    return sorted(name for name in listed if (folder / f"{name}.schema.json").is_file())


def schema_for(kind: str, data: dict[str, Any] | None = None) -> dict[str, Any]:
    """The JSON Schema for a theme, or for a game of the engine it declares."""
    if kind == "theme":
        name = "theme"
    else:
        engine = _table(data or {}, "game").get("engine", "sliding")
        name = engine if isinstance(engine, str) and engine in engine_names() else "sliding"
    file = layouts_root() / "schema" / f"{name}.schema.json"
    schema: dict[str, Any] = json.loads(file.read_text(encoding="utf-8"))
    return schema


def _strict_int(checker: Any, instance: Any) -> bool:
    # JSON Schema counts 12.0 as an integer; a count or a size written 12.0 is a mistake here.
    return isinstance(instance, int) and not isinstance(instance, bool)


@cache
def _validator() -> Any:
    import jsonschema

    return jsonschema.validators.extend(
        jsonschema.Draft202012Validator,
        validators={"pattern": _pattern},
        type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", _strict_int),
    )


# JSON Schema patterns are ECMA-262 expressions, where `$` is the end of the text; Python's `$`
# also matches before a final newline, so `id = "ab\n"` passed "^[a-z0-9][a-z0-9-]*$" and named
# a folder with a newline. The schema files keep ECMA's `$` (editors read them as such); here
# every unescaped `$` is read as Python's `\Z`.
_END = re.compile(r"(?<!\\)\$")


@cache
def _python_pattern(pattern: str) -> re.Pattern[str]:
    return re.compile(_END.sub(r"\\Z", pattern))


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[Any]:
    from jsonschema.exceptions import ValidationError

    if validator.is_type(instance, "string") and not _python_pattern(pattern).search(instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


# Files that passed their schema are remembered (by a digest of the schemas, this module and
# the file's whole data after `extends`) in the user's cache (boardgen.cache, signed with the
# user's key): rendering again skips jsonschema, whose import and run are a tenth of a second.
# Only a pass is remembered, so every problem is still reported each time.
SCHEMA_MARK_FORMAT = "boardgen-schema-pass-2"


@cache
def _schema_digest() -> str:
    parts: list[str | bytes] = [
        SCHEMA_MARK_FORMAT,
        Path(__file__).read_bytes(),
        installed("jsonschema", "validators.py", "_keywords.py", "_types.py"),
    ]
    for file in sorted((layouts_root() / "schema").glob("*.schema.json")):
        parts += [file.name, file.read_bytes()]
    return digest(*parts)


def _schema_mark(kind: str, schema: dict[str, Any], data: dict[str, Any]) -> str | None:
    blob = canonical_json([kind, schema, data])
    return None if blob is None else digest("schema-pass", _schema_digest(), blob)


def _passed_before(mark: str | None) -> bool:
    return mark is not None and SCHEMA_PASSES.read(mark) == b""


def _remember_pass(mark: str | None) -> None:
    """Written whole or not at all; a cache that cannot be written only means validating again."""
    if mark is not None:
        SCHEMA_PASSES.write(mark, b"")


def _engine_problem(doc: Document) -> Problem | None:
    """A game's engine picks its schema: if it is missing or unknown, every other message would
    be about the wrong schema, so this one is reported alone."""
    game = doc.data.get("game")
    if not isinstance(game, dict):
        return None  # the schema says what is wrong with [game]
    engines = engine_names()
    engine = game.get("engine")
    if engine is None:
        return None  # the schema reports it, among the rest of the sliding schema's problems
    if not isinstance(engine, str):
        return doc.problem(("game", "engine"), f"expected one of {', '.join(engines)}, got {quote(engine)}")
    if engine not in engines:
        hint = difflib.get_close_matches(engine, engines, n=1)
        tail = f" (did you mean {hint[0]!r}?)" if hint else ""
        return doc.problem(("game", "engine"), f"unknown engine {quote(engine)}{tail}; known: {', '.join(engines)}")
    return None


def validate(
    kind: str,
    doc: Document,
    check: Callable[[Document], list[Problem]] | None = None,
    *,
    found: list[Problem] | None = None,
) -> None:
    """Every problem of the file at once: the schema's, `check`'s, and those `found` before."""
    if kind == "game":
        root_cause = _engine_problem(doc)
        if root_cause is not None:
            raise DataError([root_cause])
    schema = schema_for(kind, doc.data)
    mark = _schema_mark(kind, schema, doc.data)
    problems = list(found or [])
    if not _passed_before(mark):
        validator = _validator()(schema, registry=_schema_registry())
        for error in validator.iter_errors(doc.data):
            problems.extend(_describe(doc, error))
        if not problems:
            _remember_pass(mark)
    if check is not None:
        problems.extend(check(doc))
    if not problems:
        problems.extend(languages.gaps(kind, doc.data, doc.lines, doc.path))
    if kind == "theme" and not problems:
        problems.extend(_theme_gaps(doc))
    if problems:
        raise DataError(sorted(problems, key=_problem_order))


def validate_with(schema_name: str, doc: Document) -> None:
    """Every problem of a data file other than a game or theme (a print service, say) against
    layouts/schema/<schema_name>.schema.json, at once, each naming file, key and line."""
    file = layouts_root() / "schema" / f"{schema_name}.schema.json"
    schema = json.loads(file.read_text(encoding="utf-8"))
    validator = _validator()(schema, registry=_schema_registry())
    problems = [problem for error in validator.iter_errors(doc.data) for problem in _describe(doc, error)]
    if problems:
        raise DataError(sorted(problems, key=_problem_order))


# The tables every drawing reads from a theme; each key the bundled classic theme gives them
# must be there, or the drawing would fail half-way on the first one missing.
_THEME_TABLES = ("palette", "fonts", "strokes", "style")


@cache
def _reference_theme() -> dict[str, Any]:
    data, _text = read_toml(layouts_root() / "themes" / "classic.toml")
    return data


def _theme_gaps(doc: Document) -> list[Problem]:
    """A theme that does not extend classic (directly or not) must still give all its keys."""
    reference = _reference_theme()
    problems = []
    for table in _THEME_TABLES:
        given = _table(doc.data, table)
        missing = [key for key in reference.get(table, {}) if key not in given]
        if missing:
            problems.append(
                doc.problem(
                    (table,),
                    f"missing {', '.join(map(repr, missing[:8]))}"
                    f"{' and more' if len(missing) > 8 else ''}: a theme gives every key "
                    'of the classic theme, or extends it (extends = "classic")',
                )
            )
    return problems


_TYPE_NAMES = {
    str: "string",
    int: "integer",
    float: "number",
    bool: "boolean",
    list: "array",
    dict: "table",
}


def _describe(doc: Document, error: jsonschema.ValidationError) -> list[Problem]:
    key = tuple(error.path)
    value = error.instance
    rule = error.validator_value
    if error.validator == "additionalProperties":
        allowed = list(error.schema.get("properties", {}))
        problems = []
        for extra in sorted(set(value) - set(allowed)):
            hint = difflib.get_close_matches(extra, allowed, n=1, cutoff=0.6)
            tail = f" (did you mean {hint[0]!r}?)" if hint else f"; allowed: {', '.join(allowed)}"
            problems.append(doc.problem(key + (extra,), f"unknown key {quote(extra)}{tail}"))
        return problems
    if error.validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        return [doc.problem(key, f"missing key {missing!r}")]
    if error.validator == "type":
        got = _TYPE_NAMES.get(type(value), type(value).__name__)
        if rule == "integer" and isinstance(value, float) and value.is_integer():
            return [doc.problem(key, f"expected integer (a whole number), got {value!r}; write {int(value)}")]
        return [doc.problem(key, f"expected {rule}, got {got} {quote(value)}")]
    if error.validator == "enum":
        options = [str(v) for v in rule]
        hint = difflib.get_close_matches(str(value), options, n=1)
        tail = f" (did you mean {hint[0]!r}?)" if hint else ""
        return [doc.problem(key, f"{quote(value)} is not one of {', '.join(options)}{tail}")]
    if "propertyNames" in error.schema_path:
        # The key itself is wrong: point at it, so the line is the key's own.
        return [doc.problem(key + (value,), f"key {quote(value)} does not match the expected form {_expected(error)}")]
    if error.validator == "pattern":
        return [doc.problem(key, f"{quote(value)} does not match the expected form {_expected(error)}")]
    if error.validator in _BOUNDS:
        return [doc.problem(key, _BOUNDS[error.validator](value, rule))]
    if error.validator == "uniqueItems":
        return [doc.problem(key, "the same item appears twice; each must be different")]
    if error.validator == "oneOf" and error.context:
        best = min(error.context, key=lambda e: len(e.path))
        return [doc.problem(key, f"{quote(value)}: {shorten(best.message, 200)}")]
    return [doc.problem(key, shorten(error.message, 200))]


def _expected(error: jsonschema.ValidationError) -> str:
    described = error.schema.get("description")
    return str(described) if described else str(error.validator_value)


def _count(value: Any, what: str) -> str:
    return f"{len(value)} {what}" if hasattr(value, "__len__") else quote(value)


_BOUNDS: dict[str, Any] = {
    "minimum": lambda v, r: f"{quote(v)} is below the minimum {r}",
    "maximum": lambda v, r: f"{quote(v)} is above the maximum {r}",
    "exclusiveMinimum": lambda v, r: f"{quote(v)} must be greater than {r}",
    "exclusiveMaximum": lambda v, r: f"{quote(v)} must be less than {r}",
    "minItems": lambda v, r: f"expected at least {r} items, got {_count(v, 'items')}",
    "maxItems": lambda v, r: f"expected at most {r} items, got {_count(v, 'items')}",
    "minLength": lambda v, r: f"expected at least {r} characters, got {quote(v)}",
    "maxLength": lambda v, r: f"expected at most {r} characters, got {_count(v, 'characters')}",
    "minProperties": lambda v, r: f"expected at least {r} keys, got {_count(v, 'keys')}",
    "maxProperties": lambda v, r: f"expected at most {r} keys, got {_count(v, 'keys')}",
}


def export_schema(kind: str, engine: str = "sliding") -> dict[str, Any]:
    """A self-contained schema for editors: other files' parts copied in, refs made local."""
    folder = layouts_root() / "schema"
    files = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in folder.glob("*.schema.json")}
    defs: dict[str, Any] = {}

    def inline(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and not ref.startswith("#"):
                file, _, pointer = ref.partition("#")
                target: Any = files[file]
                parts = [p for p in pointer.split("/") if p]
                if file == "common.schema.json" and parts[:1] == ["$defs"]:
                    defs[parts[1]] = inline(files[file]["$defs"][parts[1]])
                    return {"$ref": f"#/$defs/{parts[1]}"}
                for part in parts:
                    target = target[part]
                return inline(target)
            if isinstance(ref, str) and ref.startswith("#/$defs/") and node is not None:
                name = ref.split("/")[-1]
                if name not in defs and name in own:
                    defs[name] = inline(own[name])
                elif name not in defs and name in files["common.schema.json"]["$defs"]:
                    defs[name] = inline(files["common.schema.json"]["$defs"][name])
            return {k: inline(v) for k, v in node.items() if k != "$defs"}
        if isinstance(node, list):
            return [inline(v) for v in node]
        return node

    schema = schema_for(kind, {"game": {"engine": engine}})
    own = schema.get("$defs", {})  # a schema's own definitions (the theme's colour and font)
    bundled: dict[str, Any] = inline(schema)
    bundled["$defs"] = dict(sorted(defs.items()))
    return bundled
