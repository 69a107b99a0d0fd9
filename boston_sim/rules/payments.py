"""Pricing: a rung's dense per-adversary payment vector, the pool term, the trump check, and
classic Boston's all-pass settlement in red counters.

Conventions (docs/RULES.md §0): ``t`` is the number of tricks won by the declaring side; a
vector has one entry per t = 0..13, NaN where the rung is unpriced or t impossible. Amounts
in a rule-set file are unsigned: received on success, paid on failure.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from ..cards import NT, parse_strain
from ..errors import NotationError, RulesError
from .model import MAX_TRICKS, N_PLAYERS, STRAIN_LETTERS, Rung

if TYPE_CHECKING:
    from .ruleset import RuleSet


def base_amount(rs: RuleSet, p: Mapping[str, Any]) -> float:
    """A linear tariff's base, in the rule set's unit (red counters converted, A-02)."""
    if "base_red" in p:
        return float(p["base_red"]) * float(rs.options["red_in_white"])
    return float(p["base"])


def flat_amount(rs: RuleSet, rung: Rung, p: Mapping[str, Any]) -> float:
    """A flat tariff's amount: given in red or white counters, or looked up in a table."""
    if "amount_red" in p:
        return float(p["amount_red"]) * float(rs.options["red_in_white"])
    if "table" in p:
        return float(rs.tables[p["table"]][rung.id])
    return float(p["amount"])


def payment_vector(rs: RuleSet, rung: Rung, p: Mapping[str, Any]) -> np.ndarray:
    """float64[14]: the per-adversary amount of one rung under payment record ``p``."""
    out = np.full(MAX_TRICKS + 1, np.nan)
    if not rung.priced:
        return out
    typ = p["type"]
    for t in range(rung.tricks + 1):
        ok = rung.success(t)
        if typ == "table":
            amt = _table_amount(rs, rung, p, t, ok)
        elif typ == "flat":
            a = flat_amount(rs, rung, p)
            amt = a if ok else -a
        else:
            amt = _linear_amount(rs, rung, p, t, ok)
        out[t] = amt
    return out * rs.multiplier


def _table_amount(rs: RuleSet, rung: Rung, p: Mapping[str, Any], t: int, ok: bool) -> float:
    """A trick bid priced by tables: success by tricks taken, failure by tricks short."""
    n = rung.target
    if ok:
        row = rs.tables[p["success"]][str(n)]
        return float(row[t - n]) if isinstance(row, list) else float(row)
    short = n - t
    if rung.slam_failure and rs.options.get("slam_failure") == "one_trick":
        short = 1  # thrown up at the first lost trick
    return -float(rs.tables[p["failure"]][str(n)][short - 1])


def _linear_amount(rs: RuleSet, rung: Rung, p: Mapping[str, Any], t: int, ok: bool) -> float:
    """A base amount, plus or minus so much per trick over or under the target."""
    n = rung.target
    base = base_amount(rs, p)
    over, under = float(p.get("over", 0)), float(p.get("under", 0))
    if rung.kind != "at_least":
        return base if ok else -(base + float(p.get("fail_extra", 0)))
    if ok:
        amt = base + over * (t - n)
        if t == MAX_TRICKS and p.get("slam_double"):
            amt *= 2
        return amt
    if t == 0 and p.get("zero_double_tricks") is not None:
        return -2 * (base + under * int(p["zero_double_tricks"]))
    return -(base + float(p.get("fail_extra", 0)) + under * (n - t))


def pool_size(rs: RuleSet) -> float:
    """The rule set's pool (option ``pool``, A-07); 0 where it has none."""
    return float(rs.options.get("pool", 0) or 0)


def add_pool(net: np.ndarray, rung: Rung, pool: float) -> np.ndarray:
    """``net`` plus the pool term: ``+pool`` on the success of a rung with ``pool_bid``,
    ``-pool`` on the failure of a rung with ``pool_double`` (A-07, docs/RULES.md §3.1)."""
    if not pool:
        return net
    ok = rung.success_vector()
    return net + np.where(ok, pool if rung.pool_bid else 0.0, -pool if rung.pool_double else 0.0)


def pool_term(rung: Rung, success: bool, pool: float) -> float:
    """The pool term of one result, as :func:`add_pool` adds it."""
    term = (pool if rung.pool_bid else 0.0) if success else (-pool if rung.pool_double else 0.0)
    return term + 0.0  # no -0.0 in output


def check_trump(rs: RuleSet, rung: Rung, trump: str | int | None) -> int | None:
    """Parse a trump and check it suits the rung's trump rule."""
    if trump is None:
        return None
    try:
        s = parse_strain(trump)
    except NotationError as e:
        raise RulesError(str(e)) from None
    if rung.trump == "none" and s != NT:
        raise RulesError(f"{rung.name} ({rs.id}) is played without trumps, not {STRAIN_LETTERS[s]}")
    if rung.trump != "none" and rung.trump != "declarer_choice_or_nt" and s == NT:
        raise RulesError(f"{rung.name} ({rs.id}) cannot be played at no-trump")
    return s


GRAND_SOLO_RED = 2
"""What the last-trick winner of Solo Whist's all-pass Grand pays each other player: the
value of a solo, 2 red counters (docs/RULES.md §2.3.3, A-29)."""


def grand_all_pass_red(last: int) -> list[float]:
    """Solo Whist's all-pass Grand settled in red counters: the winner of the last trick
    (``last``, 0-3) pays each other player :data:`GRAND_SOLO_RED` (A-29). Returns each
    player's result (positive = receives)."""
    if isinstance(last, bool) or not isinstance(last, (int, np.integer)) or not (
            0 <= last < N_PLAYERS):
        raise RulesError(f"grand: the last trick's winner must be a player 0-3, not {last!r}")
    red = [float(GRAND_SOLO_RED)] * N_PLAYERS
    red[int(last)] = -float(GRAND_SOLO_RED) * (N_PLAYERS - 1)
    return red


def misere_partout_red(tricks: list[int]) -> list[float]:
    """The seed's Misère Partout settlement in red counters (docs/RULES.md §2.1.5, A-16).

    ``tricks``: the four players' tricks (non-negative, summing to 13). The players with the
    most tricks (m) lose: each other player j receives (m - t_j) red counters in all, paid in
    equal shares by the k tied losers. Returns each player's result in red counters
    (positive = receives).
    """
    if not isinstance(tricks, (list, tuple)) or len(tricks) != N_PLAYERS:
        raise RulesError("misère partout needs the tricks of exactly 4 players")
    vals: list[int] = []
    for x in tricks:
        if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or x < 0:
            raise RulesError(f"misère partout: tricks must be whole numbers >= 0, not {x!r}")
        vals.append(int(x))
    if sum(vals) != MAX_TRICKS:
        raise RulesError(f"misère partout: tricks {vals} sum to {sum(vals)}, not 13")
    m = max(vals)
    losers = [i for i, t in enumerate(vals) if t == m]
    k = len(losers)
    red = [0.0] * N_PLAYERS
    for j, tj in enumerate(vals):
        if j in losers:
            continue
        red[j] += m - tj
        for i in losers:
            red[i] -= (m - tj) / k
    return red
