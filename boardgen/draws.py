"""The one seeded generator of boardgen: every deal, set-up, roll, shuffle and player's
tie-break draws from it, so nothing depends on how CPython's `random` draws. A leaf module
(the standard library only), below the model, the rules and the checks that draw from it.

The generator is splitmix64: its whole state is one 64-bit int (so a position can carry it
and stay hashable), each draw is the state plus a constant, mixed by two multiplications,
and a state ``n`` draws on is ``state + n * STEP`` (so a block of draws can be worked out side
by side, `random_block`, and the number of draws between two states read back).

`Draws` is the object to draw from (pure Python, no dependency)::

    rng = Draws(seed)          # any int; the same seed, the same draws, on every platform
    rng.below(n)               # an int in [0, n), n >= 1: one draw, Lemire's multiply-shift
    rng.die(sides=6)           # 1..sides: ``face(draw, sides)``, one draw
    rng.chance(p)              # True with probability p: one draw, ``draw / 2**64 < p``
    rng.choice(seq)            # ``seq[below(len(seq))]``, one draw (none for a single item)
    rng.normals(n)             # n standard normal numbers (Box-Muller, two draws a pair)
    rng.shuffle(items)         # Fisher-Yates in place, one `below` per swap (len - 1 draws)
    rng.sample(items, k)       # k distinct items, k draws;  rng.random(): a float in [0, 1)
    rng.draw()                 # the next raw 64-bit draw
    rng.block()                # the next `BLOCK` raw draws at once (hot loops: roll from a list)
    rng.state                  # the whole state, an int: ``Draws.at(state)`` goes on from it
    rng.copy()                 # an independent generator at the same point
    for_purpose(seed, "cards") # the stream of one purpose of a seeded game (deal, cards, players...)

Module functions work on the bare state for code that keeps it in an int (the race
positions): ``next_random(state) -> (state, draw)``, ``roll(state, dice, faces)`` (the
races' dice, `face` of a draw each; `Roller` rolls the same from blocks), ``random_block(state)
-> list`` (the `BLOCK` draws from `state`; the state after them is ``advance(state, BLOCK)``),
``advance(state, n)``, ``drawn_between(before, after)``.

The one mapping of a draw to a range, wherever a draw becomes a die, a choice or a shuffle's
swap (`Draws`, the bare-state functions, the race positions, the deals): `below_of`, ``(draw
* n) >> 64`` (the high bits, unbiased to within n / 2**64, no retry, so every call takes
exactly one draw and a block of draws can be used as one); a die is ``face(draw, sides) =
below_of(draw, sides) + 1``, the same whether rolled by `Draws.die`, `roll` or a `Roller`.
"""

from __future__ import annotations

import math
import sys
import zlib
from array import array
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

MASK = (1 << 64) - 1
STEP = 0x9E3779B97F4A7C15  # splitmix64's increment: the state after n draws is state + n * STEP
STEP_INVERSE = pow(STEP, -1, 1 << 64)
BLOCK = 64  # draws worked out at once by `random_block`
_M1, _M2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
# The lanes of `random_block`: 1 in each 128-bit lane, step i + 1 in lane i, 64 set bits in each lane.
_LANE_ONES = sum(1 << (128 * i) for i in range(BLOCK))
_LANE_STEPS = sum(((i + 1) * STEP) << (128 * i) for i in range(BLOCK))
_LANES = MASK * _LANE_ONES
_WORD = next(code for code in "LQ" if array(code).itemsize == 8)  # an unsigned 64-bit array item


def next_random(state: int) -> tuple[int, int]:
    """splitmix64: the next state and the draw it gives (a 64-bit int)."""
    state = (state + STEP) & MASK
    z = state
    z = ((z ^ (z >> 30)) * _M1) & MASK
    z = ((z ^ (z >> 27)) * _M2) & MASK
    return state, z ^ (z >> 31)


class Roller:
    """Dice from a bare state, as `roll` rolls them, read from the last `random_block` worked
    out while the state lies within it (a hot loop's dice: a block costs about what four
    draws one at a time do). One per game object; it only remembers draws, never changes one."""

    __slots__ = ("base", "draws")

    def __init__(self) -> None:
        self.base = 0
        self.draws = random_block(0)

    def roll(self, state: int, dice: int, faces: int = 6) -> tuple[int, tuple[int, ...]]:
        """`roll(state, dice, faces)`."""
        at = ((state - self.base) * STEP_INVERSE) & MASK
        if at + dice > BLOCK:
            self.base, self.draws, at = state, random_block(state), 0
        draws = self.draws
        if dice == 2:  # (`face`, written out: the races' hot loop)
            return (state + 2 * STEP) & MASK, (((draws[at] * faces) >> 64) + 1, ((draws[at + 1] * faces) >> 64) + 1)
        return (state + dice * STEP) & MASK, tuple(((z * faces) >> 64) + 1 for z in draws[at : at + dice])


def roll(state: int, dice: int, faces: int = 6) -> tuple[int, tuple[int, ...]]:
    """`dice` dice of `faces` faces, one draw each (`face`, as `Draws.die` rolls them), from a
    bare state: the next state and the faces."""
    out = []
    for _ in range(dice):
        state, z = next_random(state)
        out.append(face(z, faces))
    return state, tuple(out)


def random_block(state: int) -> list[int]:
    """What the next `BLOCK` calls of `next_random` from `state` draw, worked out side by side:
    state i is ``state + i * STEP``, and the mix is the same multiplications, shifts and masks
    for every state, so one Python int holding each state in a lane of 128 bits (room for a
    64-bit product) goes through it once, masked back to 64 bits per lane after each step."""
    x = (state * _LANE_ONES + _LANE_STEPS) & _LANES
    z = (((x ^ (x >> 30)) & _LANES) * _M1) & _LANES
    z = (((z ^ (z >> 27)) & _LANES) * _M2) & _LANES
    z = (z ^ (z >> 31)) & _LANES
    words = array(_WORD, z.to_bytes(16 * BLOCK, "little"))
    if sys.byteorder == "big":
        words.byteswap()
    return words[::2].tolist()


def advance(state: int, draws: int) -> int:
    """The state `draws` draws after `state`."""
    return (state + draws * STEP) & MASK


def drawn_between(before: int, after: int) -> int:
    """How many draws lead from state `before` to state `after`."""
    return ((after - before) * STEP_INVERSE) & MASK


def seed_state(seed: int) -> int:
    """The generator's first state for a seed (any int, negative or wide: it is mixed in, so
    neighbouring seeds start far apart)."""
    return next_random((seed ^ (seed >> 64)) & MASK)[1]


class Draws:
    """A seeded splitmix64 generator (see the module doc for the API)."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0, *, state: int | None = None):
        self.state = seed_state(seed) if state is None else state & MASK

    @classmethod
    def at(cls, state: int) -> Draws:
        """A generator going on from a bare state (`state`)."""
        return cls(state=state)

    def copy(self) -> Draws:
        return Draws(state=self.state)

    def draw(self) -> int:
        """The next raw draw, 64 bits."""
        self.state, z = next_random(self.state)
        return z

    def block(self) -> list[int]:
        """The next `BLOCK` raw draws (as `BLOCK` calls of `draw`)."""
        out = random_block(self.state)
        self.state = (self.state + BLOCK * STEP) & MASK
        return out

    def below(self, n: int) -> int:
        """An int in ``[0, n)`` from one draw."""
        if n < 1:
            raise ValueError(f"below needs n >= 1, got {n!r}")
        self.state, z = next_random(self.state)
        return below_of(z, n)

    def die(self, sides: int = 6) -> int:
        """A die of `sides` faces, 1 to `sides` (`face` of one draw)."""
        if sides < 1:
            raise ValueError(f"a die needs at least 1 side, got {sides!r}")
        self.state, z = next_random(self.state)
        return face(z, sides)

    def chance(self, p: float) -> bool:
        """True with probability `p` (one draw)."""
        self.state, z = next_random(self.state)
        return z / 18446744073709551616.0 < p

    def random(self) -> float:
        """A float in [0, 1) from one draw (53 bits)."""
        self.state, z = next_random(self.state)
        return (z >> 11) / 9007199254740992.0

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """`k` distinct items in random order (a partial Fisher-Yates: k draws)."""
        pool = list(items)
        if not 0 <= k <= len(pool):
            raise ValueError(f"sample of {k} from {len(pool)} items")
        for i in range(k):
            j = i + self.below(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]

    def choice(self, items: Sequence[T]) -> T:
        """One of `items` (not empty): one draw (`below`) among two or more, none for a single
        item (there is nothing to choose: a player's tie-break draws only where moves tie)."""
        if len(items) == 1:
            return items[0]
        if not items:
            raise IndexError("choice from an empty sequence")
        return items[self.below(len(items))]

    def normals(self, count: int) -> list[float]:
        """`count` standard normal numbers (Box-Muller: two draws a pair, the second of the
        last pair left unused when `count` is odd)."""
        out: list[float] = []
        while len(out) < count:
            radius = math.sqrt(-2.0 * math.log(1.0 - self.random()))
            angle = 2.0 * math.pi * self.random()
            out += (radius * math.cos(angle), radius * math.sin(angle))
        return out[:count]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle in place (Fisher-Yates from the end, one draw per swap)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def below_of(draw: int, n: int) -> int:
    """An int in ``[0, n)`` from a raw draw: the one mapping of a draw to a range (`Draws.below`,
    `Draws.choice`, every shuffle's swap, and through `face` every die)."""
    return (draw * n) >> 64


def face(draw: int, sides: int = 6) -> int:
    """A die of `sides` faces, 1 to `sides`, from a raw draw: ``below_of(draw, sides) + 1``."""
    return ((draw * sides) >> 64) + 1


def for_purpose(seed: int, purpose: str = "") -> Draws:
    """The generator of one purpose of a seeded game: the deal (""), the cards ("cards"),
    Master's tokens and recipes, the players' tie-breaks ("players")...; each purpose draws
    from a stream of its own, so one never shifts another's draws."""
    return Draws(seed ^ (zlib.crc32(purpose.encode()) << 32) if purpose else seed)
