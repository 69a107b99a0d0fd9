"""Result rows: one analysed hand -> its rows, rows -> the per-hand summary, and a results
file read back as a DataFrame."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from ..errors import BostonSimError
from .jobs import Job
from .records import BRACKET_FIGURES, EXT_TO_OUTPUT, ROW_SCHEMA
from .sinks import LineSink, read_parquet_checked, read_part_directory, rows_frame


def _num(x: Any) -> float:
    """A float, NaN for missing / None."""
    if x is None:
        return math.nan
    try:
        return float(x)
    except (TypeError, ValueError):
        return math.nan


def _text(x: Any) -> str:
    """A text cell: empty for missing / None / NaN."""
    return "" if x is None or (isinstance(x, float) and math.isnan(x)) else str(x)


def rows_of(analysis: Any, job: Job) -> list[dict[str, Any]]:
    """The output rows (one per rung, in ladder order) of one analysed hand."""
    recs = analysis.rung_rows
    runner = getattr(analysis, "runner_up", None)
    diff_se = _num(getattr(analysis, "diff_se", None))
    rec_id = getattr(analysis, "recommended", None)
    recommended = "" if rec_id is None else str(rec_id)  # None: no rung is priced
    s = job.settings
    hand_facts = {
        "hand_id": job.index, "label": job.label, "rules": s.rules_id,
        "unit": str(analysis.rules.unit),
        "seat": str(getattr(analysis, "seat", s.seat)), "hand": job.hand,
    }
    out = []
    for r in recs:
        out.append({
            **hand_facts,
            "rung": str(r["rung"]),
            "name": str(r.get("name", r["rung"])),
            "rank": int(r.get("rank", 0)),
            "kind": str(r["kind"]),
            "target": int(r["target"]),
            "trump": _text(r.get("trump")),
            **{k: _num(r.get(k)) for k in ("p_make", "p_make_se", "mean_tricks",
                                           "ev_per_adversary", "ev_per_adversary_se",
                                           "ev_net", "ev_net_se", "p_loss_gt", "cvar5")},
            "recommended": bool(r.get("recommended", str(r["rung"]) == recommended)),
            "n_rungs": len(recs),
            "samples": int(r.get("samples", analysis.samples)),  # the row's own deals
            "seed": int(s.seed),
            "runner_up": "" if runner is None else str(runner),
            "diff_se": diff_se,
            "time_limited": bool(getattr(analysis, "time_limited", False)),
            "pass_value": _num(getattr(analysis, "pass_value", None)),
            "pass_value_se": _num(getattr(analysis, "pass_value_se", None)),
            **_bracket_cells(analysis, str(r["rung"])),
        })
    return out


def _bracket_cells(analysis: Any, rung: str) -> dict[str, Any]:
    """A row's bracket columns: the rung's figures if it was replayed, else NaN."""
    br = getattr(analysis, "bracket", None)
    figs = br.rungs.get(rung, {}) if br is not None else {}
    cells: dict[str, Any] = {
        f"bracket_{f}_{k}": _num(figs.get(f, {}).get(k)) for f in BRACKET_FIGURES
        for k in ("p_make", "ev_net")}
    cells["bracket_changes_recommendation"] = (
        "" if br is None else ("yes" if br.changes_recommendation else "no"))
    return cells


def _recommendation(rs: list[dict[str, Any]]) -> tuple[str, str, str, float, float]:
    """(rung, name, trump, p_make, ev_net) of the hand's recommended bid."""
    rec = next((r for r in rs if r["recommended"]), None)
    if rec is not None:
        return rec["rung"], rec["name"], rec["trump"], rec["p_make"], rec["ev_net"]
    if any(not math.isnan(r["ev_net"]) for r in rs):
        return "pass", "Pass", "", math.nan, rs[0]["pass_value"]
    # no priced rung (e.g. Fontainebleau): probabilities only, no recommendation
    return "", "", "", math.nan, math.nan


def _runner_up(rs: list[dict[str, Any]]) -> tuple[str, float]:
    """(name, ev_net) of the hand's runner-up bid."""
    first = rs[0]
    run = next((r for r in rs if r["rung"] == first["runner_up"]), None)
    if run is not None:
        return run["name"], run["ev_net"]
    if first["runner_up"] == "pass":
        return "Pass", first["pass_value"]
    return "", math.nan


def summarize_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per-hand summary rows (recommended bid, its EV, runner-up) built from result rows."""
    hands: dict[int, list[dict[str, Any]]] = {}
    for r in rows:
        hands.setdefault(r["hand_id"], []).append(r)
    out = []
    for hid in sorted(hands):
        rs = hands[hid]
        first = rs[0]
        rec_id, rec_name, trump, p_make, ev = _recommendation(rs)
        run_name, run_ev = _runner_up(rs)
        out.append({
            "hand_id": hid,
            "label": first["label"],
            "rules": first["rules"],
            "unit": first["unit"],
            "seat": first["seat"],
            "hand": first["hand"],
            "recommended": rec_id,
            "recommended_name": rec_name,
            "trump": trump,
            "p_make": p_make,
            "ev_net": ev,
            "runner_up": first["runner_up"],
            "runner_up_name": run_name,
            "runner_up_ev_net": run_ev,
            "diff_se": first["diff_se"],
            "samples": max(r["samples"] for r in rs),  # deals drawn (settled rungs use fewer)
            "seed": first["seed"],
        })
    return out


def load_results(path: str | Path) -> Any:
    """A results file or directory (CSV, JSON Lines, Parquet) -> pandas DataFrame, with the
    column types of :data:`ROW_SCHEMA`, sorted by hand id."""
    p = Path(path)
    if p.is_dir():
        return rows_frame(read_part_directory(p), ROW_SCHEMA)
    fmt = EXT_TO_OUTPUT.get(p.suffix.lower())
    if fmt is None:
        raise BostonSimError(f"cannot tell the format of results file {str(p)!r}")
    if fmt == "parquet":
        if not p.exists():
            raise FileNotFoundError(2, "No such file", str(p))
        return read_parquet_checked(p)
    if not p.exists():
        raise FileNotFoundError(2, "No such file", str(p))
    return rows_frame(LineSink(p, fmt).read_rows(), ROW_SCHEMA)
