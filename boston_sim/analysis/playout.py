"""Card-by-card play of many deals at once, each seat double-dummy or single-dummy.

A double-dummy seat sees all four hands and plays a card of best value. A single-dummy seat
(Monte Carlo, "PIMC") sees its own hand, the cards played, the voids shown and any exposed
hand; it draws ``layouts`` layouts of the rest (:mod:`.layouts`) and plays the card with the
best mean result over them, each layout valued double-dummy after the card. A result is the
declarer's net counters at the final trick count (``Game.net``): the declaring side
maximises it, the defenders minimise it. Ties go to the lowest card, and equal cards (no
outstanding card between them) are one choice.

The deals advance in lock step: every decision of one step, over all deals, candidates and
layouts, is one parallel batch of the solver. A seat's layouts are drawn from a generator
seeded by what it knows (its hand and the play so far), so the numbers do not depend on
the thread count, and one hand with one history always makes one choice.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from .layouts import Knowledge, draw_layouts

SEATS = 4
NO_CARD = -1
ALL_CARDS = 52


@dataclass(frozen=True)
class Game:
    """One contract as played out: ``trump`` (0..4), ``leader`` (compass seat on lead),
    ``mode`` ``"max"`` (a trick contract) or ``"min"`` (a misère: the side minimises its
    tricks), ``net`` (float64[14]: the declarer's net by the side's tricks), ``declarer``
    and ``exposed`` (the declarer's hand shown: None, ``"before_first_lead"`` or
    ``"after_first_trick"``)."""

    trump: int
    leader: int
    mode: str
    net: np.ndarray
    declarer: int
    exposed: str | None = None


# Who plays single-dummy: f(seat is on the declaring side, cards played so far) -> bool.
Policy = Callable[[bool, int], bool]


@dataclass
class Table:
    """The state of ``n`` deals in play (arrays over deals)."""

    hands: np.ndarray  # uint64[n, 4] cards still held
    side: np.ndarray  # int64[n] declaring side's seat mask
    trick: np.ndarray  # int64[n, 4] cards of the current trick in play order, -1 padded
    count: np.ndarray  # int64[n] cards in the current trick
    trick_leader: np.ndarray  # int64[n]
    won: np.ndarray  # int64[n] tricks the side has won
    played_by: np.ndarray  # uint64[n, 4]
    voids: np.ndarray  # int64[n] bit seat*4 + suit: shown out
    history: np.ndarray  # int64[n, 52] cards in the order played
    plays: np.ndarray  # int64[n] cards played
    stop_at: int = ALL_CARDS  # the play stops once the side has this many tricks

    @classmethod
    def start(cls, deals: np.ndarray, side: np.ndarray, leader: int,
              misere: bool = False) -> Table:
        """Deals about to be played; a misère stops at the declarer's first trick (it has
        failed, whatever follows)."""
        n = len(deals)
        return cls(hands=deals.astype(np.uint64).copy(), side=np.asarray(side, np.int64),
                   trick=np.full((n, SEATS), NO_CARD, np.int64), count=np.zeros(n, np.int64),
                   trick_leader=np.full(n, leader, np.int64), won=np.zeros(n, np.int64),
                   played_by=np.zeros((n, SEATS), np.uint64), voids=np.zeros(n, np.int64),
                   history=np.full((n, ALL_CARDS), NO_CARD, np.int64),
                   plays=np.zeros(n, np.int64), stop_at=1 if misere else ALL_CARDS)

    def to_play(self, i: int) -> int:
        return int((self.trick_leader[i] + self.count[i]) % SEATS)

    def live(self) -> np.ndarray:
        return np.flatnonzero((np.bitwise_or.reduce(self.hands, axis=1) != 0)
                              & (self.won < self.stop_at))

    def play(self, i: int, card: int, trump: int) -> None:
        """Seat to play in deal ``i`` plays ``card``; a complete trick is gathered."""
        seat = self.to_play(i)
        bit = np.uint64(1) << np.uint64(card)
        self.hands[i, seat] &= ~bit
        self.played_by[i, seat] |= bit
        k = int(self.count[i])
        if k and card // 16 != self.trick[i, 0] // 16:  # a legal play: he has none
            self.voids[i] |= 1 << (seat * 4 + int(self.trick[i, 0]) // 16)
        self.trick[i, k] = card
        self.history[i, self.plays[i]] = card
        self.plays[i] += 1
        self.count[i] = k + 1
        if k + 1 == SEATS:
            w = (int(self.trick_leader[i]) + trick_winner(self.trick[i], trump)) % SEATS
            self.won[i] += (int(self.side[i]) >> w) & 1
            self.trick_leader[i] = w
            self.trick[i] = NO_CARD
            self.count[i] = 0


def trick_winner(trick: np.ndarray, trump: int) -> int:
    """Position (0..3) in the trick of its winning card."""
    best = 0
    for j in range(1, SEATS):
        a, b = int(trick[best]), int(trick[j])
        if b // 16 == a // 16:
            if b > a:
                best = j
        elif b // 16 == trump:
            best = j
    return best


def choices(hand: int, led: int, outstanding: int) -> list[int]:
    """The distinct legal cards of ``hand`` (lowest of each run of equal cards, lowest
    first): follow suit ``led`` (-1: on lead) if able; two cards are equal when every card
    between them is in the hand or gone (``outstanding``: the cards still out elsewhere,
    the current trick's included)."""
    if led >= 0 and (hand >> (16 * led)) & 0xFFFF:
        hand &= 0xFFFF << (16 * led)
    out = []
    for s in range(4):
        lane = (hand >> (16 * s)) & 0xFFFF
        others = (outstanding >> (16 * s)) & 0xFFFF
        prev = -1
        for r in range(16):
            if lane >> r & 1:
                if prev < 0 or others & (((1 << r) - 1) & ~((1 << (prev + 1)) - 1)):
                    out.append((r, s))
                prev = r
    out.sort()
    return [s * 16 + r for r, s in out]


def info_seed(seed: int, seat: int, hand: int, history: np.ndarray) -> int:
    """A generator seed from what a seat knows: one history, one set of layouts (in every
    run of the bracket, so that a decision met again is looked up, not solved again)."""
    h = hashlib.blake2b(digest_size=8)
    h.update(np.asarray([seed, seat, hand], np.uint64).tobytes())
    h.update(np.asarray(history, np.int64).tobytes())
    return int.from_bytes(h.digest(), "little")


# values(hands, trick, trick_leader, trump, side_mask, mode) -> the side's tricks from there;
# questions(hands, trick, trick_leader, trump, side_mask, kind, need) -> yes / no
Values = Callable[..., np.ndarray]


@dataclass
class Players:
    """How the seats choose: ``policy`` (who is single-dummy), ``layouts`` (K, the layouts a
    single-dummy seat draws), ``knowledge`` (what everyone knows), ``seed`` (of the layouts'
    generators), ``values`` and ``questions`` (the solver's mid-trick values and yes/no
    answers) and ``memo`` (values already solved, by position: runs that share it solve a
    position once)."""

    policy: Policy
    layouts: int
    knowledge: Knowledge
    seed: int
    values: Values
    questions: Values
    memo: dict[bytes, int] = field(default_factory=dict)


@dataclass
class _Ask:
    deal: int
    seat: int
    cands: list[int]
    worlds: np.ndarray  # uint64[w, 4]


def _exposed(game: Game, plays: int) -> int:
    shown = game.exposed == "before_first_lead" or (
        game.exposed == "after_first_trick" and plays >= SEATS)
    return (1 << game.declarer) if shown else 0


def _ask(t: Table, i: int, game: Game, pl: Players) -> _Ask | int:
    """The decision of deal ``i``'s seat to play: a forced card, or what to solve."""
    seat = t.to_play(i)
    k = int(t.count[i])
    led = int(t.trick[i, 0]) // 16 if k else -1
    hand = int(t.hands[i, seat])
    outstanding = 0
    for s in range(SEATS):
        if s != seat:
            outstanding |= int(t.hands[i, s])
    for c in t.trick[i, :k]:
        outstanding |= 1 << int(c)
    cands = choices(hand, led, outstanding)
    if len(cands) == 1:
        return cands[0]
    if pl.policy(bool(t.side[i] >> seat & 1), int(t.plays[i])):
        rng = np.random.default_rng(info_seed(pl.seed, seat, hand,
                                              t.history[i, :t.plays[i]]))
        worlds = draw_layouts(t.hands[i], t.played_by[i], seat, _exposed(game, int(t.plays[i])),
                              int(t.voids[i]), pl.layouts, rng, pl.knowledge)
    else:
        worlds = t.hands[i][None, :]
    return _Ask(i, seat, cands, worlds)


def _solve_asks(t: Table, asks: list[_Ask], game: Game, pl: Players) -> list[np.ndarray]:
    """Per ask, the declarer's net ``[candidate, world]`` after each candidate card."""
    rows_h, rows_t, rows_l, rows_s, rows_w = [], [], [], [], []
    for a in asks:
        k = int(t.count[a.deal])
        for c in a.cands:
            bit = np.uint64(1) << np.uint64(c)
            h = a.worlds.copy()
            h[:, a.seat] &= ~bit
            tr = t.trick[a.deal].copy()
            tr[k] = c
            rows_h.append(h)
            rows_t.append(np.tile(tr, (len(h), 1)))
            rows_l.append(np.full(len(h), t.trick_leader[a.deal], np.int64))
            rows_s.append(np.full(len(h), t.side[a.deal], np.int64))
            rows_w.append(np.full(len(h), t.won[a.deal], np.int64))
    hands, trick = np.concatenate(rows_h), np.concatenate(rows_t)
    leader, side, won = np.concatenate(rows_l), np.concatenate(rows_s), np.concatenate(rows_w)
    tricks = cached_values(pl, game, hands, trick, leader, side)
    net = game.net[won + tricks]
    out, lo = [], 0
    for a in asks:
        size = len(a.cands) * len(a.worlds)
        out.append(net[lo:lo + size].reshape(len(a.cands), len(a.worlds)))
        lo += size
    return out


def cached_values(pl: Players, game: Game, hands: np.ndarray, trick: np.ndarray,
                  leader: np.ndarray, side: np.ndarray) -> np.ndarray:
    """The side's tricks from each position, each distinct position solved once (``pl.memo``)
    and the rest in one batch per side. In a misère (``mode="min"``, played until the
    declarer's first trick) 0 if he can still escape, else 1: the yes/no search, far cheaper
    than his fewest tricks."""
    tag = np.asarray([game.trump, 1 if game.mode == "max" else 0], np.int64).tobytes()
    keys = [hands[i].tobytes() + trick[i].tobytes() + leader[i:i + 1].tobytes()
            + side[i:i + 1].tobytes() + tag for i in range(len(hands))]
    todo = {}
    for i, k in enumerate(keys):
        if k not in pl.memo and k not in todo:
            todo[k] = i
    rows = np.fromiter(todo.values(), np.int64, len(todo))
    for m in np.unique(side[rows]):
        sel = rows[side[rows] == m]
        if game.mode == "min":  # a misère pays the same for any failure: escape, or one trick
            got = 1 - pl.questions(hands[sel], trick[sel], leader[sel], game.trump, int(m),
                                   "at_most", np.zeros(len(sel), np.int64)).astype(np.int64)
        else:
            got = pl.values(hands[sel], trick[sel], leader[sel], game.trump, int(m), game.mode)
        for i, v in zip(sel, got, strict=True):
            pl.memo[keys[i]] = int(v)
    return np.fromiter((pl.memo[k] for k in keys), np.int64, len(keys))


def step(t: Table, game: Game, pl: Players) -> bool:
    """Every live deal plays one card; False once every deal is over."""
    live = t.live()
    if not len(live):
        return False
    asks = []
    for i in live:
        a = _ask(t, int(i), game, pl)
        if isinstance(a, _Ask):
            asks.append(a)
        else:
            t.play(int(i), a, game.trump)
    if asks:
        for a, net in zip(asks, _solve_asks(t, asks, game, pl), strict=True):
            mean = net.mean(axis=1)
            declaring = bool(t.side[a.deal] >> a.seat & 1)
            pick = int(np.argmax(mean) if declaring else np.argmin(mean))
            t.play(a.deal, a.cands[pick], game.trump)
    return True


def play_out(t: Table, game: Game, pl: Players) -> np.ndarray:
    """Play every deal of ``t`` to its end; the declaring side's tricks per deal."""
    while step(t, game, pl):
        pass
    return t.won.copy()
