"""Card notation <-> arrays: the one place where text becomes numbers.

Representation (used by every layer below this module):

* Suits are numbered in PBN order ``S=0, H=1, D=2, C=3``; ``NT=4`` stands for no trump.
* Ranks are 2..14 (14 = ace). Rank 15 is reserved for the Russian "boston" card after it
  has been moved into the trump suit (RULES.md §1.2, A-40); see :func:`boston_card_transform`.
* A card is the bit number ``suit * 16 + rank`` of a 64-bit mask: each suit owns a 16-bit
  lane, so a hand is one ``uint64`` and a suit holding is ``(hand >> (16 * suit)) & 0xFFFF``.
* A deal is a ``numpy`` array of four ``uint64`` hands indexed by compass seat
  ``N=0, E=1, S=2, W=3``; play goes N -> E -> S -> W (clockwise, "to the left").

Seats: the rules speak of playing-order seats (``eldest``, ``second``, ``third``, ``dealer``;
P0..P3 in RULES.md §0). The solver only needs the order of play, so the analysis puts
playing-order seat Pi at compass seat i: eldest = N, second = E, third = S, dealer = W.
For Russian Boston, where play rotates to the right (A-41), the same mapping still holds
because it is defined by the order of play, not by the physical table.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import numpy as np

SUITS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
STRAINS = ("S", "H", "D", "C", "NT")
NT = 4
RANK_CHARS = "23456789TJQKA"  # index + 2 = rank
COMPASS = "NESW"
PLAY_SEATS = ("eldest", "second", "third", "dealer")
LANE_MASK = 0xFFFF
FULL_SUIT = 0x7FFC  # ranks 2..14 of one lane
FULL_DECK = sum(FULL_SUIT << (16 * s) for s in range(4))

_SYMBOL_TO_SUIT = {sym: SUITS[i] for i, sym in enumerate(SUIT_SYMBOLS)}
_SYMBOL_TO_SUIT.update({"♤": "S", "♡": "H", "♢": "D", "♧": "C"})


class NotationError(ValueError):
    """Raised for any malformed hand, deal, card, seat or strain; the message is one line."""


# --------------------------------------------------------------------------- cards


def card_bit(suit: int, rank: int) -> int:
    """Bit number of a card in a hand mask."""
    return suit * 16 + rank


def card_mask(suit: int, rank: int) -> int:
    return 1 << card_bit(suit, rank)


def _rank_value(ch: str) -> int:
    idx = RANK_CHARS.find(ch.upper())
    if idx < 0:
        raise NotationError(f"unknown rank {ch!r} (use A K Q J T or 10, 9 ... 2)")
    return idx + 2


def _ranks_of_holding(text: str, suit_letter: str) -> list[int]:
    """Ranks of one suit holding such as ``AKT2``, ``AK102``, ``-`` or ``""``."""
    t = text.strip()
    if t in ("", "-", "—"):
        return []
    t = t.replace("10", "T")
    ranks: list[int] = []
    for ch in t:
        if ch.isspace():
            continue
        r = _rank_value(ch)
        if r in ranks:
            raise NotationError(f"duplicate card {suit_letter}{RANK_CHARS[r - 2]}")
        ranks.append(r)
    return ranks


def parse_card(text: str) -> int:
    """``'SA'``, ``'AS'``, ``'♠A'``, ``'10H'``, ``'h10'`` -> card bit number."""
    t = text.strip()
    for sym, letter in _SYMBOL_TO_SUIT.items():
        t = t.replace(sym, letter)
    t = t.upper().replace("10", "T")
    if len(t) != 2:
        raise NotationError(f"cannot read card {text!r} (expected suit and rank, e.g. SA or 10H)")
    if t[0] in SUITS and t[1] in RANK_CHARS:
        suit, rank = SUITS.index(t[0]), _rank_value(t[1])
    elif t[1] in SUITS and t[0] in RANK_CHARS:
        suit, rank = SUITS.index(t[1]), _rank_value(t[0])
    else:
        raise NotationError(f"cannot read card {text!r} (expected suit and rank, e.g. SA or 10H)")
    return card_bit(suit, rank)


def format_card(bit: int, style: str = "letters") -> str:
    suit, rank = divmod(bit, 16)
    if not 0 <= suit < 4 or not 2 <= rank <= 15:
        raise NotationError(f"not a card: bit {bit}")
    rch = "B" if rank == 15 else RANK_CHARS[rank - 2]
    s = SUIT_SYMBOLS[suit] if style == "symbols" else SUITS[suit]
    return f"{s}{rch}"


def cards_of(hand: int) -> list[int]:
    """Bit numbers of the cards in a hand, spades first, high cards first within a suit."""
    out = []
    for s in range(4):
        lane = (int(hand) >> (16 * s)) & LANE_MASK
        for r in range(15, 1, -1):
            if lane >> r & 1:
                out.append(s * 16 + r)
    return out


def count_cards(hand: int) -> int:
    return int(hand).bit_count()


def suit_length(hand: int, suit: int) -> int:
    return ((int(hand) >> (16 * suit)) & LANE_MASK).bit_count()


def hcp(hand: int) -> int:
    """Milton Work points (A4 K3 Q2 J1), used by sampling constraints."""
    total = 0
    for s in range(4):
        lane = (int(hand) >> (16 * s)) & LANE_MASK
        total += 4 * (lane >> 14 & 1) + 3 * (lane >> 13 & 1) + 2 * (lane >> 12 & 1) + (lane >> 11 & 1)
    return total


# --------------------------------------------------------------------------- hands

_LETTER_FORM = re.compile(r"([SHDC♠♥♦♣♤♡♢♧])\s*:?\s*([0-9AKQJTakqjt\-—]*)", re.IGNORECASE)


def parse_hand(text: str, *, cards: int | None = 13) -> int:
    """Read a hand in any supported notation and return its 64-bit mask.

    Accepted forms (ranks case-insensitive, ``T`` or ``10`` for ten, ``-`` or nothing for a void):

    * PBN dotted, suits in S.H.D.C order: ``AKQ2.JT9.876.543``
    * suit letters: ``S:AKQ2 H:JT9 D:876 C:543`` or ``SAKQ2 HJT9 D876 C543``
    * suit symbols: ``♠AKQ2 ♥JT9 ♦876 ♣543``

    ``cards`` is the required number of cards (13 for a full hand); ``None`` accepts any number.
    """
    if not isinstance(text, str):
        raise NotationError(f"a hand must be text, got {type(text).__name__}")
    t = text.strip()
    if not t:
        raise NotationError("empty hand")
    holdings: dict[int, list[int]] = {}
    if "." in t:
        parts = t.split(".")
        if len(parts) != 4:
            raise NotationError(
                f"dotted hand {text!r} must have 4 suits (S.H.D.C), found {len(parts)}"
            )
        for s, part in enumerate(parts):
            holdings[s] = _ranks_of_holding(part, SUITS[s])
    else:
        pos = 0
        body = t
        for m in _LETTER_FORM.finditer(body):
            gap = body[pos : m.start()].strip(" ,;")
            if gap:
                raise NotationError(f"cannot read {gap!r} in hand {text!r}")
            letter = m.group(1).upper()
            letter = _SYMBOL_TO_SUIT.get(letter, letter)
            s = SUITS.index(letter)
            if s in holdings:
                raise NotationError(f"suit {letter} appears twice in hand {text!r}")
            holdings[s] = _ranks_of_holding(m.group(2), letter)
            pos = m.end()
        rest = body[pos:].strip(" ,;")
        if rest or not holdings:
            bad = rest or body
            raise NotationError(
                f"cannot read hand {text!r} near {bad!r} "
                "(use AKQ2.JT9.876.543, S:AKQ2 H:JT9 D:876 C:543 or ♠AKQ2 ♥JT9 ♦876 ♣543)"
            )
    mask = 0
    for s, ranks in holdings.items():
        for r in ranks:
            mask |= card_mask(s, r)
    n = mask.bit_count()
    if cards is not None and n != cards:
        raise NotationError(f"hand {text!r} has {n} cards, expected {cards}")
    return mask


def format_hand(hand: int, style: str = "pbn") -> str:
    """Format a hand mask; ``style`` is ``pbn`` (dotted), ``letters`` or ``symbols``."""
    hand = int(hand)
    parts = []
    for s in range(4):
        lane = (hand >> (16 * s)) & LANE_MASK
        parts.append("".join("B" if r == 15 else RANK_CHARS[r - 2] for r in range(15, 1, -1) if lane >> r & 1))
    if style == "pbn":
        return ".".join(parts)
    if style == "letters":
        return " ".join(f"{SUITS[s]}:{p or '-'}" for s, p in enumerate(parts))
    if style == "symbols":
        return " ".join(f"{SUIT_SYMBOLS[s]}{p or '-'}" for s, p in enumerate(parts))
    raise NotationError(f"unknown hand style {style!r} (pbn, letters, symbols)")


# --------------------------------------------------------------------------- deals


def parse_deal(text: str) -> np.ndarray:
    """Read a PBN deal ``"N:hand hand hand hand"`` (first seat any of N/E/S/W, hands clockwise).

    Hands are PBN dotted. Endings (every hand with the same number of cards, 1..13) are
    accepted. Returns ``uint64[4]`` indexed N, E, S, W.
    """
    if not isinstance(text, str) or not text.strip():
        raise NotationError("empty deal")
    t = text.strip().strip('"')
    m = re.fullmatch(r"([NESWnesw])\s*:\s*(.*)", t)
    if not m:
        raise NotationError(f"deal {text!r} must start with a seat and a colon, e.g. 'N:AKQ2.JT9.876.543 ...'")
    first = COMPASS.index(m.group(1).upper())
    hands_txt = m.group(2).split()
    if len(hands_txt) != 4:
        raise NotationError(f"deal {text!r} must have 4 hands, found {len(hands_txt)}")
    hands = np.zeros(4, dtype=np.uint64)
    for i, h in enumerate(hands_txt):
        seat = (first + i) % 4
        try:
            hands[seat] = np.uint64(parse_hand(h, cards=None))
        except NotationError as e:
            raise NotationError(f"{COMPASS[seat]} hand: {e}") from None
    validate_deal(hands)
    return hands


def validate_deal(hands: Sequence[int] | np.ndarray) -> None:
    """Check four disjoint hands of equal size 1..13 (a complete deal or an ending)."""
    if len(hands) != 4:
        raise NotationError(f"a deal needs 4 hands, got {len(hands)}")
    seen = 0
    counts = []
    for seat, h in enumerate(hands):
        h = int(h)
        if h & ~FULL_DECK:
            raise NotationError(f"{COMPASS[seat]} hand holds a bit that is not a card")
        dup = seen & h
        if dup:
            card = format_card(cards_of(dup)[0])
            raise NotationError(f"card {card} is in two hands")
        seen |= h
        counts.append(h.bit_count())
    if len(set(counts)) != 1:
        detail = ", ".join(f"{COMPASS[i]} {c}" for i, c in enumerate(counts))
        raise NotationError(f"hands have unequal numbers of cards ({detail})")
    if not 1 <= counts[0] <= 13:
        raise NotationError(f"each hand must hold 1 to 13 cards, found {counts[0]}")


def format_deal(hands: Sequence[int] | np.ndarray, first: str = "N") -> str:
    """PBN deal string starting with seat ``first``; round-trips with :func:`parse_deal`."""
    f = parse_compass(first)
    return COMPASS[f] + ":" + " ".join(format_hand(int(hands[(f + i) % 4])) for i in range(4))


def deal_remaining(known: Iterable[int]) -> int:
    """Mask of the cards not in any of ``known`` hands."""
    m = FULL_DECK
    for h in known:
        m &= ~int(h)
    return m


# --------------------------------------------------------------------------- seats and strains


def parse_compass(text: str | int) -> int:
    if isinstance(text, (int, np.integer)):
        if 0 <= int(text) < 4:
            return int(text)
        raise NotationError(f"seat {text} out of range 0..3")
    t = str(text).strip().upper()
    names = {"N": 0, "NORTH": 0, "E": 1, "EAST": 1, "S": 2, "SOUTH": 2, "W": 3, "WEST": 3}
    if t not in names:
        raise NotationError(f"unknown seat {text!r} (use N, E, S or W)")
    return names[t]


def parse_play_seat(text: str | int) -> int:
    """``eldest|second|third|dealer`` (or 0..3, P0..P3) -> playing-order index."""
    if isinstance(text, (int, np.integer)):
        if 0 <= int(text) < 4:
            return int(text)
        raise NotationError(f"seat {text} out of range 0..3")
    t = str(text).strip().lower()
    aliases = {"eldest": 0, "first": 0, "p0": 0, "second": 1, "p1": 1, "third": 2, "p2": 2,
               "dealer": 3, "fourth": 3, "p3": 3}
    if t not in aliases:
        raise NotationError(f"unknown seat {text!r} (use eldest, second, third or dealer)")
    return aliases[t]


def play_seat_to_compass(play_seat: int, dealer: int = 3) -> int:
    """Compass seat of playing-order seat ``play_seat`` when the dealer sits at ``dealer``.

    Eldest is the dealer's left-hand neighbour, the next compass seat clockwise.
    With the default ``dealer = W`` this is the identity (eldest = N).
    """
    return (dealer + 1 + play_seat) % 4


def parse_strain(text: str | int) -> int:
    """``S H D C NT`` (or symbols, names, 0..4) -> strain index (NT = 4)."""
    if isinstance(text, (int, np.integer)):
        if 0 <= int(text) <= 4:
            return int(text)
        raise NotationError(f"strain {text} out of range 0..4")
    t = str(text).strip()
    if t in _SYMBOL_TO_SUIT:
        return SUITS.index(_SYMBOL_TO_SUIT[t])
    u = t.upper()
    names = {"S": 0, "SPADES": 0, "H": 1, "HEARTS": 1, "D": 2, "DIAMONDS": 2, "C": 3, "CLUBS": 3,
             "NT": 4, "N": 4, "NOTRUMP": 4, "NO TRUMP": 4, "NONE": 4}
    if u not in names:
        raise NotationError(f"unknown trump {text!r} (use S, H, D, C or NT)")
    return names[u]


# --------------------------------------------------------------------------- the boston card


def boston_card_transform(hands: np.ndarray, trump: int) -> np.ndarray:
    """Move the Russian "boston" card into the trump lane as rank 15 (RULES.md §1.2, A-40).

    The boston card is J♦, or J♥ when diamonds are trumps; there is none in no trump.
    Works on one deal (``uint64[4]``) or a batch (``uint64[M, 4]``); returns a new array.
    """
    out = np.array(hands, dtype=np.uint64, copy=True)
    if trump == NT:
        return out
    bsuit = 1 if trump == 2 else 2  # J♥ when diamonds are trumps, else J♦
    src = np.uint64(1 << card_bit(bsuit, 11))
    dst = np.uint64(1 << card_bit(trump, 15))
    holder = (out & src) != 0
    out[holder] = (out[holder] & ~src) | dst
    return out
