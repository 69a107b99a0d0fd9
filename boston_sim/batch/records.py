"""What a batch reads and writes: the formats, the columns of each output table, and the
small records passed between the readers, the workers and the run."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

INPUT_FORMATS = ("text", "csv", "jsonl", "pbn")
OUTPUT_FORMATS = ("csv", "parquet", "jsonl")
EXT_TO_INPUT = {
    ".txt": "text", ".text": "text", ".hands": "text", ".csv": "csv", ".jsonl": "jsonl",
    ".ndjson": "jsonl", ".json": "jsonl", ".pbn": "pbn",
}
EXT_TO_OUTPUT = {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl", ".parquet": "parquet"}
OUTPUT_EXT = {"csv": ".csv", "jsonl": ".jsonl", "parquet": ".parquet"}

ROW_SCHEMA_VERSION = 1
BRACKET_FIGURES = ("double_dummy", "blind_lead", "declarer_single_dummy",
                   "defence_single_dummy", "single_dummy")  # analysis.bracket.FIGURES
"""Version of the result rows (docs/schema/batch_row.schema.json), recorded in every batch
output's manifest; raised when a column changes meaning or goes away (a new column keeps it)."""

# One row per hand x rung. The type of each column is fixed so that CSV, JSON Lines and
# Parquet read back to the same values.
ROW_SCHEMA: dict[str, type] = {
    "hand_id": int,
    "label": str,
    "rules": str,
    "unit": str,
    "seat": str,
    "hand": str,
    "rung": str,
    "name": str,
    "rank": int,
    "kind": str,
    "target": int,
    "trump": str,
    "p_make": float,
    "p_make_se": float,
    "mean_tricks": float,
    "ev_per_adversary": float,
    "ev_per_adversary_se": float,
    "ev_net": float,
    "ev_net_se": float,
    "p_loss_gt": float,
    "cvar5": float,
    "recommended": bool,
    # per-hand facts repeated on every row, so that the summary can be rebuilt from the rows
    # alone and a hand's row set can be checked for completeness on resume
    "n_rungs": int,
    "samples": int,
    "seed": int,
    "runner_up": str,
    "diff_se": float,
    "time_limited": bool,
    "pass_value": float,  # what passing is worth (the all-pass game played out, or fixed)
    "pass_value_se": float,
    # batch --bracket: the rung's figures under each play model (NaN where not replayed)
    **{f"bracket_{f}_{k}": float for f in BRACKET_FIGURES for k in ("p_make", "ev_net")},
    "bracket_changes_recommendation": str,  # "yes" / "no", empty without --bracket
}
ROW_COLUMNS = list(ROW_SCHEMA)

SUMMARY_SCHEMA: dict[str, type] = {
    "hand_id": int,
    "label": str,
    "rules": str,
    "unit": str,
    "seat": str,
    "hand": str,
    "recommended": str,
    "recommended_name": str,
    "trump": str,
    "p_make": float,
    "ev_net": float,
    "runner_up": str,
    "runner_up_name": str,
    "runner_up_ev_net": float,
    "diff_se": float,
    "samples": int,
    "seed": int,
}
SUMMARY_COLUMNS = list(SUMMARY_SCHEMA)
ERROR_COLUMNS = ["line", "hand_id", "reason", "text"]


@dataclass(frozen=True)
class BadRow:
    """An input row that could not be analysed, with its line number and a one-line reason."""

    line: int
    reason: str
    text: str = ""
    index: int | None = None
    hands: int = 1  # the positions it stands for (a PBN board read for every seat: 4)


@dataclass(frozen=True)
class HandResult:
    """What a worker sends back: the hand's rows, or the reason it failed."""

    index: int
    line: int
    rows: list[dict[str, Any]] | None = None
    error: str | None = None


@dataclass
class BatchSummary:
    """Counts and paths of a finished (or interrupted) run."""

    hands: int = 0  # hands read from the input (good and bad)
    done: int = 0  # hands with results in the output (including resumed ones)
    analysed: int = 0  # hands analysed in this run
    skipped: int = 0  # hands already in the output (--resume)
    failed: int = 0  # hands of bad rows + hands whose analysis failed
    results: str = ""
    summary: str = ""
    errors: str = ""
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)
