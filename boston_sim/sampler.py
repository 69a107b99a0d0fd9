"""Seeded random completions of the three unseen hands (docs/RULES.md §3.0 "Sampling").

Given the declarer's 13 cards, deal the 39 unseen cards uniformly at random, 13 to each other
seat, honouring what is known:

* the turned-up trump card, which lies in the dealer's hand in Solo Whist and Russian Boston
  (docs/RULES.md §1.3); it is simply a card pinned to the dealer;
* ``known`` cards pinned to seats (``SA@dealer``);
* ``constraints`` on another seat: suit length (``second:S>=5``), high-card points
  (``third:hcp>=12``), holding or lacking a card (``eldest:has=SK``, ``eldest:lacks=SK``).
  Constraints are met by rejection; the number of rejected deals is kept in ``rejected``.

Seats follow the analysis convention of ``cards.py``: the dealer sits at W, so
eldest = N, second = E, third = S, dealer = W.

Reproducibility: one ``np.random.default_rng(seed)`` stream, consumed in fixed blocks of
``BLOCK`` candidate deals in a fixed order, so the first ``M`` accepted deals are the same
whatever the number of threads or processes and however the caller splits its requests
(``draw(300)`` then ``draw(300)`` gives the same 600 deals as ``draw(600)``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from .cards import (
    COMPASS,
    FULL_DECK,
    SUITS,
    NotationError,
    cards_of,
    format_card,
    hcp,
    parse_card,
    parse_compass,
    parse_play_seat,
    play_seat_to_compass,
    suit_length,
)
from .errors import SamplingError

BLOCK = 2048
"""Candidate deals generated per block; fixed so that the stream is consumed identically."""

MAX_REJECTIONS = 1_000_000
"""A request (a :meth:`Sampler.draw` call) that rejects more candidate deals than this while
accepting fewer than :data:`REQUEST_DEALS` raises :class:`SamplingError`."""

REQUEST_DEALS = 1000
"""A long request counts its rejections afresh after each this many accepted deals: the
cap is on how unlikely the constraints are, not on how many deals are asked for."""

_OPS = {
    ">=": np.greater_equal,
    "<=": np.less_equal,
    "==": np.equal,
    "=": np.equal,
    ">": np.greater,
    "<": np.less,
    "!=": np.not_equal,
}
_HCP_RANKS = ((14, 4), (13, 3), (12, 2), (11, 1))


def check_seed(seed: int) -> None:
    """A seed is a whole number >= 0 (numpy's generators take no other)."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise SamplingError(f"the seed must be a whole number >= 0, not {seed!r}")


def seed_for(run_seed: int, index: int) -> int:
    """Seed of hand ``index`` in a batch run with seed ``run_seed`` (ARCHITECTURE.md).

    Derived with ``SeedSequence`` so that a hand's result never depends on which worker ran it.
    """
    check_seed(run_seed)
    return int(np.random.SeedSequence([int(run_seed), int(index)]).generate_state(1)[0])


def parse_seat(text: str | int) -> int:
    """A seat given by playing-order name (``eldest``, ``second``, ``third``, ``dealer``) or by
    compass letter (``N E S W``, dealer at W) -> compass seat 0..3."""
    if isinstance(text, str) and text.strip().upper() in ("N", "E", "S", "W", "NORTH", "EAST",
                                                          "SOUTH", "WEST"):
        return parse_compass(text)
    try:
        return play_seat_to_compass(parse_play_seat(text))
    except NotationError:
        raise NotationError(
            f"unknown seat {text!r} (use eldest, second, third, dealer or N, E, S, W)"
        ) from None


# --------------------------------------------------------------------------- constraints


@dataclass(frozen=True)
class Constraint:
    """One condition on the hand of one seat.

    ``kind`` is ``"length"`` (``suit`` holds a suit index), ``"hcp"``, ``"has"`` or ``"lacks"``
    (``card`` holds a card bit); ``op`` and ``value`` compare the statistic for the first two.
    """

    seat: int
    kind: str
    op: str = ">="
    value: int = 0
    suit: int | None = None
    card: int | None = None
    text: str = ""

    def describe(self) -> str:
        return self.text or repr(self)


_CONSTRAINT_RE = re.compile(r"^\s*([A-Za-z0-9]+)\s*:\s*(.+?)\s*$")
_CMP_RE = re.compile(r"^([A-Za-z♠♥♦♣]+)\s*(>=|<=|==|!=|=|>|<)\s*(-?\d+)$")


def parse_constraint(text: str) -> Constraint:
    """``second:S>=5``, ``dealer:H<=1``, ``third:hcp>=12``, ``eldest:has=SK``,
    ``eldest:lacks=SK`` -> :class:`Constraint` (seat as a compass index)."""
    m = _CONSTRAINT_RE.match(text or "")
    if not m:
        raise SamplingError(
            f"cannot read constraint {text!r} (e.g. second:S>=5, third:hcp>=12, eldest:has=SK)"
        )
    try:
        seat = parse_seat(m.group(1))
    except NotationError as e:
        raise SamplingError(f"constraint {text!r}: {e}") from None
    body = m.group(2).replace(" ", "")
    low = body.lower()
    for kind in ("has", "lacks"):
        if low.startswith(kind + "=") or low.startswith(kind + ":"):
            try:
                card = parse_card(body[len(kind) + 1 :])
            except NotationError as e:
                raise SamplingError(f"constraint {text!r}: {e}") from None
            return Constraint(seat, kind, card=card, text=text.strip())
    c = _CMP_RE.match(body)
    if not c:
        raise SamplingError(
            f"cannot read constraint {text!r} (e.g. second:S>=5, third:hcp>=12, eldest:has=SK)"
        )
    what, op, value = c.group(1), c.group(2), int(c.group(3))
    if what.lower() in ("hcp", "points"):
        return Constraint(seat, "hcp", op=op, value=value, text=text.strip())
    sym = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}.get(what, what.upper())
    if sym not in SUITS:
        raise SamplingError(f"constraint {text!r}: unknown suit or statistic {what!r} "
                            "(use S, H, D, C or hcp)")
    return Constraint(seat, "length", op=op, value=value, suit=SUITS.index(sym), text=text.strip())


def parse_known(text: str) -> tuple[int, int]:
    """``SA@dealer`` / ``SA@W`` -> (card bit, compass seat)."""
    if "@" not in (text or ""):
        raise SamplingError(f"known card {text!r} must be CARD@SEAT, e.g. SA@dealer")
    card_txt, seat_txt = text.rsplit("@", 1)
    try:
        return parse_card(card_txt), parse_seat(seat_txt)
    except NotationError as e:
        raise SamplingError(f"known card {text!r}: {e}") from None


def _stat_of_hand(c: Constraint, hand: int) -> int | bool:
    if c.kind == "length":
        return suit_length(hand, c.suit)
    if c.kind == "hcp":
        return hcp(hand)
    has = bool(int(hand) >> c.card & 1)
    return has if c.kind == "has" else not has


def _holds(c: Constraint, hand: int) -> bool:
    """Whether a single known hand satisfies ``c``."""
    v = _stat_of_hand(c, hand)
    if c.kind in ("has", "lacks"):
        return bool(v)
    return bool(_OPS[c.op](v, c.value))


def _hcp_of(card: int) -> int:
    return dict(_HCP_RANKS).get(card % 16, 0)


def _feasible_range(values: list[int], slots: int, fixed: int) -> tuple[int, int]:
    """Smallest and largest total of ``fixed`` plus ``slots`` of the ``values`` (free cards)."""
    v = sorted(values)
    return fixed + sum(v[:slots]), fixed + sum(v[len(v) - slots :] if slots else [])


def _can_meet(c: Constraint, free_values: list[int], slots: int, fixed: int) -> bool:
    lo, hi = _feasible_range(free_values, slots, fixed)
    op, x = c.op, c.value
    if op == ">=":
        return hi >= x
    if op == ">":
        return hi > x
    if op == "<=":
        return lo <= x
    if op == "<":
        return lo < x
    if op in ("=", "=="):
        return lo <= x <= hi  # every total in between is reachable by swapping one card at a time
    return not (lo == hi == x)  # "!="


# --------------------------------------------------------------------------- the sampler


@dataclass
class Samples:
    """``deals``: ``uint64[M, 4]`` by compass seat; ``discard_pick``: ``int8[M, 4]``, for each
    seat the index (0..12, in the order of the hand's set bits from the lowest) of the card
    that seat discards in a 12-trick contract (A-12; the declarer's entry is unused because
    his discard is chosen ex ante)."""

    deals: np.ndarray
    discard_pick: np.ndarray

    def __len__(self) -> int:
        return len(self.deals)


@dataclass
class Sampler:
    """Seeded generator of completions of one declarer hand.

    ``hand``: the declarer's 13-card mask; ``declarer``: his compass seat; ``known``: list of
    (card bit, compass seat) pinned cards (the turn-up is one of them); ``constraints``: list of
    :class:`Constraint`. Raises :class:`SamplingError` at construction when the known cards or
    constraints can never be met by counting.
    """

    hand: int
    declarer: int
    known: list[tuple[int, int]] = field(default_factory=list)
    constraints: list[Constraint] = field(default_factory=list)
    seed: int = 0
    max_rejections: int = MAX_REJECTIONS

    def __post_init__(self) -> None:
        self.hand = int(self.hand)
        check_seed(self.seed)
        if self.hand.bit_count() != 13 or self.hand & ~FULL_DECK:
            raise SamplingError("the declarer's hand must hold 13 cards")
        self.rng = np.random.default_rng(int(self.seed))
        self.rejected = 0
        self.generated = 0
        self._buffer_deals: list[np.ndarray] = []
        self._buffer_picks: list[np.ndarray] = []
        self._buffered = 0
        self._setup()

    # ------------------------------------------------------------------ set-up and checks

    def _setup(self) -> None:
        pinned = [0, 0, 0, 0]
        pinned[self.declarer] = self.hand
        for card, seat in self.known:
            bit = 1 << card
            if self.hand & bit:
                if seat != self.declarer:
                    raise SamplingError(
                        f"{format_card(card)} is in the declarer's hand, not {COMPASS[seat]}'s"
                    )
                continue
            if seat == self.declarer:
                raise SamplingError(
                    f"{format_card(card)} is pinned to the declarer's seat but not in his hand"
                )
            for other in range(4):
                if other != seat and pinned[other] & bit:
                    raise SamplingError(
                        f"{format_card(card)} is pinned to two seats ({COMPASS[other]} and "
                        f"{COMPASS[seat]})"
                    )
            pinned[seat] |= bit
        for seat in range(4):
            if seat != self.declarer and pinned[seat].bit_count() > 13:
                raise SamplingError(f"more than 13 cards pinned to seat {COMPASS[seat]}")
        self.pinned = np.array(pinned, dtype=np.uint64)
        free_mask = FULL_DECK & ~(pinned[0] | pinned[1] | pinned[2] | pinned[3])
        self.free_cards = np.array(cards_of(free_mask), dtype=np.int64)
        # seat of each position of a shuffled free-card row: fixed blocks, seat order N E S W
        self.slots = [13 - pinned[s].bit_count() if s != self.declarer else 0 for s in range(4)]
        self.slot_seat = np.repeat(np.arange(4), self.slots)
        self.free_bits = np.left_shift(np.uint64(1), self.free_cards.astype(np.uint64))

        active = []
        free_list = [int(c) for c in self.free_cards]
        for c in self.constraints:
            if c.seat == self.declarer:
                # his hand is known: the condition is either always or never met
                if not _holds(c, self.hand):
                    raise SamplingError(f"constraint {c.describe()} is false for the declarer's "
                                        "own hand")
                continue
            fixed_hand = pinned[c.seat]
            slots = self.slots[c.seat]
            if c.kind in ("has", "lacks"):
                bit = 1 << c.card
                if c.kind == "has" and not (fixed_hand & bit) and (
                    c.card not in free_list or slots == 0
                ):
                    raise SamplingError(f"constraint {c.describe()} can never be met "
                                        f"({format_card(c.card)} is elsewhere)")
                if c.kind == "lacks" and fixed_hand & bit:
                    raise SamplingError(f"constraint {c.describe()} can never be met "
                                        f"({format_card(c.card)} is pinned there)")
            elif c.kind == "length":
                values = [1 if card // 16 == c.suit else 0 for card in free_list]
                if not _can_meet(c, values, slots, suit_length(fixed_hand, c.suit)):
                    raise SamplingError(f"constraint {c.describe()} can never be met "
                                        "(not enough cards of that suit are unseen)")
            else:
                values = [_hcp_of(card) for card in free_list]
                if not _can_meet(c, values, slots, hcp(fixed_hand)):
                    raise SamplingError(f"constraint {c.describe()} can never be met "
                                        "(not enough high-card points are unseen)")
            active.append(c)
        self.active_constraints = active

    # ------------------------------------------------------------------ generation

    def _block(self) -> tuple[np.ndarray, np.ndarray]:
        """One block of ``BLOCK`` candidate deals and discard picks, then the constraint filter."""
        n = len(self.free_cards)
        rows = np.broadcast_to(np.arange(n), (BLOCK, n))
        perm = self.rng.permuted(rows, axis=1)
        picks = self.rng.integers(0, 13, size=(BLOCK, 4), dtype=np.int8)
        deals = np.empty((BLOCK, 4), dtype=np.uint64)
        bits = self.free_bits[perm]
        start = 0
        for seat in range(4):
            k = self.slots[seat]
            deals[:, seat] = self.pinned[seat]
            if k:
                deals[:, seat] |= np.bitwise_or.reduce(bits[:, start : start + k], axis=1)
            start += k
        self.generated += BLOCK
        if self.active_constraints:
            ok = accept_mask(deals, self.active_constraints)
            self.rejected += int(BLOCK - ok.sum())
            deals, picks = deals[ok], picks[ok]
        return deals, picks

    def draw(self, m: int) -> Samples:
        """The next ``m`` accepted deals of the stream (and their defenders' discard picks)."""
        if m < 0:
            raise SamplingError("the number of samples must be positive")
        # the cap counts this request's rejections (since its last REQUEST_DEALS accepted),
        # so that a long run of likely enough constraints never reaches it
        start_rej, start_gen = self.rejected, self.generated
        while self._buffered < m:
            rej = self.rejected - start_rej
            if rej > self.max_rejections:
                acc = self.generated - start_gen - rej
                raise SamplingError(
                    f"constraints rejected {rej:,} deals and accepted only {acc:,} "
                    "(they are too unlikely or contradict each other)"
                )
            if self.generated - start_gen - rej >= REQUEST_DEALS:
                start_rej, start_gen = self.rejected, self.generated
            d, p = self._block()
            if len(d):
                self._buffer_deals.append(d)
                self._buffer_picks.append(p)
                self._buffered += len(d)
        deals = np.concatenate(self._buffer_deals) if self._buffer_deals else np.empty((0, 4),
                                                                                        np.uint64)
        picks = np.concatenate(self._buffer_picks) if self._buffer_picks else np.empty((0, 4),
                                                                                        np.int8)
        self._buffer_deals, self._buffer_picks = [deals[m:]], [picks[m:]]
        self._buffered = len(deals) - m
        return Samples(np.ascontiguousarray(deals[:m]), np.ascontiguousarray(picks[:m]))


# --------------------------------------------------------------------------- vectorised checks


def suit_lengths(hands: np.ndarray, suit: int) -> np.ndarray:
    """Length of ``suit`` in every hand of an array of hand masks."""
    lane = (hands >> np.uint64(16 * suit)) & np.uint64(0xFFFF)
    return np.bitwise_count(lane).astype(np.int64)


def hcps(hands: np.ndarray) -> np.ndarray:
    """Milton Work points of every hand of an array of hand masks."""
    total = np.zeros(hands.shape, dtype=np.int64)
    for s in range(4):
        for rank, pts in _HCP_RANKS:
            total += pts * ((hands >> np.uint64(16 * s + rank)) & np.uint64(1)).astype(np.int64)
    return total


def accept_mask(deals: np.ndarray, constraints: list[Constraint]) -> np.ndarray:
    """Boolean mask of the deals (``uint64[M, 4]``) meeting every constraint."""
    ok = np.ones(len(deals), dtype=bool)
    for c in constraints:
        h = deals[:, c.seat]
        if c.kind == "length":
            ok &= _OPS[c.op](suit_lengths(h, c.suit), c.value)
        elif c.kind == "hcp":
            ok &= _OPS[c.op](hcps(h), c.value)
        else:
            has = (h >> np.uint64(c.card)) & np.uint64(1) == 1
            ok &= has if c.kind == "has" else ~has
    return ok


def nth_card(hands: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """Bit mask of the ``idx``-th card (counting set bits from the lowest) of each hand."""
    h = hands.astype(np.uint64).copy()
    idx = idx.astype(np.int64) % np.maximum(np.bitwise_count(h).astype(np.int64), 1)
    for _ in range(int(idx.max(initial=0))):
        sel = idx > 0
        h[sel] &= h[sel] - np.uint64(1)  # drop the lowest card
        idx[sel] -= 1
    return h & (~h + np.uint64(1))  # lowest set bit
