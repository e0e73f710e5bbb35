"""The verdict in words, for the cover and `boardgen validate`: for how many players the
layout was checked, how long a game lasts (the median and nine games in ten, in turns, and
in minutes from the layout's time a turn) and whether the seats are fair. The figures behind
them stay in the report (``validate --json``, ``validate --details``).

It reads a report's plain data (`Report.to_dict`), so a verdict kept from an earlier check
reads the same; a report from before the median was kept uses the mean.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from boardgen.checks.verdict import Report
from boardgen.data.strings import counts, word
from boardgen.model.game import GameInfo

# A turn at the table when the layout does not say (``[game] minutes_per_turn``): a shift and
# a move of the sliding games, a roll and a move of the races.
MINUTES_PER_TURN = 1.0


def _span(lang: str, values: Sequence[float]) -> str:
    low, high = round(min(values)), round(max(values))
    return str(low) if low == high else word(lang, "count_range", low=low, high=high)


def sentences(
    report: Mapping[str, Any],
    lang: str,
    *,
    minutes_per_turn: float | None = None,
    players: tuple[int, int] | None = None,
) -> str:
    """One or two sentences in `lang`: what the report says a player needs to know."""
    if not report.get("playable", False):
        reasons = list(report.get("reasons") or [])
        first = reasons[0] if reasons else "see the report"
        more = word(lang, "check_more", count=len(reasons) - 1) if len(reasons) > 1 else ""
        return word(lang, "check_failed", seed=report.get("seed", "?"), reason=first, more=more)
    stats = report.get("stats", {})
    self_play: Mapping[str, Mapping[str, Any]] = stats.get("self_play", {})
    counted = sorted(int(k) for k in self_play) or (list(range(players[0], players[1] + 1)) if players else [])
    who = counts(lang, counted) if counted else "?"
    played = [s for s in self_play.values() if s.get("finished")]
    if not played:
        return word(lang, "verdict_static", players=who)
    medians = [s.get("median_length") or s["mean_length"] for s in played]
    tails = [s.get("p90_length") or s["p95_length"] for s in played]
    per_turn = MINUTES_PER_TURN if minutes_per_turn is None else minutes_per_turn
    minutes = [
        max(1, round(m * per_turn / 5) * 5) if m * per_turn >= 10 else max(1, round(m * per_turn)) for m in medians
    ]
    length = word(
        lang,
        "verdict_length",
        players=who,
        median=_span(lang, medians),
        p90=round(max(tails)),
        minutes=_span(lang, minutes),
        per_turn=f"{per_turn:g}",
    )
    games = sum(int(s["games"]) for s in self_play.values())
    finished = sum(int(s["finished"]) for s in self_play.values())
    allowed = stats.get("thresholds", {}).get("max_seat_gap")
    gap = max(float(s.get("seat_gap", 0.0)) for s in played)
    # The check passed the seats (a failed one is a reason, said above): a gap over the
    # allowed one was then too small a sample to call, and is said so.
    if allowed is not None and gap > allowed:
        fairness = word(lang, "verdict_fair_unsure", games=finished)
    else:
        fairness = word(lang, "verdict_fair")
    if finished < games:
        fairness += " " + word(lang, "verdict_unfinished", unfinished=games - finished, games=games)
    return f"{length} {fairness}"


def said_verdict(report: Report, lang: str, layout: GameInfo) -> str:
    """The cover's verdict after "Playability: ": passed and the sentences, or why not."""
    data = report.to_dict()
    told = sentences(data, lang, minutes_per_turn=layout.minutes_per_turn, players=layout.players)
    if not data.get("playable", False):
        return told
    return word(lang, "verdict_passed", seed=data["seed"]) + " " + told


def in_words(report: Report, layout: GameInfo) -> str:
    """`boardgen validate` without --details: the verdict, its sentences, the checks by name
    (each failed one with its problems); the figures are in --details and --json."""
    data = report.to_dict()
    verdict = "PLAYABLE" if data["playable"] else "NOT PLAYABLE"
    lines = [
        f"{data['game']} (seed {data['seed']}): {verdict}",
        sentences(data, "en", minutes_per_turn=layout.minutes_per_turn, players=layout.players),
    ]
    passed = [c["name"] for c in data["checks"] if c["ok"]]
    if passed:
        lines.append(f"Checks passed: {'; '.join(passed)}.")
    for check in data["checks"]:
        if not check["ok"]:
            lines.append(f"FAILED {check['name']}: {check['summary']}")
            lines.extend(f"  - {problem}" for problem in check["problems"])
    lines.append("Figures: boardgen validate --details (or --json).")
    return "\n".join(lines)
