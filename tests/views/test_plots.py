"""Plots: non-empty image files of the right type, with the expected axes, titles and labels
(the rung names come from the rule set's ladder, docs/RULES.md), for one hand and for a batch,
through the library and through ``boston-sim plot``."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from boston_sim.batch import load_results, run_batch
from boston_sim.cli import app
from boston_sim.rules import load_rules
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
    pay, tricks, ev = fig.axes[:3]
    assert pay.get_title().startswith(plots.TITLE_PAYOFFS)
    assert tricks.get_title() == plots.TITLE_TRICKS
    assert ev.get_title() == plots.TITLE_EV
    # the EV axis is labelled with the seed's rung names, in ladder order (docs/RULES.md §2.3)
    ladder = [r.name for r in load_rules(str(QUICK)).rungs]
    assert [t.get_text() for t in ev.get_xticklabels()] == ladder
    assert "white counters" in ev.get_ylabel()
    assert tricks.get_xlabel() == "tricks won by the declarer"
    # one CDF per priced rung shown, and each with its expectation line
    n_curves = len([ln for ln in pay.get_lines() if ln.get_linestyle() == "-"])
    n_means = len([ln for ln in pay.get_lines() if ln.get_linestyle() == "--"])
    assert n_curves == n_means == min(plots.MAX_CDF_RUNGS, len(analysis.payoffs))
    # the recommended bid is marked on the EV axis
    texts = [t.get_text() for t in ev.texts]
    if analysis.recommended not in (None, "pass"):
        assert "recommended" in texts
    else:
        assert any("pass" in t for t in texts)
    # the bars of the trick panel are probabilities: each trump's bars sum to 1
    heights = [p.get_height() for p in tricks.patches]
    n_trumps = len(tricks.get_legend().get_texts())
    assert n_trumps >= 1 and abs(sum(heights) - n_trumps) < 1e-9
    assert "AKQJT98.AK.A2.32" in fig.get_suptitle()


def test_plot_batch_counts_every_hand(tmp_path: Path) -> None:
    hands = tmp_path / "h.csv"
    hands.write_text("hand,seat,rules,turnup\n"
                     f"AKQJT98.AK.A2.32,eldest,{QUICK},H2\nKQ.AJ975.K84.Q63,second,{QUICK},H2\n"
                     f"AKQ.AKQ.AKQ.AKQJ,third,{QUICK},H2\n")
    s = run_batch(hands, tmp_path / "r.csv", workers=1, samples=4, seed=2)
    assert s.failed == 0
    out = tmp_path / "batch.png"
    fig = plots.plot_batch(load_results(s.results), out)
    assert out.read_bytes().startswith(MAGIC[".png"])
    bids, ev = fig.axes[:2]
    assert bids.get_title() == plots.TITLE_BIDS and ev.get_title() == plots.TITLE_BATCH_EV
    assert sum(p.get_height() for p in bids.patches) == 3  # three hands, one bid each
    # one rule set: the title names it and the ticks are plain bid names
    rules_name = load_results(s.results)["rules"].iloc[0]
    assert rules_name in fig.get_suptitle()
    assert not any("(" in t.get_text() for t in bids.get_xticklabels())
    assert sum(p.get_height() for p in ev.patches) <= 3


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
    uneven.rungs = analysis.rungs.copy()
    uneven.rungs.loc[uneven.rungs.index[0], "samples"] = 3
    assert "3-8 samples per rung" in plots.plot_hand(uneven).get_suptitle()
