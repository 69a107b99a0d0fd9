"""``boston-sim batch``: a file of hands -> results files. Thin: the work is in
``boston_sim.batch``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from .analysis_options import (
    Bracket,
    BracketDeals,
    BracketLayouts,
    Constraints,
    Known,
    MaxTime,
    Options,
    Partner,
    Precision,
    Preference,
    Quiet,
    Risk,
    Rules,
    Samples,
    Seat,
    Seed,
    Senior,
    Turnup,
    build_settings,
)
from .common import compile_notice, echo_json, fail, user_errors
from .pbn_input import STDIN

Threads = Annotated[int | None, typer.Option(
    "--threads", help="Cores to use: local worker processes, one hand each (default: all "
                      "cores); results do not depend on it.")]


def _check_run_args(file: Path, fmt: str | None, input_format: str | None,
                    threads: int | None, pbn_seat: str) -> str:
    """Usage errors of the run's own options; returns ``--pbn-seat`` as ``all`` or N/E/S/W."""
    from ..batch import INPUT_FORMATS, OUTPUT_FORMATS

    if fmt is not None and fmt not in OUTPUT_FORMATS:
        fail(f"--format must be one of {', '.join(OUTPUT_FORMATS)}")
    if input_format is not None and input_format not in INPUT_FORMATS:
        fail(f"--input-format must be one of {', '.join(INPUT_FORMATS)}")
    if threads is not None and threads < 1:
        fail("--threads must be at least 1")
    pbn_seat = "all" if pbn_seat.strip().lower() == "all" else pbn_seat.strip().upper()
    if pbn_seat != "all":
        from ..cards import parse_compass

        parse_compass(pbn_seat)
    if str(file) != STDIN and not file.exists():
        fail(f"file not found: {file}")
    return pbn_seat


def _report(s: Any, json_out: bool, settings: Any, threads: int | None) -> None:
    """The run's summary: JSON on stdout, or the results table on stdout and the counts and
    paths on stderr."""
    if json_out:
        from ..batch import ROW_SCHEMA_VERSION
        from ..views.manifest import with_manifest

        out = with_manifest(s.to_dict(), "batch", seed=settings.seed, samples=settings.samples,
                            threads=threads, settings=settings)
        out["manifest"]["row_schema_version"] = ROW_SCHEMA_VERSION
        echo_json(out)
        return
    _print_table(s)
    rate = 60 * s.analysed / s.seconds if s.seconds > 0 else 0.0
    typer.echo(
        f"{s.done} of {s.hands} hands have results ({s.analysed} analysed now, "
        f"{s.skipped} kept from before, {rate:.1f} hands/min); {s.failed} failed",
        err=True)
    typer.echo(f"results: {s.results}\nsummary: {s.summary}", err=True)
    if s.failed:
        typer.echo(f"errors:  {s.errors}", err=True)


def _print_table(s: Any) -> None:
    """The per-hand results on stdout, fitted to the terminal (or ``COLUMNS`` when piped)."""
    from ..batch import load_results, summarize_rows
    from ..views.batch_table import print_batch_summary
    from ..views.terminal import console

    if s.done == 0 or not Path(s.results).exists():
        return
    rows = summarize_rows(load_results(s.results).to_dict("records"))
    print_batch_summary(console(), rows, s.summary)


def batch(
    file: Annotated[Path, typer.Argument(help="Hands file: .txt, .csv / .jsonl (keys hand, "
                                         "seat, rules, label, turnup) or .pbn; - reads "
                                         "standard input (with --input-format and --out).")],
    out: Annotated[Path | None, typer.Option(
        "--out", help="Results file (.csv, .jsonl or .parquet); default FILE.results.csv next to "
                      "the input. The summary, errors and settings go beside it.")] = None,
    fmt: Annotated[str | None, typer.Option(
        "--format",
        help="Output format without --out: csv, parquet or jsonl (default csv); with --out "
             "its extension says it.")] = None,
    input_format: Annotated[str | None, typer.Option(
        "--input-format", help="text, csv, jsonl or pbn (default: from the extension).")] = None,
    rules: Rules = None,
    seat: Seat = None,
    option: Options = None,
    samples: Samples = None,
    precision: Precision = None,
    max_time: MaxTime = None,
    seed: Seed = 0,
    known: Known = None,
    constraint: Constraints = None,
    turnup: Turnup = None,
    preference: Preference = None,
    senior: Senior = None,
    partner: Partner = None,
    risk: Risk = 0.0,
    bracket: Bracket = False,
    bracket_deals: BracketDeals = None,
    bracket_layouts: BracketLayouts = None,
    threads: Threads = None,
    scheduler: Annotated[str | None, typer.Option(
        "--scheduler",
        help="Dask scheduler address (tcp://host:port) to run the hands on.")] = None,
    resume: Annotated[bool, typer.Option(
        "--resume", help="Keep the hands already in --out and analyse only the rest.")] = False,
    pbn_seat: Annotated[str, typer.Option(
        "--pbn-seat",
        help="PBN: the compass seat whose hand to take (N, E, S, W) or all.")] = "all",
    board: Annotated[str | None, typer.Option(
        "--board", help="PBN: only this board.")] = None,
    quiet: Quiet = False,
    json_out: Annotated[bool, typer.Option(
        "--json", help="Print the run summary as JSON.")] = False,
) -> None:
    """Analyse every hand in FILE; write one row per hand and rung, a per-hand summary and an
    errors file (RESULTS.errors.csv, .jsonl or .parquet as the output, with line numbers).
    Text files: one hand per line, HAND | SEAT | LABEL | RULES | TURNUP (all but HAND
    optional; # comments); --rules, --seat and --turnup apply to rows that give none, the
    other analysis options (those of `bid`) to every row. At the end a table of the first
    hands' bids (all of them in the summary file).
    Exit code 0 if every row succeeded, 1 if some failed, 2 for usage errors."""
    with user_errors():
        from ..batch import check_rules, run_batch

        pbn_seat = _check_run_args(file, fmt, input_format, threads, pbn_seat)
        settings = build_settings(
            rules=rules, seat=seat, option=option, samples=samples, precision=precision,
            max_time=max_time, seed=seed, known=known, constraint=constraint, turnup=turnup,
            preference=preference, senior=senior, partner=partner, risk=risk, threads=None,
            bracket=bracket, bracket_deals=bracket_deals, bracket_layouts=bracket_layouts)
        if rules is not None:  # a bad --rules is a usage error, not one bad row per hand
            check_rules(settings.rules, settings.option_map)
        compile_notice(not quiet)
        try:
            s = run_batch(file, out, settings, fmt=fmt, input_format=input_format,
                          workers=threads, scheduler=scheduler, resume=resume,
                          pbn_seat=pbn_seat, pbn_board=board, progress=not quiet)
        except KeyboardInterrupt:
            typer.echo("interrupted: finished hands are saved; run again with --resume",
                       err=True)
            raise typer.Exit(code=130) from None
        _report(s, json_out, settings, threads)
    if s.failed:
        raise typer.Exit(code=1)


def register(app: typer.Typer) -> None:
    """Add ``batch`` to the app."""
    from .command import hand_command

    hand_command(app, "batch")(batch)
