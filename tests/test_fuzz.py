"""Fuzzing, kept to a few seconds: mutated layouts and themes, and hostile option values through
the command line. Every case ends in success or a BoardgenError (a clear message and a
non-zero exit), never a traceback or a hang. The long run is benchmarks/fuzz_hostile.py.
"""

from __future__ import annotations

import random

import pytest
from fuzzing import (
    PDF_ATTACKS,
    RULES_ATTACKS,
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
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardgen.data.loader import bundled_names

FAST = settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def assert_handled(outcome) -> None:
    assert outcome.category in ("ok", "error"), outcome.detail


@FAST
@given(base=st.sampled_from(bundled_names("game")), seed=st.integers(0, 2**32), rounds=st.integers(1, 3))
def test_mutated_layouts(tmp_path, base, seed, rounds):
    raw = mutate(bundled_text("games", base), random.Random(seed), rounds)
    assert_handled(classify(layout_case(tmp_path, base, raw), seconds=60))


@FAST
@given(
    base=st.sampled_from(bundled_names("theme")),
    game=st.sampled_from(bundled_names("game")),
    seed=st.integers(0, 2**32),
    rounds=st.integers(1, 3),
)
def test_mutated_themes(tmp_path, base, game, seed, rounds):
    raw = mutate(bundled_text("themes", base), random.Random(seed), rounds)
    assert_handled(classify(theme_case(tmp_path, raw, game), seconds=60))


@pytest.fixture
def no_check(monkeypatch):
    monkeypatch.setattr("boardgen.kit.require_playable", lambda report, *args, **kwargs: report)


@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(seed=st.integers(0, 2**32))
def test_hostile_options(tmp_path, no_check, seed):
    rng = random.Random(seed)
    args = render_args(rng) + ["--no-preview", "--no-svg"] if rng.random() < 0.6 else command_args(rng)
    outcome = classify(cli_case(args, tmp_path / "out"), seconds=120)
    assert_handled(outcome)


@settings(
    max_examples=len(RULES_ATTACKS),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(attack=st.sampled_from(RULES_ATTACKS), seed=st.integers(0, 2**32))
def test_hostile_house_rules(tmp_path, attack, seed):
    outcome = classify(house_rules_case(tmp_path, random.Random(seed), attack), seconds=60)
    assert_handled(outcome)
    if attack in ("fifo", "link", "huge", "bad-byte"):
        assert outcome.category == "error", outcome.detail


@settings(
    max_examples=len(PDF_ATTACKS),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(attack=st.sampled_from(PDF_ATTACKS), seed=st.integers(0, 2**32))
def test_hostile_pdfs_for_preflight(tmp_path, attack, seed):
    outcome = classify(pdf_case(tmp_path, random.Random(seed), attack), seconds=60)
    assert_handled(outcome)
    if attack in ("prefix", "not-pdf", "many-pages"):
        assert outcome.category == "error", outcome.detail
