"""`boardgen tune --study`: several real `boardgen tune` processes sharing one study, on a real
PostgreSQL server (started here, in a temporary folder, on 127.0.0.1) and on a journal file;
a killed worker's trials taken over; hostile journals and database URLs refused in one line."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import optuna
import postgres
import pytest
from click.testing import CliRunner
from processes import alive, carrying

from boardgen.cli import cli
from boardgen.tune_storage import open_storage

# Fast heartbeats: a killed process is taken for dead 5 beats (2.5 s) after the others last saw it beat.
HEARTBEAT = "0.5"
DEADLINE = 120  # seconds any `tune` here may take on a loaded machine (they take a few)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    folder = postgres.binaries()
    if folder is None:
        if os.environ.get("CI"):
            pytest.fail("CI: PostgreSQL is not installed (.ci/run installs Debian's postgresql package)")
        pytest.skip("PostgreSQL's initdb and pg_ctl are not installed (apt-get install postgresql)")
    with postgres.server(folder) as url:
        yield url


@pytest.fixture
def database(server: str) -> str:
    return postgres.new_database(server)


def layout(tmp_path: Path, five: str, seeds: int) -> Path:
    """The small generated layout with its seed tunable in 1..`seeds`."""
    path = tmp_path / "small.toml"
    text = Path(five).read_text(encoding="utf-8")
    assert "seed = { min = 1, max = 1000 }" in text
    path.write_text(
        text.replace("seed = { min = 1, max = 1000 }", f"seed = {{ min = 1, max = {seeds} }}"), encoding="utf-8"
    )
    return path


def command(path: Path, study: str | None, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "boardgen",
        "tune",
        str(path),
        "--workers",
        "1",
        *extra,
        *(["--study", study] if study else []),
        "-o",
        str(path.parent / "out.toml"),
    ]


def start(cmd: list[str], count: int, cwd: Path) -> list[subprocess.Popen[str]]:
    env = {**os.environ, "BOARDGEN_TUNE_HEARTBEAT": HEARTBEAT}
    return [
        subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(count)
    ]


def trials(storage_url: str) -> list[optuna.trial.FrozenTrial]:
    storage = open_storage(storage_url)
    (summary,) = optuna.get_all_study_summaries(storage)
    return optuna.load_study(study_name=summary.study_name, storage=storage).get_trials(deepcopy=False)


def judged(all_trials: list[optuna.trial.FrozenTrial]) -> list[optuna.trial.FrozenTrial]:
    return [t for t in all_trials if t.state in (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED)]


def sets(found: list[optuna.trial.FrozenTrial]) -> list[str]:
    return sorted(json.dumps(t.params, sort_keys=True) for t in found)


def answer(out: str) -> str:
    """The answer's sentence without its timing."""
    return re.sub(r", \d+ s\)", ")", out.strip())


@pytest.mark.parametrize("count", [2, 4])
def test_processes_started_together_on_postgresql_split_a_grid_and_agree_with_one_process(
    tmp_path: Path, five: str, database: str, count: int
) -> None:
    """A margin no seed meets makes the whole grid of 12 seeds be judged: every process ends,
    each seed was judged once, and the study holds 12 trials."""
    path = layout(tmp_path, five, 12)
    runs = start(command(path, database, "--margin", "0.1"), count, tmp_path)
    outputs = [run.communicate(timeout=DEADLINE) for run in runs]
    assert [run.returncode for run in runs] == [4] * count, outputs
    assert all(
        "nothing within the bounds of [tune] (seed 1-12) passes with margin (12 trials" in err for _, err in outputs
    ), outputs
    done = judged(trials(database))
    assert sorted(t.params["seed"] for t in done) == list(range(1, 13))
    assert len(set(sets(done))) == len(done) == 12


def test_a_passing_grid_on_postgresql_gives_one_process_s_answer(tmp_path: Path, five: str, server: str) -> None:
    """Seed 3 of 1..20 passes narrowly; nearest first, the first seed passing with margin 1 is
    among the last of the grid, so processes judging ahead find later ones: the answer stays."""
    path = layout(tmp_path, five, 20)
    alone = CliRunner().invoke(cli, command(path, None, "--seed", "3", "--margin", "1")[3:])
    assert alone.exit_code == 0 and "passes" in alone.stdout, alone.stderr
    for count in (2, 4):
        database = postgres.new_database(server)
        runs = start(command(path, database, "--seed", "3", "--margin", "1"), count, tmp_path)
        outputs = [run.communicate(timeout=DEADLINE) for run in runs]
        assert [run.returncode for run in runs] == [0] * count, outputs
        # The trials each judged differ; the answer does not.
        assert {answer(out).split(" (")[0] for out, _ in outputs} == {answer(alone.stdout).split(" (")[0]}
        done = judged(trials(database))
        assert len(set(sets(done))) == len(done)


def test_tpe_processes_on_postgresql_judge_the_trials_asked_and_no_values_twice(
    tmp_path: Path, five: str, database: str
) -> None:
    """5000 seeds are too many for a grid: TPE, each process with a seed of its own."""
    path = layout(tmp_path, five, 5000)
    runs = start(command(path, database, "--trials", "10", "--margin", "0.1"), 2, tmp_path)
    outputs = [run.communicate(timeout=DEADLINE) for run in runs]
    assert [run.returncode for run in runs] == [4, 4], outputs
    done = judged(trials(database))
    assert len(done) == 10 and len(set(sets(done))) == 10
    assert all("(10 trials" in err for _, err in outputs), outputs


def wait_for(check, what: str, deadline: float = DEADLINE):
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"gave up waiting for {what}")


def running_of(storage_url: str, pid: int) -> list[optuna.trial.FrozenTrial]:
    try:
        return [
            t
            for t in trials(storage_url)
            if t.state == optuna.trial.TrialState.RUNNING and f":{pid}:" in str(t.user_attrs.get("worker", ""))
        ]
    except ValueError:  # the study is not made yet
        return []


@pytest.mark.parametrize("kind", ["postgresql", "journal"])
def test_a_worker_killed_mid_search_has_its_trials_taken_over(
    tmp_path: Path, five: str, kind: str, request: pytest.FixtureRequest
) -> None:
    study = request.getfixturevalue("database") if kind == "postgresql" else str(tmp_path / "study.log")
    path = layout(tmp_path, five, 12)
    cmd = command(path, study, "--margin", "0.1")
    first, second = start(cmd, 2, tmp_path)

    def holder() -> tuple[subprocess.Popen[str], list[optuna.trial.FrozenTrial]] | None:
        """Whichever process is judging a trial now (on a loaded machine either may join first)."""
        for run in (first, second):
            held = running_of(study, run.pid)
            if held:
                return run, held
        return None

    def stopped_holder() -> tuple[subprocess.Popen[str], list[optuna.trial.FrozenTrial]] | None:
        """A process stopped (SIGSTOP) while it holds a trial: stopped, it cannot finish the
        trial between this look and the kill."""
        found = holder()
        if found is None:
            return None
        run, _ = found
        run.send_signal(signal.SIGSTOP)
        held = running_of(study, run.pid)
        if held:
            return run, held
        run.send_signal(signal.SIGCONT)  # it finished that trial meanwhile: look again
        return None

    victim, taken = wait_for(stopped_holder, "a trial being judged")
    other = second if victim is first else first
    victim.send_signal(signal.SIGKILL)
    victim.wait(timeout=DEADLINE)
    killed_at = time.monotonic()
    out, err = other.communicate(timeout=DEADLINE)
    assert other.returncode == 4, err
    assert time.monotonic() - killed_at < 60  # within a minute of the heartbeat (2.5 s here)
    everything = trials(study)
    done = judged(everything)
    assert sorted(t.params["seed"] for t in done) == list(range(1, 13))
    assert len(set(sets(done))) == 12
    lost = {t.number for t in taken}
    assert all(t.state == optuna.trial.TrialState.FAIL for t in everything if t.number in lost)
    # A rerun finds the study whole: nothing is judged again, the same answer.
    again = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=DEADLINE)
    assert again.returncode == 4 and "(12 trials" in again.stderr, again.stderr
    assert not re.search(r"trial \d+: seed", again.stderr)
    assert len(trials(study)) == len(everything) + 1  # only the rerun's mark of joining


def test_the_worker_processes_of_a_killed_tune_end_with_it(tmp_path: Path, five: str) -> None:
    path = layout(tmp_path, five, 40)
    cmd = [*command(path, str(tmp_path / "study.log"), "--margin", "0.1"), "--workers", "2"]
    (parent,) = start(cmd, 1, tmp_path)
    children = wait_for(
        lambda: len(found := carrying(str(path.parent / "out.toml"), but=parent.pid)) >= 2 and found,
        "the two worker processes",
    )
    parent.send_signal(signal.SIGKILL)
    parent.wait(timeout=DEADLINE)
    wait_for(lambda: not any(alive(pid) for pid in children), "the worker processes to end")


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stderr


def test_database_urls_that_cannot_work_get_one_line(tmp_path: Path, five: str) -> None:
    path = layout(tmp_path, five, 4)
    cases = {
        "postgresql+pg8000://u@127.0.0.1/db": "the postgresql driver 'pg8000' is not installed",
        "mysql://u@127.0.0.1/db": "use mysql+pymysql://... after pip install 'boardgen[mysql]'",
        "nosuchdb://u@h/db": "unknown database type 'nosuchdb'",
        f"sqlite:///{tmp_path}/missing/study.db": f"the folder {tmp_path}/missing does not exist",
        "postgresql://nobody@127.0.0.1:1/db": "cannot use the database",
    }
    for url, message in cases.items():
        code, err = run("tune", str(path), "--study", url)
        assert code == 2 and message in err and "Traceback" not in err, (url, err)
        assert len(err.strip().splitlines()) == 1, err


def test_a_missing_postgres_driver_names_the_extra(tmp_path: Path, five: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """As if psycopg were not installed: importing it fails."""
    monkeypatch.setitem(sys.modules, "psycopg", None)
    code, err = run("tune", str(layout(tmp_path, five, 4)), "--study", "postgresql://u@127.0.0.1/db")
    assert code == 2 and "pip install 'boardgen[postgres]'" in err and "Traceback" not in err, err


def journal(tmp_path: Path) -> Path:
    """A journal Optuna wrote: a study and one trial."""
    path = tmp_path / "study.log"
    storage = open_storage(str(path))
    optuna.create_study(storage=storage, study_name="s").enqueue_trial({"x": 1})
    return path


def test_hostile_journals_are_refused_with_the_file_and_nothing_is_written_through_a_link(
    tmp_path: Path, five: str
) -> None:
    small = str(layout(tmp_path, five, 4))
    real = journal(tmp_path)
    lines = real.read_bytes().splitlines(keepends=True)
    assert len(lines) == 2
    before = real.read_bytes()
    link = tmp_path / "link.log"
    link.symlink_to(real)
    hard = tmp_path / "hard.log"
    os.link(real, hard)
    fifo = tmp_path / "fifo.log"
    os.mkfifo(fifo)
    damaged = {
        "cut.log": (lines[0][:-9] + b"\n" + b"".join(lines[1:]), "cut.log:1: damaged journal line: cut short"),
        "garbage.log": (
            lines[0] + b"\x00\xffnot json at all\n" + b"".join(lines[1:]),
            "garbage.log:2: damaged journal line: not JSON",
        ),
        "nested.log": (
            lines[0] + b"[" * 100_000 + b"]" * 100_000 + b"\n",
            "nested.log:2: damaged journal line: nested too deep",
        ),
        "record.log": (
            lines[0] + b'{"op_code": 99, "worker_id": "w"}\n',
            "record.log:2: damaged journal line: not an Optuna journal record",
        ),
        "tail.log": (b"".join(lines) + b'{"op_code": 4', "tail.log:3: damaged journal line: cut short"),
    }
    for name, (text, _) in damaged.items():
        (tmp_path / name).write_bytes(text)
    cases = {
        str(link): "is a symbolic link",
        str(hard): "has 2 names (hard links)",
        str(fifo): "not a regular file",
        "/dev/null": "not a regular file",
        **{str(tmp_path / name): message for name, (_, message) in damaged.items()},
    }
    for study, message in cases.items():
        if study == str(fifo):  # in a process of its own: a FIFO that blocked would fail the timeout, not hang
            result = subprocess.run(
                [sys.executable, "-m", "boardgen", "tune", small, "--study", study, "--workers", "1"],
                capture_output=True,
                text=True,
                timeout=DEADLINE,
                cwd=tmp_path,
            )
            code, err = result.returncode, result.stderr
        else:
            code, err = run("tune", small, "--study", study, "--workers", "1")
        assert code == 2 and message in err, (study, err)
        assert "Traceback" not in err and len(err) < 600, err
    assert real.read_bytes() == before and not list(tmp_path.glob("*.toml.*"))
    assert (tmp_path / "tail.log").read_bytes() == damaged["tail.log"][0]


def test_a_rerun_after_the_only_process_was_killed_takes_over_its_trials(tmp_path: Path, five: str) -> None:
    """No one is left to notice: the rerun itself sees the dead heartbeat stand still."""
    study = str(tmp_path / "study.log")
    path = layout(tmp_path, five, 8)
    cmd = command(path, study, "--margin", "0.1")
    (victim,) = start(cmd, 1, tmp_path)
    taken = wait_for(lambda: running_of(study, victim.pid), "a trial of the process")
    victim.send_signal(signal.SIGKILL)
    victim.wait(timeout=DEADLINE)
    (rerun,) = start(cmd, 1, tmp_path)
    out, err = rerun.communicate(timeout=DEADLINE)
    assert rerun.returncode == 4 and "(8 trials" in err, err
    everything = trials(study)
    done = judged(everything)
    assert sorted(t.params["seed"] for t in done) == list(range(1, 9))
    lost = {t.number for t in taken}
    assert all(t.state == optuna.trial.TrialState.FAIL for t in everything if t.number in lost)
