"""The sampled deals of an analysis, to look at: a PBN file (one board per deal, tagged with
the seat, the rule set and each contending rung's double-dummy result) and the deals on
which the recommended bid fails, as four hands.

A deal's result for a rung is the one the analysis used: tricks for a trick contract (a
failure whose count was not searched reads ``<N``, a make whose count was not searched
``>=T``: made for a rung of at most ``T`` tricks, else ``undecided``), made or failed for a
yes/no search (misère, Piccolissimo; a misère search past its node budget that was not
searched to the end reads ``undecided``)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..analysis.result import is_missing
from ..analysis.statistics import marked_floor
from ..cards import COMPASS, PLAY_SEATS, format_deal, format_hand, play_seat_to_compass

if TYPE_CHECKING:
    from ..analysis import Analysis

CONTENDERS = 3
"""Rungs tagged in the PBN file: the recommended bid and the next best by expected value."""

DEALER = "W"  # the analysis deals with the dealer at W (cards.py)
PBN_EVENT = "boston-sim sampled deals"
_UNKNOWN_COUNT = -1  # a failure whose trick count was not searched (analysis.tricks), or a
# misère search past its node budget not searched to the end


def _tag(name: str) -> str:
    """A rung id as a PBN tag name (letters, digits, underscore; starts upper case)."""
    return "Boston_" + "".join(ch if ch.isalnum() else "_" for ch in name)


def contenders(a: Analysis, n: int = CONTENDERS) -> list[dict[str, Any]]:
    """The chosen rows of the recommended bid and the best others by EV net, then the
    unpriced rungs by P(make), at most ``n``."""
    rows = a.rung_rows

    def worth(r: dict[str, Any]) -> float:
        return r["p_make"] if is_missing(r["ev_net"]) else r["ev_net"]

    ranked = sorted(rows, key=lambda r: (not r["recommended"], is_missing(r["ev_net"]),
                                         -worth(r)))
    return ranked[:n]


def rung_tricks(a: Analysis, row: dict[str, Any]) -> np.ndarray | None:
    """Per-deal tricks of a chosen row (the first ``row['samples']`` deals), or None."""
    key = (row["rung"], None if is_missing(row["trump"]) or row["trump"] == "NT"
           else row["trump"])
    t = a.tricks.get(key)
    if t is None and key[1] is None:
        t = a.tricks.get((row["rung"], "NT"))
    return None if t is None else np.asarray(t)


def made(row: dict[str, Any], tricks: np.ndarray) -> np.ndarray:
    """Whether the contract of ``row`` was made on each deal (an uncounted make: if it
    reached the row's target)."""
    if row["kind"] == "zero":
        return tricks == 0
    if row["kind"] == "exactly":
        return tricks == row["target"]
    return (tricks >= row["target"]) | (marked_floor(tricks) >= row["target"])


def known(row: dict[str, Any], tricks: np.ndarray) -> np.ndarray:
    """Whether each deal's outcome is known (a yes/no search may have been left undecided,
    and an uncounted make is known to make only its search's lowest target)."""
    if row["kind"] == "at_least":
        floor = marked_floor(tricks)
        return (floor < 0) | (floor >= row["target"])
    return tricks != _UNKNOWN_COUNT


def result_text(row: dict[str, Any], tricks: int) -> str:
    """One deal's result for one rung, e.g. ``S 7 made``, ``NT failed`` or ``NT undecided``."""
    ok = bool(made(row, np.array([tricks]))[0])
    sure = bool(known(row, np.array([tricks]))[0])
    outcome = ("made" if ok else "failed") if sure else "undecided"
    strain = "NT" if is_missing(row["trump"]) else str(row["trump"])
    if row["kind"] != "at_least":
        return f"{strain} {outcome}"
    floor = int(marked_floor(np.array([tricks]))[0])
    count = (f"<{row['target']}" if tricks == _UNKNOWN_COUNT
             else f">={floor}" if floor >= 0 else str(tricks))
    return f"{strain} {count} {outcome}"


def _declarer(a: Analysis) -> int:
    return play_seat_to_compass(a.seat)


def write_pbn(a: Analysis, path: str | Path) -> Path:
    """Write every sampled deal as a PBN board; returns the path."""
    if a.deals is None:
        raise ValueError("this analysis keeps no deals")
    rows = contenders(a)
    tricks = [(r, rung_tricks(a, r)) for r in rows]
    decl = COMPASS[_declarer(a)]
    lines: list[str] = []
    for i, deal in enumerate(a.deals):
        tags = [("Event", PBN_EVENT), ("Board", str(i + 1)), ("Dealer", DEALER),
                ("Deal", format_deal([int(h) for h in deal], DEALER)),
                ("Boston_Rules", a.rules.id), ("Boston_Seat", a.seat),
                ("Boston_Declarer", decl), ("Boston_Seed", str(a.seed))]
        for r, t in tricks:
            if t is not None and i < len(t):
                tags.append((_tag(r["rung"]), result_text(r, int(t[i]))))
        lines += [f'[{k} "{v}"]' for k, v in tags]
        lines.append("")
    p = Path(path)
    p.write_text("\n".join(lines), encoding="utf-8")
    return p


def failure_lines(a: Analysis, n: int) -> list[str]:
    """Up to ``n`` deals on which the recommended bid fails, each as a heading and the
    four hands in playing order (the declarer marked)."""
    if a.deals is None or a.recommended in (None, "pass"):
        return [f"no recommended bid to show failures of ({a.recommended or 'none'})"]
    row = next(r for r in a.rung_rows if r["rung"] == a.recommended)
    t = rung_tricks(a, row)
    if t is None:
        return []
    failed = np.flatnonzero(~made(row, t) & known(row, t))
    undecided = int((~known(row, t)).sum())
    out = [f"{row['name']} fails on {len(failed)} of {len(t)} deals"
           + (f" ({undecided} undecided: not searched to the end)" if undecided else "")
           + (f"; the first {min(n, len(failed))}:" if len(failed) else "")]
    decl = _declarer(a)
    for i in failed[:n]:
        deal = a.deals[i]
        out.append(f"deal {i + 1}: {result_text(row, int(t[i]))}")
        for play, name in enumerate(PLAY_SEATS):
            seat = play_seat_to_compass(play)
            you = " (you)" if seat == decl else ""
            out.append(f"  {name:<6} {COMPASS[seat]}{you:<6} "
                       f"{format_hand(int(deal[seat]), 'symbols')}")
    return out
