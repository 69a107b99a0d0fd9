"""``boston-sim plot``: pictures of one hand's analysis or of a batch's results. Thin: the
pictures are :mod:`boston_sim.views.plots`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..config import DEFAULT_PARTNER, DEFAULT_RULES, DEFAULT_SEAT
from ..outputs import atomic_output
from .analysis_options import (
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
    Threads,
    Turnup,
    build_settings,
)
from .common import fail, notice_at_compile, user_errors
from .paths import check_outputs, check_request

RESULTS_SUFFIXES = (".csv", ".jsonl", ".parquet")
DEFAULT_HAND_IMAGE = "hand.png"

Target = Annotated[str, typer.Argument(
    help="A results file (from batch) for a batch plot, or a hand to analyse and plot (the "
         "analysis options are those of `bid`).")]
Out = Annotated[Path | None, typer.Option(
    "--out", help="Image file: .png, .svg or .pdf (default: RESULTS.png, or hand.png).")]


def check_plot_path(dest: Path, inputs: list) -> Path:
    """The image path checked before any work (:func:`.paths.check_outputs`)."""
    _, checked = check_outputs(plot=dest, inputs=inputs, plot_option="--out")
    assert checked is not None
    return checked


def plot(
    target: Target,
    out: Out = None,
    seat: Seat = DEFAULT_SEAT,
    rules: Rules = DEFAULT_RULES,
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
    partner: Partner = DEFAULT_PARTNER,
    risk: Risk = 0.0,
    threads: Threads = None,
    quiet: Quiet = False,
) -> None:
    """Plot a batch's results (recommended bids, expected values) or one hand's analysis
    (counters won or lost per rung, tricks per trump, EV by rung)."""
    with user_errors():
        from ..manifest import now_utc

        started = now_utc()
        p = Path(target)
        if not p.exists() and p.suffix.lower() in RESULTS_SUFFIXES:
            fail(f"file not found: {p}")
        if p.exists():
            from ..batch import load_results
            from ..views.plots import batch_plot_manifest, plot_batch

            dest = check_plot_path(out or p.with_suffix(".png"), [p])
            results = load_results(p)
            if len(results) == 0:
                fail(f"no results to plot in {p}")
            with atomic_output(dest) as tmp:
                plot_batch(results, tmp, made_by=batch_plot_manifest(p, started))
        else:
            import sys

            from ..analysis import analyze
            from ..views.manifest import hand_manifest
            from ..views.plots import plot_hand

            dest = check_plot_path(out or Path(DEFAULT_HAND_IMAGE), [rules])
            settings = build_settings(
                rules=rules, seat=seat, option=option, samples=samples, precision=precision,
                max_time=max_time, seed=seed, known=known, constraint=constraint,
                turnup=turnup, preference=preference, senior=senior, partner=partner,
                risk=risk, threads=threads)
            check_request(settings, hand=target)
            with notice_at_compile(not quiet):
                a = analyze(target, settings, progress=not quiet and sys.stderr.isatty())
            with atomic_output(dest) as tmp:
                plot_hand(a, tmp, made_by=hand_manifest(a, "plot", started))
        typer.echo(str(dest))


def register(app: typer.Typer) -> None:
    """Add ``plot`` to the app."""
    from .command import hand_command

    hand_command(app, "plot")(plot)
