"""Rule sets as text for ``boston-sim rules``: the list of rule sets, one rule set's ladder
and payment tables, and a source's tariff as printed. Every table fits the console: the
ladder states columns that are the same on every rung once and stacks each rung as a short
record when a row would not fit; tables of figures split into blocks of columns."""

from __future__ import annotations

import math
from typing import Any

from .terminal import Column, column_blocks, fitted_table, table_widths

__all__ = ["print_as_printed", "print_rule_list", "print_rule_set"]

_LADDER_COLUMNS = ("rank", "id", "name", "kind", "target", "trump", "discard", "tricks",
                   "exposed", "leader", "side", "payers", "payment")


STACK_INDENT = 3  # the indent of a stacked rung's detail lines


def fmt_amount(x: float | None) -> str:
    """A payment as printed: ``—`` for none, else the shortest form (``12``, ``-2.5``)."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    return f"{x:g}"


def print_rule_list(con: Any, sets: list[Any]) -> None:
    """The built-in rule sets: id, name and source."""
    table, _ = fitted_table([Column("id"), Column("name"), Column("source")],
                            [[r.id, r.name, r.source] for r in sets], con.width,
                            title="Rule sets")
    con.print(table)


def print_rule_set(con: Any, rs: Any) -> None:
    """Header, ladder, dense payments and every named table of one rule set."""
    _print_header(con, rs)
    _print_ladder(con, rs)
    _print_payments(con, rs)
    for tname, table in rs.tables.items():
        _print_table(con, tname, table)
    if rs.as_printed is not None:
        con.print("The seed's tariff as printed (misprints included; not used for scoring): "
                  f"boston-sim rules {rs.id} --as-printed", markup=False)


def _print_header(con: Any, rs: Any) -> None:
    """Name, source, unit, interpretations, options and the trump preference."""
    con.print(f"[bold]{rs.name}[/bold] ({rs.id}) — {rs.source}")
    con.print(f"unit: {rs.unit}; interpretations relied on: {', '.join(rs.interpretations)}",
              markup=False)
    if rs.option_specs:
        opts = ", ".join(f"{k}={v} ({rs.option_specs[k].describe()})"
                         for k, v in rs.options.items())
        con.print(f"options: {opts}", markup=False)
    order = " > ".join(rs.suit_order if rs.suit_rule == "fixed" else rs.suit_classes)
    con.print(f"trump preference at equal numbers ({rs.suit_rule}): {order}", markup=False)


def _ladder_cells(rs: Any) -> list[list[str]]:
    return [[str(r.rank), r.id, r.name, r.kind, str(r.target), r.trump, r.discard or "-",
             str(r.tricks), r.exposed or "-", r.leader, r.side, str(r.payers),
             rs.describe_payment(r.id)] for r in rs.rungs]


def _print_ladder(con: Any, rs: Any) -> None:
    """The ladder, lowest first. Columns equal on every rung are said once above it; if a
    rung still does not fit on one line, each rung is stacked as a short record."""
    cells = _ladder_cells(rs)
    varying = [j for j, col in enumerate(_LADDER_COLUMNS)
               if col in ("id", "name", "payment") or len({row[j] for row in cells}) > 1]
    same = [j for j in range(len(_LADDER_COLUMNS)) if j not in varying]
    con.print("[bold]Ladder (lowest first)[/bold]")
    if same:
        common = ", ".join(f"{_LADDER_COLUMNS[j]} {cells[0][j]}" for j in same)
        con.print(f"every rung: {common}", markup=False)
    cols = [Column(_LADDER_COLUMNS[j], number=_LADDER_COLUMNS[j] != "payment")
            for j in varying]
    table, _ = fitted_table(cols, [[row[j] for j in varying] for row in cells], 10_000)
    if table_widths(table)[1] <= con.width:
        con.print(table)
    else:
        _print_ladder_stacked(con, cells, varying)
    if any(r.discard for r in rs.rungs):
        con.print("discard all_one: every player discards one card face down, 12 tricks (§1.6)")


def _print_ladder_stacked(con: Any, cells: list[list[str]], varying: list[int]) -> None:
    """One record per rung: ``rank id  name``, then its other varying fields, then its
    payment, indented."""
    from rich.padding import Padding
    from rich.text import Text

    idx = {c: j for j, c in enumerate(_LADDER_COLUMNS)}
    head = [idx["rank"], idx["id"], idx["name"], idx["payment"]]
    for row in cells:
        con.print(f"{row[idx['rank']]:>2} {row[idx['id']]}: {row[idx['name']]}", markup=False)
        rest = ", ".join(f"{_LADDER_COLUMNS[j]} {row[j]}" for j in varying
                         if j not in head and row[j] != "-")
        for line in (rest, f"payment: {row[idx['payment']]}"):
            if line:
                con.print(Padding(Text(line), (0, 0, 0, STACK_INDENT), expand=False))


def _print_payments(con: Any, rs: Any) -> None:
    """The dense per-adversary payments of the priced rungs, then the unpriced ones."""
    from ..rules import MAX_TRICKS

    labels, rows = [], []
    # a trump-dependent tariff (Russian independence, A-43) shows both of its rows
    other, senior = rs.payment_table(senior_trump=False), rs.payment_table(senior_trump=True)
    for i, r in enumerate(rs.rungs):
        if not r.priced:
            continue
        labels.append(f"{r.id} (junior/plain trump)" if r.trump_dependent else r.id)
        rows.append([fmt_amount(float(x)) for x in other[i]])
        if r.trump_dependent:
            labels.append(f"{r.id} (senior trump)")
            rows.append([fmt_amount(float(x)) for x in senior[i]])
    if rows:
        con.print(f"[bold]Per-adversary payment ({rs.unit}) by tricks won by the declaring "
                  "side[/bold]")
        cols = [Column(str(t), "right", number=True) for t in range(MAX_TRICKS + 1)]
        for block in column_blocks(Column("rung"), cols, labels, rows, con.width):
            con.print(block)
    unpriced = [r.id for r in rs.rungs if not r.priced]
    if unpriced:
        con.print(f"unpriced (no payment in the seed): {', '.join(unpriced)}", markup=False)


def _print_table(con: Any, tname: str, table: Any) -> None:
    """One named payment table of the file, with how to read it."""
    rows = list(table.items())
    con.print(f"[bold]table {tname}[/bold]")
    width = max((len(v) if isinstance(v, list) else 1) for _, v in rows)
    cells = []
    for _, v in rows:
        vals = v if isinstance(v, list) else [v]
        cells.append([fmt_amount(float(x)) for x in vals] + [""] * (width - len(vals)))
    cols = [Column(f"[{j}]", "right", number=True) for j in range(width)]
    for block in column_blocks(Column("key"), cols, [str(k) for k, _ in rows], cells,
                               con.width):
        con.print(block)
    if tname.startswith("success"):
        con.print("  (row = tricks bid N; column j = N + j tricks taken; a single value: no "
                  "over-tricks)", markup=False)
    elif tname.startswith("failure"):
        con.print("  (row = tricks bid N; column j = j + 1 tricks short)", markup=False)


def print_as_printed(con: Any, rs: Any) -> None:
    """A source's tariff exactly as printed, misprints included (documentation only)."""
    ap = rs.as_printed
    con.print(f"[bold]{rs.name}[/bold] ({rs.id}) — the tariff as printed in the seed")
    if ap.get("note"):
        con.print(str(ap["note"]), markup=False)
    rows = []
    for key, rub in ap.items():
        if not isinstance(rub, dict):
            continue
        figures = []
        for part, label in (("amounts", "tricks"), ("amounts_by_over", "over-tricks"),
                            ("lost", None), ("slam", "slam")):
            if isinstance(rub.get(part), dict):
                items = ", ".join(f"{k} = {v}" for k, v in rub[part].items())
                figures.append(f"{label or 'lost'}: {items}")
        if rub.get("rule"):
            figures.append(str(rub["rule"]))
        rows.append([key, str(rub.get("lines", "")), str(rub.get("header", "")),
                     "\n".join(figures), "\n".join(str(x) for x in rub.get("sic", []))])
    cols = [Column("rubric"), Column("seed lines", keep=1), Column("header as printed"),
            Column("printed figures"), Column("misprints")]
    table, _ = fitted_table(cols, rows, con.width, show_lines=True)
    con.print(table)
