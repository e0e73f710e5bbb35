"""Self-play statistics for any game of the rules protocol: length, completion, seat balance.

Stable API (other games' checks build on it):

- ``play(game, players, seed, *, turn_cap) -> GameRecord``
  plays one game, seat ``i`` choosing with ``players[i]``; the number of seats is
  ``len(players)``. The game is capped at ``turn_cap`` turns.
- ``simulate(game, players, *, games, seed, turn_cap, progress=None, label="",
  workers=1) -> SimulationStats`` plays ``games`` games with seeds derived from ``seed``
  and aggregates them. ``progress(done, total, label)`` is called after each game (after
  each chunk of games with several workers). ``workers`` > 1 shares the games among forked
  processes where the platform allows it; the result does not depend on it.
- ``play_many(game, players, seeds, *, turn_cap, workers=1, progress=None,
  label="") -> list[GameRecord]`` plays one game per seed, in seed order, sharing them
  among forked processes like `simulate`; for callers that need the records themselves
  (final scores, say) and aggregate them with ``aggregate``.
- ``play_batches(game, batches, *, turn_cap, workers=1, progress=None)`` plays
  several batches (one per player count, say) through one process pool: the one pool every
  self-play in boardgen goes through (`play_many` and `simulate` use it too).
- ``available_cpus()`` how many processes are worth starting (the default number of
  workers everywhere); ``can_fork()`` (both from boardgen.processes, the process layer).
- ``percentile(values, fraction)`` nearest-rank percentile used for the reported p95.

Turns. A turn may span several decisions (shift then walk; one die then the other). A game
whose ``turns_played(state)`` counts them is capped and measured by it; otherwise (None)
every decision counts as one turn. A finished game's length is ``Outcome.turns``.

Counters. A game reports what each decision set off as events (``events(state)``, see
`boardgen.rules.protocol.Game`: cards found, pawns bumped, wands used...); `play` sums
them per game into ``GameRecord.counters``, reported in ``SimulationStats.extra`` as a mean
per game (``extra_totals`` keeps the sums; an engine may derive its own figures from them,
`boardgen.engine.Engine.self_play_figures`).

Seat balance. Win rates are over finished games that have a winner; ``seat_gap`` is the
largest minus the smallest seat win rate; ``seat_p`` is the chi-square p-value of the wins
against equal shares (``seat_balance_p``), so a gap can be told apart from sampling noise.
Give every seat the same kind of player when measuring balance. Branching is the number of
legal moves at each decision.

Randomness. Game ``i`` is set up with ``game_seeds(seed, games)[i]`` and its players draw
from that seed's own stream (``player_draws(that seed)``, `boardgen.draws`: apart from the
game's dice and deals), so a run is reproducible from ``seed`` alone, on any Python.

Confidence (what the check's sequential sampling states, see `boardgen.checks.harness`):
``wilson_bounds`` one-sided Wilson score bounds of a rate, ``mean_bounds`` normal bounds of
a mean, ``quantile_upper_bound`` a distribution-free upper bound of a percentile (an order
statistic), ``seat_fail_chance`` the conditional chance that more games would make the seat
balance rule fail.
"""

from __future__ import annotations

import math
import operator
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from statistics import NormalDist
from typing import Any, cast

from boardgen.draws import Draws, for_purpose
from boardgen.processes import Workers, can_fork
from boardgen.processes import available_cpus as available_cpus  # re-exported: the stable API above
from boardgen.rules.protocol import Event, Game, HeuristicGame, Player

Progress = Callable[[int, int, str], None]


@dataclass(frozen=True)
class GameRecord:
    """One self-played game: who won, how long it took and what it offered."""

    seed: int
    seats: int
    winner: int | None
    turns: int
    finished: bool
    decisions: int
    moves_offered: int
    branching_max: int
    counters: dict[str, float] = field(default_factory=dict)
    scores: tuple[int, ...] | None = None


@dataclass(frozen=True)
class SimulationStats:
    """Aggregate of many self-played games with a fixed number of seats."""

    game: str
    seats: int
    player_names: tuple[str, ...]
    games: int
    turn_cap: int
    finished: int
    completion_rate: float
    mean_length: float | None
    p95_length: int | None
    max_length: int | None
    seat_wins: tuple[int, ...]
    seat_win_rates: tuple[float, ...]
    seat_gap: float
    seat_p: float
    draws: int
    branching_mean: float
    branching_max: int
    decisions_mean: float
    extra: dict[str, float]
    extra_totals: dict[str, float]
    # How long a game lasts as a person reads it: half the finished games within the median,
    # nine in ten within p90 (the verdict's words, boardgen.checks.words).
    median_length: int | None = None
    p90_length: int | None = None
    elapsed_s: float = field(default=0.0, compare=False)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON; timing is left out so equal runs give equal output."""
        return {
            "game": self.game,
            "seats": self.seats,
            "players": list(self.player_names),
            "games": self.games,
            "turn_cap": self.turn_cap,
            "finished": self.finished,
            "completion_rate": round(self.completion_rate, 4),
            "mean_length": None if self.mean_length is None else round(self.mean_length, 2),
            "p95_length": self.p95_length,
            "max_length": self.max_length,
            "median_length": self.median_length,
            "p90_length": self.p90_length,
            "seat_wins": list(self.seat_wins),
            "seat_win_rates": [round(rate, 4) for rate in self.seat_win_rates],
            "seat_gap": round(self.seat_gap, 4),
            "seat_p": round(self.seat_p, 4),
            "draws": self.draws,
            "branching_mean": round(self.branching_mean, 2),
            "branching_max": self.branching_max,
            "decisions_mean": round(self.decisions_mean, 2),
            "extra": {key: round(value, 4) for key, value in sorted(self.extra.items())},
        }

    def to_text(self) -> str:
        """A few aligned lines for a terminal."""
        rates = " ".join(f"{rate:.2f}" for rate in self.seat_win_rates)
        mean = "-" if self.mean_length is None else f"{self.mean_length:.1f}"
        lines = [
            f"{self.seats} players ({', '.join(self.player_names)}), {self.games} games, cap {self.turn_cap} turns",
            f"  completed      {self.finished}/{self.games} ({self.completion_rate:.1%})",
            f"  length         mean {mean}, p95 {self.p95_length or '-'}, max {self.max_length or '-'} turns",
            f"  seat win rate  {rates} (gap {self.seat_gap:.2f}, p = {self.seat_p:.3f})",
            f"  branching      mean {self.branching_mean:.1f}, max {self.branching_max} moves per decision",
        ]
        lines.extend(f"  {key.replace('_', ' '):<14} {value:.2f}" for key, value in sorted(self.extra.items()))
        return "\n".join(lines)


def game_seeds(seed: int, games: int) -> list[int]:
    """The per-game seeds of a run, derived from one seed."""
    rng = Draws(seed)
    return [rng.below(2**31) for _ in range(games)]


def percentile(values: Sequence[float], fraction: float) -> float:
    """Nearest-rank percentile: the smallest value with at least `fraction` of values <= it."""
    if not values:
        raise ValueError("percentile of no values")
    ordered = sorted(values)
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]


def seat_balance_p(wins: Sequence[int]) -> float:
    """Chance of seat wins at least this uneven if every seat were equally likely to win.

    Chi-square goodness of fit against equal shares (seats - 1 degrees of freedom); small
    values mean the imbalance is real rather than the luck of a small sample.
    """
    total, seats = sum(wins), len(wins)
    if seats < 2 or total == 0:
        return 1.0
    expected = total / seats
    statistic = sum((w - expected) ** 2 for w in wins) / expected
    return chi_square_sf(statistic, seats - 1)


def chi_square_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with `df` degrees of freedom (closed forms)."""
    if x <= 0:
        return 1.0
    half = x / 2
    if df % 2 == 0:
        term, total = 1.0, 1.0
        for i in range(1, df // 2):
            term *= half / i
            total += term
        return min(1.0, math.exp(-half) * total)
    total = math.erfc(math.sqrt(half))
    term = math.sqrt(half) / math.gamma(1.5)
    for i in range(1, (df + 1) // 2):
        total += math.exp(-half) * term
        term *= half / (i + 0.5)
    return min(1.0, total)


def z_score(confidence: float) -> float:
    """The standard normal quantile: one-sided bounds at `confidence` lie z standard errors
    out (1.645 at 95 %)."""
    return NormalDist().inv_cdf(confidence)


def wilson_bounds(successes: int, trials: int, confidence: float) -> tuple[float, float]:
    """One-sided Wilson score bounds of a rate: the true rate is at least the first (and, as
    a separate statement, at most the second) with `confidence`. ``(0, 1)`` for no trials.
    With every trial a success the lower bound is ``n / (n + z**2)``."""
    if trials <= 0:
        return 0.0, 1.0
    z = z_score(confidence)
    rate, zz = successes / trials, z * z
    centre = rate + zz / (2 * trials)
    spread = z * math.sqrt(rate * (1 - rate) / trials + zz / (4 * trials * trials))
    scale = 1 + zz / trials
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


def mean_bounds(values: Sequence[float], confidence: float) -> tuple[float, float]:
    """One-sided normal bounds of the mean (sample standard deviation); infinite below two
    values."""
    count = len(values)
    if count < 2:
        return -math.inf, math.inf
    mean = sum(values) / count
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (count - 1) / count)
    z = z_score(confidence)
    return mean - z * spread, mean + z * spread


def binomial_cdf(k: int, n: int, p: float) -> float:
    """P(X <= k) for X ~ Binomial(n, p), summed in log space (no overflow for large n)."""
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    if p <= 0.0:
        return 1.0
    if p >= 1.0:
        return 0.0
    log_p, log_q = math.log(p), math.log1p(-p)
    lg = math.lgamma(n + 1)
    return min(
        1.0,
        sum(
            math.exp(lg - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * log_p + (n - i) * log_q)
            for i in range(k + 1)
        ),
    )


def quantile_upper_bound(values: Sequence[float], fraction: float, confidence: float) -> float | None:
    """An upper bound of the population's `fraction` quantile with `confidence`, assuming
    nothing about its shape: the order statistic ``x_(r)`` with the smallest r such that
    fewer than r of the values fall below the quantile with chance >= `confidence`
    (P(Binomial(n, fraction) <= r - 1) >= confidence). None when even the largest value
    is not enough (too few values)."""
    ordered = sorted(values)
    low, high = 1, len(ordered)
    if not ordered or binomial_cdf(high - 1, high, fraction) < confidence:
        return None
    while low < high:  # the smallest rank whose bound holds; the cdf grows with the rank
        mid = (low + high) // 2
        if binomial_cdf(mid - 1, len(ordered), fraction) >= confidence:
            high = mid
        else:
            low = mid + 1
    return ordered[low - 1]


def chi_square_critical(df: int, level: float) -> float:
    """The x with ``chi_square_sf(x, df) == level`` (bisection)."""
    low, high = 0.0, 1.0
    while chi_square_sf(high, df) > level:
        high *= 2
    for _ in range(100):
        mid = (low + high) / 2
        if chi_square_sf(mid, df) > level:
            low = mid
        else:
            high = mid
    return high


def seat_fail_chance(
    wins: Sequence[int], more: int, max_gap: float, significance: float, *, draws: int = 1000
) -> float:
    """The chance that `more` further decided games make the seat-balance rule fail (gap over
    `max_gap` and chi-square p under `significance` over all the wins), were the seats truly
    as uneven as the wins so far but never less than `max_gap` apart: the conditional power
    of the full sample's test at the smallest imbalance it must catch.

    The uneven rates keep the direction of the observed ones (the first seat ahead of the
    second when the wins are even), stretched to a gap of ``max(max_gap, observed gap)``.
    The further wins are drawn from the normal approximation of the multinomial, `draws`
    times, with a fixed seed: the same wins always give the same chance."""
    seats, decided = len(wins), sum(wins)
    if seats < 2:
        return 0.0
    even = 1 / seats
    rates = [w / decided for w in wins] if decided else [even] * seats
    offsets = [r - even for r in rates]
    observed = max(offsets) - min(offsets)
    if observed <= 0:
        offsets, observed = [0.5, -0.5] + [0.0] * (seats - 2), 1.0
    target = max(max_gap, max(rates) - min(rates))
    shares = [min(1.0, max(0.0, even + o * target / observed)) for o in offsets]
    shares = [s / sum(shares) for s in shares]
    critical = chi_square_critical(seats - 1, significance)

    def fails(counts: Sequence[float]) -> bool:
        total = sum(counts)
        if total <= 0:
            return False
        if (max(counts) - min(counts)) / total <= max_gap:  # the gap holds: no chi-square needed
            return False
        expected = total / seats
        return sum((c - expected) ** 2 for c in counts) / expected > critical

    if more <= 0:
        return 1.0 if fails(wins) else 0.0
    roots = [math.sqrt(s) for s in shares]
    scale = math.sqrt(more)
    failed = 0
    table = _normals(draws * seats)
    terms = [(w + more * s, s, r) for w, s, r in zip(wins, shares, roots, strict=True)]
    for at in range(0, draws * seats, seats):  # `fails` of each draw, written out (the hot loop)
        normal = table[at : at + seats]
        common = sum(map(operator.mul, roots, normal))
        counts = [mean + scale * (r * z - s * common) for (mean, s, r), z in zip(terms, normal, strict=True)]
        total = sum(counts)
        if total <= 0 or (max(counts) - min(counts)) / total <= max_gap:
            continue
        expected = total / seats
        failed += sum((c - expected) ** 2 for c in counts) / expected > critical
    return failed / draws


def player_draws(seed: int) -> Draws:
    """What the players of game `seed` draw from: the seed's own stream for them, apart from
    the game's dice and deals (`boardgen.draws.for_purpose`)."""
    return for_purpose(seed, "players")


def _normals(count: int) -> list[float]:
    """`seat_fail_chance`'s normal numbers: always the same (seed 0), so worked out once, as
    many as the most seats asked for so far need (at least four seats' worth): every count of
    them is the first numbers of one stream, so fewer seats read the start of the same table."""
    if len(_NORMALS) < count:
        _NORMALS[:] = Draws(0).normals(max(count, 4000))
    return _NORMALS


_NORMALS: list[float] = []


def play(game: Game[Any, Any], players: Sequence[Player], seed: int, *, turn_cap: int) -> GameRecord:
    """Play one game to its end or to the turn cap: the one play loop of boardgen. It starts
    from the game's `position` and plays each move with `play` (in place where the game's
    positions are mutable), caps the game at `turn_cap` of its `turns_played` (every
    decision where it counts none) and sums its `events` after each decision into the
    record's counters (see `boardgen.rules.protocol.Game`). A player that picks the best
    (`Player.picks_best`) has its choice made here from the game's `best_moves`, as it
    would make it: the game keeps the speed where the moves are made."""
    rng = player_draws(seed)
    state = game.position(len(players), seed)
    picks = [player.picks_best for player in players]
    heuristic = cast(HeuristicGame[Any, Any], game)
    best_of = heuristic.best_moves if True in picks else None
    every = best_of is not None and False not in picks  # (then `best_of` is set)
    counted = heuristic.counted_best if every else None
    decisions = offered = widest = 0
    happened: list[Event] = []
    count_moves, to_move, outcome_of, advance = game.count_moves, game.to_move, game.outcome, game.play
    offered_move = game.play_offered
    turns_played, events, choice = game.turns_played, game.events, rng.choice
    outcome = None
    while True:
        if every:  # every seat picks the best: the count and the best moves in one call
            count, best = counted(state)  # type: ignore[misc]
        else:
            count, best = count_moves(state), None
        if not count:  # the game is over (`Game.legal_moves`)
            outcome = outcome_of(state)
            if outcome is None:
                raise RuntimeError(f"{game.id}: no legal move in an unfinished game (seed {seed})")
            break
        turns = turns_played(state)
        if (decisions if turns is None else turns) >= turn_cap:
            break
        offered += count
        if count > widest:
            widest = count
        if best is not None:  # the game's own moves: played unchecked
            state = offered_move(state, best[0] if len(best) == 1 else choice(best))  # (`players.tie_break`)
        else:
            seat = to_move(state)
            if best_of is not None and picks[seat]:
                best = best_of(state)
                state = offered_move(state, best[0] if len(best) == 1 else choice(best))
            else:
                state = advance(state, players[seat].choose(game, state, rng))
        happened += events(state)
        decisions += 1
    counters: dict[str, float] = {}
    add(counters, happened)
    if outcome is None:
        return GameRecord(seed, len(players), None, turn_cap, False, decisions, offered, widest, counters)
    return GameRecord(
        seed, len(players), outcome.winner, outcome.turns, True, decisions, offered, widest, counters, outcome.scores
    )


def add(counters: dict[str, float], events: Iterable[Event]) -> None:
    """Sum events into counters: a name counts one, a (name, amount) pair its amount."""
    get = counters.get
    for event in events:
        if isinstance(event, str):
            counters[event] = get(event, 0.0) + 1.0
        else:
            key, amount = event
            counters[key] = get(key, 0.0) + amount


def simulate(
    game: Game[Any, Any],
    players: Sequence[Player],
    *,
    games: int,
    seed: int,
    turn_cap: int,
    progress: Progress | None = None,
    label: str = "",
    workers: int = 1,
) -> SimulationStats:
    """Play `games` games and aggregate completion, length, seat balance and branching.

    With ``workers`` > 1 (and where processes can be forked) the games are shared among
    that many processes; the statistics are the same as with one.
    """
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games!r}")
    started = time.perf_counter()
    records = play_many(
        game, players, game_seeds(seed, games), turn_cap=turn_cap, workers=workers, progress=progress, label=label
    )
    stats = aggregate(game.id, tuple(p.name for p in players), records, turn_cap)
    return replace(stats, elapsed_s=time.perf_counter() - started)


def play_many(
    game: Game[Any, Any],
    players: Sequence[Player],
    seeds: Sequence[int],
    *,
    turn_cap: int,
    workers: int = 1,
    progress: Progress | None = None,
    label: str = "",
) -> list[GameRecord]:
    """One game per seed, records in seed order, whatever the number of workers."""
    return play_batches(
        game, [Batch(tuple(players), tuple(seeds), label)], turn_cap=turn_cap, workers=workers, progress=progress
    )[0]


@dataclass(frozen=True)
class Batch:
    """Games to play with the same seats: one game per seed; `label` names it in progress."""

    players: tuple[Player, ...]
    seeds: tuple[int, ...]
    label: str = ""


def play_batches(
    game: Game[Any, Any], batches: Sequence[Batch], *, turn_cap: int, workers: int = 1, progress: Progress | None = None
) -> list[list[GameRecord]]:
    """Every batch's records in seed order. This is the one process pool of boardgen
    (`SelfPlayPool`, once): the games of all batches are cut into chunks (`CHUNK_SHARES`) and
    shared among `workers` forked processes (where the platform can fork and it is worth
    it), otherwise played here. Each game depends only on its seed, so the records do not
    depend on `workers`. ``progress(done, total, label)`` counts games over all batches."""
    with SelfPlayPool(game, batches, turn_cap=turn_cap, workers=workers) as pool:
        return pool.play([(b, 0, len(batch.seeds)) for b, batch in enumerate(batches)], progress=progress)


class SelfPlayPool:
    """Self-play of `batches` in rounds (`play`, each a slice of every batch's seeds) through
    one pool of forked workers (boardgen.processes.Workers), started at the first round worth
    it and kept until `close`: the workers keep whatever the game warmed up (tables, caches)
    from one round to the next. Use it as a context manager."""

    def __init__(self, game: Game[Any, Any], batches: Sequence[Batch], *, turn_cap: int, workers: int = 1) -> None:
        self.game, self.batches, self.turn_cap = game, batches, turn_cap
        self._workers: Workers[_Job] = Workers((game, batches, turn_cap), workers)
        self._forkless = workers <= 1 or not can_fork()
        self._started = False

    def __enter__(self) -> SelfPlayPool:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        self._workers.close()
        self._started = False

    def play(
        self, ranges: Sequence[tuple[int, int, int]], *, progress: Progress | None = None
    ) -> list[list[GameRecord]]:
        """The records of each ``(batch, start, stop)`` range of seeds, in seed order."""
        total = sum(stop - start for _, start, stop in ranges)
        # The games with the most seats (the longest) first, in chunks that shrink as the
        # games left do (guided scheduling): few hand-overs while there is much to play, and
        # short last tasks, which one worker may finish while the others wait.
        tasks: list[tuple[int, int, tuple[int, ...]]] = []
        left, share = total, CHUNK_SHARES * max(1, self._workers.count)
        for r in sorted(range(len(ranges)), key=lambda r: -len(self.batches[ranges[r][0]].players)):
            b, i, stop = ranges[r]
            while i < stop:
                size = min(stop - i, max(CHUNK_LEAST, min(CHUNK_MOST, -(-left // share))))
                tasks.append((r, i, self.batches[b].seeds[i : i + size]))
                i += size
                left -= size
        labels = [self.batches[b].label for b, _, _ in ranges]
        results: dict[tuple[int, int], list[GameRecord]] | None = None
        if not self._forkless and (self._started or total >= FEWEST_FOR_WORKERS):
            results = self._in_processes(ranges, tasks, total, labels, progress)
        if results is None:
            results = {}
            done = 0
            for r, i, seeds in sorted(tasks):  # (each batch in turn, in seed order)
                players = self.batches[ranges[r][0]].players
                chunk = results[r, i] = []
                for game_seed in seeds:
                    chunk.append(play(self.game, players, game_seed, turn_cap=self.turn_cap))
                    done += 1
                    if progress is not None:
                        progress(done, total, labels[r])
        return [[record for r2, i, _ in tasks if r2 == r for record in results[r2, i]] for r in range(len(ranges))]

    def _in_processes(
        self,
        ranges: Sequence[tuple[int, int, int]],
        tasks: list[tuple[int, int, tuple[int, ...]]],
        total: int,
        labels: list[str],
        progress: Progress | None,
    ) -> dict[tuple[int, int], list[GameRecord]] | None:
        """The tasks played by the workers; None where processes cannot be had (some
        sandboxes forbid them), so the caller plays them itself."""
        if not self._started:
            self._started = self._workers.start()
            if not self._started:
                self._forkless = True
                return None
        results: dict[tuple[int, int], list[GameRecord]] = {}
        done = 0
        work = [(ranges[r][0], r, i, seeds) for r, i, seeds in tasks]
        for r, index, records in self._workers.imap_unordered(_play_chunk, work):
            results[r, index] = records
            done += len(records)
            if progress is not None:
                progress(done, total, labels[r])
        return results


# Games per task handed to a worker process (`SelfPlayPool.play`): the games left shared in
# CHUNK_SHARES tasks per worker, from CHUNK_MOST down to CHUNK_LEAST: large enough that handing
# out tasks costs little (a hand-over through the pool costs about what a game of King Minos
# does), small enough for an even share of the work at the end and a smooth progress bar.
CHUNK_SHARES = 4
CHUNK_MOST = 40
CHUNK_LEAST = 4
# Fewer games than this are played in this process: forking would cost more than it saves.
FEWEST_FOR_WORKERS = 20
# What the self-play workers inherit: the game, the batches (their players) and the turn cap;
# only seeds go out and records come back.
_Job = tuple[Game[Any, Any], Sequence[Batch], int]


def _play_chunk(job: _Job, task: tuple[int, int, int, tuple[int, ...]]) -> tuple[int, int, list[GameRecord]]:
    game, batches, turn_cap = job
    batch, key, index, seeds = task
    players = batches[batch].players
    return key, index, [play(game, players, s, turn_cap=turn_cap) for s in seeds]


def aggregate(
    game_id: str, player_names: tuple[str, ...], records: Sequence[GameRecord], turn_cap: int
) -> SimulationStats:
    """Summarise game records (all with the same number of seats)."""
    seats = len(player_names)
    finished = [r for r in records if r.finished]
    lengths = [r.turns for r in finished]
    wins = [0] * seats
    for record in finished:
        if record.winner is not None:
            wins[record.winner] += 1
    decided = sum(wins)
    rates = tuple(w / decided if decided else 0.0 for w in wins)
    decisions = sum(r.decisions for r in records)
    totals: dict[str, float] = {}
    for record in records:
        for key, value in record.counters.items():
            totals[key] = totals.get(key, 0.0) + value
    return SimulationStats(
        game=game_id,
        seats=seats,
        player_names=player_names,
        games=len(records),
        turn_cap=turn_cap,
        finished=len(finished),
        completion_rate=len(finished) / len(records) if records else 0.0,
        mean_length=sum(lengths) / len(lengths) if lengths else None,
        p95_length=int(percentile(lengths, 0.95)) if lengths else None,
        max_length=max(lengths) if lengths else None,
        median_length=int(percentile(lengths, 0.5)) if lengths else None,
        p90_length=int(percentile(lengths, 0.9)) if lengths else None,
        seat_wins=tuple(wins),
        seat_win_rates=rates,
        seat_gap=max(rates) - min(rates) if decided else 0.0,
        seat_p=seat_balance_p(wins),
        draws=len(finished) - decided,
        branching_mean=sum(r.moves_offered for r in records) / decisions if decisions else 0.0,
        branching_max=max((r.branching_max for r in records), default=0),
        decisions_mean=decisions / len(records) if records else 0.0,
        extra={key: value / len(records) for key, value in totals.items()},
        extra_totals=totals,
    )
