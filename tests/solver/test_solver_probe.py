"""Probing at the misère defenders' nodes near the root (``_search._probe_setup``).

Such a node first tries each move with a node budget; a probe that runs out is undone and
its move tried again later with a larger budget, then without one. The budget changes only
the order of the work, never an answer. The tests lower the budget (``probe_nodes``) so
that probes run out even in small endings, and check the answers against the naive minimax,
and on complete deals against the same search whose probes never run out.
"""

from __future__ import annotations

import random

import naive
import numpy as np
import pytest
from naive import lanes

from boston_sim.cards import parse_hand
from boston_sim.sampler import Sampler
from boston_sim.solver import to_lanes
from boston_sim.solver.kernels import PROBE_NODES, ask_lanes, new_workspace


def workspace(budget: int):
    ws = new_workspace(16)
    assert ws.probe_nodes == PROBE_NODES  # the default every solver workspace gets
    ws.probe_nodes = budget
    return ws


def misere(ws, hl: np.ndarray, trump: int, leader: int, d: int) -> tuple[bool, int]:
    """Can lone ``d`` take no trick? And the nodes the search expanded."""
    ws.reset_stats()
    before = hl.copy()
    ans = bool(ask_lanes(hl, trump, leader, 1 << d, ws, kind="at_most", target=0))
    assert np.array_equal(hl, before)  # the cards of probes that ran out were put back
    return ans, ws.stats().nodes


@pytest.mark.parametrize("n", [4, 5])
def test_probes_that_run_out_do_not_change_misere_answers(n: int) -> None:
    rng = random.Random(3100 + n)
    tiny, big = workspace(1), workspace(1 << 40)
    changed = 0
    for _ in range(40 if n == 4 else 12):
        hands = naive.random_ending(rng, n)
        trump = rng.choice([4, 4, 0, 1, 2, 3])
        d = rng.randrange(4)
        for leader in range(4):
            want = naive.min_tricks(hands, trump, leader, 1 << d) == 0
            got, nodes_tiny = misere(tiny, lanes(hands), trump, leader, d)
            assert got == want, (hands, trump, d, leader)
            got_big, nodes_big = misere(big, lanes(hands), trump, leader, d)
            assert got_big == want, (hands, trump, d, leader)
            changed += nodes_tiny != nodes_big
    assert changed  # the budget ran out somewhere: the retry path was exercised


def test_probes_on_complete_deals_agree_with_unbudgeted_search() -> None:
    """Whole deals of a hand a player might call misère on, declarer on lead and not: the
    default budget (probes run out there) and no budget give the same answers."""
    deals = Sampler(parse_hand("J73.T62.8532.742"), 0, seed=1).draw(8).deals
    default, big = workspace(PROBE_NODES), workspace(1 << 40)
    changed = 0
    for i, deal in enumerate(to_lanes(deals)):
        leader = i % 2  # N (the declarer) or E on lead
        got, n1 = misere(default, deal.copy(), 4, leader, 0)
        want, n2 = misere(big, deal.copy(), 4, leader, 0)
        assert got == want, i
        changed += n1 != n2
    assert changed
