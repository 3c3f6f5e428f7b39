"""The game's own deterministic randomness (no global random).

The state keeps its seed and a counter ``rng_n``; each random draw builds a fresh
``random.Random`` from ``"<seed>:<n>"`` (string seeding is stable across Python runs) and bumps
the counter. So the generator's state is two ints in the state, cheap to copy, never in a view.
"""

from __future__ import annotations

import random

from .state import State


def shuffled(state: State, items: tuple) -> tuple:
    """``items`` in a new random order drawn from the state's generator (advances it)."""
    rnd = random.Random(f"{state.seed}:{state.rng_n}")
    state.rng_n += 1
    out = list(items)
    rnd.shuffle(out)
    return tuple(out)
