"""``boston-sim bid HAND``: what should I bid? A thin wrapper around
:func:`boston_sim.analysis.analyze` and the views of :mod:`boston_sim.report`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from .common import echo_json, parse_options, user_errors

DEFAULT_SAMPLES = 300  # keep in step with analysis.DEFAULT_SAMPLES (not imported: --help stays fast)


def bid(
    hand: Annotated[str, typer.Argument(help="Your 13 cards, e.g. AKQ2.JT9.876.543 or "
                                              "'S:AKQ2 H:JT9 D:876 C:543'.")],
    seat: Annotated[str, typer.Option("--seat", help="Your seat in playing order: eldest, "
                                                     "second, third or dealer.")] = "eldest",
    rules: Annotated[str, typer.Option("--rules", "-r", help="Rule-set id (see `boston-sim "
                                                             "rules`) or a .toml path.")]
    = "boston_foster",
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="Rule option key=value (repeatable), e.g. payments=american; "
                               "also preference=H (classic Boston) or senior=S (Russian).")] = None,
    samples: Annotated[int | None, typer.Option(
        "--samples", "-n", help=f"Solve every rung on this many random deals. Default: rounds "
                                f"of 50 up to {DEFAULT_SAMPLES}, where a trump or misère whose "
                                "rows are settled (SE of P(make) below 0.03, EV clearly below "
                                "the best bid) stops early; so does the best bid's, once "
                                "every other has and it is clearly above pass.")] = None,
    precision: Annotated[float | None, typer.Option(
        "--precision", help="Instead of --samples: sample until the SE of the recommended "
                            "bid's expected net value is below this many counters (cap 20000).")]
    = None,
    max_time: Annotated[float | None, typer.Option(
        "--max-time", help="Seconds: stop sampling then; the searches under way stop where "
                           "they are (the first 2 deals are always solved, so a very slow one "
                           "can overrun it). Bounds the wait on slow hands; wider SEs, and the "
                           "numbers then depend on the machine's speed.")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Random seed; same seed, same answer "
                                                     "(without --max-time).")] = 0,
    known: Annotated[list[str] | None, typer.Option(
        "--known", help="A card known to lie with a seat, CARD@SEAT, e.g. SA@dealer or SA@W "
                        "(repeatable).")] = None,
    constraint: Annotated[list[str] | None, typer.Option(
        "--constraint", "-c", help="Condition on another seat (repeatable): second:S>=5, "
                                   "dealer:H<=1, third:hcp>=12, eldest:has=SK, eldest:lacks=SK.")]
    = None,
    turnup: Annotated[str | None, typer.Option(
        "--turnup", help="The turned-up trump card (Solo Whist, Russian Boston); it lies in the "
                         "dealer's hand.")] = None,
    preference: Annotated[str | None, typer.Option(
        "--preference", help="Classic Boston: the First Preference suit turned from the still "
                             "pack (shows the suit class).")] = None,
    senior: Annotated[str | None, typer.Option(
        "--senior", help="Russian Boston: the senior suit (the first deal's turn-up).")] = None,
    partner: Annotated[str, typer.Option(
        "--partner", help="Partner's seat in pair contracts: opposite, left or right "
                          "(a random partner hand is pessimistic).")] = "opposite",
    risk: Annotated[float, typer.Option(
        "--risk", help="P(loss) column: probability of losing more than this many counters.")]
    = 0.0,
    threads: Annotated[int | None, typer.Option(
        "--threads", help="Solver threads (default: all cores); results do not depend on it.")]
    = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON on stdout.")] = False,
    csv_file: Annotated[Path | None, typer.Option(
        "--csv", help="Also write the table (every trump candidate) to this CSV file.")] = None,
    plot: Annotated[Path | None, typer.Option(
        "--plot", help="Also draw the payoffs to this image file (.png, .svg, .pdf).")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Analyse a hand over the whole ladder: P(make), tricks, expected counters, and the bid
    to make (double-dummy Monte Carlo, RULES.md §3)."""
    with user_errors():
        from ..analysis import analyze
        from ..errors import SamplingError

        if samples is not None and precision is not None:
            raise SamplingError("give either --samples or --precision, not both")
        context = {}
        if preference is not None:
            context["preference"] = preference
        if senior is not None:
            context["senior"] = senior
        show_progress = not quiet and sys.stderr.isatty()
        a = analyze(
            hand, seat=seat, rules=rules, options=parse_options(option), samples=samples,
            precision=precision, seed=seed, known=known or [], constraints=constraint or [],
            turnup=turnup, partner=partner, context=context, risk_threshold=risk,
            threads=threads, progress=show_progress, max_time=max_time,
        )
        if csv_file is not None:
            from ..report import write_csv

            write_csv(a, csv_file)
        if plot is not None:
            from ..plots import plot_hand

            plot_hand(a, plot)
        if json_out:
            echo_json(a.to_dict())
        else:
            from ..report import print_report

            print_report(a)


def register(app: typer.Typer) -> None:
    """Add the ``bid`` command to the app."""
    app.command("bid")(bid)
