"""Checks every command runs before any work: its output paths (:mod:`boston_sim.outputs`),
the numbers and texts of its request (:mod:`boston_sim.limits`) and the optional extras it
needs. A request that would fail after a long analysis fails here, at once."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..limits import check_settings_numbers, check_text
from ..outputs import check_output

CSV_SUFFIXES = (".csv",)


def image_suffixes() -> tuple[str, ...]:
    from ..views.plots import IMAGE_FORMATS

    return tuple(IMAGE_FORMATS)


def _files(inputs: Iterable[Any]) -> list[Path]:
    """The inputs that are existing files (a rule-set id is not a path)."""
    out = []
    for x in inputs:
        if x is None or not isinstance(x, (str, Path)):
            continue
        p = Path(x)
        try:
            if p.is_file():
                out.append(p)
        except (OSError, ValueError):
            continue
    return out


def check_outputs(*, csv: Path | None = None, plot: Path | None = None,
                  inputs: Iterable[Any] = (), plot_option: str = "--plot"
                  ) -> tuple[Path | None, Path | None]:
    """``--csv`` and ``--plot`` checked (:func:`boston_sim.outputs.check_output`), and
    distinct from each other."""
    files = _files(inputs)
    if csv is not None:
        csv = check_output(csv, "--csv", suffixes=CSV_SUFFIXES, inputs=files)
    if plot is not None:
        plot = check_output(plot, plot_option, suffixes=image_suffixes(), inputs=files)
    return csv, plot


def check_request(settings: Any, *, hand: str | None = None) -> None:
    """The numbers and texts of an analysis request within their documented ranges, and its
    rule set and options loadable."""
    if hand is not None:
        check_text("the hand", hand)
    check_settings_numbers(settings)
    from ..batch.jobs import check_rules  # the rule set and its options, as analyze loads them

    check_rules(settings.rules, settings.option_map)
