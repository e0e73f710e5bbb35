"""Hostile-input fuzzing shared by tests/test_fuzz.py (a few seconds in CI) and
benchmarks/fuzz_hostile.py (the long run): mutate bundled layouts and themes as text, run
them through what `boardgen render` does before the PDF, and sort each case into ok (it
worked), error (a BoardgenError: the clear message wanted), traceback (anything else) or
hang (over the time limit).
"""

from __future__ import annotations

import random
import re
import signal
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boardgen.data.loader import layouts_root
from boardgen.errors import BoardgenError

# Values a hostile or careless file puts where a number, a string, an array or a table belongs.
HOSTILE_VALUES = [
    "nan",
    "inf",
    "-inf",
    "-1",
    "0",
    "1",
    "2",
    "12.0",
    "7.5",
    "-0.0",
    "1e308",
    "1e-300",
    "99999999999",
    "1000000000000",
    "9" * 30,
    '""',
    '"' + "x" * 5000 + '"',
    "[]",
    "{}",
    "true",
    "false",
    '"../../../../etc/hostname"',
    '"/etc/hostname"',
    '"a\\u0000b"',
    "[" * 40 + "]" * 40,
    '"classic"',
    "[1, 2]",
    "[0, 0]",
    "[99, 99]",
    "[-1, 0]",
    '{ en = "x", fr = "y" }',
    '{ en = "", fr = "" }',
    '"NESW"',
    '"N"',
    '"Q"',
    '"#zzzzzz"',
    '"#000000"',
    "[[0, 0], [0, 0]]",
    '"red"',
    '"sliding"',
    '"minos"',
    '"master"',
    '"../classic"',
    '"a/b"',
    "1979-05-27T07:32:00Z",
    '"\\u00e9\\u672c"',
]
# Numbers at or near the schemas' bounds: valid, but the extremes the model and the drawing must survive.
EDGE_NUMBERS = [
    "3",
    "5",
    "9",
    "11",
    "13",
    "15",
    "25",
    "10.001",
    "120",
    "60",
    "0.0",
    "225",
    "300",
    "0.001",
    "1",
    "8",
    "9",
    "100",
    "999",
    "10000",
    "20000",
    "63",
    "14",
    "0.5",
    "1.0",
    "2",
]
UNKNOWN_KEYS = ["sise", "colour", "count", "extends", "theme", "engine", "art", "rules", "x" * 300]


@dataclass
class Outcome:
    category: str  # ok, error, traceback, hang
    detail: str = ""


class Hang(BaseException):
    """Raised by the alarm when a case runs past its time limit."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    def alarm(_signum: int, _frame: object) -> None:
        raise Hang()

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def classify(action: Callable[[], Any], seconds: float = 20.0) -> Outcome:
    """Run action; ok, error (BoardgenError), traceback (anything else) or hang."""
    try:
        with time_limit(seconds):
            action()
    except Hang:
        return Outcome("hang", f"over {seconds:g} s")
    except BoardgenError as exc:
        message = exc.format()
        if "Traceback" in message:
            return Outcome("traceback", message[:500])
        return Outcome("error", message[:200])
    except Exception as exc:  # noqa: BLE001 - the point is to catch what nothing else does
        tail = "".join(traceback.format_exception(exc)[-3:])
        return Outcome("traceback", f"{type(exc).__name__}: {tail[-800:]}")
    return Outcome("ok")


# Mutations -------------------------------------------------------------------------------------


def bundled_text(kind: str, name: str) -> str:
    return (layouts_root() / kind / f"{name}.toml").read_text(encoding="utf-8")


def mutate(text: str, rng: random.Random, rounds: int = 1) -> bytes:
    """text with a few hostile edits: a value replaced, a line dropped, doubled or moved, an
    unknown key, a typo in a key, a truncation, a flipped byte."""
    data = text
    for _ in range(rounds):
        data = _mutate_once(data, rng)
    raw = data.encode("utf-8")
    if rng.random() < 0.03:  # a byte that is not UTF-8, or a NUL
        position = rng.randrange(len(raw) + 1)
        raw = raw[:position] + rng.choice([b"\xe9", b"\xff\xfe", b"\x00", b"\xc3"]) + raw[position:]
    return raw


def _mutate_once(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    assignments = [i for i, line in enumerate(lines) if "=" in line and not line.lstrip().startswith("#")]
    kind = rng.choices(
        ["value", "drop", "double", "unknown", "typo", "truncate", "move", "header", "inline"],
        weights=[40, 10, 8, 8, 8, 4, 6, 6, 10],
    )[0]
    if kind == "value" and assignments:
        i = rng.choice(assignments)
        key, value = lines[i].split("=", 1)
        numeric = value.strip()[:1].isdigit()
        lines[i] = f"{key}= {rng.choice(EDGE_NUMBERS if numeric and rng.random() < 0.6 else HOSTILE_VALUES)}"
    elif kind == "inline" and assignments:
        # Inside an inline table or array: replace one number or string in place.
        i = rng.choice(assignments)
        tokens = lines[i].split(" ")
        j = rng.randrange(len(tokens))
        if any(c.isdigit() for c in tokens[j]) or tokens[j].startswith('"'):
            tail = "".join(c for c in tokens[j] if c in ",]}")
            pool = EDGE_NUMBERS if tokens[j][:1].isdigit() and rng.random() < 0.6 else HOSTILE_VALUES
            tokens[j] = rng.choice(pool) + tail
        lines[i] = " ".join(tokens)
    elif kind == "drop" and lines:
        del lines[rng.randrange(len(lines))]
    elif kind == "double" and lines:
        i = rng.randrange(len(lines))
        lines.insert(i, lines[i])
    elif kind == "unknown":
        lines.insert(rng.randrange(len(lines) + 1), f"{rng.choice(UNKNOWN_KEYS)} = {rng.choice(HOSTILE_VALUES)}")
    elif kind == "typo" and assignments:
        i = rng.choice(assignments)
        key, value = lines[i].split("=", 1)
        if key.strip():
            k = rng.randrange(len(key.strip()))
            stripped = key.strip()
            key = stripped[:k] + stripped[k + 1 :] + " "
        lines[i] = f"{key}={value}"
    elif kind == "truncate":
        return text[: rng.randrange(len(text) + 1)]
    elif kind == "move" and len(lines) > 1:
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == "header":
        lines.insert(
            rng.randrange(len(lines) + 1),
            rng.choice(
                ["[board]", "[game]", "[[treasures]]", "[fields]", "[x]", "[palette]", "[art]", "[[tiles.loose]]"]
            ),
        )
    return "\n".join(lines)


# What a render does before the PDF --------------------------------------------------------------


def prepare_kit(game: str, theme: str = "classic", lang: str = "en", *, deep: bool = False) -> None:
    """Load, build, set up and draw a kit: everything `boardgen render` does with the data
    before the playability check and the PDF. deep: then the PDF and two self-played games."""
    from boardgen.checks.harness import simulate
    from boardgen.data.theme import load_theme
    from boardgen.engines import load_game
    from boardgen.options import KitOptions

    engine, layout = load_game(game)
    loaded = load_theme(theme)
    kit = engine.kit()
    setup = kit.setup(layout, layout.default_seed)
    drawings = kit.draw(layout, loaded, setup, lang)
    if deep:
        pieces = kit.catalogue(layout, drawings)
        kit.build_pdf(layout, loaded, setup, drawings, pieces, KitOptions(theme=theme, lang=lang), summary="")
        simulate(engine, layout, games=2, players=layout.players[0], seed=1)


def layout_case(folder: Path, base: str, raw: bytes, *, deep: bool = False) -> Callable[[], None]:
    path = folder / f"{base}-mutated.toml"
    path.write_bytes(raw)
    return lambda: prepare_kit(str(path), deep=deep)


def theme_case(folder: Path, raw: bytes, game: str, *, deep: bool = False) -> Callable[[], None]:
    path = folder / "theme-mutated.toml"
    path.write_bytes(raw)
    return lambda: prepare_kit(game, str(path), deep=deep)


# Options ------------------------------------------------------------------------------------------

OPTION_VALUES = {
    "--paper": [
        "a4",
        "letter",
        "a3",
        "80x80",
        "100x100",
        "841x1189",
        "1189x841",
        "1190x841",
        "99999x99999",
        "5000x5000",
        "nan",
        "0x0",
        "-1x-1",
        "1e999x1e999",
        "a9",
        "",
        "x",
        "297x210",
        "1" * 400 + "x100",
    ],
    "--margin": ["0", "8", "30", "30.0001", "-1", "nan", "inf", "-inf", "1e308", "-1e308", "x", "", "1e-320"],
    "--overlap": ["1", "10", "40", "0", "-5", "nan", "inf", "41", "x"],
    "--back-offset": [
        "0,0",
        "1,-1",
        "10,10",
        "nan,nan",
        "inf,0",
        "1e308,0",
        "500,0",
        "-1000,-1000",
        "1",
        "a,b",
        "1,2,3",
        ",",
        "",
    ],
    "--gap": ["0", "3", "20", "20.1", "-1", "nan", "inf", "-inf", "1e999", "x"],
    "--kerf": ["0", "0.15", "2", "2.01", "-0.1", "nan", "inf", "-inf", "1e999", "x"],
    "--bed": ["600x400", "20x20", "19x400", "nanxnan", "infx400", "1e9x1e9", "x"],
    "--sheets": ["1", "1,3", "0", "-1", "99999999999999999999", "one", "1,,2", "", "2,2", "1000"],
    "--seed": ["0", "1", "2", "-3", "9223372036854775807", "9223372036854775808", "9" * 5000, "x", "1.5"],
    "--lang": ["en", "fr", "de", ""],
    "--theme": ["classic", "ink-saver", "minoan", "nope", "/etc/hostname", "x.toml", "\x01"],
}
COMMAND_VALUES = {
    "validate": {"--games": ["0", "-1", "20001", "1e3", "nan", "9" * 5000, "x"], "--seed": ["-1", "9" * 40, "x"]},
    "simulate": {
        "--games": ["0", "-1", "20001", "x"],
        "--players": ["0", "-1", "9", "99999999999", "x"],
        "--seed": ["-1", "x"],
    },
    "solve": {"--pairs": ["0", "-5", "100001", "x"], "--pair-seed": ["-1", "x"]},
}


def render_args(rng: random.Random) -> list[str]:
    args = ["render", rng.choice(["classic", "master", "minos", "clasic", "nowhere.toml"])]
    for option, values in OPTION_VALUES.items():
        if rng.random() < 0.4:
            args += [option, rng.choice(values)]
    for flag in ("--joint", "--orientation", "--backs", "--flip"):
        if rng.random() < 0.2:
            args += [
                flag,
                rng.choice(
                    {
                        "--joint": ["butt", "overlap", "glue"],
                        "--orientation": ["auto", "portrait", "landscape", "diagonal"],
                        "--backs": ["duplex", "fold", "none", "both"],
                        "--flip": ["long", "short", "sideways"],
                    }[flag]
                ),
            ]
    return args


def command_args(rng: random.Random) -> list[str]:
    command = rng.choice(list(COMMAND_VALUES))
    option = rng.choice(list(COMMAND_VALUES[command]))
    return [command, rng.choice(["classic", "minos"]), option, rng.choice(COMMAND_VALUES[command][option])]


def cli_case(args: list[str], out: Path) -> Callable[[], None]:
    """Run the CLI: exit 0, or a non-zero exit with one clear message and no traceback."""
    from click.testing import CliRunner

    from boardgen.cli import cli

    def run() -> None:
        full = [*args, "-o", str(out)] if args[0] == "render" else args
        result = CliRunner().invoke(cli, full)
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        if "Traceback" in result.output:
            raise AssertionError(result.output[-800:])
        if result.exit_code != 0:
            if not (result.stderr.startswith("boardgen: error: ") or "Error: " in result.stderr):
                raise AssertionError(f"exit {result.exit_code} without a clear message: {result.output[-400:]}")
            raise BoardgenError(result.stderr.strip().splitlines()[-1])

    return run


# House rules (issue 37) ----------------------------------------------------------------------------

RULES_ATTACKS = (
    "fifo",
    "link",
    "huge",
    "bad-byte",
    "nul",
    "long-word",
    "long-paragraph",
    "many-lines",
    "placeholder",
    "mutated",
    "empty",
)


def hostile_rules(path: Path, rng: random.Random, attack: str) -> None:
    """Write house rules at `path` as `attack` says: not a file, too large, not text, words and
    paragraphs that flow badly, or the bundled text with a few edits."""
    import os

    text = (layouts_root() / "rules" / "classic.en.md").read_text(encoding="utf-8")
    if attack == "fifo":
        os.mkfifo(path)
    elif attack == "link":
        target = rng.choice(["/dev/zero", "/etc/hostname", str(layouts_root() / "rules" / "classic.en.md")])
        path.symlink_to(target)
    elif attack == "huge":
        with path.open("wb") as out:
            out.truncate(rng.choice([64 * 1024 + 1, 10**6, 400 * 1024**2]))
    elif attack == "bad-byte":
        raw = text.encode("utf-8")
        at = rng.randrange(len(raw))
        path.write_bytes(raw[:at] + rng.choice([b"\xe9", b"\xff", b"\xc3", b"\xed\xa0\x80"]) + raw[at:])
    elif attack == "nul":
        path.write_text(text.replace("\n", "\n\0", 1), encoding="utf-8")
    elif attack == "long-word":
        path.write_text(f"# Rules\n{'w' * rng.choice([199, 200, 201, 5000, 60_000])}\n", encoding="utf-8")
    elif attack == "long-paragraph":
        path.write_text("# Rules\n" + "word " * rng.choice([790, 801, 12_000]) + "\n", encoding="utf-8")
    elif attack == "many-lines":
        path.write_text("# Rules\n" + "- x\n" * rng.choice([100, 5000]), encoding="utf-8")
    elif attack == "placeholder":
        path.write_text("# Rules\n" + "{nope} {__class__} {0} {" * rng.choice([1, 500]) + "\n", encoding="utf-8")
    elif attack == "empty":
        path.write_bytes(b"")
    else:
        path.write_bytes(mutate(text, rng, rng.choice([1, 2, 3])))


def house_rules_case(folder: Path, rng: random.Random, attack: str | None = None) -> Callable[[], None]:
    """A layout with `rules = "house"` beside hostile house rules, taken through what a render
    does with a rules text: the language and glyph checks, then the PDF with its rules pages."""
    import tempfile

    where = Path(tempfile.mkdtemp(prefix="house-", dir=folder))
    (where / "g.toml").write_text('extends = "classic"\n[game]\nrules = "house"\n', encoding="utf-8")
    hostile_rules(where / "house.en.md", rng, attack or rng.choice(RULES_ATTACKS))

    def run() -> None:
        from boardgen.data.theme import load_theme
        from boardgen.engines import load_game
        from boardgen.kits.glyphs import check_glyphs
        from boardgen.kits.rules_text import check_language
        from boardgen.options import KitOptions

        engine, layout = load_game(str(where / "g.toml"))
        check_language(layout, engine.name, "en")
        theme = load_theme("classic")
        check_glyphs(theme, layout, "en")
        kit = engine.kit()
        setup = kit.setup(layout, layout.default_seed)
        drawings = kit.draw(layout, theme, setup, "en")
        kit.build_pdf(layout, theme, setup, drawings, kit.catalogue(layout, drawings), KitOptions(), summary="")

    return run


# PDFs for preflight (issue 37) ---------------------------------------------------------------------

PDF_ATTACKS = (
    "prefix",
    "huge-page",
    "many-pages",
    "user-unit",
    "nan-box",
    "truncated",
    "flipped",
    "inflates",
    "not-pdf",
    "fine",
)


def hostile_pdf(rng: random.Random, attack: str) -> bytes:
    """A PDF (or not) as an attacker would hand it to `boardgen preflight`."""
    import io
    import zlib

    from pypdf import PdfWriter
    from pypdf.generic import FloatObject, NameObject, StreamObject

    writer = PdfWriter()
    pages = {"many-pages": rng.choice([501, 2000])}.get(attack, rng.randint(1, 3))
    side = {"huge-page": rng.choice([3680.0, 3690.0, 14400.0, 1e9])}.get(attack, 300.0)
    for _ in range(pages):
        page = writer.add_blank_page(side, side)
        if attack == "user-unit":
            page[NameObject("/UserUnit")] = FloatObject(rng.choice([2.0, 75000.0, 1e-9]))
        if attack == "inflates":
            stream = StreamObject()
            stream.set_data(zlib.compress(b" " * rng.choice([1000, 3_000_000]) + b"1 0 0 rg 0 0 9 9 re f", 9))
            stream[NameObject("/Filter")] = NameObject("/FlateDecode")
            page[NameObject("/Contents")] = writer._add_object(stream)
    out = io.BytesIO()
    writer.write(out)
    data = out.getvalue()
    if attack == "nan-box":  # written as text: pypdf writes no such number
        box = rng.choice(
            [b"0 0 nan inf", b"0 0 99999999999999999999999 300", b"0 0 -14400 300", b"/x /y 1 2", b"0 0 300"]
        )
        data = re.sub(rb"/MediaBox \[[^\]]*\]", b"/MediaBox [ " + box + b" ]", data)
    if attack == "prefix":
        data = rng.choice([b"%!PS\n{ 1 pop } loop\n", b"\n", b"\xef\xbb\xbf", b"GIF89a"]) + data
    elif attack == "truncated":
        data = data[: rng.randrange(1, len(data))]
    elif attack == "flipped":
        raw = bytearray(data)
        for _ in range(rng.randint(1, 20)):
            raw[rng.randrange(8, len(raw))] = rng.randrange(256)
        data = bytes(raw)
    elif attack == "not-pdf":
        data = rng.choice(
            [b"%!PS-Adobe-3.0\n{ 1 pop } loop\n", b"", b"%PDF-", bytes(rng.randrange(256) for _ in range(500))]
        )
    return data


def pdf_case(folder: Path, rng: random.Random, attack: str | None = None) -> Callable[[], None]:
    """`boardgen preflight` of a hostile PDF: a report (exit 0, or 7 for problems found) or one
    clear line and exit 2 (or 6 without Ghostscript); never a traceback or a hang."""
    from click.testing import CliRunner

    from boardgen.cli import cli

    path = folder / "hostile.pdf"
    path.write_bytes(hostile_pdf(rng, attack or rng.choice(PDF_ATTACKS)))
    service = rng.choice(["press", "drivethru", "tgc"])

    def run() -> None:
        result = CliRunner().invoke(cli, ["preflight", str(path), "--for", service])
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        if "Traceback" in result.output:
            raise AssertionError(result.output[-800:])
        if result.exit_code not in (0, 7):
            if not result.stderr.startswith("boardgen: error: "):
                raise AssertionError(f"exit {result.exit_code} without a clear message: {result.output[-400:]}")
            raise BoardgenError(result.stderr.strip().splitlines()[-1])

    return run
