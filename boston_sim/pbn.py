"""PBN files -> games (their tags) -> the hand and playing-order seat of each compass seat.

The notation of one deal string (``"N:hand hand hand hand"``) is :func:`cards.split_deal`
and :func:`cards.parse_deal`; this module reads whole PBN files, one game at a time: the tag
pairs ``[Name "value"]`` of each game (a tag may span lines; ``{}``, ``;`` and ``%``
comments are skipped), the known hands of a deal (``-`` marks an unknown hand), one board
of a file, and which playing-order seat a compass seat holds given the ``[Dealer "X"]``
tag. Nothing here imports numba, numpy or pandas.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from .cards import (
    COMPASS,
    NotationError,
    cards_of,
    format_card,
    parse_compass,
    parse_hand,
    parse_play_seat,
    split_deal,
)

UNKNOWN_HAND = "-"
# With no [Dealer] tag the dealer is taken to be W, the analysis convention of cards.py
# (so N is eldest).
DEFAULT_DEALER = COMPASS.index("W")
# Tags that belong to one deal: a second [Deal] in the same game does not inherit them.
_PER_DEAL_TAGS = ("Deal", "Board")
INHERIT = "#"  # a tag value copied from the previous game (PBN 3.4)
# characters of one tag, however many lines it spans: one input line's limit
# (limits.LINE_MAX; this module imports only cards and errors)
TAG_MAX = 10_000
SEAT_ECHO_MAX = 20  # characters of an unknown seat a message repeats
_ESCAPE_LINE = "%"  # a line starting with it is a PBN escape (a comment to us)
_NAME = re.compile(r"\w+")
# what ends a stretch of text in each state: outside tags a tag, a comment or a ;-comment;
# inside a tag its value's quote or its end; inside a value an escape or the closing quote
_OUTSIDE_STOP = re.compile(r"[\[{;]")
_TAG_STOP = re.compile(r'["\]]')
_VALUE_STOP = re.compile(r'["\\]')


@dataclass(frozen=True)
class Game:
    """One deal of a PBN file: its tags and the line of its ``[Deal]`` tag (0: none)."""

    line: int
    tags: dict[str, str]

    @property
    def deal(self) -> str:
        return self.tags["Deal"]

    @property
    def has_deal(self) -> bool:
        return bool(self.tags.get("Deal", "").strip())

    @property
    def board(self) -> str:
        return self.tags.get("Board", "").strip()

    def dealer(self) -> int:
        """Compass seat of the dealer (``[Dealer]``, else :data:`DEFAULT_DEALER`); an unknown
        seat raises NotationError."""
        text = self.tags.get("Dealer", "").strip()
        return parse_compass(text) if text else DEFAULT_DEALER


def same_board(a: str, b: str) -> bool:
    """Whether two board numbers name the same board (``"01"`` is ``"1"``)."""
    a, b = a.strip(), b.strip()
    if a.isdigit() and b.isdigit():
        return int(a) == int(b)
    return a == b


def read_games(lines: Iterable[str]) -> list[Game]:
    """Every game of a PBN file that has a ``[Deal]`` tag, in file order (:func:`iter_games`)."""
    return list(iter_games(lines))


def iter_games(lines: Iterable[str], *, without_deal: bool = False) -> Iterator[Game]:
    """The games of a PBN file that have a ``[Deal]`` tag (every game: ``without_deal``), in
    file order, each as soon as its end is read.

    A game ends at an empty line, at the next ``[Event]`` tag, or at a second ``[Deal]``,
    which starts a new game that keeps the other tags (event, dealer, ...). A tag may span
    lines; ``{...}`` comments (several lines too), ``;`` comments to the end of the line and
    ``%`` lines are skipped, as are the data of sections (auction, play). A tag value ``#``
    is the previous game's. A comment, tag or value left open at the end raises
    NotationError.
    """
    tags: dict[str, str] = {}
    previous: dict[str, str] = {}
    deal_line = 0

    def done() -> Iterator[Game]:
        if tags and (without_deal or "Deal" in tags):
            yield Game(deal_line, tags)

    for item in _tokens(lines):
        if item is None:  # an empty line: the game ends
            yield from done()
            previous = tags or previous
            tags, deal_line = {}, 0
            continue
        n, name, value = item
        if value.strip() == INHERIT and name in previous:
            value = previous[name]
        if name == "Event" and "Deal" in tags:
            yield from done()
            previous, tags, deal_line = tags, {}, 0
        if name == "Deal":
            if "Deal" in tags:  # a second deal without an Event tag between
                yield from done()
                tags = {k: v for k, v in tags.items() if k not in _PER_DEAL_TAGS}
            deal_line = n
        tags[name] = value
    yield from done()


class _Scanner:
    """The state of :func:`_tokens` between lines: outside any tag, in a ``{}`` comment, in a
    tag (its name so far) or in its quoted value."""

    def __init__(self) -> None:
        self.state = "out"
        self.opened = 0  # line where the open comment or tag began
        self.name: list[str] = []
        self.value: list[str] | None = None
        self.size = 0

    def feed(self, n: int, line: str) -> Iterator[tuple[int, str, str]]:
        i, end = 0, len(line)
        while i < end:
            if self.state == "comment":
                j = line.find("}", i)
                if j < 0:
                    return
                self.state, i = "out", j + 1
            elif self.state == "out":
                m = _OUTSIDE_STOP.search(line, i)
                if m is None or m.group() == ";":
                    return
                self.opened, i = n, m.end()
                if m.group() == "{":
                    self.state = "comment"
                else:
                    self.state, self.name, self.value, self.size = "tag", [], None, 0
            elif self.state == "tag":
                i = yield from self._in_tag(line, i)
            else:
                i = self._in_value(line, i)
            self._check_size(n)

    def _in_tag(self, line: str, i: int) -> Iterator[tuple[int, str, str]]:
        m = _TAG_STOP.search(line, i)
        stop = len(line) if m is None else m.start()
        self.name.append(line[i:stop])
        self.size += stop - i
        if m is None:
            return stop
        if m.group() == '"':
            self.state, self.value = "value", [] if self.value is None else self.value
            return m.end()
        self.state = "out"
        name = "".join(self.name).strip()
        if _NAME.fullmatch(name) and self.value is not None:
            yield self.opened, name, " ".join("".join(self.value).split())
        return m.end()

    def _in_value(self, line: str, i: int) -> int:
        assert self.value is not None
        m = _VALUE_STOP.search(line, i)
        stop = len(line) if m is None else m.start()
        self.value.append(line[i:stop])
        self.size += stop - i
        if m is None:
            return stop
        if m.group() == "\\":  # \" and \\ stand for the character after the backslash
            self.value.append(line[m.end():m.end() + 1])
            return m.end() + 1
        self.state = "tag"
        return m.end()

    def _check_size(self, n: int) -> None:
        if self.state in ("tag", "value") and self.size > TAG_MAX:
            raise NotationError(f"line {self.opened}: a tag longer than {TAG_MAX:,} "
                                "characters (a missing ] or \")")

    def close(self) -> None:
        if self.state == "comment":
            raise NotationError(f"line {self.opened}: a {{ comment is never closed by }}")
        if self.state in ("tag", "value"):
            raise NotationError(f"line {self.opened}: a [ tag is never closed "
                                "(a missing ] or \")")


def _tokens(lines: Iterable[str]) -> Iterator[tuple[int, str, str] | None]:
    """``(line, name, value)`` of every tag in file order, and None for each empty line
    outside a tag or comment (where a game ends)."""
    scan = _Scanner()
    for n, raw in enumerate(lines, 1):
        if scan.state == "out":
            s = raw.strip()
            if not s:
                yield None
                continue
            if raw.startswith(_ESCAPE_LINE):
                continue
        yield from scan.feed(n, raw)
    scan.close()


def deal_hands(deal: str) -> dict[int, str]:
    """``"N:h h h h"`` -> {compass seat: hand text}; unknown (``-``) hands are left out.
    A malformed deal, or one with a card in two hands, raises NotationError (a hand that
    cannot be read is left for its own row to report)."""
    first, hands = split_deal(deal)
    out = {(first + i) % 4: h for i, h in enumerate(hands) if h != UNKNOWN_HAND}
    _check_no_card_twice(out)
    return out


def _check_no_card_twice(hands: dict[int, str]) -> None:
    seen: dict[int, int] = {}  # card bit -> compass seat holding it
    for seat, text in hands.items():
        try:
            mask = parse_hand(text, cards=None)
        except NotationError:
            continue
        for bit in cards_of(mask):
            if bit in seen:
                raise NotationError(f"{format_card(bit)} is in two hands "
                                    f"({COMPASS[seen[bit]]} and {COMPASS[seat]})")
            seen[bit] = seat


def play_seat_of(compass: int, dealer: int, *, rightward: bool = False) -> int:
    """Playing-order seat (0 = eldest .. 3 = dealer) of compass seat ``compass``.

    Eldest is the dealer's left-hand neighbour, the next seat clockwise (cards.py); a rule
    set that plays to the right (A-41, Russian Boston) has eldest on the dealer's right and
    play running anticlockwise.
    """
    return (dealer - compass - 1) % 4 if rightward else (compass - dealer - 1) % 4


BOARDS_SHOWN = 10  # boards a "no such board" message lists


def select_game(games: Iterable[Game], board: str | None, source: str = "the file") -> Game:
    """Board ``board`` of ``games`` (every game, :func:`iter_games` ``without_deal``), or the
    only game when ``board`` is None; reads no further than the game it returns (all of
    ``games`` to tell that one is the only one). No such board, a choice among several or
    a board without a deal raises NotationError."""
    seen: list[str] = []
    count = 0
    chosen: Game | None = None
    for game in games:
        if board is not None and same_board(game.board, board):
            chosen = game
            break
        count += 1
        if len(seen) < BOARDS_SHOWN:
            seen.append(game.board or "?")
        if board is None and chosen is None:
            chosen = game
    listed = ", ".join(seen) + (", ..." if count > len(seen) else "")
    if chosen is None or (board is None and count > 1):
        if count == 0:
            raise NotationError(f"no game in {source}")
        if board is None:
            raise NotationError(f"{source} has {count} boards ({listed}); choose one with "
                                "--board N")
        raise NotationError(f"no board {board} in {source} (boards: {listed})")
    if not chosen.has_deal:
        raise NotationError(f"{_name(chosen)} of {source} has no [Deal]")
    return chosen


def _name(game: Game) -> str:
    return f"board {game.board}" if game.board else "the game"


def seat_hand(game: Game, seat: str | None, *, rightward: bool = False) -> tuple[str, int]:
    """The hand of ``seat`` in ``game`` and its playing-order seat (0 = eldest .. 3 = dealer).

    ``seat`` is a compass seat (N, E, S, W) or a playing-order seat (eldest .. dealer, placed
    by the ``[Dealer]`` tag); None takes the seat a ``boston-sim bid --deals-out`` file
    tags (``[Boston_Declarer]`` and ``[Boston_Seat]``). An unknown seat or dealer, a missing
    seat or a hand the deal does not give raises NotationError."""
    hands = deal_hands(game.deal)
    if seat is None:
        decl, play = game.tags.get("Boston_Declarer"), game.tags.get("Boston_Seat")
        if decl is None or play is None:
            raise NotationError("give the seat whose hand to take: --seat N, E, S or W (or "
                                "eldest, second, third, dealer)")
        compass, play_seat = parse_compass(decl), parse_play_seat(play)
    else:
        dealer = game.dealer()
        try:
            compass = parse_compass(seat)
            play_seat = play_seat_of(compass, dealer, rightward=rightward)
        except NotationError:
            try:
                play_seat = parse_play_seat(seat)
            except NotationError:
                raise NotationError(f"unknown seat {seat.strip()[:SEAT_ECHO_MAX]!r} (use N, E, S, "
                                    "W or eldest, second, third, dealer)") from None
            compass = next(c for c in range(4)
                           if play_seat_of(c, dealer, rightward=rightward) == play_seat)
    if compass not in hands:
        raise NotationError(f"{_name(game)} gives no hand for {COMPASS[compass]}")
    return hands[compass], play_seat
