"""Input files (text, CSV, JSON Lines, PBN) -> records: one per row, before any default or
check is applied. A row that cannot be read becomes a record with ``error`` set; a file that
cannot be read at all raises a user error.

Files are streamed: read line by line (each line at most ``limits.LINE_MAX`` characters, a
longer one refused while it is read), records made as they are consumed, the file's SHA-256
computed from the same bytes; memory does not grow with the file."""

from __future__ import annotations

import csv
import io
import json
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..cards import COMPASS, PLAY_SEATS, NotationError, parse_compass
from ..errors import BostonSimError, InputFileError
from ..limits import bounded_lines, clip
from ..pbn import deal_hands, iter_games, play_seat_of, same_board
from .records import EXT_TO_INPUT, INPUT_FORMATS

STDIN = "-"  # the input path that reads standard input
TEXT_FIELDS = 5  # HAND | SEAT | LABEL | RULES | TURNUP
_TEXT_SEPARATOR = re.compile(r"\||\t")


@dataclass(frozen=True)
class Record:
    """A row as read from the input, before defaults are applied."""

    line: int
    hand: str
    seat: str | None = None
    rules: str | None = None
    label: str = ""
    text: str = ""
    error: str | None = None  # set when the row itself cannot be read
    turnup: str | None = None


# (positions the record stands for, record): a bad PBN deal stands for every seat it would
# have produced, so that later hands keep their positions (and seeds)
Item = tuple[int, Record]


def detect_input_format(path: str | Path) -> str:
    """Input format from the file extension (``.txt .csv .jsonl .pbn``)."""
    ext = Path(path).suffix.lower()
    if ext not in EXT_TO_INPUT:
        raise BostonSimError(
            f"cannot tell the format of {str(path)!r} from its extension; "
            f"use --input-format ({', '.join(INPUT_FORMATS)})"
        )
    return EXT_TO_INPUT[ext]


class HashingReader(io.RawIOBase):
    """A binary file that updates ``digest`` (a ``hashlib`` object) with every byte read
    through it: the content hash of a streamed file, without a second read."""

    def __init__(self, raw: Any, digest: Any, *, owns: bool = True) -> None:
        super().__init__()
        self._raw = raw
        self.digest = digest
        self._owns = owns  # standard input is borrowed: closing the reader leaves it open

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        n = self._raw.readinto(buffer)
        if n and self.digest is not None:
            self.digest.update(memoryview(buffer)[:n])
        return n or 0

    def close(self) -> None:
        if self._owns:
            self._raw.close()
        super().close()


def read_records(path: Path, fmt: str, pbn_seat: str = "all", rightward: bool = False,
                 digest: Any = None, board: str | None = None) -> Iterator[Item]:
    """Every row of ``path`` (``-``: standard input) read as ``fmt``, one at a time as they
    are consumed (the file is opened on the first); ``pbn_seat``, ``rightward`` (the rule
    set plays to the right) and ``board`` (only that board) matter for PBN only.
    ``digest``, a ``hashlib`` object, gets the file's bytes."""
    if fmt not in INPUT_FORMATS:
        raise BostonSimError(f"unknown input format {fmt!r} (use {', '.join(INPUT_FORMATS)})")
    if board is not None and fmt != "pbn":
        raise BostonSimError("--board selects a board of a PBN input; this input is "
                             f"{fmt}")
    return _stream(path, fmt, pbn_seat, rightward, digest, board)


def _open(path: Path, digest: Any) -> Any:
    """``path`` (standard input for ``-``) as a binary file feeding ``digest``."""
    if str(path) == STDIN:
        stdin = getattr(sys.stdin, "buffer", sys.stdin)
        return io.BufferedReader(HashingReader(stdin, digest, owns=False))
    raw: Any = open(path, "rb")  # noqa: SIM115 (closed by the caller's text wrapper)
    return raw if digest is None else io.BufferedReader(HashingReader(raw, digest))


def _stream(path: Path, fmt: str, pbn_seat: str, rightward: bool,
            digest: Any, board: str | None) -> Iterator[Item]:
    source = "standard input" if str(path) == STDIN else str(path)
    with io.TextIOWrapper(_open(path, digest), encoding="utf-8-sig", newline="") as f:
        lines = bounded_lines(f, source)
        if fmt == "pbn":
            yield from read_pbn(lines, pbn_seat, rightward, board, source)
            return
        reader = {"text": read_text, "csv": read_csv, "jsonl": read_jsonl}[fmt]
        for r in reader(lines):
            yield 1, r


def read_text(f: Iterable[str]) -> Iterator[Record]:
    """``HAND [| SEAT [| LABEL [| RULES [| TURNUP]]]]`` lines; ``#`` comments, blank lines."""
    for n, raw in enumerate(f, 1):
        line = raw.rstrip("\r\n")
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        fields = [x.strip() for x in _TEXT_SEPARATOR.split(s)]
        if len(fields) > TEXT_FIELDS:
            yield Record(n, "", text=line, error=f"{len(fields)} fields; expected "
                         "HAND | SEAT | LABEL | RULES | TURNUP")
            continue
        fields += [""] * (TEXT_FIELDS - len(fields))
        hand, seat, label, rules, turnup = fields
        yield Record(n, hand, seat or None, rules or None, label, text=line,
                     turnup=turnup or None)


def read_csv(f: Iterable[str]) -> Iterator[Record]:
    """A header with a ``hand`` column; optional ``seat rules label turnup``."""
    # strict: an unterminated quote is an error, not one field that swallows every later row
    reader = csv.DictReader(f, strict=True)
    try:
        names = reader.fieldnames
    except csv.Error as e:
        raise _csv_error(reader, e) from None
    cols = [c.strip().lower() for c in (names or [])]
    if "hand" not in cols:
        raise BostonSimError("the CSV file needs a 'hand' column (optional: seat, rules, label)")
    reader.fieldnames = cols
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as e:
            raise _csv_error(reader, e) from None
        line = reader.line_num  # the (last) physical line of this row
        if None in row:  # more fields than the header
            yield Record(line, "", text=",".join(str(v) for v in row.values() if v),
                         error="more fields than the header")
            continue
        get = lambda k, row=row: (row.get(k) or "").strip()  # noqa: E731
        text = ",".join(v or "" for v in row.values())
        yield Record(line, get("hand"), get("seat") or None, get("rules") or None,
                     get("label"), text=text, turnup=get("turnup") or None)


def _csv_error(reader: csv.DictReader, e: csv.Error) -> InputFileError:
    return InputFileError(f"malformed CSV at line {reader.line_num}: {e} (check the quotes; "
                          "a field may be at most 131,072 characters)")


def read_jsonl(f: Iterable[str]) -> Iterator[Record]:
    """One JSON object per line with the keys of :func:`read_csv`."""
    for n, raw in enumerate(f, 1):
        s = raw.strip()
        if not s or s.startswith("#"):
            continue
        try:
            obj = json.loads(s)
        except json.JSONDecodeError as e:
            yield Record(n, "", text=s, error=f"not valid JSON: {e.msg} at column {e.colno}")
            continue
        except RecursionError:
            yield Record(n, "", text=s, error="not valid JSON: nested too deeply")
            continue
        if not isinstance(obj, dict):
            yield Record(n, "", text=s, error="expected a JSON object with a 'hand' key")
            continue
        if not isinstance(obj.get("hand"), str):
            yield Record(n, "", text=s, error="missing 'hand' (a string)")
            continue

        def opt(k: str, obj: dict = obj) -> str | None:
            v = obj.get(k)
            return None if v is None or str(v).strip() == "" else str(v).strip()

        yield Record(n, obj["hand"], opt("seat"), opt("rules"), opt("label") or "", text=s,
                     turnup=opt("turnup"))


def read_pbn(f: Iterable[str], pbn_seat: str, rightward: bool = False,
             board: str | None = None, source: str = "the input") -> Iterator[Item]:
    """PBN games (only board ``board`` when given) -> one record per wanted compass seat
    (``pbn_seat``: N, E, S, W or all), its playing-order seat from the ``[Dealer]`` tag.
    A ``board`` that no game with a deal has raises a user error."""
    seats = list(range(4)) if pbn_seat == "all" else [parse_compass(pbn_seat)]
    found = False
    for game in iter_games(f):
        if board is not None:
            if not same_board(game.board, board):
                continue
            found = True
        line, deal = game.line, game.deal
        try:
            dealer = game.dealer()
        except NotationError:
            yield len(seats), Record(line, "", text=f'[Dealer "{game.tags["Dealer"]}"]',
                                     error=f"unknown dealer {game.tags['Dealer']!r}")
            continue
        try:
            hands = deal_hands(deal)
        except NotationError as e:
            yield len(seats), Record(line, "", text=f'[Deal "{deal}"]', error=str(e))
            continue
        for c in seats:
            label = (f"board {game.board} {COMPASS[c]}" if game.board
                     else f"deal line {line} {COMPASS[c]}")
            text = f'[Deal "{deal}"] {COMPASS[c]}'
            if c not in hands:
                yield 1, Record(line, "", text=text, error=f"no hand given for {COMPASS[c]}")
                continue
            seat = PLAY_SEATS[play_seat_of(c, dealer, rightward=rightward)]
            yield 1, Record(line, hands[c], seat, None, label, text=text)
    if board is not None and not found:
        raise InputFileError(f"no board {clip(board)} with a [Deal] in {clip(source)}")
