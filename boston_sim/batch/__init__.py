"""Files of hands -> results files: read, analyse each hand in parallel, write as hands finish.

The pipeline, one module per part:

* ``readers``: an input file (text, CSV, JSON Lines or PBN) -> records, one per row;
* ``jobs``: records -> :class:`Job` (the hand and the :class:`AnalysisSettings` it is
  analysed under) or :class:`BadRow` (line number + reason; a bad row never stops the batch),
  and :func:`analyze_one`, the plain, picklable per-hand function ``Job -> HandResult``;
* ``executors``: run it in this process, in local worker processes, or on a Dask cluster;
* ``sinks``: append each finished hand's rows in one atomic step (CSV / JSON Lines: one
  ``write`` + ``flush`` + ``fsync``; Parquet: one hidden part file per hand written to a
  temporary name and renamed, merged into one file of row groups at the end), so a run
  killed at any moment loses at most the hands in flight, and ``resume`` drops a torn or
  incomplete trailing hand and skips every complete one;
* ``results``: result rows, the per-hand summary, a results file read back;
* ``run``: :func:`run_batch`, which checks every output before any work, stores the settings
  and content hashes of the input (``meta.json``) and refuses to resume results made from
  another input or with other settings.

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
  right (Russian Boston, A-41) eldest is the dealer's right-hand neighbour instead
  (:mod:`boston_sim.pbn`).

A row's own seat / rules / turn-up win over the run's settings (``--seat`` / ``--rules`` /
``--turnup``).

What made the results (:mod:`boston_sim.manifest`, with ``row_schema_version``, the version
of docs/schema/batch_row.schema.json) is the ``manifest`` key of ``meta.json`` beside every
results file, and also the ``boston_sim.manifest`` key-value metadata of Parquet files
(:func:`read_manifest`).
"""

from __future__ import annotations

from .executors import MAX_CRASHES, default_workers, execute
from .jobs import Job, analyze_one, check_rules, hand_seed, read_jobs
from .readers import detect_input_format
from .records import (
    ERROR_COLUMNS,
    INPUT_FORMATS,
    OUTPUT_FORMATS,
    ROW_COLUMNS,
    ROW_SCHEMA,
    ROW_SCHEMA_VERSION,
    SUMMARY_COLUMNS,
    SUMMARY_SCHEMA,
    BadRow,
    BatchSummary,
    HandResult,
)
from .results import load_results, rows_of, summarize_rows
from .run import run_batch
from .sinks import (
    ErrorLog,
    LineSink,
    OutputPaths,
    ParquetSink,
    encode_rows,
    output_paths,
    read_manifest,
    write_table,
)

__all__ = [
    "ERROR_COLUMNS",
    "INPUT_FORMATS",
    "MAX_CRASHES",
    "OUTPUT_FORMATS",
    "ROW_COLUMNS",
    "ROW_SCHEMA",
    "ROW_SCHEMA_VERSION",
    "SUMMARY_COLUMNS",
    "SUMMARY_SCHEMA",
    "BadRow",
    "BatchSummary",
    "ErrorLog",
    "HandResult",
    "Job",
    "LineSink",
    "OutputPaths",
    "ParquetSink",
    "analyze_one",
    "check_rules",
    "default_workers",
    "detect_input_format",
    "encode_rows",
    "execute",
    "hand_seed",
    "load_results",
    "output_paths",
    "read_jobs",
    "read_manifest",
    "rows_of",
    "run_batch",
    "summarize_rows",
    "write_table",
]
