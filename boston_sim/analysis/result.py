"""The typed result of an analysis (:class:`Analysis`) and its JSON form.

Rendering lives in :mod:`boston_sim.views`; this module only holds the numbers, plus the one
helper that turns them into plain JSON values (:func:`json_value`), shared by every export.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..rules import RuleSet
from ..settings import AnalysisSettings

TABLE_COLUMNS = [
    "rung", "name", "rank", "kind", "target", "trump", "trump_class", "discard", "chosen",
    "samples", "priced", "p_make", "p_make_se", "mean_tricks", "ev_per_adversary",
    "ev_per_adversary_se", "ev_net", "ev_net_se", "p_loss_gt", "p_loss_se", "cvar5",
    "cvar5_se", "recommended", "note", "trick_distribution", "outcome_of",
]
"""The keys of every row of :attr:`Analysis.rows`, in order (also the table's columns)."""

CANDIDATE_JSON_KEYS = ("trump", "trump_class", "discard", "samples", "p_make", "p_make_se",
                       "mean_tricks", "ev_per_adversary", "ev_net", "ev_net_se", "p_loss_gt",
                       "p_loss_se", "cvar5", "cvar5_se", "chosen")
"""The keys of each entry of a rung's ``trump_candidates`` in the JSON object."""


SE_METHODS = {
    "p_make_se": "Agresti-Coull standard error (two successes and two failures added): "
                 "never 0, even when every deal agrees",
    "p_loss_se": "Agresti-Coull standard error of p_loss_gt, as p_make_se",
    "ev_per_adversary_se": "standard error of the mean over the deals",
    "ev_net_se": "standard error of the mean over the deals",
    "cvar5_se": "standard error of cvar5: a seeded bootstrap (with a third of a deal at the next "
                "worse result, so that a few tail deals do not claim nothing worse can "
                "happen) while the worst 5% hold at most 50 deals, beyond that CVaR's "
                "influence function",
    "diff_se": "standard error of diff (each row's EV on all its deals; paired on the deals "
               "both were scored on)",
    "chosen": "each rung's trump is chosen on the even deals and scored on the odd ones and "
              "vice versa (cross-fitting), so the chosen row is not biased upward; the "
              "standard errors of its EVs and CVaR also count the chance that a half chooses "
              "another trump (from the normal law of the half-sample means), those of its "
              "probabilities (Agresti-Coull) do not",
}
"""What each uncertainty of the JSON object means (its ``standard_errors`` entry)."""


def is_missing(x: Any) -> bool:
    """A cell with no value: None or a float NaN (how pandas shows a missing value)."""
    return x is None or (isinstance(x, float) and math.isnan(x))


def json_value(v: Any) -> Any:
    """A plain JSON value: numpy scalars -> Python, NaN -> None, sequences -> lists."""
    if v is None:
        return None
    if isinstance(v, (np.bool_, bool)):
        return bool(v)
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        f = float(v)
        return None if math.isnan(f) else f
    if isinstance(v, (list, tuple, np.ndarray)):
        return [json_value(x) for x in v]
    return v


@dataclass(repr=False)
class Analysis:
    """The result of :func:`boston_sim.analysis.analyze`; rendering lives in
    :mod:`boston_sim.views`.

    ``rows`` holds one dict per (rung, trump candidate) with the keys :data:`TABLE_COLUMNS`,
    ``rung_rows`` the chosen row of each rung in ladder order; ``table`` and ``rungs`` are the
    same as pandas DataFrames (built on first use, so that a report that does not need them
    does not import pandas). ``tricks[(rung_id, trump)]`` holds the per-sample tricks (trump =
    strain letter or None; -1: a failure whose count was not searched, ``fail_count_rate``,
    or a misère search past its node budget not searched to the end, ``misere_count_rate``;
    ``-2 - T``: a make of the search's lowest target ``T`` whose count was not searched,
    ``make_count_rate``, :func:`~.statistics.marked_floor`),
    ``payoffs[rung_id]`` the per-sample estimator terms of the net counters of the chosen
    trump of every priced rung (the net counters themselves when every count is known:
    their mean is the EV, their SE its SE; see :mod:`.statistics`), and
    ``payoff_samples[rung_id]`` the net counters of its deals with a known count and their
    weights: the distribution to draw. When a rung's two halves of the deals chose different
    trumps (cross-fitting, :func:`~.statistics.cross_fitted`), its chosen row, payoffs and
    payoff samples pool the two halves, while ``tricks`` keeps the labelled trump's own.
    ``pass_value``: the net the recommendation gives passing (the all-pass outcome,
    ``pass_model`` in words, ``all_pass_model`` its id), ``pass_value_se`` its SE (0 for a
    fixed value, the sampling SE for a simulated all-pass game), ``pass_samples`` the deals
    that game was played on (the searches' and more, :mod:`.all_pass`); ``outcomes[bid]``: a bid's
    two outcomes side by side (a Russian purchase, supported or alone) with the share valued
    as supported.
    ``solves``: deal-searches done; ``value_searches``:
    the exact trick counts among them. ``settings``: what the analysis was asked with.
    ``deals``: the sampled deals (``uint64[M, 4]`` hand masks by compass seat, dealer W),
    sample ``i`` being entry ``i`` of every ``tricks`` array. ``bracket``: the
    double-dummy bracket of the contending rungs (:class:`~.bracket.Bracket`) when asked for.
    """

    rules: RuleSet
    hand: str
    seat: str
    samples: int
    seed: int
    rejected: int
    recommended: str | None
    runner_up: str | None
    diff: float | None
    diff_se: float | None
    indistinguishable: bool
    reason: str
    rows: list[dict[str, Any]]
    tricks: dict[tuple[str, str | None], np.ndarray]
    payoffs: dict[str, np.ndarray]
    payoff_samples: dict[str, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    context: dict[str, Any] = field(default_factory=dict)
    partner: str = "opposite"
    turnup: str | None = None
    known: list[str] = field(default_factory=list)
    constraints: list[str] = field(default_factory=list)
    risk_threshold: float = 0.0
    precision: float | None = None
    elapsed: float = 0.0
    solves: int = 0
    value_searches: int = 0
    notes: list[str] = field(default_factory=list)
    max_time: float | None = None
    pass_value: float = 0.0
    pass_model: str = ""
    pass_value_se: float = 0.0
    pass_samples: int = 0
    all_pass_model: str = "none"
    outcomes: dict[str, dict[str, Any]] = field(default_factory=dict)
    time_limited: bool = False
    settings: AnalysisSettings | None = None
    deals: np.ndarray | None = None
    bracket: Any = None

    def __repr__(self) -> str:
        # short: the arrays and rows behind it run to tens of kilobytes
        best = next((r for r in self.rung_rows if r["rung"] == self.recommended), None)
        ev = "" if best is None or is_missing(best["ev_net"]) else \
            f", ev_net={best['ev_net']:+.1f} {self.rules.unit}"
        return (f"Analysis(hand={self.hand!r}, seat={self.seat!r}, rules={self.rules.id!r}, "
                f"samples={self.samples}, recommended={self.recommended!r}{ev})")

    def report(self, width: int | None = None) -> str:
        """The text report ``boston-sim bid`` prints (the table, the recommendation and its
        notes), plain text ``width`` columns wide (default 80)."""
        # rendering lives in views, which the analysis may not import: the package re-exports
        # it (boston_sim.report_text), so the dependency points down from the top
        from .. import report_text

        return report_text(self) if width is None else report_text(self, width)

    @property
    def unit(self) -> str:
        return self.rules.unit

    @property
    def rung_rows(self) -> list[dict[str, Any]]:
        """The chosen row (trump, discard) of every rung, in ladder order."""
        return [r for r in self.rows if r["chosen"]]

    @functools.cached_property
    def table(self) -> Any:
        """``rows`` as a pandas DataFrame."""
        import pandas as pd

        return pd.DataFrame(self.rows, columns=TABLE_COLUMNS)

    @functools.cached_property
    def rungs(self) -> Any:
        """``rung_rows`` as a pandas DataFrame."""
        return self.table[self.table["chosen"]].reset_index(drop=True)

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of ``boston-sim bid --json`` (NaN -> null)."""
        rungs = []
        for row in self.rung_rows:
            entry = {col: json_value(row[col]) for col in TABLE_COLUMNS}
            if row["rung"] in self.outcomes:
                entry["outcomes"] = {k: json_value(v) if not isinstance(v, dict)
                                     else {n: json_value(x) for n, x in v.items()}
                                     for k, v in self.outcomes[row["rung"]].items()}
            if self.bracket is not None and row["rung"] in self.bracket.rungs:
                entry["bracket"] = {f: {k: json_value(v) for k, v in st.items()}
                                    for f, st in self.bracket.rungs[row["rung"]].items()}
            entry["trump_candidates"] = [
                {k: json_value(c[k]) for k in CANDIDATE_JSON_KEYS}
                for c in self.rows if c["rung"] == row["rung"]
            ]
            rungs.append(entry)
        return {
            "rules": self.rules.id,
            "rules_name": self.rules.name,
            "unit": self.rules.unit,
            "options": {k: json_value(v) for k, v in self.rules.options.items()},
            "context": {k: json_value(v) for k, v in self.context.items()},
            "seat": self.seat,
            "hand": self.hand,
            "samples": self.samples,
            "seed": self.seed,
            "rejected": self.rejected,
            "turnup": self.turnup,
            "known": list(self.known),
            "constraints": list(self.constraints),
            "partner": self.partner,
            "risk_threshold": self.risk_threshold,
            "precision": self.precision,
            "max_time": self.max_time,
            "time_limited": self.time_limited,
            "pass_value": json_value(self.pass_value),
            "pass_value_se": json_value(self.pass_value_se),
            "pass_samples": self.pass_samples,
            "pass_model": self.pass_model,
            "all_pass_model": self.all_pass_model,
            "recommended": self.recommended,
            "runner_up": self.runner_up,
            "diff": json_value(self.diff),
            "diff_se": json_value(self.diff_se),
            "indistinguishable": self.indistinguishable,
            "reason": self.reason,
            "notes": list(self.notes),
            "standard_errors": dict(SE_METHODS),
            "rungs": rungs,
            **self._bracket_json(),
        }

    def _bracket_json(self) -> dict[str, Any]:
        """The bracket's top-level keys (absent without one; per rung: ``rungs[i].bracket``)."""
        br = self.bracket
        if br is None:
            return {}
        return {
            "bracket_changes_recommendation": bool(br.changes_recommendation),
            "bracket": {"deals": br.deals, "layouts": br.layouts,
                        "realistic_best": br.realistic_best,
                        "realistic_ev": {k: json_value(v) for k, v in br.realistic_ev.items()},
                        "realistic_ev_se": {k: json_value(v)
                                            for k, v in br.realistic_ev_se.items()},
                        "change_margin": (None if br.change_margin is None else
                                          [json_value(x) for x in br.change_margin]),
                        "skipped": dict(br.skipped), "elapsed": json_value(br.elapsed)},
        }
