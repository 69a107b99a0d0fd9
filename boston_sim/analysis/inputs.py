"""A hand and an :class:`~boston_sim.settings.AnalysisSettings`, checked and resolved into
what the analysis works with (:class:`Problem`): masks, compass seats, the loaded rule set
with its options, the context suits, the known cards and the constraints.

Every user error of an analysis's inputs is raised here, with the messages the CLI shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..cards import (
    STRAINS,
    NotationError,
    format_card,
    parse_card,
    parse_hand,
    parse_play_seat,
    parse_strain,
    play_seat_to_compass,
)
from ..config import (
    CONTEXT_KEYS,
    MISERE_TRICKS_MODES,
    PARTNER_AVERAGE,
    PARTNER_OFFSETS,
)
from ..errors import RulesError, SamplingError
from ..limits import NODE_BUDGET_MAX, clip
from ..rules import RuleSet, load_rules, unread_context
from ..sampler import Constraint, parse_constraint, parse_known
from ..settings import AnalysisSettings

HAND_CARDS = 13
ANY_PARTNER = -1  # partner_seat of a pair contract averaged over the three partner seats
DEALER_PLAY_SEAT = 3  # the dealer's playing-order seat; the turn-up lies in his hand


@dataclass
class Problem:
    """An analysis's inputs, resolved: ``mask`` the declarer's hand, ``declarer`` and
    ``partner_seat`` compass seats (:data:`ANY_PARTNER`: averaged over the three),
    ``rules`` with its options applied, ``context`` the suits (preference, senior, junior,
    turnup) as strain letters, ``known`` (card, compass seat) pairs, the turn-up card's
    suit and text (None without one)."""

    settings: AnalysisSettings
    mask: int
    play_seat: int
    declarer: int
    partner_seat: int
    rules: RuleSet
    context: dict[str, Any]
    known: list[tuple[int, int]]
    constraints: list[Constraint]
    turnup_suit: int | None = None
    turnup_text: str | None = None


def check_sampling(s: AnalysisSettings) -> None:
    """The sampling settings make sense together (SamplingError if not)."""
    if s.samples is not None and s.precision is not None:
        raise SamplingError("give either samples or precision, not both")
    if s.samples is not None and s.samples < 2:
        raise SamplingError("samples must be at least 2")
    if s.precision is not None and not s.precision > 0:
        raise SamplingError("precision must be a positive number of counters")
    if s.max_time is not None:
        if s.samples is not None:
            raise SamplingError("a time limit applies to the sampling rounds of the default "
                                "and precision modes, not to a fixed number of samples")
        if not s.max_time > 0:
            raise SamplingError("the time limit must be a positive number of seconds")


def check_solving(s: AnalysisSettings) -> None:
    """The solver settings are valid (SamplingError if not)."""
    if s.threads is not None and s.threads < 1:
        raise SamplingError("threads must be at least 1")
    if s.misere_tricks not in MISERE_TRICKS_MODES:
        raise SamplingError(f"misere_tricks must be bool or min, not {s.misere_tricks!r}")
    for name, what in (("fail_count_rate", "failed deals whose trick count is searched"),
                       ("make_count_rate", "made deals whose trick count is searched"),
                       ("misere_count_rate", "misère searches past their node budget that go "
                                             "on")):
        rate = getattr(s, name)
        if not (isinstance(rate, (int, float, np.integer, np.floating))
                and not isinstance(rate, bool) and 0 < rate <= 1):
            raise SamplingError(f"{name} must be in (0, 1]: the share of {what}")
    budget = s.misere_node_budget
    if not (isinstance(budget, (int, np.integer)) and not isinstance(budget, bool)
            and 1 <= budget <= NODE_BUDGET_MAX):
        raise SamplingError("misere_node_budget must be a whole number of nodes, from 1 to "
                            f"{NODE_BUDGET_MAX:,}")


def _load_rules(s: AnalysisSettings, ctx: dict[str, Any]) -> RuleSet:
    """The rule set with its options; context suits given as options move into ``ctx``
    (unless the rule set has an option of that name), and are checked to be suits."""
    options = s.option_map
    given = s.rules
    base = given if isinstance(given, RuleSet) else load_rules(given)
    for k in CONTEXT_KEYS:
        if k in options and k not in base.option_specs:
            ctx[k] = options.pop(k)
    rs = base.with_options(options) if isinstance(given, RuleSet) else load_rules(given, options)
    for k in CONTEXT_KEYS:
        if ctx.get(k) is not None:
            try:
                ctx[k] = STRAINS[parse_strain(ctx[k])]
            except NotationError as e:
                raise RulesError(f"{k}: {e}") from None
            if ctx[k] == "NT":
                raise RulesError(f"{k} must be a suit, not NT")
            unread = unread_context(rs, k)
            if unread is not None:
                raise RulesError(unread)
    return rs


def _place_turnup(p: Problem) -> None:
    """Pin the turn-up card to the dealer and take its suit as the context's turn-up or
    junior suit (Solo Whist, Russian Boston)."""
    rs = p.rules
    uses_turnup = any(r.trump in ("turnup", "junior") for r in rs.rungs) or rs.suit_rule in (
        "turnup", "junior_senior")
    if not uses_turnup:
        raise SamplingError(f"{rs.id} turns no card of the dealt pack (docs/RULES.md §1.3); "
                            "--turnup does not apply")
    tc = parse_card(p.settings.turnup)
    p.turnup_suit, p.turnup_text = tc // 16, format_card(tc)
    dealer = play_seat_to_compass(DEALER_PLAY_SEAT)
    if p.declarer == dealer and not (p.mask >> tc) & 1:
        raise SamplingError(f"the turn-up {p.turnup_text} belongs to the dealer, who is the "
                            "declarer, but it is not in his hand")
    p.known.append((tc, dealer))
    if rs.suit_rule == "junior_senior":
        p.context.setdefault("junior", STRAINS[p.turnup_suit])
    if rs.suit_rule == "turnup":
        p.context["turnup"] = STRAINS[p.turnup_suit]


def _text(constraint: Any) -> str:
    """A constraint given as text (SamplingError for any other type)."""
    if not isinstance(constraint, str):
        raise SamplingError(f"a constraint is text such as second:S>=5, got "
                            f"{clip(repr(constraint))}")
    return constraint


def resolve(hand: str | int, s: AnalysisSettings) -> Problem:
    """Check ``hand`` and ``s`` and resolve them (NotationError, RulesError or SamplingError,
    in the order the CLI has always reported them)."""
    mask = int(hand) if isinstance(hand, (int, np.integer)) else parse_hand(hand)
    if mask.bit_count() != HAND_CARDS:
        raise NotationError("the hand must hold 13 cards")
    play_seat = parse_play_seat(s.seat)
    declarer = play_seat_to_compass(play_seat)
    ctx = s.context_map
    rs = _load_rules(s, ctx)
    if not isinstance(s.partner, str) or (s.partner not in PARTNER_OFFSETS
                                          and s.partner != PARTNER_AVERAGE):
        raise RulesError(f"unknown partner seat {clip(repr(s.partner))} (use opposite, left, "
                         f"right or {PARTNER_AVERAGE})")
    check_sampling(s)
    known = [k if isinstance(k, tuple) else parse_known(k) for k in s.known]
    partner = (ANY_PARTNER if s.partner == PARTNER_AVERAGE
               else (declarer + PARTNER_OFFSETS[s.partner]) % 4)
    p = Problem(s, mask, play_seat, declarer, partner, rs, ctx, known, [])
    if s.turnup is not None:
        _place_turnup(p)
    p.constraints = [c if isinstance(c, Constraint) else parse_constraint(_text(c))
                     for c in s.constraints]
    return p
