"""Double-dummy results of given deals: the table of every strain x declarer
(:func:`dd_table` -> :class:`DDTable`), or one contract's tricks or yes/no answer.

The searches are planned first (``*_searches``: a position, a solver job row, and where its
answer goes) and solved together (:func:`run_searches`), so that a file of deals is solved in
one parallel batch; the answers do not depend on how the searches are batched.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..cards import (
    COMPASS,
    STRAINS,
    boston_card_transform,
    format_deal,
    mask_array,
    parse_compass,
    parse_deal,
)
from ..errors import BostonSimError

STRAIN_COUNT = 5  # S, H, D, C, NT
OPPOSITE = 2  # seats from the declarer to his partner across the table


@dataclass
class Search:
    """One search of a planned result: ``answer`` is stored under ``where[key]``."""

    position: np.ndarray  # the four hands as the search sees them (boston card moved)
    job: list[int]  # the solver's job row (solver.value_job / question_job)
    where: dict[str, Any]
    key: str
    question: bool = False  # a yes/no answer, else a trick count

    def store(self, answer: int) -> None:
        self.where[self.key] = bool(answer) if self.question else int(answer)


@dataclass
class DDRow:
    """One declaring side of a table: its tricks in each strain with the given leader."""

    declarer: str
    partner: str | None
    leader: str
    tricks: dict[str, int | None] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"declarer": self.declarer, "partner": self.partner, "leader": self.leader,
                "tricks": self.tricks}


@dataclass
class DDTable:
    """The double-dummy tricks of one deal for every strain and declaring side."""

    deal: str
    boston: bool
    rows: list[DDRow]

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of ``boston-sim solve --table --json``."""
        return {"deal": self.deal, "boston": self.boston,
                "table": [r.to_dict() for r in self.rows]}


def _deal(deal: Any) -> np.ndarray:
    """A deal given as PBN text or four hand masks -> ``uint64[4]`` (NotationError for any
    other type or shape)."""
    if isinstance(deal, str):
        return parse_deal(deal)
    hands = mask_array(deal)
    format_deal(hands)  # four hands of cards, or a NotationError saying what is wrong
    return hands


def _position(hands: np.ndarray, strain: int, boston: bool) -> np.ndarray:
    return boston_card_transform(hands, strain) if boston else hands


def table_searches(deal: str | np.ndarray, *, leader: int | None = None, pairs: bool = False,
                   boston: bool = False) -> tuple[DDTable, list[Search]]:
    """The table of a deal (PBN text or four hand masks) with its tricks still to fill, and
    the searches that fill them: every declarer alone (with ``pairs`` also with the partner
    opposite), in every strain; ``leader``: a compass seat, default the declarer's left."""
    from ..solver import declaring_side, value_job

    hands = _deal(deal)
    leader = None if leader is None else parse_compass(leader)
    sides = [(d, None) for d in range(4)]
    if pairs:
        sides += [(d, (d + OPPOSITE) % 4) for d in range(4)]
    table = DDTable(format_deal(hands), boston, [])
    searches: list[Search] = []
    for d, p in sides:
        lead = (d + 1) % 4 if leader is None else leader
        row = DDRow(COMPASS[d], None if p is None else COMPASS[p], COMPASS[lead])
        mask = declaring_side(d, p)
        for s in range(STRAIN_COUNT):
            row.tricks[STRAINS[s]] = None
            searches.append(Search(_position(hands, s, boston), value_job(s, lead, mask),
                                   row.tricks, STRAINS[s]))
        table.rows.append(row)
    return table, searches


def contract_searches(deal: str | np.ndarray, trump: int, leader: int, declarer: int,
                      partner: int | None = None, kind: str | None = None,
                      target: int | None = None, boston: bool = False
                      ) -> tuple[dict[str, Any], list[Search]]:
    """One contract's result (``tricks``, or with ``kind``/``target`` the yes/no ``answer``)
    still to fill, and its one search. Seats are compass seats, ``trump`` a strain index."""
    from ..solver import declaring_side, question_job, value_job

    hands = _deal(deal)
    out: dict[str, Any] = {"deal": format_deal(hands), "boston": boston,
                           "trump": STRAINS[trump], "leader": COMPASS[leader],
                           "declarer": COMPASS[declarer],
                           "partner": None if partner is None else COMPASS[partner]}
    mask = declaring_side(declarer, partner)
    position = _position(hands, trump, boston)
    if kind is None:
        out["tricks"] = None
        return out, [Search(position, value_job(trump, leader, mask), out, "tricks")]
    out["kind"], out["target"], out["answer"] = kind, target, None
    return out, [Search(position, question_job(trump, leader, mask, kind, target), out,
                        "answer", question=True)]


def run_searches(searches: list[Search],
                 progress: Callable[[int], None] | None = None) -> None:
    """Solve planned searches (of any number of deals) in one parallel batch, each answer
    put where its plan says; ``progress(n)``: searches finished (see ``solve_jobs``)."""
    from ..solver import solve_jobs

    if not searches:
        return
    hands = np.stack([np.asarray(s.position, dtype=np.uint64) for s in searches])
    rows = np.array([s.job for s in searches], dtype=np.int64)
    answers = solve_jobs(hands, rows, progress=progress)
    for s, a in zip(searches, answers, strict=True):
        s.store(a)


def dd_table(deal: str | np.ndarray, *, leader: int | None = None, pairs: bool = False,
             boston: bool = False, progress: Callable[[int], None] | None = None) -> DDTable:
    """The double-dummy table of one deal: tricks of every declarer (alone; with ``pairs``
    also with the partner opposite) in S, H, D, C and NT. ``boston``: the boston card is the
    top trump (Russian Boston, A-40); ``progress(n)``: searches finished."""
    if progress is not None and not callable(progress):
        raise BostonSimError(f"progress must be a function of the searches finished, got "
                             f"{type(progress).__name__}")
    table, searches = table_searches(deal, leader=leader, pairs=pairs, boston=boston)
    run_searches(searches, progress)
    return table

