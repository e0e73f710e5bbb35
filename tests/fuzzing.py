"""Hostile-input fuzzing shared by tests/test_fuzz.py (a few seconds in CI) and
benchmarks/fuzz_hostile.py (the long run): mutate bundled layouts and themes as text, run
them through what `boardgen render` does before the PDF, and sort each case into ok (it
worked), error (a BoardgenError: the clear message wanted), traceback (anything else) or
hang (over the time limit).
"""

from __future__ import annotations

import random
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
    "nan", "inf", "-inf", "-1", "0", "1", "2", "12.0", "7.5", "-0.0", "1e308", "1e-300", "99999999999",
    "1000000000000", "9" * 30, '""', '"' + "x" * 5000 + '"', "[]", "{}", "true", "false", '"../../../../etc/hostname"',
    '"/etc/hostname"', '"a\\u0000b"', "[" * 40 + "]" * 40, '"classic"', "[1, 2]", "[0, 0]", "[99, 99]", "[-1, 0]",
    '{ en = "x", fr = "y" }', '{ en = "", fr = "" }', '"NESW"', '"N"', '"Q"', '"#zzzzzz"', '"#000000"',
    "[[0, 0], [0, 0]]",
    '"red"', '"sliding"', '"minos"', '"master"', '"../classic"', '"a/b"', "1979-05-27T07:32:00Z", '"\\u00e9\\u672c"',
]
# Numbers at or near the schemas' bounds: valid, but the extremes the model and the drawing must survive.
EDGE_NUMBERS = ["3", "5", "9", "11", "13", "15", "25", "10.001", "120", "60", "0.0", "225", "300", "0.001", "1", "8",
                "9", "100", "999", "10000", "20000", "63", "14", "0.5", "1.0", "2"]
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
    kind = rng.choices(["value", "drop", "double", "unknown", "typo", "truncate", "move", "header", "inline"],
                       weights=[40, 10, 8, 8, 8, 4, 6, 6, 10])[0]
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
            key = stripped[:k] + stripped[k + 1:] + " "
        lines[i] = f"{key}={value}"
    elif kind == "truncate":
        return text[: rng.randrange(len(text) + 1)]
    elif kind == "move" and len(lines) > 1:
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == "header":
        lines.insert(rng.randrange(len(lines) + 1), rng.choice(["[board]", "[game]", "[[treasures]]", "[fields]",
                                                               "[x]", "[palette]", "[art]", "[[tiles.loose]]"]))
    return "\n".join(lines)


# What a render does before the PDF --------------------------------------------------------------

def prepare_kit(game: str, theme: str = "classic", lang: str = "en", *, deep: bool = False) -> None:
    """Load, build, set up and draw a kit: everything `boardgen render` does with the data
    before the playability check and the PDF. deep: then the PDF and two self-played games."""
    from boardgen.data.theme import load_theme
    from boardgen.engines import load_game
    from boardgen.options import KitOptions
    from boardgen.rules.report import simulate

    engine, layout = load_game(game)
    loaded = load_theme(theme)
    kit = engine.kit()
    setup = kit.setup(layout, layout.default_seed)
    drawings = kit.draw(layout, loaded, setup, lang)
    if deep:
        kit.build_pdf(layout, loaded, setup, drawings, KitOptions(theme=theme, lang=lang), summary="")
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
    "--paper": ["a4", "letter", "a3", "80x80", "100x100", "841x1189", "1189x841", "1190x841", "99999x99999",
                "5000x5000", "nan", "0x0", "-1x-1", "1e999x1e999", "a9", "", "x", "297x210", "1" * 400 + "x100"],
    "--margin": ["0", "8", "30", "30.0001", "-1", "nan", "inf", "-inf", "1e308", "-1e308", "x", "", "1e-320"],
    "--overlap": ["1", "10", "40", "0", "-5", "nan", "inf", "41", "x"],
    "--back-offset": ["0,0", "1,-1", "10,10", "nan,nan", "inf,0", "1e308,0", "500,0", "-1000,-1000", "1", "a,b",
                      "1,2,3", ",", ""],
    "--gap": ["0", "3", "20", "20.1", "-1", "nan", "inf", "-inf", "1e999", "x"],
    "--kerf": ["0", "0.15", "2", "2.01", "-0.1", "nan", "inf", "-inf", "1e999", "x"],
    "--bed": ["600x400", "20x20", "19x400", "nanxnan", "infx400", "1e9x1e9", "x"],
    "--sheets": ["1", "1,3", "0", "-1", "99999999999999999999", "one", "1,,2", "", "2,2", "1000"],
    "--seed": ["0", "1", "2", "-3", "9223372036854775807", "9223372036854775808", "9" * 5000, "x", "1.5"],
    "--lang": ["en", "fr", "de", ""],
    "--theme": ["classic", "ink-saver", "minoan", "nope", "/etc/hostname", "x.toml", "\x01"],
}
COMMAND_VALUES = {
    "validate": {"--games": ["0", "-1", "20001", "1e3", "nan", "9" * 5000, "x"],
                 "--seed": ["-1", "9" * 40, "x"]},
    "simulate": {"--games": ["0", "-1", "20001", "x"], "--players": ["0", "-1", "9", "99999999999", "x"],
                 "--seed": ["-1", "x"]},
    "solve": {"--pairs": ["0", "-5", "100001", "x"], "--pair-seed": ["-1", "x"]},
}


def render_args(rng: random.Random) -> list[str]:
    args = ["render", rng.choice(["classic", "master", "minos", "clasic", "nowhere.toml"])]
    for option, values in OPTION_VALUES.items():
        if rng.random() < 0.4:
            args += [option, rng.choice(values)]
    for flag in ("--joint", "--orientation", "--backs", "--flip"):
        if rng.random() < 0.2:
            args += [flag, rng.choice({"--joint": ["butt", "overlap", "glue"],
                                       "--orientation": ["auto", "portrait", "landscape", "diagonal"],
                                       "--backs": ["duplex", "fold", "none", "both"],
                                       "--flip": ["long", "short", "sideways"]}[flag])]
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
