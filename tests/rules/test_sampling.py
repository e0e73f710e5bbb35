"""Sequential sampling of the self-play check: early stops when settled, the full sample when
not, fixed counts when asked, and the bounds it states worked out by hand."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from boardgen.checks.harness import Check, Extra, Lineup, Report, check, looks
from boardgen.engine import Engine
from boardgen.engines import load_game
from boardgen.rules.protocol import Game, Outcome
from boardgen.rules.simulate import binomial_cdf, quantile_upper_bound, seat_fail_chance, wilson_bounds

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "layouts"

# -- the bounds, by hand -----------------------------------------------------------------------

Z95 = 1.6448536269514722  # the standard normal's 95th percentile (tables: 1.6449)


def test_wilson_lower_bound_of_a_perfect_record_by_hand() -> None:
    # Every trial a success: the one-sided lower bound is n / (n + z^2) = 200 / 202.7055.
    low, high = wilson_bounds(200, 200, 0.95)
    assert low == pytest.approx(0.986653, abs=1e-6)
    assert low == pytest.approx(200 / (200 + Z95**2), rel=1e-12)
    assert high == 1.0


def test_wilson_bounds_of_95_in_100_by_hand() -> None:
    # p = 0.95, z^2 = 2.70554: centre 0.963528, spread 1.64485 * sqrt(0.000475 + 0.0000676)
    # = 0.038316, scale 1.027055.
    low, high = wilson_bounds(95, 100, 0.95)
    assert low == pytest.approx((0.963528 - 0.038316) / 1.027055, abs=2e-5)
    assert high == pytest.approx((0.963528 + 0.038316) / 1.027055, abs=2e-5)
    assert wilson_bounds(0, 0, 0.95) == (0.0, 1.0)


def test_binomial_cdf_and_the_order_statistic_bound_by_hand() -> None:
    # P(Bin(100, 0.95) <= 98) = 1 - 100 * 0.05 * 0.95^99 - 0.95^100 = 0.96292
    assert binomial_cdf(98, 100, 0.95) == pytest.approx(1 - 100 * 0.05 * 0.95**99 - 0.95**100, rel=1e-9)
    values = list(range(1, 101))
    # At 97.5 % the 99th value is not enough (0.963), the 100th is (1 - 0.95^100 = 0.994).
    assert quantile_upper_bound(values, 0.95, 0.975) == 100
    # At 90 % the 99th value is (0.963 >= 0.90) but not the 98th (P(Bin <= 97) = 0.882).
    assert quantile_upper_bound(values, 0.95, 0.90) == 99
    # 50 values cannot bound the 95th percentile at 95 %: 1 - 0.95^50 = 0.923.
    assert quantile_upper_bound(list(range(50)), 0.95, 0.95) is None


def test_the_looks_start_where_a_perfect_completion_could_settle() -> None:
    # Two interim looks at 97.5 % each (z = 1.96): 1.96^2 * 0.95 / 0.05 = 72.99 -> 73 games.
    assert looks(200, sequential=True, least_rate=0.95) == [73, 100, 200]
    # One interim look at 95 % (z = 1.645): 2.7055 * 19 = 51.4 -> 52.
    assert looks(100, sequential=True, least_rate=0.95) == [52, 100]
    assert looks(200, sequential=False, least_rate=0.95) == [200]
    assert looks(24, sequential=True, least_rate=0.9) == [24]


def test_seat_fail_chance_tracks_the_evidence() -> None:
    # Even wins after 100 games leave little chance of a significant 0.15 gap after 200.
    assert seat_fail_chance([50, 50], 100, 0.15, 0.01) < 0.05
    # Wins already 60/40 make a failure at 200 games likely.
    assert seat_fail_chance([60, 40], 100, 0.15, 0.01) > 0.5
    # No more games: the rule as it stands (65/35: gap 0.30, chi-square 9.0, p = 0.0027).
    assert seat_fail_chance([65, 35], 0, 0.15, 0.01) == 1.0
    assert seat_fail_chance([55, 45], 0, 0.15, 0.01) == 0.0


def _fail_chance_by_the_definition(wins: list[int], more: int, max_gap: float, significance: float) -> float:
    """`seat_fail_chance` as its docstring defines it, plainly: stretched shares, 1,000 normal
    draws (seed 0, a fresh stream of exactly as many as the seats need), the rule applied."""
    from boardgen.draws import Draws
    from boardgen.rules.simulate import chi_square_critical

    seats, decided = len(wins), sum(wins)
    even = 1 / seats
    rates = [w / decided for w in wins]
    offsets = [r - even for r in rates]
    observed = max(offsets) - min(offsets)
    target = max(max_gap, max(rates) - min(rates))
    shares = [min(1.0, max(0.0, even + o * target / observed)) for o in offsets]
    shares = [s / sum(shares) for s in shares]
    critical = chi_square_critical(seats - 1, significance)
    normals = Draws(0).normals(1000 * seats)
    failed = 0
    for d in range(1000):
        z = normals[d * seats : (d + 1) * seats]
        common = sum(s**0.5 * x for s, x in zip(shares, z, strict=True))
        counts = [w + more * s + more**0.5 * (s**0.5 * x - s * common) for w, s, x in zip(wins, shares, z, strict=True)]
        total = sum(counts)
        expected = total / seats
        chi = sum((c - expected) ** 2 for c in counts) / expected
        failed += (max(counts) - min(counts)) / total > max_gap and chi > critical
    return failed / 1000


def test_seat_fail_chance_is_its_definition_whatever_was_asked_before() -> None:
    # The normal numbers are one table for every number of seats (a fewer-seat check reads
    # its start): asked in this order, it grows from four seats' worth to six and back.
    for wins, more in (([40, 60], 150), ([30, 20, 25, 25], 200), ([12, 9, 11, 10, 8, 15], 90), ([55, 45], 60)):
        assert seat_fail_chance(wins, more, 0.15, 0.01) == pytest.approx(
            _fail_chance_by_the_definition(wins, more, 0.15, 0.01), abs=0.002
        )


# -- the harness on a toy game -----------------------------------------------------------------


@dataclass(frozen=True)
class Coin(Game[tuple[int, int, int], int]):
    """A toy game: a few decisions, then a winner drawn from the game's seed with `weights`;
    a share `stuck` of the games never ends."""

    weights: tuple[float, ...] = (1.0, 1.0)
    stuck: float = 0.0
    id: str = "coin"

    def initial_state(self, players: int, seed: int) -> tuple[int, int, int]:
        return players, seed, 0

    def to_move(self, state: tuple[int, int, int]) -> int:
        return state[2] % state[0]

    def legal_moves(self, state: tuple[int, int, int]) -> list[int]:
        return [] if self.outcome(state) is not None else [0]

    def apply(self, state: tuple[int, int, int], move: int) -> tuple[int, int, int]:
        return state[0], state[1], state[2] + 1

    def outcome(self, state: tuple[int, int, int]) -> Outcome | None:
        players, seed, turn = state
        rng = random.Random(seed)
        if rng.random() < self.stuck or turn < 3 + rng.randrange(4):
            return None
        winner = rng.choices(range(players), weights=self.weights[:players])[0]
        return Outcome(winner, turn)


@dataclass(frozen=True)
class CoinLayout:
    id: str = "coin"
    players: tuple[int, int] = (2, 2)
    playability: dict[str, Any] = field(default_factory=dict)


class CoinEngine(Engine[Any, Any, Any]):
    name = "coin"
    version = "1"
    schema = "coin"
    defaults = {
        "games_per_player_count": 200,
        "turn_cap": 40,
        "min_completion_rate": 0.95,
        "max_seat_gap": 0.15,
        "seat_gap_significance": 0.01,
        "max_mean_rounds": 10,
        "max_p95_rounds": 10,
    }
    self_play_player = "random"

    def __init__(self, game: Coin) -> None:
        self.coin = game

    def build(self, doc: Any) -> Any:
        raise NotImplementedError

    def setup(self, layout: Any, seed: int) -> Any:
        return layout

    def game(self, layout: Any) -> Coin:
        return self.coin

    def kit(self) -> Any:
        raise NotImplementedError

    def static_checks(self, layout: Any, start: Any, limits: Any) -> list[Check]:
        return []


def sampled(game: Coin, games: int | None = None, seed: int = 1) -> Report:
    return check(CoinEngine(game), CoinLayout(), seed, games=games, workers=1)


def test_a_clearly_settled_case_stops_at_the_first_look() -> None:
    report = sampled(Coin())
    sampling = report.stats["sampling"]
    assert report.playable, report.to_text()
    assert sampling["looks"] == [73, 100, 200]
    assert sampling["stopped"] == "settled"
    assert sampling["games_played"] == 73 and sampling["games_max"] == 200
    assert report.stats["self_play"]["2"]["games"] == 73
    judged = sampling["counts"]["2"]
    assert judged["state"] == "pass" and judged["confidence"] == 0.975
    # 73 of 73 finished: 73 / (73 + 1.96^2) = 0.95001, just over the 95 % minimum.
    assert judged["criteria"]["completion"]["lower_bound"] == round(73 / (73 + 1.959964**2), 4) == 0.95
    assert judged["criteria"]["seat_balance"]["fail_chance"] < 0.10
    text = report.to_text()
    assert "settled after 73 of 200 games" in text
    assert "Sampling: 73 of 200 games played, every criterion settled." in text


def test_a_borderline_completion_rate_plays_the_full_sample() -> None:
    # About one game in twenty never ends: the rate hovers at the 95 % minimum, so no bound
    # can settle it and the last look judges it as a fixed count would.
    report = sampled(Coin(stuck=0.05))
    sampling = report.stats["sampling"]
    assert sampling["stopped"] == "max"
    assert sampling["games_played"] == 200
    assert sampling["counts"]["2"]["final"] is True
    fixed = sampled(Coin(stuck=0.05), games=200)
    assert report.playable == fixed.playable
    assert report.stats["self_play"] == fixed.stats["self_play"]


def test_a_borderline_seat_gap_plays_the_full_sample() -> None:
    report = sampled(Coin(weights=(1.35, 1.0)))
    sampling = report.stats["sampling"]
    assert sampling["games_played"] == 200, report.to_text()
    assert sampling["counts"]["2"]["criteria"]["seat_balance"]["fail_chance"] is None  # judged at the last look


def test_a_fixed_games_count_plays_exactly_that_many() -> None:
    report = sampled(Coin(), games=150)
    sampling = report.stats["sampling"]
    assert sampling["method"] == "fixed" and sampling["looks"] == [150]
    assert sampling["games_played"] == 150 and report.stats["self_play"]["2"]["games"] == 150
    assert "all 150 games" in report.to_text()


def test_games_that_never_end_fail_at_the_first_look() -> None:
    report = sampled(Coin(stuck=1.0))
    sampling = report.stats["sampling"]
    assert not report.playable
    assert sampling["stopped"] == "failed" and sampling["games_played"] == 73
    assert report.reasons[0] == ("self-play, 2 players: 0.0% of 73 games finished within 40 turns (minimum 95%)")


def test_the_sequential_report_is_the_same_for_any_workers_and_reads_back() -> None:
    engine, layout = CoinEngine(Coin(weights=(1.1, 1.0, 1.0), stuck=0.01)), CoinLayout(players=(2, 3))
    one = check(engine, layout, 3, workers=1)
    two = check(engine, layout, 3, workers=2)
    assert one.to_json() == two.to_json()
    again = Report.from_dict(json.loads(one.to_json()))
    assert again.to_text() == one.to_text()


def test_the_bad_fixture_that_cannot_finish_still_fails_with_a_larger_sample() -> None:
    engine, layout = load_game(str(FIXTURES / "turn_cap_too_low.toml"))
    layout = replace(layout, playability={**layout.playability, "games_per_player_count": 300})
    report = check(engine, layout, 1, workers=1)
    assert not report.playable
    assert report.stats["sampling"]["stopped"] == "failed"
    assert report.stats["sampling"]["games_played"] < 900
    assert report.reasons and all(reason.endswith("finished within 3 turns (minimum 95%)") for reason in report.reasons)


class TwoLineups(CoinEngine):
    """A second lineup plays half as many games; the checks over all lineups see both."""

    seen: list[list[int]]

    def self_play_lineups(self, layout: Any, players: int) -> list[Lineup]:
        return [Lineup("", ("random",) * players), Lineup("half", ("random",) * players, 0.5)]

    def self_play_checks(self, layout: Any, sims: Any, limits: Any) -> Extra:
        self.seen.append([sim.games for sim in sims])
        return Extra()


def test_every_lineup_plays_its_share_of_each_look() -> None:
    engine = TwoLineups(Coin())
    engine.seen = []
    report = check(engine, CoinLayout(), 1, workers=1)
    assert report.stats["sampling"]["stopped"] == "settled"
    # Stopped at the first look (73 games): the half lineup played round(36.5) = 36, and the
    # check over every lineup saw both, at the stop and in the report.
    assert engine.seen == [[73, 36], [73, 36]]
    assert report.stats["sampling"]["games_played"] == 109 and report.stats["sampling"]["games_max"] == 300
