"""An :class:`~boston_sim.analysis.Analysis` as files: CSV (one row per rung and trump
candidate) and JSON (:func:`analysis_json`; values cleaned by
:func:`~boston_sim.analysis.json_value`, the one JSON-cleaning helper)."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..analysis.result import is_missing, json_value

if TYPE_CHECKING:
    from ..analysis import Analysis

__all__ = ["analysis_json", "csv_rows", "json_value", "write_csv"]


def analysis_json(analysis: Analysis, started: str | None = None) -> dict[str, Any]:
    """The JSON object of ``boston-sim bid --json``: ``schema_version``, the numbers of
    :meth:`Analysis.to_dict` and a ``manifest`` (what made it; ``started``: ISO time the
    command began). Its schema: docs/schema/bid.schema.json."""
    from .manifest import SCHEMA_VERSION, hand_manifest

    return {"schema_version": SCHEMA_VERSION, **analysis.to_dict(),
            "manifest": hand_manifest(analysis, "bid", started)}


def csv_rows(analysis: Analysis, *, all_trumps: bool = True) -> list[dict[str, Any]]:
    """Rows for a CSV file: one per (rung, trump candidate) (or per rung), with the trick
    distribution spread over columns ``t0`` .. ``t13``."""
    out = []
    for row in analysis.rows if all_trumps else analysis.rung_rows:
        rec: dict[str, Any] = {"hand": analysis.hand, "seat": analysis.seat,
                               "rules": analysis.rules.id, "samples": analysis.samples,
                               "seed": analysis.seed}
        for col, v in row.items():
            if col != "trick_distribution":
                rec[col] = "" if is_missing(v) else v
        for t, p in enumerate(row["trick_distribution"]):
            rec[f"t{t}"] = p
        out.append(rec)
    return out


def write_csv(analysis: Analysis, path: str | Path, *, all_trumps: bool = True) -> Path:
    """Write the analysis table as CSV (one row per rung and trump candidate)."""
    rows = csv_rows(analysis, all_trumps=all_trumps)
    p = Path(path)
    with p.open("w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]) if rows else ["hand"])
        w.writeheader()
        w.writerows(rows)
    return p
