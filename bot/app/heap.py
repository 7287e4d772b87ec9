"""The garbage collector tuned for a long-running event loop.

CPython's cyclic collector stops the world: with the bot's objects (discord.py,
the engine, the catalogues: some 50,000 tracked objects before the first table)
a full collection paused the loop for 40-100 ms about every six seconds under
``python -m tools.bench``, the largest part of its event-loop lag p99 and of its
slowest answers to clicks. :func:`settle` runs once the bot has started:

* a collection of the young generations, then ``gc.freeze()``: everything alive
  at start-up (modules, classes, the command tree, the resumed tables) moves to
  the permanent generation, which later collections no longer scan. Not a full
  collection: after 200 resumed tables it took 120 ms and found nothing to free
  (the collector's own gen-2 runs during start-up had done it), against 0.6 ms
  for the young generations — and its time grew with the tables resumed, on the
  way to the first click;
* the youngest generation collects after 10,000 allocations instead of 700: a
  bot allocates in bursts (a move builds views, texts and buttons), and most of
  it dies by reference counting before a collection would look at it. A young
  collection's cost is the young objects alive at that moment (at 200 tables,
  10,000-30,000 of them: the tasks, timers and futures of the moves in flight,
  10-15 ms of CPU), nearly whatever the threshold; the threshold sets how often it
  comes. Since a move leaves no cyclic garbage (``notify.release_view`` cuts a
  sent layout's links; ``python -m tools.bench --garbage`` counts what is left),
  nothing is lost by collecting rarely: at 3,000, 44 young collections in 30 s
  (555 ms of the loop's CPU, each a stop of 10-20 ms); at 10,000, 2 in 20 s.

Measured with ``python -m tools.bench`` (production defaults) on 2 cores: event-loop
lag p99 7.7-12.1 ms before, 5.8 ms after; click-to-ack p99 36-73 ms before, 25 ms
after (single runs: the figures vary from run to run by a few ms).
"""

from __future__ import annotations

import gc
from typing import Final

__all__ = ["YOUNG_THRESHOLD", "settle"]

YOUNG_THRESHOLD: Final = 10_000  # allocations between collections of the youngest generation

_settled = False


def settle() -> None:
    """Collect once, freeze what survives start-up, and space the young collections.

    Once a process: a second bot started in the same process (the tests start
    hundreds) must not freeze the first one's garbage for good."""
    global _settled
    if _settled:
        return
    _settled = True
    gc.collect(1)  # the young generations: what start-up just left behind
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, older, oldest)
