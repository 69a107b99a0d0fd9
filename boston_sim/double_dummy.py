"""``boston_sim.solve`` and ``boston_sim.solve_target``: one deal's double-dummy answer, asked
the way a player names a contract (the declarer first, the leader by keyword).

``solve(deal, trump, declarer, leader=..., partner=...)``; without ``leader`` the declarer's
left-hand opponent leads (the next seat clockwise, as ``boston-sim solve``), or with
``dealer=`` the eldest hand, the dealer's left (who leads most contracts, docs/RULES.md §1.4).
The older positional order of :func:`boston_sim.solver.solve`, ``(deal, trump, leader,
declarer[, partner])``, still works and warns (DeprecationWarning).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .cards import parse_compass
from .errors import SolverInputError

Seat = str | int
OLD_ORDER_NOTE = ("solve(deal, trump, leader, declarer) is the older order; write "
                  "solve(deal, trump, declarer, leader=...)")
DEFAULT_DECLARER = "N"
SEATS = 4


def _seat(value: Seat, what: str) -> int:
    if isinstance(value, np.integer):  # as an int, like the trump and the analysis' seat
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise SolverInputError(f"{what} must be a seat N, E, S or W (or 0..3), got {value!r}")
    if isinstance(value, int):
        if not 0 <= value < SEATS:
            raise SolverInputError(f"{what} must be a seat N, E, S or W (or 0..3), got {value}")
        return value
    return parse_compass(value)


def seats_of(seats: tuple[Any, ...], declarer: Seat | None, leader: Seat | None,
             partner: Seat | None, dealer: Seat | None) -> tuple[int, int, int | None]:
    """(leader, declarer, partner) as compass seats 0..3 from either form of the call."""
    if len(seats) > 1:  # the older order: leader, declarer[, partner]
        if len(seats) > 3 or declarer is not None or leader is not None or (
                len(seats) == 3 and partner is not None):
            raise TypeError("give the seats either as (declarer, leader=..., partner=...) or "
                            "in the older order (leader, declarer[, partner]), not both")
        warnings.warn(OLD_ORDER_NOTE, DeprecationWarning, stacklevel=3)
        leader, declarer = seats[0], seats[1]
        partner = seats[2] if len(seats) == 3 else partner
    elif seats:
        if declarer is not None:
            raise TypeError("declarer given twice (positionally and as declarer=)")
        declarer = seats[0]
    d = _seat(DEFAULT_DECLARER if declarer is None else declarer, "declarer")
    if leader is not None:
        lead = _seat(leader, "leader")
    elif dealer is not None:
        lead = (_seat(dealer, "dealer") + 1) % SEATS
    else:
        lead = (d + 1) % SEATS
    return lead, d, None if partner is None else _seat(partner, "partner")


def solve(deal: Any, trump: Any, *seats: Any, declarer: Seat | None = None,
          leader: Seat | None = None, partner: Seat | None = None,
          dealer: Seat | None = None) -> int:
    """Tricks the declaring side wins under best play by all (the side maximises).

    ``deal``: PBN string (``"N:AKQ2.JT9.876.543 ..."``) or four uint64 hand masks (N, E, S,
    W); ``trump``: ``"S" "H" "D" "C" "NT"`` or 0..4; seats ``"N" "E" "S" "W"`` or 0..3.
    Call it ``solve(deal, trump, declarer, leader=..., partner=...)``: ``declarer`` defaults
    to N; ``leader`` to the declarer's left-hand opponent, or with ``dealer=`` to the eldest
    hand (the dealer's left); ``partner=None`` is the declarer alone against three. The older
    positional ``solve(deal, trump, leader, declarer[, partner])`` still works (it warns).
    """
    from .solver import solve as solve_deal

    lead, d, p = seats_of(seats, declarer, leader, partner, dealer)
    return solve_deal(deal, trump, lead, d, p)


def solve_target(deal: Any, trump: Any, *seats: Any, kind: str, target: int,
                 declarer: Seat | None = None, leader: Seat | None = None,
                 partner: Seat | None = None, dealer: Seat | None = None) -> bool:
    """Yes/no: can the declaring side make sure of ``kind`` ``target`` tricks? ``kind``:
    ``"at_least"``, ``"at_most"`` (misère is ``at_most 0``) or ``"exactly"``. The seats as
    for :func:`solve`."""
    from .solver import solve_target as ask_deal

    lead, d, p = seats_of(seats, declarer, leader, partner, dealer)
    return ask_deal(deal, trump, lead, d, p, kind=kind, target=target)
