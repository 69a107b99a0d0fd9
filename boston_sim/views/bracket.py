"""The double-dummy bracket as text: one block per contending rung, 80 columns."""

from __future__ import annotations

import math
from typing import Any

from ..analysis.bracket import FIGURE_LABELS, FIGURES

NOISE_SES = 2.0  # a change of recommendation by less than this many SEs is called noise


def _pm(value: float, err: float, digits: int, sign: bool = False) -> str:
    if value is None or math.isnan(value):
        return "-"
    fmt = f"{{:{'+' if sign else ''}.{digits}f}}"
    err_txt = "?" if err is None or math.isnan(err) else f"{err:.{digits}f}"
    return f"{fmt.format(value)} ± {err_txt}"


def bracket_lines(analysis: Any) -> list[str]:
    """The bracket's lines (none when the analysis has no bracket)."""
    br = getattr(analysis, "bracket", None)
    if br is None:
        return []
    unit = analysis.rules.unit
    lines = ["", f"Double-dummy bracket: {br.deals} deals per rung, {br.layouts} layouts per "
             "single-dummy decision"]
    if not br.rungs:
        lines.append("no priced contending rung to replay")
    head = f"  {'':24}{'P(make)':>15}{'EV net':>17}{'vs double-dummy':>19}"
    for rid, figs in br.rungs.items():
        lines.append(f"{br.names[rid]} (EV net in {unit})")
        lines.append(head)
        for f in FIGURES:
            st = figs[f]
            diff = "" if f == "double_dummy" else _pm(st["ev_diff"], st["ev_diff_se"], 1, True)
            lines.append(f"  {FIGURE_LABELS[f]:24}{_pm(st['p_make'], st['p_make_se'], 2):>15}"
                         f"{_pm(st['ev_net'], st['ev_net_se'], 1, True):>17}{diff:>19}")
    for rid, why in br.skipped.items():
        lines.append(f"{analysis.rules.rung(rid).name}: not replayed ({why})")
    if br.realistic_ev:
        real = ", ".join(f"{br.names[r]} {v:+.1f} ± {br.realistic_ev_se[r]:.1f}"
                         for r, v in br.realistic_ev.items())
        best = "pass" if br.realistic_best == "pass" else br.names[br.realistic_best]
        verdict = ("would change the recommendation to " + best if br.changes_recommendation
                   else "would not change the recommendation")
        if br.change_margin is not None:
            d, se = br.change_margin
            noise = " (within the noise)" if d < NOISE_SES * se else ""
            verdict += f", ahead by {d:.1f} ± {se:.1f}{noise}"
        lines.append(f"Realistic EV (double-dummy EV + the both-single-dummy shift): {real} "
                     f"{unit}; single-dummy play {verdict}.")
    return lines
