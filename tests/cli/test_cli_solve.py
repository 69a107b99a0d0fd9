"""``boston-sim solve`` through typer's CliRunner: every option, JSON output, exit codes.

The expected trick counts come from deals whose answers are obvious from the cards (see
``data/golden/positions.txt`` for the reasoning), never from the solver's own output.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boston_sim.cli import app

runner = CliRunner()

# N: 13 spades; E: AKQJT9 of hearts, AKQ of diamonds, AKQJ of clubs (13 top cards); S, W: rest.
# Spades trumps: N takes 13 whoever leads. No trump: whoever of N / E is on lead runs 13 tricks;
# S or W on lead: N never wins a trick (void outside spades, never on lead).
TRUMPS13 = "N:AKQJT98765432... .AKQJT9.AKQ.AKQJ .8765.JT9876.T98 .432.5432.765432"
# a 1-card ending: the boston card J♦ is the top trump with spades trumps
BOSTON1 = "N:..J.2 ..A.3 ..K.4 ..Q.5"


def run(*args: str):
    return runner.invoke(app, list(args))


def err(res) -> str:
    try:
        return res.stderr
    except ValueError:  # older click: stderr mixed into output
        return res.output


def test_single_solve_text() -> None:
    res = run("solve", TRUMPS13, "--trump", "S", "--leader", "E", "--declarer", "N")
    assert res.exit_code == 0, err(res)
    assert res.stdout.strip() == "N: 13 tricks (trump S, E leads)"


def test_single_solve_json() -> None:
    res = run("solve", TRUMPS13, "-t", "S", "-l", "W", "-d", "N", "--json")
    assert res.exit_code == 0, err(res)
    obj = json.loads(res.stdout)
    m = obj.pop("manifest")
    assert obj == {"deal": TRUMPS13, "boston": False, "trump": "S", "leader": "W",
                   "declarer": "N", "partner": None, "tricks": 13}
    assert m["command"] == "solve" and m["version"] and m["numba"] and m["started"]
    assert m["options"]["trump"] == "S" and m["options"]["leader"] == "W"


def test_default_declarer_and_leader() -> None:
    """Declarer N by default; the leader defaults to the declarer's LHO (the next seat)."""
    res = run("solve", TRUMPS13, "-t", "NT", "--json")
    obj = json.loads(res.stdout)
    assert (obj["declarer"], obj["leader"], obj["tricks"]) == ("N", "E", 0)  # E runs 13
    res = run("solve", TRUMPS13, "-t", "NT", "-d", "W", "--json")
    obj = json.loads(res.stdout)
    assert (obj["declarer"], obj["leader"], obj["tricks"]) == ("W", "N", 0)  # N runs 13 spades
    res = run("solve", TRUMPS13, "-t", "NT", "--leader", "N", "--json")
    assert json.loads(res.stdout)["tricks"] == 13


def test_partner_seat_and_opposite() -> None:
    res = run("solve", TRUMPS13, "-t", "NT", "-d", "E", "-p", "W", "-l", "S", "--json")
    assert res.exit_code == 0, err(res)
    obj = json.loads(res.stdout)
    # S leads; E beats any lead (top cards in every suit S holds) and then cashes his other
    # twelve top cards: E-W make 13
    assert (obj["partner"], obj["tricks"]) == ("W", 13)
    res = run("solve", TRUMPS13, "-t", "S", "-p", "opposite", "--json")
    obj = json.loads(res.stdout)
    assert (obj["declarer"], obj["partner"], obj["tricks"]) == ("N", "S", 13)
    res = run("solve", TRUMPS13, "-t", "S", "-p", "S")
    assert res.stdout.strip() == "N+S: 13 tricks (trump S, E leads)"
    # a partner on the declarer's left is no opponent: the next seat leads
    for d, p, lead in (("N", "E", "S"), ("W", "N", "E"), ("S", "N", "W")):
        res = run("solve", TRUMPS13, "-t", "S", "-d", d, "-p", p, "--json")
        assert json.loads(res.stdout)["leader"] == lead, (d, p)


def test_yes_no_questions() -> None:
    res = run("solve", TRUMPS13, "-t", "S", "--kind", "exactly", "--target", "13")
    assert res.exit_code == 0, err(res)
    assert res.stdout.strip() == "N exactly 13: yes (trump S, E leads)"
    res = run("solve", TRUMPS13, "-t", "S", "-k", "at_most", "--target", "12", "--json")
    obj = json.loads(res.stdout)
    assert (obj["kind"], obj["target"], obj["answer"]) == ("at_most", 12, False)
    assert "tricks" not in obj
    res = run("solve", TRUMPS13, "-t", "NT", "-k", "at_least", "--target", "1", "-l", "N", "--json")
    assert json.loads(res.stdout)["answer"] is True


def test_misere_shortcut() -> None:
    # S leads: N, void outside spades, discards spades and never wins a trick
    res = run("solve", TRUMPS13, "--misere", "-l", "S", "--json")
    assert res.exit_code == 0, err(res)
    obj = json.loads(res.stdout)
    assert (obj["trump"], obj["kind"], obj["target"], obj["answer"]) == ("NT", "at_most", 0, True)
    # N leads: every spade wins
    res = run("solve", TRUMPS13, "--misere", "-l", "N")
    assert res.stdout.strip() == "N at_most 0: no (trump NT, N leads)"
    res = run("solve", TRUMPS13, "--misere", "-t", "NT", "-l", "N", "--json")
    assert json.loads(res.stdout)["answer"] is False


def test_boston_card() -> None:
    res = run("solve", BOSTON1, "-t", "S", "-l", "E", "--boston", "--json")
    assert res.exit_code == 0, err(res)
    obj = json.loads(res.stdout)
    assert (obj["boston"], obj["tricks"]) == (True, 1)  # the J♦ ruffs the ♦A lead
    res = run("solve", BOSTON1, "-t", "S", "-l", "E")
    assert res.stdout.strip() == "N: 0 tricks (trump S, E leads)"
    res = run("solve", BOSTON1, "-t", "S", "-l", "E", "--boston")
    assert res.stdout.strip() == "N: 1 trick (trump S, E leads, boston card)"


def _table(obj) -> dict[tuple[str, str | None], dict]:
    return {(r["declarer"], r["partner"]): r for r in obj["table"]}


def test_table_json_alone() -> None:
    res = run("solve", TRUMPS13, "--table", "--json")
    assert res.exit_code == 0, err(res)
    rows = _table(json.loads(res.stdout))
    assert set(rows) == {("N", None), ("E", None), ("S", None), ("W", None)}
    assert rows[("N", None)]["leader"] == "E" and rows[("W", None)]["leader"] == "N"
    assert set(rows[("N", None)]["tricks"]) == {"S", "H", "D", "C", "NT"}
    assert rows[("N", None)]["tricks"]["S"] == 13  # all the trumps
    assert rows[("N", None)]["tricks"]["NT"] == 0  # E leads and cashes 13
    assert rows[("W", None)]["tricks"]["NT"] == 0  # N leads and runs 13 spades
    assert rows[("E", None)]["tricks"]["S"] == 0  # N ruffs everything


def test_table_with_pairs_and_fixed_leader() -> None:
    res = run("solve", TRUMPS13, "--table", "--partner", "opposite", "--leader", "N", "--json")
    assert res.exit_code == 0, err(res)
    rows = _table(json.loads(res.stdout))
    assert len(rows) == 8
    assert {k for k in rows if k[1]} == {("N", "S"), ("E", "W"), ("S", "N"), ("W", "E")}
    assert all(r["leader"] == "N" for r in rows.values())
    assert rows[("N", "S")]["tricks"]["NT"] == 13  # N leads and runs his spades
    assert rows[("E", "W")]["tricks"]["NT"] == 0
    assert rows[("E", "W")]["tricks"]["S"] == 0


def test_table_text() -> None:
    res = run("solve", TRUMPS13, "--table", "--partner", "opposite")
    assert res.exit_code == 0, err(res)
    lines = res.stdout.splitlines()
    assert lines[0] == TRUMPS13
    assert lines[1].split() == ["side", "lead", "S", "H", "D", "C", "NT"]
    n_alone = next(x for x in lines if x.startswith("N alone"))
    assert n_alone.split() == ["N", "alone", "E", "13", "0", "0", "0", "0"]
    assert any(x.startswith("N+S") for x in lines)
    assert len(lines) == 2 + 8


def test_file_with_a_bad_line(tmp_path: Path) -> None:
    f = tmp_path / "deals.txt"
    f.write_text(
        "# two good deals and a bad one\n"
        f"{TRUMPS13}\n"
        "\n"
        "N:AKQJT98765432... .AKQJT9.AKQ.AKQJ .8765.JT9876.T98 .432.5432.76543A\n"  # ♣A twice
        f'[Deal "{BOSTON1}"]\n',
        encoding="utf-8",
    )
    res = run("solve", "--file", str(f), "-t", "S", "-l", "E")
    assert res.exit_code == 2
    assert res.stdout.splitlines() == [
        "line 2: N: 13 tricks (trump S, E leads)",
        "line 5: N: 0 tricks (trump S, E leads)",
    ]
    e = err(res)
    assert "error: line 4:" in e and "Traceback" not in e
    assert "1 of 3 deals" in e

    res = run("solve", "-f", str(f), "-t", "S", "-l", "E", "--json", "--boston")
    assert res.exit_code == 2
    out = json.loads(res.stdout)
    objs = out["results"]
    assert out["manifest"]["command"] == "solve" and out["manifest"]["options"]["boston"]
    assert [o["line"] for o in objs] == [2, 4, 5]
    # with the boston card S's J♦ becomes the top spade: N ruffs or leads every trick, but once
    # N leads a spade S must follow with the boston card and wins: 12. The 1-card ending: 1.
    assert objs[0]["tricks"] == 12 and objs[2]["tricks"] == 1
    assert "error" in objs[1] and "tricks" not in objs[1]


def test_file_with_a_byte_order_mark(tmp_path: Path) -> None:
    """Windows editors start a UTF-8 file with a BOM; like batch and --pbn, --file skips it."""
    f = tmp_path / "bom.txt"
    f.write_bytes(("\ufeff" + TRUMPS13 + "\r\n").encode("utf-8"))
    res = run("solve", "--file", str(f), "-t", "NT", "--leader", "N")
    assert res.exit_code == 0, err(res)
    assert res.stdout.splitlines() == ["line 1: N: 13 tricks (trump NT, N leads)"]


def test_file_all_good_with_progress_bar(tmp_path: Path) -> None:
    f = tmp_path / "deals.txt"
    f.write_text("\n".join([TRUMPS13] * 3) + "\n", encoding="utf-8")
    res = run("solve", "--file", str(f), "-t", "NT", "--leader", "N", "--progress")
    assert res.exit_code == 0, err(res)
    want = [f"line {i}: N: 13 tricks (trump NT, N leads)" for i in (1, 2, 3)]
    assert res.stdout.splitlines() == want
    res = run("solve", "--file", str(f), "--table", "--json", "--no-progress")
    assert res.exit_code == 0, err(res)
    objs = json.loads(res.stdout)["results"]
    assert len(objs) == 3 and all(len(o["table"]) == 4 for o in objs)


@pytest.mark.parametrize(
    "args, message",
    [
        ((), "DEAL or --file"),
        ((TRUMPS13,), "--trump is required"),
        ((TRUMPS13, "-t", "X"), "unknown trump"),
        ((TRUMPS13, "-t", "S", "-l", "Q"), "unknown seat"),
        ((TRUMPS13, "-t", "S", "-d", "N", "-p", "N"), "partner"),
        ((TRUMPS13, "-t", "S", "--kind", "at_least"), "--kind and --target"),
        ((TRUMPS13, "-t", "S", "--kind", "most", "--target", "3"), "unknown --kind"),
        ((TRUMPS13, "--misere", "-t", "S"), "no trump"),
        ((TRUMPS13, "--misere", "--kind", "at_most", "--target", "1"), "--misere"),
        ((TRUMPS13, "--table", "-t", "S"), "every trump"),
        ((TRUMPS13, "--table", "-d", "E"), "every declarer"),
        ((TRUMPS13, "--table", "-p", "S"), "opposite"),
        ((TRUMPS13, "--table", "--kind", "at_least", "--target", "3"), "--table"),
        (("N:AKQ... 2... 3... 4...", "-t", "S"), "unequal"),
        (("N:A... A... Q... J...", "-t", "S"), "two hands"),
        (("AKQJ", "-t", "S"), "must start with a seat"),
        ((TRUMPS13, "--file", "x.txt", "-t", "S"), "DEAL or --file"),
        (("--file", "/nonexistent/deals.txt", "-t", "S"), "file not found"),
    ],
)
def test_bad_input_is_a_one_line_error(args, message: str) -> None:
    res = run("solve", *args)
    assert res.exit_code == 2, res.stdout
    e = err(res)
    assert e.startswith("error: ") and message in e, e
    assert len(e.strip().splitlines()) == 1 and "Traceback" not in e
    assert res.stdout == ""


def test_file_without_deals(tmp_path: Path) -> None:
    f = tmp_path / "empty.txt"
    f.write_text("# nothing here\n\n", encoding="utf-8")
    res = run("solve", "--file", str(f), "-t", "S")
    assert res.exit_code == 2
    assert "no deals" in err(res)


def test_solve_is_listed_in_help() -> None:
    res = run("--help")
    assert res.exit_code == 0 and "solve" in res.stdout
    res = run("solve", "--help")
    for opt in ("--trump", "--leader", "--declarer", "--partner", "--table", "--kind", "--target",
                "--misere", "--boston", "--file", "--json"):
        assert opt in res.stdout, opt


def test_a_file_is_solved_in_batches_with_the_answers_of_single_solves(tmp_path: Path,
                                                                       monkeypatch) -> None:
    """--file hands the deals to the solver a batch at a time (here 2 deals per batch, with a
    bad line inside one batch): each answer is that of the deal solved on its own, in file
    order, and the progress bar (forced on) copes with the searches of a --table."""
    import random

    import boston_sim.cli.solve_cmd as sc
    from boston_sim.cards import format_deal, parse_deal

    monkeypatch.setattr(sc, "FILE_BATCH", 2)
    rng = random.Random(5)
    deals = []
    for _ in range(4):  # 3-card endings: quick, and not obvious
        cards = rng.sample(range(52), 12)
        hands = [".".join("".join("AKQJT98765432"[c % 13] for c in sorted(cards[3 * h:3 * h + 3])
                                          if c // 13 == s) for s in range(4)) for h in range(4)]
        deals.append(format_deal(parse_deal("N:" + " ".join(hands))))
    lines = [deals[0], deals[1], "N:A.. K.. Q.. A..", deals[2], deals[3]]
    f = tmp_path / "deals.txt"
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    res = run("solve", "--file", str(f), "-t", "H", "-l", "W", "-d", "E", "--json")
    assert res.exit_code == 2 and "error: line 3:" in err(res)
    got = json.loads(res.stdout)["results"]
    assert [r["line"] for r in got] == [1, 2, 3, 4, 5] and "error" in got[2]
    for r, deal in zip([got[0], got[1], got[3], got[4]], deals, strict=False):
        one = json.loads(run("solve", deal, "-t", "H", "-l", "W", "-d", "E", "--json").stdout)
        del one["manifest"]
        assert r == {"line": r["line"]} | one
    table = run("solve", "--file", str(f), "--table", "--progress", "--json")
    assert table.exit_code == 2
    rows = json.loads(table.stdout)["results"]
    one = json.loads(run("solve", deals[3], "--table", "--json").stdout)
    del one["manifest"]
    assert rows[4] == {"line": 5} | one


def test_a_single_deal_is_solved_watched_with_a_bar_for_its_table(monkeypatch) -> None:
    """One deal's searches run watched (a progress callback, so Ctrl-C stops them at once, see
    ``solve_jobs``); a --table counts its 20 searches on a bar, shown by default only on a
    terminal, and the answers are those of the library's unwatched ``dd_table``."""
    import boston_sim.progress as progress
    import boston_sim.solver as solver
    from boston_sim.analysis import dd_table

    calls = []
    real_jobs = solver.solve_jobs

    def spy(hands, jobs, deadline=None, progress=None):
        calls.append(progress is not None)
        return real_jobs(hands, jobs, deadline, progress)

    bars = []

    class FakeBar(progress.ProgressBar):
        def start(self):
            bars.append(self)
            self.stopped = False
            return self

        def stop(self):
            self.stopped = True

    monkeypatch.setattr(solver, "solve_jobs", spy)
    monkeypatch.setattr(progress, "ProgressBar", FakeBar)
    res = run("solve", TRUMPS13, "--table", "--json", "--progress")
    assert res.exit_code == 0, err(res)
    shown = [b for b in bars if b.enabled]
    (bar,) = shown
    assert (bar.total, bar.label, bar.done, bar.stopped) == (20, "solving (searches)", 20, True)
    watched = json.loads(res.stdout)
    assert watched.pop("manifest")["options"]["table"] is True
    # N alone, E leads: 13 in spades; otherwise E runs his 13 top cards
    assert watched["table"][0]["tricks"] == {"S": 13, "H": 0, "D": 0, "C": 0, "NT": 0}
    assert watched == dd_table(TRUMPS13).to_dict()  # unwatched
    res = run("solve", TRUMPS13, "-t", "S", "-l", "E")  # not a table, not a terminal: no bar
    assert res.exit_code == 0 and len([b for b in bars if b.enabled]) == 1
    assert calls == [True, False, True]  # the CLI's two solves watched; the test's own not


def test_dd_table_is_the_library_function_behind_solve_table() -> None:
    """``boston_sim.analysis.dd_table``: every declarer alone, and with ``pairs`` also with
    the partner opposite, in every strain; the CLI prints its ``to_dict()``."""
    from boston_sim.analysis import DDTable, dd_table

    t = dd_table(TRUMPS13, pairs=True)
    assert isinstance(t, DDTable) and len(t.rows) == 8
    assert [r.declarer for r in t.rows] == list("NESWNESW")
    assert [r.partner for r in t.rows[4:]] == list("SWNE")
    cli = json.loads(run("solve", TRUMPS13, "--table", "--partner", "opposite",
                         "--json").stdout)
    del cli["manifest"]
    assert cli == t.to_dict()
