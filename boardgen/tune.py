"""`boardgen tune`: from a failing verdict to a tested repair.

A layout's ``[tune]`` table names what may change, each with its bounds: ``seed`` (the
layout's ``game.default_seed``) or the dotted key of any number in the layout (``deal.4``,
``compensation.first_seat_fewer_cards``, ``race.pun_success``, ``deck.3.count``). The tuner
searches those values for the smallest change that passes the check with margin (every
player count's seat gap at most `DEFAULT_MARGIN` of the layout's ``max_seat_gap``), with
Optuna:

- a small space of whole numbers is a grid, tried nearest first (fewest keys changed, then
  the smallest steps; the layout's own values are trial 0), and the answer is the first
  trial in that order that passes with margin, once every trial before it is judged;
- a larger one is searched by TPE (seeded), in batches of `BATCH` trials, the best passing
  trial (fewest keys changed, then the widest margin) winning.

Every trial is judged by the check `boardgen validate` runs (`boardgen.checks.harness.check`,
through the engine registry), first on a `SCREEN_GAMES`-game sample per player count whose
score goes to Optuna's pruner (`PRUNE_ABOVE`), then in full. A trial's games take their
seeds from the trial's values only, and a batch is asked for before any of it is played,
so the answer does not depend on ``--workers``.

With ``--study`` (a journal file, or an ``sqlite:///``, ``postgresql://`` or ``mysql+pymysql://``
database, `boardgen.tune_storage`) several processes, on one machine or several, share one
study (docs/tuning.md):

- the study is made by whichever process gets there first, the others load it;
- a grid is queued once, each point with its rank; processes claim queued points, and the
  answer is the first passing rank: the same as one process's, however many joined;
- each process samples TPE with a seed from the study's name and its place among the
  processes that joined (the first keeps a single process's seed), and values another trial
  already holds are failed, not judged (`_repeat`);
- each process beats a counter in the study (`Member`); one whose heartbeat stands still for
  `STALE_BEATS` beats is taken for dead, and its running trials are failed and queued again.

The answer is the author's own file with the tuned keys changed (tomlkit keeps the rest as
written), checked again, in full, from that file, before the sentence that reports it is
printed.
"""

from __future__ import annotations

import copy
import hashlib
import itertools
import json
import math
import os
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boardgen.data.loader import Document
from boardgen.errors import DataError, Problem, UsageError
from boardgen.processes import worker_start

if TYPE_CHECKING:
    import optuna

    from boardgen.checks.harness import Report
    from boardgen.engine import Engine

# Every player count's seat gap must stay within this share of ``max_seat_gap``.
DEFAULT_MARGIN = 0.8
DEFAULT_TRIALS = 60
# Games per player count of a trial's first look, whose score the pruner judges.
SCREEN_GAMES = 50
# A trial whose first look scores above this is pruned: it fails, or a seat gap is twice the
# layout's maximum (the score of a playable trial is its worst gap over the maximum).
PRUNE_ABOVE = 2.0
# Trials asked for at once: the same for any number of workers, so the answer is too.
BATCH = 4
# A grid larger than this is searched by TPE instead.
GRID_MAX = 2000
# A shared study: seconds between a process's heartbeats (BOARDGEN_TUNE_HEARTBEAT), and how
# many of its beats may pass unseen before its running trials are taken over by the others.
HEARTBEAT_S = 3.0
STALE_BEATS = 5
# Tries at making or loading a shared study (two processes making its tables at once).
CREATE_TRIES = 8
# How long the points of a grid may stop growing before a process that did not make the study
# queues them itself (the one that made it died).
READY_WAIT = 10.0
# How often a process with nothing to ask looks at the trials the others are judging.
POLL_S = 0.5
# Drawn values already judged, in a row, before a TPE search takes its space as spent.
MAX_REPEATS = 200
# The score of a trial that fails the check, on top of its gap ratio.
FAIL = 10.0
# Keys of the layout that may be absent, with the value their absence means.
ABSENT: dict[tuple[str | int, ...], float] = {
    ("game", "default_seed"): 1,
    ("compensation", "first_seat_fewer_cards"): 0,
}
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


@dataclass(frozen=True)
class Knob:
    """One thing the tuner may change: its name in ``[tune]``, where it is in the layout's
    data, its bounds, whether it is a whole number, and the layout's own value."""

    name: str
    path: tuple[str | int, ...]
    low: float
    high: float
    integer: bool
    current: float

    @property
    def step(self) -> float | None:
        """A fraction is tried in hundredths when its bounds are (a printable value), else freely."""
        return 0.01 if all(abs(v * 100 - round(v * 100)) < 1e-9 for v in (self.low, self.high)) else None

    def values(self) -> list[float]:
        """Every whole value within the bounds, nearest the current one first (the lower of
        two as near)."""
        return sorted(range(int(self.low), int(self.high) + 1), key=lambda v: (abs(v - self.current), v))


def knobs(doc: Document) -> list[Knob]:
    """The ``[tune]`` table of a layout as knobs; UsageError when there is none, DataError
    naming the file, key and line of every bad entry."""
    table = doc.data.get("tune") or {}
    if not table:
        raise UsageError(
            f"{doc.path}: nothing to tune: the layout declares no tunable parameter. Add a [tune] "
            "table naming what may change, with bounds, e.g.\n  [tune]\n  seed = { min = 1, max = 1000 }\n"
            '  "deal.4" = { min = 5, max = 6 }\n(`boardgen schema` describes the key)'
        )
    found: list[Knob] = []
    problems: list[Problem] = []
    for name, bounds in table.items():
        key = ("tune", name)
        path = _path(doc.data, ("game", "default_seed") if name == "seed" else tuple(name.split(".")))
        value = _value(doc.data, path)
        if value is None:
            value = ABSENT.get(path)
        if value is None or isinstance(value, bool) or not isinstance(value, int | float):
            problems.append(doc.problem(key, f"{name!r} is not a number of this layout"))
            continue
        low, high = bounds["min"], bounds["max"]
        if low > high:
            problems.append(doc.problem(key, f"min {low} is above max {high}"))
            continue
        integer = all(isinstance(v, int) for v in (value, low, high))
        found.append(Knob(name, path, low, high, integer, value))
    if problems:
        raise DataError(problems)
    return found


def _path(data: Any, parts: tuple[str, ...]) -> tuple[str | int, ...]:
    """Dotted parts as keys into `data`: a number indexes an array."""
    out: list[str | int] = []
    node = data
    for part in parts:
        if isinstance(node, list) and part.isdigit():
            out.append(int(part))
            node = node[int(part)] if int(part) < len(node) else None
        else:
            out.append(part)
            node = node.get(part) if isinstance(node, dict) else None
    return tuple(out)


def _value(data: Any, path: tuple[str | int, ...]) -> Any:
    node = data
    for part in path:
        if isinstance(node, dict) and isinstance(part, str):
            node = node.get(part)
        elif isinstance(node, list) and isinstance(part, int) and part < len(node):
            node = node[part]
        else:
            return None
    return node


def with_values(data: Mapping[str, Any], values: Mapping[tuple[str | int, ...], float]) -> dict[str, Any]:
    """A copy of the layout's data with `values` set (tables made where missing)."""
    out = copy.deepcopy(dict(data))
    for path, value in values.items():
        node: Any = out
        for part in path[:-1]:
            node = node.setdefault(part, {}) if isinstance(node, dict) else node[part]
        node[path[-1]] = value
    return out


# -- judging one trial ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """What the check said of one trial: playable or not, why not, and each player count's
    seat win rates and gap."""

    playable: bool
    reasons: tuple[str, ...]
    rates: dict[str, list[float]]
    gaps: dict[str, float]
    ratio: float  # the worst seat gap over max_seat_gap (inf when no game was played)

    def score(self, changed: int) -> float:
        """Lower is better: a failure costs `FAIL`, then the gap ratio, then the keys changed."""
        return (0.0 if self.playable else FAIL) + min(self.ratio, FAIL) + 0.01 * changed

    def passes(self, margin: float) -> bool:
        return self.playable and self.ratio <= margin

    def worst(self) -> str | None:
        """The player count with the widest gap against the maximum."""
        return max(self.gaps, key=lambda k: (self.gaps[k], -int(k)), default=None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "playable": self.playable,
            "reasons": list(self.reasons),
            "rates": self.rates,
            "gaps": self.gaps,
            "ratio": None if math.isinf(self.ratio) else self.ratio,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Verdict:
        ratio = data["ratio"]
        return cls(
            data["playable"],
            tuple(data["reasons"]),
            dict(data["rates"]),
            dict(data["gaps"]),
            math.inf if ratio is None else ratio,
        )


def verdict_of(report: Report, max_gap: float) -> Verdict:
    """The parts of a check's report the tuner weighs, as the report gives them."""
    played = report.stats.get("self_play", {})
    rates = {count: [round(r, 2) for r in s["seat_win_rates"]] for count, s in played.items()}
    gaps = {count: float(s["seat_gap"]) for count, s in played.items()}
    ratio = max(gaps.values()) / max_gap if gaps and max_gap > 0 else math.inf
    return Verdict(report.playable, tuple(report.reasons), rates, gaps, ratio)


def judge(
    engine: Engine[Any, Any, Any],
    doc: Document,
    data: dict[str, Any],
    *,
    games: int | None = None,
    workers: int | None = 1,
) -> Verdict:
    """The check of the layout `data` (a candidate built from `doc`), as `boardgen validate`
    runs it; `games` fixes the games per player count. A candidate the layout rules refuse
    (a deal larger than the deck) fails with the reasons the loader gives."""
    from boardgen.checks.harness import check
    from boardgen.data.loader import validate

    candidate = Document(doc.name, doc.path, data, doc.lines)
    try:
        validate("game", candidate)
        layout = engine.build(candidate)
    except DataError as exc:
        return Verdict(False, tuple(str(p) for p in exc.problems), {}, {}, math.inf)
    if games is not None:
        games = min(games, int(engine.thresholds(layout)["games_per_player_count"]))
    report = check(engine, layout, layout.default_seed, games=games, workers=workers)
    return verdict_of(report, float(engine.thresholds(layout)["max_seat_gap"]))


# Per worker process: the source layout's data (by its JSON text), read once.
_SOURCE: dict[str, tuple[Engine[Any, Any, Any], Document]] = {}


def _evaluate(
    source: str, data_json: str, values: list[tuple[list[str | int], float]], games: int | None
) -> dict[str, Any]:
    """One trial in a worker: the source's data (as given) with `values`, judged."""
    from boardgen.engines import get_engine

    if data_json not in _SOURCE:
        data = json.loads(data_json)
        _SOURCE.clear()
        _SOURCE[data_json] = (get_engine(data["game"]["engine"]), Document(Path(source).stem, source, data, {}))
    engine, doc = _SOURCE[data_json]
    data = with_values(doc.data, {tuple(path): value for path, value in values})
    return judge(engine, doc, data, games=games).to_dict()


# -- the search ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """The tuner's answer: the values that pass (None if none did), their verdict, the
    layout's own verdict, and how many trials were judged."""

    knobs: tuple[Knob, ...]
    values: dict[str, float] | None
    verdict: Verdict | None
    baseline: Verdict | None
    trials: int
    pruned: int
    elapsed_s: float


def study_storage(url: str | None) -> Any:
    """Optuna's storage for ``--study``: a database URL, or else a journal file (made if
    missing) that processes on one or several machines share; None keeps it in memory.
    Each is checked first (`boardgen.tune_storage`)."""
    if url is None:
        return None
    from boardgen.tune_storage import open_storage

    return open_storage(url)


def study_name(doc: Document) -> str:
    """The study's name: the layout's id and a digest of its data, so a changed layout never
    meets the trials of an earlier one in a shared storage."""
    digest = hashlib.sha256(json.dumps(doc.data, sort_keys=True, default=str).encode()).hexdigest()[:12]
    return f"boardgen-{doc.data['game']['id']}-{digest}"


def grid(found: Sequence[Knob], limit: int) -> list[dict[str, float]] | None:
    """Every combination of whole values, nearest first (fewest keys changed, then the
    smallest steps, each in the order `Knob.values` gives), at most `limit`; None when the
    space is not a small grid of whole numbers."""
    if not all(k.integer for k in found) or math.prod(int(k.high - k.low) + 1 for k in found) > GRID_MAX:
        return None
    spans = [max(1.0, k.high - k.low) for k in found]
    combos = itertools.product(*(k.values() for k in found))

    def distance(combo: tuple[float, ...]) -> tuple[int, float, tuple[int, ...]]:
        moved = [abs(v - k.current) / span for v, k, span in zip(combo, found, spans, strict=True)]
        return (
            sum(m > 0 for m in moved),
            sum(moved),
            tuple(k.values().index(v) for v, k in zip(combo, found, strict=True)),
        )

    ordered = sorted(combos, key=distance)[:limit]
    return [{k.name: v for k, v in zip(found, combo, strict=True)} for combo in ordered]


def changed(found: Sequence[Knob], values: Mapping[str, float]) -> int:
    return sum(values[k.name] != k.current for k in found)


def heartbeat_s() -> float:
    """Seconds between a process's heartbeats in a shared study: ``BOARDGEN_TUNE_HEARTBEAT``,
    else `HEARTBEAT_S`. A process whose heartbeat stands still for `STALE_BEATS` of its beats
    is taken for dead and its trials are judged again by the others."""
    raw = os.environ.get("BOARDGEN_TUNE_HEARTBEAT", "").strip()
    if not raw:
        return HEARTBEAT_S
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not 0.2 <= value <= 600:
        raise UsageError(f"BOARDGEN_TUNE_HEARTBEAT={raw!r}: give the seconds between heartbeats, 0.2 to 600")
    return value


class Member:
    """This process's part in a study: who it is, its heartbeat (a thread raising a counter in
    the study's user attributes, when the study is shared), and what it has seen of the
    others' heartbeats. Staleness is judged on this process's own clock: a heartbeat that has
    not moved for a while, never a time written by another machine."""

    def __init__(self, study: optuna.Study, shared: bool) -> None:
        self.study = study
        self.shared = shared
        self.token = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.interval = heartbeat_s() if shared else HEARTBEAT_S
        self.seen: dict[str, tuple[Any, float]] = {}
        self.error: BaseException | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if not self.shared:
            return
        self._beat(0)
        self._thread = threading.Thread(target=self._run, name="boardgen-tune-heartbeat", daemon=True)
        self._thread.start()

    def _beat(self, count: int) -> None:
        self.study.set_user_attr(f"beat:{self.token}", [count, self.interval])

    def _run(self) -> None:
        count = 0
        while not self._stop.wait(self.interval):
            count += 1
            try:
                self._beat(count)
            except BaseException as exc:  # shown by the main thread (`alive`)
                self.error = exc
                return

    def alive(self) -> None:
        """Raise what stopped the heartbeat (a storage that went away), in the main thread."""
        if self.error is not None:
            raise self.error

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def index(self) -> int:
        """This process's place among the processes that joined the study (0 for the first, and
        for a study of its own): the storage numbers trials one at a time, so a trial marking
        the join gives every process a place of its own, race-free."""
        if not self.shared:
            return 0
        from optuna.trial import TrialState, create_trial

        self.study.add_trial(create_trial(state=TrialState.FAIL, user_attrs={"join": self.token}))
        joined = [
            t.user_attrs["join"]
            for t in self.study.get_trials(deepcopy=False, states=(TrialState.FAIL,))
            if "join" in t.user_attrs
        ]
        return joined.index(self.token)

    def stale(self, trials: Sequence[optuna.trial.FrozenTrial]) -> list[optuna.trial.FrozenTrial]:
        """The running trials of other processes whose heartbeat has stood still, as seen from here,
        for `STALE_BEATS` of their beats."""
        from optuna.trial import TrialState

        running = [t for t in trials if t.state == TrialState.RUNNING and t.user_attrs.get("worker") != self.token]
        if not self.shared or not running:
            return []
        beats = self.study.user_attrs
        now = time.monotonic()
        found = []
        for trial in running:
            worker = str(trial.user_attrs.get("worker", f"?{trial.number}"))
            beat = beats.get(f"beat:{worker}")
            interval = float(beat[1]) if isinstance(beat, list) and len(beat) == 2 else self.interval
            last = self.seen.get(worker)
            if last is None or last[0] != beat:
                self.seen[worker] = (beat, now)
            elif now - last[1] > STALE_BEATS * interval:
                found.append(trial)
        return found


def _open_study(storage: Any, name: str, pruner: optuna.pruners.BasePruner) -> tuple[optuna.Study, bool]:
    """The study `name`, made here (True) or by another process (False). Two processes
    starting together both try to make it; the storage lets one, the other loads it."""
    import optuna
    import sqlalchemy.exc

    last: Exception | None = None
    for attempt in range(CREATE_TRIES):
        try:
            return optuna.create_study(storage=storage, study_name=name, pruner=pruner, direction="minimize"), True
        except optuna.exceptions.DuplicatedStudyError:
            try:
                return optuna.load_study(storage=storage, study_name=name, pruner=pruner), False
            except KeyError as exc:  # deleted in between: make it again
                last = exc
        except sqlalchemy.exc.SQLAlchemyError as exc:  # a lost race over the tables, or a server restarting
            last = exc
        time.sleep(0.05 * (attempt + 1))
    raise UsageError(f"the study {name} could not be made or read: {str(last).splitlines()[0] if str(last) else last}")


def tune(
    source: str,
    *,
    seed: int | None = None,
    trials: int = DEFAULT_TRIALS,
    workers: int = 1,
    study_url: str | None = None,
    margin: float = DEFAULT_MARGIN,
    report: Callable[[str], None] | None = None,
) -> Outcome:
    """Search the layout `source` (a bundled name or a file) for the smallest change its
    ``[tune]`` table allows that passes the check with `margin`; `seed` first replaces the
    layout's own seed. `report` receives a line per trial judged."""
    import optuna

    from boardgen.engines import load_game

    started = time.perf_counter()
    engine, layout = load_game(source)
    doc = layout.doc
    found = knobs(doc)
    data = doc.data if seed is None else with_values(doc.data, {("game", "default_seed"): seed})
    if seed is not None:
        found = [
            Knob(k.name, k.path, k.low, k.high, k.integer, seed) if k.path == ("game", "default_seed") else k
            for k in found
        ]
    doc = Document(doc.name, doc.path, data, doc.lines)
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    ordered = grid(found, trials)
    points = ordered or [{k.name: k.current for k in found}]
    storage = study_storage(study_url)
    name = study_name(doc) + f"-m{margin:g}-t{trials}"
    study, made = _open_study(storage, name, optuna.pruners.ThresholdPruner(upper=PRUNE_ABOVE))
    member = Member(study, storage is not None)
    member.start()
    pool: Executor | None = None
    try:
        digest = hashlib.sha256(f"{name}/{member.index()}".encode()).digest()
        study.sampler = optuna.samplers.TPESampler(seed=int.from_bytes(digest[:4], "big"))
        if made or not _wait_ready(study):
            _enqueue(study, points, range(len(points)))
            study.set_user_attr("ready", True)
        by_name = {k.name: k for k in found}
        data_json = json.dumps(data, default=str)
        if workers > 1:
            pool = ProcessPoolExecutor(workers, initializer=worker_start, initargs=(os.getpid(),))
        search = Search(study, member, points, ordered is not None, trials, margin, tuple(found))
        for trial, verdict in search.run(pool, source, data_json, by_name):
            if report is not None:
                report(_trial_line(trial, verdict, found))
    finally:
        member.stop()
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    return _outcome(study, found, margin, ordered is not None, time.perf_counter() - started)


def _enqueue(study: optuna.Study, points: Sequence[Mapping[str, float]], ranks: Iterable[int]) -> None:
    """Queue the points of `ranks`: each carries its rank, its place in the order the grid is
    tried (a point queued twice, by two processes or again after its process died, is
    judged once: see `_repeat`)."""
    for rank in ranks:
        study.enqueue_trial(dict(points[rank]), user_attrs={"rank": rank}, skip_if_exists=False)


def _wait_ready(study: optuna.Study) -> bool:
    """Another process made the study: wait while it queues the points. False when it stopped
    queueing without saying it is done (it died): then this process queues them."""
    seen, since = -1, time.monotonic()
    while time.monotonic() - since < READY_WAIT:
        if study.user_attrs.get("ready"):
            return True
        queued = len(study.get_trials(deepcopy=False))
        if queued != seen:
            seen, since = queued, time.monotonic()
        time.sleep(POLL_S)
    return False


def _repeat(trials: Sequence[optuna.trial.FrozenTrial], trial: optuna.trial.FrozenTrial | optuna.Trial) -> bool:
    """Another trial holds the same values and is finished, or running and older: this one is
    not judged. Checked once the values are drawn and again before the verdict is told, so of
    two processes drawing the same values at once only the older trial is told."""
    from optuna.trial import TrialState

    params = trial.params
    for other in trials:
        if other.number == trial.number or other.params != params:
            continue
        if other.state in (TrialState.COMPLETE, TrialState.PRUNED):
            return True
        if other.state == TrialState.RUNNING and other.number < trial.number:
            return True
    return False


def _done(trials: Sequence[optuna.trial.FrozenTrial]) -> list[optuna.trial.FrozenTrial]:
    from optuna.trial import TrialState

    return [t for t in trials if t.state in (TrialState.COMPLETE, TrialState.PRUNED) and "verdict" in t.user_attrs]


class Search:
    """One process's share of the search: claim a batch, screen, prune, judge and tell, until
    the study is settled; take over the trials of a process that died."""

    def __init__(
        self,
        study: optuna.Study,
        member: Member,
        points: Sequence[Mapping[str, float]],
        is_grid: bool,
        most: int,
        margin: float,
        found: tuple[Knob, ...],
    ) -> None:
        self.study, self.member, self.points, self.is_grid = study, member, points, is_grid
        self.most, self.margin, self.found = most, margin, found
        self.repeats = 0

    def settled(self, trials: Sequence[optuna.trial.FrozenTrial]) -> bool:
        """A grid is settled by its first passing point (in rank) once every point before it is
        judged; TPE by its number of trials."""
        done = _done(trials)
        if not self.is_grid:
            return len(done) >= self.most
        ranks = {t.user_attrs["rank"]: t for t in done if "rank" in t.user_attrs}
        passing = [
            rank
            for rank, t in ranks.items()
            if t.state.name == "COMPLETE" and Verdict.from_dict(t.user_attrs["verdict"]).passes(self.margin)
        ]
        return all(rank in ranks for rank in range(min(passing, default=len(self.points))))

    def take_over(self, trials: Sequence[optuna.trial.FrozenTrial]) -> None:
        """Fail the trials of a process whose heartbeat stopped, and queue their points again.
        Of several processes doing so at once the storage lets one tell each trial."""
        from optuna.exceptions import UpdateFinishedTrialError
        from optuna.trial import TrialState

        for trial in self.member.stale(trials):
            try:
                self.study.tell(trial.number, state=TrialState.FAIL)
            except (UpdateFinishedTrialError, ValueError):
                continue  # finished meanwhile, or another process took it over first
            self.study.set_user_attr(f"taken-over:{trial.number}", self.member.token)
            if "rank" in trial.user_attrs:
                _enqueue(self.study, self.points, [int(trial.user_attrs["rank"])])

    def size(self, trials: Sequence[optuna.trial.FrozenTrial]) -> int:
        """How many trials to ask for now (0: wait for the others, or requeue a lost point)."""
        from optuna.trial import TrialState

        waiting = sum(t.state == TrialState.WAITING for t in trials)
        if self.is_grid:
            return min(BATCH, waiting)
        running = sum(t.state == TrialState.RUNNING for t in trials)
        return min(BATCH, max(0, self.most - len(_done(trials)) - running))

    def ask(self, size: int) -> list[optuna.Trial]:
        """A batch of trials for this process. Beyond a grid's queue or the number of trials
        asked (another process claimed them first), a trial is failed before it draws values."""
        from optuna.trial import TrialState

        asked = [self.study.ask() for _ in range(size)]
        for trial in asked:
            trial.set_user_attr("worker", self.member.token)
        if self.is_grid:
            over = {trial.number for trial in asked if "rank" not in trial.user_attrs}
        else:
            live = sorted(
                t.number
                for t in self.study.get_trials(deepcopy=False)
                if t.state in (TrialState.RUNNING, TrialState.COMPLETE, TrialState.PRUNED)
                and "join" not in t.user_attrs
            )
            place = {number: index for index, number in enumerate(live)}
            over = {trial.number for trial in asked if place.get(trial.number, self.most) >= self.most}
        for trial in asked:
            if trial.number in over:
                self.study.tell(trial, state=TrialState.FAIL, skip_if_finished=True)
        return [trial for trial in asked if trial.number not in over]

    def run(
        self, pool: Executor | None, source: str, data_json: str, by_name: Mapping[str, Knob]
    ) -> Iterator[tuple[optuna.trial.FrozenTrial, Verdict | None]]:
        from optuna.exceptions import UpdateFinishedTrialError
        from optuna.trial import TrialState

        found = self.found
        while True:
            self.member.alive()
            trials = self.study.get_trials(deepcopy=False)
            if self.settled(trials):
                return
            self.take_over(trials)
            size = self.size(trials)
            if size <= 0:
                if not any(t.state in (TrialState.RUNNING, TrialState.WAITING) for t in trials):
                    if not self.is_grid:
                        return
                    ranks = {t.user_attrs.get("rank") for t in _done(trials)}
                    lost = [rank for rank in range(len(self.points)) if rank not in ranks]
                    if not lost:
                        return
                    _enqueue(self.study, self.points, lost)  # a point whose trial failed: again
                    continue
                time.sleep(POLL_S)  # the others are judging the trials left
                continue
            drawn = []
            for trial in self.ask(size):
                try:
                    drawn.append(
                        (
                            trial,
                            {
                                k.name: (
                                    trial.suggest_int(k.name, int(k.low), int(k.high))
                                    if k.integer
                                    else trial.suggest_float(k.name, k.low, k.high, step=k.step)
                                )
                                for k in found
                            },
                        )
                    )
                except UpdateFinishedTrialError:
                    continue  # taken over meanwhile (this process was thought dead): another judges it
            trials = self.study.get_trials(deepcopy=False)
            fresh = []
            for trial, value in drawn:
                if _repeat(trials, trial):
                    self._drop(trial)
                else:
                    fresh.append((trial, value))
            if fresh:
                self.repeats = 0
            elif self.repeats > MAX_REPEATS:
                return  # the sampler keeps drawing judged values: the space is spent
            screens = _judge_all(pool, source, data_json, by_name, [v for _, v in fresh], SCREEN_GAMES)
            survivors, pruned = [], []
            for (trial, value), screen in zip(fresh, screens, strict=True):
                try:
                    trial.report(screen.score(changed(found, value)), step=0)
                except UpdateFinishedTrialError:
                    continue
                # The layout's own values are always judged in full: the answer's sentence says
                # what the check makes of them.
                if trial.should_prune() and changed(found, value):
                    pruned.append((trial, screen))
                else:
                    survivors.append((trial, value))
            trials = self.study.get_trials(deepcopy=False) if pruned else []
            for trial, screen in pruned:
                told = self._tell(trials, trial, screen, None)
                if told is not None:
                    yield told, None
            fulls = _judge_all(pool, source, data_json, by_name, [v for _, v in survivors], None)
            trials = self.study.get_trials(deepcopy=False) if survivors else []
            for (trial, value), verdict in zip(survivors, fulls, strict=True):
                told = self._tell(trials, trial, verdict, verdict.score(changed(found, value)))
                if told is not None:
                    yield told, verdict

    def _drop(self, trial: optuna.Trial) -> None:
        from optuna.exceptions import UpdateFinishedTrialError
        from optuna.trial import TrialState

        self.repeats += 1
        try:
            trial.set_user_attr("repeat", True)
            self.study.tell(trial, state=TrialState.FAIL)
        except (UpdateFinishedTrialError, ValueError):
            pass

    def _tell(
        self, trials: Sequence[optuna.trial.FrozenTrial], trial: optuna.Trial, verdict: Verdict, score: float | None
    ) -> optuna.trial.FrozenTrial | None:
        """Tell a judged trial (pruned when `score` is None); None when it is not this process's
        to tell: another of `trials` (read once the batch is judged) holds the same values, or
        another process took the trial over as stale."""
        from optuna.exceptions import UpdateFinishedTrialError
        from optuna.trial import TrialState

        if _repeat(trials, trial):
            self._drop(trial)
            return None
        try:
            trial.set_user_attr("verdict", verdict.to_dict())
            if score is None:
                return self.study.tell(trial, state=TrialState.PRUNED)
            return self.study.tell(trial, score)
        except (UpdateFinishedTrialError, ValueError):
            return None


def _judge_all(
    pool: Executor | None,
    source: str,
    data_json: str,
    by_name: Mapping[str, Knob],
    values: Sequence[Mapping[str, float]],
    games: int | None,
) -> list[Verdict]:
    jobs = [(source, data_json, [(list(by_name[n].path), v) for n, v in value.items()], games) for value in values]
    if pool is None:
        return [Verdict.from_dict(_evaluate(*job)) for job in jobs]
    return [Verdict.from_dict(f.result()) for f in [pool.submit(_evaluate, *job) for job in jobs]]


def _outcome(study: optuna.Study, found: Sequence[Knob], margin: float, is_grid: bool, elapsed: float) -> Outcome:
    from optuna.trial import TrialState

    done = _done(study.get_trials(deepcopy=False))
    passing = [
        t for t in done if t.state == TrialState.COMPLETE and Verdict.from_dict(t.user_attrs["verdict"]).passes(margin)
    ]
    if passing:
        best = (
            min(passing, key=lambda t: t.user_attrs["rank"])
            if is_grid
            else min(passing, key=lambda t: (changed(found, t.params), t.value, t.number))
        )
        values: dict[str, float] | None = dict(best.params)
        verdict: Verdict | None = Verdict.from_dict(best.user_attrs["verdict"])
    else:
        values, verdict = None, None
    current = {k.name: k.current for k in found}
    base = [t for t in done if t.params == current]
    baseline = Verdict.from_dict(base[0].user_attrs["verdict"]) if base else None
    pruned = sum(t.state == TrialState.PRUNED for t in done)
    return Outcome(tuple(found), values, verdict, baseline, len(done), pruned, elapsed)


def _trial_line(trial: optuna.trial.FrozenTrial, verdict: Verdict | None, found: Sequence[Knob]) -> str:
    what = ", ".join(f"{k.name} {trial.params[k.name]:g}" for k in found)
    if verdict is None:
        return f"  trial {trial.number}: {what}: pruned after its first look (at most {SCREEN_GAMES} games each)"
    gap = "-" if math.isinf(verdict.ratio) else f"worst seat gap {verdict.ratio:.2f} of the maximum"
    return f"  trial {trial.number}: {what}: {'passes' if verdict.playable else 'fails'}, {gap}"


# -- the answer ------------------------------------------------------------------------------------


def tuned_data(doc: Document, outcome: Outcome) -> dict[str, Any]:
    """The layout's data with the answer's values set."""
    assert outcome.values is not None
    return with_values(doc.data, {k.path: outcome.values[k.name] for k in outcome.knobs})


def describe(knob: Knob, value: float) -> str:
    return f"seed {value:g}" if knob.name == "seed" else f"{knob.name} = {value:g}"


def sentence(outcome: Outcome, verdict: Verdict) -> str:
    """One sentence: what was wrong, what passes, and the seat win rates the check reports
    for the player count that was worst ("seed 4 favours the first seat: seed 23 passes,
    seat win rates 0.26 / 0.25 / 0.25 / 0.24")."""
    assert outcome.values is not None
    before = ", ".join(describe(k, k.current) for k in outcome.knobs)
    base = outcome.baseline
    count = (base.worst() if base is not None and base.gaps else None) or verdict.worst()
    if base is None:
        problem = f"{before} was not judged"
    elif base.playable and base.gaps:
        problem = f"{before} passes narrowly"
    elif count is not None and any(r.startswith(f"self-play, {count} players: seat") for r in base.reasons):
        rates = base.rates[count]
        problem = f"{before} favours the {ORDINALS[rates.index(max(rates))]} seat"
    else:
        problem = f"{before} fails ({base.reasons[0] if base.reasons else 'see validate'})"
    moved = [describe(k, outcome.values[k.name]) for k in outcome.knobs if outcome.values[k.name] != k.current]
    change = " with ".join(moved) if moved else before
    rates = verdict.rates.get(count or "", [])
    shown = " / ".join(f"{r:.2f}" for r in rates)
    tail = f", seat win rates {shown}" + (f" with {count} players" if len(verdict.rates) > 1 else "") if rates else ""
    return f"{problem}: {change} passes{tail}"


def write_answer(source: str, outcome: Outcome, output: Path | None, *, seed: int | None = None) -> str:
    """Write the answer as a layout file (default ``<id>-tuned.toml`` here), check that file
    again in full (the verdict is kept for its render), and say what changed. UnplayableError
    when nothing passed, or when the written file fails its check."""
    from boardgen import verdicts
    from boardgen.checks.harness import check
    from boardgen.data.loader import resolve
    from boardgen.engines import load_game
    from boardgen.errors import UnplayableError
    from boardgen.kits.output import write_atomic

    took = f"{outcome.trials} trials, {outcome.pruned} pruned early, {outcome.elapsed_s:.0f} s"
    if outcome.values is None:
        bounds = ", ".join(f"{k.name} {k.low:g}-{k.high:g}" for k in outcome.knobs)
        raise UnplayableError(
            f"{source}: nothing within the bounds of [tune] ({bounds}) passes with margin "
            f"({took}); widen the bounds or name more keys in [tune]"
        )
    engine, layout = load_game(source)
    doc = layout.doc
    if seed is not None:
        doc = Document(doc.name, doc.path, with_values(doc.data, {("game", "default_seed"): seed}), doc.lines)
    if outcome.baseline is not None and changed(outcome.knobs, outcome.values) == 0:
        assert outcome.verdict is not None
        return f"{sentence(outcome, outcome.verdict)} with margin already; nothing to change ({took})"
    data = tuned_data(doc, outcome)
    target = output or Path(f"{data['game']['id']}-tuned.toml")
    moved = ", ".join(describe(k, outcome.values[k.name]) for k in outcome.knobs if outcome.values[k.name] != k.current)
    command = f"boardgen tune {source}" + ("" if seed is None else f" --seed {seed}")
    header = [
        f"{data['game']['id']} tuned by `{command}`: {moved}.",
        "Every value the tuner may change, and its bounds, are in [tune].",
    ]
    values = {k.path: outcome.values[k.name] for k in outcome.knobs}
    if seed is not None:
        values = {("game", "default_seed"): seed, **values}
    write_atomic(target, answer_text(resolve("game", source), target, values, data, header).encode("utf-8"))
    engine, tuned = load_game(str(target))
    if {k: v for k, v in tuned.doc.data.items() if k != "extends"} != {
        k: v for k, v in data.items() if k != "extends"
    }:  # never an answer read back as another layout
        target.unlink()
        raise UnplayableError(
            f"{target}: the written layout does not read back as the tuned one (a path it "
            f"names may be relative to {resolve('game', source).parent}); write it there with -o"
        )
    report = check(engine, tuned, tuned.default_seed)
    verdict = verdict_of(report, float(engine.thresholds(tuned)["max_seat_gap"]))
    if not report.playable:
        target.unlink()
        raise UnplayableError(
            f"{target}: the tuned layout failed its full check again; reasons: " + "; ".join(report.reasons)
        )
    verdicts.store(
        verdicts.verdict_key(engine.name, engine.version, tuned.doc.data, tuned.default_seed), report.to_dict()
    )
    return f"{target}: {sentence(outcome, verdict)} ({took})"


def answer_text(
    source: Path,
    target: Path,
    values: Mapping[tuple[str | int, ...], float],
    data: Mapping[str, Any],
    header: Sequence[str],
) -> str:
    """The layout file `source` as its author wrote it (comments, order, multi-line strings),
    with only the keys of `values` changed (`data` is the tuned layout after `extends`), and
    `header` as comment lines on top. An ``extends`` path that would not lead to the same file
    from the folder of `target` is written as a path that does."""
    import tomlkit

    from boardgen.data import files, toml_write
    from boardgen.data.loader import resolve

    doc = tomlkit.parse(files.read_text(source, what="a layout"))
    for path, value in values.items():
        toml_write.set_value(doc, path, value, data)
    parent = doc.get("extends")
    if isinstance(parent, str):
        there = resolve("game", parent, relative_to=source.parent).resolve()
        try:
            same = resolve("game", parent, relative_to=target.parent).resolve() == there
        except UsageError:
            same = False
        if not same:
            doc["extends"] = os.path.relpath(there, target.resolve().parent)
    lines = "".join(f"# {line}\n" for line in header)
    return lines + "\n" + toml_write.dump(doc)


def nearest_passing_seed(engine: Engine[Any, Any, Any], layout: Any, seed: int, *, tries: int = 6) -> int | None:
    """The passing seed nearest `seed` (the lower first when two are as near), trying at
    most `tries` seeds with the whole check (each verdict kept for the next render), or None."""
    from boardgen import verdicts
    from boardgen.checks.harness import Report, check

    for step in range(1, tries + 1):
        candidate = seed - (step + 1) // 2 if step % 2 else seed + step // 2
        if candidate < 0:
            continue
        key = verdicts.verdict_key(engine.name, engine.version, layout.doc.data, candidate)
        kept = verdicts.load(key)
        report = Report.from_dict(kept) if kept else check(engine, layout, candidate)
        if not kept:
            verdicts.store(key, report.to_dict())
        if report.playable:
            return candidate
    return None


def hint(name: str, seed: int | None) -> str:
    """What to run next after a failing check of `name` (a bundled game or a file) with
    `seed` (None: the layout's): the tuner, and for a bundled game's seed the nearest seed
    that passes."""
    from boardgen.engines import game_names, load_game

    engine, layout = load_game(name)
    seed = layout.default_seed if seed is None else seed
    lines = [
        f"To search for a repair: boardgen tune {name}"
        + ("" if seed == layout.default_seed else f" --seed {seed}")
        + ("" if layout.doc.data.get("tune") else " (after adding a [tune] table: see `boardgen schema`)")
    ]
    if name in game_names():
        near = nearest_passing_seed(engine, layout, seed)
        if near is not None:
            lines.append(f"The nearest passing seed is {near}: boardgen validate {name} --seed {near}")
    return "\n".join(lines)


__all__ = ["Knob", "Outcome", "hint", "knobs", "sentence", "tune", "tuned_data"]
