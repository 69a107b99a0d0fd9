"""Seeded random completions of the three unseen hands (docs/RULES.md §3.0 "Sampling").

Given the declarer's 13 cards, deal the 39 unseen cards uniformly at random, 13 to each other
seat, honouring what is known:

* the turned-up trump card, which lies in the dealer's hand in Solo Whist and Russian Boston
  (docs/RULES.md §1.3); it is simply a card pinned to the dealer;
* ``known`` cards pinned to seats (``SA@dealer``);
* ``constraints`` on another seat: suit length (``second:S5+``, ``dealer:H0-1``), high-card
  points (``third:hcp12-15``), holding or lacking a card (``eldest:has=SK``,
  ``eldest:lacks=SK``), shape (``second:shape=5xxx+4xxx``), and ors (``/``) of ands (``,``).
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
        raise SamplingError(f"the seed (--seed) must be a whole number >= 0, not {seed!r}")


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
    ``"shape"``: the four suit lengths (S, H, D, C) are one of ``shapes``. ``"any"``: an
    or of ands, ``terms`` holding the conditions of each and (all on ``seat``).
    """

    seat: int
    kind: str
    op: str = ">="
    value: int = 0
    suit: int | None = None
    card: int | None = None
    text: str = ""
    shapes: frozenset[tuple[int, int, int, int]] = frozenset()
    terms: tuple[tuple[Constraint, ...], ...] = ()

    def describe(self) -> str:
        return self.text or repr(self)


CONSTRAINT_EXAMPLES = ("second:H5+, dealer:H0-1, third:hcp12-15, eldest:has=SK, "
                       "second:shape=5xxx+4xxx, second:H5+/S5+ (or), third:hcp12+,H4+ (and)")
"""The forms :func:`parse_constraint` reads, for messages and help."""

_CONSTRAINT_RE = re.compile(r"^\s*([A-Za-z0-9]+)\s*:\s*(.+?)\s*$")
_CMP_RE = re.compile(r"^([A-Za-z♠♥♦♣]+)(>=|<=|==|!=|=|>|<)(-?\d+)$")
_RANGE_RE = re.compile(r"^([A-Za-z♠♥♦♣]+?)(\d+)(\+|-\d*)?$")
_OR_RE = re.compile(r"\s+or\s+|/", re.IGNORECASE)
_AND_RE = re.compile(r"\s+and\s+|,", re.IGNORECASE)
_PATTERN_RE = re.compile(r"^(any)?([0-9x]{4})$", re.IGNORECASE)
_SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
HAND_SIZE = 13


def _bad(text: str, why: str = "") -> SamplingError:
    detail = f": {why}" if why else ""
    return SamplingError(f"cannot read constraint {text!r}{detail} (e.g. {CONSTRAINT_EXAMPLES})")


def _shape_set(spec: str, text: str) -> frozenset[tuple[int, int, int, int]]:
    """``5xxx+4xxx-any4333``: patterns of four suit lengths (S H D C; ``x`` any, ``any``
    in any suit order), joined by ``+`` (or) and ``-`` (but not), read left to right."""
    import itertools

    every = [t for t in itertools.product(range(HAND_SIZE + 1), repeat=4) if sum(t) == HAND_SIZE]
    out: set[tuple[int, int, int, int]] = set()
    for sign, pattern in re.findall(r"([+-]?)([^+-]+)", spec):
        m = _PATTERN_RE.match(pattern)
        if not m:
            raise _bad(text, f"shape pattern {pattern!r} is not like 5xxx or any4333")
        fixed = [None if ch.lower() == "x" else int(ch) for ch in m.group(2)]
        orders = set(itertools.permutations(fixed)) if m.group(1) else {tuple(fixed)}
        hits = {t for t in every
                if any(all(f is None or f == n for f, n in zip(o, t, strict=True))
                       for o in orders)}
        out = out - hits if sign == "-" else out | hits
    if not out:
        raise _bad(text, "no 13-card shape matches")
    return frozenset(out)


def _atom(seat: int, body: str, text: str) -> list[Constraint]:
    """One condition (``H5+``, ``hcp12-15``, ``S>=5``, ``has=SK``, ``shape=5xxx``) as the
    simple constraints that must all hold."""
    low = body.lower()
    for kind in ("has", "lacks"):
        if low.startswith(kind + "=") or low.startswith(kind + ":"):
            try:
                card = parse_card(body[len(kind) + 1:])
            except NotationError as e:
                raise SamplingError(f"constraint {text!r}: {e}") from None
            return [Constraint(seat, kind, card=card, text=text)]
    if low.startswith("shape=") or low.startswith("shape:"):
        return [Constraint(seat, "shape", shapes=_shape_set(body[len("shape") + 1:], text),
                           text=text)]
    c = _CMP_RE.match(body)
    if c:
        return [_stat(seat, c.group(1), c.group(2), int(c.group(3)), text)]
    r = _RANGE_RE.match(body)
    if not r:
        raise _bad(text)
    what, lo, tail = r.group(1), int(r.group(2)), r.group(3) or ""
    if tail == "+":
        return [_stat(seat, what, ">=", lo, text)]
    if tail == "-":
        return [_stat(seat, what, "<=", lo, text)]
    if tail:
        hi = int(tail[1:])
        if hi < lo:
            raise _bad(text, f"the range {lo}-{hi} is empty")
        return [_stat(seat, what, ">=", lo, text), _stat(seat, what, "<=", hi, text)]
    return [_stat(seat, what, "=", lo, text)]


def _stat(seat: int, what: str, op: str, value: int, text: str) -> Constraint:
    if what.lower() in ("hcp", "points"):
        return Constraint(seat, "hcp", op=op, value=value, text=text)
    sym = _SUIT_SYMBOLS.get(what, what.upper())
    if sym not in SUITS:
        raise SamplingError(f"constraint {text!r}: unknown suit or statistic {what!r} "
                            "(use S, H, D, C or hcp)")
    return Constraint(seat, "length", op=op, value=value, suit=SUITS.index(sym), text=text)


def parse_constraint(text: str) -> Constraint:
    """A condition on one seat's hand -> :class:`Constraint` (seat as a compass index).

    Shell-safe forms: ``second:H5+`` (5 or more hearts), ``dealer:H0-1``, ``dealer:H1-``
    (at most 1), ``third:hcp12+``, ``third:hcp12-15``, ``second:H5`` (exactly 5),
    ``eldest:has=SK``, ``eldest:lacks=SK``, ``second:shape=5xxx+4xxx`` (suit lengths S H D C;
    ``+`` or, ``-`` but not, ``any4333`` in any order); ``,`` (or ``and``) joins conditions
    that must all hold, ``/`` (or ``or``) alternatives. The comparison form ``second:S>=5``
    also works when quoted."""
    m = _CONSTRAINT_RE.match(text or "")
    if not m:
        raise _bad(text)
    try:
        seat = parse_seat(m.group(1))
    except NotationError as e:
        raise SamplingError(f"constraint {text!r}: {e}") from None
    clean = text.strip()
    terms = []
    for alternative in _OR_RE.split(m.group(2)):
        term: list[Constraint] = []
        for part in _AND_RE.split(alternative):
            body = part.replace(" ", "")
            if not body:
                raise _bad(text, "an empty condition")
            term.extend(_atom(seat, body, clean))
        terms.append(tuple(term))
    if len(terms) == 1 and len(terms[0]) == 1:
        return terms[0][0]
    return Constraint(seat, "any", terms=tuple(terms), text=clean)


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
    if c.kind == "any":
        return any(all(_holds(a, hand) for a in term) for term in c.terms)
    if c.kind == "shape":
        return tuple(suit_length(hand, s) for s in range(len(SUITS))) in c.shapes
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


def _never_met(c: Constraint, fixed_hand: int, slots: int, free: list[int]) -> str | None:
    """Why ``c`` can never hold for a seat holding ``fixed_hand`` plus ``slots`` of the
    ``free`` cards, or None when it can (for an or of ands: when some and has each of its
    conditions possible; a combination that still fails ends at the rejection cap)."""
    if c.kind == "any":
        reasons = [[_never_met(a, fixed_hand, slots, free) for a in term] for term in c.terms]
        if any(not any(r) for r in reasons):
            return None
        return next(x for r in reasons for x in r if x)
    if c.kind == "shape":
        ranges = [_feasible_range([1 if card // 16 == s else 0 for card in free], slots,
                                  suit_length(fixed_hand, s)) for s in range(len(SUITS))]
        if any(all(lo <= n <= hi for n, (lo, hi) in zip(shape, ranges, strict=True))
               for shape in c.shapes):
            return None
        return "no such shape can be dealt there"
    if c.kind in ("has", "lacks"):
        bit = 1 << c.card
        if c.kind == "has" and not (fixed_hand & bit) and (c.card not in free or slots == 0):
            return f"{format_card(c.card)} is elsewhere"
        if c.kind == "lacks" and fixed_hand & bit:
            return f"{format_card(c.card)} is pinned there"
        return None
    if c.kind == "length":
        values = [1 if card // 16 == c.suit else 0 for card in free]
        if not _can_meet(c, values, slots, suit_length(fixed_hand, c.suit)):
            return "not enough cards of that suit are unseen"
        return None
    if not _can_meet(c, [_hcp_of(card) for card in free], slots, hcp(fixed_hand)):
        return "not enough high-card points are unseen"
    return None


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
            why = _never_met(c, pinned[c.seat], self.slots[c.seat], free_list)
            if why:
                raise SamplingError(f"constraint {c.describe()} can never be met ({why})")
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

    def twin(self) -> Sampler:
        """A new sampler of the same hand, seat, cards, constraints and seed: it draws the
        same deals in the same order, from the first."""
        return Sampler(self.hand, self.declarer, list(self.known), list(self.constraints),
                       self.seed, self.max_rejections)

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
        ok &= _mask_of(c, deals)
    return ok


def _mask_of(c: Constraint, deals: np.ndarray) -> np.ndarray:
    """Boolean mask of the deals meeting one constraint."""
    h = deals[:, c.seat]
    if c.kind == "any":
        ok = np.zeros(len(deals), dtype=bool)
        for term in c.terms:
            ok |= accept_mask(deals, list(term))
        return ok
    if c.kind == "shape":
        base = HAND_SIZE + 1
        code = np.zeros(len(deals), dtype=np.int64)
        for s in range(len(SUITS)):
            code = code * base + suit_lengths(h, s)
        allowed = [((a * base + b) * base + c3) * base + d for a, b, c3, d in c.shapes]
        return np.isin(code, np.array(allowed, dtype=np.int64))
    if c.kind == "length":
        return _OPS[c.op](suit_lengths(h, c.suit), c.value)
    if c.kind == "hcp":
        return _OPS[c.op](hcps(h), c.value)
    has = (h >> np.uint64(c.card)) & np.uint64(1) == 1
    return has if c.kind == "has" else ~has


def nth_card(hands: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """Bit mask of the ``idx``-th card (counting set bits from the lowest) of each hand."""
    h = hands.astype(np.uint64).copy()
    idx = idx.astype(np.int64) % np.maximum(np.bitwise_count(h).astype(np.int64), 1)
    for _ in range(int(idx.max(initial=0))):
        sel = idx > 0
        h[sel] &= h[sel] - np.uint64(1)  # drop the lowest card
        idx[sel] -= 1
    return h & (~h + np.uint64(1))  # lowest set bit
