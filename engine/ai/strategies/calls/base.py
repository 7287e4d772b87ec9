"""What every decision that is not a card shares (:class:`SampledCall`): worlds drawn one
at a time from the decision's sampler, each of weight one."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Generic, TypeVar

__all__ = ["SampledCall"]

W = TypeVar("W")


class SampledCall(Generic[W]):
    """A :class:`~engine.ai.search.strategy.CallStrategy` whose worlds come from
    :meth:`sample` (``None``: no consistent world can be found)."""

    kind = "call"
    unit = "points"
    table = ""
    count = 1

    def sample(self, rng: random.Random) -> W | None:
        raise NotImplementedError

    def worlds(self, rng: random.Random) -> Iterator[tuple[W, float]]:
        while (world := self.sample(rng)) is not None:
            yield world, 1.0
