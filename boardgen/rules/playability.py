"""Playability report: static checks of a deal, solver reachability and self-play statistics.

`check_sliding(layout, seed)` is what `boardgen validate` and the render pre-check run.
Static checks look at the printed deal (seed `seed`) and collect every problem, each with
a precise message; the solver then looks for every treasure from every start on that board;
self-play plays ``games_per_player_count`` games per player count with greedy players on
fresh deals derived from `seed`. Thresholds come from the layout's ``[playability]`` table,
with the defaults in `DEFAULTS`.
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal

from boardgen.data.strings import word
from boardgen.model.sliding import Deal, SlidingLayout, deal
from boardgen.model.tiles import Tile, mask_of, quarter_turns_between, sides_of
from boardgen.rules.players import find_player
from boardgen.rules.simulate import SimulationStats, available_cpus, percentile, simulate
from boardgen.rules.sliding import SHIFT, Board, SlidingState, find_variant, opens_onto_board
from boardgen.rules.solver import DEFAULT_BUDGET, PairResult, solve_many

if TYPE_CHECKING:
    from boardgen.model.minos import MinosLayout

Progress = Callable[[int, int, str], None]

DEFAULTS: dict[str, Any] = {
    "max_turns_to_target": 8,
    "games_per_player_count": 200,
    "turn_cap": 400,
    "min_completion_rate": 0.95,
    "max_seat_gap": 0.15,
    "seat_gap_significance": 0.01,
    "solver_budget": DEFAULT_BUDGET,
}

# One in this many turns of self-play also counts every complete turn (shift x walk).
BRANCHING_SAMPLE = 8


@dataclass
class Check:
    """One named check: whether it passed, a one-line summary, and every problem found."""

    name: str
    ok: bool
    summary: str
    problems: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "ok": self.ok, "summary": self.summary,
                "problems": list(self.problems)}


@dataclass
class Report:
    """The verdict on a layout and seed, with the reasons, the checks and the figures."""

    game: str
    seed: int
    playable: bool
    reasons: list[str]
    checks: list[Check]
    stats: dict[str, Any]
    elapsed_s: float = 0.0
    target_noun: str = "treasure"  # what the solver looked for, in the summary and text

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "seed": self.seed, "playable": self.playable,
                "reasons": list(self.reasons), "checks": [c.to_dict() for c in self.checks],
                "stats": self.stats}

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def to_text(self) -> str:
        verdict = "PLAYABLE" if self.playable else "NOT PLAYABLE"
        lines = [f"{self.game} (seed {self.seed}): {verdict}", ""]
        for check in self.checks:
            lines.append(f"  [{'ok' if check.ok else 'FAIL':>4}] {check.name}: {check.summary}")
            lines.extend(f"         - {problem}" for problem in check.problems)
        distribution = self.stats.get("turns_to_target")
        if distribution:
            lines += ["", f"Turns to reach each {self.target_noun} from each start (solver):"]
            lines.append("  " + format_distribution(distribution))
        for count, stats in sorted(self.stats.get("self_play", {}).items()):
            lines += ["", _self_play_text(int(count), stats)]
        if self.reasons:
            lines += ["", "Reasons:"] + [f"  - {reason}" for reason in self.reasons]
        return "\n".join(lines)

    def summary_line(self, lang: str = "en") -> str:
        """One line for the PDF cover, after "Playability: ", in the kit's language (the
        reasons of a failure stay in English, as in the report)."""
        if not self.playable:
            first = self.reasons[0] if self.reasons else "see the report"
            more = word(lang, "check_more", count=len(self.reasons) - 1) if len(self.reasons) > 1 else ""
            return word(lang, "check_failed", seed=self.seed, reason=first, more=more)
        parts = []
        distribution = self.stats.get("turns_to_target")
        if distribution:
            worst = max(int(k) for k in distribution if k != "unreached")
            parts.append(word(lang, "check_reach", noun=word(lang, f"noun_{self.target_noun}"), turns=worst))
        self_play = self.stats.get("self_play", {})
        if self_play:
            games = sum(s["games"] for s in self_play.values())
            finished = sum(s["finished"] for s in self_play.values())
            counts = sorted(int(k) for k in self_play)
            parts.append(word(lang, "check_games", finished=finished, games=games, low=counts[0],
                              high=counts[-1]))
        return word(lang, "check_passed", seed=self.seed, parts=word(lang, "check_sep").join(parts))


def thresholds(layout: SlidingLayout | MinosLayout, *,
               defaults: Mapping[str, Any] | None = None, **overrides: Any) -> dict[str, Any]:
    """The layout's [playability] table over `defaults` (the sliding game's `DEFAULTS`
    unless given), then non-None overrides."""
    values = dict(DEFAULTS if defaults is None else defaults)
    values.update(layout.playability)
    values.update({k: v for k, v in overrides.items() if v is not None})
    return values


# -- static checks on a deal -------------------------------------------------------------


def check_inventory(the_deal: Deal) -> list[str]:
    """Tiles of each shape on the board and spare, as the layout declares."""
    layout = the_deal.layout
    expected = Counter(t.shape for t in layout.all_tiles)
    found = Counter(t.shape for t in _all_dealt(the_deal))
    problems = []
    for shape in sorted(set(expected) | set(found)):
        if expected[shape] != found[shape]:
            problems.append(f"tile inventory: {found[shape]} {shape} tiles on the board and "
                            f"spare, the layout declares {expected[shape]}")
    known = {t.id for t in layout.all_tiles}
    counts = Counter(t.id for t in _all_dealt(the_deal))
    for tile_id, count in sorted(counts.items()):
        if tile_id not in known:
            problems.append(f"tile inventory: tile {tile_id!r} is not in the layout")
        elif count > 1:
            problems.append(f"tile inventory: tile {tile_id!r} is dealt {count} times")
    shapes = layout.doc.data["shapes"]
    for tile in _all_dealt(the_deal):
        base = shapes.get(tile.shape)
        if base is not None and quarter_turns_between(mask_of(base), tile.mask) is None:
            problems.append(f"tile {tile.id!r} ({tile.shape}) is open {sides_of(tile.mask)!r}, "
                            f"not a rotation of {base!r}")
    return problems


def check_treasures(the_deal: Deal) -> list[str]:
    """Every treasure on exactly one tile; no tile carries an unknown treasure."""
    declared = [t.id for t in the_deal.layout.treasures]
    carriers: dict[str, list[str]] = {}
    for where, tile in _placed(the_deal):
        if tile.treasure:
            carriers.setdefault(tile.treasure, []).append(where)
    problems = []
    for treasure in declared:
        places = carriers.get(treasure, [])
        if not places:
            problems.append(f"treasure {treasure!r} is on no tile")
        elif len(places) > 1:
            problems.append(f"treasure {treasure!r} is on {len(places)} tiles: "
                            f"{', '.join(places)}")
    for treasure in sorted(set(carriers) - set(declared)):
        problems.append(f"treasure {treasure!r} on {carriers[treasure][0]} is not declared "
                        f"in the layout's treasures")
    return problems


def check_fixed(the_deal: Deal) -> list[str]:
    """Each fixed tile on its square, turned as declared; no fixed tile anywhere else."""
    layout = the_deal.layout
    problems = []
    for (row, col), fixed in sorted(layout.fixed.items()):
        if not (0 <= row < len(the_deal.grid) and 0 <= col < len(the_deal.grid[row])):
            continue
        tile = the_deal.grid[row][col]
        if tile.id != fixed.id:
            problems.append(f"square [{row}, {col}] must hold its fixed {fixed.shape} "
                            f"{sides_of(fixed.mask)!r}, found tile {tile.id!r}")
        elif tile.mask != fixed.mask:
            problems.append(f"fixed tile at [{row}, {col}] is open {sides_of(tile.mask)!r}, "
                            f"the layout declares {sides_of(fixed.mask)!r}")
    for tile in _all_dealt(the_deal):
        if tile.fixed and tile.id not in {t.id for t in layout.fixed.values()}:
            problems.append(f"tile {tile.id!r} is marked fixed but the layout fixes no such tile")
    if the_deal.spare.fixed:
        problems.append(f"the spare is the fixed tile {the_deal.spare.id!r}")
    return problems


def check_starts(the_deal: Deal) -> list[str]:
    """Starts on the board's corners, on their start tiles, opening onto the board."""
    layout = the_deal.layout
    size = layout.size
    corners = {(0, 0), (0, size - 1), (size - 1, 0), (size - 1, size - 1)}
    problems = []
    for start in layout.starts:
        row, col = start.at
        if start.at not in corners:
            problems.append(f"start {start.colour!r} at [{row}, {col}] is not on a corner of "
                            f"the {size}x{size} board")
        if not (0 <= row < size and 0 <= col < size):
            continue
        tile = the_deal.grid[row][col]
        if tile.start != start.colour:
            problems.append(f"start {start.colour!r} at [{row}, {col}] is on tile {tile.id!r}, "
                            f"not on its start tile")
        if not opens_onto_board(tile.mask, row, col, size):
            problems.append(f"start {start.colour!r} at [{row}, {col}] is open "
                            f"{sides_of(tile.mask)!r}: no side opens onto the board")
    most = max(layout.deal, default=0)
    if most > len(layout.starts):
        problems.append(f"the deal goes up to {most} players but there are "
                        f"{len(layout.starts)} starts")
    return problems


def check_cards(the_deal: Deal) -> list[str]:
    """Every card names a treasure on the board or the spare, and every deal fits the deck."""
    layout = the_deal.layout
    on_tiles = {t.treasure for t in _all_dealt(the_deal) if t.treasure}
    problems = [f"card {t.id!r} has no treasure on the board or the spare"
                for t in layout.treasures if t.id not in on_tiles]
    for players, cards in sorted(layout.deal.items()):
        if players * cards > len(layout.treasures):
            problems.append(f"{players} players x {cards} cards needs {players * cards} cards, "
                            f"the deck has {len(layout.treasures)}")
    return problems


def check_insertion_points(the_deal: Deal) -> list[str]:
    """At least one insertion point; every sliding line on the board and free of fixed tiles."""
    layout = the_deal.layout
    size = layout.size
    if not layout.sliding_lines:
        return ["there is no insertion point: no row or column slides"]
    problems = []
    for line in layout.sliding_lines:
        if not 0 <= line < size:
            problems.append(f"sliding line {line} is off the {size}x{size} board")
            continue
        for row, col in sorted(layout.fixed):
            if line in (row, col):
                direction = "row" if row == line else "column"
                problems.append(f"insertion points {direction} {line}: the fixed tile at "
                                f"[{row}, {col}] would have to move")
    return problems


STATIC_CHECKS: tuple[tuple[str, Callable[[Deal], list[str]]], ...] = (
    ("tile inventory", check_inventory),
    ("treasures", check_treasures),
    ("fixed tiles", check_fixed),
    ("starts", check_starts),
    ("cards", check_cards),
    ("insertion points", check_insertion_points),
)


def static_checks(the_deal: Deal) -> list[Check]:
    """Run every static check on a deal; each lists all of its problems."""
    checks = []
    for name, run in STATIC_CHECKS:
        problems = run(the_deal)
        checks.append(Check(name, not problems, "ok" if not problems
                            else f"{len(problems)} problem(s)", problems))
    return checks


# -- solver and self-play ----------------------------------------------------------------


@dataclass
class PairsSummary:
    """Solver answers for many (pawn square, treasure) pairs on one deal."""

    game: str
    seed: int
    max_turns: int
    results: list[PairResult]
    elapsed_s: float = 0.0

    @property
    def distribution(self) -> dict[str, int]:
        return distribution(self.results)

    def to_dict(self) -> dict[str, Any]:
        turns = [r.solution.turns for r in self.results if r.solution.turns is not None]
        return {
            "game": self.game, "seed": self.seed, "pairs": len(self.results),
            "max_turns": self.max_turns, "turns_to_target": self.distribution,
            "mean": round(sum(turns) / len(turns), 3) if turns else None,
            "p95": percentile(turns, 0.95) if turns else None,
            "max": max(turns) if turns else None,
            "unresolved": [
                {"from": list(r.origin), "treasure": r.treasure, "proven": r.solution.proven}
                for r in self.results if r.solution.turns is None],
        }

    def to_text(self) -> str:
        data = self.to_dict()
        total = len(self.results)
        lines = [f"{self.game} (seed {self.seed}): {total} pairs, search up to "
                 f"{self.max_turns} turns", "", "  turns   pairs   share"]
        for key, count in data["turns_to_target"].items():
            lines.append(f"  {key:>5}  {count:>6}  {count / total:6.1%}")
        lines.append("")
        lines.append(f"  mean {data['mean']}, p95 {data['p95']}, max {data['max']}")
        if self.elapsed_s:
            lines.append(f"  {self.elapsed_s:.2f} s, {1000 * self.elapsed_s / total:.2f} ms "
                         f"per pair")
        return "\n".join(lines)


def distribution(results: Sequence[PairResult]) -> dict[str, int]:
    """Pairs per number of turns, in order, with "unreached" last."""
    counts = Counter(r.solution.turns for r in results)
    out = {str(k): counts[k] for k in sorted(k for k in counts if k is not None)}
    if None in counts:
        out["unreached"] = counts[None]
    return out


def format_distribution(dist: dict[str, int]) -> str:
    return ", ".join(f"{count} in {key}" if key != "unreached" else f"{count} unreached"
                     for key, count in dist.items())


def solve_pairs(layout: SlidingLayout, seed: int, *, pairs: int, rng_seed: int,
                progress: Progress | None = None, max_turns: int | None = None) -> PairsSummary:
    """Solve `pairs` random (pawn square, treasure) pairs on the deal of `seed`."""
    limits = thresholds(layout, max_turns_to_target=max_turns)
    board = Board.from_deal(deal(layout, seed))
    rng = random.Random(rng_seed)
    chosen = [((rng.randrange(layout.size), rng.randrange(layout.size)),
               rng.choice(layout.treasures).id) for _ in range(pairs)]
    started = time.perf_counter()
    results = solve_many(board, chosen, max_turns=limits["max_turns_to_target"],
                         budget=limits["solver_budget"], progress=progress)
    return PairsSummary(layout.id, seed, limits["max_turns_to_target"], results,
                        time.perf_counter() - started)


def simulate_sliding(layout: SlidingLayout, *, games: int, players: int, seed: int,
                     progress: Progress | None = None, turn_cap: int | None = None,
                     player: str = "greedy", variant: str = "classic",
                     workers: int | None = None) -> SimulationStats:
    """Self-play `games` games with `players` seats of one kind of player.

    ``extra["turn_branching"]`` is the mean number of complete turns on offer, sampled
    every `BRANCHING_SAMPLE` turns. `workers` defaults to the CPUs available.
    """
    if players not in layout.deal:
        raise ValueError(f"{layout.id!r} has no deal for {players!r} players; "
                         f"it deals for {', '.join(map(str, sorted(layout.deal)))}")
    game = find_variant(variant)(layout)
    cap = thresholds(layout, turn_cap=turn_cap)["turn_cap"]

    def sample(before: SlidingState, move: object, after: object) -> dict[str, float]:
        if before.phase != SHIFT or before.turn % BRANCHING_SAMPLE:
            return {}
        return {"turn_branching": game.count_turns(before), "branching_samples": 1}

    stats = simulate(game, [find_player(player) for _ in range(players)], games=games,
                     seed=seed, turn_cap=cap, progress=progress,
                     label=f"self-play, {players} players", hook=sample,
                     workers=available_cpus() if workers is None else workers)
    totals = stats.extra_totals
    extra = {}
    if totals.get("branching_samples"):
        extra["turn_branching"] = totals["turn_branching"] / totals["branching_samples"]
    return replace(stats, extra=extra)


def check_sliding(layout: SlidingLayout, seed: int, *, games: int | None = None,
                  progress: Progress | None = None, workers: int | None = None) -> Report:
    """Decide whether the layout dealt with `seed` is playable, and say why.

    `games` overrides the layout's games per player count; self-play runs in `workers`
    processes (default: the CPUs available) without changing the figures.
    """
    started = time.perf_counter()
    limits = thresholds(layout, games_per_player_count=games)
    the_deal = deal(layout, seed)
    counts = [k for k in sorted(layout.deal) if layout.players[0] <= k <= layout.players[1]]
    starts = layout.starts[:max(counts, default=len(layout.starts))]
    pairs = [(s.at, t.id) for s in starts for t in layout.treasures]

    def solve(progress: Progress | None) -> list[PairResult]:
        return solve_many(Board.from_deal(the_deal), pairs,
                          max_turns=limits["max_turns_to_target"],
                          budget=limits["solver_budget"], progress=progress, label="solver")

    return solve_and_play(layout, seed, limits, static_checks(the_deal), started=started,
                          pairs=len(pairs), solve=solve, counts=counts,
                          simulate=simulate_sliding,
                          summary=lambda sim: f", branching {sim.branching_mean:.1f}",
                          progress=progress, workers=workers)


def solve_and_play(layout: SlidingLayout, seed: int, limits: Mapping[str, Any],
                   checks: list[Check], *, started: float, pairs: int,
                   solve: Callable[[Progress | None], list[PairResult]], counts: Sequence[int],
                   simulate: Callable[..., SimulationStats],
                   summary: Callable[[SimulationStats], str], noun: str = "treasure",
                   progress: Progress | None = None, workers: int | None = None) -> Report:
    """The verdict of a sliding-board check once the static `checks` are in: if they all
    pass, the solver (`solve`, on `pairs` start/target pairs) and self-play (`simulate`, like
    `simulate_sliding`, for each player count in `counts`) become checks too; `summary`
    ends each self-play summary and `noun` names the solver's targets. `started` is when
    the check began (`time.perf_counter`)."""
    stats: dict[str, Any] = {"thresholds": {k: v for k, v in limits.items() if v is not None}}
    games_each = limits["games_per_player_count"]
    total = pairs + games_each * len(counts)
    done = 0

    def step(offset: int) -> Progress | None:
        if progress is None:
            return None
        return lambda n, _total, label: progress(offset + n, total, label)

    if all(c.ok for c in checks):
        results = solve(step(done))
        done += pairs
        checks.append(reach_check(layout, results, limits, noun))
        stats["turns_to_target"] = distribution(results)
        stats["self_play"] = {}
        for count in counts:
            sim = simulate(layout, games=games_each, players=count, seed=seed,
                           progress=step(done), turn_cap=limits["turn_cap"], workers=workers)
            done += games_each
            stats["self_play"][str(count)] = sim.to_dict()
            checks.append(self_play_check(sim, limits, extra=summary(sim)))
    reasons = [problem for check in checks for problem in check.problems]
    return Report(layout.id, seed, not reasons, reasons, checks, stats,
                  time.perf_counter() - started, target_noun=noun)


def reach_check(layout: SlidingLayout, results: list[PairResult], limits: Mapping[str, Any],
                noun: str = "treasure") -> Check:
    """The solver's answers from the starts as a check: every target `noun` ("treasure",
    "object") must be found within ``max_turns_to_target`` turns."""
    colour = {s.at: s.colour for s in layout.starts}
    bound = limits["max_turns_to_target"]
    problems = []
    for r in results:
        if r.solution.turns is not None:
            continue
        start = f"the {colour[r.origin]} start {list(r.origin)}"
        if not r.solution.proven:
            problems.append(f"{noun} {r.treasure!r}: the search from {start} ran out of "
                            f"budget ({limits['solver_budget']} boards) before reaching it")
        elif r.solution.exhausted:
            problems.append(f"{noun} {r.treasure!r} can never be reached from {start}: "
                            f"every board the pushes can make was searched")
        else:
            problems.append(f"{noun} {r.treasure!r} cannot be reached from {start} within "
                            f"{bound} turn{'' if bound == 1 else 's'}")
    summary = (f"{len(results)} start/{noun} pairs: "
               f"{format_distribution(distribution(results))}")
    return Check("reachability", not problems, summary, problems)


def self_play_check(sim: SimulationStats, limits: Mapping[str, Any], *,
                    unit: Literal["turns", "rounds"] = "turns", extra: str = "") -> Check:
    """Self-play figures for one player count as a check.

    Always: completion (``min_completion_rate``) and seat balance (``max_seat_gap``, failing
    only when also significant at ``seat_gap_significance``). Game length in rounds (turns
    per seat), each only when `limits` has it: ``max_mean_rounds``, ``max_p95_rounds``.
    The summary gives lengths in `unit`, turns as played or rounds, then `extra`.
    """
    name = f"self-play, {sim.seats} players"
    problems = []
    if sim.completion_rate < limits["min_completion_rate"]:
        problems.append(f"{name}: {sim.completion_rate:.1%} of {sim.games} games finished "
                        f"within {sim.turn_cap} turns (minimum "
                        f"{limits['min_completion_rate']:.0%})")
    mean_rounds = None if sim.mean_length is None else sim.mean_length / sim.seats
    p95_rounds = None if sim.p95_length is None else sim.p95_length / sim.seats
    most = limits.get("max_mean_rounds")
    if most is not None and mean_rounds is not None and mean_rounds > most:
        problems.append(f"{name}: games last {mean_rounds:.1f} rounds on average "
                        f"(maximum {most})")
    most = limits.get("max_p95_rounds")
    if most is not None and p95_rounds is not None and p95_rounds > most:
        problems.append(f"{name}: 95% of games take up to {p95_rounds:.1f} rounds "
                        f"(maximum {most})")
    # A gap only fails when it is also unlikely to be the luck of the sample.
    if (sim.finished and sim.seat_gap > limits["max_seat_gap"]
            and sim.seat_p < limits["seat_gap_significance"]):
        rates = ", ".join(f"{r:.2f}" for r in sim.seat_win_rates)
        problems.append(f"{name}: seat win rates {rates} differ by {sim.seat_gap:.2f} "
                        f"(maximum {limits['max_seat_gap']:.2f}; p = {sim.seat_p:.4f} that "
                        f"equal seats would differ this much)")
    if unit == "rounds":
        mean = "-" if mean_rounds is None else f"{mean_rounds:.1f}"
        p95 = "-" if p95_rounds is None else f"{p95_rounds:.1f}"
    else:
        mean = "-" if sim.mean_length is None else f"{sim.mean_length:.1f}"
        p95 = sim.p95_length or "-"
    summary = (f"{sim.finished}/{sim.games} finished, mean {mean} {unit}, p95 {p95}, "
               f"seat gap {sim.seat_gap:.2f} (p = {sim.seat_p:.2f}){extra}")
    return Check(name, not problems, summary, problems)


def _self_play_text(count: int, stats: dict[str, Any]) -> str:
    rates = " ".join(f"{r:.2f}" for r in stats["seat_win_rates"])
    turn_branching = stats["extra"].get("turn_branching")
    shown = {k: "-" if stats[k] is None else stats[k]
             for k in ("mean_length", "p95_length", "max_length")}
    lines = [
        f"Self-play, {count} {stats['players'][0]} players ({stats['games']} games, cap "
        f"{stats['turn_cap']} turns):",
        f"  finished {stats['finished']}/{stats['games']} ({stats['completion_rate']:.1%}), "
        f"length mean {shown['mean_length']} p95 {shown['p95_length']} "
        f"max {shown['max_length']} turns",
        f"  seat win rates {rates} (gap {stats['seat_gap']:.2f}, p = {stats['seat_p']:.3f})",
        f"  moves per decision {stats['branching_mean']}"
        + (f", complete turns on offer {turn_branching:.0f}" if turn_branching else ""),
    ]
    return "\n".join(lines)


def _all_dealt(the_deal: Deal) -> Iterator[Tile]:
    for line in the_deal.grid:
        yield from line
    yield the_deal.spare


def _placed(the_deal: Deal) -> Iterator[tuple[str, Tile]]:
    """Each dealt tile with where it is: "[row, col]" or "the spare"."""
    for row, line in enumerate(the_deal.grid):
        for col, tile in enumerate(line):
            yield f"[{row}, {col}]", tile
    yield "the spare", the_deal.spare
