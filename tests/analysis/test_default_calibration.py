"""The default mode's estimates (rounds of deals, searches stopping once their rows are
settled, control variates, two-phase counts) are calibrated: over 30 seeds the spread of each
estimate over its mean reported SE lies in 0.75-1.33, and its mean is within 3 SEs of a
fixed-sample reference on other deals. The stopping rule decides how many deals a row gets
from what it has seen, so this is where a bias of optional stopping would show."""

from __future__ import annotations

import math

import numpy as np
import pytest

from boston_sim.analysis import analyze

SEEDS = 30
REFERENCE_SAMPLES = 600
REFERENCE_SEED = 10_000
# (hand, seat, rung, trump, estimates): a strong hand whose Six is the bid (exact counts,
# stops at its P(make)'s SE), a weak one whose Boston is hopeless (two-phase counts,
# settled after one round), and one whose Boston is the bid and its search's lowest rung
# (its makes sampled once only its P(make) is open, some 100 deals)
CASES = [
    ("KQJT9.AK.QJ2.432", "eldest", "six", "S", ("ev_net", "p_make")),
    ("AQJT9.K2.Q72.432", "eldest", "boston", "S", ("ev_net",)),
    ("T93.Q2.AK94.AKQ4", "eldest", "boston", "C", ("ev_net", "p_make")),
]


def _row(a, rung: str, trump: str) -> dict:
    return next(r for r in a.rows if r["rung"] == rung and r["trump"] == trump)


@pytest.mark.slow
@pytest.mark.parametrize(("hand", "seat", "rung", "trump", "fields"), CASES)
def test_default_mode_estimates_are_calibrated(hand, seat, rung, trump, fields):
    runs = [_row(analyze(hand, seat=seat, seed=seed), rung, trump) for seed in range(SEEDS)]
    ref = _row(analyze(hand, seat=seat, samples=REFERENCE_SAMPLES, seed=REFERENCE_SEED),
               rung, trump)
    for field in fields:
        est = np.array([r[field] for r in runs])
        ses = np.array([r[field + "_se"] for r in runs])
        ratio = est.std(ddof=1) / ses.mean()
        assert 0.75 <= ratio <= 1.33, (field, ratio)
        tol = 3 * math.sqrt(est.var(ddof=1) / SEEDS + ref[field + "_se"] ** 2)
        assert abs(est.mean() - ref[field]) <= tol, (field, est.mean(), ref[field], tol)
