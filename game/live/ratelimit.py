"""A token bucket: ``rate`` tokens per second, at most ``burst`` saved up (one per connection)."""

from __future__ import annotations

import time


class TokenBucket:
    def __init__(self, rate: float, burst: float, clock=time.monotonic) -> None:
        self.rate, self.burst, self.clock = float(rate), float(burst), clock
        self.tokens = float(burst)
        self.stamp = clock()

    def take(self, n: float = 1.0) -> bool:
        """Spend ``n`` tokens if there are enough; False (nothing spent) when flooding."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= n:
            self.tokens -= n
            return True
        return False
