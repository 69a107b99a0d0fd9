"""Files of hands -> results files: read, analyse each hand in parallel, write as hands finish.

The pipeline has three independent parts:

* **readers** turn an input file (text, CSV, JSON Lines or PBN) into :class:`Job` records and
  :class:`BadRow` records (line number + reason); a bad row never stops the batch;
* **executors** run :func:`analyze_one` (a plain, picklable function ``Job -> HandResult``) in
  this process, in local worker processes, or on a Dask distributed cluster;
* **sinks** append each finished hand's rows in one atomic step (CSV / JSON Lines: one
  ``write`` + ``flush`` + ``fsync``; Parquet: one part file per hand written to a temporary
  name and renamed), so a run killed at any moment loses at most the hands in flight, and
  ``resume`` drops a torn or incomplete trailing hand and skips every complete one.

Seeds: hand ``i`` (its 0-based position in the input) is analysed with
``sampler.seed_for(run_seed, i)`` (ARCHITECTURE.md), so its result is the same whichever
worker ran it and in whatever order. At the end the results file is rewritten sorted by hand
id, so two runs with the same seed give byte-identical files whatever the executor.

Input formats (see :func:`read_jobs`):

* text: one hand per line, ``HAND [| SEAT [| LABEL [| RULES [| TURNUP]]]]`` (``|`` or a tab
  separates the fields; empty fields take the run's defaults; ``#`` starts a comment line;
  blank lines are skipped);
* CSV: a header with a ``hand`` column and optional ``seat``, ``rules``, ``label``,
  ``turnup`` columns (TURNUP: the turned-up card, needed by Solo Whist and Russian Boston);
* JSON Lines: one object per line with the same keys;
* PBN: every ``[Deal "N:..."]`` tag; the hand of one compass seat or of every seat, its
  playing-order seat derived from the ``[Dealer "X"]`` tag (eldest = the dealer's left-hand
  neighbour, the next seat clockwise; if the tag is absent the dealer is taken to be W, the
  analysis convention of ``cards.py``, so N is eldest). Under a rule set that plays to the
  right (Russian Boston, A-41) eldest is the dealer's right-hand neighbour instead.

A row's own seat / rules / turn-up win over the run's ``--seat`` / ``--rules`` / ``--turnup``.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import re
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .cards import (COMPASS, PLAY_SEATS, NotationError, format_hand, parse_card, parse_compass,
                    parse_hand, parse_play_seat)
from .errors import BostonSimError, USER_ERRORS

INPUT_FORMATS = ("text", "csv", "jsonl", "pbn")
OUTPUT_FORMATS = ("csv", "parquet", "jsonl")
_EXT_TO_INPUT = {
    ".txt": "text", ".text": "text", ".hands": "text", ".csv": "csv", ".jsonl": "jsonl",
    ".ndjson": "jsonl", ".json": "jsonl", ".pbn": "pbn",
}
_EXT_TO_OUTPUT = {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl", ".parquet": "parquet"}
DEFAULT_RULES = "boston_foster"
# ``analyze`` takes these as context (suits), not rule options (analysis.CONTEXT_KEYS); kept
# here so that reading a file does not import the analysis (and numba) in the parent
_CONTEXT_KEYS = ("preference", "senior", "junior")
DEFAULT_SEAT = "eldest"

# One row per hand x rung. The type of each column is fixed so that CSV, JSON Lines and
# Parquet read back to the same values.
ROW_SCHEMA: dict[str, type] = {
    "hand_id": int,
    "label": str,
    "rules": str,
    "seat": str,
    "hand": str,
    "rung": str,
    "name": str,
    "rank": int,
    "trump": str,
    "p_make": float,
    "p_make_se": float,
    "mean_tricks": float,
    "ev_per_adversary": float,
    "ev_per_adversary_se": float,
    "ev_net": float,
    "ev_net_se": float,
    "p_loss_gt": float,
    "cvar5": float,
    "recommended": bool,
    # per-hand facts repeated on every row, so that the summary can be rebuilt from the rows
    # alone and a hand's row set can be checked for completeness on resume
    "n_rungs": int,
    "samples": int,
    "seed": int,
    "runner_up": str,
    "diff_se": float,
}
ROW_COLUMNS = list(ROW_SCHEMA)

SUMMARY_SCHEMA: dict[str, type] = {
    "hand_id": int,
    "label": str,
    "rules": str,
    "seat": str,
    "hand": str,
    "recommended": str,
    "recommended_name": str,
    "trump": str,
    "p_make": float,
    "ev_net": float,
    "runner_up": str,
    "runner_up_name": str,
    "runner_up_ev_net": float,
    "diff_se": float,
    "samples": int,
    "seed": int,
}
SUMMARY_COLUMNS = list(SUMMARY_SCHEMA)
ERROR_COLUMNS = ["line", "hand_id", "reason", "text"]


# --------------------------------------------------------------------------- records


@dataclass(frozen=True)
class Job:
    """One hand to analyse: everything a worker needs, nothing it has to look up."""

    index: int  # 0-based position of the hand in the input: the hand id and the seed's key
    line: int  # 1-based line number in the input file, for error reports
    hand: str
    seat: str
    rules: str
    label: str = ""
    options: dict[str, str] = field(default_factory=dict)
    samples: int | None = None
    seed: int = 0  # this hand's own seed, already derived from the run seed
    threads: int | None = 1
    risk_threshold: float = 0.0  # p_loss_gt = P(net < -risk_threshold)
    turnup: str | None = None  # the turned-up card (Solo Whist, Russian Boston)
    max_time: float | None = None  # seconds per hand: no new batch of deals after (analyze)


@dataclass(frozen=True)
class BadRow:
    """An input row that could not be analysed, with its line number and a one-line reason."""

    line: int
    reason: str
    text: str = ""
    index: int | None = None


@dataclass(frozen=True)
class HandResult:
    """What a worker sends back: the hand's rows, or the reason it failed."""

    index: int
    line: int
    rows: list[dict[str, Any]] | None = None
    error: str | None = None


@dataclass
class BatchSummary:
    """Counts and paths of a finished (or interrupted) run."""

    hands: int = 0  # hands read from the input (good and bad)
    done: int = 0  # hands with results in the output (including resumed ones)
    analysed: int = 0  # hands analysed in this run
    skipped: int = 0  # hands already in the output (--resume)
    failed: int = 0  # bad rows + hands whose analysis failed
    results: str = ""
    summary: str = ""
    errors: str = ""
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


# --------------------------------------------------------------------------- seeds


def hand_seed(run_seed: int, index: int) -> int:
    """Seed of hand ``index`` of a run with seed ``run_seed`` (``sampler.seed_for``)."""
    from .sampler import seed_for

    return seed_for(run_seed, index)


# --------------------------------------------------------------------------- readers


def detect_input_format(path: str | Path) -> str:
    """Input format from the file extension (``.txt .csv .jsonl .pbn``)."""
    ext = Path(path).suffix.lower()
    if ext not in _EXT_TO_INPUT:
        raise BostonSimError(
            f"cannot tell the format of {str(path)!r} from its extension; "
            f"use --input-format ({', '.join(INPUT_FORMATS)})"
        )
    return _EXT_TO_INPUT[ext]


@dataclass(frozen=True)
class _Record:
    """A row as read from the input, before defaults are applied."""

    line: int
    hand: str
    seat: str | None = None
    rules: str | None = None
    label: str = ""
    text: str = ""
    error: str | None = None  # set when the row itself cannot be read
    turnup: str | None = None


def _check_record(rec: _Record) -> str:
    """Validate the hand notation early (cheap) and return it in PBN dotted form."""
    return format_hand(parse_hand(rec.hand), "pbn")


def _read_text(f: Iterable[str]) -> Iterator[_Record]:
    for n, raw in enumerate(f, 1):
        line = raw.rstrip("\r\n")
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        fields = [x.strip() for x in re.split(r"\||\t", s)]
        if len(fields) > 5:
            yield _Record(n, "", text=line, error=f"{len(fields)} fields; expected "
                          "HAND | SEAT | LABEL | RULES | TURNUP")
            continue
        fields += [""] * (5 - len(fields))
        hand, seat, label, rules, turnup = fields
        yield _Record(n, hand, seat or None, rules or None, label, text=line,
                      turnup=turnup or None)


def _read_csv(f: Iterable[str]) -> Iterator[_Record]:
    reader = csv.DictReader(f)
    cols = [c.strip().lower() for c in (reader.fieldnames or [])]
    if "hand" not in cols:
        raise BostonSimError("the CSV file needs a 'hand' column (optional: seat, rules, label)")
    reader.fieldnames = cols
    for row in reader:
        line = reader.line_num  # the (last) physical line of this row
        if None in row:  # more fields than the header
            yield _Record(line, "", text=",".join(str(v) for v in row.values() if v),
                          error="more fields than the header")
            continue
        get = lambda k: (row.get(k) or "").strip()  # noqa: E731
        text = ",".join(v or "" for v in row.values())
        yield _Record(line, get("hand"), get("seat") or None, get("rules") or None,
                      get("label"), text=text, turnup=get("turnup") or None)


def _read_jsonl(f: Iterable[str]) -> Iterator[_Record]:
    for n, raw in enumerate(f, 1):
        s = raw.strip()
        if not s or s.startswith("#"):
            continue
        try:
            obj = json.loads(s)
        except json.JSONDecodeError as e:
            yield _Record(n, "", text=s, error=f"not valid JSON: {e.msg} at column {e.colno}")
            continue
        if not isinstance(obj, dict):
            yield _Record(n, "", text=s, error="expected a JSON object with a 'hand' key")
            continue
        if not isinstance(obj.get("hand"), str):
            yield _Record(n, "", text=s, error="missing 'hand' (a string)")
            continue

        def opt(k: str) -> str | None:
            v = obj.get(k)
            return None if v is None or str(v).strip() == "" else str(v).strip()

        yield _Record(n, obj["hand"], opt("seat"), opt("rules"), opt("label") or "", text=s,
                      turnup=opt("turnup"))


_PBN_TAG = re.compile(r'\[\s*(\w+)\s+"([^"]*)"\s*\]')


def _pbn_hands(deal: str) -> dict[int, str]:
    """``"N:h h h h"`` -> {compass seat: hand text}; ``-`` hands (unknown) are left out."""
    m = re.fullmatch(r"\s*([NESWnesw])\s*:\s*(.*)", deal)
    if not m:
        raise NotationError(f"deal {deal!r} must start with a seat and a colon, e.g. 'N:...'")
    first = COMPASS.index(m.group(1).upper())
    parts = m.group(2).split()
    if len(parts) != 4:
        raise NotationError(f"deal {deal!r} must have 4 hands, found {len(parts)}")
    return {(first + i) % 4: h for i, h in enumerate(parts) if h != "-"}


def _read_pbn(f: Iterable[str], pbn_seat: str,
              rightward: bool = False) -> Iterator[tuple[int, _Record]]:
    """PBN games -> one record per wanted seat; a bad deal yields one error record that
    stands for every seat it would have produced (so later hands keep their positions)."""
    seats = list(range(4)) if pbn_seat == "all" else [parse_compass(pbn_seat)]
    games: list[tuple[int, dict[str, str]]] = []
    tags: dict[str, str] = {}
    deal_line = 0
    for n, raw in enumerate(f, 1):
        s = raw.strip()
        if s.startswith("%") or s.startswith(";"):
            continue
        for m in _PBN_TAG.finditer(s):
            name, value = m.group(1), m.group(2)
            if name == "Event" and "Deal" in tags:
                games.append((deal_line, tags))
                tags = {}
            if name == "Deal":
                if "Deal" in tags:  # a second deal without an Event tag between
                    games.append((deal_line, tags))
                    tags = {k: v for k, v in tags.items() if k not in ("Deal", "Board")}
                deal_line = n
            tags[name] = value
    if "Deal" in tags:
        games.append((deal_line, tags))
    for line, t in games:
        board = t.get("Board", "").strip()
        try:
            dealer = parse_compass(t["Dealer"]) if t.get("Dealer", "").strip() else 3
        except NotationError:
            yield len(seats), _Record(line, "", text=f'[Dealer "{t["Dealer"]}"]',
                                      error=f"unknown dealer {t['Dealer']!r}")
            continue
        try:
            hands = _pbn_hands(t["Deal"])
        except NotationError as e:
            yield len(seats), _Record(line, "", text=f'[Deal "{t["Deal"]}"]', error=str(e))
            continue
        for c in seats:
            # playing order: eldest is the dealer's left-hand neighbour, the next seat
            # clockwise (cards.py); a rule set that plays to the right (A-41, Russian
            # Boston) has eldest on the dealer's right and play running anticlockwise
            play = (dealer - c - 1) % 4 if rightward else (c - dealer - 1) % 4
            label = f"board {board} {COMPASS[c]}" if board else f"deal line {line} {COMPASS[c]}"
            text = f'[Deal "{t["Deal"]}"] {COMPASS[c]}'
            if c not in hands:
                yield 1, _Record(line, "", text=text, error=f"no hand given for {COMPASS[c]}")
                continue
            yield 1, _Record(line, hands[c], PLAY_SEATS[play], None, label, text=text)


def check_rules(name: str, options: dict[str, str] | None) -> Any:
    """Load rule set ``name`` with ``options`` the way ``analyze`` does (context keys such
    as ``preference`` are not rule options unless the rule set declares them); raises the
    same user errors. Returns the RuleSet."""
    from .rules import load_rules

    rs = load_rules(name)
    opts = {k: v for k, v in (options or {}).items()
            if k not in _CONTEXT_KEYS or k in rs.option_specs}
    return load_rules(name, opts or None)


def _plays_rightward(rules: str | None, options: dict[str, str] | None) -> bool:
    """Whether the run's rule set plays to the right (it relies on A-41)."""
    try:
        return "A-41" in check_rules(rules or DEFAULT_RULES, options).interpretations
    except USER_ERRORS:
        return False  # reported per row later


def read_jobs(
    path: str | Path,
    input_format: str | None = None,
    *,
    rules: str | None = None,
    seat: str | None = None,
    options: dict[str, str] | None = None,
    samples: int | None = None,
    seed: int = 0,
    pbn_seat: str = "all",
    threads: int | None = 1,
    risk_threshold: float = 0.0,
    turnup: str | None = None,
    max_time: float | None = None,
) -> tuple[list[Job], list[BadRow], int]:
    """Read an input file into jobs and bad rows.

    Returns ``(jobs, bad_rows, n_hands)``; ``n_hands`` counts every position (good or bad),
    and ``job.index`` is the hand's position, which keys its seed. A row whose hand, seat or
    rules cannot be read becomes a :class:`BadRow`; a file that cannot be read at all raises
    a user error (``BostonSimError`` / ``FileNotFoundError``).
    """
    path = Path(path)
    fmt = input_format or detect_input_format(path)
    if fmt not in INPUT_FORMATS:
        raise BostonSimError(f"unknown input format {fmt!r} (use {', '.join(INPUT_FORMATS)})")
    if pbn_seat != "all":
        parse_compass(pbn_seat)
    with open(path, encoding="utf-8-sig", newline="") as f:
        if fmt == "text":
            items: Iterable[Any] = ((1, r) for r in _read_text(f))
        elif fmt == "csv":
            items = ((1, r) for r in _read_csv(f))
        elif fmt == "jsonl":
            items = ((1, r) for r in _read_jsonl(f))
        else:
            items = _read_pbn(f, pbn_seat, _plays_rightward(rules, options))
        items = list(items)

    rule_ok: dict[str, str | None] = {}

    def rules_error(name: str) -> str | None:
        if name not in rule_ok:
            try:
                check_rules(name, options)
                rule_ok[name] = None
            except USER_ERRORS as e:
                rule_ok[name] = str(e)
        return rule_ok[name]

    jobs: list[Job] = []
    bad: list[BadRow] = []
    index = 0
    for width, rec in items:
        if rec.error is not None:
            bad.append(BadRow(rec.line, rec.error, rec.text, index))
            index += width
            continue
        try:
            hand = _check_record(rec)
            seat_name = rec.seat or seat or DEFAULT_SEAT
            parse_play_seat(seat_name)
            rules_name = rec.rules or rules or DEFAULT_RULES
            turnup_card = rec.turnup or turnup
            if turnup_card is not None:
                parse_card(turnup_card)
            err = rules_error(rules_name)
            if err is not None:
                raise BostonSimError(err)
        except USER_ERRORS as e:
            bad.append(BadRow(rec.line, str(e), rec.text, index))
        else:
            # one line per row in the results: a label never carries a line break
            label = " ".join(rec.label.split())
            jobs.append(Job(index=index, line=rec.line, hand=hand, seat=seat_name,
                            rules=rules_name, label=label, options=dict(options or {}),
                            samples=samples, seed=hand_seed(seed, index), threads=threads,
                            risk_threshold=risk_threshold, turnup=turnup_card,
                            max_time=max_time))
        index += width
    return jobs, bad, index


# --------------------------------------------------------------------------- the per-hand work


def _num(x: Any) -> float:
    """A float, NaN for missing / None."""
    if x is None:
        return math.nan
    try:
        return float(x)
    except (TypeError, ValueError):
        return math.nan


def rows_of(analysis: Any, job: Job) -> list[dict[str, Any]]:
    """The output rows (one per rung, in ladder order) of one analysed hand."""
    recs = analysis.rung_rows
    runner = getattr(analysis, "runner_up", None)
    diff_se = _num(getattr(analysis, "diff_se", None))
    rec_id = getattr(analysis, "recommended", None)
    recommended = "" if rec_id is None else str(rec_id)  # None: no rung is priced
    out = []
    for r in recs:
        trump = r.get("trump")
        out.append({
            "hand_id": job.index,
            "label": job.label,
            "rules": job.rules,
            "seat": str(getattr(analysis, "seat", job.seat)),
            "hand": job.hand,
            "rung": str(r["rung"]),
            "name": str(r.get("name", r["rung"])),
            "rank": int(r.get("rank", 0)),
            "trump": "" if trump is None or (isinstance(trump, float) and math.isnan(trump))
            else str(trump),
            "p_make": _num(r.get("p_make")),
            "p_make_se": _num(r.get("p_make_se")),
            "mean_tricks": _num(r.get("mean_tricks")),
            "ev_per_adversary": _num(r.get("ev_per_adversary")),
            "ev_per_adversary_se": _num(r.get("ev_per_adversary_se")),
            "ev_net": _num(r.get("ev_net")),
            "ev_net_se": _num(r.get("ev_net_se")),
            "p_loss_gt": _num(r.get("p_loss_gt")),
            "cvar5": _num(r.get("cvar5")),
            "recommended": bool(r.get("recommended", str(r["rung"]) == recommended)),
            "n_rungs": len(recs),
            "samples": int(r.get("samples", analysis.samples)),  # the row's own deals
            "seed": int(job.seed),
            "runner_up": "" if runner is None else str(runner),
            "diff_se": diff_se,
        })
    return out


def analyze_one(job: Job) -> HandResult:
    """Analyse one hand with :func:`boston_sim.analysis.analyze`; never raises.

    A user error (bad hand, seat, rules, impossible constraint) or any other failure comes
    back as ``HandResult.error`` so that one bad hand cannot stop a batch or kill a worker.
    """
    try:
        from .analysis import analyze

        a = analyze(job.hand, seat=job.seat, rules=job.rules, options=job.options or None,
                    samples=job.samples, seed=job.seed, threads=job.threads,
                    risk_threshold=job.risk_threshold, turnup=job.turnup,
                    max_time=job.max_time)
        return HandResult(job.index, job.line, rows=rows_of(a, job))
    except USER_ERRORS as e:
        return HandResult(job.index, job.line, error=str(e))
    except Exception as e:  # a bug must not stop the other hands; report it on the row
        return HandResult(job.index, job.line, error=f"internal error: {type(e).__name__}: {e}")


# --------------------------------------------------------------------------- values <-> text


def _fmt_csv(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return "" if math.isnan(v) else repr(v)
    return str(v)


def _parse_value(text: str, typ: type) -> Any:
    if typ is float:
        return math.nan if text == "" else float(text)
    if typ is int:
        return int(text)
    if typ is bool:
        if text not in ("true", "false"):
            raise ValueError(f"not a boolean: {text!r}")
        return text == "true"
    return text


def _json_value(v: Any) -> Any:
    if isinstance(v, float) and math.isnan(v):
        return None
    return v


def _from_json(v: Any, typ: type) -> Any:
    if typ is float:
        return math.nan if v is None else float(v)
    if typ is int:
        return int(v)
    if typ is bool:
        if not isinstance(v, bool):
            raise ValueError(f"not a boolean: {v!r}")
        return v
    return "" if v is None else str(v)


def encode_rows(rows: list[dict[str, Any]], fmt: str, columns: list[str]) -> bytes:
    """Rows -> the bytes of complete CSV or JSON Lines lines (no header)."""
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        for r in rows:
            w.writerow([_fmt_csv(r[c]) for c in columns])
        return buf.getvalue().encode("utf-8")
    lines = [
        json.dumps({c: _json_value(r[c]) for c in columns}, ensure_ascii=False, allow_nan=False)
        for r in rows
    ]
    return ("".join(x + "\n" for x in lines)).encode("utf-8")


def _csv_header(columns: list[str]) -> bytes:
    return (",".join(columns) + "\n").encode("utf-8")


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def _atomic_write_bytes(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


# --------------------------------------------------------------------------- sinks


class LineSink:
    """CSV or JSON Lines results file, appended one hand at a time.

    Every hand's rows go out in one ``os.write`` followed by ``fsync``. A kill can therefore
    leave only the last hand torn (a partial line, or fewer than ``n_rungs`` rows); ``open``
    with ``resume`` drops such a hand and rewrites the file cleanly before appending.
    """

    def __init__(self, path: Path, fmt: str) -> None:
        self.path = path
        self.fmt = fmt
        self.fd: int | None = None

    # reading -------------------------------------------------------------------------
    def _blocks(self) -> list[tuple[int, bytes, list[dict[str, Any]]]]:
        """Complete hands in the file as (hand_id, raw bytes, rows), torn ones dropped."""
        data = self.path.read_bytes()
        cut = data.rfind(b"\n")
        data = data[: cut + 1]  # a torn trailing line is not a row
        lines = data.splitlines(keepends=True)
        if self.fmt == "csv":
            if not lines:
                return []
            header = next(csv.reader([lines[0].decode("utf-8")]))
            if header != ROW_COLUMNS:
                raise BostonSimError(f"{self.path} is not a boston-sim results file (header)")
            lines = lines[1:]
        groups: dict[int, list[tuple[bytes, dict[str, Any]]]] = {}
        order: list[int] = []
        for raw in lines:
            try:
                row = self._decode(raw)
            except (ValueError, KeyError, json.JSONDecodeError):
                continue  # a damaged line: its hand will be incomplete and redone
            hid = row["hand_id"]
            if hid not in groups:
                groups[hid] = []
                order.append(hid)
            groups[hid].append((raw, row))
        out = []
        for hid in order:
            g = groups[hid]
            n = g[0][1]["n_rungs"]
            rungs = [row["rung"] for _, row in g]
            if len(g) == n and len(set(rungs)) == n:
                out.append((hid, b"".join(raw for raw, _ in g), [row for _, row in g]))
            elif len(g) > n and len(g) % n == 0:
                # the same hand twice (cannot happen through resume; be safe): keep one set
                first = g[:n]
                out.append((hid, b"".join(raw for raw, _ in first), [row for _, row in first]))
        return out

    def _decode(self, raw: bytes) -> dict[str, Any]:
        text = raw.decode("utf-8")
        if self.fmt == "csv":
            vals = next(csv.reader([text]))
            if len(vals) != len(ROW_COLUMNS):
                raise ValueError("wrong number of fields")
            return {c: _parse_value(v, ROW_SCHEMA[c]) for c, v in zip(ROW_COLUMNS, vals)}
        obj = json.loads(text)
        return {c: _from_json(obj[c], ROW_SCHEMA[c]) for c in ROW_COLUMNS}

    def read_rows(self) -> list[dict[str, Any]]:
        """All complete rows, sorted by hand id (ladder order within a hand)."""
        if not self.path.exists():
            return []
        blocks = sorted(self._blocks(), key=lambda b: b[0])
        return [r for _, _, rows in blocks for r in rows]

    # writing -------------------------------------------------------------------------
    def open(self, resume: bool) -> set[int]:
        """Prepare the file for appending; returns the hand ids already complete in it."""
        done: set[int] = set()
        if resume and self.path.exists():
            blocks = self._blocks()
            done = {hid for hid, _, _ in blocks}
            body = b"".join(raw for _, raw, _ in blocks)
            head = _csv_header(ROW_COLUMNS) if self.fmt == "csv" else b""
            if self.path.read_bytes() != head + body:
                _atomic_write_bytes(self.path, head + body)
        else:
            head = _csv_header(ROW_COLUMNS) if self.fmt == "csv" else b""
            _atomic_write_bytes(self.path, head)
        self.fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
        return done

    def write_hand(self, rows: list[dict[str, Any]]) -> None:
        assert self.fd is not None
        _write_all(self.fd, encode_rows(rows, self.fmt, ROW_COLUMNS))
        os.fsync(self.fd)

    def finish(self) -> None:
        """Close, then rewrite the file sorted by hand id (atomically)."""
        self.close()
        if not self.path.exists():
            return
        blocks = sorted(self._blocks(), key=lambda b: b[0])
        head = _csv_header(ROW_COLUMNS) if self.fmt == "csv" else b""
        _atomic_write_bytes(self.path, head + b"".join(raw for _, raw, _ in blocks))

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


class ParquetSink:
    """A results directory with one Parquet part file per hand (``hand-000042.parquet``).

    Each part is written to a temporary name, fsynced and renamed, so a part either exists
    complete or not at all; ``pandas.read_parquet(directory)`` reads the whole set.
    """

    def __init__(self, path: Path) -> None:
        self.path = path

    def _part(self, hid: int) -> Path:
        return self.path / f"hand-{hid:06d}.parquet"

    def open(self, resume: bool) -> set[int]:
        if self.path.exists() and not self.path.is_dir():
            raise BostonSimError(f"{self.path} exists and is not a directory (Parquet results)")
        self.path.mkdir(parents=True, exist_ok=True)
        for p in self.path.glob("*.tmp"):
            p.unlink()
        parts = sorted(self.path.glob("hand-*.parquet"))
        if not resume:
            for p in parts:
                p.unlink()
            return set()
        return {int(p.stem.split("-")[1]) for p in parts}

    def write_hand(self, rows: list[dict[str, Any]]) -> None:
        tmp = self._part(rows[0]["hand_id"]).with_suffix(".parquet.tmp")
        _rows_frame(rows, ROW_SCHEMA).to_parquet(tmp, index=False)
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, self._part(rows[0]["hand_id"]))

    def read_rows(self) -> list[dict[str, Any]]:
        import pandas as pd

        parts = sorted(self.path.glob("hand-*.parquet")) if self.path.is_dir() else []
        rows: list[dict[str, Any]] = []
        for p in parts:
            df = pd.read_parquet(p)
            for rec in df.to_dict("records"):
                rows.append({c: _from_json(_py(rec[c]), ROW_SCHEMA[c]) for c in ROW_COLUMNS})
        return rows

    def finish(self) -> None:
        pass

    def close(self) -> None:
        pass


def _py(v: Any) -> Any:
    """numpy scalar -> python value; NaN floats stay NaN (``_from_json`` maps None too)."""
    if hasattr(v, "item"):
        v = v.item()
    if isinstance(v, float) and math.isnan(v):
        return None
    return v


def _rows_frame(rows: list[dict[str, Any]], schema: dict[str, type]) -> Any:
    import pandas as pd

    dtypes = {int: "int64", float: "float64", bool: "bool", str: "object"}
    cols = list(schema)
    df = pd.DataFrame([[r[c] for c in cols] for r in rows], columns=cols)
    return df.astype({c: dtypes[t] for c, t in schema.items()})


# --------------------------------------------------------------------------- summary and errors


def summarize_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per-hand summary rows (recommended bid, its EV, runner-up) built from result rows."""
    hands: dict[int, list[dict[str, Any]]] = {}
    for r in rows:
        hands.setdefault(r["hand_id"], []).append(r)
    out = []
    for hid in sorted(hands):
        rs = hands[hid]
        first = rs[0]
        rec = next((r for r in rs if r["recommended"]), None)
        run = next((r for r in rs if r["rung"] == first["runner_up"]), None)
        priced = any(not math.isnan(r["ev_net"]) for r in rs)
        if rec is not None:
            rec_id, rec_name, trump, p_make, ev = (rec["rung"], rec["name"], rec["trump"],
                                                   rec["p_make"], rec["ev_net"])
        elif priced:  # passing is worth nothing to the would-be declarer (analysis model)
            rec_id, rec_name, trump, p_make, ev = "pass", "Pass", "", math.nan, 0.0
        else:  # no priced rung (e.g. Fontainebleau): probabilities only, no recommendation
            rec_id, rec_name, trump, p_make, ev = "", "", "", math.nan, math.nan
        if run is not None:
            run_name, run_ev = run["name"], run["ev_net"]
        elif first["runner_up"] == "pass":
            run_name, run_ev = "Pass", 0.0
        else:
            run_name, run_ev = "", math.nan
        out.append({
            "hand_id": hid,
            "label": first["label"],
            "rules": first["rules"],
            "seat": first["seat"],
            "hand": first["hand"],
            "recommended": rec_id,
            "recommended_name": rec_name,
            "trump": trump,
            "p_make": p_make,
            "ev_net": ev,
            "runner_up": first["runner_up"],
            "runner_up_name": run_name,
            "runner_up_ev_net": run_ev,
            "diff_se": first["diff_se"],
            "samples": max(r["samples"] for r in rs),  # deals drawn (settled rungs use fewer)
            "seed": first["seed"],
        })
    return out


def write_table(path: Path, rows: list[dict[str, Any]], schema: dict[str, type],
                fmt: str) -> None:
    """Write a whole table atomically (temp file + rename) in ``fmt``."""
    cols = list(schema)
    if fmt == "parquet":
        tmp = path.with_name(path.name + ".tmp")
        _rows_frame(rows, schema).to_parquet(tmp, index=False)
        os.replace(tmp, path)
        return
    head = _csv_header(cols) if fmt == "csv" else b""
    _atomic_write_bytes(path, head + encode_rows(rows, fmt, cols))


class ErrorLog:
    """``RESULTS.errors.csv``: one line per failed row, written (and fsynced) as it happens.

    Started afresh by every run: on ``--resume`` the failed rows are tried again."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.count = 0
        _atomic_write_bytes(path, _csv_header(ERROR_COLUMNS))
        self.fd = os.open(path, os.O_WRONLY | os.O_APPEND)

    def add(self, line: int, hand_id: int | None, reason: str, text: str = "") -> None:
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerow(
            [line, "" if hand_id is None else hand_id, reason, text])
        _write_all(self.fd, buf.getvalue().encode("utf-8"))
        os.fsync(self.fd)
        self.count += 1

    def close(self) -> None:
        os.close(self.fd)


# --------------------------------------------------------------------------- output paths


@dataclass(frozen=True)
class OutputPaths:
    results: Path
    summary: Path
    errors: Path
    meta: Path
    fmt: str


def output_paths(input_path: str | Path, out: str | Path | None, fmt: str | None) -> OutputPaths:
    """Where the results, summary, errors and run settings go.

    ``--out results.csv`` -> ``results.csv``, ``results.summary.csv``, ``results.errors.csv``
    and ``results.meta.json``; for Parquet ``results.parquet/`` is a directory of part files and
    the summary is ``results.summary.parquet``. Without ``--out`` the results sit next to the
    input: ``hands.txt`` -> ``hands.results.csv``.
    """
    if out is None:
        f = fmt or "csv"
        ext = {"csv": ".csv", "jsonl": ".jsonl", "parquet": ".parquet"}[f]
        p = Path(input_path)
        base = p.with_name(p.stem + ".results")
        results = base.with_name(base.name + ext)
    else:
        results = Path(out)
        f = fmt or _EXT_TO_OUTPUT.get(results.suffix.lower(), "csv")
        if f not in OUTPUT_FORMATS:
            raise BostonSimError(f"unknown output format {f!r} (use {', '.join(OUTPUT_FORMATS)})")
        ext = {"csv": ".csv", "jsonl": ".jsonl", "parquet": ".parquet"}[f]
        base = results.with_suffix("") if results.suffix.lower() == ext else results
    summary = base.with_name(base.name + ".summary" + ext)
    errors = base.with_name(base.name + ".errors.csv")
    meta = base.with_name(base.name + ".meta.json")
    return OutputPaths(results, summary, errors, meta, f)


# --------------------------------------------------------------------------- executors


def _init_worker() -> None:
    """Worker process start-up: one numba thread per process (the processes are the
    parallelism); set before numba is imported by the first job."""
    os.environ["NUMBA_NUM_THREADS"] = "1"


MAX_CRASHES = 2
"""A hand that was running when a worker process died this many times is reported as failed
(the other hands in flight are simply resubmitted to a fresh pool)."""


def _run_local(jobs: list[Job], workers: int,
               fn: Callable[[Job], HandResult]) -> Iterator[HandResult]:
    if workers <= 1 or len(jobs) <= 1:
        for j in jobs:
            yield fn(j)
        return
    import multiprocessing as mp
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    # spawn, not fork: the parent may hold numba / threading state that must not be copied
    ctx = mp.get_context("spawn")
    queue = list(reversed(jobs))  # pop() from the end = input order
    window = 4 * workers  # bounded: a huge input file does not become a huge queue
    crashes: dict[int, int] = {}
    while queue:
        ex = ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_init_worker)
        running: dict[Any, Job] = {}
        broken = False
        try:
            while queue or running:
                while queue and len(running) < window:
                    j = queue.pop()
                    running[ex.submit(fn, j)] = j
                finished, _ = wait(list(running), return_when=FIRST_COMPLETED)
                for fut in finished:
                    j = running.pop(fut)
                    try:
                        res = fut.result()
                    except BrokenProcessPool:
                        broken = True
                        crashes[j.index] = crashes.get(j.index, 0) + 1
                        if crashes[j.index] >= MAX_CRASHES:
                            yield HandResult(j.index, j.line,
                                             error="a worker process died while analysing "
                                                   "this hand")
                        else:
                            queue.append(j)
                        continue
                    yield res
                if broken:
                    # every other job in flight is lost with the pool: run them again
                    for fut, j in running.items():
                        queue.append(j)
                    running.clear()
                    break
        finally:
            for fut in running:
                fut.cancel()
            ex.shutdown(wait=not broken, cancel_futures=True)


def _run_dask(jobs: list[Job], address: str,
              fn: Callable[[Job], HandResult]) -> Iterator[HandResult]:
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise BostonSimError(
            "--scheduler needs dask.distributed: pip install 'boston-sim[dask]'"
        ) from None
    try:
        client = Client(address, timeout="20s")
    except (OSError, TimeoutError) as e:
        raise BostonSimError(f"cannot reach the Dask scheduler at {address}: {e}") from None
    try:
        n = max(1, sum(client.nthreads().values()))
        window = 4 * n
        pending = iter(jobs)
        # pure=False: every job is submitted once; the key never collides between runs
        submitted: dict[str, Job] = {}

        def submit(j: Job) -> Any:
            fut = client.submit(fn, j, pure=False)
            submitted[fut.key] = j
            return fut

        ac = as_completed([submit(j) for j in _take(pending, window)])
        for fut in ac:
            j = submitted.pop(fut.key)
            try:
                res = fut.result()
            except Exception as e:  # e.g. KilledWorker: the hand crashed workers repeatedly
                res = HandResult(j.index, j.line,
                                 error=f"dask: {type(e).__name__}: {' '.join(str(e).split())}")
            fut.release()
            yield res
            nxt = next(pending, None)
            if nxt is not None:
                ac.add(submit(nxt))
    finally:
        client.close()


def _take(it: Iterator[Job], n: int) -> list[Job]:
    out = []
    for x in it:
        out.append(x)
        if len(out) >= n:
            break
    return out


def execute(jobs: list[Job], *, workers: int | None = None, scheduler: str | None = None,
            fn: Callable[[Job], HandResult] = analyze_one) -> Iterator[HandResult]:
    """Run ``fn`` over ``jobs``; yields results in completion order."""
    if scheduler:
        return _run_dask(jobs, scheduler, fn)
    return _run_local(jobs, workers or default_workers(), fn)


def default_workers() -> int:
    """All cores available to this process."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


# --------------------------------------------------------------------------- the run


def _settings(input_path: Path, input_format: str, fmt: str, rules: str | None,
              seat: str | None, options: dict[str, str], samples: int | None, seed: int,
              pbn_seat: str, risk_threshold: float, turnup: str | None,
              max_time: float | None = None) -> dict[str, Any]:
    """The run settings that decide the results; resuming with different ones is refused."""
    from . import __version__

    return {"input": str(input_path), "input_format": input_format, "format": fmt,
            "rules": rules, "seat": seat, "options": options, "samples": samples,
            "seed": seed, "pbn_seat": pbn_seat, "risk_threshold": risk_threshold,
            "turnup": turnup, "max_time": max_time,
            "version": __version__}


def _check_resume(meta_path: Path, settings: dict[str, Any]) -> None:
    if not meta_path.exists():
        return
    try:
        old = json.loads(meta_path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return
    keys = ("input_format", "format", "rules", "seat", "options", "samples", "seed", "pbn_seat",
            "risk_threshold", "turnup", "max_time")
    diff = [k for k in keys if old.get(k) != settings.get(k)]
    if diff:
        detail = ", ".join(f"{k} {old.get(k)!r} -> {settings.get(k)!r}" for k in diff)
        raise BostonSimError(
            f"cannot resume: the results were made with other settings ({detail}); "
            "run without --resume or choose another --out"
        )


def run_batch(
    input_path: str | Path,
    out: str | Path | None = None,
    *,
    fmt: str | None = None,
    input_format: str | None = None,
    rules: str | None = None,
    seat: str | None = None,
    options: dict[str, str] | None = None,
    samples: int | None = None,
    seed: int = 0,
    workers: int | None = None,
    scheduler: str | None = None,
    resume: bool = False,
    pbn_seat: str = "all",
    risk_threshold: float = 0.0,
    turnup: str | None = None,
    progress: bool = False,
    max_time: float | None = None,
    fn: Callable[[Job], HandResult] = analyze_one,
) -> BatchSummary:
    """Analyse every hand of ``input_path`` and write results, summary and errors files.

    See the module docstring for formats and guarantees. Returns a :class:`BatchSummary`;
    ``summary.failed`` counts bad rows and failed hands (the CLI exits 1 when it is not 0).
    Usage errors (unreadable file, unknown format, resuming with other settings) raise.
    """
    t0 = time.perf_counter()
    input_path = Path(input_path)
    if fmt is not None and fmt not in OUTPUT_FORMATS:
        raise BostonSimError(f"unknown output format {fmt!r} (use {', '.join(OUTPUT_FORMATS)})")
    in_fmt = input_format or detect_input_format(input_path)
    paths = output_paths(input_path, out, fmt)
    opts = dict(options or {})
    if rules is not None:  # a bad run-wide rule set is a usage error, not 100 bad rows
        check_rules(rules, opts)
    if seat is not None:
        parse_play_seat(seat)
    if turnup is not None:
        parse_card(turnup)
    if samples is not None and samples < 1:
        raise BostonSimError("--samples must be at least 1")
    if max_time is not None and (samples is not None or not max_time > 0):
        raise BostonSimError("--max-time must be a positive number of seconds, and applies to "
                             "the default sampling rounds, not to --samples")
    jobs, bad, n_hands = read_jobs(input_path, in_fmt, rules=rules, seat=seat, options=opts,
                                   samples=samples, seed=seed, pbn_seat=pbn_seat,
                                   risk_threshold=risk_threshold, turnup=turnup,
                                   max_time=max_time)
    settings = _settings(input_path, in_fmt, paths.fmt, rules, seat, opts, samples, seed,
                         pbn_seat, risk_threshold, turnup, max_time)
    if resume:
        _check_resume(paths.meta, settings)
    paths.results.parent.mkdir(parents=True, exist_ok=True)
    sink: LineSink | ParquetSink = (
        ParquetSink(paths.results) if paths.fmt == "parquet" else LineSink(paths.results,
                                                                          paths.fmt)
    )
    done = sink.open(resume)
    _atomic_write_bytes(paths.meta, (json.dumps(settings, indent=2) + "\n").encode("utf-8"))
    errors = ErrorLog(paths.errors)
    for b in bad:
        errors.add(b.line, b.index, b.reason, b.text)
    todo = [j for j in jobs if j.index not in done]
    summary = BatchSummary(hands=n_hands, skipped=len(jobs) - len(todo),
                           results=str(paths.results), summary=str(paths.summary),
                           errors=str(paths.errors))
    bar = _Progress(len(todo), enabled=progress)
    try:
        with bar:
            for res in execute(todo, workers=workers, scheduler=scheduler, fn=fn):
                if res.error is not None or not res.rows:
                    errors.add(res.line, res.index, res.error or "no rows", "")
                else:
                    sink.write_hand(res.rows)
                    summary.analysed += 1
                bar.advance()
    finally:
        sink.close()
        errors.close()
    sink.finish()
    rows = sink.read_rows()
    write_table(paths.summary, summarize_rows(rows), SUMMARY_SCHEMA, paths.fmt)
    summary.done = len({r["hand_id"] for r in rows})
    summary.failed = errors.count
    summary.seconds = time.perf_counter() - t0
    return summary


class _Progress:
    """A rich progress bar on stderr: hands done, rate, time left."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total = total
        self.enabled = enabled and total > 0
        self._p: Any = None

    def __enter__(self) -> _Progress:
        if self.enabled:
            from rich.console import Console
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                       TimeElapsedColumn, TimeRemainingColumn)

            self._p = Progress(
                TextColumn("hands"), BarColumn(), MofNCompleteColumn(),
                TextColumn("{task.fields[rate]}"), TimeElapsedColumn(),
                TextColumn("left"), TimeRemainingColumn(),
                console=Console(stderr=True), transient=False,
            )
            self._p.__enter__()
            self._t0 = time.perf_counter()
            self._task = self._p.add_task("batch", total=self.total, rate="")
        return self

    def advance(self) -> None:
        if self._p is not None:
            done = self._p.tasks[0].completed + 1
            dt = time.perf_counter() - self._t0
            rate = f"{60 * done / dt:.1f} hands/min" if dt > 0 else ""
            self._p.update(self._task, advance=1, rate=rate)

    def __exit__(self, *exc: Any) -> None:
        if self._p is not None:
            self._p.__exit__(*exc)


def load_results(path: str | Path) -> Any:
    """A results file or directory (CSV, JSON Lines, Parquet) -> pandas DataFrame, with the
    column types of :data:`ROW_SCHEMA`, sorted by hand id."""
    p = Path(path)
    if p.is_dir():
        rows = ParquetSink(p).read_rows()
    else:
        fmt = _EXT_TO_OUTPUT.get(p.suffix.lower())
        if fmt is None or fmt == "parquet":
            if fmt == "parquet":
                import pandas as pd

                df = pd.read_parquet(p)
                missing = [c for c in ROW_COLUMNS if c not in df.columns]
                if missing:
                    raise BostonSimError(f"{p} is not a boston-sim results file "
                                         f"(missing {', '.join(missing)})")
                return df
            raise BostonSimError(f"cannot tell the format of results file {str(p)!r}")
        if not p.exists():
            raise FileNotFoundError(2, "No such file", str(p))
        rows = LineSink(p, fmt).read_rows()
    return _rows_frame(rows, ROW_SCHEMA) if rows else _rows_frame([], ROW_SCHEMA)
