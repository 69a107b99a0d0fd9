"""Batch analysis: every input format is read, bad rows are reported and never stop the batch,
results match a direct call of the real ``analyze`` with the documented per-hand seed, and
CSV, JSON Lines and Parquet hold the same values.

Kept fast: a two-rung test ladder (tests/data/quick_rules.toml), 4 samples, a handful of hands."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from boston_sim.batch import (
    ROW_COLUMNS,
    load_results,
    output_paths,
    read_jobs,
    run_batch,
)
from boston_sim.cli import app
from boston_sim.settings import AnalysisSettings

HANDS = Path(__file__).resolve().parents[2] / "data" / "hands"
QUICK = Path(__file__).resolve().parents[1] / "data" / "quick_rules.toml"  # Solo + Misère only
FAST = {"rules": str(QUICK), "turnup": "H2", "samples": 4}
RUNNER = CliRunner()


def _seed(run_seed: int, index: int) -> int:
    # the documented derivation (docs/ARCHITECTURE.md), written out independently
    return int(np.random.SeedSequence([run_seed, index]).generate_state(1)[0])


# --------------------------------------------------------------------------- reading


EXPECTED_EXAMPLES = [
    # hand (PBN dotted), seat, label, rules, turnup -- as written in data/hands/examples.*
    ("AKQJT98.AK.A2.32", "eldest", "strong spades", "boston_foster", None),
    ("5432.432.432.432", "eldest", "misere hand", "boston_foster", None),
    ("AJ64.KT3.Q852.K7", "dealer", "balanced", "boston_foster", None),
    ("AKQJT9876.AKQ.A.", "eldest", "slam hand", "boston_foster", None),
    ("KQ.AJ975.K84.Q63", "second", "hearts, modern rules", "boston_modern", None),
    ("KQ.AJ975.K84.Q63", "third", "hearts, solo whist", "solo_whist_foster", "H2"),
]


@pytest.mark.parametrize("ext,first_line", [("txt", 7), ("csv", 2), ("jsonl", 1)])
def test_example_files_are_read(ext: str, first_line: int) -> None:
    jobs, bad, n = read_jobs(HANDS / f"examples.{ext}", AnalysisSettings(seed=5))
    assert bad == [] and n == len(EXPECTED_EXAMPLES)
    got = [(j.hand, j.settings.seat, j.label, j.settings.rules, j.settings.turnup)
           for j in jobs]
    assert got == EXPECTED_EXAMPLES
    assert [j.index for j in jobs] == list(range(n))
    assert [j.settings.seed for j in jobs] == [_seed(5, i) for i in range(n)]
    assert jobs[0].line == first_line and jobs[1].line == first_line + 1


def test_pbn_every_seat_in_playing_order() -> None:
    jobs, bad, n = read_jobs(HANDS / "examples.pbn")
    assert bad == [] and n == 8
    # board 1: dealer W, so N (the dealer's left) is eldest; board 2: dealer N, so E is eldest
    assert [(j.label, j.settings.seat) for j in jobs] == [
        ("board 1 N", "eldest"), ("board 1 E", "second"), ("board 1 S", "third"),
        ("board 1 W", "dealer"), ("board 2 N", "dealer"), ("board 2 E", "eldest"),
        ("board 2 S", "second"), ("board 2 W", "third"),
    ]
    assert jobs[0].hand == "AKQJT98.AK.A2.32" and jobs[5].hand == "5432.432.432.432"
    assert jobs[0].line == 8 and jobs[4].line == 13


def test_pbn_named_seat_missing_dealer_and_russian_direction(tmp_path: Path) -> None:
    f = tmp_path / "d.pbn"
    f.write_text('[Event "x"]\n[Deal "N:AKQJT98.AK.A2.32 73.9864.J863.A75 64.JT5.KQ4.KQ964 '
                 '52.Q732.T975.JT8"]\n\n[Event "y"]\n[Dealer "N"]\n'
                 '[Deal "E:5432.432.432.432 AK8.KQT75.5.KJT9 QJ976.A98.KJ.765 '
                 'T.J6.AQT9876.AQ8"]\n')
    jobs, bad, n = read_jobs(f, pbn_seat="E")
    assert bad == [] and n == 2
    # no [Dealer]: the dealer is taken to be W (documented), so E is second
    assert (jobs[0].hand, jobs[0].settings.seat) == ("73.9864.J863.A75", "second")
    assert (jobs[1].hand, jobs[1].settings.seat) == ("5432.432.432.432", "eldest")
    # Russian Boston plays to the right (docs/RULES.md A-41): eldest is the dealer's right
    jobs, bad, _ = read_jobs(f, AnalysisSettings(rules="boston_russian"), pbn_seat="all")
    # dealer N: eldest W, second S, third E (play runs N -> W -> S -> E)
    assert [j.settings.seat for j in jobs[4:]] == ["dealer", "third", "second", "eldest"]  # N E S W


def test_input_format_override_and_unknown_extension(tmp_path: Path) -> None:
    f = tmp_path / "hands.dat"
    f.write_text("AKQJT98.AK.A2.32\n")
    with pytest.raises(ValueError, match="--input-format"):
        read_jobs(f)
    jobs, bad, _ = read_jobs(f, input_format="text")
    assert [j.hand for j in jobs] == ["AKQJT98.AK.A2.32"] and bad == []


# --------------------------------------------------------------------------- bad rows


def _errors(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_good_and_malformed_text_rows(tmp_path: Path) -> None:
    f = tmp_path / "mixed.txt"
    f.write_text(
        "# a comment, then a blank line\n"
        "\n"
        "AKQJT98.AK.A2.32 | eldest | good one\n"       # line 3: good
        "AKQJT98.AK.A2.3 | eldest | too short\n"      # line 4: 12 cards
        "ZZZ.AK.A2.32\n"                              # line 5: not a hand
        "KQ.AJ975.K84.Q63 | fourth-ish\n"             # line 6: unknown seat
        "KQ.AJ975.K84.Q63 | | | no_such_rules\n"      # line 7: unknown rule set
        "S:AKQJT98 H:AK D:A2 C:32 | eldest | good two\n"  # line 8: good
        "a | b | c | d | e | f\n"                     # line 9: too many fields
        "5432.432.432.432 | second | | | SA\n"        # line 10: good (turn-up SA)
        "AKQJT98.AK.A2.32 | dealer | | | H2\n",       # line 11: dealer's turn-up not in hand
        encoding="utf-8",
    )
    out = tmp_path / "r.csv"
    res = RUNNER.invoke(app, ["batch", str(f), "--out", str(out), "--rules", str(QUICK),
                              "--turnup", "H2", "--samples", "4", "--workers", "1",
                              "--no-progress"])
    assert res.exit_code == 1, res.output
    errs = _errors(tmp_path / "r.errors.csv")
    assert [int(e["line"]) for e in errs] == [4, 5, 6, 7, 9, 11]
    reasons = {int(e["line"]): e["reason"] for e in errs}
    assert "12" in reasons[4] and "13" in reasons[4]
    assert "seat" in reasons[6]
    assert "no_such_rules" in reasons[7]
    assert "fields" in reasons[9]
    assert "turn-up" in reasons[11] or "turnup" in reasons[11]
    # hand ids are positions among the rows (comments and blank lines do not count)
    assert [int(e["hand_id"]) for e in errs] == [1, 2, 3, 4, 6, 8]
    df = load_results(out)
    assert sorted(set(df["hand_id"])) == [0, 5, 7]
    n_rungs = 2  # the quick test ladder: Solo, Misère
    assert (df.groupby("hand_id").size() == n_rungs).all()
    assert "6 failed" in res.output


def test_good_and_malformed_csv_and_jsonl_rows(tmp_path: Path) -> None:
    c = tmp_path / "m.csv"
    c.write_text("hand,seat,label\nAKQJT98.AK.A2.32,eldest,ok\nAKQJT98.AK.A2.3X,eldest,bad\n"
                 "KQJT9.AK.QJ2.432,third,ok2\n1,2,3,4\n", encoding="utf-8")
    j = tmp_path / "m.jsonl"
    j.write_text('{"hand": "AKQJT98.AK.A2.32"}\n{"hand": 5}\nnot json\n'
                 '{"seat": "eldest"}\n{"hand": "KQ.AJ975.K84.Q63", "seat": "second"}\n',
                 encoding="utf-8")
    for f, bad_lines, good in ((c, [3, 5], 2), (j, [2, 3, 4], 2)):
        s = run_batch(f, tmp_path / f"{f.stem}{f.suffix}.out.csv", **FAST, workers=1)
        errs = _errors(Path(s.errors))
        assert [int(e["line"]) for e in errs] == bad_lines
        assert (s.failed, s.done, s.analysed) == (len(bad_lines), good, good)


def test_all_good_exit_0_and_usage_errors_exit_2(tmp_path: Path) -> None:
    f = tmp_path / "ok.txt"
    f.write_text("AKQJT98.AK.A2.32\n")
    args = ["--samples", "4", "--workers", "1", "--no-progress", "--turnup", "H2"]
    ok = RUNNER.invoke(app, ["batch", str(f), "--rules", str(QUICK), *args])
    assert ok.exit_code == 0, ok.output
    assert (tmp_path / "ok.results.csv").exists() and (tmp_path / "ok.results.summary.csv").exists()
    usage = [
        ["batch", str(tmp_path / "missing.txt"), *args],
        ["batch", str(f), "--format", "xlsx", *args],
        ["batch", str(f), "--rules", "no_such_rules", *args],
        ["batch", str(f), "--seat", "north-ish", *args],
        ["batch", str(f), "--pbn-seat", "X", *args],
        ["batch", str(f), "--input-format", "yaml", *args],
    ]
    nohand = tmp_path / "nohand.csv"
    nohand.write_text("cards,seat\nAKQJT98.AK.A2.32,eldest\n")
    usage.append(["batch", str(nohand), *args])
    # an output whose format its extension does not say, or contradicts: refused before any
    # work (a later read, plot or --resume, knows the format by the extension only)
    outs = [["--out", str(tmp_path / "r.csv"), "--format", "parquet"],
            ["--out", str(tmp_path / "r.dat"), "--format", "csv"],
            ["--out", str(tmp_path / "r"), "--format", "jsonl"]]
    usage += [["batch", str(f), *o, *args] for o in outs]
    for cmd in usage:
        res = RUNNER.invoke(app, cmd)
        assert res.exit_code == 2, (cmd, res.output)
        assert "error:" in res.output and "Traceback" not in res.output
    assert not list(tmp_path.glob("r*")), "nothing written for a refused output"


# --------------------------------------------------------------------------- results


def test_rows_match_a_direct_analysis_with_the_documented_seed(tmp_path: Path) -> None:
    from boston_sim.analysis import analyze

    f = tmp_path / "two.txt"
    f.write_text("AKQJT98.AK.A2.32 | eldest | a\nKQ.AJ975.K84.Q63 | second | b\n")
    s = run_batch(f, tmp_path / "two.csv", seed=11, workers=1, **FAST)
    assert s.failed == 0
    df = load_results(s.results)
    for i, (hand, seat) in enumerate([("AKQJT98.AK.A2.32", "eldest"),
                                       ("KQ.AJ975.K84.Q63", "second")]):
        a = analyze(hand, seat=seat, rules=str(QUICK), samples=4, seed=_seed(11, i),
                    turnup="H2")
        got = df[df["hand_id"] == i].reset_index(drop=True)
        assert list(got["rung"]) == [r.id for r in a.rules.rungs]  # ladder order
        assert (got["seed"] == _seed(11, i)).all()
        for col in ("p_make", "p_make_se", "mean_tricks", "ev_net", "ev_net_se", "p_loss_gt",
                    "cvar5"):
            exp = a.rungs[col].astype(float).to_numpy()
            assert np.array_equal(got[col].to_numpy(), exp, equal_nan=True), col
        assert list(got.loc[got["recommended"], "rung"]) == (
            [] if a.recommended in (None, "pass") else [a.recommended])
    summ = list(csv.DictReader(open(s.summary, newline="", encoding="utf-8")))
    assert [r["hand_id"] for r in summ] == ["0", "1"]
    for r in summ:
        rows = df[df["hand_id"] == int(r["hand_id"])]
        rec = rows[rows["recommended"]]
        if len(rec):
            assert r["recommended"] == rec["rung"].iloc[0]
            assert float(r["ev_net"]) == rec["ev_net"].iloc[0]
        else:
            assert r["recommended"] == "pass" and float(r["ev_net"]) == 0.0


def test_csv_jsonl_parquet_hold_the_same_values(tmp_path: Path) -> None:
    src = tmp_path / "h.jsonl"
    src.write_text('{"hand": "AKQJT98.AK.A2.32"}\n{"hand": "KQ.AJ975.K84.Q63", "seat": "second"}\n')
    frames = {}
    for fmt in ("csv", "jsonl", "parquet"):
        s = run_batch(src, tmp_path / f"r.{fmt}", seed=3, workers=1, **FAST)
        assert s.failed == 0 and s.done == 2
        frames[fmt] = load_results(s.results)
        assert list(frames[fmt].columns) == ROW_COLUMNS
        summary = output_paths(src, tmp_path / f"r.{fmt}", None).summary
        assert summary.exists()
    for fmt in ("jsonl", "parquet"):
        a, b = frames["csv"], frames[fmt]
        assert len(a) == len(b)
        for c in ROW_COLUMNS:
            if a[c].dtype.kind == "f":
                assert np.array_equal(a[c].to_numpy(), b[c].to_numpy(), equal_nan=True), c
            else:
                assert list(a[c]) == list(b[c]), c
    # JSON Lines: NaN becomes null, never the invalid token NaN
    text = (tmp_path / "r.jsonl").read_text(encoding="utf-8")
    assert "NaN" not in text
    json.loads(text.splitlines()[0])


def test_missing_results_and_unknown_format(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        load_results(tmp_path / "x.csv")
    (tmp_path / "x.xlsx").write_text("")
    with pytest.raises(ValueError, match="format"):
        load_results(tmp_path / "x.xlsx")


def _solo_never_settles(monkeypatch, an) -> None:
    """Keep Solo's search going to the cap, in full rounds: with rounds this small its 4 first
    deals already decide the bid (and the best bid's search stops once the decision is made)."""
    settle = an.settle
    monkeypatch.setattr(an, "settle", lambda cs, *more: (settle(cs, *more)[0] - {
        st.candidate.key for st in cs if st.candidate.rung_id == "solo"}, 0))


def test_rows_carry_each_rungs_own_deal_count_in_the_adaptive_default(monkeypatch) -> None:
    import boston_sim.analysis.rounds as an
    from boston_sim.analysis import analyze
    from boston_sim.batch import Job, rows_of, summarize_rows

    # small rounds so that the hopeless misère stops after one round and Solo goes on
    monkeypatch.setattr(an, "ROUND", 4)
    monkeypatch.setattr(an, "DEFAULT_SAMPLES", 12)
    monkeypatch.setattr(an, "SE_TARGET", 0.3)
    _solo_never_settles(monkeypatch, an)
    settings = AnalysisSettings(seat="eldest", rules=str(QUICK), seed=5, turnup="S2")
    job = Job(index=0, line=1, hand="AKQJT98.AK.A2.32", label="", settings=settings)
    a = analyze(job.hand, settings)  # Solo
    assert a.recommended == "solo"
    rows = rows_of(a, job)
    got = {r["rung"]: r["samples"] for r in rows}
    want = dict(zip(a.rungs["rung"], a.rungs["samples"], strict=False))
    assert got == want and max(got.values()) == 12 and min(got.values()) < 12
    assert summarize_rows(rows)[0]["samples"] == 12


def test_max_time_per_hand_reaches_the_analysis_and_the_resume_check(monkeypatch,
                                                                     tmp_path: Path) -> None:
    """``--max-time``: each hand's analysis draws no new round once its time is up (here at
    once: the first TIME_STEP deals only, instead of 12); a resume with another limit is refused."""
    import boston_sim.analysis.rounds as an
    from boston_sim.batch import Job, analyze_one
    from boston_sim.errors import BostonSimError

    monkeypatch.setattr(an, "ROUND", 4)
    monkeypatch.setattr(an, "DEFAULT_SAMPLES", 12)
    monkeypatch.setattr(an, "SE_TARGET", 0.3)
    _solo_never_settles(monkeypatch, an)
    settings = AnalysisSettings(seat="eldest", rules=str(QUICK), seed=5, turnup="S2", threads=1)
    free = analyze_one(Job(0, 1, "AKQJT98.AK.A2.32", "", settings))
    cut = analyze_one(Job(0, 1, "AKQJT98.AK.A2.32", "", settings.replace(max_time=1e-9)))
    assert free.error is None and cut.error is None
    assert max(r["samples"] for r in free.rows) == 12
    assert {r["samples"] for r in cut.rows} == {an.TIME_STEP}
    f = tmp_path / "one.txt"
    f.write_text("AKQJT98.AK.A2.32\n")
    for bad in ({"max_time": 0}, {"max_time": 5, "samples": 4}):
        with pytest.raises(BostonSimError, match="--max-time"):
            run_batch(f, tmp_path / "x.csv", rules=str(QUICK), turnup="H2", **bad)
    s = run_batch(f, tmp_path / "one.csv", rules=str(QUICK), turnup="H2", workers=1,
                  max_time=600)
    assert s.failed == 0
    meta = output_paths(f, tmp_path / "one.csv", None).meta
    assert json.loads(meta.read_text(encoding="utf-8"))["max_time"] == 600
    with pytest.raises(BostonSimError, match="max_time"):
        run_batch(f, tmp_path / "one.csv", rules=str(QUICK), turnup="H2", workers=1,
                  max_time=60, resume=True)


def test_a_bad_pbn_board_fails_every_hand_it_stands_for(tmp_path: Path) -> None:
    """A board read for every seat is four hands: when it cannot be read, the counts say
    four failed (not one of four, three unaccounted for), and the errors file has its line."""
    pbn = tmp_path / "odd.pbn"
    pbn.write_text('[Board "1"]\n[Dealer "Q"]\n[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ '
                   '765.432.AKQJ.T98 432.AKQJ.T98.765"]\n', encoding="utf-8")
    res = RUNNER.invoke(app, ["batch", str(pbn), "--out", str(tmp_path / "r.csv"), "--json",
                              "--samples", "4", "--workers", "1", "-q"])
    assert res.exit_code == 1, res.output
    d = json.loads(res.stdout)
    assert (d["hands"], d["done"], d["failed"]) == (4, 0, 4)
    errs = _errors(tmp_path / "r.errors.csv")  # (a board is known by its [Deal] line)
    assert [(e["line"], e["reason"]) for e in errs] == [("3", "unknown dealer 'Q'")]


@pytest.mark.parametrize("text", ["", "# only a comment\n\n"])
def test_an_input_without_hands_is_an_error(tmp_path: Path, text: str) -> None:
    f = tmp_path / "none.txt"
    f.write_text(text, encoding="utf-8")
    res = RUNNER.invoke(app, ["batch", str(f), "--out", str(tmp_path / "r.csv"), "-q"])
    assert res.exit_code == 2 and "no hands in" in res.output, res.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["none.txt"]


def test_a_hand_that_fails_in_its_analysis_names_the_hand(tmp_path: Path) -> None:
    """A row that reads well but fails when analysed (Solo Whist without its turn-up) has
    its line, reason and hand in the errors file, like a row that cannot be read."""
    f = tmp_path / "h.txt"
    f.write_text("AQ64.AJ.J8543.A6 | dealer\nKQ.AJ975.K84.Q63 | third | solo | "
                 "solo_whist_foster\n", encoding="utf-8")
    res = RUNNER.invoke(app, ["batch", str(f), "--out", str(tmp_path / "r.csv"), "-q",
                              "--samples", "4", "--workers", "1"])
    assert res.exit_code == 1, res.output
    errs = _errors(tmp_path / "r.errors.csv")
    assert [(e["line"], e["text"]) for e in errs] == [("2", "KQ.AJ975.K84.Q63")]
    assert "turn-up" in errs[0]["reason"]
