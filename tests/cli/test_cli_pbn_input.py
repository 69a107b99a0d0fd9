"""``bid --pbn FILE --board N --seat S``: the hand of one seat of one board of a PBN file,
its playing-order seat placed by the board's dealer, standard input, and the errors."""

from __future__ import annotations

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
