"""Load layout and theme files: TOML, `extends`, schema validation, every problem at once."""

from __future__ import annotations

import difflib
import json
import os
import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
from referencing import Registry, Resource

from boardgen.data.toml_lines import key_lines, line_of
from boardgen.errors import DataError, Problem, UsageError

KINDS = {"game": "games", "theme": "themes"}


@dataclass
class Document:
    """A data file after `extends` is applied: its merged data and where each key came from."""

    name: str
    path: str
    data: dict[str, Any]
    base_dir: Path
    lines: dict[tuple, int] = field(default_factory=dict)

    def where(self, *key: Any) -> tuple[str, str, int | None]:
        """File, dotted key and line for a key path, for building a Problem."""
        return self.path, dotted(key), line_of(self.lines, tuple(key))

    def problem(self, key: tuple, message: str) -> Problem:
        path, dotted_key, line = self.where(*key)
        return Problem(path, dotted_key, message, line)


def dotted(key: tuple) -> str:
    out = ""
    for part in key:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def layouts_root() -> Path:
    """The folder holding the bundled layouts (works installed or from a checkout)."""
    return Path(str(resources.files("boardgen.layouts")))


def bundled_names(kind: str) -> list[str]:
    folder = layouts_root() / KINDS[kind]
    return sorted(p.stem for p in folder.glob("*.toml"))


def resolve(kind: str, name_or_path: str) -> Path:
    """A bundled name ('classic') or a path to a .toml file of the user's."""
    candidate = Path(name_or_path)
    # A bare word is a bundled name even if a folder of that name happens to be around.
    if candidate.suffix == ".toml" or "/" in name_or_path or os.sep in name_or_path:
        if not candidate.is_file():
            raise UsageError(f"{kind} file not found: {name_or_path}")
        return candidate
    bundled = layouts_root() / KINDS[kind] / f"{name_or_path}.toml"
    if bundled.is_file():
        return bundled
    known = bundled_names(kind)
    hint = difflib.get_close_matches(name_or_path, known, n=1)
    extra = f" (did you mean {hint[0]!r}?)" if hint else ""
    raise UsageError(f"unknown {kind} {name_or_path!r}{extra}; known: {', '.join(known)}")


def display_path(path: Path) -> str:
    """Bundled files are named relative to the layouts folder, others as given."""
    try:
        return "layouts/" + path.resolve().relative_to(layouts_root().resolve()).as_posix()
    except ValueError:
        return str(path)


def read_toml(path: Path) -> tuple[dict[str, Any], str]:
    shown = display_path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise DataError([Problem(shown, "", f"not UTF-8 text ({exc.reason})")]) from None
    except OSError as exc:
        raise DataError([Problem(shown, "", f"cannot read: {exc.strerror}")]) from None
    try:
        return tomllib.loads(text), text
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        line = None
        if "(at line " in message:
            line = int(message.rsplit("(at line ", 1)[1].split(",")[0])
            message = message.rsplit(" (at line ", 1)[0]
        raise DataError([Problem(shown, "", f"invalid TOML: {message}", line)]) from None


def merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """Deep-merge tables; arrays and values from `over` replace those of `base`."""
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = value
    return out


def load(kind: str, name_or_path: str, _seen: tuple[str, ...] = ()) -> Document:
    """Read a game or theme file, following `extends`, and validate it against its schema."""
    path = resolve(kind, name_or_path)
    data, text = read_toml(path)
    shown = display_path(path)
    parent_name = data.get("extends") or (data.get("theme") or {}).get("extends")
    if kind == "theme" and isinstance(data.get("art"), dict):
        # Pictures are relative to the file naming them, even when a child theme extends it.
        data["art"] = {k: str((path.parent / v).resolve()) if isinstance(v, str) else v
                       for k, v in data["art"].items()}
    if parent_name is not None and not isinstance(parent_name, str):
        lines = key_lines(text)
        key = ("extends",) if "extends" in data else ("theme", "extends")
        raise DataError([Problem(shown, dotted(key), f"expected the name or path of a file, got {parent_name!r}",
                                 line_of(lines, key))])
    if parent_name:
        if str(path.resolve()) in _seen:
            raise DataError([Problem(shown, "extends", f"circular extends via {parent_name!r}")])
        parent_ref = parent_name
        if parent_name.endswith(".toml"):
            parent_ref = str(path.parent / parent_name)
        parent = load(kind, parent_ref, _seen + (str(path.resolve()),))
        data = merge(parent.data, data)
    doc = Document(path.stem, shown, data, path.parent, key_lines(text))
    validate(kind, doc)
    return doc


@cache
def _schema_registry() -> Registry:
    folder = layouts_root() / "schema"
    resources_ = []
    for file in sorted(folder.glob("*.schema.json")):
        contents = json.loads(file.read_text(encoding="utf-8"))
        resources_.append((contents["$id"], Resource.from_contents(contents)))
    return Registry().with_resources(resources_)


def schema_for(kind: str, data: dict[str, Any] | None = None) -> dict[str, Any]:
    """The JSON Schema for a theme, or for a game of the engine it declares."""
    if kind == "theme":
        name = "theme"
    else:
        engine = ((data or {}).get("game") or {}).get("engine", "sliding")
        name = engine if (layouts_root() / "schema" / f"{engine}.schema.json").exists() else "sliding"
    file = layouts_root() / "schema" / f"{name}.schema.json"
    return json.loads(file.read_text(encoding="utf-8"))


def validate(kind: str, doc: Document) -> None:
    schema = schema_for(kind, doc.data)
    validator = jsonschema.Draft202012Validator(schema, registry=_schema_registry())
    problems = []
    for error in sorted(validator.iter_errors(doc.data), key=lambda e: list(map(str, e.path))):
        problems.extend(_describe(doc, error))
    if problems:
        raise DataError(problems)


_TYPE_NAMES = {
    str: "string", int: "integer", float: "number", bool: "boolean",
    list: "array", dict: "table",
}


def _describe(doc: Document, error: jsonschema.ValidationError) -> list[Problem]:
    key = tuple(error.path)
    value = error.instance
    if error.validator == "additionalProperties":
        allowed = list(error.schema.get("properties", {}))
        problems = []
        for extra in sorted(set(value) - set(allowed)):
            hint = difflib.get_close_matches(extra, allowed, n=1, cutoff=0.6)
            tail = f" (did you mean {hint[0]!r}?)" if hint else f"; allowed: {', '.join(allowed)}"
            problems.append(doc.problem(key + (extra,), f"unknown key {extra!r}{tail}"))
        return problems
    if error.validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        return [doc.problem(key, f"missing key {missing!r}")]
    if error.validator == "type":
        got = _TYPE_NAMES.get(type(value), type(value).__name__)
        return [doc.problem(key, f"expected {error.validator_value}, got {got} {value!r}")]
    if error.validator == "enum":
        options = [str(v) for v in error.validator_value]
        hint = difflib.get_close_matches(str(value), options, n=1)
        tail = f" (did you mean {hint[0]!r}?)" if hint else ""
        return [doc.problem(key, f"{value!r} is not one of {', '.join(options)}{tail}")]
    if error.validator == "pattern":
        return [doc.problem(key, f"{value!r} does not match the expected form {error.validator_value}")]
    if error.validator == "oneOf" and error.context:
        best = min(error.context, key=lambda e: len(e.path))
        return [doc.problem(key, f"{value!r}: {best.message}")]
    return [doc.problem(key, error.message)]


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
                if name not in defs and name in files["common.schema.json"]["$defs"]:
                    defs[name] = inline(files["common.schema.json"]["$defs"][name])
            return {k: inline(v) for k, v in node.items()}
        if isinstance(node, list):
            return [inline(v) for v in node]
        return node

    bundled = inline(schema_for(kind, {"game": {"engine": engine}}))
    bundled["$defs"] = dict(sorted(defs.items()))
    return bundled
