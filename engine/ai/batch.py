"""Greedy playouts of many deals at once, vectorized with NumPy.

:func:`batch_playout` plays the policy of :func:`engine.ai.core.greedy_card`
to the end of the deal for ``N`` positions side by side and returns the same
numbers as :func:`engine.ai.core.playout` would, row for row.

Design
------
* A hand is held as four 13-bit masks, one per suit, so all hands form an
  ``(N, 4 seats, 5 suits)`` ``uint16`` array. Bit ``r`` of suit ``s`` is the
  card ``s * 13 + r`` of :mod:`engine.ai.core`. The fifth suit column is
  always empty and stands for "no trump": a row whose trump is ``NO_TRUMP``
  (4) reads its "trumps" from that column and finds none, so no-trump rows
  need no special case.
* Every question asked of a one-suit mask (highest card, lowest card, number
  of cards) is a lookup in a table of 8192 entries indexed by the mask.
* The rows advance in lockstep, one card position at a time: every row is at
  the same position of its trick (all rows start with the same number of
  cards on the table and every trick has four cards), so the position is a
  plain Python int and the leading / following / last-to-play logic is chosen
  once per step. What differs per row (who is to play, the suit led, trumps,
  who is winning) lives in ``(N,)`` arrays, and each branch of the greedy
  policy is computed for every row and picked with ``np.where``. One step is
  a few dozen whole-array operations however large ``N`` is, which is where
  the speed comes from.
* A card in flight is a (suit, rank) pair of ``(N,)`` arrays. The current
  winner of each trick (position, suit, rank) is updated as each card lands,
  just like :func:`engine.ai.core.trick_winner_pos` scans the trick.

Everything is single threaded (NumPy element-wise operations use one core).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .core import NO_TRUMP

__all__ = ["batch_playout", "hands_from_masks", "masks_from_hands"]

_FULL: Final = 0x1FFF
_IDX = NDArray[np.intp]


def _tables() -> tuple[_IDX, _IDX, _IDX, NDArray[np.uint16], NDArray[np.uint16]]:
    masks = np.arange(1 << 13, dtype=np.int64)
    # highest set bit (-1 for an empty mask)
    high = np.full(1 << 13, -1, dtype=np.intp)
    # lowest set bit; 64 for an empty mask, so a "min over suits" skips empty ones
    low = np.full(1 << 13, 64, dtype=np.intp)
    count = np.zeros(1 << 13, dtype=np.intp)
    for r in range(13):
        has = (masks >> r) & 1 == 1
        high[has] = r
        count += has
    for r in range(12, -1, -1):
        low[(masks >> r) & 1 == 1] = r
    bit = (np.uint16(1) << np.arange(13, dtype=np.uint16)).astype(np.uint16)
    # above[f + 1]: the ranks strictly higher than rank f, f in -1..12
    above = np.array([(_FULL << (f + 1)) & _FULL for f in range(-1, 13)], dtype=np.uint16)
    return high, low, count, bit, above


_HIGH, _LOW, _COUNT, _BIT, _ABOVE = _tables()
_SUITS4: Final = np.arange(4, dtype=np.intp)


def hands_from_masks(masks: Sequence[Sequence[int]] | ArrayLike) -> NDArray[np.uint16]:
    """Convert ``N`` deals of four :mod:`engine.ai.core` int masks to ``(N, 4, 4)`` suit masks.

    ``masks`` is anything ``np.asarray`` makes an ``(N, 4)`` array of 52-bit
    masks from (a list of ``[north, east, south, west]`` int lists, or a
    ``uint64`` array).
    """
    m = np.asarray(masks, dtype=np.uint64)
    if m.ndim != 2 or m.shape[1] != 4:
        raise ValueError(f"expected an (N, 4) array of hand masks, got shape {m.shape}")
    shifts = np.array([0, 13, 26, 39], dtype=np.uint64)
    return ((m[:, :, None] >> shifts) & np.uint64(_FULL)).astype(np.uint16)


def masks_from_hands(hands: NDArray[np.uint16]) -> NDArray[np.uint64]:
    """The inverse of :func:`hands_from_masks`: ``(N, 4)`` 52-bit masks."""
    h = np.asarray(hands, dtype=np.uint64)
    shifts = np.array([0, 13, 26, 39], dtype=np.uint64)
    out: NDArray[np.uint64] = np.bitwise_or.reduce(h << shifts, axis=2)
    return out


def _per_row(value: ArrayLike, n: int, name: str) -> _IDX:
    arr = np.asarray(value, dtype=np.intp)
    if arr.ndim == 0:
        return np.full(n, int(arr), dtype=np.intp)
    if arr.shape != (n,):
        raise ValueError(f"{name}: expected a scalar or shape ({n},), got {arr.shape}")
    return arr.copy()


def batch_playout(
    hands: NDArray[np.uint16],
    leader: ArrayLike,
    trick: ArrayLike | None,
    trump: ArrayLike,
    tricks_ns: ArrayLike,
    tricks_left: int,
) -> NDArray[np.int64]:
    """Play ``N`` positions out greedily; side 0's (seats 0, 2) final trick count per row.

    The arguments mirror :func:`engine.ai.core.playout`, one row per position:

    * ``hands``: ``(N, 4, 4)`` per-suit 13-bit masks (see :func:`hands_from_masks`);
      not modified.
    * ``leader``: the seat that led the current trick, a scalar or ``(N,)``.
    * ``trick``: ``None`` or an ``(N, k)`` array of card indices (0..51)
      already on the table, ``0 <= k <= 3``, in play order; ``k`` is common to
      every row, the cards are not. Those cards must not be in ``hands``.
    * ``trump``: 0..3 or ``NO_TRUMP`` (4), a scalar or ``(N,)``.
    * ``tricks_ns``: side 0's tricks so far, a scalar or ``(N,)``.
    * ``tricks_left``: tricks still to be played, counting the current one if a
      card is on the table (every hand holds ``tricks_left`` cards, less the
      one already played in the current trick).
    """
    h_in = np.asarray(hands)
    if h_in.ndim != 3 or h_in.shape[1:] != (4, 4):
        raise ValueError(f"hands: expected shape (N, 4, 4), got {h_in.shape}")
    n_rows = h_in.shape[0]
    lead = _per_row(leader, n_rows, "leader") & 3
    trumps_of = _per_row(trump, n_rows, "trump")
    if np.any((trumps_of < 0) | (trumps_of > NO_TRUMP)):
        raise ValueError("trump must be 0..3 or NO_TRUMP (4)")
    result = _per_row(tricks_ns, n_rows, "tricks_ns").astype(np.int64)
    if trick is None:
        cards = np.zeros((n_rows, 0), dtype=np.intp)
    else:
        cards = np.asarray(trick, dtype=np.intp).reshape(n_rows, -1)
    if cards.shape[1] > 3:
        raise ValueError("a trick in progress holds at most 3 cards")
    if tricks_left <= 0 or n_rows == 0:
        return result

    # (N, 4 seats, 5 suits): column 4 is the always-empty "no trump" suit
    h = np.zeros((n_rows, 4, 5), dtype=np.uint16)
    h[:, :, :4] = h_in
    flat = h.reshape(-1)  # a view: updates through it land in h
    row20 = np.arange(n_rows, dtype=np.intp) * 20
    row5 = np.arange(n_rows, dtype=np.intp) * 5
    # every card still in a hand, per suit (column 4 empty)
    alive = np.bitwise_or.reduce(h, axis=1)
    alive_flat = alive.reshape(-1)
    is_side = _SUITS4[None, :] != trumps_of[:, None]  # (N, 4)
    # throwing sorts side suits by rank, then trumps: push trumps past every side rank
    throw_bias = np.where(is_side, 0, 16).astype(np.intp)
    trump_col = trumps_of  # column of each row's trump suit in h (4 = the empty one)

    # the trick in progress
    k0 = cards.shape[1]
    led = np.zeros(n_rows, dtype=np.intp)
    win_pos = np.zeros(n_rows, dtype=np.intp)
    win_suit = np.zeros(n_rows, dtype=np.intp)
    win_rank = np.zeros(n_rows, dtype=np.intp)
    for pos in range(k0):
        s, r = np.divmod(cards[:, pos], 13)
        if pos == 0:
            led, win_suit, win_rank = s, s.copy(), r.copy()
        else:
            beats = ((s == win_suit) & (r > win_rank)) | ((s == trumps_of) & (win_suit != s))
            win_pos = np.where(beats, pos, win_pos)
            win_suit = np.where(beats, s, win_suit)
            win_rank = np.where(beats, r, win_rank)

    start = k0
    for _ in range(tricks_left):
        for pos in range(start, 4):
            seat = (lead + pos) & 3
            base = row20 + seat * 5
            if pos == 0:
                suit, rank = _lead(flat, base, alive, is_side, trumps_of)
                led = suit
                win_pos = np.zeros(n_rows, dtype=np.intp)
                win_suit = suit
                win_rank = rank
            else:
                suit, rank = _follow(
                    flat, row20, base, seat, pos, led, trump_col, throw_bias,
                    win_pos, win_suit, win_rank,
                )  # fmt: skip
                beats = ((suit == win_suit) & (rank > win_rank)) | (
                    (suit == trumps_of) & (win_suit != suit)
                )
                win_pos = np.where(beats, pos, win_pos)
                win_suit = np.where(beats, suit, win_suit)
                win_rank = np.where(beats, rank, win_rank)
            bit = _BIT[rank]
            flat[base + suit] ^= bit
            alive_flat[row5 + suit] ^= bit
        winner = (lead + win_pos) & 3
        result += (winner & 1) == 0
        lead = winner
        start = 0
    return result


def _lead(
    flat: NDArray[np.uint16],
    base: _IDX,
    alive: NDArray[np.uint16],
    is_side: NDArray[np.bool_],
    trumps_of: _IDX,
) -> tuple[_IDX, _IDX]:
    """The greedy lead of every row: (suit, rank)."""
    n_rows = base.shape[0]
    rows = np.arange(n_rows)
    hand = flat[base[:, None] + _SUITS4]  # (N, 4)
    top = _HIGH[hand]
    # a side-suit master: my top card is the top card still out in that suit
    master = is_side & (top == _HIGH[alive[:, :4]]) & (hand != 0)
    has_master = master.any(axis=1)
    master_suit = master.argmax(axis=1)
    # else the longest side suit (the first on ties), else trumps
    length = np.where(is_side, _COUNT[hand], 0)
    long_suit = length.argmax(axis=1)
    has_side = length.max(axis=1) > 0
    suit = np.where(has_master, master_suit, np.where(has_side, long_suit, trumps_of))
    mine = hand[rows, suit]
    rank = np.where(has_master, _HIGH[mine], _LOW[mine])
    return suit, rank


def _follow(
    flat: NDArray[np.uint16],
    row20: _IDX,
    base: _IDX,
    seat: _IDX,
    pos: int,
    led: _IDX,
    trump_col: _IDX,
    throw_bias: _IDX,
    win_pos: _IDX,
    win_suit: _IDX,
    win_rank: _IDX,
) -> tuple[_IDX, _IDX]:
    """The greedy card of every row when not on lead: (suit, rank)."""
    follow = flat[base + led]
    trumps = flat[base + trump_col]
    partner_winning = (pos - win_pos) == 2
    trumped = win_suit != led  # the led suit is no longer winning
    win_is_trump = win_suit == trump_col
    if pos < 3:
        # the one opponent still to play after me (my partner, if still to
        # play, is never a threat in greedy_card)
        opp = row20 + ((seat + 1) & 3) * 5
        opp_led = flat[opp + led]
        opp_void = opp_led == 0
        threat = np.maximum(win_rank, _HIGH[opp_led])
        opp_can_ruff = opp_void & (led != trump_col) & (flat[opp + trump_col] != 0)
        opp_trump_top = np.where(opp_void, _HIGH[flat[opp + trump_col]], -1)
        no_threat = threat == win_rank
    else:
        threat = win_rank
        opp_can_ruff = np.zeros(base.shape[0], dtype=np.bool_)
        opp_trump_top = np.full(base.shape[0], -1, dtype=np.intp)
        no_threat = np.ones(base.shape[0], dtype=np.bool_)

    # following suit: beat the threat as cheaply as possible, unless pointless
    over = follow & _ABOVE[threat + 1]
    duck = trumped | opp_can_ruff | (partner_winning & no_threat) | (over == 0)
    follow_rank = np.where(duck, _LOW[follow], _LOW[over])

    # void: ruff above the winning trump and any over-ruff still to come
    floor = np.maximum(np.where(win_is_trump, win_rank, -1), opp_trump_top)
    ruff_over = trumps & _ABOVE[floor + 1]
    ruff = (ruff_over != 0) & ~partner_winning
    # else throw the lowest-ranked side card (first suit on ties), trumps last
    hand = flat[base[:, None] + _SUITS4]
    throw_suit = (_LOW[hand] + throw_bias).argmin(axis=1)
    throw_rank = _LOW[hand[np.arange(base.shape[0]), throw_suit]]

    void = follow == 0
    suit = np.where(void, np.where(ruff, trump_col, throw_suit), led)
    rank = np.where(void, np.where(ruff, _LOW[ruff_over], throw_rank), follow_rank)
    return suit, rank
