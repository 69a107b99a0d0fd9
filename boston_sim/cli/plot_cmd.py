"""``boston-sim plot``: pictures of one hand's analysis or of a batch's results. Thin: the
pictures are :mod:`boston_sim.views.plots`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..config import DEFAULT_RULES, DEFAULT_SEAT
from .common import fail, notice_at_compile, parse_options, user_errors

RESULTS_SUFFIXES = (".csv", ".jsonl", ".parquet")
DEFAULT_HAND_IMAGE = "hand.png"

Target = Annotated[str, typer.Argument(
    help="A results file (from batch) for a batch plot, or a hand to analyse and plot.")]
Out = Annotated[Path | None, typer.Option(
    "--out", help="Image file: .png, .svg or .pdf (default: RESULTS.png, or hand.png).")]
Rules = Annotated[str, typer.Option("--rules", "-r", help="Rule set (hand only).")]
Seat = Annotated[str, typer.Option("--seat", "-s", help="Seat (hand only).")]
Options = Annotated[list[str] | None, typer.Option(
    "--option", "-o", help="Rule-set option as key=value (repeatable).")]
Samples = Annotated[int | None, typer.Option(
    "--samples", "-n", help="Deals sampled (hand only).")]
Seed = Annotated[int, typer.Option("--seed", help="Seed (hand only).")]


def plot(
    target: Target,
    out: Out = None,
    rules: Rules = DEFAULT_RULES,
    seat: Seat = DEFAULT_SEAT,
    option: Options = None,
    samples: Samples = None,
    seed: Seed = 0,
) -> None:
    """Plot a batch's results (recommended bids, expected values) or one hand's analysis
    (counters won or lost per rung, tricks per trump, EV by rung)."""
    with user_errors():
        from ..views.plots import check_image_path

        p = Path(target)
        if not p.exists() and p.suffix.lower() in RESULTS_SUFFIXES:
            fail(f"file not found: {p}")
        if p.exists():
            from ..batch import load_results
            from ..views.plots import plot_batch

            dest = out or p.with_suffix(".png")
            check_image_path(dest)
            plot_batch(load_results(p), dest)
        else:
            from ..analysis import analyze
            from ..settings import AnalysisSettings
            from ..views.plots import plot_hand

            dest = out or Path(DEFAULT_HAND_IMAGE)
            check_image_path(dest)
            settings = AnalysisSettings.build(rules=rules, seat=seat,
                                              options=parse_options(option), samples=samples,
                                              seed=seed)
            with notice_at_compile():
                plot_hand(analyze(target, settings), dest)
        typer.echo(str(dest))


def register(app: typer.Typer) -> None:
    """Add ``plot`` to the app."""
    from .hand_args import hand_command

    hand_command(app, "plot")(plot)
