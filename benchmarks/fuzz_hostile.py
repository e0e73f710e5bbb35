"""The long hostile-input fuzz run (tests/test_fuzz.py is its few-second version).

    .venv/bin/python benchmarks/fuzz_hostile.py --cases 10000 [--seed 1] [--shard 0/2] [--json out.json]

Categories: mutated layouts (a quarter of those that load also get their PDF and two
self-played games), mutated themes drawn on a game, hostile command-line options (renders
that pass run with the playability check stubbed and no previews), and interrupted renders
(a real process sent SIGINT or SIGTERM at a random moment; the kit folder must then hold the
old kit or a complete new one, never a mix, and nothing hidden may be left over), house rules
texts that are FIFOs, links, huge, not UTF-8 or flow badly (issue 37), and PDFs handed to
`boardgen preflight` as an attacker would (a PostScript prefix, huge or many pages, UserUnit,
boxes that are not numbers, truncated, flipped bytes, streams that inflate a thousandfold).
Each case ends as ok, error (a BoardgenError: what we want for bad input), traceback or hang.
Memory is capped at 4 GiB so a runaway case fails instead of taking the machine.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from fuzzing import (  # noqa: E402 - tests/ is put on the path just above
    Outcome,
    bundled_text,
    classify,
    cli_case,
    command_args,
    house_rules_case,
    layout_case,
    mutate,
    pdf_case,
    render_args,
    theme_case,
)

SHARES = {"layouts": 0.36, "themes": 0.22, "options": 0.325, "interrupts": 0.005, "house_rules": 0.05, "pdfs": 0.04}

DRIVER = """
import sys
import boardgen.kit as kit
kit.require_playable = lambda report, *args, **kwargs: report  # the verdict kept, never a refusal
from boardgen.cli import main
sys.argv = ["boardgen", *sys.argv[1:]]
main()
"""


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def interrupt_case(rng: random.Random, work: Path, old_kit: Path) -> Outcome:
    """A render (seed 2, previews on) over an existing kit, sent a signal after a random delay."""
    out = work / "interrupt"
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(old_kit, out)
    before = snapshot(out / "classic")
    signum = rng.choice([signal.SIGINT, signal.SIGTERM])
    delay = rng.uniform(0.2, 12.0)
    process = subprocess.Popen(
        [sys.executable, "-c", DRIVER, "render", "classic", "--seed", "2", "-o", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=work,
    )
    try:
        process.wait(timeout=delay)
    except subprocess.TimeoutExpired:
        process.send_signal(signum)
    try:
        _out, err = process.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        return Outcome("hang", f"no exit 120 s after signal {signum}")
    after = snapshot(out / "classic")
    leftovers = [p.name for p in out.rglob(".*")]
    if "Traceback" in err:
        return Outcome("traceback", err[-800:])
    if leftovers:
        return Outcome("traceback", f"left over: {leftovers}")
    if after == before:
        if process.returncode == 0:
            return Outcome("traceback", "exit 0 but the kit was not replaced")
        return Outcome("error", f"interrupted by {signal.Signals(signum).name} after {delay:.1f} s: old kit intact")
    new = {k for k in after if k not in before or after[k] != before[k]}
    pdf = after.get("classic-a4-seed2.pdf", b"")
    previews = any(k.startswith("preview/") for k in new)
    complete = pdf.startswith(b"%PDF-") and pdf.rstrip().endswith(b"%%EOF") and previews
    if not complete:
        name = signal.Signals(signum).name
        return Outcome("traceback", f"a mixed kit after {name} at {delay:.1f} s: {sorted(new)[:5]}")
    return Outcome("ok", f"finished (exit {process.returncode}) before the signal took effect")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--shard", default="0/1", help="i/n: run every n-th case starting at i")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    index, shards = (int(v) for v in args.shard.split("/"))
    limit = 4 * 1024**3
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    import boardgen.kit
    from boardgen.data.loader import bundled_names

    games = bundled_names("game")

    boardgen.kit.require_playable = lambda report, *a, **k: report  # type: ignore[assignment]
    work = Path(tempfile.mkdtemp(prefix="boardgen-fuzz-"))
    old_kit = work / "old"
    subprocess.run(
        [sys.executable, "-c", DRIVER, "render", "classic", "-o", str(old_kit)],
        check=True,
        cwd=work,
        stdout=subprocess.DEVNULL,
    )
    plan = []
    for category, share in SHARES.items():
        plan += [category] * max(1, round(args.cases * share))
    random.Random(args.seed).shuffle(plan)
    counts: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    failures: list[dict[str, str]] = []
    started = time.time()
    for number, category in enumerate(plan):
        if number % shards != index:
            continue
        rng = random.Random(args.seed * 1_000_003 + number)
        if category == "layouts":
            base = rng.choice(games)
            raw = mutate(bundled_text("games", base), rng, rng.choice([1, 1, 2, 3]))
            outcome = classify(layout_case(work, base, raw, deep=rng.random() < 0.25), seconds=60)
        elif category == "themes":
            base = rng.choice(bundled_names("theme"))
            raw = mutate(bundled_text("themes", base), rng, rng.choice([1, 1, 2, 3]))
            outcome = classify(theme_case(work, raw, rng.choice(games)), seconds=60)
        elif category == "options":
            cli_args = render_args(rng) + ["--no-preview"] if rng.random() < 0.7 else command_args(rng)
            outcome = classify(cli_case(cli_args, work / "options-out"), seconds=120)
            shutil.rmtree(work / "options-out", ignore_errors=True)
        elif category == "house_rules":
            outcome = classify(house_rules_case(work, rng), seconds=60)
        elif category == "pdfs":
            outcome = classify(pdf_case(work, rng), seconds=60)
        else:
            outcome = interrupt_case(rng, work, old_kit)
        counts[category][outcome.category] += 1
        if outcome.category in ("traceback", "hang"):
            failures.append(
                {
                    "case": str(number),
                    "category": category,
                    "outcome": outcome.category,
                    "detail": outcome.detail[-600:],
                }
            )
            print(f"[{number}] {category} {outcome.category}: {outcome.detail[-300:]}", file=sys.stderr, flush=True)
        done = sum(sum(c.values()) for c in counts.values())
        if done % 250 == 0:
            print(
                f"{done} cases, {time.time() - started:.0f} s: {dict((k, dict(v)) for k, v in counts.items())}",
                file=sys.stderr,
                flush=True,
            )
    summary = {
        "cases": sum(sum(c.values()) for c in counts.values()),
        "seconds": round(time.time() - started),
        "counts": {k: dict(v) for k, v in sorted(counts.items())},
        "failures": failures,
    }
    text = json.dumps(summary, indent=2)
    print(text)
    if args.json is not None:
        args.json.write_text(text + "\n", encoding="utf-8")
    shutil.rmtree(work, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
