"""Whole `boardgen` processes as a person runs them: wall time (median of N) and peak memory.

Usage: python benchmarks/bench_cli.py [--runs 5] [--only NAME ...]
       python benchmarks/bench_cli.py --targets --now PY --before PY [--protograf PY] [--runs 5]

--targets measures issue 38's targets side by side (see docs/speed.md for how to set up the
three Pythons): CPU time (user + system of the whole process tree, from wait4) and wall time,
median of --runs, of `boardgen --help`, `render classic` and `render classic --only cards` on
an empty cache, `render --all` on an empty cache, and `validate` of each bundled game, with
boardgen installed in PY --now and in PY --before (commit 8252df2), and protograf's deck of
as many cards with duplex backs (benchmarks/protograf_deck.py) in PY --protograf. It prints
every ratio and whether each target holds. Runs alternate between the installs, each in a
fresh folder outside any checkout (so `-m boardgen` is the installed package).

Each case runs in a fresh process with a fresh output folder. "cold" cases also get an empty
cache folder (BOARDGEN_CACHE_DIR): no verdict, so the playability check runs, and no kept
drawings, as on the first run after installing; "--recheck" cases run the check with the
drawings kept, as after editing a layout; "warm" cases reuse the verdict of an earlier render
of the same layout and seed, as a person changing only the theme, the paper or the language
does. Figures go in the README, never in timed tests.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

BG = [sys.executable, "-m", "boardgen"]


def run(args: list[str], env: dict[str, str], *, ok: bool = True) -> tuple[float, int]:
    """Wall seconds and peak RSS (KiB) of one process."""
    started = time.perf_counter()
    proc = subprocess.Popen(BG + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    took = time.perf_counter() - started
    err = proc.stderr.read().decode() if proc.stderr else ""
    proc.returncode = os.waitstatus_to_exitcode(status)
    if ok and proc.returncode != 0:
        raise SystemExit(f"boardgen {' '.join(args)} failed:\n{err}")
    return took, usage.ru_maxrss


def case(name: str, runs: int, make: Callable[[Path], tuple[list[str], dict[str, str], bool]]) -> None:
    times, peaks = [], []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            args, env, ok = make(Path(tmp))
            took, peak = run(args, env, ok=ok)
            times.append(took)
            peaks.append(peak)
            pdfs = sorted(Path(tmp).rglob("*.pdf"))
            size = sum(p.stat().st_size for p in pdfs)
    print(
        f"{name:<44} median {statistics.median(times):6.2f} s  best {min(times):6.2f} s  "
        f"peak {max(peaks) / 1024:5.0f} MiB" + (f"  PDF {size / 1024:.0f} KiB" if size else ""),
        flush=True,
    )


def environment(cache: Path | None) -> dict[str, str]:
    env = dict(os.environ)
    if cache is not None:
        env["BOARDGEN_CACHE_DIR"] = str(cache)
    return env


GAMES = ["classic", "master", "minos", "grand", "walls"]
DECK = Path(__file__).with_name("protograf_deck.py")


def process(cmd: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one process and every child it waited for."""
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=cwd)
    _, status, usage = os.wait4(proc.pid, 0)
    took = time.perf_counter() - started
    err = proc.stderr.read().decode() if proc.stderr else ""
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{err}")
    return took, usage.ru_utime + usage.ru_stime


def fresh(tmp: Path) -> dict[str, str]:
    """The environment of a first run: empty caches, the bytecode Python writes kept."""
    env = {k: v for k, v in os.environ.items() if k not in ("BOARDGEN_CACHE_DIR", "PYTHONDONTWRITEBYTECODE")}
    env.update(XDG_CACHE_HOME=str(tmp / "cache"), XDG_STATE_HOME=str(tmp / "state"), DECK_PDF=str(tmp / "deck.pdf"))
    return env


def targets(args: argparse.Namespace) -> None:
    pythons = {"now": args.now, "8252df2": args.before}
    if args.protograf:
        pythons["protograf"] = args.protograf
    # (case, install, arguments, arguments of an unmeasured run first in the same fresh folder)
    cases: list[tuple[str, str, list[str], list[str]]] = [("--help", w, ["--help"], []) for w in ("now", "8252df2")]
    for who in ("now", "8252df2"):
        cases += [
            ("render classic", who, ["render", "classic"], []),
            # the cards alone, as a deck tool makes them: the layout's verdict known (the
            # check is not a deck's), nothing drawn before
            ("render classic --only cards", who, ["render", "classic", "--only", "cards"], ["validate", "classic"]),
            ("render --all", who, ["render", "--all"], []),
        ]
        cases += [(f"validate {g}", who, ["validate", g], []) for g in GAMES]
    if args.protograf:
        cases.append(("protograf deck", "protograf", [], []))
    if args.only:
        cases = [c for c in cases if any(word in c[0] for word in args.only)]
    wall: dict[tuple[str, str], list[float]] = {}
    cpu: dict[tuple[str, str], list[float]] = {}
    for _ in range(args.runs):  # every case once a round: a busy moment touches all of them alike
        for name, who, extra, prime in cases:
            with tempfile.TemporaryDirectory(prefix="bench-") as folder:
                tmp = Path(folder)
                if prime:
                    process([pythons[who], "-m", "boardgen", *prime], fresh(tmp), tmp)
                out = ["-o", str(tmp / "out")] if extra[:1] == ["render"] else []
                cmd = [pythons[who], "-m", "boardgen", *extra, *out] if extra else [pythons[who], str(DECK)]
                took, used = process(cmd, fresh(tmp), tmp)
            wall.setdefault((name, who), []).append(took)
            cpu.setdefault((name, who), []).append(used)
    med = {key: (statistics.median(wall[key]), statistics.median(cpu[key])) for key in wall}
    print(f"{'case':<30} {'install':<10} {'wall s':>7} {'CPU s':>7}  (median of {args.runs}; best CPU)")
    for (name, who), (w, c) in med.items():
        print(f"{name:<30} {who:<10} {w:7.2f} {c:7.2f}  ({min(cpu[name, who]):.2f})")
    print()

    def verdict(label: str, value: float, limit: float, unit: str = "x") -> None:
        print(
            f"{label:<58} {value:6.2f}{unit} (target at most {limit:g}{unit}): "
            f"{'holds' if value <= limit else 'MISSED'}"
        )

    def ratio(name: str, over: tuple[str, str], limit: float | None = None) -> None:
        if (name, "now") not in med or over not in med:
            return
        label = f"{name} CPU, now / {over[1] if over[0] == name else over[0]}"
        value = med[name, "now"][1] / med[over][1]
        if limit is None:
            print(f"{label:<58} {value:6.2f}x")
        else:
            verdict(label, value, limit)

    if ("--help", "now") in med:
        verdict("boardgen --help CPU, now", med["--help", "now"][1], 0.06, " s")
        ratio("--help", ("--help", "8252df2"))
    ratio("render classic", ("render classic", "8252df2"), 0.8)
    ratio("render classic --only cards", ("protograf deck", "protograf"), 0.25)
    ratio("render classic --only cards", ("render classic --only cards", "8252df2"))
    if ("render --all", "now") in med:
        verdict("render --all wall, now", med["render --all", "now"][0], 5.0, " s")
        ratio("render --all", ("render --all", "8252df2"))
    for g in GAMES:
        ratio(f"validate {g}", (f"validate {g}", "8252df2"), 2.4 if g == "grand" else 1.0)
        if (f"validate {g}", "now") in med:
            verdict(f"validate {g} wall, now", med[f"validate {g}", "now"][0], 1.0, " s")
    print(f"({os.cpu_count()} CPUs, load average at the end {os.getloadavg()[0]:.1f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", nargs="*", default=None, help="run only cases whose name contains one of these")
    parser.add_argument("--targets", action="store_true", help="issue 38's targets against --before and --protograf")
    parser.add_argument("--now", default=sys.executable, help="Python with the boardgen to measure installed")
    parser.add_argument("--before", help="Python with boardgen 8252df2 installed")
    parser.add_argument("--protograf", help="Python with protograf installed")
    args = parser.parse_args()
    if args.targets:
        if not args.before:
            parser.error("--targets needs --before PY (boardgen 8252df2 installed)")
        targets(args)
        return
    games = GAMES
    primed = Path(tempfile.mkdtemp(prefix="bench-cache-"))
    for game in games:  # a verdict for each bundled layout and default seed, for the warm cases
        run(["render", game, "-o", str(primed / "out"), "--no-preview", "--no-svg"], environment(primed / "cache"))
    warm = environment(primed / "cache")

    def cold(extra: list[str]) -> Callable[[Path], tuple[list[str], dict[str, str], bool]]:
        return lambda tmp: (extra + ["-o", str(tmp / "out")], environment(tmp / "cache"), True)

    def hot(extra: list[str]) -> Callable[[Path], tuple[list[str], dict[str, str], bool]]:
        return lambda tmp: (extra + ["-o", str(tmp / "out")], warm, True)

    cases: list[tuple[str, Callable[[Path], tuple[list[str], dict[str, str], bool]]]] = [
        ("boardgen --help", lambda tmp: (["--help"], environment(None), True)),
    ]
    cases += [(f"render {g} (cold: check runs)", cold(["render", g])) for g in games]
    # The "cold": no earlier verdict for the layout and seed, the drawings already kept
    # (a person who edited the layout renders again with the same theme).
    cases += [(f"render {g} --recheck (check runs, drawings kept)", hot(["render", g, "--recheck"])) for g in games]
    cases += [
        (f"render {g} --theme ink-saver (verdict reused)", hot(["render", g, "--theme", "ink-saver"])) for g in games
    ]
    cases += [
        (
            "render classic --lang fr --paper letter (reused)",
            hot(["render", "classic", "--lang", "fr", "--paper", "letter"]),
        ),
        ("render --all (cold)", cold(["render", "--all"])),
        ("render --all (verdicts reused)", hot(["render", "--all"])),
        (
            "render classic --only cards --no-preview --no-svg (reused)",
            hot(["render", "classic", "--only", "cards", "--no-preview", "--no-svg"]),
        ),
        (
            "render classic --margin nan (refused)",
            lambda tmp: (["render", "classic", "--margin", "nan"], environment(tmp / "cache"), False),
        ),
        (
            "render classic --theme missing.toml (refused)",
            lambda tmp: (["render", "classic", "--theme", str(tmp / "missing.toml")], environment(tmp / "c"), False),
        ),
    ]
    cases += [
        (f"validate {g} (cold)", lambda tmp, g=g: (["validate", g], environment(tmp / "cache"), True)) for g in games
    ]
    for name, make in cases:
        if args.only and not any(word in name for word in args.only):
            continue
        case(name, args.runs, make)
    shutil.rmtree(primed, ignore_errors=True)
    print(
        f"(median of {args.runs} runs, {os.cpu_count()} CPUs, load average "
        f"{os.getloadavg()[0]:.1f}; resource limit {resource.getrlimit(resource.RLIMIT_AS)[0]})"
    )


if __name__ == "__main__":
    main()
