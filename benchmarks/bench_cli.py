"""Whole `boardgen` processes as a person runs them: wall time (median of N) and peak memory.

Usage: python benchmarks/bench_cli.py [--runs 5] [--only NAME ...]

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
    print(f"{name:<44} median {statistics.median(times):6.2f} s  best {min(times):6.2f} s  "
          f"peak {max(peaks) / 1024:5.0f} MiB" + (f"  PDF {size / 1024:.0f} KiB" if size else ""), flush=True)


def environment(cache: Path | None) -> dict[str, str]:
    env = dict(os.environ)
    if cache is not None:
        env["BOARDGEN_CACHE_DIR"] = str(cache)
    return env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", nargs="*", default=None, help="run only cases whose name contains one of these")
    args = parser.parse_args()
    games = ["classic", "master", "minos", "grand", "walls"]
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
    cases += [(f"render {g} --recheck (check runs, drawings kept)", hot(["render", g, "--recheck"]))
              for g in games]
    cases += [(f"render {g} --theme ink-saver (verdict reused)", hot(["render", g, "--theme", "ink-saver"]))
              for g in games]
    cases += [
        ("render classic --lang fr --paper letter (reused)", hot(["render", "classic", "--lang", "fr",
                                                                  "--paper", "letter"])),
        ("render --all (cold)", cold(["render", "--all"])),
        ("render --all (verdicts reused)", hot(["render", "--all"])),
        ("render classic --only cards --no-preview --no-svg (reused)",
         hot(["render", "classic", "--only", "cards", "--no-preview", "--no-svg"])),
        ("render classic --margin nan (refused)", lambda tmp: (["render", "classic", "--margin", "nan"],
                                                               environment(tmp / "cache"), False)),
        ("render classic --theme missing.toml (refused)",
         lambda tmp: (["render", "classic", "--theme", str(tmp / "missing.toml")], environment(tmp / "c"), False)),
    ]
    cases += [(f"validate {g} (cold)", lambda tmp, g=g: (["validate", g], environment(tmp / "cache"), True))
              for g in games]
    for name, make in cases:
        if args.only and not any(word in name for word in args.only):
            continue
        case(name, args.runs, make)
    shutil.rmtree(primed, ignore_errors=True)
    print(f"(median of {args.runs} runs, {os.cpu_count()} CPUs, load average "
          f"{os.getloadavg()[0]:.1f}; resource limit {resource.getrlimit(resource.RLIMIT_AS)[0]})")


if __name__ == "__main__":
    main()
