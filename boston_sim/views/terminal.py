"""Tables that fit the reader's terminal: the console every view prints through, and a rich
table that drops its least important columns, or splits into column blocks, until it fits.

Widths: a terminal gives its own width; a pipe or a file takes ``COLUMNS`` when it is set,
else :data:`DEFAULT_WIDTH` (what an 80-column reader sees, whatever the terminal upstream).
Numbers are never wrapped or cut: a column that would not fit is dropped or moved to the
next block instead. Colour follows rich: off in pipes, off when ``NO_COLOR`` is set.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

DEFAULT_WIDTH = 80
"""Width of piped output when ``COLUMNS`` is not set."""

RED_SUITS = ("♥", "♦")
SUIT_STYLE = "red"


def output_width(stream: Any = None) -> int:
    """Columns available on ``stream`` (default stdout): the terminal's width, else
    ``COLUMNS``, else :data:`DEFAULT_WIDTH`."""
    stream = sys.stdout if stream is None else stream
    cols = os.environ.get("COLUMNS", "")
    if cols.isdigit() and int(cols) > 0:
        return int(cols)
    isatty = getattr(stream, "isatty", None)
    if isatty is not None and isatty():
        try:
            return os.get_terminal_size(stream.fileno()).columns
        except (OSError, ValueError):
            pass
    return DEFAULT_WIDTH


def console(*, stderr: bool = False, width: int | None = None) -> Any:
    """A rich console on stdout (or stderr) of :func:`output_width` columns, its lines
    without trailing blanks (:class:`TrimmedLines`)."""
    from rich.console import Console

    stream = sys.stderr if stderr else sys.stdout
    return Console(file=TrimmedLines(stream), width=width or output_width(stream),
                   highlight=False)


class TrimmedLines:
    """A text stream that passes each whole line on without its trailing blanks: rich pads a
    title to the table's width and keeps the blank where it wraps a line, which a saved or
    parsed report should not carry. Everything else is the wrapped stream's."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self._pending = ""

    def write(self, text: str) -> int:
        head, sep, self._pending = (self._pending + text).rpartition("\n")
        if sep:
            self._stream.write("\n".join(x.rstrip(" ") for x in head.split("\n")) + "\n")
        return len(text)

    def flush(self) -> None:
        if self._pending:  # a line not yet ended goes out as it is
            self._stream.write(self._pending)
            self._pending = ""
        self._stream.flush()

    def __getattr__(self, name: str) -> Any:  # isatty, fileno, encoding, ...
        return getattr(self._stream, name)


@dataclass(frozen=True)
class Column:
    """A table column. ``keep``: higher is dropped later (a column with ``keep`` None is never
    dropped); ``number``: never wrapped (a column of figures); text columns wrap at spaces."""

    header: str
    justify: str = "left"
    number: bool = False
    keep: int | None = None


def table_widths(table: Any) -> tuple[int, int]:
    """The narrowest ``table`` can be (text wrapped at spaces) and its natural width."""
    from rich.console import Console
    from rich.measure import Measurement

    probe = Console(file=io.StringIO(), width=10_000)
    m = Measurement.get(probe, probe.options, table)
    return m.minimum, m.maximum


def _min_width(table: Any) -> int:
    return table_widths(table)[0]


def _build(columns: Sequence[Column], rows: Sequence[Sequence[Any]], styles: Sequence[Any],
           table_args: dict[str, Any]) -> Any:
    from rich.table import Table

    t = Table(**table_args)
    for c in columns:
        t.add_column(c.header, justify=c.justify, no_wrap=c.number, overflow="fold")
    for cells, style in zip(rows, styles, strict=True):
        t.add_row(*cells, style=style)
    return t


def fitted_table(columns: Sequence[Column], rows: Sequence[Sequence[Any]], width: int, *,
                 styles: Sequence[Any] | None = None, **table_args: Any) -> tuple[Any, list[int]]:
    """A rich ``Table`` of ``rows`` no wider than ``width``: columns are dropped by rising
    ``keep`` until it fits unwrapped; if that never happens, the fewest drops that fit with
    the text columns wrapped (if even the kept ones do not fit, they stay: wrapping text is
    better than losing the row). Returns the table and the indices of the columns shown."""
    styles = list(styles) if styles is not None else [None] * len(rows)
    droppable = sorted((i for i, c in enumerate(columns) if c.keep is not None),
                       key=lambda i: (columns[i].keep, -i))
    trials = []
    for k in range(len(droppable) + 1):
        shown = [i for i in range(len(columns)) if i not in droppable[:k]]
        t = _build([columns[i] for i in shown], [[r[i] for i in shown] for r in rows], styles,
                   table_args)
        trials.append((t, shown, *table_widths(t)))
        if trials[-1][3] <= width:  # fits without wrapping a cell
            return t, shown
    # nothing fits unwrapped: the fewest drops that fit with text cells wrapped
    t, shown, _, _ = next((x for x in trials if x[2] <= width), trials[-1])
    return t, shown


def column_blocks(key: Column, columns: Sequence[Column], key_cells: Sequence[Any],
                  rows: Sequence[Sequence[Any]], width: int, **table_args: Any) -> list[Any]:
    """A wide table of figures as one or more tables no wider than ``width``: each repeats the
    ``key`` column and takes as many of the other columns, in order, as fit."""
    blocks: list[Any] = []
    start = 0
    while True:
        end = start + 1
        while end < len(columns) and _min_width(
                _block(key, columns, key_cells, rows, start, end + 1, table_args)) <= width:
            end += 1
        blocks.append(_block(key, columns, key_cells, rows, start, end, table_args))
        start = end
        if start >= len(columns):
            return blocks


def _block(key: Column, columns: Sequence[Column], key_cells: Sequence[Any],
           rows: Sequence[Sequence[Any]], start: int, end: int, table_args: dict[str, Any]) -> Any:
    cols = [key, *columns[start:end]]
    cells = [[k, *r[start:end]] for k, r in zip(key_cells, rows, strict=True)]
    return _build(cols, cells, [None] * len(cells), table_args)


def suit_text(text: str, colour: bool = True) -> Any:
    """``text`` as rich Text with the red suits (♥ ♦) in red; plain text when ``colour`` is
    off (the console drops the style anyway where colour is off)."""
    from rich.text import Text

    t = Text(text)
    if colour:
        for i, ch in enumerate(text):
            if ch in RED_SUITS:
                t.stylize(SUIT_STYLE, i, i + 1)
    return t
