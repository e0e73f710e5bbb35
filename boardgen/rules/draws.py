"""Random draws written out as `random.Random` makes them, for the fast playouts that must
draw exactly what the reference players draw (same seed, same moves)."""

from __future__ import annotations

from collections.abc import Callable


def below(getrandbits: Callable[[int], int], n: int) -> int:
    """A number below `n` drawn as `random.Random.choice` draws the index of its pick
    (`_randbelow_with_getrandbits`: the bits of n, redrawn until under n)."""
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r
