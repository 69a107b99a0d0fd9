"""The work plan: which searches answer which rung (docs/RULES.md §3.0).

Every rung of the ladder is played in one or more ways (:class:`Candidate`: a trump and, in a
12-trick rung, the declarer's discard); each way needs one search over all samples
(:class:`SolveKey`), and rungs that ask the same question share it: one most-tricks search
serves every trick rung with the same strain, leader and side; one "no trick" search every
misère with the same leader and discard (e.g. Grand Misère and Grand Spread).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..cards import NT, STRAINS, card_bit, parse_strain, play_seat_to_compass
from ..errors import RulesError, SamplingError
from ..rules import RuleSet

SUIT_LANE_BITS = 16  # a hand mask holds one 16-bit lane per suit
SUIT_LANE = (1 << SUIT_LANE_BITS) - 1


@dataclass(frozen=True)
class SolveKey:
    """One search over all samples; shared by every rung that needs it.

    ``mode`` is the kind of the rungs it serves: ``"at_least"`` (a trick count: the most
    tricks the side takes), ``"zero"`` (a misère: can the declarer take no trick?) or
    ``"exactly"`` (Piccolissimo: exactly ``target`` tricks?)."""

    strain: int  # 0..3, 4 = NT
    leader: int  # compass seat
    side_mask: int  # compass seats of the declaring side
    discard: int  # declarer's discard (card bit) in a 12-trick rung, -1 for none
    mode: str  # "at_least" | "zero" | "exactly"
    target: int = 0  # for "exactly"
    boston: bool = False  # apply the boston-card transform
    # a pair contract averaged over partner seats: each deal draws one of these compass
    # seats to join side_mask (the declarer's); empty: side_mask is the whole side
    partners: tuple[int, ...] = ()


@dataclass
class Candidate:
    """One way of playing a rung: a trump and (12-trick rungs) a declarer's discard."""

    rung_id: str
    trump: str | None  # strain letter, or None for no-trump misères
    strain: int
    discard: int
    key: SolveKey


def leader_seat(rule: str, declarer: int) -> int:
    """The compass seat on lead to the first trick under a rung's ``leader`` rule."""
    if rule == "eldest":
        return play_seat_to_compass(0)
    if rule == "declarer":
        return declarer
    return (declarer + 1) % 4  # declarer_left: the next seat in playing order


def discard_candidates(hand: int) -> list[int]:
    """The declarer's discard candidates: the highest card of each suit he holds (§3.0)."""
    out = []
    for s in range(4):
        lane = (hand >> (SUIT_LANE_BITS * s)) & SUIT_LANE
        if lane:
            out.append(card_bit(s, lane.bit_length() - 1))
    return out


def trumps_for(rung: Any, ctx: Mapping[str, Any], turnup_suit: int | None) -> list[int]:
    """The strains a rung may be played in, given the context and the turn-up."""
    rule = rung.trump
    if rule == "none":
        return [NT]
    if rule == "declarer_choice":
        return [0, 1, 2, 3]
    if rule == "declarer_choice_or_nt":
        return [0, 1, 2, 3, NT]
    if rule in ("turnup", "junior"):
        if turnup_suit is None:
            raise SamplingError(f"{rung.name} is played in the turned-up suit: give the turn-up "
                                "card (--turnup CARD)")
        return [turnup_suit]
    if rule == "senior":
        if ctx.get("senior") is None:
            raise RulesError(f"{rung.name} is played in the senior suit: give it "
                             "(--senior SUIT or --option senior=SUIT)")
        return [parse_strain(ctx["senior"])]
    raise RulesError(f"unknown trump rule {rule!r} in {rung.id}")


def offered(rung: Any, ctx: Mapping[str, Any]) -> bool:
    """Whether the rung can be bid this deal: when the turn-up is the senior suit there is
    no junior suit, so no junior rung (A-43)."""
    junior = ctx.get("junior")
    return not (rung.trump == "junior" and junior is not None and junior == ctx.get("senior"))


def plan_candidates(rules: RuleSet, hand: int, declarer: int, partner: int,
                    ctx: Mapping[str, Any], turnup_suit: int | None) -> list[Candidate]:
    """Every way of playing every rung offered this deal, in ladder order, each with its
    search. ``partner`` < 0: pair rungs averaged over the three partner seats."""
    boston_mode = rules.options.get("boston_card_mode")
    out: list[Candidate] = []
    for rung in rules.rungs:
        if not offered(rung, ctx):
            continue
        leader = leader_seat(rung.leader, declarer)
        side = 1 << declarer
        partners: tuple[int, ...] = ()
        if rung.side == "pair" and partner < 0:
            partners = tuple(s for s in range(4) if s != declarer)
        elif rung.side == "pair":
            side |= 1 << partner
        discards = discard_candidates(hand) if rung.discard == "all_one" else [-1]
        target = rung.target if rung.kind == "exactly" else 0
        for strain in trumps_for(rung, ctx, turnup_suit):
            boston = strain != NT and boston_mode is not None and boston_mode != "off"
            for d in discards:
                key = SolveKey(strain, leader, side, d, rung.kind, target, boston, partners)
                out.append(Candidate(rung.id, STRAINS[strain] if rung.trump != "none" else None,
                                     strain, d, key))
    return out


def boston_bit(strain: int) -> int:
    """The boston card for a trump suit: J♦, or J♥ when diamonds are trumps (A-40)."""
    return card_bit(1 if strain == 2 else 2, 11)


def trick_floors(rules: RuleSet, cands: list[Candidate]) -> dict[SolveKey, int]:
    """For every trick search (mode ``"at_least"``), the lowest target among the rungs that
    use it: a deal below it fails them all, whatever its exact count."""
    out: dict[SolveKey, int] = {}
    for c in cands:
        if c.key.mode == "at_least":
            t = rules.rung(c.rung_id).target
            out[c.key] = min(out.get(c.key, t), t)
    return out
