"""``run_batch``: read the input, check a resume against the stored settings, run the jobs,
write results as hands finish, then the sorted results and the per-hand summary."""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import importlib.util
import json
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from ..cards import parse_card, parse_play_seat
from ..errors import FAILURE_EXIT, BostonSimError
from ..limits import THREADS_MAX, check_flag, check_int, check_settings_numbers, clip
from ..outputs import check_output
from ..progress import ProgressBar
from ..settings import AnalysisSettings
from .executors import execute
from .jobs import Job, JobStream, analyze_one, check_rules
from .readers import STDIN, detect_input_format
from .records import (
    OUTPUT_FORMATS,
    ROW_SCHEMA_VERSION,
    SUMMARY_SCHEMA,
    BadRow,
    BatchSummary,
    HandResult,
)
from .results import summarize_rows
from .sinks import (
    ErrorLog,
    OutputPaths,
    atomic_write_bytes,
    open_sink,
    output_paths,
    write_table,
)

# meta.json: the run's own keys that a resume must match, beside the settings' result_dict()
RUN_KEYS = ("input_format", "format", "pbn_seat", "pbn_board")
# content hashes a resume must match when the stored meta.json has them (older ones do not)
HASH_KEYS = {"input_sha256": "the input file's content", "rules_sha256": "the rule-set file"}
HASH_BLOCK = 1 << 20
DETAIL_MAX = 40  # characters of each differing value a refused resume shows
_SETTING_FIELDS = tuple(f.name for f in dataclasses.fields(AnalysisSettings))


class InputChangedError(BostonSimError):
    """The input file changed between the run's passes over it: a failure of the run (the
    request was fine), exit code 1."""

    exit_code = FAILURE_EXIT


def run_batch(
    input_path: str | Path,
    out: str | Path | None = None,
    settings: AnalysisSettings | None = None,
    *,
    fmt: str | None = None,
    input_format: str | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    resume: bool = False,
    pbn_seat: str = "all",
    pbn_board: str | None = None,
    progress: bool = False,
    fn: Callable[[Job], HandResult] = analyze_one,
    **overrides: Any,
) -> BatchSummary:
    """Analyse every hand of ``input_path`` under ``settings`` and write results, summary,
    errors and settings (``meta.json``) files; see :mod:`boston_sim.batch` for the formats
    and guarantees.

    ``overrides`` (``rules=``, ``seed=``, ``samples=``, ...) change fields of ``settings``
    (:meth:`AnalysisSettings.build`); a rule set named this way is checked up front. Returns
    a :class:`BatchSummary`; ``summary.failed`` counts bad rows and failed hands (the CLI
    exits 1 when it is not 0). Usage errors (unreadable file, unknown format, resuming with
    other settings) raise.
    """
    t0 = time.perf_counter()
    if not isinstance(input_path, (str, Path)) or (out is not None
                                                   and not isinstance(out, (str, Path))):
        raise BostonSimError("the input and --out are file paths (str or Path)")
    for what, path in (("the input", input_path), ("--out", out)):
        if path is not None and Path(path).name == "":  # "", ".", "/": no file name
            raise BostonSimError(f"{what} must name a file, got {clip(repr(str(path)))}")
    if not callable(fn):
        raise BostonSimError(f"fn must be a function of a Job, got {type(fn).__name__}")
    resume, progress = check_flag("resume", resume), check_flag("progress", progress)
    input_path = Path(input_path)
    settings = AnalysisSettings.build(settings, **overrides)
    paths, in_fmt = _check_run(input_path, out, settings, fmt, input_format, workers,
                               scheduler, overrides.get("rules") is not None)
    stream = JobStream(input_path, settings, input_format=in_fmt, pbn_seat=pbn_seat,
                       pbn_board=pbn_board)
    n_hands = stream.scan()  # every error of the input file comes now, before any file
    if n_hands == 0:
        raise BostonSimError(f"no hands in {clip(input_path)} (read as {in_fmt})")
    meta = run_meta(input_path, in_fmt, paths.fmt, pbn_seat, settings, stream.sha256,
                    stream.pbn_board)
    if resume:
        check_resume(paths.meta, meta)
    meta["manifest"] = run_manifest(settings, workers)
    sink = open_sink(paths.results, paths.fmt, meta["manifest"])
    if resume:
        check_kept_hands(sink, stream)
    new_files = [p for p in (paths.results, paths.summary, paths.errors, paths.meta,
                             getattr(sink, "parts", None)) if p is not None and not p.exists()]
    summary = BatchSummary(hands=n_hands, results=str(paths.results),
                           summary=str(paths.summary), errors=str(paths.errors))
    try:
        _run_jobs(sink, stream, resume, paths, meta, summary,
                  workers=workers, scheduler=scheduler, progress=progress, fn=fn)
        if stream.sha256 != meta["input_sha256"]:  # each pass hashes what it read
            raise InputChangedError(f"{clip(input_path)} changed while the batch ran, so its "
                                    "results may mix two versions of it; run it again "
                                    "without --resume")
    except (BostonSimError, OSError):
        if summary.analysed == 0:  # nothing was done: leave nothing behind
            _remove_new(new_files)
        raise
    rows = sink.read_rows()
    write_table(paths.summary, summarize_rows(rows), SUMMARY_SCHEMA, paths.fmt,
                meta["manifest"])
    summary.done = len({r["hand_id"] for r in rows})
    summary.seconds = time.perf_counter() - t0
    return summary


def _check_run(input_path: Path, out: str | Path | None, settings: AnalysisSettings,
               fmt: str | None, input_format: str | None, workers: int | None,
               scheduler: str | None, named_rules: bool) -> tuple[OutputPaths, str]:
    """Every usage error of the run that can be found before reading the hands."""
    if fmt is not None and fmt not in OUTPUT_FORMATS:
        raise BostonSimError(f"unknown output format {fmt!r} (use {', '.join(OUTPUT_FORMATS)})")
    if scheduler is not None and not isinstance(scheduler, str):
        raise BostonSimError(f"--scheduler is a Dask scheduler address (host:port), got "
                             f"{type(scheduler).__name__}")
    if str(input_path) == STDIN and (out is None or input_format is None):
        raise BostonSimError("reading standard input (-) needs --out and --input-format")
    in_fmt = input_format or detect_input_format(input_path)
    paths = output_paths(input_path, out, fmt)
    check_extras(paths.fmt, scheduler)
    if workers is not None:
        check_int("--workers", workers, 1, THREADS_MAX)
    if named_rules:  # a bad run-wide rule set is a usage error
        check_rules(settings.rules, settings.option_map)
    check_settings(settings)
    check_outputs(paths, [input_path, settings.rules])
    return paths, in_fmt


def _run_jobs(sink: Any, stream: JobStream, resume: bool, paths: OutputPaths,
              meta: dict[str, Any], summary: BatchSummary, *, workers: int | None,
              scheduler: str | None, progress: bool, fn: Callable[[Job], HandResult]) -> None:
    """Write the settings and bad rows, then analyse the hands not yet done, writing each
    as it finishes; ``summary`` counts them. The input is streamed twice more, once for the
    bad rows and once for the hands, so only the hands in flight are held."""
    done = sink.open(resume)
    atomic_write_bytes(paths.meta, (json.dumps(meta, indent=2) + "\n").encode("utf-8"))
    errors = ErrorLog(paths.errors, paths.fmt, meta.get("manifest"))
    n_todo = 0
    for item in stream:
        if isinstance(item, BadRow):
            errors.add(item.line, item.index, item.reason, item.text)
            summary.failed += item.hands
        elif item.index in done:
            summary.skipped += 1
        else:
            n_todo += 1
    in_flight: dict[int, str] = {}  # hand id -> the hand, for the errors file's text

    def todo_jobs() -> Iterable[Job]:
        for j in stream:
            if isinstance(j, Job) and j.index not in done:
                in_flight[j.index] = j.hand
                yield j

    todo = todo_jobs()
    try:
        with ProgressBar("hands", n_todo, count=True, rate="hands/min", transient=False,
                         enabled=progress and n_todo > 0) as bar:
            for res in execute(todo, workers=workers, scheduler=scheduler, fn=fn):
                hand = in_flight.pop(res.index, "")
                if res.error is not None or not res.rows:
                    errors.add(res.line, res.index, res.error or "no rows", hand)
                    summary.failed += 1
                else:
                    sink.write_hand(res.rows)
                    summary.analysed += 1
                bar.advance()
    finally:
        sink.close()
        errors.close()
    sink.finish()


def _remove_new(paths: list[Path]) -> None:
    """Remove the files (and Parquet directories without parts) a failed run created."""
    import shutil

    for p in paths:
        with contextlib.suppress(OSError):
            if p.is_dir():
                shutil.rmtree(p)
            elif p.exists():
                p.unlink()


def check_extras(fmt: str, scheduler: str | None) -> None:
    """A missing optional package is a one-line error naming the extra, before any file."""
    for wanted, module, extra, what in (
            (fmt == "parquet", "pyarrow", "parquet", "Parquet output"),
            (bool(scheduler), "distributed", "dask", "--scheduler")):
        if not wanted:
            continue
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            raise BostonSimError(f"{what} needs {module}: pip install 'boston-sim[{extra}]'")


def check_outputs(paths: OutputPaths, inputs: list[Any]) -> None:
    """Every file the run writes may be written (:func:`boston_sim.outputs.check_output`):
    none is an input, a directory, a device or a FIFO, and every directory exists."""
    files = [Path(x) for x in inputs if isinstance(x, (str, Path)) and Path(x).is_file()]
    check_output(paths.results, "--out", inputs=files)
    for p in (paths.summary, paths.errors, paths.meta):
        check_output(p, "--out", inputs=files)


def check_kept_hands(sink: Any, jobs: Iterable[Job | BadRow]) -> None:
    """On resume, every hand kept from the results file is the hand this input puts at that
    position, under the same seed, seat and rule set; else results would mix. The first
    hand (by id) that differs is named."""
    kept = {row["hand_id"]: (row["hand"], row["seed"], row["rules"]) for row in sink.read_rows()}
    if not kept:
        return
    first: tuple[int, str] | None = None
    for job in jobs:
        got = kept.pop(job.index, None) if isinstance(job, Job) else None
        if got is None:
            continue
        want = (job.hand, job.settings.seed, job.settings.rules_id)
        if got != want and (first is None or job.index < first[0]):
            first = (job.index, ", ".join(k for k, g, w in zip(
                ("hand", "seed", "rules"), got, want, strict=True) if g != w) + " differ")
    if kept and (first is None or min(kept) < first[0]):
        first = (min(kept), "no such hand in the input")
    if first is not None:
        raise BostonSimError(
            f"cannot resume: hand {first[0]} in {clip(sink.path)} does not match the input "
            f"({first[1]}); run without --resume or choose another --out")


def check_settings(settings: AnalysisSettings) -> None:
    """The run's settings that would make every row fail are usage errors, raised now."""
    parse_play_seat(settings.seat)
    if settings.turnup is not None:
        parse_card(settings.turnup)
    check_settings_numbers(settings)
    max_time = settings.max_time
    if max_time is not None and (settings.samples is not None or not max_time > 0):
        raise BostonSimError("--max-time must be a positive number of seconds, and applies to "
                             "the default sampling rounds, not to --samples")


def run_meta(input_path: Path, input_format: str, fmt: str, pbn_seat: str,
             settings: AnalysisSettings, input_sha256: str | None = None,
             pbn_board: str | None = None) -> dict[str, Any]:
    """What ``meta.json`` holds: the input, the run's keys and the settings that decide the
    results (the run seed; threads left out); resuming with different ones is refused.
    ``input_sha256``: the input's hash when a streamed read has computed it."""
    from .. import __version__

    return {"input": str(input_path),
            "input_sha256": input_sha256 or file_sha256(input_path),
            "rules_sha256": rules_sha256(settings.rules), "input_format": input_format,
            "format": fmt, **settings.result_dict(), "pbn_seat": pbn_seat,
            "pbn_board": pbn_board,
            "version": __version__}


def run_manifest(settings: AnalysisSettings, workers: int | None) -> dict[str, Any]:
    """What made this run's outputs (:func:`boston_sim.manifest.manifest`), with the version
    of the result rows (docs/schema/batch_row.schema.json); stored in ``meta.json`` and in
    Parquet files' metadata. The run-wide rule set is recorded (rows may name others)."""
    from ..errors import USER_ERRORS
    from ..manifest import manifest

    try:
        rules = check_rules(settings.rules, settings.option_map)
    except USER_ERRORS:
        rules = None  # every row names its own, or the error is reported per row
    out = manifest(command="batch", rules=rules, seed=settings.seed, samples=settings.samples,
                   threads=workers, settings=settings)
    return {**out, "row_schema_version": ROW_SCHEMA_VERSION}


def file_sha256(path: Path) -> str:
    """SHA-256 of a file's content, read in blocks."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(HASH_BLOCK), b""):
            h.update(block)
    return h.hexdigest()


def rules_sha256(rules: Any) -> str | None:
    """SHA-256 of a rule-set file given by path (None for a built-in id or a loaded set)."""
    if isinstance(rules, (str, Path)) and Path(rules).suffix == ".toml" and Path(rules).is_file():
        return file_sha256(Path(rules))
    return None


def _comparable(meta: dict[str, Any]) -> dict[str, Any]:
    """The keys of a meta.json that a resume must match, the settings read back through
    :class:`AnalysisSettings` (a missing field, or null for a field with a default, is the
    default: older files left ``rules`` and ``seat`` null when the run named none)."""
    fields = {k: meta[k] for k in _SETTING_FIELDS if k in meta}
    return {**{k: meta.get(k) for k in RUN_KEYS},
            **AnalysisSettings.build(**fields).result_dict()}


def check_resume(meta_path: Path, meta: dict[str, Any]) -> None:
    """Refuse to resume results made with other settings than ``meta`` (a missing or
    unreadable meta.json is no objection)."""
    try:
        old = json.loads(meta_path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return
    if not isinstance(old, dict):
        return
    try:
        before = _comparable(old)
    except (TypeError, ValueError):
        raise BostonSimError(f"cannot resume: {meta_path} does not hold batch settings; run "
                             "without --resume or choose another --out") from None
    changed = [what for k, what in HASH_KEYS.items() if k in old and old[k] != meta.get(k)]
    if changed:
        raise BostonSimError(
            f"cannot resume: {' and '.join(changed)} changed since the results were made "
            "(content hash differs); run without --resume or choose another --out")
    now = _comparable(meta)
    diff = [k for k in now if before.get(k) != now[k]]
    if diff:
        detail = ", ".join(f"{k} {clip(repr(before.get(k)), DETAIL_MAX)} -> "
                           f"{clip(repr(now[k]), DETAIL_MAX)}" for k in diff)
        raise BostonSimError(
            f"cannot resume: the results were made with other settings ({detail}); "
            "run without --resume or choose another --out"
        )
