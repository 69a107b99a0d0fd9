"""``boston-sim batch``: a file of hands -> results files. Thin: the work is in
``boston_sim.batch``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from .common import compile_notice, echo_json, fail, parse_options, user_errors

OptionList = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="Rule-set option as key=value (repeatable)."),
]


def _check_run_args(file: Path, fmt: str | None, input_format: str | None,
                    workers: int | None, pbn_seat: str) -> str:
    """Usage errors of the run's own options; returns ``--pbn-seat`` as ``all`` or N/E/S/W."""
    from ..batch import INPUT_FORMATS, OUTPUT_FORMATS

    if fmt is not None and fmt not in OUTPUT_FORMATS:
        fail(f"--format must be one of {', '.join(OUTPUT_FORMATS)}")
    if input_format is not None and input_format not in INPUT_FORMATS:
        fail(f"--input-format must be one of {', '.join(INPUT_FORMATS)}")
    if workers is not None and workers < 1:
        fail("--workers must be at least 1")
    pbn_seat = "all" if pbn_seat.strip().lower() == "all" else pbn_seat.strip().upper()
    if pbn_seat != "all":
        from ..cards import parse_compass

        parse_compass(pbn_seat)
    if not file.exists():
        fail(f"file not found: {file}")
    return pbn_seat


def _report(s: Any, json_out: bool) -> None:
    """The run's summary: JSON on stdout, or counts and paths on stderr."""
    if json_out:
        echo_json(s.to_dict())
        return
    rate = 60 * s.analysed / s.seconds if s.seconds > 0 else 0.0
    typer.echo(
        f"{s.done} of {s.hands} hands have results ({s.analysed} analysed now, "
        f"{s.skipped} kept from before, {rate:.1f} hands/min); {s.failed} failed",
        err=True)
    typer.echo(f"results: {s.results}\nsummary: {s.summary}", err=True)
    if s.failed:
        typer.echo(f"errors:  {s.errors}", err=True)


def batch(
    file: Annotated[Path, typer.Argument(help="Hands file: .txt, .csv / .jsonl (keys hand, "
                                         "seat, rules, label, turnup) or .pbn.")],
    out: Annotated[Path | None, typer.Option(
        "--out", help="Results file (.csv, .jsonl or .parquet); default FILE.results.csv next to "
                      "the input. The summary, errors and settings go beside it.")] = None,
    fmt: Annotated[str | None, typer.Option(
        "--format",
        help="Output format: csv, parquet or jsonl (default from --out, else csv).")] = None,
    input_format: Annotated[str | None, typer.Option(
        "--input-format", help="text, csv, jsonl or pbn (default: from the extension).")] = None,
    rules: Annotated[str | None, typer.Option(
        "--rules", "-r",
        help="Rule set for rows that name none (default boston_foster).")] = None,
    seat: Annotated[str | None, typer.Option(
        "--seat", "-s",
        help="Seat for rows that name none: eldest, second, third, dealer.")] = None,
    option: OptionList = None,
    samples: Annotated[int | None, typer.Option(
        "--samples", "-n",
        help="Deals sampled per hand (default: the analysis default).")] = None,
    max_time: Annotated[float | None, typer.Option(
        "--max-time", help="Seconds per hand: stop sampling then (see `bid "
                           "--max-time`).")] = None,
    seed: Annotated[int, typer.Option(
        "--seed", help="Run seed; hand i uses seed_for(seed, i).")] = 0,
    workers: Annotated[int | None, typer.Option(
        "--workers", "-w", help="Local worker processes (default: all cores).")] = None,
    scheduler: Annotated[str | None, typer.Option(
        "--scheduler",
        help="Dask scheduler address (tcp://host:port) to run the hands on.")] = None,
    resume: Annotated[bool, typer.Option(
        "--resume", help="Keep the hands already in --out and analyse only the rest.")] = False,
    pbn_seat: Annotated[str, typer.Option(
        "--pbn-seat",
        help="PBN: the compass seat whose hand to take (N, E, S, W) or all.")] = "all",
    turnup: Annotated[str | None, typer.Option(
        "--turnup", help="Turned-up card for rows that give none (Solo Whist, Russian).")] = None,
    risk_threshold: Annotated[float, typer.Option(
        "--risk-threshold", help="p_loss_gt is P(net < -X counters).")] = 0.0,
    progress: Annotated[bool, typer.Option(
        "--progress/--no-progress", help="Progress bar on stderr.")] = True,
    json_out: Annotated[bool, typer.Option(
        "--json", help="Print the run summary as JSON.")] = False,
) -> None:
    """Analyse every hand in FILE; write one row per hand and rung, a per-hand summary and an
    errors file (RESULTS.errors.csv, with line numbers). Text files: one hand per line,
    HAND | SEAT | LABEL | RULES | TURNUP (all but HAND optional; # comments).
    Exit code 0 if every row succeeded, 1 if some failed, 2 for usage errors."""
    with user_errors():
        from ..batch import check_rules, run_batch
        from ..settings import AnalysisSettings

        pbn_seat = _check_run_args(file, fmt, input_format, workers, pbn_seat)
        settings = AnalysisSettings.build(
            rules=rules, seat=seat, options=parse_options(option), samples=samples, seed=seed,
            turnup=turnup, risk_threshold=risk_threshold, max_time=max_time)
        if rules is not None:  # a bad --rules is a usage error, not one bad row per hand
            check_rules(settings.rules, settings.option_map)
        compile_notice(progress)
        try:
            s = run_batch(file, out, settings, fmt=fmt, input_format=input_format,
                          workers=workers, scheduler=scheduler, resume=resume,
                          pbn_seat=pbn_seat, progress=progress)
        except KeyboardInterrupt:
            typer.echo("interrupted: finished hands are saved; run again with --resume",
                       err=True)
            raise typer.Exit(code=130) from None
    _report(s, json_out)
    if s.failed:
        raise typer.Exit(code=1)


def register(app: typer.Typer) -> None:
    """Add ``batch`` to the app."""
    app.command("batch")(batch)
