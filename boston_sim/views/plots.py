"""Pictures of an analysis or of a batch: views only, nothing here computes a statistic that
the analysis has not already computed (except counting recommended bids across hands).

* :func:`plot_hand` — one hand: the counters won or lost per rung (empirical CDF, expectation
  dashed), the double-dummy trick distribution per trump, and the expected value by rung
  with error bars and the recommended bid marked.
* :func:`plot_batch` — a batch: how often each bid is recommended, and the expected value of
  the recommended bid across hands.

Headless: figures are built with ``matplotlib.figure.Figure`` (no pyplot, no GUI backend) and
saved through the Agg / SVG / PDF canvases by the file extension. Both functions return the
Figure so that callers and tests can inspect its axes.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..analysis.result import is_missing
from ..errors import BostonSimError
from .table import SUIT_SYMBOL

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from ..analysis import Analysis

IMAGE_FORMATS = (".png", ".svg", ".pdf")
TRICK_COUNTS = 14  # 0..13 tricks
MAX_CDF_RUNGS = 6  # more curves than this on one axes cannot be told apart
_TRUMP_COLORS = {"S": "#1f3b73", "H": "#c0392b", "D": "#e67e22", "C": "#2e7d32", "NT": "#7f7f7f"}

TITLE_PAYOFFS = "Counters won or lost per rung"
TITLE_TRICKS = "Tricks per trump (double dummy)"
TITLE_EV = "Expected value by rung (±2 SE)"
TITLE_BIDS = "Recommended bids"
TITLE_BATCH_EV = "Expected value of the recommended bid"


def check_image_path(path: str | Path) -> Path:
    """The image path, or a user error when its extension is not .png, .svg or .pdf."""
    p = Path(path)
    if p.suffix.lower() not in IMAGE_FORMATS:
        raise BostonSimError(
            f"cannot tell the image format of {str(p)!r}: use a .png, .svg or .pdf file name"
        )
    return p


def _new_figure(width: float, height: float) -> Figure:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def _save(fig: Figure, path: str | Path | None) -> None:
    if path is None:
        return
    p = check_image_path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(p, dpi=120)


def _trump_label(trump: Any) -> str:
    return "NT" if is_missing(trump) or trump == "" else SUIT_SYMBOL.get(str(trump), str(trump))


# --------------------------------------------------------------------------- one hand


def plot_hand(analysis: Analysis, path: str | Path | None = None) -> Figure:
    """Three panels for one analysed hand; saved to ``path`` (.png/.svg/.pdf) when given.

    Returns the Figure; its axes are, in order, the payoff CDFs, the trick distributions and
    the EV bars (titles :data:`TITLE_PAYOFFS`, :data:`TITLE_TRICKS`, :data:`TITLE_EV`).
    """
    if path is not None:
        check_image_path(path)
    rungs = analysis.rungs
    fig = _new_figure(15, 5.2)
    ax_pay, ax_tricks, ax_ev = fig.subplots(1, 3, width_ratios=[1.1, 1.0, 1.2])

    rec = analysis.recommended
    rec_name = ("pass" if rec == "pass" else
                analysis.rules.rung(rec).name if rec else "none (no priced rung)")
    used = rungs["samples"]
    deals = (f"{analysis.samples} samples" if (used == analysis.samples).all() else
             f"{int(used.min())}-{int(used.max())} samples per rung (searches settled early "
             "stopped sooner)")
    fig.suptitle(
        f"{analysis.hand} — {analysis.rules.name}, {analysis.seat}, {deals}, "
        f"seed {analysis.seed}; recommended: {rec_name}",
        fontsize=11,
    )
    _payoff_panel(ax_pay, analysis, rungs)
    _tricks_panel(ax_tricks, analysis)
    _ev_panel(ax_ev, analysis, rungs)
    _save(fig, path)
    return fig


def _weighted_cdf(values: Any, weights: Any) -> tuple[Any, Any]:
    """The empirical CDF of the counted deals' net results, each with its weight (a failure
    counted for several uncounted ones weighs more): sorted values and P(net <= value)."""
    import numpy as np

    order = np.argsort(np.asarray(values, dtype=float), kind="stable")
    x = np.asarray(values, dtype=float)[order]
    w = np.asarray(weights, dtype=float)[order]
    return x, np.cumsum(w) / w.sum()


def _payoff_panel(ax_pay: Axes, analysis: Analysis, rungs: Any) -> None:
    """Counters won or lost: the empirical CDF of the net result of the best priced rungs
    (the recommended one always among them), each expectation as a dashed line."""
    rec = analysis.recommended
    unit = analysis.rules.unit
    priced = rungs[[r in analysis.payoffs for r in rungs["rung"]]]
    if len(priced):
        top = priced.sort_values("ev_net", ascending=False).head(MAX_CDF_RUNGS)
        if rec in analysis.payoffs and rec not in set(top["rung"]):
            import pandas as pd

            top = pd.concat([top.head(MAX_CDF_RUNGS - 1), priced[priced["rung"] == rec]])
        top = top.sort_values("rank")
        colors = _cycle()
        for _, row in top.iterrows():
            x, y = _weighted_cdf(*analysis.payoff_samples[row["rung"]])
            c = next(colors)
            lw = 2.6 if row["rung"] == rec else 1.4
            ax_pay.step(x, y, where="post", color=c, lw=lw,
                        label=f"{row['name']} (E {row['ev_net']:+.1f})")
            ax_pay.axvline(float(row["ev_net"]), color=c, ls="--", lw=1)
        ax_pay.axvline(0, color="black", lw=0.6, ls=":")
        ax_pay.legend(fontsize=8, loc="lower right")
        shown = "" if len(priced) <= MAX_CDF_RUNGS else f" (best {len(top)} by EV)"
        ax_pay.set_title(TITLE_PAYOFFS + shown)
    else:
        ax_pay.text(0.5, 0.5, "no priced rung in this rule set", ha="center", va="center",
                    transform=ax_pay.transAxes)
        ax_pay.set_title(TITLE_PAYOFFS)
    ax_pay.set_xlabel(f"net {unit} per deal (dashed: expectation)")
    ax_pay.set_ylabel("P(net ≤ x)")
    ax_pay.set_ylim(0, 1.02)


def _tricks_panel(ax_tricks: Axes, analysis: Analysis) -> None:
    """Tricks per trump: the distribution in the lowest trick rung that offers each trump
    (trick contracts of one leader and side share their searches, so theirs are the same)."""
    import numpy as np

    table = analysis.table
    trick_rows = table[table["kind"] == "at_least"].sort_values("rank")
    seen: dict[str, Any] = {}
    for _, row in trick_rows.iterrows():
        key = _trump_label(row["trump"])
        if key not in seen:
            seen[key] = row
    if seen:
        xs = np.arange(TRICK_COUNTS)
        width = 0.8 / len(seen)
        for i, (label, row) in enumerate(seen.items()):
            dist = np.asarray(row["trick_distribution"], dtype=float)
            mean = float(np.dot(xs[: len(dist)], dist))
            ax_tricks.bar(xs[: len(dist)] - 0.4 + width * (i + 0.5), dist, width=width,
                          color=_TRUMP_COLORS.get(str(row["trump"]), None),
                          label=f"{label} (mean {mean:.2f})")
        ax_tricks.set_xticks(xs)
        ax_tricks.legend(fontsize=8, title=f"trump, as in {trick_rows.iloc[0]['name']}",
                         title_fontsize=8)
    else:
        ax_tricks.text(0.5, 0.5, "no trick contract in this ladder", ha="center",
                       va="center", transform=ax_tricks.transAxes)
    ax_tricks.set_title(TITLE_TRICKS)
    ax_tricks.set_xlabel("tricks won by the declarer")
    ax_tricks.set_ylabel("probability")


def _ev_panel(ax_ev: Axes, analysis: Analysis, rungs: Any) -> None:
    """Expected value by rung in ladder order, error bars 2 SE, the recommended bid marked."""
    import numpy as np

    rec = analysis.recommended
    unit = analysis.rules.unit
    names = [str(n) for n in rungs["name"]]
    ev = np.array([np.nan if is_missing(v) else float(v) for v in rungs["ev_net"]])
    se = np.array([np.nan if is_missing(v) else float(v) for v in rungs["ev_net_se"]])
    xs = np.arange(len(names))
    colors = ["#d4a017" if r == rec else ("#4c72b0" if v >= 0 else "#8c8c8c")
              for r, v in zip(rungs["rung"], np.nan_to_num(ev), strict=True)]
    ok = ~np.isnan(ev)
    ax_ev.bar(xs[ok], ev[ok], color=[c for c, k in zip(colors, ok, strict=True) if k])
    ax_ev.errorbar(xs[ok], ev[ok], yerr=2 * np.nan_to_num(se[ok]), fmt="none", ecolor="black",
                   capsize=3, lw=1)
    for x in xs[~ok]:
        ax_ev.text(x, 0, "unpriced", rotation=90, ha="center", va="bottom", fontsize=7)
    ax_ev.axhline(0, color="black", lw=0.6)
    ax_ev.margins(y=0.15)  # room for the "recommended" arrow above the tallest bar
    ax_ev.set_xticks(xs)
    ax_ev.set_xticklabels(names, rotation=45, ha="right", fontsize=8)
    if rec and rec != "pass":
        i = list(rungs["rung"]).index(rec)
        ax_ev.annotate("recommended", (xs[i], ev[i]), xytext=(0, 12),
                       textcoords="offset points", ha="center", fontsize=8, color="#8a6d00",
                       arrowprops={"arrowstyle": "->", "color": "#8a6d00"})
    elif rec == "pass":
        ax_ev.text(0.02, 0.95, "recommended: pass (every rung loses on average)",
                   transform=ax_ev.transAxes, fontsize=8, va="top")
    ax_ev.set_title(TITLE_EV)
    ax_ev.set_ylabel(f"expected net {unit}")


def _cycle() -> Any:
    import itertools

    return itertools.cycle(["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860"])


# --------------------------------------------------------------------------- a batch


def plot_batch(results: Any, path: str | Path | None = None) -> Figure:
    """Two panels for a batch: how often each bid is recommended (ladder order, per rule set)
    and a histogram of the recommended bid's expected value across hands.

    ``results`` is a results DataFrame (``batch.load_results``) or a path to a results file.
    Returns the Figure (titles :data:`TITLE_BIDS`, :data:`TITLE_BATCH_EV`).
    """
    import numpy as np

    from ..batch import ROW_COLUMNS, load_results, summarize_rows

    if path is not None:
        check_image_path(path)
    if isinstance(results, (str, Path)):
        results = load_results(results)
    missing = [c for c in ("hand_id", "rung", "name", "rank", "rules", "recommended", "ev_net")
               if c not in results.columns]
    if missing:
        raise BostonSimError(f"not a boston-sim results table (missing {', '.join(missing)})")
    rows = results[[c for c in ROW_COLUMNS if c in results.columns]].to_dict("records")
    summary = summarize_rows(rows)
    n_rules = len({r["rules"] for r in rows})

    # ladder order of every bid seen, per rule set; pass last
    order: dict[tuple[str, str], tuple[str, int]] = {}
    for r in rows:
        order.setdefault((r["rules"], r["rung"]), (r["name"], int(r["rank"])))
    counts: dict[tuple[str, str], int] = {}
    for s in summary:
        counts[(s["rules"], s["recommended"])] = counts.get((s["rules"], s["recommended"]), 0) + 1

    def sort_key(k: tuple[str, str]) -> tuple[str, int]:
        return (k[0], order.get(k, ("", 10_000))[1] if k[1] not in ("pass", "") else 10_001)

    keys = sorted(counts, key=sort_key)
    labels = []
    for k in keys:
        name = ("Pass" if k[1] == "pass" else "no priced rung" if k[1] == ""
                else order.get(k, (k[1], 0))[0])
        labels.append(f"{name}\n({k[0]})" if n_rules > 1 else name)

    fig = _new_figure(12, 5)
    ax_bids, ax_ev = fig.subplots(1, 2)
    fig.suptitle(f"Batch of {len(summary)} hands"
                 + (f" — {rows[0]['rules']}" if n_rules == 1 and rows else ""), fontsize=11)
    xs = np.arange(len(keys))
    ax_bids.bar(xs, [counts[k] for k in keys], color="#4c72b0")
    ax_bids.set_xticks(xs)
    ax_bids.set_xticklabels(labels, rotation=45, ha="right", fontsize=8)
    ax_bids.set_ylabel("hands")
    ax_bids.set_xlabel("recommended bid")
    from matplotlib.ticker import MaxNLocator

    ax_bids.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax_bids.set_title(TITLE_BIDS)

    evs = np.array([s["ev_net"] for s in summary if not is_missing(s["ev_net"])], dtype=float)
    if len(evs):
        ax_ev.hist(evs, bins=min(30, max(5, len(evs) // 2)), color="#55a868",
                   edgecolor="white")
        ax_ev.axvline(float(evs.mean()), color="black", ls="--", lw=1,
                      label=f"mean {evs.mean():+.1f}")
        ax_ev.legend(fontsize=8)
    else:
        ax_ev.text(0.5, 0.5, "no priced recommendation", ha="center", va="center",
                   transform=ax_ev.transAxes)
    ax_ev.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax_ev.set_title(TITLE_BATCH_EV)
    ax_ev.set_xlabel("expected net counters of the recommended bid (pass = 0)")
    ax_ev.set_ylabel("hands")
    _save(fig, path)
    return fig
