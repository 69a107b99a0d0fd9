"""``bid --pbn FILE --board N --seat S``: the hand of one seat of one board of a PBN file
(``-``: standard input), and its playing-order seat placed by the board's ``[Dealer]``."""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import NotationError
from ..limits import bounded_lines, clip

STDIN = "-"


@contextlib.contextmanager
def input_lines(path: Path | str) -> Iterator[Iterator[str]]:
    """The lines of ``path`` (``-``: standard input), within the input limits."""
    if str(path) == STDIN:
        raw = getattr(sys.stdin, "buffer", None)
        if raw is None:  # a text-only stream (an embedding program's)
            yield bounded_lines(sys.stdin, "standard input")
            return
        text = io.TextIOWrapper(raw, encoding="utf-8-sig", newline="")
        try:
            yield bounded_lines(text, "standard input")
        finally:
            text.detach()  # closing the wrapper would close standard input
        return
    with open(path, encoding="utf-8-sig", newline="") as f:
        yield bounded_lines(f, str(path))


def check_pbn_args(hand: str | None, pbn: Path | None, board: str | None) -> None:
    """Usage errors of the hand/--pbn/--board combination."""
    if pbn is not None and hand is not None:
        raise NotationError("give either a HAND or --pbn FILE, not both")
    if pbn is None and board is not None:
        raise NotationError("--board needs --pbn FILE")
    if pbn is None and hand is None:
        raise NotationError("give a HAND (e.g. AKQ2.JT9.876.543), or --pbn FILE")
    if pbn is not None and str(pbn) != STDIN and not pbn.is_file():
        raise NotationError(f"file not found: {clip(pbn)}")


def pbn_hand(pbn: Path, board: str | None, seat: str | None, settings: Any) -> tuple[str, str]:
    """(hand, playing-order seat name) of ``seat`` on board ``board`` of ``pbn`` (the only
    board when None), under the rule set of ``settings`` (which may play to the right)."""
    from ..batch.jobs import plays_rightward
    from ..cards import PLAY_SEATS
    from ..pbn import iter_games, seat_hand, select_game

    source = "standard input" if str(pbn) == STDIN else clip(pbn)
    with input_lines(pbn) as lines:
        try:
            game = select_game(iter_games(lines, without_deal=True), board, source)
        except NotationError as e:
            if str(e).startswith("line "):  # the file's own syntax: say which file
                raise NotationError(f"{source}: {e}") from None
            raise
    hand, play = seat_hand(game, seat, rightward=plays_rightward(settings))
    return hand, PLAY_SEATS[play]
