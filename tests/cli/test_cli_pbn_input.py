"""``bid --pbn FILE --board N --seat S``: the hand of one seat of one board of a PBN file,
its playing-order seat placed by the board's dealer, standard input, and the errors; and
``batch --board N`` and ``batch -``."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boston_sim.cli import app

runner = CliRunner()
QUICK = ["--samples", "6", "--seed", "1", "--json", "-q"]
S_HAND = "64.JT5.KQ4.KQ964"  # South's hand on both boards

PBN = """% two boards, the second with the dealer at E
[Event "club"]
[Board "1"]
[Dealer "N"]
[Deal "N:AKQJT98.AK.A2.32 73.9864.J863.A75 64.JT5.KQ4.KQ964 52.Q732.T975.JT8"]
[Auction "N"]
1S Pass ; a section, not tags

[Event "club"] ; the tag below spans two lines
[Board
 "2"]
[Dealer "E"] { a comment
  over two lines }
[Deal "E:73.9864.J863.A75 64.JT5.KQ4.KQ964
       52.Q732.T975.JT8 AKQJT98.AK.A2.32"]

[Event "club"]
[Board "3"]
[Dealer "S"]

[Event "club"]
[Board "4"]
[Dealer "W"]
[Deal "W:- 73.9864.J863.A75 - -"]
"""


def bid(*args: str, stdin: str | None = None):
    return runner.invoke(app, ["bid", *args], input=stdin)


def numbers(res) -> dict:
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    out.pop("manifest")  # start time, options as given
    return out


@pytest.fixture
def pbn(tmp_path: Path) -> Path:
    p = tmp_path / "club.pbn"
    p.write_text(PBN, encoding="utf-8")
    return p


def test_a_seat_of_a_board_is_analysed_as_that_hand_at_its_playing_seat(pbn: Path) -> None:
    # dealer E: South sits on the dealer's left, so South is eldest
    direct = numbers(bid(S_HAND, "--seat", "eldest", *QUICK))
    via_pbn = numbers(bid("--pbn", str(pbn), "--board", "2", "--seat", "S", *QUICK))
    assert via_pbn == direct
    assert (via_pbn["hand"], via_pbn["seat"]) == (S_HAND, "eldest")
    by_play_seat = numbers(bid("--pbn", str(pbn), "--board", "2", "--seat", "eldest", *QUICK))
    assert by_play_seat == direct
    # board 1, dealer N: South is second
    assert numbers(bid("--pbn", str(pbn), "--board", "1", "--seat", "S", *QUICK)) == numbers(
        bid(S_HAND, "--seat", "second", *QUICK))


def test_a_rule_set_that_plays_to_the_right_places_the_seats_the_other_way(pbn: Path) -> None:
    args = ["--rules", "boston_russian", "--turnup", "S5", "--senior", "C"]
    # dealer E, play to the right: eldest N, second W, third S
    res = bid("--pbn", str(pbn), "--board", "2", "--seat", "S", *args, *QUICK)
    assert numbers(res)["seat"] == "third"


def test_standard_input(pbn: Path) -> None:
    one_board = PBN.split("\n\n")[1]
    res = bid("--pbn", "-", "--seat", "S", *QUICK, stdin=one_board)
    assert numbers(res) == numbers(bid(S_HAND, "--seat", "eldest", *QUICK))
    res = bid("--pbn", "-", "--board", "1", "--seat", "N", *QUICK, stdin=PBN)
    assert numbers(res)["hand"] == "AKQJT98.AK.A2.32"


@pytest.mark.parametrize("args, message", [
    (["--seat", "S"], "has 4 boards (1, 2, 3, 4); choose one with --board N"),
    (["--board", "9", "--seat", "S"], "no board 9 in"),
    (["--board", "3", "--seat", "S"], "board 3 of"),
    (["--board", "2"], "give the seat whose hand to take"),
    (["--board", "4", "--seat", "E"], "board 4 gives no hand for E"),
    (["--board", "2", "--seat", "X"], "unknown seat 'X'"),
    (["AKQJT98.AK.A2.32", "--board", "2"], "give either a HAND or --pbn FILE, not both"),
])
def test_errors_are_one_line_before_any_work(pbn: Path, args: list[str], message: str) -> None:
    res = bid("--pbn", str(pbn), *args, "-n", "6")
    assert res.exit_code == 2, res.output
    assert res.stderr.startswith("error:") and message in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1


def test_a_comment_left_open_names_the_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pbn"
    bad.write_text(PBN.replace("{ a comment", "{ a comment never closed").replace(
        "  over two lines }", "  over two lines"), encoding="utf-8")
    res = bid("--pbn", str(bad), "--board", "2", "--seat", "S")
    assert res.exit_code == 2
    assert "bad.pbn: line 12: a { comment is never closed" in res.stderr, res.output


def test_a_board_without_a_deal_says_so(pbn: Path) -> None:
    res = bid("--pbn", str(pbn), "--board", "3", "--seat", "S")
    assert "board 3 of" in res.stderr and "has no [Deal]" in res.stderr


@pytest.mark.parametrize("args, message", [
    (["--board", "2"], "--board needs --pbn FILE"),
    ([], "give a HAND"),
    (["--pbn", "missing.pbn", "--seat", "N"], "file not found: missing.pbn"),
])
def test_usage_errors_without_a_file(args: list[str], message: str) -> None:
    res = bid(*args, "-n", "6")
    assert res.exit_code == 2 and message in res.stderr, res.output


def test_a_deals_out_file_reads_back(tmp_path: Path) -> None:
    deals = tmp_path / "deals.pbn"
    first = bid(S_HAND, "--seat", "third", "--deals-out", str(deals), *QUICK)
    assert first.exit_code == 0, first.output
    # the seat is tagged in the file; --seat N is the same compass seat
    tagged = numbers(bid("--pbn", str(deals), "--board", "3", *QUICK))
    assert (tagged["hand"], tagged["seat"]) == (S_HAND, "third")
    by_compass = numbers(bid("--pbn", str(deals), "--board", "3", "--seat", "S", *QUICK))
    assert by_compass == tagged == numbers(bid(S_HAND, "--seat", "third", *QUICK))

# batch with PBN input: --board takes one board, - reads standard input
BATCH_QUICK = ["--samples", "6", "--seed", "1", "-q"]


def batch(*args: str, stdin: str | None = None):
    return runner.invoke(app, ["batch", *args], input=stdin)


def summary(out: Path) -> list[dict[str, str]]:
    with open(out.with_name(out.stem + ".summary.csv"), newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_board_takes_one_board_and_stdin_is_read(tmp_path: Path) -> None:
    out = tmp_path / "r.csv"
    res = batch("-", "--input-format", "pbn", "--out", str(out), "--board", "2",
                "--pbn-seat", "S", *BATCH_QUICK, stdin=PBN)
    assert res.exit_code == 0, res.output
    rows = summary(out)
    assert [(r["label"], r["seat"], r["hand"]) for r in rows] == [
        ("board 2 S", "eldest", "64.JT5.KQ4.KQ964")]


def test_without_board_every_board_with_a_deal(tmp_path: Path) -> None:
    src = tmp_path / "club.pbn"
    src.write_text(PBN, encoding="utf-8")
    out = tmp_path / "all.csv"
    res = batch(str(src), "--out", str(out), "--pbn-seat", "S", *BATCH_QUICK)
    assert res.exit_code == 1, res.output  # board 4 gives no hand for S: one failed row
    assert [r["label"] for r in summary(out)] == ["board 1 S", "board 2 S"]


@pytest.mark.parametrize("args, message", [
    (["--board", "7"], "no board 7 with a [Deal]"),
    (["--board", "3"], "no board 3 with a [Deal]"),
])
def test_a_board_not_there_fails_before_any_file(tmp_path: Path, args, message) -> None:
    src = tmp_path / "club.pbn"
    src.write_text(PBN, encoding="utf-8")
    out = tmp_path / "r.csv"
    res = batch(str(src), "--out", str(out), *args, *BATCH_QUICK)
    assert res.exit_code == 2 and message in res.stderr, res.output
    assert not out.exists()


def test_board_needs_pbn_input_and_stdin_needs_out(tmp_path: Path) -> None:
    hands = tmp_path / "hands.txt"
    hands.write_text("KQJT9.AK.QJ2.432\n", encoding="utf-8")
    res = batch(str(hands), "--board", "1", *BATCH_QUICK)
    assert res.exit_code == 2 and "--board selects a board of a PBN input" in res.stderr
    res = batch("-", *BATCH_QUICK, stdin="KQJT9.AK.QJ2.432\n")
    assert res.exit_code == 2 and "standard input (-) needs --out" in res.stderr


def test_stdin_text_input(tmp_path: Path) -> None:
    out = tmp_path / "t.csv"
    res = batch("-", "--input-format", "text", "--out", str(out), *BATCH_QUICK,
                stdin="KQJT9.AK.QJ2.432 | dealer\n")
    assert res.exit_code == 0, res.output
    assert [r["seat"] for r in summary(out)] == ["dealer"]


def test_the_api_takes_a_board_number_and_a_resume_keeps_to_it(tmp_path: Path) -> None:
    from boston_sim.batch import run_batch
    from boston_sim.errors import BostonSimError

    src = tmp_path / "club.pbn"
    src.write_text(PBN, encoding="utf-8")
    out = tmp_path / "r.csv"
    s = run_batch(src, out, samples=6, pbn_seat="S", pbn_board=2)
    assert (s.hands, s.failed) == (1, 0)
    with pytest.raises(BostonSimError, match="pbn_board"):
        run_batch(src, out, samples=6, pbn_seat="S", pbn_board=1, resume=True)
    with pytest.raises(BostonSimError, match="board number"):
        run_batch(src, out, samples=6, pbn_board=[2])
