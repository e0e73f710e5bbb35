"""The greedy player's fast scoring against a straightforward one built from the rules.

`SlidingGame.score_moves` and `best_moves` flood every shift's board at once (`Lanes`);
here each move is played on its own board (`Board.pushed`, `Board.reach`) and scored with
plain Manhattan distances, and a whole greedy game must make the very same moves.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardgen.data.loader import load
from boardgen.model.sliding import build, deal
from boardgen.model.tiles import STEP
from boardgen.rules import sliding
from boardgen.rules.players import GreedyPlayer, pick_best
from boardgen.rules.simulate import play
from boardgen.rules.sliding import (
    EXIT,
    SHIFT,
    SPARE,
    Board,
    BranchingSample,
    SlidingGame,
    SlidingState,
    YoungExitGame,
    YoungSlidingGame,
)

FIXTURES = Path(__file__).parent.parent / "fixtures" / "layouts"
LAYOUTS = {
    "classic": build(load("game", "classic")),
    "five": build(load("game", str(FIXTURES / "five.toml"))),
    "nine": build(load("game", str(FIXTURES / "nine.toml"))),
}
VARIANTS = {"classic": SlidingGame, "young": YoungSlidingGame, "young-exit": YoungExitGame}
GAMES = {(name, variant): kind(layout) for name, layout in LAYOUTS.items() for variant, kind in VARIANTS.items()}


def manhattan(game: SlidingGame, a: int, b: int) -> int:
    (ra, ca), (rb, cb) = game.geometry.cell(a), game.geometry.cell(b)
    return abs(ra - rb) + abs(ca - cb)


def squares(bits: int) -> list[int]:
    return [sq for sq in range(bits.bit_length()) if (bits >> sq) & 1]


def exits(game: SlidingGame, board: Any) -> list[int]:
    """Squares whose tile opens off the board."""
    size = game.geometry.size
    found = []
    for row in range(size):
        for col in range(size):
            tile = board.tile_at(row, col)
            if any(tile.mask & side and not (0 <= row + dr < size and 0 <= col + dc < size)
                   for side, (dr, dc) in STEP.items()):
                found.append(game.geometry.bit(row, col))
    return found


def reference_scores(game: SlidingGame, state: SlidingState) -> list[tuple[int, int]]:
    """The mover's value of each legal move, one board at a time: (cards still to find plus
    the walk to finish, distance from the squares in reach to the nearest target)."""
    seat = state.seat
    cards = state.cards[seat]
    steps = len(cards) + 1
    wanted = [game.tile_of[c] for c in (cards if isinstance(game, YoungSlidingGame) else cards[:1])]

    def value(board: Any, reach: int) -> tuple[int, int]:
        if cards:
            targets = [sq for sq in (board.locate(t) for t in wanted) if sq != SPARE]
        else:
            targets = exits(game, board) if game.ending is EXIT else [game.homes[seat]]
        if any((reach >> t) & 1 for t in targets):
            return (steps - 1, 0)
        if not targets:
            return (steps, game.geometry.size)
        return (steps, min(manhattan(game, r, t) for r in squares(reach) for t in targets))

    moves = game.legal_moves(state)
    if state.phase == SHIFT:
        scores = []
        for move in moves:
            board = state.board.pushed(move.point, move.rotation)
            pawn = game.geometry.pushes[move.point].carry(state.pawns[seat])
            scores.append(value(board, board.reach(1 << pawn)))
        return scores
    return [value(state.board, 1 << game.geometry.bit(*move.to)) for move in moves]


def reference_best(game: SlidingGame, state: SlidingState) -> list[Any]:
    scores = reference_scores(game, state)
    return [m for m, v in zip(game.legal_moves(state), scores, strict=True) if v == min(scores)]


class ReferenceGreedy:
    """The greedy player on the reference scores."""

    name = "greedy"

    def choose(self, game: Any, state: Any, rng: random.Random) -> Any:
        return pick_best(list(game.legal_moves(state)), reference_scores(game, state), rng)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(GAMES)), st.integers(0, 2**31 - 1), st.sampled_from([2, 3, 4]),
       st.integers(0, 60))
def test_fast_scores_and_best_moves_match_the_reference(key, seed, players, warmup):
    game = GAMES[key]
    rng = random.Random(seed)
    state = game.initial_state(players, seed)
    for _ in range(warmup):  # random moves reach shift and walk phases, cards found, pawns off home
        if game.outcome(state) is not None:
            break
        state = game.apply(state, rng.choice(list(game.legal_moves(state))))
    if game.outcome(state) is not None:
        return
    moves = game.legal_moves(state)
    expected = reference_scores(game, state)
    assert game.score_moves(state, moves, state.seat) == expected
    best = list(game.best_moves(state))
    assert best == reference_best(game, state)
    # Applying a move just scored reuses the flooded boards: same state as from scratch.
    fresh = type(game)(LAYOUTS[key[0]])
    assert game.apply(state, best[0]) == fresh.apply(state, best[0])
    if state.phase == SHIFT:  # also for any order or subset of the moves
        some = list(reversed(moves))[::2]
        assert game.score_moves(state, some, state.seat) == [expected[moves.index(m)] for m in some]
        assert game.count_turns(state) == sum(
            game.apply(state, m).reach.bit_count() for m in moves)


@pytest.mark.parametrize("name, variant, players, seed", [
    ("classic", "classic", 4, 3), ("classic", "classic", 2, 11), ("classic", "young", 3, 5),
    ("five", "classic", 2, 8), ("five", "young-exit", 3, 4), ("nine", "young-exit", 4, 2),
])
def test_a_greedy_game_makes_the_moves_of_the_reference(name, variant, players, seed):
    game = GAMES[(name, variant)]
    played: dict[str, list[Any]] = {"fast": [], "reference": []}

    def recorder(key: str) -> Any:
        return lambda before, move, after: played[key].append(move) or {}

    fast = play(game, [GreedyPlayer()] * players, seed, turn_cap=60, hook=recorder("fast"))
    slow = play(game, [ReferenceGreedy()] * players, seed, turn_cap=60, hook=recorder("reference"))
    assert played["fast"] == played["reference"] and len(played["fast"]) > 20
    assert (fast.winner, fast.turns, fast.finished) == (slow.winner, slow.turns, slow.finished)
    # The game played on plain ints, without states, makes the same moves too.
    trace: list[Any] = []
    plain = game.greedy_game(players, seed, turn_cap=60, trace=trace)
    assert trace == played["reference"]
    assert plain == play(game, [PlainGreedy()] * players, seed, turn_cap=60)


class PlainGreedy(GreedyPlayer):
    """The greedy player, but not of GreedyPlayer's own type: `play` then plays it decision
    by decision through the protocol instead of asking the game's own playout."""


@pytest.mark.parametrize("name, variant, players, seed, cap", [
    ("classic", "classic", 4, 1, 400), ("classic", "classic", 2, 7, 12), ("five", "young-exit", 3, 3, 400),
])
def test_the_games_own_greedy_playout_gives_the_record_of_play(name, variant, players, seed, cap):
    game = GAMES[(name, variant)]

    def hook(before, move, after):  # like the check's branching sample: it sees every state
        return {"turns": 1.0, "reach": float(after.reach.bit_count())} if before.phase == SHIFT else {}

    fast = play(game, [GreedyPlayer()] * players, seed, turn_cap=cap, hook=hook)
    assert fast == game.playout([GreedyPlayer()] * players, seed, turn_cap=cap, hook=hook)
    assert fast == play(game, [PlainGreedy()] * players, seed, turn_cap=cap, hook=hook)
    assert game.playout([PlainGreedy()] * players, seed, turn_cap=cap) is None
    assert fast.finished == (cap == 400) and fast.counters["turns"] == min(fast.turns, cap)


@pytest.mark.parametrize("name, variant, players, seed, cap, every", [
    ("classic", "classic", 4, 5, 400, 8), ("classic", "young", 2, 9, 400, 3), ("classic", "classic", 3, 2, 9, 2),
    ("five", "young-exit", 2, 6, 400, 1), ("nine", "classic", 3, 1, 400, 5), ("nine", "young-exit", 4, 7, 12, 4),
])
def test_the_branching_sample_is_counted_alike_with_and_without_states(name, variant, players, seed, cap, every):
    """The engine's hook is known to the plain-int game: same record as the hook sees it
    through the states, decision by decision."""
    game = GAMES[(name, variant)]
    sample = BranchingSample(game, every)
    slow = play(game, [PlainGreedy()] * players, seed, turn_cap=cap, hook=sample)
    assert play(game, [GreedyPlayer()] * players, seed, turn_cap=cap, hook=sample) == slow
    assert game.greedy_game(players, seed, turn_cap=cap, every=every) == slow
    assert slow.counters["branching_samples"] == len(range(0, min(slow.turns, cap), every))
    assert slow.finished == (cap == 400)


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_the_plain_deal_is_the_board_of_the_deal(name):
    game = SlidingGame(LAYOUTS[name])
    for seed in (0, 1, 77, 2**31 - 1):
        board = Board.from_deal(deal(LAYOUTS[name], seed), game.geometry)
        n, e, s, w, tiles, spare, spare_mask = game.dealt(seed)
        assert (n, e, s, w, tuple(tiles), spare, spare_mask) == (
            board.n, board.e, board.s, board.w, board.tiles, board.spare, board.spare_mask)


def test_the_written_out_draws_are_the_draws_of_random_on_this_python():
    """Self-play writes `choice` and `shuffle` out with `getrandbits`; on this Python that
    must be what `random.Random` does, or the fast path would be off (and so untested)."""
    assert sliding._PLAIN_DRAWS
    for seed in range(50):
        ours, theirs = list(range(seed % 40 + 1)), list(range(seed % 40 + 1))
        sliding._shuffle(random.Random(seed).getrandbits, ours)
        random.Random(seed).shuffle(theirs)
        assert ours == theirs


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_the_lane_tables_are_each_push_applied_alone(name):
    """`Lanes.carried` / `slid` (a push of one bit in every lane) and `split` against each
    lane's own `Push.carry` / `Push.slide` and `Lanes.lane`, with and without a forbidden
    point, for two numbers of orientations of the spare."""
    game = SlidingGame(LAYOUTS[name])
    geometry = game.geometry
    for forbidden in (None, geometry.points[-1]):
        for spare_mask in (0b0101, 0b0011):  # a straight, a corner
            lanes = game.lanes(forbidden, spare_mask)
            for square in (*geometry.squares, SPARE):
                slid = [lanes.lane(lanes.slid(square), k) for k in range(lanes.count)]
                assert slid == [0 if p.slide(square) == SPARE else 1 << p.slide(square) for p in lanes.pushes]
                if square != SPARE:
                    carried = lanes.split(lanes.carried(square))
                    assert carried == [1 << p.carry(square) for p in lanes.pushes]
