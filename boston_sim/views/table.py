"""The readable report of an :class:`~boston_sim.analysis.Analysis`: a rich table of the
chosen row of every rung and the recommendation with its footnotes.

Results first, rendering later: nothing here computes a statistic, it only formats the
rows of ``analysis.rows`` / ``analysis.rung_rows`` (plain dicts: no pandas needed).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from ..analysis.result import is_missing

if TYPE_CHECKING:
    from ..analysis import Analysis

SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "NT": "NT"}


def _pm(value: Any, se: Any, digits: int = 1, pm: str = " ± ") -> str:
    if is_missing(value):
        return "—"
    if is_missing(se):
        return f"{value:+.{digits}f}"
    return f"{value:+.{digits}f}{pm}{se:.{digits}f}"


def _trump_cell(row: Any, symbols: bool, compact: bool = False) -> str:
    trump = row["trump"]
    if is_missing(trump):
        text = "NT" if row["kind"] != "at_least" else "—"
    else:
        text = SUIT_SYMBOL[trump] if symbols else trump
    cls = row["trump_class"]
    if isinstance(cls, str) and cls and cls != trump:
        text += f" ({cls})"
    disc = row["discard"]
    if isinstance(disc, str) and disc:
        text += f" −{disc}" if compact else f", discards {disc}"
    return text


COMPACT_WIDTH = 120
"""Below this many columns the table drops its two risk columns and shortens its headers
(they are still in ``--json`` and ``--csv``)."""

PIPE_WIDTH = 160
"""Width of the report when stdout is not a terminal (a file or a pipe): wide enough that
no cell wraps."""


def render_table(analysis: Analysis, *, symbols: bool = True, compact: bool = False) -> Any:
    """A ``rich.table.Table`` of the chosen row of every rung, the recommended bid in bold.

    ``compact``: for narrow terminals, without the P(loss) and CVaR columns and with short
    headers."""
    from rich import box
    from rich.table import Table

    a = analysis
    unit = a.rules.unit
    thr = a.risk_threshold
    title = f"{a.rules.name}: {a.hand} ({a.seat}), {a.samples} samples, seed {a.seed}"
    if compact:
        title += f"; EV in {unit}"
    t = Table(title=title, title_justify="left", show_lines=False,
              box=box.SIMPLE_HEAD if compact else box.HEAVY_HEAD, show_edge=not compact,
              padding=(0, 1, 0, 0) if compact else (0, 1))
    t.add_column("", width=1)
    t.add_column("Rung", no_wrap=compact)
    t.add_column("Trump", no_wrap=compact)
    t.add_column("P(make)", justify="right", no_wrap=True)
    t.add_column("Tricks", justify="right", no_wrap=compact)
    t.add_column("EV/adv." if compact else f"EV / adversary ({unit})", justify="right",
                 no_wrap=True)
    t.add_column("EV net", justify="right", no_wrap=True)
    if not compact:
        t.add_column("P(loss)" if thr == 0 else f"P(loss>{thr:g})", justify="right")
        t.add_column("CVaR 5%", justify="right")
    rows = a.rung_rows
    uneven = any(r["samples"] != a.samples for r in rows)
    if uneven:  # searches settled early stopped sooner (analysis.rounds)
        t.add_column("Deals" if compact else "Samples", justify="right")
    pm = "±" if compact else " ± "
    for row in rows:
        rec = bool(row["recommended"])
        p = f"{row['p_make']:.3f}{pm}{row['p_make_se']:.3f}"
        cells = [
            "▶" if rec else "",
            str(row["name"]),
            _trump_cell(row, symbols, compact),
            p,
            f"{row['mean_tricks']:.2f}",
            _pm(row["ev_per_adversary"], row["ev_per_adversary_se"], pm=pm),
            _pm(row["ev_net"], row["ev_net_se"], pm=pm),
        ]
        if not compact:
            cells.append("—" if is_missing(row["p_loss_gt"]) else f"{row['p_loss_gt']:.3f}")
            cells.append("—" if is_missing(row["cvar5"]) else f"{row['cvar5']:+.1f}")
        if uneven:
            cells.append(str(row["samples"]))
        t.add_row(*cells, style="bold green" if rec else None)
    return t


def summary_lines(analysis: Analysis) -> list[str]:
    """The recommendation and the footnotes printed under the table."""
    a = analysis
    if a.recommended is None:
        head = "Recommendation: none (no priced rung)"
    elif a.recommended == "pass":
        head = "Recommendation: pass"
    else:
        head = f"Recommendation: {a.rules.rung(a.recommended).name}"
    lines = [head + " — " + a.reason]
    extra = []
    if a.rejected:
        extra.append(f"{a.rejected:,} deals rejected by the constraints")
    if a.turnup:
        extra.append(f"turn-up {a.turnup} in the dealer's hand")
    if a.context.get("preference"):
        extra.append(f"preference suit {a.context['preference']}")
    if a.context.get("senior"):
        extra.append(f"senior {a.context['senior']}, junior {a.context.get('junior') or '?'}")
    extra.append(f"{a.elapsed:.1f} s")
    lines.append("; ".join(extra))
    rows = a.rung_rows
    notes = sorted({r["note"] for r in rows if isinstance(r["note"], str) and r["note"]})
    for n in notes:
        lines.append(f"note: {n}")
    lines.extend(f"note: {n}" for n in a.notes)
    if any(not r["priced"] for r in rows):
        lines.append("note: — = the rules give no price for this rung (docs/RULES.md §3.0)")
    return lines


def print_report(analysis: Analysis, console: Any = None) -> None:
    """Print the table and the summary to ``console`` (default: stdout: the terminal's
    width, or :data:`PIPE_WIDTH` columns when it is not a terminal). Consoles narrower than
    :data:`COMPACT_WIDTH` get the compact table."""
    from rich.console import Console

    c = console or Console(width=None if sys.stdout.isatty() else PIPE_WIDTH)
    compact = c.width < COMPACT_WIDTH
    c.print(render_table(analysis, compact=compact))
    for line in summary_lines(analysis):
        c.print(line, highlight=False, markup=False)
    if compact and any(isinstance(r["discard"], str) and r["discard"]
                       for r in analysis.rung_rows):
        c.print("note: −SK etc. = the declarer's discard", highlight=False, markup=False)
