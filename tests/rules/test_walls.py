"""The moving-walls rules: move counts worked out by hand, an independent slow move generator
on the bundled start and on random positions, and the edge cases of the rules."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from boardgen.data.loader import load
from boardgen.errors import DataError
from boardgen.model.walls import WallsLayout, build, placement_problems, rotate
from boardgen.rules.walls import BLOCK, PASS, PAWN, SEALED, Move, WallsGame, WallsState, distance, find_player

FIXTURES = Path(__file__).parent.parent / "fixtures" / "layouts"
Cell = tuple[int, int]


def layout(name: str) -> WallsLayout:
    path = name if name == "walls" else str(FIXTURES / f"{name}.toml")
    return build(load("game", path))


def place(game: WallsGame, state: WallsState, pawns: dict[int, Cell]) -> WallsState:
    """The state with some pawns moved to the given cells."""
    bits = list(state.pawns)
    for index, cell in pawns.items():
        bits[index] = game.geometry.bit(cell)
    mask = 0
    for bit in bits:
        mask |= 1 << bit
    return state._replace(pawns=tuple(bits), pawn_mask=mask)


def later(state: WallsState) -> WallsState:
    """The same position one round on, the same seat to move: past the game's first turn,
    whose order is fixed (a pawn, then a block), so the mover chooses the order."""
    return state._replace(turn=state.turn + state.seats)


def cells_of(game: WallsGame, move: Move) -> Cell:
    return game.geometry.cell(move.target)


# -- an independent, slow move generator on sets of cells -----------------------------------

STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))


def naive_moves(lay: WallsLayout, game: WallsGame, state: WallsState) -> set[tuple[str, object, object, object]]:
    """Every legal decision, computed from the rules' words on sets of cells."""
    g = game.geometry
    size = lay.size
    blocks = [set(g.cells(mask)) for mask in state.blocks]
    walls = set().union(*blocks)
    pawns = [g.cell(bit) for bit in state.pawns]
    taken = set(pawns)
    centre = set(lay.centre)
    seat = state.turn % state.seats
    out: set[tuple[str, object, object, object]] = set()
    if not state.pawn_done:
        for index in range(seat * lay.pawns_per_player, (seat + 1) * lay.pawns_per_player):
            r, c = pawns[index]
            for dr, dc in STEPS:
                k = 1
                while 0 <= r + k * dr < size and 0 <= c + k * dc < size and (r + k * dr, c + k * dc) not in walls:
                    cell = (r + k * dr, c + k * dc)
                    if cell in taken:
                        if (r, c) not in centre and cell in centre:
                            for free in centre - taken:
                                out.add(("pawn", index, cell, free))
                        break
                    out.add(("pawn", index, cell, None))
                    k += 1
    # The source's first turn: the first player moves a pawn, then a block.
    if not state.block_done and not (state.turn == 0 and out):
        for index, cells in enumerate(blocks):
            if index == state.previous:
                continue
            others = walls - cells
            for dr, dc in STEPS:
                k = 1
                while True:
                    moved = {(r + k * dr, c + k * dc) for r, c in cells}
                    if any(not (0 <= r < size and 0 <= c < size) for r, c in moved):
                        break
                    if moved & (others | taken | centre):
                        break
                    touching = {(r + a, c + b) for r, c in moved for a in (-1, 0, 1) for b in (-1, 0, 1)}
                    if touching & others:
                        out.add(("block", index, (k * dr, k * dc), None))
                    k += 1
    return out or {("pass", None, None, None)}


def engine_moves(game: WallsGame, state: WallsState) -> set[tuple[str, object, object, object]]:
    g = game.geometry
    out: set[tuple[str, object, object, object]] = set()
    for move in game.legal_moves(state):
        if move.kind == PAWN:
            out.add(("pawn", move.piece, g.cell(move.target), g.cell(move.extra) if move.extra >= 0 else None))
        elif move.kind == BLOCK:
            # Slides are along one line: a multiple of the row width is vertical.
            step = (move.target // g.width, 0) if move.target % g.width == 0 else (0, move.target)
            out.add(("block", move.piece, step, None))
        else:
            out.add(("pass", None, None, None))
    return out


# -- counts worked out by hand --------------------------------------------------------------


def test_small_position_first_decisions_counted_by_hand() -> None:
    # Red pawn on (0, 0); block A1 on (0,2)-(0,3), A2 on (2,0)-(2,1); centre rows/cols 3-5.
    # Pawn: right to (0,1), down to (1,0). A1: down 1 or 2 (touching A2 at a corner, then a
    # side; down 3 would cross the centre); left 1 touches nothing, right never touches A2.
    # A2: up 1 (touching A1 at a corner); up 2 lands on the pawn; right and down touch nothing.
    lay = layout("walls_small")
    game = WallsGame(lay)
    state = later(game.initial_state(2))
    moves = game.legal_moves(state)
    pawn = sorted(cells_of(game, m) for m in moves if m.kind == PAWN)
    blocks = sorted((lay.blocks[m.piece].id, m.target // game.geometry.width) for m in moves if m.kind == BLOCK)
    assert pawn == [(0, 1), (1, 0)]
    assert blocks == [("A1", 1), ("A1", 2), ("A2", -1)]
    assert len(moves) == 5


def test_small_position_whole_turns_counted_by_hand() -> None:
    # Pawn first: to (0,1) then 3 block slides (A2 up still free); to (1,0) then 2 (A2 up is
    # now on the pawn; A1 left to (0,0)-(0,1) touches nothing). Block first: A1 down 1 or
    # down 2 opens row 0: 8 slides right + 1 down each; A2 up leaves (0,1) only: 9+9+1.
    game = WallsGame(layout("walls_small"))
    state = later(game.initial_state(2))
    turns = {move: len(game.legal_moves(game.apply(state, move))) for move in game.legal_moves(state)}
    by_kind = {PAWN: 0, BLOCK: 0}
    for move, count in turns.items():
        by_kind[move.kind] += count
    assert by_kind == {PAWN: 5, BLOCK: 19}
    assert sum(turns.values()) == 24


def test_bundled_start_move_counts_match_a_slow_generator() -> None:
    lay = layout("walls")
    game = WallsGame(lay)
    counts = {}
    for seats in lay.player_counts:
        state = later(game.initial_state(seats))
        assert engine_moves(game, state) == naive_moves(lay, game, state)
        moves = game.legal_moves(state)
        counts[seats] = (sum(m.kind == PAWN for m in moves), sum(m.kind == BLOCK for m in moves))
    # With four players the blocks next to the yellow and blue corners lose slides onto
    # those corners' pawns.
    assert counts == {2: (25, 146), 4: (25, 144)}
    # Whole turns (pawn then block, or block then pawn), the second half from the slow generator.
    state = later(game.initial_state(2))
    turns = sum(len(naive_moves(lay, game, game.apply(state, move))) for move in game.legal_moves(state))
    assert turns == sum(len(game.legal_moves(game.apply(state, move))) for move in game.legal_moves(state)) == 7285


def test_random_positions_match_the_slow_generator() -> None:
    lay = layout("walls")
    game = WallsGame(lay)
    rng = random.Random(3)
    for seats in lay.player_counts:
        state = game.initial_state(seats)
        for _ in range(60):
            assert engine_moves(game, state) == naive_moves(lay, game, state)
            if game.outcome(state) is not None:
                break
            state = game.apply(state, rng.choice(game.legal_moves(state)))


def test_pawn_move_distances_worked_out_by_hand() -> None:
    # From (0,0): one move reaches (0,1) or (1,0); a second reaches row 1 or (1,1); the
    # third drops down column 3, 4 or 5 into the centre. Nothing shorter: three moves.
    game = WallsGame(layout("walls_small"))
    state = game.initial_state(2)
    g = game.geometry
    full = g.levels(state.walls)
    assert [len(g.cells(level)) for level in full[:1]] == [9]
    assert distance(full, g.bit((0, 0))) == 3
    assert distance(full, g.bit((1, 4))) == 1 and distance(full, g.bit((4, 4))) == 0
    # Stopping once both pawns have their level changes no distance.
    early = g.levels(state.walls, until=state.pawn_mask)
    assert len(early) <= len(full)
    assert [distance(early, bit) for bit in state.pawns] == [distance(full, bit) for bit in state.pawns]
    # Walling off the centre entirely leaves every outside square sealed.
    ring = g.mask([(r, c) for r in range(2, 7) for c in range(2, 7)]) & ~g.centre
    sealed = g.levels(ring)
    assert distance(sealed, g.bit((0, 0))) == SEALED


# -- rule edge cases --------------------------------------------------------------------------


def test_pawns_never_jump_pawns_or_blocks() -> None:
    game = WallsGame(layout("walls_small"))
    state = place(game, game.initial_state(2), {1: (0, 1)})  # green right next to red
    pawn = [cells_of(game, m) for m in game.legal_moves(state) if m.kind == PAWN]
    assert pawn == [(1, 0)]  # right is blocked by the green pawn, down stops before A2


def test_a_block_must_end_touching_another_block() -> None:
    lay = layout("walls_small")
    game = WallsGame(lay)
    state = game.initial_state(2)
    a1 = [m for m in game.legal_moves(state) if m.kind == BLOCK and lay.blocks[m.piece].id == "A1"]
    # Left by one and every slide to the right are free squares but touch nothing.
    assert all(m.target > 0 and m.target % game.geometry.width == 0 for m in a1)


def test_a_block_never_crosses_or_stops_on_a_pawn() -> None:
    lay = layout("walls_small")
    game = WallsGame(lay)
    state = place(game, game.initial_state(2), {1: (1, 3)})  # green under A1's right half
    a1 = [m for m in game.legal_moves(state) if m.kind == BLOCK and lay.blocks[m.piece].id == "A1"]
    assert a1 == []


def test_the_previous_players_block_stays_put_for_one_turn() -> None:
    lay = layout("walls_small")
    game = WallsGame(lay)
    state = later(game.initial_state(2))
    down = next(m for m in game.legal_moves(state) if m.kind == BLOCK and lay.blocks[m.piece].id == "A1")
    state = game.apply(state, down)
    state = game.apply(state, next(m for m in game.legal_moves(state) if m.kind == PAWN))
    assert game.to_move(state) == 1 and state.previous == down.piece
    assert all(m.piece != down.piece for m in game.legal_moves(state) if m.kind == BLOCK)
    # Green moves A2; on red's turn A1 is free again and A2 is the one held back.
    a2 = next(m for m in game.legal_moves(state) if m.kind == BLOCK)
    state = game.apply(state, a2)
    state = game.apply(state, game.legal_moves(state)[0])
    assert state.previous == a2.piece
    assert {m.piece for m in game.legal_moves(state) if m.kind == BLOCK} <= {down.piece}


def test_either_order_and_a_part_that_cannot_be_played_is_skipped() -> None:
    lay = layout("walls_small")
    game = WallsGame(lay)
    state = later(game.initial_state(2))
    # Red walls itself in: A2 up to (1,0)-(1,1); then its pawn can only go right to (0,1).
    up = next(m for m in game.legal_moves(state) if m.kind == BLOCK and m.target < 0)
    after = game.apply(state, up)
    assert {m.kind for m in game.legal_moves(after)} == {PAWN}
    # Pawn first, block second: both parts done ends the turn.
    pawn = next(m for m in game.legal_moves(state) if m.kind == PAWN and cells_of(game, m) == (1, 0))
    after = game.apply(state, pawn)
    assert {m.kind for m in game.legal_moves(after)} == {BLOCK}
    done = game.apply(after, game.legal_moves(after)[0])
    assert done.turn == state.turn + 1 and game.to_move(done) == 1
    # Green beside red, then A2 up under red: red's pawn has nowhere to go, the turn passes.
    boxed = place(game, state, {1: (0, 1)})
    up = next(m for m in game.legal_moves(boxed) if m.kind == BLOCK and m.target < 0)
    after = game.apply(boxed, up)
    assert game.legal_moves(after) == [Move(PASS)]
    passed = game.apply(after, Move(PASS))
    assert passed.turn == state.turn + 1 and game.to_move(passed) == 1 and passed.previous == up.piece


def test_entering_the_centre_pushes_the_first_pawn_met_to_a_free_square() -> None:
    game = WallsGame(layout("walls_small"))
    state = place(game, game.initial_state(2), {0: (4, 0), 1: (4, 3)})
    pushes = [m for m in game.legal_moves(state) if m.kind == PAWN and m.extra >= 0]
    # Red slides right into (4,3) and green goes to any of the 8 other centre squares.
    assert {cells_of(game, m) for m in pushes} == {(4, 3)}
    assert len(pushes) == 8
    after = game.apply(state, pushes[0])
    assert game.geometry.cell(after.pawns[0]) == (4, 3)
    assert game.geometry.cell(after.pawns[1]) == game.geometry.cell(pushes[0].extra)
    outcome = game.outcome(after)
    assert outcome is not None and outcome.winner == 0  # one pawn wins here


def test_no_push_from_inside_the_centre() -> None:
    game = WallsGame(layout("walls_small"))
    state = place(game, game.initial_state(2), {0: (4, 3), 1: (4, 5)})
    state = state._replace(turn=1)  # green, inside the centre, slides towards red
    assert not [m for m in game.legal_moves(state) if m.kind == PAWN and m.extra >= 0]


def test_a_full_centre_allows_no_push() -> None:
    lay = layout("walls_crowd")
    game = WallsGame(lay)
    centre = sorted(lay.centre)
    # Red has 4 pawns in the centre, green 5: all 9 squares full, nobody has won (8 needed).
    cells = {i: centre[i] for i in range(4)} | {8 + i: centre[4 + i] for i in range(5)}
    cells[4] = (5, 0)  # a red pawn level with the centre's middle row
    state = place(game, game.initial_state(2), cells)
    assert game.outcome(state) is None
    moves = [m for m in game.legal_moves(state) if m.kind == PAWN and m.piece == 4]
    assert not [m for m in moves if m.extra >= 0]
    assert (5, 3) in {cells_of(game, m) for m in moves} and (5, 4) not in {cells_of(game, m) for m in moves}


def test_three_pawns_in_the_centre_win_at_once() -> None:
    lay = layout("walls")
    game = WallsGame(lay)
    state = place(game, game.initial_state(2), {0: (9, 9), 1: (9, 10), 2: (10, 8)})
    move = next(m for m in game.legal_moves(state) if m.kind == PAWN and m.piece == 2 and cells_of(game, m) == (10, 9))
    after = game.apply(state, move)
    outcome = game.outcome(after)
    assert outcome is not None and outcome.winner == 0
    assert game.legal_moves(after) == []
    assert state.winner == -1  # apply never changes the state it is given


def test_three_player_games_are_refused() -> None:
    game = WallsGame(layout("walls"))
    with pytest.raises(ValueError, match="2 or 4 players"):
        game.initial_state(3)


@pytest.mark.parametrize("player", ["random", "heuristic", "search"])
def test_players_play_legal_moves_to_the_end(player: str) -> None:
    game = WallsGame(layout("walls"))
    rng = random.Random(1)
    state = game.initial_state(2)
    seats = [find_player(player), find_player("heuristic")]
    for _ in range(400 if player != "random" else 60):
        if game.outcome(state) is not None:
            break
        move = seats[game.to_move(state)].choose(game, state, rng)
        assert move in game.legal_moves(state)
        state = game.apply(state, move)
    if player != "random":
        assert game.outcome(state) is not None


def test_search_beats_the_heuristic_player() -> None:
    game = WallsGame(layout("walls"))
    wins = 0
    for seed in range(4):
        rng = random.Random(seed)
        seats = [find_player("search"), find_player("heuristic")]
        if seed % 2:
            seats.reverse()
        state = game.initial_state(2)
        while game.outcome(state) is None and state.turn < 200:
            state = game.apply(state, seats[game.to_move(state)].choose(game, state, rng))
        outcome = game.outcome(state)
        # a draw (no winner) is no win for the search player
        wins += outcome is not None and outcome.winner is not None and seats[outcome.winner].name == "search"
    assert wins >= 3


# -- the layout ---------------------------------------------------------------------------------


def test_bundled_blocks_are_quartered_and_clear_of_centre_and_corners() -> None:
    lay = layout("walls")
    assert lay.size == 21 and len(lay.blocks) == 32
    assert placement_problems(lay) == []
    cells = {cell for block in lay.blocks for cell in block.cells}
    turned = {rotate(cell, lay.size) for cell in cells}
    assert cells == turned
    assert not cells & lay.centre
    assert not cells & {c for colour in lay.colours for c in lay.corner(colour)}
    for letter in "ABCD":
        assert len({b.shape for b in lay.blocks if b.id.startswith(letter)}) == 8


def test_broken_placements_are_named() -> None:
    lay = layout("walls")
    moved = [replace(b, cells=tuple((r + 1, c + 4) for r, c in b.cells)) if b.id == "A8" else b for b in lay.blocks]
    problems = placement_problems(replace(lay, blocks=tuple(moved)))
    assert any("A8" in p and "centre" in p for p in problems)
    assert any("D8 turned a quarter" in p and "A8" in p for p in problems)
    alone = [replace(b, cells=((6, 18), (6, 19))) if b.id == "C6" else b for b in lay.blocks]
    assert any("C6 touches no other block" in p for p in placement_problems(replace(lay, blocks=tuple(alone))))


def test_bad_block_data_is_refused_with_its_place(tmp_path: Path) -> None:
    text = (FIXTURES / "walls_small.toml").read_text(encoding="utf-8")
    bad = text.replace('shape = "I2"\ncells = [[2, 0], [2, 1]]', 'shape = "L3"\ncells = [[2, 0], [0, 3]]')
    path = tmp_path / "bad.toml"
    path.write_text(bad, encoding="utf-8")
    with pytest.raises(DataError) as caught:
        build(load("game", str(path)))
    message = str(caught.value)
    assert "blocks[1].cells" in message and "A2" in message and "not joined" in message


def test_the_first_turn_is_a_pawn_then_a_block_as_the_source_plays_it() -> None:
    # "Le premier joueur déplace un de ses pions [...] Ce même joueur joue un bloc [...] Les
    # autres jouent ensuite [...] en déplaçant en premier, soit un bloc quelconque, soit un de
    # leurs pions."
    lay = layout("walls")
    game = WallsGame(lay)
    for seats in lay.player_counts:
        state = game.initial_state(seats)
        first = game.legal_moves(state)
        assert engine_moves(game, state) == naive_moves(lay, game, state)
        assert {m.kind for m in first} == {PAWN} and len(first) == 25  # as counted in the table above
        after = game.apply(state, first[0])
        assert {m.kind for m in game.legal_moves(after)} == {BLOCK}
        done = game.apply(after, game.legal_moves(after)[0])
        # The next player may open with either part.
        assert done.turn == 1 and {m.kind for m in game.legal_moves(done)} == {PAWN, BLOCK}


def test_a_first_player_with_no_pawn_move_plays_the_block() -> None:
    lay = layout("walls_small")
    game = WallsGame(lay)
    # Green right of red and A2 already under red: red's pawn at (0, 0) cannot move.
    state = place(game, game.initial_state(2), {1: (0, 1)})
    up = next(m for m in game.legal_moves(later(state)) if m.kind == BLOCK and m.target < 0)
    boxed = state._replace(blocks=game.apply(later(state), up).blocks, walls=game.apply(later(state), up).walls)
    moves = game.legal_moves(boxed)
    assert moves and {m.kind for m in moves} == {BLOCK}
    assert engine_moves(game, boxed) == naive_moves(lay, game, boxed)
