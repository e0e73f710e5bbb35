"""Checks every game's self-play shares: one player count's figures as a check."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from boardgen.checks.verdict import Check
from boardgen.rules.simulate import SimulationStats


def self_play_check(
    sim: SimulationStats, limits: Mapping[str, Any], *, unit: Literal["turns", "rounds"] = "turns", extra: str = ""
) -> Check:
    """Self-play figures for one player count as a check.

    Always: completion (``min_completion_rate``) and seat balance (``max_seat_gap``, failing
    only when also significant at ``seat_gap_significance``). Game length in rounds (turns
    per seat), each only when `limits` has it: ``max_mean_rounds``, ``max_p95_rounds``.
    The summary gives lengths in `unit`, turns as played or rounds, then `extra`.
    """
    name = f"self-play, {sim.seats} players"
    problems = []
    if sim.completion_rate < limits["min_completion_rate"]:
        problems.append(
            f"{name}: {sim.completion_rate:.1%} of {sim.games} games finished "
            f"within {sim.turn_cap} turns (minimum "
            f"{limits['min_completion_rate']:.0%})"
        )
    mean_rounds = None if sim.mean_length is None else sim.mean_length / sim.seats
    p95_rounds = None if sim.p95_length is None else sim.p95_length / sim.seats
    most = limits.get("max_mean_rounds")
    if most is not None and mean_rounds is not None and mean_rounds > most:
        problems.append(f"{name}: games last {mean_rounds:.1f} rounds on average (maximum {most})")
    most = limits.get("max_p95_rounds")
    if most is not None and p95_rounds is not None and p95_rounds > most:
        problems.append(f"{name}: 95% of games take up to {p95_rounds:.1f} rounds (maximum {most})")
    # A gap only fails when it is also unlikely to be the luck of the sample.
    if sim.finished and sim.seat_gap > limits["max_seat_gap"] and sim.seat_p < limits["seat_gap_significance"]:
        rates = ", ".join(f"{r:.2f}" for r in sim.seat_win_rates)
        problems.append(
            f"{name}: seat win rates {rates} differ by {sim.seat_gap:.2f} "
            f"(maximum {limits['max_seat_gap']:.2f}; p = {sim.seat_p:.4f} that "
            f"equal seats would differ this much)"
        )
    if unit == "rounds":
        mean = "-" if mean_rounds is None else f"{mean_rounds:.1f}"
        p95: object = "-" if p95_rounds is None else f"{p95_rounds:.1f}"
    else:
        mean = "-" if sim.mean_length is None else f"{sim.mean_length:.1f}"
        p95 = sim.p95_length or "-"
    summary = (
        f"{sim.finished}/{sim.games} finished, mean {mean} {unit}, p95 {p95}, "
        f"seat gap {sim.seat_gap:.2f} (p = {sim.seat_p:.2f}){extra}"
    )
    return Check(name, not problems, summary, problems)
