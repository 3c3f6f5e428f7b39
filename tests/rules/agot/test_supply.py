"""补给 / Supply: the army limits and the fewest removals needed to fit them."""

import itertools
import random

from game.rules.agot.control import fits_supply
from game.rules.agot.supply import min_removals


def test_supply_track_rows():
    assert fits_supply([3, 2, 2, 2], 3) and not fits_supply([4, 3, 2, 2], 3)
    assert fits_supply([2, 2], 0) and not fits_supply([3], 0) and not fits_supply([2, 2, 2], 0)
    assert fits_supply([4, 3, 2, 2, 2], 6)
    assert min_removals([4, 3, 2, 2], 3) == 2  # the rulebook's supply example


def _brute(sizes, level):
    best = None
    for final in itertools.product(*[range(1, s + 1) for s in sizes]):
        if fits_supply(sorted([f for f in final if f >= 2], reverse=True), level):
            cost = sum(s - f for s, f in zip(sizes, final))
            best = cost if best is None else min(best, cost)
    return best


def test_min_removals_is_optimal():
    r = random.Random(7)
    for _ in range(400):
        sizes = sorted([r.randint(2, 5) for _ in range(r.randint(0, 6))], reverse=True)
        level = r.randint(0, 6)
        assert min_removals(sizes, level) == _brute(sizes, level), (sizes, level)
