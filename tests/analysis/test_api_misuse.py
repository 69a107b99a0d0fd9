"""The Python API raises the project's errors (``BostonSimError``, a ``ValueError``) for
wrong types and out-of-range numbers, checked before any work: never ``TypeError``,
``OverflowError`` or a numba typing error from deep inside."""

from __future__ import annotations

import pytest

import boston_sim as bs
from boston_sim.errors import BostonSimError
from boston_sim.settings import AnalysisSettings
from boston_sim.solver import solve_target

DEAL = "N:AKQ2.JT9.876.543 JT98.AKQ.AKQ.AKQ 7654.8765.5432.2 3.432.JT9.JT9876"
HAND = "AKQ2.JT9.876.543"

MISUSE = [
    lambda: solve_target(DEAL, 0, 1, 0, kind="at_least", target=2**70),
    lambda: solve_target(DEAL, 0, 1, 0, kind="at_least", target=14),
    lambda: AnalysisSettings(seed=-1),
    lambda: AnalysisSettings(seed=2**64),
    lambda: AnalysisSettings.build(bogus=1),
    lambda: AnalysisSettings(options=[1, 2]),
    lambda: bs.analyze(HAND, samples=10**12),
    lambda: bs.analyze(HAND, samples="10"),
    lambda: bs.analyze(HAND, samples=1),
    lambda: bs.analyze(HAND, risk_threshold=float("nan")),
    lambda: bs.analyze(HAND, risk_threshold=float("inf")),
    lambda: bs.analyze(HAND, max_time=-1),
    lambda: bs.analyze(HAND, threads=2**70),
    lambda: bs.analyze(HAND, precision=0),
    lambda: bs.analyze(HAND, options={"pool": 1e308}),
    lambda: bs.analyze(HAND, constraints=["second:S>=" + "9" * 4301]),
    lambda: bs.analyze(HAND, known=[1]),
    lambda: solve_target(DEAL, 0, 1, 0, kind=[], target=3),
    lambda: bs.load_rules("r" * 300),
    lambda: bs.load_rules("boston_foster", "pool=1"),
    lambda: bs.load_rules(None),
    lambda: bs.run_batch(None),
    lambda: bs.analyze(HAND, known=[("SA", "dealer", 3)]),
]


@pytest.mark.parametrize("call", MISUSE)
def test_misuse_raises_a_project_error(call):
    with pytest.raises(BostonSimError):
        call()


def test_an_unknown_setting_is_still_a_type_error_too():
    with pytest.raises(TypeError):
        AnalysisSettings.build(bogus=1)
