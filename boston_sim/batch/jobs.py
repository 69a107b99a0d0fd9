"""Records -> jobs (one hand with the settings it is analysed under), and the per-hand work.

A row's own seat / rules / turn-up win over the run's settings; hand ``i`` (its 0-based
position in the input) is analysed with ``sampler.seed_for(run_seed, i)``, so its result is
the same whichever worker runs it and in whatever order.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..cards import format_hand, parse_card, parse_compass, parse_hand, parse_play_seat
from ..errors import USER_ERRORS, BostonSimError
from ..settings import AnalysisSettings
from .readers import STDIN, Item, Record, detect_input_format, read_records
from .records import BadRow, HandResult

# The workers (processes) are a batch's parallelism: each hand gets one solver thread unless
# the settings name a number.
HAND_THREADS = 1


@dataclass(frozen=True)
class Job:
    """One hand to analyse: everything a worker needs, nothing it has to look up.

    ``settings`` are the run's, with the row's rules / seat / turn-up and the hand's own seed
    (already derived from the run seed) filled in."""

    index: int  # 0-based position of the hand in the input: the hand id and the seed's key
    line: int  # 1-based line number in the input file, for error reports
    hand: str
    label: str
    settings: AnalysisSettings


def hand_seed(run_seed: int, index: int) -> int:
    """Seed of hand ``index`` of a run with seed ``run_seed`` (``sampler.seed_for``)."""
    from ..sampler import seed_for

    return seed_for(run_seed, index)


def check_rules(name: Any, options: dict[str, Any] | None) -> Any:
    """Load rule set ``name`` with ``options`` the way ``analyze`` does (context keys such
    as ``preference`` are not rule options unless the rule set declares them); raises the
    same user errors. Returns the RuleSet."""
    from ..config import CONTEXT_KEYS
    from ..rules import RuleSet, load_rules

    rs = name if isinstance(name, RuleSet) else load_rules(name)
    opts = {k: v for k, v in (options or {}).items()
            if k not in CONTEXT_KEYS or k in rs.option_specs}
    if isinstance(name, RuleSet):
        return rs.with_options(opts) if opts else rs
    return load_rules(name, opts or None)


def plays_rightward(settings: AnalysisSettings) -> bool:
    """Whether the run's rule set plays to the right (it relies on A-41)."""
    try:
        return "A-41" in check_rules(settings.rules, settings.option_map).interpretations
    except USER_ERRORS:
        return False  # reported per row later


class JobStream:
    """The jobs and bad rows of an input file, made as they are consumed.

    Every iteration reads the file again from the start, line by line, so memory is bounded
    by what the consumer holds, not by the file; after a complete iteration ``n_hands``
    counts every position (good or bad) and ``sha256`` is the hash of the bytes read. An
    input that can be read only once (a FIFO, a device) is read whole on the first
    iteration and kept, within the input limits of :mod:`boston_sim.limits`; so is a file
    that reports no size (``/proc``).
    A file that cannot be read at all raises a user error while it is iterated.
    """

    def __init__(self, path: str | Path, settings: AnalysisSettings | None = None, *,
                 input_format: str | None = None, pbn_seat: str = "all",
                 pbn_board: str | None = None) -> None:
        settings = settings or AnalysisSettings()
        if settings.threads is None:
            settings = settings.replace(threads=HAND_THREADS)
        self.path = Path(path)
        self.settings = settings
        self.fmt = input_format or detect_input_format(self.path)
        if pbn_seat != "all":
            parse_compass(pbn_seat)
        self.pbn_seat = pbn_seat
        if pbn_board is not None and (isinstance(pbn_board, bool)
                                      or not isinstance(pbn_board, (str, int))):
            raise BostonSimError(f"pbn_board is a board number, got {type(pbn_board).__name__}")
        self.pbn_board = None if pbn_board is None else str(pbn_board)
        self.rightward = self.fmt == "pbn" and plays_rightward(settings)
        self.n_hands = 0
        self.sha256: str | None = None
        self._once: list[Item] | None = None

    def _items(self) -> Iterator[Item]:
        if self._once is not None:
            return iter(self._once)
        digest = hashlib.sha256()
        items = read_records(self.path, self.fmt, self.pbn_seat, self.rightward, digest,
                             self.pbn_board)
        if (str(self.path) != STDIN and self.path.is_file()
                and self.path.stat().st_size > 0):
            return self._hashed(items, digest)
        # a FIFO or device reads once; a /proc file (size 0) differs at every read
        self._once = list(items)
        self.sha256 = digest.hexdigest()
        return iter(self._once)

    def _hashed(self, items: Iterator[Item], digest: Any) -> Iterator[Item]:
        yield from items
        self.sha256 = digest.hexdigest()

    def __iter__(self) -> Iterator[Job | BadRow]:
        rule_errors: dict[Any, str | None] = {}  # each rule set is loaded once a pass
        index = 0
        for width, rec in self._items():
            item: Job | BadRow
            if rec.error is not None:
                item = BadRow(rec.line, rec.error, rec.text, index, width)
            else:
                try:
                    item = _job(rec, index, self.settings, rule_errors)
                except RunOptionError:
                    raise
                except USER_ERRORS as e:
                    item = BadRow(rec.line, str(e), rec.text, index, width)
            yield item
            index += width
        self.n_hands = index

    def scan(self) -> int:
        """Read the whole input once (every error of the file raised now); the number of
        positions."""
        for _ in self:
            pass
        return self.n_hands


def read_jobs(path: str | Path, settings: AnalysisSettings | None = None, *,
              input_format: str | None = None,
              pbn_seat: str = "all") -> tuple[list[Job], list[BadRow], int]:
    """Read an input file into jobs and bad rows (all in memory: :class:`JobStream` streams).

    Returns ``(jobs, bad_rows, n_hands)``; ``n_hands`` counts every position (good or bad),
    and ``job.index`` is the hand's position, which keys its seed. A row whose hand, seat or
    rules cannot be read becomes a :class:`BadRow`; a file that cannot be read at all raises
    a user error (``BostonSimError`` / ``FileNotFoundError``).
    """
    stream = JobStream(path, settings, input_format=input_format, pbn_seat=pbn_seat)
    jobs: list[Job] = []
    bad: list[BadRow] = []
    for item in stream:
        (jobs if isinstance(item, Job) else bad).append(item)  # type: ignore[arg-type]
    return jobs, bad, stream.n_hands


def _job(rec: Record, index: int, settings: AnalysisSettings,
         rule_errors: dict[Any, str | None]) -> Job:
    """The job of one readable record; a bad hand, seat, turn-up or rule set raises."""
    hand = format_hand(parse_hand(rec.hand), "pbn")  # cheap: fail early, not in a worker
    seat = rec.seat or settings.seat
    parse_play_seat(seat)
    rules = rec.rules or settings.rules
    turnup = rec.turnup or settings.turnup
    if turnup is not None:
        parse_card(turnup)
    if rules not in rule_errors:
        try:
            check_rules(rules, settings.option_map)
            rule_errors[rules] = None
        except USER_ERRORS as e:
            rule_errors[rules] = str(e)
            _raise_if_option_error(rules, settings, e)
    if rule_errors[rules] is not None:
        raise BostonSimError(rule_errors[rules])
    label = " ".join(rec.label.split())  # one line per row in the results: no line breaks
    return Job(index, rec.line, hand, label,
               settings.replace(rules=rules, seat=seat, turnup=turnup,
                                seed=hand_seed(settings.seed, index)))


class RunOptionError(BostonSimError):
    """The run's ``--option`` is wrong for a rule set its rows use: a usage error of the whole
    run, raised before any work rather than reported once per row."""


def _raise_if_option_error(rules: Any, settings: AnalysisSettings, e: Exception) -> None:
    """Raise :class:`RunOptionError` if ``rules`` loads without the run's options."""
    if not settings.options:
        return
    try:
        check_rules(rules, None)
    except USER_ERRORS:
        return  # the rule set itself is bad: that row's own problem
    raise RunOptionError(str(e)) from None


def _analyze(job: Job) -> Any:
    from ..analysis import analyze

    return analyze(job.hand, job.settings)


def analyze_one(job: Job) -> HandResult:
    """Analyse one hand with :func:`boston_sim.analysis.analyze`; never raises.

    A user error (bad hand, seat, rules, impossible constraint) or any other failure comes
    back as ``HandResult.error`` so that one bad hand cannot stop a batch or kill a worker.
    """
    from .results import rows_of

    try:
        return HandResult(job.index, job.line, rows=rows_of(_analyze(job), job))
    except USER_ERRORS as e:
        return HandResult(job.index, job.line, error=str(e))
    except Exception as e:  # a bug must not stop the other hands; report it on the row
        return HandResult(job.index, job.line, error=f"internal error: {type(e).__name__}: {e}")
