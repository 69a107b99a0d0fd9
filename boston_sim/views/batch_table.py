"""The table ``boston-sim batch`` prints at the end: one row per hand (its recommended bid,
trump, P(make) and expected net result, the runner-up), fitted to the console like every
other table: the least important columns go first, text wraps at spaces, a number is never
cut (:func:`.terminal.fitted_table`). Long runs show their first hands and say where the rest
are."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .table import SUIT_SYMBOL
from .terminal import Column, fitted_table, suit_text

BATCH_TABLE_ROWS = 20
"""Hands the end-of-run table shows; the summary file holds every one."""


def _num(x: Any, fmt: str) -> str:
    return "—" if x is None or (isinstance(x, float) and math.isnan(x)) else format(x, fmt)


def _bid(row: dict[str, Any]) -> str:
    if row["recommended"] == "pass":
        return "pass"
    return row["recommended_name"] or "—"  # no priced rung: probabilities only


def _runner_up(row: dict[str, Any]) -> str:
    name = row["runner_up_name"] or ("pass" if row["runner_up"] == "pass" else "")
    if not name:
        return "—"
    return f"{name} {_num(row['runner_up_ev_net'], '+.1f')}"


def _columns(labels: bool, rule_sets: bool) -> list[Column]:
    # keep: higher is dropped later, None never; the hand, the bid and its EV always stay
    cols = [Column("#", "right", number=True), Column("Hand")]
    if labels:
        cols.append(Column("Label", keep=3))
    cols.append(Column("Seat", keep=5))
    if rule_sets:  # EVs of different rule sets are in different units
        cols.append(Column("Rules", keep=None))
    cols += [Column("Bid"), Column("Trump", keep=4),
             Column("P(make)", "right", number=True, keep=7),
             Column("EV net", "right", number=True),
             Column("Runner-up", keep=2)]
    return cols


def batch_table(rows: Sequence[dict[str, Any]], width: int, *, colour: bool = True,
                limit: int = BATCH_TABLE_ROWS) -> Any:
    """A rich table of the first ``limit`` per-hand summary rows
    (:func:`boston_sim.batch.summarize_rows`), no wider than ``width``."""
    shown = list(rows[:limit])
    labels = any(r["label"] for r in shown)
    rule_sets = len({r["rules"] for r in rows}) > 1
    cells = []
    for r in shown:
        trump = SUIT_SYMBOL.get(r["trump"], r["trump"]) if r["trump"] else "—"
        line: list[Any] = [str(r["hand_id"]), r["hand"]]
        if labels:
            line.append(r["label"])
        line.append(r["seat"])
        if rule_sets:
            line.append(r["rules"])
        line += [_bid(r), suit_text(trump, colour), _num(r["p_make"], ".3f"),
                 _num(r["ev_net"], "+.1f"), _runner_up(r)]
        cells.append(line)
    table, _ = fitted_table(_columns(labels, rule_sets), cells, width, title="Results",
                            title_justify="left", padding=(0, 1, 0, 0), show_edge=False)
    return table


def footer_lines(rows: Sequence[dict[str, Any]], summary_path: str,
                 limit: int = BATCH_TABLE_ROWS) -> list[str]:
    """What the table leaves out: the unit of each rule set's EVs and the hands not shown."""
    lines = []
    seen = {r["rules"]: r["unit"] for r in rows}
    if len(seen) == 1:
        ((_, unit),) = seen.items()
        lines.append(f"EV net: the declarer's expected net result in {unit or 'counters'}")
    else:
        per = "; ".join(f"{k}: {u or 'counters'}" for k, u in seen.items())
        lines.append(f"EV net in each rule set's own unit ({per})")
    if len(rows) > limit:
        lines.append(f"the first {limit} of {len(rows)} hands; every hand: {summary_path}")
    return lines


def print_batch_summary(console: Any, rows: Sequence[dict[str, Any]],
                        summary_path: str) -> None:
    """The end-of-run table and its footer on ``console`` (nothing for a run without
    results)."""
    if not rows:
        return
    console.print(batch_table(rows, console.width, colour=not console.no_color))
    for line in footer_lines(rows, summary_path):
        console.print(line, markup=False, highlight=False)
