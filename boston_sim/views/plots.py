"""Pictures of an analysis or of a batch: views only, nothing here computes a statistic that
the analysis has not already computed (except counting recommended bids across hands).

* :func:`plot_hand` — one hand: the expected net result of the contending rungs with error
  bars (zoomed to them, the other rungs listed), the distribution of the net result of the
  best two or three, and P(make) per trump. docs/PLOTS.md says how to read them.
* :func:`plot_batch` — a batch: one labelled row per hand (its recommended bid and that
  bid's expected net result), one panel per rule set so that units never mix.

Headless: figures are built with ``matplotlib.figure.Figure`` (no pyplot, no GUI backend) and
saved through the Agg / SVG / PDF canvases by the file extension. Both functions return the
Figure so that callers and tests can inspect its axes.

Every saved image carries its manifest (what made it, :mod:`boston_sim.manifest`) as JSON
text: a PNG text chunk ``boston_sim.manifest``, an SVG's ``dc:description``, a PDF's
``Subject`` (the only metadata keys those two formats take).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..analysis.result import is_missing
from ..errors import BostonSimError
from ..manifest import MANIFEST_KEY, manifest
from .deals import contenders
from .manifest import hand_manifest
from .table import SUIT_SYMBOL

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from ..analysis import Analysis

IMAGE_FORMATS = (".png", ".svg", ".pdf")
TRICK_COUNTS = 14  # 0..13 tricks
_TRUMP_COLORS = {"S": "#1f3b73", "H": "#c0392b", "D": "#e67e22", "C": "#2e7d32", "NT": "#7f7f7f"}

TITLE_EV = "Expected net result of the contending rungs (±2 SE)"
TITLE_OUTCOMES = "How often each net result comes"
TITLE_TRUMPS = "P(make) per trump (±2 SE)"
TITLE_BATCH = "Recommended bid per hand"
CONTENDING = 3  # rungs zoomed in on in the EV panel; the others are listed under it
OUTCOME_RUNGS = 3  # rungs whose distribution of net results is drawn
MIN_LABEL_SHARE = 0.08  # an outcome segment narrower than this carries no label
ROW_INCHES = 0.4  # height of one hand's row in a batch plot
PANEL_ROWS = 3  # a panel's title and axis, in rows
MAX_BATCH_ROWS = 40  # hands drawn in a batch plot (the first ones; the title says so)
REC_COLOR = "#d4a017"
WIN_COLOR, LOSS_COLOR = "#55a868", "#c44e52"
PASS_COLOR = "#8c8c8c"  # passing: its line in a hand's EV panel, a hand that passes in a batch


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


# where each image format keeps free text (SVG and PDF accept only their standard keys)
_MANIFEST_FIELD = {".png": MANIFEST_KEY, ".svg": "Description", ".pdf": "Subject"}


def image_metadata(suffix: str, made_by: dict[str, Any]) -> dict[str, str]:
    """The ``metadata=`` of ``savefig`` that stores the manifest ``made_by`` as JSON text in
    an image of this suffix."""
    import json

    return {_MANIFEST_FIELD[suffix.lower()]: json.dumps(made_by, sort_keys=False)}


def _save(fig: Figure, path: str | Path | None, made_by: dict[str, Any]) -> None:
    if path is None:
        return
    p = check_image_path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(p, dpi=120, metadata=image_metadata(p.suffix, made_by))



def _trump_label(trump: Any) -> str:
    return "NT" if is_missing(trump) or trump == "" else SUIT_SYMBOL.get(str(trump), str(trump))


# --------------------------------------------------------------------------- one hand


def plot_hand(analysis: Analysis, path: str | Path | None = None, *,
              made_by: dict[str, Any] | None = None) -> Figure:
    """Three panels for one analysed hand; saved to ``path`` (.png/.svg/.pdf) when given,
    with the manifest ``made_by`` (default: :func:`hand_manifest`) in its metadata.

    Returns the Figure; its axes are, in order, the EV of the contending rungs, the
    distribution of their net results and P(make) per trump (titles :data:`TITLE_EV`,
    :data:`TITLE_OUTCOMES`, :data:`TITLE_TRUMPS`).
    """
    if path is not None:
        check_image_path(path)
    a = analysis
    fig = _new_figure(16, 5.6)
    ax_ev, ax_out, ax_trump = fig.subplots(1, 3, width_ratios=[1.1, 1.2, 1.0])
    rec = a.recommended
    rec_name = ("pass" if rec == "pass" else a.rules.rung(rec).name if rec
                else "none (no priced rung)")
    used = [int(r["samples"]) for r in a.rung_rows]
    deals = (f"{a.samples} samples" if set(used) == {a.samples} else
             f"{min(used)}-{max(used)} samples per rung (searches settled early stopped "
             "sooner)")
    fig.suptitle(f"{a.hand} — {a.rules.name}, {a.seat}, {deals}, seed {a.seed}; "
                 f"recommended: {rec_name}", fontsize=11)
    top = contenders(a, CONTENDING)
    _ev_panel(ax_ev, a, top)
    _outcome_panel(ax_out, a, [r for r in top if r["rung"] in a.payoff_samples][:OUTCOME_RUNGS])
    _trump_panel(ax_trump, a, top)
    _save(fig, path, made_by or hand_manifest(a))
    return fig


def _ev_panel(ax: Axes, a: Analysis, top: list[dict[str, Any]]) -> None:
    """Horizontal bars of EV net ± 2 SE for the contending rungs (ladder order, best on
    top), a line at the value of passing; the other rungs' EVs listed underneath."""
    shown = sorted((r for r in top if not is_missing(r["ev_net"])), key=lambda r: r["rank"])
    if not shown:
        ax.text(0.5, 0.5, "no priced rung: see P(make) per trump", ha="center", va="center",
                transform=ax.transAxes)
    ys = list(range(len(shown)))[::-1]
    for y, r in zip(ys, shown, strict=True):
        color = REC_COLOR if r["recommended"] else (WIN_COLOR if r["ev_net"] >= 0
                                                    else LOSS_COLOR)
        se = 0.0 if is_missing(r["ev_net_se"]) else 2 * float(r["ev_net_se"])
        ax.barh(y, r["ev_net"], xerr=se, color=color, capsize=4, height=0.6)
        ax.annotate(f"{r['ev_net']:+.1f} ± {se:.1f}", (r["ev_net"], y), xytext=(4, 8),
                    textcoords="offset points", fontsize=8)
    ax.set_yticks(ys, [("▶ " if r["recommended"] else "") + str(r["name"]) for r in shown])
    ax.axvline(0, color="black", lw=0.8)
    pv = float(a.pass_value)
    if pv != 0:
        ax.axvline(pv, color=PASS_COLOR, lw=1, ls="--")
    ax.text(pv, 0.01, f" pass {pv:+.1f}" if pv else " pass = 0",
            transform=ax.get_xaxis_transform(), fontsize=8, va="bottom")
    others = [r for r in a.rung_rows if r["rung"] not in {x["rung"] for x in shown}]
    if others:
        listed = ", ".join(f"{r['name']} {_ev_short(r['ev_net'])}" for r in others)
        ax.set_xlabel(f"expected net {a.rules.unit}\nothers: {listed}", fontsize=8, wrap=True)
    else:
        ax.set_xlabel(f"expected net {a.rules.unit}")
    ax.margins(x=0.25)
    ax.set_title(TITLE_EV, fontsize=10)


def _ev_short(ev: Any) -> str:
    return "—" if is_missing(ev) else f"{ev:+.0f}"


def _outcome_shares(values: Any, weights: Any) -> list[tuple[float, float]]:
    """(net result, share of deals) for each distinct result, lowest first."""
    import numpy as np

    v = np.round(np.asarray(values, dtype=float), 6)
    w = np.asarray(weights, dtype=float)
    out = [(float(x), float(w[v == x].sum() / w.sum())) for x in np.unique(v)]
    return out


def _outcome_panel(ax: Axes, a: Analysis, rows: list[dict[str, Any]]) -> None:
    """One stacked bar per rung across 0..1: each segment a net result, as wide as its share
    of the deals, green for a win and red for a loss, labelled when wide enough."""
    if not rows:
        ax.text(0.5, 0.5, "no priced rung", ha="center", va="center", transform=ax.transAxes)
    for y, r in enumerate(reversed(rows)):
        left = 0.0
        for value, share in _outcome_shares(*a.payoff_samples[r["rung"]]):
            ax.barh(y, share, left=left, color=WIN_COLOR if value >= 0 else LOSS_COLOR,
                    edgecolor="white", height=0.6)
            if share >= MIN_LABEL_SHARE:
                ax.text(left + share / 2, y, f"{value:+g}\n{share:.0%}", ha="center",
                        va="center", fontsize=7, color="white")
            left += share
    ax.set_yticks(range(len(rows)), [str(r["name"]) for r in reversed(rows)])
    ax.set_xlim(0, 1)
    ax.set_xlabel(f"share of the deals (segments: net {a.rules.unit}, green won, red lost)",
                  fontsize=8)
    ax.set_title(TITLE_OUTCOMES, fontsize=10)


def _trump_panel(ax: Axes, a: Analysis, top: list[dict[str, Any]]) -> None:
    """P(make) of every trump candidate of the contending rungs, grouped by rung; the chosen
    trump outlined."""
    import numpy as np

    rungs = sorted(top, key=lambda r: r["rank"])
    cands = {r["rung"]: [c for c in a.rows if c["rung"] == r["rung"]] for r in rungs}
    width = 0.8 / max(1, max(len(c) for c in cands.values()))
    labels: dict[str, Any] = {}
    for x, r in enumerate(rungs):
        group = cands[r["rung"]]
        for i, c in enumerate(group):
            label = _trump_label(c["trump"])
            pos = x - 0.4 + width * (i + 0.5)
            bar = ax.bar(pos, c["p_make"], width=width * 0.9,
                         color=_TRUMP_COLORS.get(str(c["trump"]), "#7f7f7f"),
                         edgecolor="black" if c["chosen"] else "none",
                         yerr=2 * float(c["p_make_se"]), capsize=2,
                         label=None if label in labels else label)
            labels.setdefault(label, bar)
    ax.set_xticks(np.arange(len(rungs)), [str(r["name"]) for r in rungs], rotation=30,
                  ha="right", fontsize=8)
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("P(make)")
    if labels:
        ax.legend(fontsize=8, title="trump (outlined: chosen)", title_fontsize=8,
                  loc="upper right")
    ax.set_title(TITLE_TRUMPS, fontsize=10)


# --------------------------------------------------------------------------- a batch


def _unit_of(rules_id: str) -> str:
    from ..rules import load_rules

    try:
        return load_rules(rules_id).unit
    except (BostonSimError, OSError):
        return "counters"


def plot_batch(results: Any, path: str | Path | None = None, *,
               made_by: dict[str, Any] | None = None) -> Figure:
    """One panel per rule set of a batch (its own unit), one labelled row per hand: the
    recommended bid and its expected net result ± 2 SE of the difference to the runner-up.

    ``results`` is a results DataFrame (``batch.load_results``) or a path to a results file.
    Returns the Figure (panel titles start with :data:`TITLE_BATCH`). A saved image carries
    ``made_by`` (default: :func:`batch_plot_manifest` of a results path).
    """
    if made_by is None:
        made_by = batch_plot_manifest(results if isinstance(results, (str, Path)) else None)
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
    by_rules: dict[str, list[dict[str, Any]]] = {}
    for s in summary:
        by_rules.setdefault(s["rules"], []).append(s)
    drawn = {k: v[:MAX_BATCH_ROWS] for k, v in by_rules.items()}
    sizes = [len(v) + PANEL_ROWS for v in drawn.values()]  # axis and title take room too
    fig = _new_figure(11, ROW_INCHES * sum(sizes) + 0.6)
    axes = fig.subplots(len(drawn), 1, squeeze=False, height_ratios=sizes)[:, 0]
    cut = sum(len(v) for v in by_rules.values()) - sum(len(v) for v in drawn.values())
    fig.suptitle(f"Batch of {len(summary)} hands" + (f" (the first {MAX_BATCH_ROWS} of each "
                 f"rule set drawn; {cut} more in the results)" if cut else ""), fontsize=11)
    for ax, (rules_id, hands) in zip(axes, drawn.items(), strict=True):
        _batch_panel(ax, rules_id, hands)
    _save(fig, path, made_by)
    return fig


def batch_plot_manifest(results_path: str | Path | None,
                        started: str | None = None) -> dict[str, Any]:
    """The manifest of a batch plot: the plot's own, with the manifest of the results it
    draws (``results_manifest``: from their ``meta.json``, or a Parquet file's metadata)."""
    out = manifest(command="plot", started=started, options={
        "results": None if results_path is None else str(results_path)})
    out["results_manifest"] = None if results_path is None else _results_manifest(
        Path(results_path))
    return out


def _results_manifest(path: Path) -> dict[str, Any] | None:
    """What made a results file, or None when nothing says."""
    import json

    from ..batch import output_paths, read_manifest

    if path.suffix.lower() == ".parquet" and path.is_file():
        try:
            found = read_manifest(path)
        except (OSError, ValueError, ImportError):
            found = None
        if found is not None:
            return found
    try:
        meta = json.loads(output_paths(path, path, None).meta.read_text(encoding="utf-8"))
    except (OSError, ValueError, BostonSimError):
        return None
    return meta.get("manifest") if isinstance(meta, dict) else None


def _batch_panel(ax: Axes, rules_id: str, hands: list[dict[str, Any]]) -> None:
    """The hands of one rule set, top to bottom in file order."""
    ys = list(range(len(hands)))[::-1]
    for y, h in zip(ys, hands, strict=True):
        ev = 0.0 if is_missing(h["ev_net"]) else float(h["ev_net"])
        color = PASS_COLOR if h["recommended"] in ("pass", "") else (
            WIN_COLOR if ev >= 0 else LOSS_COLOR)
        ax.barh(y, ev, color=color, height=0.6)
        bid = "pass" if h["recommended"] == "pass" else h["recommended_name"] or "—"
        ax.annotate(f"{bid} {ev:+.1f}", (ev, y), xytext=(4 if ev >= 0 else -4, 0),
                    textcoords="offset points", va="center", fontsize=8,
                    ha="left" if ev >= 0 else "right")
    ax.set_yticks(ys, [f"{h['label'] or h['hand']} ({h['seat']})" for h in hands], fontsize=8)
    ax.axvline(0, color="black", lw=0.8)
    ax.margins(x=0.3)
    if not any(not is_missing(h["ev_net"]) and h["ev_net"] for h in hands):
        ax.set_xlim(-1, 1)  # every hand passes: a readable axis around 0
    ax.set_xlabel(f"expected net {_unit_of(rules_id)} of the recommended bid "
                  "(a pass: the value of passing)")
    ax.set_title(f"{TITLE_BATCH} — {rules_id}", fontsize=10)
