"""The one check harness every game goes through, and the one report it writes.

`check(engine, layout, seed)` is what `boardgen validate` and the render pre-check run, for
any engine (`boardgen.engine.Engine`):

1. the engine's static checks of the seeded set-up (`Engine.static_checks`), each listing
   every problem it found;
2. if they all pass, the engine's extra checks (`Engine.extra_checks`: the solver of the
   sliding games, the board geometry of the races), which may add figures to the report and
   may stop here (``Extra.play`` false) when self-play would be meaningless;
3. then self-play: ``games_per_player_count`` games for every player count the engine
   names, all through the one process pool of `boardgen.rules.simulate.play_batches`
   (every game has its own seed, so the figures do not depend on the number of workers),
   each player count judged by `Engine.self_play_check`, then the engine's checks over all
   of self-play (`Engine.self_play_checks`).

The result is a `Report`: the verdict, the reasons (every problem of every check), the
checks and the figures, as JSON, as text, and as one line for the kit's cover.

Thresholds come from the layout's ``[playability]`` table over the engine's defaults
(`thresholds`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal

from boardgen.data.strings import word
from boardgen.errors import UnplayableError
from boardgen.rules.simulate import Batch, SimulationStats, aggregate, available_cpus, play_batches

if TYPE_CHECKING:
    from boardgen.engine import Engine
    from boardgen.model.game import GameInfo

Progress = Callable[[int, int, str], None]


@dataclass
class Check:
    """One named check: whether it passed, a one-line summary, and every problem found."""

    name: str
    ok: bool
    summary: str
    problems: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, name: str, problems: list[str], summary: str = "ok") -> Check:
        """A check from its problems: passed when there are none; the summary then is
        `summary`, otherwise the number of problems."""
        return cls(name, not problems, f"{len(problems)} problem(s)" if problems else summary,
                   problems)

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

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, target_noun: str = "treasure") -> Report:
        """The report `to_dict` gave (a cached verdict, say)."""
        checks = [Check(c["name"], c["ok"], c["summary"], list(c["problems"])) for c in data["checks"]]
        return cls(data["game"], data["seed"], data["playable"], list(data["reasons"]), checks,
                   dict(data["stats"]), target_noun=target_noun)


@dataclass(frozen=True)
class Lineup:
    """Who sits at the table for some of a player count's self-play games: one player name
    per seat (`Engine.players`), for `share` x ``games_per_player_count`` games. An engine's
    first lineup (`Engine.self_play_lineups`) is the one `Engine.self_play_check` judges and
    the report's ``self_play`` shows; every lineup reaches `Engine.self_play_checks` (a race
    with route policies compares them there)."""

    name: str
    seats: tuple[str, ...]
    share: float = 1.0


@dataclass(frozen=True)
class Extra:
    """What an engine's extra checks add: checks, figures for the report's ``stats``, and
    whether self-play may follow (False when the board itself is broken)."""

    checks: list[Check] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)
    play: bool = True


def thresholds(layout: GameInfo, defaults: Mapping[str, Any], **overrides: Any) -> dict[str, Any]:
    """The engine's `defaults`, then the layout's [playability] table, then non-None
    overrides."""
    values = dict(defaults)
    values.update(getattr(layout, "playability", {}))
    values.update({k: v for k, v in overrides.items() if v is not None})
    return values


def format_distribution(dist: Mapping[str, int]) -> str:
    return ", ".join(f"{count} in {key}" if key != "unreached" else f"{count} unreached"
                     for key, count in dist.items())


# -- the harness ---------------------------------------------------------------------------


def check(engine: Engine[Any, Any, Any], layout: Any, seed: int, *, games: int | None = None,
          progress: Progress | None = None, workers: int | None = None) -> Report:
    """Decide whether `layout` (built by `engine`) is playable with `seed`, and say why.

    `games` overrides the layout's games per player count; self-play runs in `workers`
    processes (default: the CPUs available) without changing the figures.
    ``progress(done, total, label)`` counts the extra checks' steps, then games.
    """
    started = time.perf_counter()
    limits = engine.thresholds(layout, games_per_player_count=games)
    start = engine.setup(layout, seed)
    checks = engine.static_checks(layout, start, limits)
    stats: dict[str, Any] = {"thresholds": {k: v for k, v in limits.items() if v is not None}}
    stats.update(engine.static_figures(layout, start))
    if all(c.ok for c in checks):
        counts = engine.player_counts(layout)
        plays = limits["games_per_player_count"] * len(counts)
        before = [0]

        def extra_step(done: int, total: int, label: str) -> None:
            before[0] = total
            if progress is not None:
                progress(done, total + plays, label)

        extra = engine.extra_checks(layout, start, limits, progress=extra_step)
        checks += extra.checks
        stats.update(extra.stats)
        if extra.play:
            offset = before[0]
            play_step = None if progress is None else (
                lambda done, total, label: progress(offset + done, offset + total, label))
            played = engine.play_checks(layout, seed, limits, workers=workers, progress=play_step)
            checks += played.checks
            stats.update(played.stats)
    reasons = [problem for c in checks for problem in c.problems]
    return Report(layout.id, seed, not reasons, reasons, checks, stats,
                  time.perf_counter() - started, target_noun=engine.target_noun)


def play_checks(engine: Engine[Any, Any, Any], layout: Any, seed: int, limits: Mapping[str, Any], *,
                workers: int | None = None, progress: Progress | None = None) -> Extra:
    """Self-play of every player count through the one pool, each judged by
    `Engine.self_play_check`, then `Engine.self_play_checks` over them all."""
    counts = engine.player_counts(layout)
    played = play_lineups(engine, layout, {count: list(engine.self_play_lineups(layout, count)) for count in counts},
                          games=limits["games_per_player_count"], seed=seed, turn_cap=limits["turn_cap"],
                          workers=workers, progress=progress, limits=limits)
    sims = {count: sim for count, k, _, sim in played if k == 0}
    stats: dict[str, Any] = {"self_play": {str(count): sim.to_dict() for count, sim in sims.items()}}
    checks = [engine.self_play_check(sim, limits) for sim in sims.values()]
    after = engine.self_play_checks(layout, [sim for *_, sim in played], limits)
    stats.update(after.stats)
    return Extra(checks + after.checks, stats)


def require_playable(report: Report, *, force: bool) -> Report:
    """Refuse an unplayable verdict unless forced (the report still says why)."""
    if not report.playable and not force:
        reasons = "\n".join(f"  - {reason}" for reason in report.reasons)
        raise UnplayableError(f"{report.game} with seed {report.seed} is not playable:\n{reasons}\n"
                              "(use --force to print it anyway)")
    return report


def self_play(engine: Engine[Any, Any, Any], layout: Any, counts: Sequence[int], *, games: int,
              seed: int, turn_cap: int, player: str | None = None, workers: int | None = None,
              progress: Progress | None = None,
              limits: Mapping[str, Any] | None = None) -> dict[int, SimulationStats]:
    """Self-play `games` games for each player count in `counts`, every seat with the same
    kind of player (default: the engine's `self_play_player`), all in one process pool.
    The same figures for any number of `workers` (default: the CPUs available). `limits`
    (default: the layout's thresholds) may shape the engine's counters."""
    name = player or engine.self_play_player
    played = play_lineups(engine, layout, {count: [Lineup("", (name,) * count)] for count in counts}, games=games,
                          seed=seed, turn_cap=turn_cap, workers=workers, progress=progress, limits=limits)
    return {count: sim for count, _, _, sim in played}


def play_lineups(engine: Engine[Any, Any, Any], layout: Any, lineups: Mapping[int, Sequence[Lineup]], *,
                 games: int, seed: int, turn_cap: int, workers: int | None = None,
                 progress: Progress | None = None,
                 limits: Mapping[str, Any] | None = None) -> list[tuple[int, int, Lineup, SimulationStats]]:
    """Self-play of every lineup of every player count, all in one process pool: (player
    count, lineup's place in its count's list, lineup, statistics). A lineup plays
    ``max(1, round(share * games))`` games; the first of each count uses
    `Engine.self_play_seeds` (seed), lineup k the seeds of ``seed + k * 100003``."""
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games!r}")
    factories = engine.players()
    for name in dict.fromkeys(name for listed in lineups.values() for lineup in listed for name in lineup.seats):
        if name not in factories:
            raise ValueError(f"player {name!r} cannot play {layout.id!r}; use one of "
                             f"{', '.join(factories)}")
    for count in lineups:
        engine.check_players(layout, count)
    game = engine.game(layout)
    limits = engine.thresholds(layout) if limits is None else limits
    plan = [(count, k, lineup) for count, listed in lineups.items() for k, lineup in enumerate(listed)]
    batches = [Batch(tuple(factories[name]() for name in lineup.seats),
                     tuple(engine.self_play_seeds(seed + k * 100003, count, max(1, round(lineup.share * games)))),
                     f"self-play, {count} players" + (f", {lineup.name}" if lineup.name else ""))
               for count, k, lineup in plan]
    started = time.perf_counter()
    records = play_batches(game, batches, turn_cap=turn_cap, hook=engine.self_play_hook(game, limits),
                           workers=available_cpus() if workers is None else workers,
                           progress=progress)
    elapsed = time.perf_counter() - started
    out = []
    for (count, k, lineup), batch, played in zip(plan, batches, records, strict=True):
        stats = aggregate(game.id, tuple(p.name for p in batch.players), played, turn_cap)
        out.append((count, k, lineup, replace(stats, extra=engine.self_play_figures(layout, stats, played),
                                              elapsed_s=elapsed)))
    return out


def simulate(engine: Engine[Any, Any, Any], layout: Any, *, games: int, players: int, seed: int,
             progress: Progress | None = None, turn_cap: int | None = None,
             player: str | None = None, workers: int | None = None) -> SimulationStats:
    """Self-play statistics for one player count (`boardgen simulate`)."""
    limits = engine.thresholds(layout, turn_cap=turn_cap)
    return self_play(engine, layout, [players], games=games, seed=seed, turn_cap=limits["turn_cap"],
                     player=player, workers=workers, progress=progress, limits=limits)[players]


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
        p95: object = "-" if p95_rounds is None else f"{p95_rounds:.1f}"
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
