"""Deterministic random numbers kept in the game state (a game is its log).

SplitMix64: the generator's whole state is one 64-bit integer stored in the game state, so a game
is fully determined by its seed and its action log. No global random, no clock.
"""

from __future__ import annotations

__all__ = ["seed_state", "next_u64", "randbelow", "shuffle"]

_MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    """The initial generator state for an integer seed (any size, negative allowed)."""
    return (int(seed) * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & _MASK


def next_u64(state: int) -> tuple[int, int]:
    """``(new_state, value)`` with ``value`` uniform in ``[0, 2**64)``."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def randbelow(state: int, n: int) -> tuple[int, int]:
    """``(new_state, k)`` with ``k`` uniform in ``range(n)`` (rejection sampling, no bias)."""
    if n <= 0:
        raise ValueError("n must be positive")
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        state, v = next_u64(state)
        if v < limit:
            return state, v % n


def shuffle(state: int, items: list) -> tuple[int, list]:
    """``(new_state, shuffled copy)`` (Fisher-Yates)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        state, j = randbelow(state, i + 1)
        out[i], out[j] = out[j], out[i]
    return state, out
