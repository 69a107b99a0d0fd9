"""The one progress bar: a rich bar on stderr, for the analysis, the batch and the solve command.

A foundation module (it imports nothing of the package, and rich only when a bar starts), so
that every layer can show progress without importing upwards: ``analyze(progress=True)``
draws one, and so do ``run_batch`` and ``boston-sim solve``. Work is reported as
``update(done, total)`` (the shape of the analysis's progress callback) or ``advance(n)``.
:func:`say` prints a line on stderr above the bar that is showing, if one is.
"""

from __future__ import annotations

import sys
import time
from typing import Any

RATE_PER = 60.0  # the rate column counts items per minute


class ProgressBar:
    """A rich progress bar on stderr. ``label`` heads it; ``count``: show "done/total"
    (else a percentage); ``rate``: a unit such as ``"hands/min"`` adds the rate and the
    elapsed time; ``transient``: the bar disappears when it stops. A disabled bar draws nothing
    and costs nothing.

    Use as a context manager, or ``start()`` / ``stop()``."""

    def __init__(self, label: str, total: float = 0, *, count: bool = False,
                 rate: str | None = None, transient: bool = True, enabled: bool = True) -> None:
        self.label = label
        self.total = total
        self.done = 0.0
        self.count = count
        self.rate = rate
        self.transient = transient
        self.enabled = enabled
        self._bar: Any = None
        self._task: Any = None
        self._t0 = 0.0

    def _columns(self) -> list[Any]:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        cols: list[Any] = [TextColumn(self.label), BarColumn()]
        cols.append(MofNCompleteColumn() if self.count
                    else TextColumn("{task.percentage:>3.0f}%"))
        if self.rate is not None:
            cols += [TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TextColumn("left")]
        cols.append(TimeRemainingColumn())
        return cols

    def start(self) -> ProgressBar:
        """Draw the bar (nothing when disabled)."""
        if self.enabled and self._bar is None:
            from rich.console import Console
            from rich.progress import Progress

            self._bar = Progress(*self._columns(), console=Console(stderr=True),
                                 transient=self.transient, redirect_stdout=False,
                                 redirect_stderr=False)
            self._bar.start()
            _live.append(self)
            self._t0 = time.perf_counter()
            self._task = self._bar.add_task(self.label, total=self.total, rate="")
        return self

    def stop(self) -> None:
        """Remove (transient) or leave the bar; safe to call twice."""
        if self._bar is not None:
            self._bar.stop()
            self._bar = None
            if self in _live:
                _live.remove(self)

    def __enter__(self) -> ProgressBar:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def set_total(self, total: float) -> None:
        """The work now planned (it may grow as the analysis draws more rounds)."""
        self.total = total
        if self._bar is not None:
            self._bar.update(self._task, total=total)

    def advance(self, n: float = 1) -> None:
        """``n`` more items done."""
        self.update(self.done + n, self.total)

    def update(self, done: float, total: float) -> None:
        """``done`` of ``total`` items: the signature of a ``progress`` callback."""
        self.done, self.total = done, total
        if self._bar is None:
            return
        fields: dict[str, Any] = {}
        if self.rate is not None:
            dt = time.perf_counter() - self._t0
            fields["rate"] = f"{RATE_PER * done / dt:.1f} {self.rate}" if dt > 0 else ""
        self._bar.update(self._task, completed=done, total=total, **fields)


_live: list[ProgressBar] = []  # the bars drawn now, the newest last


def say(message: str) -> None:
    """Print ``message`` as one line on stderr: above the bar being drawn, if any (a plain
    write would be overdrawn by it), else directly."""
    if _live:
        _live[-1]._bar.console.print(message, markup=False, highlight=False, soft_wrap=True)
    else:
        sys.stderr.write(message + "\n")
        sys.stderr.flush()
