"""The generic race engine on a small branching track (see test_race_model for the track)."""

from __future__ import annotations

import pytest
from test_race_model import TRACK, read

from boardgen.model.race import (
    ADVANCE,
    AGAIN,
    BACK,
    DRAW_CARD,
    EXACT,
    FREE_ALL,
    GOTO,
    LOSE_TURNS,
    OUTSIDE,
    ROLL_AGAIN,
    STUCK,
    SWAP_LEADER,
    CardEffect,
    Effect,
    Node,
    Shape,
    TrackGraph,
)
from boardgen.rules.players import GreedyPlayer, RandomPlayer
from boardgen.rules.race import DIE, PASS, IllegalMoveError, Move, RaceGame, RaceState
from boardgen.rules.simulate import play


@pytest.fixture(scope="module")
def game() -> RaceGame:
    _, graph, _ = read(TRACK)
    assert graph is not None
    return RaceGame(graph, players=(2, 4), pieces_per_player=1, dice=1, game_id="tiny")


def at(
    game: RaceGame,
    pos: tuple[int, ...],
    dice: tuple[int, ...] = (3,),
    turn: int = 0,
    free: tuple[int, ...] | None = None,
) -> RaceState:
    return RaceState(len(pos), turn, pos, free or (0,) * len(pos), dice, None, 1)


def test_a_count_offers_one_move_per_branch(game):
    i = game.track.index
    s = at(game, (2, OUTSIDE), dice=(3,))
    assert game.legal_moves(s) == (Move(DIE, 3, 0, 0), Move(DIE, 3, 0, 1))
    central = game.apply(s, Move(DIE, 3, 0, 0))
    assert central.pos[0] == 5 and central.landings == (5,)
    # 5 takes one turn: the piece sits out its owner's next turn.
    assert central.free_at[0] == 0 + 2 * 2
    peripheral = game.apply(s, Move(DIE, 3, 0, 1))
    assert peripheral.pos[0] == i("II")
    assert peripheral.seat == 1 and len(peripheral.dice) == 1


def test_tunnel_exact_count_and_winning(game):
    i = game.track.index
    # Ending on I goes through the tunnel to 1.
    s = game.apply(at(game, (3, OUTSIDE), dice=(1,)), Move(DIE, 1, 0, 1))
    assert s.pos[0] == 1 and s.landings == (i("I"), 1)
    # 6 needs an exact count: from 4 a 4 goes in and comes back to 4.
    s = game.apply(at(game, (4, OUTSIDE), dice=(4,)), Move(DIE, 4, 0, 0))
    assert s.pos[0] == 4
    s = game.apply(at(game, (4, OUTSIDE), dice=(2,)), Move(DIE, 2, 0, 0))
    assert s.winner == 0 and game.outcome(s).winner == 0


def test_a_held_piece_passes(game):
    s = at(game, (5, 3), dice=(2,), turn=2, free=(4, 0))
    assert game.legal_moves(s) == (Move(PASS),)
    with pytest.raises(IllegalMoveError):
        game.apply(s, Move(DIE, 2, 0, 0))


@pytest.mark.parametrize("seats", [2, 3])
def test_playouts_end(game, seats):
    for seed in range(10):
        for player in (GreedyPlayer(), RandomPlayer()):
            record = play(game, [player] * seats, seed, turn_cap=500)
            assert record.finished
    assert game.heuristic(at(game, (6, 1)), 0) < game.heuristic(at(game, (1, 6)), 0)


def test_a_field_that_moves_pieces_on_asks_for_the_way():
    # 3 is reached by exact count and moves a piece on at once, along 4 or I.
    text = TRACK.replace('next = ["4", "I"]', 'next = ["4", "I"]\neffects = [{ kind = "exact" }, { kind = "move_on" }]')
    _, graph, problems = read(text)
    assert problems == [] and graph is not None
    i = graph.index
    assert graph.moves_on(3) == (4, i("I")) and 3 not in graph.forced()
    game = RaceGame(graph, players=(2, 4), pieces_per_player=1, dice=1)
    s = game.apply(at(game, (2, OUTSIDE), dice=(1,)), Move(DIE, 1, 0, 0))
    assert s.pos[0] == 3 and s.offer == ("move_on", 0) and s.seat == 0
    assert game.legal_moves(s) == (Move("move_on", 0, 0, 0), Move("move_on", 0, 0, 1))
    s = game.apply(s, Move("move_on", 0, 0, 1))
    assert s.pos[0] == 1 and s.landings == (i("I"), 1) and s.seat == 1  # I's tunnel, then the turn ends
    # With one way on, moving on is a forced move like a jump.
    _, single, problems = read(TRACK.replace("[fields.II]\n", '[fields.II]\neffects = [{ kind = "move_on" }]\n'))
    assert problems == [] and single is not None
    assert single.forced()[i("II")] == i("III") and single.rest(i("II")) == (i("II"), i("III"))


# -- chance and hold-ups on a hand-built track ------------------------------------------------
# 1-2-3-4-5-6-7-8 in a row, one die: 2 draws a card, 4 holds a piece until another passes
# (or stops on it), 5 moves a piece again by the same count (always, here), 6 holds it until
# another piece stops there and takes its place; 8 is the goal (exact count).


def chance_track() -> TrackGraph:
    effects = {
        2: (Effect(DRAW_CARD),),
        4: (Effect(STUCK, until="passed"),),
        5: (Effect(AGAIN, chance=1.0),),
        6: (Effect(STUCK, until="replaced"),),
        8: (Effect(EXACT),),
    }
    nodes = tuple(
        Node(i, str(i), str(i), Shape.square(10.0 * i, 0.0, 10.0), (i + 1,) if i < 8 else (), i - 1, effects.get(i, ()))
        for i in range(1, 9)
    )
    return TrackGraph(nodes, 1, 8, 100.0, 20.0)


DECK = (
    CardEffect(ADVANCE, steps=2),
    CardEffect(BACK, steps=1),
    CardEffect(FREE_ALL),
    CardEffect(ROLL_AGAIN),
    CardEffect(LOSE_TURNS, turns=1),
    CardEffect(GOTO, to=7),
    CardEffect(SWAP_LEADER),
)


@pytest.fixture(scope="module")
def chancy() -> RaceGame:
    return RaceGame(chance_track(), players=(2, 3), dice=1, deck=DECK)


def table(
    pos: tuple[int, ...],
    *,
    dice: tuple[int, ...] = (1,),
    turn: int = 0,
    stuck: tuple[int, ...] | None = None,
    deck: tuple[int, ...] = (),
) -> RaceState:
    n = len(pos)
    return RaceState(
        n, turn, pos, (0,) * n, dice, None, 7, stuck=stuck or (0,) * n, route=(0,) * n, first_route=(-1,) * n, deck=deck
    )


def test_the_deck_is_shuffled_at_the_start(chancy):
    s = chancy.initial_state(2, 3)
    assert sorted(s.deck) == list(range(len(DECK))) and s.stuck == (0, 0) and s.first_route == (-1, -1)
    assert chancy.initial_state(2, 3) == s


def test_a_card_is_drawn_from_the_top_and_can_lead_to_a_hold(chancy):
    # 1 + 1 = 2 draws the top card (the last of the pile): advance 2, onto 4, which holds.
    s = chancy.apply(table((1, 1), deck=(3, 0)), Move(DIE, 1, 0))
    assert s.pos == (4, 1) and s.stuck == (1, 0) and s.deck == (3,)
    assert s.events == ("card:0",) and s.landings == (2, 4) and s.seat == 1
    # The held piece's seat cannot move on its next turn: it passes.
    assert chancy.legal_moves(table((4, 1), turn=2, stuck=(1, 0))) == (Move(PASS),)


def test_an_empty_deck_is_reshuffled(chancy):
    s = chancy.apply(table((1, 1), deck=()), Move(DIE, 1, 0))
    assert s.events[0] == "reshuffle" and s.events[1].startswith("card:")
    assert len(s.deck) == len(DECK) - 1


def test_passing_a_held_piece_frees_it_and_again_moves_on(chancy):
    # Seat 1: 3 + 2 goes through 4 (freeing the piece there) to 5, which moves it 2 more: 7.
    s = chancy.apply(table((4, 3), dice=(2,), turn=1, stuck=(1, 0)), Move(DIE, 2, 1))
    assert s.pos == (4, 7) and s.stuck == (0, 0) and s.events == ("rescued", "again")


def test_stopping_on_a_held_piece_takes_its_place(chancy):
    s = chancy.apply(table((6, 5), turn=1, stuck=(3, 0)), Move(DIE, 1, 1))
    assert s.pos == (5, 6) and s.stuck == (0, 3) and s.events == ("replaced",)
    # Going past 6 frees no one there.
    s = chancy.apply(table((6, 5), dice=(2,), turn=1, stuck=(3, 0)), Move(DIE, 2, 1))
    assert s.pos == (6, 7) and s.stuck == (3, 0)


def test_a_deadlock_frees_the_seat_to_play(chancy):
    s = table((4, 6), turn=1, stuck=(1, 3))
    assert chancy.legal_moves(s) == (Move(PASS),)
    s = chancy.apply(s, Move(PASS))
    assert s.turn == 2 and s.stuck == (0, 3) and s.events == ("deadlock",)
    assert chancy.legal_moves(s)[0].kind == DIE


@pytest.mark.parametrize(("card", "start", "end"), [(1, 1, 1), (5, 1, 7), (0, 1, 4)])
def test_cards_that_move(chancy, card, start, end):
    # Back 1 from 2 is 1; go to 7; advance 2 onto the hold at 4.
    s = chancy.apply(table((start, 1), deck=(card,)), Move(DIE, 1, 0))
    assert s.pos[0] == end


def test_cards_that_do_not_move(chancy):
    # Roll again: the same seat plays another whole turn, with new dice.
    s = chancy.apply(table((1, 1), deck=(3,)), Move(DIE, 1, 0))
    assert s.seat == 0 and s.turn == 0 and s.again == 1 and len(s.dice) == 1
    # Miss a turn: held until the seat's next turn has passed.
    s = chancy.apply(table((1, 1), deck=(4,)), Move(DIE, 1, 0))
    assert s.free_at[0] == 0 + 2 * 2
    # Every held piece is freed where it stands.
    s = chancy.apply(table((1, 4, 6), deck=(2,), stuck=(0, 1, 3)), Move(DIE, 1, 0))
    assert s.stuck == (0, 0, 0) and s.pos == (2, 4, 6) and s.events == ("card:2", "freed", "freed")
    # Change places with the piece nearest the goal, which is held: both are free after.
    s = chancy.apply(table((1, 6, 4), deck=(6,), stuck=(0, 3, 1)), Move(DIE, 1, 0))
    assert s.pos == (6, 2, 4) and s.stuck == (0, 0, 1) and "swap" in s.events


def test_expected_turns_fall_towards_the_goal(chancy):
    e = chancy.expected
    assert e[8] == 0 and e[7] < e[3] < e[1] < e[OUTSIDE]
    # From 7 a 1 enters the goal; a 2 bounces back to 7; 3 stops on the hold at 6 (counted
    # 10 turns), 4 on 5, 5 on the hold at 4 (counted 4 turns), 6 on 3.
    assert e[7] == pytest.approx(1 + (0 + e[7] + e[6] + 10 + e[5] + e[4] + 4 + e[3]) / 6, abs=0.01)


def test_one_die_may_make_an_exact_count():
    game = RaceGame(chance_track(), players=(2, 2), dice=2, exact_one_die=True)
    s = RaceState(2, 0, (6, 1), (0, 0), (2, 5), None, 7, stuck=(0, 0), route=(0, 0), first_route=(-1, -1))
    moves = game.legal_moves(s)
    assert Move(DIE, 2, 0) in moves and Move(DIE, 7, 0) in moves and Move(DIE, 5, 0) not in moves
    assert game.apply(s, Move(DIE, 2, 0)).winner == 0
    # 6 + 7 goes in at 8 after 2 and comes back 5: to 3.
    assert game.apply(s, Move(DIE, 7, 0)).pos[0] == 3


def plain_value_iteration(game: RaceGame) -> list[float]:
    """`RaceGame.expected` as first written: every end of every roll valued one by one (the
    reference the faster sweep must match float for float: greedy ties hang on these)."""
    from boardgen.model.race import STUCK_UNTIL
    from boardgen.rules.race import STUCK_COST, dice_rolls

    size = len(game.track) + 1
    cost = [0.0] * size
    for f in game.track.indexes:
        if game.hold[f]:
            cost[f] = STUCK_COST[STUCK_UNTIL[game.hold[f] - 1]]
        elif game.trap[f]:
            cost[f] = float(game.trap[f])
    value = [0.0] * size

    def rest(end: int) -> float:
        field = game.chain[end][-1]
        ways = game.ways_on[field]
        if ways:
            return min(value[game.chain[w][-1]] + cost[game.chain[w][-1]] for w in ways)
        return value[field] + cost[field]

    options = []
    for f in range(size):
        per_roll = []
        for faces, chance in dice_rolls(game.dice_count):
            ends = list(game.ends[f][sum(faces)])
            if game.exact_one_die:
                ends += [e for die in set(faces) for e in game.ends[f][die] if game.exact[e]]
            per_roll.append((chance, ends))
        options.append(per_roll)
    for _ in range(500):
        change = 0.0
        for i in sorted(range(size), key=lambda i: game._distance[i]):
            if i == game.goal:
                continue
            total = 1.0
            for chance, ends in options[i]:
                total += chance * (min(rest(e) for e in ends) if ends else value[i])
            change = max(change, abs(total - value[i]))
            value[i] = total
        if change < 1e-3:
            break
    return value


def test_expected_turns_are_the_plain_value_iteration(chancy):
    import dataclasses

    from boardgen.data.loader import load
    from boardgen.model import grand
    from boardgen.rules.grand import GrandGame

    layout = grand.build(load("game", "grand"))
    games = [
        chancy,
        RaceGame(chance_track(), players=(2, 2), dice=2, exact_one_die=True),
        GrandGame(layout),
        GrandGame(dataclasses.replace(layout, exact_one_die=False)),
    ]
    for game in games:
        assert game.expected == plain_value_iteration(game)


@pytest.mark.parametrize("rng", [0, 1, 2**63, 2**64 - 1, 0x0123456789ABCDEF, 0xFEDCBA9876543210])
def test_a_block_of_draws_is_the_draws_one_by_one(rng):
    """`random_block` (the fast playouts' dice) against `next_random` called in turn, and
    the count of draws between two states read back from them."""
    from boardgen.rules.race import BLOCK, MASK, STEP_INVERSE, next_random, random_block, shuffled

    state, draws = rng, []
    for _ in range(2 * BLOCK):
        state, z = next_random(state)
        draws.append(z)
    assert random_block(rng) == draws[:BLOCK]
    assert ((state - rng) * STEP_INVERSE) & MASK == 2 * BLOCK
    # A shuffle longer than a block takes its draws in turn too.
    items = list(range(100))
    for i, z in zip(range(99, 0, -1), draws, strict=False):
        j = (z * (i + 1)) >> 64  # the high bits: `draws.below_of`
        items[i], items[j] = items[j], items[i]
    after = rng
    for _ in range(99):
        after = next_random(after)[0]
    assert shuffled(rng, 100) == (after, items)


def test_the_opening_draws_as_rolling_and_shuffling_one_by_one(chancy):
    """`initial_state` (drawn a block at a time, see `RaceGame.opening`) against the dice
    rolled and the deck shuffled one `next_random` at a time, on games with and without a
    deck."""
    from boardgen.data.loader import load
    from boardgen.model import grand, minos
    from boardgen.rules.grand import GrandGame
    from boardgen.rules.minos import MinosGame
    from boardgen.rules.race import MASK, next_random, roll

    def reference(game: RaceGame, players: int, seed: int) -> tuple[tuple[int, ...], int, tuple[int, ...]]:
        rng = next_random(seed & MASK)[1]
        dice = []
        for _ in range(game.dice_count):
            rng, face = roll(rng)
            dice.append(face)
        items = list(range(len(game.deck)))
        for i in range(len(items) - 1, 0, -1):
            rng, z = next_random(rng)
            j = (z * (i + 1)) >> 64  # the high bits: `draws.below_of`
            items[i], items[j] = items[j], items[i]
        return tuple(dice), rng, tuple(items)

    games = [chancy, GrandGame(grand.build(load("game", "grand"))), MinosGame(minos.build(load("game", "minos")))]
    for game in games:
        low, high = game.players
        for seed in (0, 1, 99, 2**31 - 1, 2**64 + 3):
            state = game.initial_state(high, seed)
            assert (state.dice, state.rng, state.deck) == reference(game, high, seed)
            assert state.pos == (OUTSIDE,) * (high * game.per)
