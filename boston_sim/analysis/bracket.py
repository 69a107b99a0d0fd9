"""How much double-dummy flatters a bid: the bracket of its contending rungs.

Every figure of the analysis assumes double-dummy play. For the rungs that decide the
recommendation (the recommended bid, the runner-up and any rung whose EV interval overlaps
the best) the bracket replays a prefix of the analysis's deals five ways, on the same deals
so that the differences are paired:

* ``double_dummy``: all four seats see every card (the analysis's own model);
* ``blind_lead``: the opening leader picks his lead from his own hand (the card with the
  best mean result over layouts he cannot tell apart), the rest double-dummy;
* ``declarer_single_dummy``: the declaring side single-dummy (:mod:`.playout`), the
  defence double-dummy;
* ``defence_single_dummy``: the defenders single-dummy, the declaring side double-dummy;
* ``single_dummy``: everyone single-dummy, the realistic figure the other two bracket.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..cards import boston_card_transform, format_card
from .evaluate import Evaluation, candidate_payments
from .inputs import Problem
from .layouts import Knowledge
from .plan import Candidate, SolveKey
from .playout import Game, Players, Table, cached_values, play_out, step
from .solving import partner_draws
from .statistics import ac_se, se

FIGURES = ("double_dummy", "blind_lead", "declarer_single_dummy", "defence_single_dummy",
           "single_dummy")
FIGURE_LABELS = {
    "double_dummy": "double-dummy", "blind_lead": "blind lead",
    "declarer_single_dummy": "declarer single-dummy",
    "defence_single_dummy": "defence single-dummy", "single_dummy": "both single-dummy"}
BRACKET_DEALS = 24  # deals replayed per rung by default (the SEs printed say what it buys)
BRACKET_LAYOUTS = 10  # K: layouts a single-dummy seat draws per decision
MAX_BRACKET_RUNGS = 3  # contending rungs bracketed at most, best EV first
OVERLAP_Z = 1.96  # two EV intervals of +-1.96 SE that overlap contend
_POLICIES: dict[str, Callable[[bool, int], bool]] = {
    "declarer_single_dummy": lambda declaring, plays: declaring,
    "defence_single_dummy": lambda declaring, plays: not declaring,
    "single_dummy": lambda declaring, plays: True,
}


@dataclass
class BracketInput:
    """One contending rung's replay: its row, candidate, the deals as its game sees them
    (discards made, boston card moved), each deal's declaring side, and its game."""

    row: Mapping[str, Any]
    cand: Candidate
    deals: np.ndarray
    side: np.ndarray
    game: Game
    knowledge: Knowledge


@dataclass
class Bracket:
    """``rungs[rung_id][figure]``: ``p_make``, ``p_make_se``, ``ev_net``, ``ev_net_se``,
    ``deals`` and, beside double-dummy, the paired ``ev_diff`` / ``ev_diff_se`` against it.
    ``realistic_ev[rung]``: its double-dummy EV plus its single-dummy shift (SE in
    ``realistic_ev_se``);
    ``realistic_best``: the best of them, or pass; ``changes_recommendation``: whether it
    differs from the recommendation, ``change_margin`` by how much (difference, SE);
    ``skipped``: contending rungs not replayed, and why;
    ``cost[rung][figure]``: its ``seconds`` and ``solves`` (positions newly solved)."""

    rungs: dict[str, dict[str, dict[str, float | int]]] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    layouts: int = BRACKET_LAYOUTS
    deals: int = 0
    realistic_best: str | None = None
    changes_recommendation: bool = False
    realistic_ev: dict[str, float] = field(default_factory=dict)
    realistic_ev_se: dict[str, float] = field(default_factory=dict)
    change_margin: tuple[float, float] | None = None
    cost: dict[str, dict[str, dict[str, float]]] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)
    elapsed: float = 0.0


def contending(rows: list[Mapping[str, Any]], recommended: str | None,
               runner_up: str | None) -> list[Mapping[str, Any]]:
    """The chosen, priced bid rows that decide the recommendation, best EV first: the
    recommended bid and the runner-up, then those whose EV interval overlaps the best one's,
    :data:`MAX_BRACKET_RUNGS` in all."""
    bids = [r for r in rows if r["chosen"] and r["priced"] and not r["outcome_of"]
            and not math.isnan(float(r["ev_net"]))]
    if not bids:
        return []
    bids.sort(key=lambda r: -float(r["ev_net"]))
    best = bids[0]
    floor = float(best["ev_net"]) - OVERLAP_Z * float(best["ev_net_se"] or 0)
    must = [r for r in bids if r["rung"] in (recommended, runner_up)]
    extra = [r for r in bids if r not in must
             and float(r["ev_net"]) + OVERLAP_Z * float(r["ev_net_se"] or 0) >= floor]
    keep = must[:MAX_BRACKET_RUNGS] + extra[:max(0, MAX_BRACKET_RUNGS - len(must))]
    return sorted(keep, key=lambda r: -float(r["ev_net"]))


def rung_input(row: Mapping[str, Any], cand: Candidate, deals: np.ndarray,
               discards: np.ndarray, sides: np.ndarray, net: np.ndarray, declarer: int,
               rung: Any, knowledge: Knowledge) -> BracketInput:
    """A rung's replay on ``deals`` (a prefix of the analysis's, with its ``discards`` and
    per-deal declaring ``sides``) with ``net``, the declarer's net by the side's tricks.
    Where the game changes the cards (discards, the boston card) the layouts keep the
    known cards but not the constraints on the original hands."""
    key: SolveKey = cand.key
    d = deals
    if key.discard >= 0:
        disc = discards.copy()
        disc[:, declarer] = np.uint64(1) << np.uint64(key.discard)
        d = d & ~disc
    if key.boston:
        d = boston_card_transform(d, key.strain)
    mode = "max" if key.mode == "at_least" else "min"
    game = Game(key.strain, key.leader, mode, net, declarer, rung.exposed)
    if key.discard >= 0 or key.boston:
        knowledge = Knowledge(known=[] if key.boston else knowledge.known)
    return BracketInput(row, cand, d, sides, game, knowledge)


def _or0(x: float) -> float:
    return 0.0 if x is None or math.isnan(x) else float(x)


def _made(bi: BracketInput, won: np.ndarray) -> np.ndarray:
    row = bi.row
    return won >= int(row["target"]) if row["kind"] == "at_least" else won == 0


def _stats(bi: BracketInput, won: np.ndarray, dd_net: np.ndarray | None) -> dict[str, Any]:
    made = _made(bi, won)
    net = bi.game.net[won]
    out: dict[str, Any] = {
        "p_make": float(made.mean()), "p_make_se": ac_se(int(made.sum()), len(made)),
        "ev_net": float(net.mean()), "ev_net_se": se(net), "deals": int(len(won))}
    if dd_net is not None:
        d = net - dd_net
        out["ev_diff"], out["ev_diff_se"] = float(d.mean()), se(d)
    return out


def _start(bi: BracketInput) -> Table:
    return Table.start(bi.deals, bi.side, bi.game.leader, misere=bi.game.mode == "min")


def _values_here(t: Table, bi: BracketInput, pl: Players) -> np.ndarray:
    """The side's tricks from the tables' positions on, double-dummy."""
    return cached_values(pl, bi.game, t.hands, t.trick, t.trick_leader, t.side)


def replay(bi: BracketInput, seed: int, layouts: int,
           solvers: tuple[Callable[..., np.ndarray], Callable[..., np.ndarray]],
           cost: dict[str, dict[str, float]] | None = None) -> dict[str, np.ndarray]:
    """The side's tricks per deal under each figure (:data:`FIGURES`). The runs share one
    table of solved positions: a decision met in two runs (the opening lead, a double-dummy
    seat's early plays) is solved once. ``cost[figure]``: its seconds and new solves."""
    memo: dict[bytes, int] = {}

    def players(policy: Callable[[bool, int], bool]) -> Players:
        return Players(policy, layouts, bi.knowledge, seed, *solvers, memo)

    dd = players(lambda declaring, plays: False)

    def blind_lead() -> np.ndarray:
        t = _start(bi)
        step(t, bi.game, players(lambda declaring, plays: plays == 0))
        return t.won + _values_here(t, bi, dd)

    runs: dict[str, Callable[[], np.ndarray]] = {
        "double_dummy": lambda: _values_here(_start(bi), bi, dd), "blind_lead": blind_lead}
    for name in FIGURES[2:]:
        runs[name] = functools.partial(play_out, _start(bi), bi.game, players(_POLICIES[name]))
    won: dict[str, np.ndarray] = {}
    for name in FIGURES:
        t0, n0 = time.perf_counter(), len(memo)
        won[name] = runs[name]()
        if cost is not None:
            cost[name] = {"seconds": time.perf_counter() - t0, "solves": len(memo) - n0}
    return won


def bracket_rungs(inputs: list[BracketInput], seed: int, layouts: int,
                  recommended: str | None, pass_value: float,
                  solvers: tuple[Callable[..., np.ndarray], Callable[..., np.ndarray]]
                  ) -> Bracket:
    """The bracket of every contending rung (``inputs``). The realistic EV of a rung is its
    double-dummy EV over all the analysis's deals plus the paired single-dummy shift
    measured here (a smaller error than the single-dummy mean of the few deals replayed);
    the best of them, or pass, is compared with ``recommended``."""
    t0 = time.perf_counter()
    br = Bracket(layouts=layouts, deals=len(inputs[0].deals) if inputs else 0)
    realistic: dict[str, float] = {}
    for bi in inputs:
        cost: dict[str, dict[str, float]] = {}
        won = replay(bi, seed, layouts, solvers, cost)
        dd_net = bi.game.net[won["double_dummy"]]
        rid = bi.row["rung"]
        br.names[rid] = bi.row["name"]
        br.cost[rid] = cost
        br.rungs[rid] = {f: _stats(bi, won[f], None if f == "double_dummy" else dd_net)
                         for f in FIGURES}
        shift = br.rungs[rid]["single_dummy"]
        realistic[rid] = float(bi.row["ev_net"]) + shift["ev_diff"]
        # the two errors come from (mostly) different deals: add them as independent
        br.realistic_ev_se[rid] = math.hypot(float(bi.row["ev_net_se"] or 0),
                                             _or0(shift["ev_diff_se"]))
    if realistic:
        best = max(realistic, key=lambda r: realistic[r])
        br.realistic_best = best if realistic[best] >= pass_value else "pass"
        br.changes_recommendation = br.realistic_best != recommended
        if br.changes_recommendation:
            def value(r: str | None) -> tuple[float, float]:
                return ((realistic[r], br.realistic_ev_se[r]) if r in realistic
                        else (pass_value, 0.0))

            (a, sa), (b, sb) = value(br.realistic_best), value(recommended)
            br.change_margin = (a - b, math.hypot(sa, sb))
    br.realistic_ev = realistic
    br.elapsed = time.perf_counter() - t0
    return br


def _candidate_of(cands: list[Candidate], row: Mapping[str, Any]) -> Candidate:
    return next(c for c in cands if c.rung_id == row["rung"] and c.trump == row["trump"]
                and (format_card(c.discard) if c.discard >= 0 else None) == row["discard"])


def _sides(key: SolveKey, seed: int, n: int) -> np.ndarray:
    """Each deal's declaring side, a pair averaged over partners drawing as the solver did."""
    if not key.partners:
        return np.full(n, key.side_mask, np.int64)
    seats = np.asarray(key.partners, np.int64)
    return key.side_mask | (1 << seats[partner_draws(seed, n, len(seats))])


def bracket_analysis(p: Problem, cands: list[Candidate], ev: Evaluation, deals: np.ndarray,
                     discards: np.ndarray) -> Bracket:
    """The bracket of an analysis (``p``, its candidates, evaluation and sampled deals with
    the defenders' discards) on its first ``bracket_deals`` deals."""
    from .. import solver

    s, rec = p.settings, ev.recommendation
    n = min(int(s.bracket_deals), len(deals))
    knowledge = Knowledge(known=list(p.known), constraints=list(p.constraints))
    inputs, skipped = [], {}
    for row in contending(ev.rows, rec.recommended, rec.runner_up):
        rung = p.rules.rung(row["rung"])
        if rung.kind == "exactly":
            skipped[rung.id] = "exactly-n-tricks rungs are not bracketed"
            continue
        cand = _candidate_of(cands, row)
        _, net = candidate_payments(p.rules, rung, cand, p.context, p.mask)
        inputs.append(rung_input(row, cand, deals[:n], discards[:n],
                                 _sides(cand.key, int(s.seed), n), net, p.declarer, rung,
                                 knowledge))
    br = bracket_rungs(inputs, int(s.seed), int(s.bracket_layouts), rec.recommended,
                       rec.pass_value,
                       (solver.solve_positions_value, solver.solve_positions_target))
    br.skipped = skipped
    return br
