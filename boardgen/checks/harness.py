"""The one check harness every game goes through, and the one report it writes.

`check(engine, layout, seed)` is what `boardgen validate` and the render pre-check run, for
any engine (`boardgen.engine.Engine`):

1. the engine's static checks of the seeded set-up (`Engine.static_checks`), each listing
   every problem it found;
2. if they all pass, the engine's extra checks (`Engine.extra_checks`: the solver of the
   sliding games, the board geometry of the races), which may add figures to the report and
   may stop here (``Extra.play`` false) when self-play would be meaningless;
3. then self-play: up to ``games_per_player_count`` games for every player count the
   engine names, all through the one process pool of `boardgen.rules.simulate.play_batches`
   (every game has its own seed, so the figures do not depend on the number of workers),
   each player count judged by `Engine.self_play_check`, then the engine's checks over all
   of self-play (`Engine.self_play_checks`). Self-play comes in looks and stops once every
   criterion is settled at a stated confidence (`play_checks`, `settle`); a caller that
   fixes the number of games gets exactly that many.

The result is a `Report`: the verdict, the reasons (every problem of every check), the
checks and the figures, as JSON, as text, and as one line for the kit's cover.

Thresholds come from the layout's ``[playability]`` table over the engine's defaults
(`thresholds`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from boardgen.checks.common import self_play_check as self_play_check
from boardgen.checks.verdict import Check as Check
from boardgen.checks.verdict import Extra as Extra
from boardgen.checks.verdict import Lineup as Lineup
from boardgen.checks.verdict import Progress as Progress
from boardgen.checks.verdict import Report as Report
from boardgen.checks.verdict import format_distribution as format_distribution
from boardgen.checks.verdict import sampling_text as sampling_text
from boardgen.checks.verdict import thresholds as thresholds
from boardgen.errors import UnplayableError
from boardgen.rules.simulate import (
    Batch,
    GameRecord,
    SelfPlayPool,
    SimulationStats,
    aggregate,
    available_cpus,
    mean_bounds,
    percentile,
    play_batches,
    quantile_upper_bound,
    seat_fail_chance,
    wilson_bounds,
    z_score,
)

if TYPE_CHECKING:
    from boardgen.engine import Engine
    from boardgen.rules.protocol import Player


# -- the harness ---------------------------------------------------------------------------


def check(
    engine: Engine[Any, Any, Any],
    layout: Any,
    seed: int,
    *,
    games: int | None = None,
    progress: Progress | None = None,
    workers: int | None = None,
) -> Report:
    """Decide whether `layout` (built by `engine`) is playable with `seed`, and say why.

    `games` fixes the number of games per player count; without it self-play plays up to
    the layout's ``games_per_player_count`` and stops once every criterion is settled
    (sequential sampling, see `play_checks`). Self-play runs in `workers` processes
    (default: the CPUs available) without changing the figures.
    ``progress(done, total, label)`` counts the extra checks' steps, then games.
    """
    started = time.perf_counter()
    limits = engine.thresholds(layout, games_per_player_count=games)
    start = engine.setup(layout, seed)
    checks = engine.static_checks(layout, start, limits)
    stats: dict[str, Any] = {"thresholds": {k: v for k, v in limits.items() if v is not None}}
    # Self-play may stop once settled, unless the caller fixed the number of games.
    limits["sequential"] = games is None
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
            play_step = (
                None
                if progress is None
                else (lambda done, total, label: progress(offset + done, offset + total, label))
            )
            played = play_checks(engine, layout, seed, limits, workers=workers, progress=play_step)
            checks += played.checks
            stats.update(played.stats)
    reasons = [problem for c in checks for problem in c.problems]
    return Report(
        layout.id,
        seed,
        not reasons,
        reasons,
        checks,
        stats,
        time.perf_counter() - started,
        target_noun=engine.target_noun,
    )


def play_checks(
    engine: Engine[Any, Any, Any],
    layout: Any,
    seed: int,
    limits: Mapping[str, Any],
    *,
    workers: int | None = None,
    progress: Progress | None = None,
) -> Extra:
    """Self-play of every player count (and each of its lineups, `Engine.self_play_lineups`)
    through the one pool, each player count's first lineup judged by
    `Engine.self_play_check`, then `Engine.self_play_checks` over every lineup.

    With ``limits["sequential"]`` true (what `check` sets unless the caller fixed the number
    of games) the games are played in looks (`looks`) and a player count stops once each of
    its criteria is settled (`settle`) and the checks over every lineup pass; otherwise all
    ``games_per_player_count`` are played. A lineup plays its share of each look, on the
    first seeds of its full sample. Either way the report states each criterion's
    confidence (``stats["sampling"]``)."""
    counts = engine.player_counts(layout)
    lineups = {count: list(engine.self_play_lineups(layout, count)) for count in counts}
    most = limits["games_per_player_count"]
    plan = looks(most, sequential=bool(limits.get("sequential")), least_rate=limits["min_completion_rate"])
    interim = len(plan) - 1
    level = 1 - (1 - CONFIDENCE) / max(1, interim)  # Bonferroni over the interim looks
    factories = _factories(engine, layout, lineups)
    game = engine.game(layout)
    units = [(count, k, lineup) for count, listed in lineups.items() for k, lineup in enumerate(listed)]
    players = {(count, k): tuple(factories[name]() for name in lineup.seats) for count, k, lineup in units}
    seeds = {
        (count, k): tuple(engine.self_play_seeds(lineup_seed(seed, k, lineup), count, lineup_games(lineup, most)))
        for count, k, lineup in units
    }
    records: dict[tuple[int, int], list[GameRecord]] = {(count, k): [] for count, k, _ in units}
    sims: dict[tuple[int, int], SimulationStats] = {}
    judged: dict[int, dict[str, Any]] = {}
    playing = list(counts)
    total = sum(len(s) for s in seeds.values())
    done = 0
    stopped = "fixed" if not interim else "max"
    started = time.perf_counter()
    # One pool for every look: its workers keep what the game warmed up.
    order = {(count, k): index for index, (count, k, _) in enumerate(units)}
    full = [Batch(players[count, k], seeds[count, k], _label(count, lineup)) for count, k, lineup in units]
    with SelfPlayPool(
        game, full, turn_cap=limits["turn_cap"], workers=available_cpus() if workers is None else workers
    ) as pool:
        for size in plan:
            final = size == most
            # Each lineup plays its share of the look, on the first seeds of its full sample.
            wanted = [
                (
                    (count, k),
                    len(seeds[count, k]) if final else min(len(seeds[count, k]), lineup_games(lineup, size)),
                    lineup,
                )
                for count, k, lineup in units
                if count in playing
            ]
            step = None if progress is None else _shifted(progress, done, total)
            played = pool.play([(order[unit], len(records[unit]), upto) for unit, upto, _ in wanted], progress=step)
            for (unit, _, _), more in zip(wanted, played, strict=True):
                records[unit].extend(more)
                done += len(more)
                sims[unit] = _stats(engine, layout, game, players[unit], records[unit], limits["turn_cap"])
            for count in playing:
                ok = engine.self_play_check(sims[count, 0], limits).ok
                judged[count] = settle(
                    sims[count, 0],
                    records[count, 0],
                    limits,
                    most=len(seeds[count, 0]),
                    confidence=CONFIDENCE if final else level,
                    final=final,
                    check_ok=ok,
                )
            if final:
                break
            if any(judged[count]["state"] == "fail" for count in playing):
                stopped = "failed"
                break
            playing = [count for count in playing if judged[count]["state"] != "pass"]
            if not playing:
                pooled = engine.self_play_checks(layout, [sims[count, k] for count, k, _ in units], limits)
                if all(c.ok for c in pooled.checks):
                    stopped = "settled"
                    break
                # A check over all the games (a field reached too rarely, say) is not met yet:
                # every player count plays on.
                playing = [count for count in counts if len(records[count, 0]) < len(seeds[count, 0])]
    elapsed = time.perf_counter() - started
    sims = {unit: replace(sim, elapsed_s=elapsed) for unit, sim in sims.items()}
    checks = []
    for count in counts:
        one = engine.self_play_check(sims[count, 0], limits)
        one.summary += "; " + confidence_text(judged[count])
        checks.append(one)
    after = engine.self_play_checks(layout, [sims[count, k] for count, k, _ in units], limits)
    stats: dict[str, Any] = {"self_play": {str(count): sims[count, 0].to_dict() for count in counts}}
    stats["sampling"] = {
        "method": "sequential" if interim else "fixed",
        "looks": plan,
        "confidence": CONFIDENCE,
        "look_confidence": round(level, 6),
        "seat_fail_chance_below": SEAT_FAIL_CHANCE,
        "games_max": total,
        "games_played": done,
        "stopped": stopped,
        "counts": {str(count): judged[count] for count in counts},
    }
    stats.update(after.stats)
    return Extra(checks + after.checks, stats)


def _shifted(progress: Progress, before: int, total: int) -> Progress:
    """A look's progress as progress over every game that may be played."""
    return lambda done, _total, label: progress(before + done, total, label)


# -- sequential sampling -----------------------------------------------------------------------

# The confidence of every early decision, over all the interim looks of a player count.
CONFIDENCE = 0.95
# Seat balance is settled early when the full sample would fail it with less chance than
# this, were the seats as uneven as the layout allows (conditional power of its test).
SEAT_FAIL_CHANCE = 0.10
# The fewest games per player count at an interim look.
FIRST_LOOK = 50


def looks(games: int, *, sequential: bool, least_rate: float | None = None) -> list[int]:
    """Games per player count at each look: a quarter, half and all of `games`, the interim
    looks no earlier than a perfect completion could clear `least_rate` (the minimum
    completion rate) and only with at least `FIRST_LOOK` games; just `games` when not
    `sequential`."""
    if not sequential:
        return [games]
    candidates = {math.ceil(games / 4), math.ceil(games / 2)}
    if least_rate is not None and 0 < least_rate < 1:
        # No earlier than a perfect completion rate could settle it: n / (n + z**2) >= least_rate,
        # z for as many interim looks as are left.
        for count in (1, 2):
            z = z_score(1 - (1 - CONFIDENCE) / count)
            floor = math.ceil(z * z * least_rate / (1 - least_rate))
            raised = {max(n, floor) for n in candidates}
            if len(raised) <= count:
                break
        candidates = raised
    return [n for n in sorted(candidates) if FIRST_LOOK <= n <= 0.75 * games] + [games]


def settle(
    sim: SimulationStats,
    records: Sequence[GameRecord],
    limits: Mapping[str, Any],
    *,
    most: int,
    confidence: float,
    final: bool,
    check_ok: bool,
) -> dict[str, Any]:
    """Where one player count's criteria stand after a look: each ``pass``, ``fail`` or
    ``open``, with its figure and its bound at `confidence` (one-sided).

    At an interim look a criterion is settled only by its bound: completion when its Wilson
    lower bound reaches ``min_completion_rate`` (fails when the upper bound is below it);
    mean rounds by the normal upper (lower) bound against ``max_mean_rounds``; p95 rounds by
    the order-statistic upper bound against ``max_p95_rounds``; seat balance when the
    chance that the full `most` games would fail it, at a gap of ``max_seat_gap``, is under
    `SEAT_FAIL_CHANCE` (it is never failed early). At the `final` look each is judged as
    `self_play_check` judges it, on the figures themselves. The player count's ``state`` is
    ``fail`` if any criterion fails, ``pass`` if all pass and the engine's own check of the
    sample (`check_ok`) does too, else ``open``."""
    seats = sim.seats
    rounds = [r.turns / seats for r in records if r.finished]
    criteria: dict[str, dict[str, Any]] = {}
    least = limits["min_completion_rate"]
    low, _high = wilson_bounds(sim.finished, sim.games, confidence)
    state = (
        ("pass" if sim.completion_rate >= least else "fail")
        if final
        else ("pass" if low >= least else "fail" if _high < least else "open")
    )
    criteria["completion"] = {
        "rate": round(sim.completion_rate, 4),
        "lower_bound": round(low, 4),
        "minimum": least,
        "state": state,
    }
    most_mean = limits.get("max_mean_rounds")
    if most_mean is not None:
        mean = sum(rounds) / len(rounds) if rounds else None
        below, above = mean_bounds(rounds, confidence)
        state = (
            ("pass" if mean is None or mean <= most_mean else "fail")
            if final
            else ("pass" if above <= most_mean else "fail" if below > most_mean else "open")
        )
        criteria["mean_rounds"] = {
            "mean": None if mean is None else round(mean, 2),
            "upper_bound": None if math.isinf(above) else round(above, 2),
            "maximum": most_mean,
            "state": state,
        }
    most_p95 = limits.get("max_p95_rounds")
    if most_p95 is not None:
        p95 = percentile(rounds, 0.95) if rounds else None
        bound = quantile_upper_bound(rounds, 0.95, confidence)
        state = (
            ("pass" if p95 is None or p95 <= most_p95 else "fail")
            if final
            else ("pass" if bound is not None and bound <= most_p95 else "open")
        )
        criteria["p95_rounds"] = {
            "p95": None if p95 is None else round(p95, 2),
            "upper_bound": None if bound is None else round(bound, 2),
            "maximum": most_p95,
            "state": state,
        }
    gap, level = limits["max_seat_gap"], limits["seat_gap_significance"]
    fails_now = bool(sim.finished) and sim.seat_gap > gap and sim.seat_p < level
    decided = sum(sim.seat_wins)
    chance = None
    if final:
        state = "fail" if fails_now else "pass"
    else:
        more = round((most - sim.games) * decided / sim.games) if sim.games else 0
        chance = seat_fail_chance(sim.seat_wins, more, gap, level)
        state = "pass" if chance < SEAT_FAIL_CHANCE and not fails_now else "open"
    criteria["seat_balance"] = {
        "gap": round(sim.seat_gap, 4),
        "p": round(sim.seat_p, 4),
        "maximum": gap,
        "fail_chance": None if chance is None else round(chance, 4),
        "state": state,
    }
    states = [c["state"] for c in criteria.values()]
    overall = (
        "fail"
        if "fail" in states or (final and not check_ok)
        else "pass"
        if all(s == "pass" for s in states) and check_ok
        else "open"
    )
    return {
        "games": sim.games,
        "of": most,
        "confidence": round(confidence, 6),
        "final": final,
        "state": overall,
        "criteria": criteria,
    }


def confidence_text(judged: Mapping[str, Any]) -> str:
    """How sure each criterion of one player count is, in a few words."""
    level = f"{judged['confidence']:.1%}".replace(".0%", "%")
    crit = judged["criteria"]
    parts = [f"completion at least {crit['completion']['lower_bound']:.1%}"]
    for key, label in (("mean_rounds", "mean"), ("p95_rounds", "p95")):
        if key in crit and crit[key]["upper_bound"] is not None:
            parts.append(f"{label} at most {crit[key]['upper_bound']:g} rounds")
    text = f"bounds at {level}: " + ", ".join(parts)
    seat = crit["seat_balance"]
    if seat["fail_chance"] is not None:
        text += (
            f"; chance that {judged['of']} games fail the seat gap at {seat['maximum']:g}: {seat['fail_chance']:.0%}"
        )
    if judged["final"]:
        return text + f"; all {judged['games']} games"
    verdict = {"pass": "settled", "fail": "failed", "open": "unsettled"}[judged["state"]]
    return text + f"; {verdict} after {judged['games']} of {judged['of']} games"


def require_playable(report: Report, *, force: bool) -> Report:
    """Refuse an unplayable verdict unless forced (the report still says why)."""
    if not report.playable and not force:
        reasons = "\n".join(f"  - {reason}" for reason in report.reasons)
        raise UnplayableError(
            f"{report.game} with seed {report.seed} is not playable:\n{reasons}\n(use --force to print it anyway)"
        )
    return report


def self_play(
    engine: Engine[Any, Any, Any],
    layout: Any,
    counts: Sequence[int],
    *,
    games: int,
    seed: int,
    turn_cap: int,
    player: str | None = None,
    workers: int | None = None,
    progress: Progress | None = None,
    limits: Mapping[str, Any] | None = None,
) -> dict[int, SimulationStats]:
    """Self-play `games` games for each player count in `counts`, every seat with the same
    kind of player (default: the engine's `self_play_player`), all in one process pool.
    The same figures for any number of `workers` (default: the CPUs available). `limits`
    (default: the layout's thresholds) may shape the engine's counters."""
    name = player or engine.self_play_player
    played = play_lineups(
        engine,
        layout,
        {count: [Lineup("", (name,) * count)] for count in counts},
        games=games,
        seed=seed,
        turn_cap=turn_cap,
        workers=workers,
        progress=progress,
        limits=limits,
    )
    return {count: sim for count, _, _, sim in played}


def play_lineups(
    engine: Engine[Any, Any, Any],
    layout: Any,
    lineups: Mapping[int, Sequence[Lineup]],
    *,
    games: int,
    seed: int,
    turn_cap: int,
    workers: int | None = None,
    progress: Progress | None = None,
    limits: Mapping[str, Any] | None = None,
) -> list[tuple[int, int, Lineup, SimulationStats]]:
    """Self-play of every lineup of every player count, all in one process pool: (player
    count, lineup's place in its count's list, lineup, statistics). A lineup plays
    ``max(1, round(share * games))`` games; the first of each count uses
    `Engine.self_play_seeds` (seed), lineup k those of `lineup_seed`."""
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games!r}")
    factories = _factories(engine, layout, lineups)
    game = engine.game(layout)
    limits = engine.thresholds(layout) if limits is None else limits
    plan = [(count, k, lineup) for count, listed in lineups.items() for k, lineup in enumerate(listed)]
    batches = [
        Batch(
            tuple(factories[name]() for name in lineup.seats),
            tuple(engine.self_play_seeds(lineup_seed(seed, k, lineup), count, lineup_games(lineup, games))),
            _label(count, lineup),
        )
        for count, k, lineup in plan
    ]
    started = time.perf_counter()
    records = play_batches(
        game, batches, turn_cap=turn_cap, workers=available_cpus() if workers is None else workers, progress=progress
    )
    elapsed = time.perf_counter() - started
    return [
        (count, k, lineup, replace(_stats(engine, layout, game, batch.players, played, turn_cap), elapsed_s=elapsed))
        for (count, k, lineup), batch, played in zip(plan, batches, records, strict=True)
    ]


# Lineup k of a player count plays the seeds of ``seed + k * LINEUP_SEED_STEP``.
LINEUP_SEED_STEP = 100003


def lineup_seed(seed: int, k: int, lineup: Lineup) -> int:
    """The seed lineup k of a player count derives its games' seeds from: its own, or those of
    the lineup its `Lineup.stream` names (the same dice for a paired comparison)."""
    return seed + (k if lineup.stream is None else lineup.stream) * LINEUP_SEED_STEP


def lineup_games(lineup: Lineup, games: int) -> int:
    """How many of `games` a lineup plays: its share, at least one."""
    return max(1, round(lineup.share * games))


def _label(count: int, lineup: Lineup) -> str:
    return f"self-play, {count} players" + (f", {lineup.name}" if lineup.name else "")


def _factories(
    engine: Engine[Any, Any, Any], layout: Any, lineups: Mapping[int, Sequence[Lineup]]
) -> Mapping[str, Callable[[], Player]]:
    """The engine's players, once every lineup's players and player counts are known to fit."""
    factories = engine.players()
    for name in dict.fromkeys(name for listed in lineups.values() for lineup in listed for name in lineup.seats):
        if name not in factories:
            raise ValueError(f"player {name!r} cannot play {layout.id!r}; use one of {', '.join(factories)}")
    for count in lineups:
        engine.check_players(layout, count)
    return factories


def _stats(
    engine: Engine[Any, Any, Any],
    layout: Any,
    game: Any,
    players: Sequence[Player],
    records: Sequence[GameRecord],
    turn_cap: int,
) -> SimulationStats:
    """One lineup's statistics, with the engine's ``extra`` figures."""
    stats = aggregate(game.id, tuple(p.name for p in players), records, turn_cap)
    return replace(stats, extra=engine.self_play_figures(layout, stats, records))


def simulate(
    engine: Engine[Any, Any, Any],
    layout: Any,
    *,
    games: int,
    players: int,
    seed: int,
    progress: Progress | None = None,
    turn_cap: int | None = None,
    player: str | None = None,
    workers: int | None = None,
) -> SimulationStats:
    """Self-play statistics for one player count (`boardgen simulate`)."""
    limits = engine.thresholds(layout, turn_cap=turn_cap)
    return self_play(
        engine,
        layout,
        [players],
        games=games,
        seed=seed,
        turn_cap=limits["turn_cap"],
        player=player,
        workers=workers,
        progress=progress,
        limits=limits,
    )[players]
