"""Card notation <-> arrays: the one place where text becomes numbers.

Representation (used by every layer below this module):

* Suits are numbered in PBN order ``S=0, H=1, D=2, C=3``; ``NT=4`` stands for no trump.
* Ranks are 2..14 (14 = ace). Rank 15 is reserved for the Russian "boston" card after it
  has been moved into the trump suit (docs/RULES.md §1.2, A-40); see :func:`boston_card_transform`.
  It is written ``B`` (``♥B`` = the boston card as the top heart).
* A card is the bit number ``suit * 16 + rank`` of a 64-bit mask: each suit owns a 16-bit
  lane, so a hand is one ``uint64`` and a suit holding is ``(hand >> (16 * suit)) & 0xFFFF``.
* A deal is a ``numpy`` array of four ``uint64`` hands indexed by compass seat
  ``N=0, E=1, S=2, W=3``; play goes N -> E -> S -> W (clockwise, "to the left").

Notation accepted by :func:`parse_hand` (ranks and suit letters case-insensitive, ``T`` or
``10`` for the ten, ranks within a suit in any order):

* PBN dotted, suits always in S.H.D.C order: ``AKQ2.JT9.876.543``; a void is ``-`` or empty
  (``AKQ2..876.543``);
* suit letters, suits in any order, a missing suit is a void: ``S:AKQ2 H:JT9 D:876 C:543``,
  ``SAKQ2 HJT9 D876 C543``, ``S:AKQ2,H:JT9,D:876,C:543``;
* suit symbols: ``♠AKQ2 ♥JT9 ♦876 ♣543`` (white symbols ♤♡♢♧ too).

Deals are PBN deal strings ``"N:hand hand hand hand"`` with dotted hands, starting at any
compass seat and going clockwise; every hand holds the same number of cards (1..13, so
endings are deals too). :func:`format_hand` / :func:`format_deal` write each notation back,
and ``parse(format(x)) == x`` exactly.

Seats: the rules speak of playing-order seats ``eldest, second, third, dealer`` (P0..P3 in
docs/RULES.md §0; eldest is first to bid and, in most contracts, to lead). The solver only needs
the order of play, so the analysis puts the dealer at W, which makes playing-order seat Pi
compass seat i::

    eldest = N (0)    second = E (1)    third = S (2)    dealer = W (3)

(:func:`play_seat_to_compass` handles any other dealer position). For Russian Boston, where
play rotates to the right (A-41), the same mapping holds because it is defined by the order
of play, not by the physical table.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import numpy as np

from .errors import NotationError

__all__ = [
    "BOSTON_RANK",
    "COMPASS",
    "FULL_DECK",
    "HAND_STYLES",
    "NT",
    "PLAY_SEATS",
    "RANK_CHARS",
    "STRAINS",
    "SUITS",
    "SUIT_NAMES",
    "SUIT_SYMBOLS",
    "NotationError",
    "boston_card_transform",
    "card_bit",
    "card_mask",
    "cards_of",
    "compass_to_play_seat",
    "count_cards",
    "deal_remaining",
    "format_card",
    "format_compass",
    "format_deal",
    "format_hand",
    "format_play_seat",
    "format_strain",
    "hcp",
    "parse_card",
    "parse_compass",
    "parse_deal",
    "parse_hand",
    "parse_play_seat",
    "parse_strain",
    "play_seat_to_compass",
    "split_deal",
    "suit_length",
    "validate_deal",
]

SUITS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
STRAINS = ("S", "H", "D", "C", "NT")
NT = 4
RANK_CHARS = "23456789TJQKA"  # index + 2 = rank
BOSTON_RANK = 15  # the Russian boston card once it sits on top of the trump lane
COMPASS = "NESW"
PLAY_SEATS = ("eldest", "second", "third", "dealer")
HAND_STYLES = ("pbn", "letters", "compact", "symbols")
LANE_MASK = 0xFFFF
FULL_SUIT = 0x7FFC  # ranks 2..14 of one lane
FULL_DECK = sum(FULL_SUIT << (16 * s) for s in range(4))
_BOSTON_BITS = sum(1 << (16 * s + BOSTON_RANK) for s in range(4))
_ANY_CARD = FULL_DECK | _BOSTON_BITS

_SYMBOL_TO_SUIT = {sym: SUITS[i] for i, sym in enumerate(SUIT_SYMBOLS)}
_SYMBOL_TO_SUIT.update({"♤": "S", "♡": "H", "♢": "D", "♧": "C"})
_VOID_MARKS = ("-", "—", "–")  # hyphen, and the dashes word processors turn it into
# Emoji presentation selectors that often follow a pasted ♠/♥/♦/♣; they carry no meaning.
_INVISIBLE = dict.fromkeys(map(ord, "\ufe0f\ufe0e\u200b\u200c\u200d"), None)


def _show(text: str, limit: int = 60) -> str:
    """``repr`` of user text, shortened so an error message stays one readable line."""
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return repr(text)


MASK_BITS = 64  # a hand mask is one 64-bit word


def _whole(value: object, what: str) -> int:
    """``value`` as a whole number (int or numpy integer, not a bool), else NotationError:
    the argument check of every function that takes a card bit or a hand mask."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return int(value)
    raise NotationError(f"{what} must be a whole number, got {type(value).__name__}")


def _mask(value: object, what: str = "hand") -> int:
    """``value`` as a hand mask: a whole number of :data:`MASK_BITS` bits."""
    h = _whole(value, f"{what} (a card mask)")
    if not 0 <= h < 1 << MASK_BITS:
        raise NotationError(f"{what} holds a bit that is not a card")
    return h


def _deal_masks(hands: object) -> list[int]:
    """The four hand masks of a deal given as a sequence or a 1-D array."""
    if isinstance(hands, np.ndarray):
        items = hands.tolist() if hands.ndim == 1 else None
    else:
        items = list(hands) if isinstance(hands, Sequence) and not isinstance(
            hands, (str, bytes)) else None
    if items is None:
        raise NotationError(f"a deal is four hand masks (a list or a 1-D array), got "
                            f"{type(hands).__name__}")
    if len(items) != 4:
        raise NotationError(f"a deal needs 4 hands, got {len(items)}")
    return [_mask(h, f"{COMPASS[i]} hand") for i, h in enumerate(items)]


def mask_array(hands: object) -> np.ndarray:
    """Hand masks of any shape (a hand, a deal, a batch of deals) as a new ``uint64`` array;
    NotationError for anything but whole numbers of :data:`MASK_BITS` bits."""
    if isinstance(hands, np.ndarray) and hands.dtype.kind in "ui":
        if hands.dtype.kind == "i" and hands.size and int(hands.min()) < 0:
            raise NotationError("a hand mask holds a bit that is not a card (negative)")
        return hands.astype(np.uint64, copy=True)
    arr = np.array(hands, dtype=object)
    for h in arr.flat:
        _mask(h)
    return arr.astype(np.uint64)


def _normalise(text: str) -> str:
    """Drop invisible characters and turn suit symbols into suit letters."""
    t = text.translate(_INVISIBLE)
    for sym, letter in _SYMBOL_TO_SUIT.items():
        t = t.replace(sym, letter)
    return t


# --------------------------------------------------------------------------- cards


def card_bit(suit: int, rank: int) -> int:
    """Bit number of a card in a hand mask."""
    return suit * 16 + rank


def card_mask(suit: int, rank: int) -> int:
    """One-card hand mask."""
    return 1 << card_bit(suit, rank)


def _rank_char(rank: int, ten: str = "T") -> str:
    if rank == BOSTON_RANK:
        return "B"
    if rank == 10:
        return ten
    return RANK_CHARS[rank - 2]


def _rank_value(ch: str, suit: int, boston: bool) -> int:
    c = ch.upper()
    idx = RANK_CHARS.find(c)
    if idx >= 0 and c:
        return idx + 2
    if c == "B" and boston:
        return BOSTON_RANK
    where = f" in {SUIT_NAMES[suit]}" if suit >= 0 else ""
    if c in ("1", "0"):
        raise NotationError(f"unknown rank {ch!r}{where} (write the ten as T or 10)")
    if c == "B":
        raise NotationError(
            f"unknown rank 'B'{where} (B, the boston card, exists only after boston_card_transform)"
        )
    if c in SUITS:
        raise NotationError(f"suit letter {ch!r} where a rank was expected{where}")
    raise NotationError(f"unknown rank {ch!r}{where} (use A K Q J T or 10, 9 ... 2)")


def _ranks_of_holding(text: str, suit: int, boston: bool) -> list[int]:
    """Ranks of one suit holding such as ``AKT2``, ``AK102``, ``-`` or ``""``."""
    t = text.strip()
    if t in ("", *_VOID_MARKS):
        return []
    if all(c in _VOID_MARKS or c.isspace() for c in t):
        raise NotationError(
            f"void in {SUIT_NAMES[suit]} written as {t!r}; "
            "write a void as '-' once or leave it empty"
        )
    if any(m in t for m in _VOID_MARKS):
        raise NotationError(
            f"void mark '-' mixed with cards in {SUIT_NAMES[suit]} ({t!r}); "
            "write a void as '-' alone or leave it empty"
        )
    t = t.replace("10", "T")
    ranks: list[int] = []
    for ch in t:
        if ch.isspace():
            raise NotationError(f"space inside the {SUIT_NAMES[suit]} holding {text.strip()!r}")
        r = _rank_value(ch, suit, boston)
        if r in ranks:
            raise NotationError(f"duplicate card {SUITS[suit]}{_rank_char(r)}")
        ranks.append(r)
    return ranks


def parse_card(text: str, *, boston: bool = False) -> int:
    """Read one card, suit first or rank first -> its bit number.

    ``'SA'``, ``'as'``, ``'♠A'``, ``'10H'``, ``'h10'``, ``'S:T'`` are all accepted. ``boston=True``
    also accepts rank ``B`` (the boston card in its trump lane, e.g. ``'HB'``).
    """
    if not isinstance(text, str):
        raise NotationError(f"a card must be text, got {type(text).__name__}")
    t = _normalise(text).strip().upper().replace(":", "").replace("10", "T")
    rank_set = RANK_CHARS + ("B" if boston else "")
    if len(t) == 2 and t[0] in SUITS and t[1] in rank_set:
        return card_bit(SUITS.index(t[0]), _rank_value(t[1], -1, boston))
    if len(t) == 2 and t[1] in SUITS and t[0] in rank_set:
        return card_bit(SUITS.index(t[1]), _rank_value(t[0], -1, boston))
    if not boston and len(t) == 2 and "B" in t and (t[0] in SUITS or t[1] in SUITS):
        _rank_value("B", -1, boston)  # raises the explanation of B
    raise NotationError(
        f"cannot read card {_show(text)} (expected a suit and a rank, e.g. SA, 10H or ♠A)"
    )


def format_card(bit: int, style: str = "letters") -> str:
    """Card bit number -> ``'SA'`` (``style='letters'``) or ``'♠A'`` (``style='symbols'``)."""
    suit, rank = divmod(_whole(bit, "a card bit"), 16)
    if not 0 <= suit < 4 or not 2 <= rank <= BOSTON_RANK:
        raise NotationError(f"not a card: bit {bit}")
    if style not in ("letters", "symbols"):
        raise NotationError(f"unknown card style {style!r} (letters, symbols)")
    s = SUIT_SYMBOLS[suit] if style == "symbols" else SUITS[suit]
    return f"{s}{_rank_char(rank)}"


def cards_of(hand: int) -> list[int]:
    """Bit numbers of the cards in a hand, spades first, high cards first within a suit."""
    out = []
    h = int(hand)
    for s in range(4):
        lane = (h >> (16 * s)) & LANE_MASK
        for r in range(BOSTON_RANK, 1, -1):
            if lane >> r & 1:
                out.append(s * 16 + r)
    return out


def count_cards(hand: int) -> int:
    """Number of cards in a hand mask."""
    return int(hand).bit_count()


def suit_length(hand: int, suit: int) -> int:
    """Number of cards held in ``suit`` (0..3; lane 4 does not exist)."""
    return ((int(hand) >> (16 * suit)) & LANE_MASK).bit_count()


def lane_hcp(lane):
    """Milton Work points (A4 K3 Q2 J1) of one suit's 16-bit lane. Plain arithmetic, so the
    solver's kernels compile it too (``numba.njit(lane_hcp)``)."""
    return 4 * (lane >> 14 & 1) + 3 * (lane >> 13 & 1) + 2 * (lane >> 12 & 1) + (lane >> 11 & 1)


def hcp(hand: int) -> int:
    """Milton Work points (A4 K3 Q2 J1), used by sampling constraints."""
    return sum(lane_hcp((int(hand) >> (16 * s)) & LANE_MASK) for s in range(4))


# --------------------------------------------------------------------------- hands

_SUIT_CHARS = frozenset("SHDCshdc")
_HOLDING_CHARS = frozenset("0123456789AKQJTBakqjtb") | frozenset(_VOID_MARKS)
_SEPARATORS = frozenset(" \t,;/")


def _split_letter_form(t: str, original: str) -> list[tuple[int, str]]:
    """``'S:AKQ2 H:JT9 ...'`` (symbols already mapped to letters) -> [(suit, holding), ...]."""
    out: list[tuple[int, str]] = []
    i, n = 0, len(t)
    while i < n:
        ch = t[i]
        if ch in _SEPARATORS:
            i += 1
            continue
        if ch not in _SUIT_CHARS:
            if ch in _HOLDING_CHARS:
                raise NotationError(
                    f"cards {t[i:].split()[0]!r} without a suit in hand {_show(original)} "
                    "(write S:AKQ2 H:JT9 D:876 C:543, or dotted AKQ2.JT9.876.543)"
                )
            raise NotationError(f"unexpected character {ch!r} in hand {_show(original)}")
        suit = SUITS.index(ch.upper())
        i += 1
        # optional colon, possibly surrounded by spaces: 'S:AKQ', 'S AKQ', 'S : AKQ'
        j = i
        while j < n and t[j] in " \t":
            j += 1
        if j < n and t[j] == ":":
            j += 1
            while j < n and t[j] in " \t":
                j += 1
            i = j
        elif j > i and j < n and t[j] in _HOLDING_CHARS:
            i = j
        start = i
        while i < n and t[i] in _HOLDING_CHARS:
            i += 1
        if i < n and t[i] not in _SEPARATORS and t[i] not in _SUIT_CHARS:
            if t[i].isalpha():
                raise NotationError(f"unknown rank {t[i]!r} in {SUIT_NAMES[suit]}")
            raise NotationError(f"unexpected character {t[i]!r} in hand {_show(original)}")
        out.append((suit, t[start:i]))
    return out


def parse_hand(text: str, *, cards: int | None = 13, boston: bool = False) -> int:
    """Read a hand in any supported notation and return its 64-bit mask.

    Accepted forms (ranks case-insensitive, ``T`` or ``10`` for ten, ``-`` or nothing for a void):

    * PBN dotted, suits in S.H.D.C order: ``AKQ2.JT9.876.543``
    * suit letters, any suit order: ``S:AKQ2 H:JT9 D:876 C:543`` or ``SAKQ2 HJT9 D876 C543``
    * suit symbols: ``♠AKQ2 ♥JT9 ♦876 ♣543``

    ``cards`` is the required number of cards (13 for a full hand); ``None`` accepts any number.
    ``boston=True`` also accepts ``B``, the boston card on top of the trump lane (A-40).
    Raises :class:`NotationError` with a one-line message naming the problem.
    """
    if not isinstance(text, str):
        raise NotationError(f"a hand must be text, got {type(text).__name__}")
    t = _normalise(text).strip()
    if not t:
        raise NotationError("empty hand")
    holdings: list[tuple[int, str]]
    if "." in t:
        parts = t.split(".")
        if len(parts) != 4:
            hint = " (a deal needs a seat first, e.g. 'N:... ... ... ...')" if " " in t else ""
            raise NotationError(
                f"dotted hand {_show(text)} must have 4 suits in S.H.D.C order "
                f"separated by 3 dots, found {len(parts)} suits{hint}"
            )
        for part in parts:
            letters = sorted({c for c in part if c in _SUIT_CHARS})
            if letters:
                raise NotationError(
                    f"suit letter {letters[0]!r} inside the dotted hand {_show(text)} "
                    "(dotted hands give suits by position: S.H.D.C)"
                )
        holdings = list(enumerate(parts))
    else:
        holdings = _split_letter_form(t, text)
    mask = 0
    seen_suits: set[int] = set()
    for s, holding in holdings:
        if s in seen_suits:
            raise NotationError(f"suit {SUITS[s]} appears twice in hand {_show(text)}")
        seen_suits.add(s)
        for r in _ranks_of_holding(holding, s, boston):
            mask |= card_mask(s, r)
    if boston:
        _check_boston_cards([mask])
    n = mask.bit_count()
    if cards is not None and n != cards:
        raise NotationError(f"hand {_show(text)} has {n} cards, expected {cards}")
    return mask


def format_hand(hand: int, style: str = "pbn", *, ten: str = "T") -> str:
    """Format a hand mask in one of :data:`HAND_STYLES`.

    * ``pbn``: ``AKQ2.JT9..543`` (PBN writes a void as nothing)
    * ``letters``: ``S:AKQ2 H:JT9 D:- C:543``
    * ``compact``: ``SAKQ2 HJT9 D- C543``
    * ``symbols``: ``♠AKQ2 ♥JT9 ♦- ♣543``

    ``ten="10"`` writes the ten as ``10``. :func:`parse_hand` reads every output back exactly.
    """
    h = _mask(hand)
    if h & ~_ANY_CARD:
        raise NotationError(f"mask {h:#x} holds bits that are not cards")
    if ten not in ("T", "10"):
        raise NotationError(f"ten must be 'T' or '10', got {ten!r}")
    parts = []
    for s in range(4):
        lane = (h >> (16 * s)) & LANE_MASK
        parts.append(
            "".join(_rank_char(r, ten) for r in range(BOSTON_RANK, 1, -1) if lane >> r & 1)
        )
    if style == "pbn":
        return ".".join(parts)
    if style == "letters":
        return " ".join(f"{SUITS[s]}:{p or '-'}" for s, p in enumerate(parts))
    if style == "compact":
        return " ".join(f"{SUITS[s]}{p or '-'}" for s, p in enumerate(parts))
    if style == "symbols":
        return " ".join(f"{SUIT_SYMBOLS[s]}{p or '-'}" for s, p in enumerate(parts))
    raise NotationError(f"unknown hand style {style!r} (use one of {', '.join(HAND_STYLES)})")


# --------------------------------------------------------------------------- deals

_DEAL_TAG = re.compile(r'\[\s*Deal\s+"(.*)"\s*\]', re.IGNORECASE | re.DOTALL)


def split_deal(text: str) -> tuple[int, list[str]]:
    """A PBN deal ``"N:hand hand hand hand"`` -> (compass seat of the first hand, the four
    hand texts clockwise from it), the texts not yet read. A PBN tag ``[Deal "..."]`` or
    surrounding quotes are stripped. The one place a deal string is taken apart."""
    if not isinstance(text, str):
        raise NotationError(f"a deal must be text, got {type(text).__name__}")
    t = text.strip()
    tag = _DEAL_TAG.fullmatch(t)
    if tag:
        t = tag.group(1).strip()
    t = t.strip('"').strip()
    if not t:
        raise NotationError("empty deal")
    m = re.fullmatch(r"([NESWnesw])\s*:\s*(.*)", t, re.DOTALL)
    if not m:
        raise NotationError(
            f"deal {_show(text)} must start with a seat and a colon, e.g. 'N:AKQ2.JT9.876.543 ...'"
        )
    hands_txt = m.group(2).split()
    if len(hands_txt) != 4:
        raise NotationError(
            f"deal {_show(text)} must have 4 hands separated by spaces, found {len(hands_txt)}"
        )
    return COMPASS.index(m.group(1).upper()), hands_txt


def parse_deal(text: str, *, boston: bool = False) -> np.ndarray:
    """Read a PBN deal ``"N:hand hand hand hand"`` -> ``uint64[4]`` indexed N, E, S, W.

    The first seat is any of N/E/S/W and the hands follow clockwise; hands are PBN dotted.
    Endings (every hand with the same number of cards, 1..13) are accepted. A PBN tag
    ``[Deal "..."]`` or surrounding quotes are stripped. ``boston=True`` accepts ``B``.
    """
    first, hands_txt = split_deal(text)
    hands = np.zeros(4, dtype=np.uint64)
    for i, h in enumerate(hands_txt):
        seat = (first + i) % 4
        if _normalise(h).count(".") != 3:
            raise NotationError(
                f"{COMPASS[seat]} hand {_show(h)} must be PBN dotted S.H.D.C "
                "(e.g. AKQ2.JT9.876.543)"
            )
        try:
            hands[seat] = np.uint64(parse_hand(h, cards=None, boston=boston))
        except NotationError as e:
            raise NotationError(f"{COMPASS[seat]} hand: {e}") from None
    validate_deal(hands)
    return hands


def _check_boston_cards(hands: Iterable[int]) -> None:
    """At most one rank-15 card, and its native jack must then be gone (A-40)."""
    found: list[int] = []
    all_cards = 0
    for h in hands:
        found += [b for b in cards_of(int(h) & _BOSTON_BITS)]
        all_cards |= int(h)
    if not found:
        return
    if len(found) > 1:
        names = ", ".join(format_card(b) for b in found)
        raise NotationError(f"more than one boston card B ({names})")
    lane = found[0] // 16
    native = 1 if lane == 2 else 2  # J♥ when diamonds are trumps, else J♦
    if all_cards >> card_bit(native, 11) & 1:
        raise NotationError(
            f"boston card {format_card(found[0])} present together with "
            f"{format_card(card_bit(native, 11))}, the card it replaces"
        )


def validate_deal(hands: Sequence[int] | np.ndarray) -> None:
    """Check four disjoint hands of equal size 1..13 (a complete deal or an ending).

    A deal after :func:`boston_card_transform` is valid too: at most one rank-15 card, whose
    native jack is then absent. Raises :class:`NotationError` naming the first problem.
    """
    seen = 0
    counts = []
    masks = _deal_masks(hands)
    for seat, h in enumerate(masks):
        if h & ~_ANY_CARD:
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
    _check_boston_cards(masks)


def format_deal(hands: Sequence[int] | np.ndarray, first: str | int = "N") -> str:
    """PBN deal string starting with seat ``first``; round-trips with :func:`parse_deal`."""
    masks = _deal_masks(hands)
    f = parse_compass(first)
    return COMPASS[f] + ":" + " ".join(format_hand(masks[(f + i) % 4]) for i in range(4))


def deal_remaining(known: Iterable[int]) -> int:
    """Mask of the cards (of the ordinary 52) not in any of the ``known`` hands."""
    m = FULL_DECK
    for h in known:
        m &= ~int(h)
    return m


# --------------------------------------------------------------------------- seats and strains

_COMPASS_NAMES = {"N": 0, "NORTH": 0, "E": 1, "EAST": 1, "S": 2, "SOUTH": 2, "W": 3, "WEST": 3}
_PLAY_SEAT_NAMES = {
    "eldest": 0,
    "eldest hand": 0,
    "first": 0,
    "p0": 0,
    "second": 1,
    "p1": 1,
    "third": 2,
    "p2": 2,
    "dealer": 3,
    "fourth": 3,
    "p3": 3,
}
_STRAIN_NAMES = {
    "S": 0,
    "SPADE": 0,
    "SPADES": 0,
    "H": 1,
    "HEART": 1,
    "HEARTS": 1,
    "D": 2,
    "DIAMOND": 2,
    "DIAMONDS": 2,
    "C": 3,
    "CLUB": 3,
    "CLUBS": 3,
    "NT": 4,
    "N": 4,
    "NOTRUMP": 4,
    "NOTRUMPS": 4,
    "NO TRUMP": 4,
    "NO TRUMPS": 4,
    "NO-TRUMP": 4,
    "NO-TRUMPS": 4,
    "NONE": 4,
}


def _small_int(value: object, hi: int, what: str) -> int | None:
    """``value`` as an index 0..hi if it is an integer (not a bool), else None."""
    if isinstance(value, bool):
        raise NotationError(f"{what} must be a name or a number, got {value!r}")
    if isinstance(value, (int, np.integer)):
        if 0 <= int(value) <= hi:
            return int(value)
        raise NotationError(f"{what} {value} out of range 0..{hi}")
    return None


def parse_compass(text: str | int) -> int:
    """``N E S W`` (or ``north`` ..., or 0..3) -> compass index ``N=0 E=1 S=2 W=3``."""
    i = _small_int(text, 3, "seat")
    if i is not None:
        return i
    t = str(text).strip().upper()
    if t not in _COMPASS_NAMES:
        raise NotationError(f"unknown seat {_show(str(text))} (use N, E, S or W)")
    return _COMPASS_NAMES[t]


def format_compass(seat: int) -> str:
    """Compass index -> ``'N'``, ``'E'``, ``'S'`` or ``'W'``."""
    return COMPASS[parse_compass(seat)]


def parse_play_seat(text: str | int) -> int:
    """``eldest|second|third|dealer`` (or ``P0``..``P3``, or 0..3) -> playing-order index."""
    i = _small_int(text, 3, "seat")
    if i is not None:
        return i
    t = " ".join(str(text).strip().lower().split())
    if t not in _PLAY_SEAT_NAMES:
        raise NotationError(
            f"unknown seat {_show(str(text))} (use eldest, second, third or dealer)"
        )
    return _PLAY_SEAT_NAMES[t]


def format_play_seat(seat: int) -> str:
    """Playing-order index -> ``'eldest'``, ``'second'``, ``'third'`` or ``'dealer'``."""
    return PLAY_SEATS[parse_play_seat(seat)]


def play_seat_to_compass(play_seat: int | str, dealer: int | str = 3) -> int:
    """Compass seat of playing-order seat ``play_seat`` when the dealer sits at ``dealer``.

    Eldest is the next seat after the dealer in the order of play (clockwise in the compass
    numbering). With the default ``dealer = W`` this is the identity (eldest = N).
    """
    return (parse_compass(dealer) + 1 + parse_play_seat(play_seat)) % 4


def compass_to_play_seat(compass: int | str, dealer: int | str = 3) -> int:
    """Inverse of :func:`play_seat_to_compass`."""
    return (parse_compass(compass) - parse_compass(dealer) - 1) % 4


def parse_strain(text: str | int) -> int:
    """``S H D C NT`` (or symbols, names, 0..4) -> strain index (NT = 4)."""
    i = _small_int(text, 4, "strain")
    if i is not None:
        return i
    t = _normalise(str(text)).strip()
    u = " ".join(t.upper().split())
    if u not in _STRAIN_NAMES:
        raise NotationError(f"unknown trump {_show(str(text))} (use S, H, D, C or NT)")
    return _STRAIN_NAMES[u]


def format_strain(strain: int | str, style: str = "letters") -> str:
    """Strain index -> ``'S'``..``'C'`` or ``'NT'``
    (``style='symbols'``: ``'♠'``..``'♣'``, ``'NT'``)."""
    s = parse_strain(strain)
    if style == "symbols" and s < 4:
        return SUIT_SYMBOLS[s]
    return STRAINS[s]


# --------------------------------------------------------------------------- the boston card


def boston_card_transform(hands: np.ndarray | Sequence[int], trump: int | str) -> np.ndarray:
    """Move the Russian "boston" card into the trump lane as rank 15 (docs/RULES.md §1.2, A-40).

    The boston card is J♦, or J♥ when diamonds are trumps; there is none in no trump.
    Works on one deal (``uint64[4]``) or a batch (``uint64[M, 4]``), or any array of hands;
    returns a new ``uint64`` array of the same shape (the input is not modified).
    """
    t = parse_strain(trump)
    out = mask_array(hands)
    if t == NT:
        return out
    bsuit = 1 if t == 2 else 2  # J♥ when diamonds are trumps, else J♦
    src = np.uint64(1 << card_bit(bsuit, 11))
    dst = np.uint64(1 << card_bit(t, BOSTON_RANK))
    holder = (out & src) != 0
    out[holder] = (out[holder] & ~src) | dst
    return out
