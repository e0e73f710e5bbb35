"""The verdict types: what a check says (`Check`), what an engine's extra checks add
(`Extra`), who plays a share of self-play (`Lineup`) and the whole verdict on a layout
(`Report`, with its text, its JSON and its one line for the cover).

A leaf: it imports nothing of boardgen but the printed words, so the engine slot
(`boardgen.engine`), the per-game checks (`boardgen.checks`) and the harness
(`boardgen.checks.harness`) all build on it without a cycle.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from boardgen.data.strings import counts as player_counts
from boardgen.data.strings import word
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
        return cls(name, not problems, f"{len(problems)} problem(s)" if problems else summary, problems)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "ok": self.ok, "summary": self.summary, "problems": list(self.problems)}


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
        return {
            "game": self.game,
            "seed": self.seed,
            "playable": self.playable,
            "reasons": list(self.reasons),
            "checks": [c.to_dict() for c in self.checks],
            "stats": self.stats,
        }

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
            lines += ["", self_play_text(int(count), stats)]
        sampling = self.stats.get("sampling")
        if sampling:
            lines += ["", sampling_text(sampling)]
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
            parts.append(word(lang, "check_games", finished=finished, games=games, players=player_counts(lang, counts)))
        return word(lang, "check_passed", seed=self.seed, parts=word(lang, "check_sep").join(parts))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, target_noun: str = "treasure") -> Report:
        """The report `to_dict` gave (a cached verdict, say)."""
        checks = [Check(c["name"], c["ok"], c["summary"], list(c["problems"])) for c in data["checks"]]
        return cls(
            data["game"],
            data["seed"],
            data["playable"],
            list(data["reasons"]),
            checks,
            dict(data["stats"]),
            target_noun=target_noun,
        )


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
    stream: int | None = None  # whose seeds it plays (a lineup's place in the list; None: its own)


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
    values.update(layout.playability)
    values.update({k: v for k, v in overrides.items() if v is not None})
    return values


def format_distribution(dist: Mapping[str, int]) -> str:
    return ", ".join(f"{count} in {key}" if key != "unreached" else f"{count} unreached" for key, count in dist.items())


def sampling_text(sampling: Mapping[str, Any]) -> str:
    """How much self-play was played and why it stopped, in a few lines."""
    played, most = sampling["games_played"], sampling["games_max"]
    if sampling["method"] == "fixed":
        return f"Sampling: all {played} games played (a fixed count); bounds one-sided at {sampling['confidence']:.0%}."
    why = {
        "settled": "every criterion settled",
        "failed": "a criterion failed for certain",
        "max": "some player count needed the full sample",
    }[sampling["stopped"]]
    interim = len(sampling["looks"]) - 1
    return "\n".join(
        [
            f"Sampling: {played} of {most} games played, {why}.",
            f"  Looks at {', '.join(map(str, sampling['looks']))} games per player count. An early "
            f"decision needs a one-sided bound at {sampling['look_confidence']:.2%}",
            f"  ({sampling['confidence']:.0%} over the {interim} interim looks, Bonferroni): Wilson for "
            "completion, normal for the mean length, order statistic for the p95 length;",
            f"  seat balance settles when the full sample would fail it with under "
            f"{sampling['seat_fail_chance_below']:.0%} chance at the largest allowed gap,",
            "  and is never failed early. The last look judges the figures as a fixed count would.",
        ]
    )


def self_play_text(count: int, stats: dict[str, Any]) -> str:
    rates = " ".join(f"{r:.2f}" for r in stats["seat_win_rates"])
    turn_branching = stats["extra"].get("turn_branching")
    shown = {k: "-" if stats[k] is None else stats[k] for k in ("mean_length", "p95_length", "max_length")}
    lines = [
        f"Self-play, {count} {stats['players'][0]} players ({stats['games']} games, cap {stats['turn_cap']} turns):",
        f"  finished {stats['finished']}/{stats['games']} ({stats['completion_rate']:.1%}), "
        f"length mean {shown['mean_length']} p95 {shown['p95_length']} "
        f"max {shown['max_length']} turns",
        f"  seat win rates {rates} (gap {stats['seat_gap']:.2f}, p = {stats['seat_p']:.3f})",
        f"  moves per decision {stats['branching_mean']}"
        + (f", complete turns on offer {turn_branching:.0f}" if turn_branching else ""),
    ]
    return "\n".join(lines)
