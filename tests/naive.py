"""A deliberately naive double-dummy reference for the fast solver's tests.

Plain minimax over every legal card, in pure Python, memoised only on the complete position
at trick boundaries (the four remaining hands and the leader). No bounds, no pruning, no
move ordering, no rank equivalence: slow, but each rule is written out once in the most
obvious way, so that it can be read and checked by eye:

* a card is bit ``suit * 16 + rank`` of a hand mask (``boston_sim.cards``); its suit is its
  lane, so the Russian boston card (rank 15 of the trump lane, A-40) is simply a trump;
* a player must follow the suit led if able, else may play any card (docs/RULES.md §1.5);
* the highest trump wins the trick, else the highest card of the suit led;
* the winner of a trick leads to the next; play goes clockwise N(0) -> E(1) -> S(2) -> W(3);
* the declaring side is any set of seats (``side_mask`` bit i = compass seat i); every seat
  of a side plays for that side (the defenders cooperate perfectly).

Usable up to about 5-6 cards per hand. Nothing here imports the fast solver.
"""

from __future__ import annotations

from functools import cache

import numpy as np

NT = 4
KINDS = ("at_least", "at_most", "exactly")


def cards_in(hand: int) -> list[int]:
    """Bit numbers of the cards in ``hand`` (any order: the search tries them all)."""
    out = []
    h = int(hand)
    while h:
        low = h & -h
        out.append(low.bit_length() - 1)
        h ^= low
    return out


def legal_cards(hand: int, led_suit: int | None) -> list[int]:
    """Cards that may be played: the suit led if the hand has any, else every card."""
    if led_suit is not None:
        same_suit = int(hand) & (0xFFFF << (16 * led_suit))
        if same_suit:
            return cards_in(same_suit)
    return cards_in(hand)


def trick_winner(leader: int, played: tuple[int, ...], trump: int) -> int:
    """Compass seat winning a complete trick; ``played[i]`` was played by ``(leader + i) % 4``."""
    led_suit = played[0] // 16

    def strength(card: int) -> tuple[int, int]:
        suit, rank = divmod(card, 16)
        if trump != NT and suit == trump:
            return (2, rank)
        if suit == led_suit:
            return (1, rank)
        return (0, 0)  # a discard never wins

    best = max(range(4), key=lambda i: strength(played[i]))
    return (leader + best) % 4


def _check(hands, trump: int, leader: int, side_mask: int) -> tuple[int, int, int, int]:
    hs = tuple(int(h) for h in hands)
    if len(hs) != 4:
        raise ValueError("need 4 hands")
    sizes = {h.bit_count() for h in hs}
    if len(sizes) != 1 or sizes == {0}:
        sizes_txt = [h.bit_count() for h in hs]
        raise ValueError(f"hands must be non-empty and equal in size, got {sizes_txt}")
    if any(hs[i] & hs[j] for i in range(4) for j in range(i + 1, 4)):
        raise ValueError("a card is in two hands")
    if not 0 <= trump <= 4 or not 0 <= leader <= 3 or not 0 < side_mask < 15:
        raise ValueError("bad trump, leader or side")
    return hs  # type: ignore[return-value]


# ---------------------------------------------------------------------------- numeric minimax


@cache
def _best(hands: tuple[int, int, int, int], leader: int, trump: int, side_mask: int,
          side_maximises: bool) -> int:
    """Tricks the side takes from this trick boundary on.

    ``side_maximises``: the side wants many tricks and the others few (normal play); if
    False the roles swap (misère-like play: the side tries to lose tricks).
    """
    if hands[0] == 0:
        return 0
    return _play(hands, leader, (), trump, side_mask, side_maximises)


def _play(hands, leader, played, trump, side_mask, side_maximises) -> int:
    """Value of a trick in progress: ``played`` cards so far, next seat to play chooses."""
    if len(played) == 4:
        winner = trick_winner(leader, played, trump)
        won = 1 if side_mask >> winner & 1 else 0
        return won + _best(hands, winner, trump, side_mask, side_maximises)
    seat = (leader + len(played)) % 4
    led_suit = played[0] // 16 if played else None
    values = []
    for card in legal_cards(hands[seat], led_suit):
        rest = list(hands)
        rest[seat] &= ~(1 << card)
        values.append(
            _play(tuple(rest), leader, played + (card,), trump, side_mask, side_maximises)
        )
    on_side = bool(side_mask >> seat & 1)
    wants_more = on_side == side_maximises
    return max(values) if wants_more else min(values)


def max_tricks(hands, trump: int, leader: int, side_mask: int) -> int:
    """Most tricks the side (seats in ``side_mask``) can make sure of, everyone playing best."""
    hs = _check(hands, trump, leader, side_mask)
    return _best(hs, leader, trump, side_mask, True)


def min_tricks(hands, trump: int, leader: int, side_mask: int) -> int:
    """Fewest tricks the side can hold itself to while the others try to give it tricks."""
    hs = _check(hands, trump, leader, side_mask)
    return _best(hs, leader, trump, side_mask, False)


# ---------------------------------------------------------------------------- yes/no games


@cache
def _reach(hands: tuple[int, int, int, int], leader: int, trump: int, side_mask: int,
           lo: int, hi: int) -> bool:
    """Can the side make sure that the tricks it takes from here on lie in ``[lo, hi]``?

    A separate game from :func:`_best` on purpose (the side wins or loses; no counting),
    so that the tests can check the two against each other.
    """
    left = hands[0].bit_count()
    if hi < 0 or lo > left:
        return False
    if left == 0:
        return lo <= 0 <= hi
    return _reach_play(hands, leader, (), trump, side_mask, lo, hi)


def _reach_play(hands, leader, played, trump, side_mask, lo, hi) -> bool:
    if len(played) == 4:
        winner = trick_winner(leader, played, trump)
        won = 1 if side_mask >> winner & 1 else 0
        return _reach(hands, winner, trump, side_mask, lo - won, hi - won)
    seat = (leader + len(played)) % 4
    led_suit = played[0] // 16 if played else None

    def outcomes():
        for card in legal_cards(hands[seat], led_suit):
            rest = list(hands)
            rest[seat] &= ~(1 << card)
            yield _reach_play(tuple(rest), leader, played + (card,), trump, side_mask, lo, hi)

    # any/all stop at the first deciding card: the only shortcut taken anywhere in this file
    return any(outcomes()) if side_mask >> seat & 1 else all(outcomes())


def can_reach(hands, trump: int, leader: int, side_mask: int, kind: str, target: int) -> bool:
    """The yes/no forms: ``kind`` is ``at_least``, ``at_most`` or ``exactly`` ``target`` tricks."""
    hs = _check(hands, trump, leader, side_mask)
    n = hs[0].bit_count()
    if kind == "at_least":
        lo, hi = target, n
    elif kind == "at_most":
        lo, hi = 0, target
    elif kind == "exactly":
        lo, hi = target, target
    else:
        raise ValueError(f"unknown kind {kind!r}")
    return _reach(hs, leader, trump, side_mask, lo, hi)


def clear_caches() -> None:
    """Free the memo tables (they grow with every position solved)."""
    _best.cache_clear()
    _reach.cache_clear()


def max_tricks_by_questions(hands, trump: int, leader: int, side_mask: int) -> int:
    """:func:`max_tricks` through the yes/no game: the largest k with "at least k" reachable.

    Much faster than the plain minimax on 5-6 card endings (the yes/no game stops at the first
    deciding card); the tests check both definitions agree on small endings.
    """
    n = int(hands[0]).bit_count()
    k = 0
    while k < n and can_reach(hands, trump, leader, side_mask, "at_least", k + 1):
        k += 1
    return k


def min_tricks_by_questions(hands, trump: int, leader: int, side_mask: int) -> int:
    """:func:`min_tricks` through the yes/no game: the smallest k with "at most k" reachable."""
    n = int(hands[0]).bit_count()
    k = n
    while k > 0 and can_reach(hands, trump, leader, side_mask, "at_most", k - 1):
        k -= 1
    return k


# ---------------------------------------------------------------------------- random positions

BOSTON_SOURCE = {0: 2 * 16 + 11, 1: 2 * 16 + 11, 2: 1 * 16 + 11, 3: 2 * 16 + 11}
"""Bit of the card that becomes the boston card for each trump: J♦, or J♥ with ♦ trumps."""

DECK = [s * 16 + r for s in range(4) for r in range(2, 15)]


def random_ending(rng, n: int, must_hold: tuple[int, ...] = ()) -> list[int]:
    """Four random disjoint hands of ``n`` cards each (N, E, S, W), drawn from the 52 cards.

    ``rng`` is a ``random.Random``; ``must_hold`` cards are always among the 4n cards dealt.
    """
    rest = [c for c in DECK if c not in must_hold]
    chosen = list(must_hold) + rng.sample(rest, 4 * n - len(must_hold))
    rng.shuffle(chosen)
    return [sum(1 << c for c in chosen[i * n : (i + 1) * n]) for i in range(4)]


def lowered(rng, hands: list[int], d: int, share: float = 0.6) -> list[int]:
    """Swap about ``share`` of seat ``d``'s cards with lower cards of their suit held by the
    others (in place; returned): endings where a lone misère declarer often escapes."""
    for bit in cards_in(hands[d]):
        if rng.random() < share:
            lower = [(b, i) for i in range(4) if i != d for b in cards_in(hands[i])
                     if b // 16 == bit // 16 and b < bit]
            if lower:
                low, owner = rng.choice(lower)
                hands[owner] ^= (1 << low) | (1 << bit)
                hands[d] ^= (1 << low) | (1 << bit)
    return hands


def trick_under_way(rng, n: int, least: int = 1) -> tuple[list[int], int, list[int]]:
    """A random ending of ``n`` cards a hand (``random_ending``) with ``least`` to 3 cards of
    its trick played legally: (hands left, leader, cards played in order)."""
    hands = random_ending(rng, n)
    leader = rng.randrange(4)
    played: list[int] = []
    for i in range(rng.randint(least, 3)):
        seat = (leader + i) % 4
        card = rng.choice(legal_cards(hands[seat], played[0] // 16 if played else None))
        hands[seat] &= ~(1 << card)
        played.append(card)
    return hands, leader, played


def lanes(hands: list[int]) -> np.ndarray:
    """The solver kernels' layout of four hands: int64[16], ``[seat * 4 + suit]`` = the
    16-bit holding of ``seat`` in ``suit``."""
    return np.array([(hands[seat] >> (16 * suit)) & 0xFFFF for seat in range(4)
                     for suit in range(4)], dtype=np.int64)
