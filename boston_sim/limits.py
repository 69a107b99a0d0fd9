"""What one request may ask, in one place: the range of every number a user gives, the length
of every text, the size of every input file. Each is checked before any work starts, so a
request beyond them fails at once with a one-line message instead of running out of memory
or breaking an output later (an infinite EV cannot be written as JSON).

The README's "Limits" section and docs/RELIABILITY.md list these values. This module imports
only :mod:`boston_sim.errors`, so every layer may use it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from typing import IO, Any

from .errors import InputFileError, LimitError

SEED_MAX = 2**63 - 1  # seeds are 0..2**63-1 (numpy's SeedSequence takes no negative entropy)
SAMPLES_MAX = 200_000  # deals of one analysis; 10x the precision mode's cap
SAMPLES_MIN = 2  # the SE of one deal is undefined
THREADS_MAX = 1024  # solver threads, and batch worker processes
BRACKET_DEALS_MAX = 10_000  # deals replayed per rung by the bracket
BRACKET_LAYOUTS_MAX = 1_000  # layouts per single-dummy decision
MAX_TIME_MAX = 7 * 24 * 3600.0  # seconds: one week
RISK_MAX = 1e6  # counters: |--risk| at most this
PRECISION_MIN = 1e-3  # counters: finer asks for more deals than any cap allows
PRECISION_MAX = 1e6  # counters
TRICKS_MAX = 13  # --target: 0..13 tricks
NODE_BUDGET_MAX = 1 << 24  # a search's node budget: its 16th tier (4**16 times) fits int64

TEXT_MAX = 1000  # characters of one command-line text (a hand, a constraint, an option)
LINE_MAX = 10_000  # characters of one line of an input file
INPUT_ROWS_MAX = 1_000_000  # lines of one input file (a batch's hands, `solve --file`'s deals)
INPUT_CHARS_MAX = 100_000_000  # characters of one input file (about 100 MB)
ECHO_MAX = 80  # characters of user input a message repeats


def clip(text: object, limit: int = ECHO_MAX) -> str:
    """``text`` on one line, cut to ``limit`` characters (with ``...``): what a message may echo
    of the user's input."""
    s = " ".join(str(text).split())
    return s if len(s) <= limit else s[: limit - 3] + "..."


def clip_words(message: str, limit: int = ECHO_MAX) -> str:
    """A message with every word longer than ``limit`` cut: a 130 KB junk hand inside a
    message is echoed as its first 77 characters."""
    return " ".join(clip(w, limit) for w in str(message).split())


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_real(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def check_int(name: str, value: Any, lo: int, hi: int) -> int:
    """``value`` as a whole number in ``lo..hi``, else :class:`LimitError` naming ``name``."""
    if not _is_int(value):
        try:  # numpy integers and the like
            if isinstance(value, bool) or int(value) != value:
                raise TypeError
            value = int(value)
        except (TypeError, ValueError, OverflowError):
            raise LimitError(f"{name} must be a whole number, got {clip(repr(value))}") from None
    if not lo <= value <= hi:
        raise LimitError(f"{name} must be between {lo:,} and {hi:,}, got {clip(value)}")
    return value


def check_real(name: str, value: Any, lo: float, hi: float, *, lo_open: bool = False) -> float:
    """``value`` as a finite number in ``lo..hi`` (above ``lo`` when ``lo_open``)."""
    if not _is_real(value):
        try:
            if isinstance(value, (str, bytes)):  # "0.5" would pass here and break later
                raise TypeError
            value = float(value)
        except (TypeError, ValueError, OverflowError):
            raise LimitError(f"{name} must be a number, got {clip(repr(value))}") from None
    try:
        x = float(value)
    except OverflowError:
        x = math.inf
    below = x <= lo if lo_open else x < lo
    if not math.isfinite(x) or below or x > hi:
        low = f"above {lo:g} and " if lo_open else f"at least {lo:g} and "
        raise LimitError(f"{name} must be a finite number {low if lo > -math.inf else ''}"
                         f"at most {hi:g}, got {clip(value)}")
    return x


def check_text(name: str, value: Any, limit: int = TEXT_MAX) -> Any:
    """A text argument no longer than ``limit`` characters (others pass through unchanged)."""
    if isinstance(value, str) and len(value) > limit:
        raise LimitError(f"{name} is {len(value):,} characters long; at most {limit:,}: "
                         f"{clip(value)}")
    return value


def check_flag(name: str, value: Any, what: str = "true or false") -> bool:
    """``value`` as a plain bool, else :class:`LimitError` saying ``name`` is ``what``: a
    text such as "no" is truthy and would turn the flag on."""
    if type(value).__name__ not in ("bool", "bool_"):  # numpy's bool too; not arrays
        raise LimitError(f"{name} is {what}, got {clip(repr(value))}")
    return bool(value)


def check_settings_numbers(s: Any) -> dict[str, int | bool]:
    """Every number of an :class:`~boston_sim.settings.AnalysisSettings` within its range,
    and its texts within :data:`TEXT_MAX` (raises :class:`LimitError`); returns its whole
    numbers as plain ints and its flags as plain bools, by field name."""
    whole: dict[str, int | bool] = {"seed": check_int("--seed", s.seed, 0, SEED_MAX)}
    if s.samples is not None:
        whole["samples"] = check_int("--samples", s.samples, SAMPLES_MIN, SAMPLES_MAX)
    if s.precision is not None:
        check_real("--precision", s.precision, PRECISION_MIN, PRECISION_MAX)
    whole["max_samples"] = check_int("max_samples", s.max_samples, SAMPLES_MIN, SAMPLES_MAX)
    if s.max_time is not None:  # positive: the analysis says so, with what it applies to
        check_real("--max-time", s.max_time, -math.inf, MAX_TIME_MAX)
    check_real("--risk", s.risk_threshold, -RISK_MAX, RISK_MAX)
    if s.threads is not None:
        whole["threads"] = check_int("--threads", s.threads, 1, THREADS_MAX)
    whole["bracket"] = check_flag("--bracket", s.bracket)
    whole["control_variates"] = check_flag("control_variates", s.control_variates)
    whole["bracket_deals"] = check_int("--bracket-deals", s.bracket_deals, 1, BRACKET_DEALS_MAX)
    whole["bracket_layouts"] = check_int("--bracket-layouts", s.bracket_layouts, 1,
                                         BRACKET_LAYOUTS_MAX)
    for name, values in (("--known", s.known), ("--constraint", s.constraints)):
        for v in values:
            check_text(name, v)
    for v in s.known:
        if not (isinstance(v, str) or (isinstance(v, tuple) and len(v) == 2
                                       and all(_is_int(x) for x in v))):
            raise LimitError(f"a known card is text such as SA@dealer or a (card, seat) pair "
                             f"of whole numbers, got {clip(repr(v))}")
    for name, pairs in (("--option", s.options), ("context", s.context)):
        for k, v in pairs:
            check_text(name, f"{k}={v}")
    for name in ("rules", "seat", "turnup", "partner"):
        check_text(f"--{name}", getattr(s, name))
    return whole


def bounded_lines(f: IO[str] | Iterable[str], source: str = "input",
                  max_chars: int = LINE_MAX) -> Iterator[str]:
    """The lines of ``f`` (with their line ends), each read with at most ``max_chars + 1``
    characters in memory: a longer line (``/dev/zero`` has no line end at all) raises
    :class:`InputFileError` with its line number. Undecodable bytes raise it too."""
    readline = getattr(f, "readline", None)
    it = None if readline is not None else iter(f)
    n = 0
    total = 0
    while True:
        try:
            line = readline(max_chars + 1) if readline is not None else next(it, "")  # type: ignore[arg-type]
        except UnicodeDecodeError as e:
            raise InputFileError(f"{clip(source)}: line {n + 1} is not UTF-8 text "
                                 f"(byte {e.object[e.start]:#04x}); save the file as UTF-8"
                                 ) from None
        if not line:
            return
        n += 1
        if len(line) > max_chars and not line.endswith("\n"):
            raise InputFileError(f"{clip(source)}: line {n} is longer than {max_chars:,} "
                                 "characters")
        total += len(line)
        if n > INPUT_ROWS_MAX or total > INPUT_CHARS_MAX:
            raise InputFileError(f"{clip(source)}: longer than {INPUT_ROWS_MAX:,} lines or "
                                 f"{INPUT_CHARS_MAX:,} characters; split it")
        yield line
