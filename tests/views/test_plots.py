"""Plots: non-empty image files of the right type, with the expected axes, titles and labels
(the rung names come from the rule set's ladder, docs/RULES.md), for one hand and for a batch,
through the library and through ``boston-sim plot``."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from boston_sim.batch import load_results, run_batch
from boston_sim.cli import app
from boston_sim.views import plots

QUICK = Path(__file__).resolve().parent.parent / "data" / "quick_rules.toml"  # Solo + Misère only
MAGIC = {".png": b"\x89PNG\r\n\x1a\n", ".pdf": b"%PDF", ".svg": b"<?xml"}


@pytest.fixture(scope="module")
def analysis():  # type: ignore[no-untyped-def]
    from boston_sim.analysis import analyze

    return analyze("AKQJT98.AK.A2.32", rules=str(QUICK), turnup="H2", samples=8,
                   seed=4)


@pytest.mark.parametrize("ext", [".png", ".svg", ".pdf"])
def test_plot_hand_writes_each_format(tmp_path: Path, analysis, ext: str) -> None:  # type: ignore
    out = tmp_path / f"hand{ext}"
    plots.plot_hand(analysis, out)
    data = out.read_bytes()
    assert len(data) > 1000 and data.startswith(MAGIC[ext])


def test_plot_hand_axes_titles_and_labels(analysis) -> None:  # type: ignore[no-untyped-def]
    fig = plots.plot_hand(analysis)
    ev, outcomes, trumps = fig.axes[:3]
    assert ev.get_title() == plots.TITLE_EV
    assert outcomes.get_title() == plots.TITLE_OUTCOMES
    assert trumps.get_title() == plots.TITLE_TRUMPS
    assert "white counters" in ev.get_xlabel()
    # the recommended bid is marked on the EV axis
    labels = [t.get_text() for t in ev.get_yticklabels()]
    if analysis.recommended not in (None, "pass"):
        name = analysis.rules.rung(analysis.recommended).name
        assert f"▶ {name}" in labels
    # each outcome row is the whole of the deals: its segments add up to 1
    rows = len(outcomes.get_yticklabels())
    assert rows >= 1 and abs(sum(p.get_width() for p in outcomes.patches) - rows) < 1e-9
    # the trump panel's bars are the candidates' P(make)
    heights = sorted(round(p.get_height(), 9) for p in trumps.patches)
    assert all(0 <= h <= 1 for h in heights) and heights
    assert "AKQJT98.AK.A2.32" in fig.get_suptitle()


def test_the_ev_panel_zooms_on_the_contending_rungs() -> None:
    """Grand Slam's -900 does not squash Boston against Six: only the contending rungs are
    drawn, the others are listed under the axis."""
    from boston_sim.analysis import analyze

    a = analyze("KQJT9.AK.QJ2.432", samples=8, seed=1)
    ev = plots.plot_hand(a).axes[0]
    drawn = [t.get_text().removeprefix("▶ ") for t in ev.get_yticklabels()]
    assert len(drawn) == plots.CONTENDING and "Grand Slam" not in drawn
    assert ev.get_xlim()[0] > -200
    assert "Grand Slam" in ev.get_xlabel() and "others:" in ev.get_xlabel()


def test_the_ev_panel_draws_passing_at_its_value() -> None:
    """Classic Boston values a pass by the all-pass game: the line and its label sit at
    that value, not at 0 (a bid left of it is worse than passing)."""
    from boston_sim.analysis import analyze

    a = analyze("KQJT9.AK.QJ2.432", samples=8, seed=1)
    assert a.pass_value < -10
    ev = plots.plot_hand(a).axes[0]
    xs = {round(float(line.get_xdata()[0]), 6) for line in ev.get_lines()}
    assert round(a.pass_value, 6) in xs and 0.0 in xs
    assert any(t.get_text() == f" pass {a.pass_value:+.1f}" for t in ev.texts)
    fixed = analyze("KQJT9.AK.QJ2.432", samples=8, seed=1, options={"all_pass": "none"})
    assert any(t.get_text() == " pass = 0" for t in plots.plot_hand(fixed).axes[0].texts)


def test_plot_batch_has_one_row_per_hand(tmp_path: Path) -> None:
    hands = tmp_path / "h.csv"
    hands.write_text("hand,seat,rules,turnup\n"
                     f"AKQJT98.AK.A2.32,eldest,{QUICK},H2\nKQ.AJ975.K84.Q63,second,{QUICK},H2\n"
                     f"AKQ.AKQ.AKQ.AKQJ,third,{QUICK},H2\n")
    s = run_batch(hands, tmp_path / "r.csv", workers=1, samples=4, seed=2)
    assert s.failed == 0
    out = tmp_path / "batch.png"
    fig = plots.plot_batch(load_results(s.results), out)
    assert out.read_bytes().startswith(MAGIC[".png"])
    (ax,) = fig.axes  # one rule set: one panel, in its own unit
    assert ax.get_title().startswith(plots.TITLE_BATCH)
    assert len(ax.patches) == 3
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels[0].endswith("(eldest)") and labels[-1].endswith("(third)")
    assert "white counters" in ax.get_xlabel()


def test_plot_batch_keeps_rule_sets_apart(tmp_path: Path) -> None:
    hands = tmp_path / "h.txt"
    hands.write_text(f"AKQJT98.AK.A2.32 | eldest | a | {QUICK} | H2\n"
                     "AKQJT98.AK.A2.32 | eldest | b | boston_modern\n")
    s = run_batch(hands, tmp_path / "r.csv", workers=1, samples=4, seed=2)
    fig = plots.plot_batch(load_results(s.results))
    assert len(fig.axes) == 2  # fiches and white counters never share an axis
    assert {("fiches" in ax.get_xlabel()) for ax in fig.axes} == {True, False}


def test_cli_plot_results_and_hand(tmp_path: Path) -> None:
    hands = tmp_path / "h.txt"
    hands.write_text("AKQJT98.AK.A2.32 | eldest\nKQ.AJ975.K84.Q63 | second\n")
    s = run_batch(hands, tmp_path / "r.jsonl", workers=1, samples=4, seed=2, rules=str(QUICK),
                  turnup="H2")
    runner = CliRunner()
    res = runner.invoke(app, ["plot", s.results, "--out", str(tmp_path / "b.svg")])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "b.svg").read_bytes().startswith(MAGIC[".svg"])
    res = runner.invoke(app, ["plot", "AKQJT98.AK.A2.32", "--rules", "boston_modern",
                              "--samples", "2", "--out", str(tmp_path / "h.pdf")])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "h.pdf").read_bytes().startswith(MAGIC[".pdf"])
    for bad in (["plot", "KQ.AJ975.K84.Q63", "--out", str(tmp_path / "h.gif")],
                ["plot", "not a hand", "--out", str(tmp_path / "h.png")],
                ["plot", str(tmp_path / "missing.csv")]):
        res = runner.invoke(app, bad)
        assert res.exit_code == 2, (bad, res.output)
        assert res.output.startswith("error:")


def test_plot_title_counts_the_samples_each_rung_used(analysis) -> None:  # type: ignore
    """A search settled early uses fewer deals than were drawn: the title gives the range."""
    import copy

    assert "8 samples, seed 4" in plots.plot_hand(analysis).get_suptitle()
    uneven = copy.copy(analysis)
    uneven.rows = [dict(r) for r in analysis.rows]
    next(r for r in uneven.rows if r["chosen"])["samples"] = 3
    assert "3-8 samples per rung" in plots.plot_hand(uneven).get_suptitle()
