"""Hand-made golden positions (``data/golden/positions.txt``) with answers derived by reasoning.

Each line's comment (and the block comment above it) explains why the answer is right. The
fast solver must reproduce every answer; positions of at most 5 cards per hand are also solved
by the naive reference, as a check on the reasoning itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import naive
import numpy as np
import pytest

from boston_sim import cards
from boston_sim.solver import solve, solve_batch, solve_target

GOLDEN = Path(__file__).resolve().parents[2] / "data" / "golden" / "positions.txt"
FIELDS = ("deal", "trump", "boston", "leader", "side", "kind", "target", "expected", "comment")
KINDS = ("max", "min", "at_least", "at_most", "exactly")


@dataclass(frozen=True)
class Position:
    line: int
    deal: str
    trump: int
    boston: bool
    leader: int
    side: tuple[int, ...]
    kind: str
    target: int | None
    expected: int | bool
    comment: str

    @property
    def hands(self) -> np.ndarray:
        h = cards.parse_deal(self.deal)
        return cards.boston_card_transform(h, self.trump) if self.boston else h

    @property
    def side_mask(self) -> int:
        return sum(1 << s for s in self.side)

    @property
    def size(self) -> int:
        return int(self.hands[0]).bit_count()


def load_positions(path: Path = GOLDEN) -> list[Position]:
    """Parse the golden file; a malformed line is an error naming its line number."""
    out = []
    for no, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        parts = [p.strip() for p in line.split("|")]
        if len(parts) != len(FIELDS):
            raise ValueError(f"{path.name} line {no}: {len(parts)} fields, expected {len(FIELDS)}")
        f = dict(zip(FIELDS, parts, strict=True))
        if f["kind"] not in KINDS or f["boston"] not in ("yes", "no"):
            raise ValueError(f"{path.name} line {no}: bad kind or boston field")
        side = tuple(cards.parse_compass(c) for c in f["side"])
        if not 1 <= len(side) <= 2 or len(set(side)) != len(side):
            raise ValueError(f"{path.name} line {no}: bad side {f['side']!r}")
        if f["kind"] in ("max", "min"):
            target, expected = None, int(f["expected"])
        else:
            if f["expected"] not in ("yes", "no"):
                raise ValueError(f"{path.name} line {no}: expected must be yes or no")
            target, expected = int(f["target"]), f["expected"] == "yes"
        out.append(Position(no, f["deal"], cards.parse_strain(f["trump"]), f["boston"] == "yes",
                            cards.parse_compass(f["leader"]), side, f["kind"], target, expected,
                            f["comment"]))
    return out


POSITIONS = load_positions()
IDS = [f"line{p.line}" for p in POSITIONS]


def test_golden_file_covers_the_promised_themes() -> None:
    comments = " ".join(p.comment for p in POSITIONS).lower()
    for theme in ("13 trumps", "misère", "squeeze", "boston card", "adjacent"):
        assert theme in comments, theme
    assert {p.kind for p in POSITIONS} == set(KINDS)
    assert any(len(p.side) == 2 and (p.side[0] - p.side[1]) % 2 for p in POSITIONS)  # adjacent
    assert any(len(p.side) == 2 and (p.side[0] - p.side[1]) % 2 == 0 for p in POSITIONS)
    assert any(p.size == 13 for p in POSITIONS)


def _fast_answer(p: Position) -> int | bool:
    hands = p.hands
    declarer = p.side[0]
    partner = p.side[1] if len(p.side) == 2 else None
    # the plain deals go in as PBN text, the boston-card deals (not expressible in PBN) as masks
    deal = hands if p.boston else p.deal
    if p.kind == "max":
        return solve(deal, p.trump, p.leader, declarer, partner)
    if p.kind == "min":
        return int(solve_batch(hands.reshape(1, 4), p.trump, p.leader, p.side_mask, mode="min")[0])
    return solve_target(deal, p.trump, p.leader, declarer, partner, kind=p.kind, target=p.target)


def _naive_answer(p: Position) -> int | bool:
    h = tuple(int(x) for x in p.hands)
    if p.kind == "max":
        return naive.max_tricks(h, p.trump, p.leader, p.side_mask)
    if p.kind == "min":
        return naive.min_tricks(h, p.trump, p.leader, p.side_mask)
    return naive.can_reach(h, p.trump, p.leader, p.side_mask, p.kind, p.target)


@pytest.mark.parametrize("pos", POSITIONS, ids=IDS)
def test_fast_solver_on_golden_position(pos: Position) -> None:
    got = _fast_answer(pos)
    assert got == pos.expected, (
        f"line {pos.line} ({pos.comment}): got {got}, expected {pos.expected}"
    )


SMALL = [p for p in POSITIONS if p.size <= 5]


@pytest.mark.parametrize("pos", SMALL, ids=[f"line{p.line}" for p in SMALL])
def test_naive_reference_confirms_golden_reasoning(pos: Position) -> None:
    assert _naive_answer(pos) == pos.expected, f"line {pos.line} ({pos.comment})"


def test_batch_min_agrees_with_at_most_questions() -> None:
    """For every min position: at_most min holds and at_most min-1 does not (same game)."""
    for p in POSITIONS:
        if p.kind != "min":
            continue
        declarer = p.side[0]
        partner = p.side[1] if len(p.side) == 2 else None
        hands = p.hands
        assert solve_target(hands, p.trump, p.leader, declarer, partner, kind="at_most",
                            target=p.expected)
        if p.expected > 0:
            assert not solve_target(hands, p.trump, p.leader, declarer, partner, kind="at_most",
                                    target=p.expected - 1)


def test_loader_rejects_a_malformed_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    text = "# comment\n\nN:A... K... Q... J... | NT | no | E | N | max | - | 1\n"  # 8 fields
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match="line 3"):
        load_positions(bad)
