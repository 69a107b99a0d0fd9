"""The readable report of an :class:`~boston_sim.analysis.Analysis`: a rich table of the
chosen row of every rung and the recommendation with its footnotes.

Results first, rendering later: nothing here computes a statistic, it only formats the
rows of ``analysis.rows`` / ``analysis.rung_rows`` (plain dicts: no pandas needed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..analysis.result import is_missing
from ..config import SE_TARGET
from ..rules import ALL_PASS_LABELS
from .bracket import bracket_lines
from .terminal import DEFAULT_WIDTH, Column, TrimmedLines, fitted_table, suit_text
from .terminal import console as terminal_console

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
"""Below this many columns the table shortens its headers and uses a lighter frame; it then
drops columns by importance (risk columns first) until it fits (all of them stay in
``--json`` and ``--csv``)."""

PIPE_WIDTH = DEFAULT_WIDTH
"""Width of the report when stdout is not a terminal and ``COLUMNS`` is not set."""

NOTE_MARKS = "¹²³⁴⁵⁶⁷⁸⁹"
"""Markers tying a row to its footnote, in order of first use."""

_YES_NO_PREFIX = "misère and Piccolissimo rungs are yes/no searches"
_SETTLED_PREFIX = "searches whose rungs were settled early"
# analysis notes the table states itself, tied to the rows (or column) they concern
_TABLE_NOTES = (_YES_NO_PREFIX, _SETTLED_PREFIX)
YES_NO_NOTE = "yes/no search: Tricks shows 0 if made, 1 if failed"
EXACTLY_NOTE = "yes/no search: Tricks shows 1 if made, 0 if failed"
SETTLED_NOTE = ("deals of a row that stopped early, settled (clearly below the best bid, "
                "pass or another trump or discard of its rung, or the bid's P(make) known "
                f"within {SE_TARGET}); --samples N solves every row on N deals")
UNPRICED_NOTE = "— = the rules give no price for this rung (docs/RULES.md §3.0)"
DISCARD_NOTE = "−card: the card the declarer discards before play"


class Notes:
    """Footnotes, each stated once and numbered in order of first use."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    def mark(self, text: str) -> str:
        if text not in self.texts:
            self.texts.append(text)
        i = self.texts.index(text)
        return NOTE_MARKS[i] if i < len(NOTE_MARKS) else f"[{i + 1}]"

    def lines(self) -> list[str]:
        return [f"{self.mark(t)} {t}" for t in self.texts]


def _row_notes(row: Any, compact: bool) -> list[str]:
    """The footnotes one row's rung needs: the model's caveats for it and how a yes/no
    search shows its tricks."""
    out = [n for n in str(row["note"] or "").split("; ") if n]
    if row["kind"] == "exactly":
        out.append(EXACTLY_NOTE)
    elif row["kind"] != "at_least":
        out.append(YES_NO_NOTE)
    return out


def _columns(a: Analysis, compact: bool, uneven: bool) -> list[Column]:
    thr = a.risk_threshold
    cols = [
        Column("", keep=None),
        Column("Rung"),
        Column("Trump"),
        Column("P(make)", "right", number=True),
        Column("Tricks", "right", number=True, keep=3),
        Column("EV/adv." if compact else f"EV / adversary ({a.rules.unit})", "right",
               number=True, keep=4),
        Column("EV net", "right", number=True),
        Column("P(loss)" if thr == 0 else f"P(loss>{thr:g})", "right", number=True, keep=1),
        Column("CVaR 5%", "right", number=True, keep=2),
    ]
    if uneven:  # searches settled early stopped sooner (analysis.rounds)
        cols.append(Column("Deals" if compact else "Samples", "right", number=True, keep=5))
    return cols


def _pass_row(a: Analysis, pm: str, uneven: bool) -> list[str] | None:
    """The pass row under the rungs, whenever bids are priced: its net EV, the other columns
    empty. An all-pass game played out has an SE and its deals; a fixed value has neither."""
    simulated = a.all_pass_model in ALL_PASS_LABELS
    if not simulated and a.recommended is None:
        return None  # nothing priced: there is no bid to weigh against passing
    # the model is named in the pass note under the table: a short label keeps the Rung
    # column as narrow as the rungs' names
    line = ["▶" if a.recommended == "pass" else "",
            "Pass (all pass)" if simulated else "Pass", "", "—", "—", "—",
            _pm(a.pass_value, a.pass_value_se if simulated else None, pm=pm), "—", "—"]
    if uneven:
        line.append(str(a.pass_samples or a.samples) if simulated else "—")
    return line


def render_table(analysis: Analysis, *, symbols: bool = True, compact: bool = False,
                 width: int | None = None, notes: Notes | None = None,
                 colour: bool = True) -> Any:
    """A ``rich.table.Table`` of the chosen row of every rung, the recommended bid in bold,
    no wider than ``width`` (default: unbounded): the least important columns go first.

    ``compact``: short headers and a light frame, for narrow terminals. Row notes get a
    marker from ``notes`` (collected there for the footnotes)."""
    from rich import box

    a = analysis
    notes = notes if notes is not None else Notes()
    # a void as "-", as the hand is typed (PBN's empty suit is easy to miss in a title)
    shown = ".".join(part or "-" for part in a.hand.split("."))
    title = f"{a.rules.name}: {shown} ({a.seat}), {a.samples} samples, seed {a.seed}"
    title += f", {a.elapsed:.1f} s"
    if compact:
        title += f"; EV in {a.rules.unit}"
    rows = a.rung_rows
    uneven = any(r["samples"] != a.samples for r in rows)
    pm = "±" if compact else " ± "
    cells, styles = [], []
    for row in rows:
        rec = bool(row["recommended"])
        texts = _row_notes(row, compact) + ([] if row["priced"] else [UNPRICED_NOTE])
        marks = "".join(sorted((notes.mark(n) for n in texts), key=NOTE_MARKS.find))
        trump = _trump_cell(row, symbols, compact)
        if compact and isinstance(row["discard"], str) and row["discard"]:
            trump += notes.mark(DISCARD_NOTE)
        line = [
            "▶" if rec else "",
            f"{row['name']}{marks}",
            suit_text(trump, colour),
            f"{row['p_make']:.3f}{pm}{row['p_make_se']:.3f}",
            f"{row['mean_tricks']:.2f}",
            _pm(row["ev_per_adversary"], row["ev_per_adversary_se"], pm=pm),
            _pm(row["ev_net"], row["ev_net_se"], pm=pm),
            "—" if is_missing(row["p_loss_gt"]) else f"{row['p_loss_gt']:.3f}",
            "—" if is_missing(row["cvar5"]) else f"{row['cvar5']:+.1f}",
        ]
        if uneven:
            early = row["samples"] != a.samples
            line.append(f"{row['samples']}{notes.mark(SETTLED_NOTE) if early else ''}")
        cells.append(line)
        styles.append("bold green" if rec else None)
    pass_line = _pass_row(a, pm, uneven)
    if pass_line is not None:
        cells.append(pass_line)
        styles.append("bold green" if a.recommended == "pass" else None)
    table, _ = fitted_table(
        _columns(a, compact, uneven), cells, width or 10_000, styles=styles, title=title,
        title_justify="left", show_lines=False,
        box=box.SIMPLE_HEAD if compact else box.HEAVY_HEAD, show_edge=not compact,
        padding=(0, 0, 0, 0) if compact else (0, 1))
    return table


def summary_lines(analysis: Analysis, notes: Notes | None = None) -> list[str]:
    """The recommendation, the facts of the deal, then each footnote once: the table's
    numbered ones (from ``notes``) and the analysis's own."""
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
    if extra:
        lines.append("; ".join(extra))
    if notes is not None:
        lines.extend(notes.lines())
    lines.extend(f"note: {n}" for n in dict.fromkeys(a.notes)
                 if not n.startswith(_TABLE_NOTES))
    return lines


def print_report(analysis: Analysis, console: Any = None) -> None:
    """Print the table and the summary to ``console`` (default: stdout, the terminal's width,
    or ``COLUMNS`` / :data:`PIPE_WIDTH` columns when it is not a terminal). Consoles
    narrower than :data:`COMPACT_WIDTH` get the compact table."""
    c = console or terminal_console()
    compact = c.width < COMPACT_WIDTH
    notes = Notes()
    c.print(render_table(analysis, compact=compact, width=c.width, notes=notes,
                         colour=not c.no_color))
    for line in summary_lines(analysis, notes) + bracket_lines(analysis):
        c.print(line, highlight=False, markup=False)


REPORT_WIDTH_MIN, REPORT_WIDTH_MAX = 20, 1000  # columns of a text report


def report_text(analysis: Analysis, width: int = PIPE_WIDTH) -> str:
    """The report :func:`print_report` prints, as plain text ``width`` columns wide."""
    import io

    from ..analysis.result import Analysis as AnalysisType
    from ..errors import BostonSimError
    from ..limits import check_int

    if not isinstance(analysis, AnalysisType):
        raise BostonSimError(f"report_text needs the Analysis that analyze returns, not "
                             f"{type(analysis).__name__}")
    check_int("width", width, REPORT_WIDTH_MIN, REPORT_WIDTH_MAX)

    from rich.console import Console

    buf = io.StringIO()
    print_report(analysis, Console(file=TrimmedLines(buf), width=width, color_system=None,
                                   highlight=False))
    return buf.getvalue()
